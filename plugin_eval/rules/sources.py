"""The documentation pages rules follow, linked from their `plugin-eval rule CODE` pages."""

from __future__ import annotations

from plugin_eval.rules.base import DocLink

SPEC = DocLink("Agent Skills specification", "https://agentskills.io/specification")
SKILLS_REF = DocLink(
    "skills-ref validator",
    "https://github.com/agentskills/agentskills/blob/main/skills-ref/src/skills_ref/validator.py",
)
CLAUDE_SKILLS = DocLink("Claude Code: skills", "https://docs.claude.com/en/docs/claude-code/skills")
BEST_PRACTICES = DocLink(
    "Anthropic: skill authoring best practices",
    "https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices",
)
QUICK_VALIDATE = DocLink(
    "anthropics/skills quick_validate.py",
    "https://github.com/anthropics/skills/blob/main/skills/skill-creator/scripts/quick_validate.py",
)
CODEX_SKILLS = DocLink("OpenAI Codex: skills", "https://developers.openai.com/codex/skills")
CLAUDE_AGENTS = DocLink(
    "Claude Code: subagents", "https://docs.claude.com/en/docs/claude-code/sub-agents"
)
CLAUDE_MODELS = DocLink(
    "Claude Code: model configuration", "https://code.claude.com/docs/en/model-config"
)
CLAUDE_COMMANDS = DocLink(
    "Claude Code: slash commands", "https://docs.claude.com/en/docs/claude-code/slash-commands"
)
CLAUDE_PLUGINS = DocLink(
    "Claude Code: plugins reference",
    "https://docs.claude.com/en/docs/claude-code/plugins-reference",
)
CLAUDE_HOOKS = DocLink(
    "Claude Code: hooks reference", "https://docs.claude.com/en/docs/claude-code/hooks"
)
GITIGNORE = DocLink("git: gitignore", "https://git-scm.com/docs/gitignore")
SEMVER = DocLink("Semantic Versioning 2.0.0", "https://semver.org/")
YAML = DocLink("YAML 1.2.2 specification", "https://yaml.org/spec/1.2.2/")
COMMONMARK = DocLink(
    "CommonMark: fenced code blocks", "https://spec.commonmark.org/0.31.2/#fenced-code-blocks"
)
JSON = DocLink("RFC 8259: JSON", "https://www.rfc-editor.org/rfc/rfc8259")
