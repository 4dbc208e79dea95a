"""plugin-eval: lint and score Agent Skills and Claude Code plugins."""

__version__ = "0.1.0"
