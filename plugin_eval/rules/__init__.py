"""The rule registry: adding a rule is one module and one line here.

Rule modules are imported by name, not looked up at run time, so the type checker knows
each ``RULE`` is a skill ``Rule`` or a ``PluginRule`` and a rule in the wrong list fails
type checking rather than at run time.
"""

from __future__ import annotations

from plugin_eval.rules import (
    pe000_internal_error,
    pe001_no_frontmatter,
    pe002_unclosed_frontmatter,
    pe003_invalid_yaml,
    pe004_not_mapping,
    pe005_unreadable,
    pe006_empty_file,
    pe007_duplicate_key,
    pe008_unknown_suppression,
    pe009_unused_suppression,
    pe010_below_threshold,
    pe011_listing_incomplete,
    pe012_not_scored,
    pe101_empty_description,
    pe102_missing_trigger,
    pe103_missing_name,
    pe104_invalid_name,
    pe105_name_folder_mismatch,
    pe106_description_too_long,
    pe107_angle_brackets,
    pe108_unknown_field,
    pe109_field_type,
    pe110_compatibility_too_long,
    pe111_listing_cap,
    pe112_reserved_word,
    pe113_third_person,
    pe114_precedence_claim,
    pe115_description_cut,
    pe201_orphan_reference,
    pe202_dead_cross_ref,
    pe203_link_outside,
    pe204_unlinked_reference,
    pe205_deep_reference,
    pe206_missing_script,
    pe207_reference_chain,
    pe208_unmentioned_script,
    pe209_missing_section,
    pe210_missing_dependency,
    pe211_missing_named_file,
    pe212_dead_link_in_reference,
    pe301_bloated_skill,
    pe302_over_constrained,
    pe303_body_too_long,
    pe304_unclosed_fence,
    pe305_empty_body,
    pe306_evaluator_directed,
    pe307_mispaired_fence,
    pe308_empty_section,
    pe309_inert_gitignore_line,
    pe310_hook_snippet,
    pe401_codex_size,
    pe402_claude_tool_names,
    pe403_tool_prose,
    pe404_windows_path,
    pe501_manifest_invalid,
    pe502_manifest_fields,
    pe503_plugin_name,
    pe504_plugin_version,
    pe505_manifest_paths,
    pe506_manifests_disagree,
    pe507_empty_plugin,
    pe508_misplaced_component,
    pe601_agent_frontmatter,
    pe602_agent_description,
    pe603_agent_tools,
    pe604_agent_model,
    pe605_agent_name_collision,
    pe606_agent_unknown_field,
    pe701_command_description,
    pe702_command_argument_hint,
    pe703_command_allowed_tools,
    pe704_command_unknown_field,
    pe801_hooks_invalid,
    pe802_hook_input_env,
    pe803_hook_script_missing,
)
from plugin_eval.rules.base import PluginRule, Rule, RuleDoc

SKILL_RULES: tuple[Rule, ...] = (
    pe001_no_frontmatter.RULE,
    pe002_unclosed_frontmatter.RULE,
    pe003_invalid_yaml.RULE,
    pe004_not_mapping.RULE,
    pe005_unreadable.RULE,
    pe006_empty_file.RULE,
    pe007_duplicate_key.RULE,
    pe101_empty_description.RULE,
    pe102_missing_trigger.RULE,
    pe103_missing_name.RULE,
    pe104_invalid_name.RULE,
    pe105_name_folder_mismatch.RULE,
    pe106_description_too_long.RULE,
    pe107_angle_brackets.RULE,
    pe108_unknown_field.RULE,
    pe109_field_type.RULE,
    pe110_compatibility_too_long.RULE,
    pe111_listing_cap.RULE,
    pe112_reserved_word.RULE,
    pe113_third_person.RULE,
    pe114_precedence_claim.RULE,
    pe115_description_cut.RULE,
    pe201_orphan_reference.RULE,
    pe202_dead_cross_ref.RULE,
    pe203_link_outside.RULE,
    pe204_unlinked_reference.RULE,
    pe205_deep_reference.RULE,
    pe206_missing_script.RULE,
    pe207_reference_chain.RULE,
    pe208_unmentioned_script.RULE,
    pe209_missing_section.RULE,
    pe210_missing_dependency.RULE,
    pe211_missing_named_file.RULE,
    pe212_dead_link_in_reference.RULE,
    pe301_bloated_skill.RULE,
    pe302_over_constrained.RULE,
    pe303_body_too_long.RULE,
    pe304_unclosed_fence.RULE,
    pe305_empty_body.RULE,
    pe306_evaluator_directed.RULE,
    pe307_mispaired_fence.RULE,
    pe308_empty_section.RULE,
    pe309_inert_gitignore_line.RULE,
    pe310_hook_snippet.RULE,
    pe401_codex_size.RULE,
    pe402_claude_tool_names.RULE,
    pe403_tool_prose.RULE,
    pe404_windows_path.RULE,
)
PLUGIN_RULES: tuple[PluginRule, ...] = (
    pe501_manifest_invalid.RULE,
    pe502_manifest_fields.RULE,
    pe503_plugin_name.RULE,
    pe504_plugin_version.RULE,
    pe505_manifest_paths.RULE,
    pe506_manifests_disagree.RULE,
    pe507_empty_plugin.RULE,
    pe508_misplaced_component.RULE,
    pe601_agent_frontmatter.RULE,
    pe602_agent_description.RULE,
    pe603_agent_tools.RULE,
    pe604_agent_model.RULE,
    pe605_agent_name_collision.RULE,
    pe606_agent_unknown_field.RULE,
    pe701_command_description.RULE,
    pe702_command_argument_hint.RULE,
    pe703_command_allowed_tools.RULE,
    pe704_command_unknown_field.RULE,
    pe801_hooks_invalid.RULE,
    pe802_hook_input_env.RULE,
    pe803_hook_script_missing.RULE,
)
# Codes the engine reports itself: a rule that raised, suppression comments that misfire,
# an item under the run's threshold, a folder or plugin read in part.
INTERNAL_ERROR = pe000_internal_error.RULE
UNKNOWN_SUPPRESSION = pe008_unknown_suppression.RULE
UNUSED_SUPPRESSION = pe009_unused_suppression.RULE
BELOW_THRESHOLD = pe010_below_threshold.RULE
LISTING_INCOMPLETE = pe011_listing_incomplete.RULE
NOT_SCORED = pe012_not_scored.RULE
ENGINE_RULES: tuple[RuleDoc, ...] = (
    INTERNAL_ERROR,
    UNKNOWN_SUPPRESSION,
    UNUSED_SUPPRESSION,
    BELOW_THRESHOLD,
    LISTING_INCOMPLETE,
    NOT_SCORED,
)
ALL_RULES: tuple[RuleDoc, ...] = tuple(
    sorted((*ENGINE_RULES, *SKILL_RULES, *PLUGIN_RULES), key=lambda rule: rule.code)
)
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


def counts_toward(rule: RuleDoc) -> str:
    """What a rule's findings lower: the penalty, one sub-score, or nothing (PE000)."""
    return "penalty" if rule.anti_pattern else rule.subscore or "nothing"
