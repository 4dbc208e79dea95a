"""The Monte Carlo layer: does a router pick this skill when it should, and only then?

Nothing here is imported at ``--depth quick``: scipy and the model SDKs load only when
the layer runs (``engine.score_skill`` imports ``layer`` lazily).
"""
