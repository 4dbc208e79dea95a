"""The rule registry: adding a rule is one module and one line here."""

from __future__ import annotations

from importlib import import_module

from plugin_eval.rules.base import PluginRule, Rule, RuleDoc

MODULES = (
    "pe001_no_frontmatter",
    "pe002_unclosed_frontmatter",
    "pe003_invalid_yaml",
    "pe004_not_mapping",
    "pe005_unreadable",
    "pe006_empty_file",
    "pe007_duplicate_key",
    "pe101_empty_description",
    "pe102_missing_trigger",
    "pe103_missing_name",
    "pe104_invalid_name",
    "pe105_name_folder_mismatch",
    "pe106_description_too_long",
    "pe107_angle_brackets",
    "pe108_unknown_field",
    "pe109_field_type",
    "pe110_compatibility_too_long",
    "pe111_listing_cap",
    "pe112_reserved_word",
    "pe113_third_person",
    "pe201_orphan_reference",
    "pe202_dead_cross_ref",
    "pe203_link_outside",
    "pe204_unlinked_reference",
    "pe205_deep_reference",
    "pe301_bloated_skill",
    "pe302_over_constrained",
    "pe303_body_too_long",
    "pe304_unclosed_fence",
    "pe305_empty_body",
    "pe401_codex_size",
    "pe402_claude_tool_names",
    "pe403_tool_prose",
    "pe404_windows_path",
)

PLUGIN_MODULES = (
    "pe501_manifest_invalid",
    "pe502_manifest_fields",
    "pe503_plugin_name",
    "pe504_plugin_version",
    "pe505_manifest_paths",
    "pe506_manifests_disagree",
    "pe601_agent_frontmatter",
    "pe602_agent_description",
    "pe603_agent_tools",
    "pe604_agent_model",
    "pe605_agent_name_collision",
    "pe701_command_description",
    "pe702_command_argument_hint",
    "pe703_command_allowed_tools",
)

SKILL_RULES: tuple[Rule, ...] = tuple(
    import_module(f"plugin_eval.rules.{name}").RULE for name in MODULES
)
PLUGIN_RULES: tuple[PluginRule, ...] = tuple(
    import_module(f"plugin_eval.rules.{name}").RULE for name in PLUGIN_MODULES
)
ALL_RULES: tuple[RuleDoc, ...] = SKILL_RULES + PLUGIN_RULES
BY_CODE: dict[str, RuleDoc] = {rule.code: rule for rule in ALL_RULES}
BY_FLAG: dict[str, RuleDoc] = {rule.flag: rule for rule in ALL_RULES}
ANTI_PATTERNS: frozenset[str] = frozenset(r.flag for r in ALL_RULES if r.anti_pattern)


def lookup(code_or_name: str) -> RuleDoc | None:
    """A rule by code (PE201), flag (ORPHAN_REFERENCE) or name (orphan-reference)."""
    key = code_or_name.strip()
    return (
        BY_CODE.get(key.upper())
        or BY_FLAG.get(key.upper())
        or next((r for r in ALL_RULES if r.name == key.lower()), None)
    )
