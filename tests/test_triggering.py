"""The triggering score follows the rubric bands of seed 002's references/rubrics.md."""

from __future__ import annotations

import math
import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval import triggering
from plugin_eval.reference_words import description_digest
from plugin_eval.triggering import analyse, technical_terms
from tests.conftest import MakeSkill, codes, frontmatter, score

# The four rated example descriptions of the rubric, with their rated band.
RATED = [
    ("PluginEval quality methodology — dimensions, rubrics, statistical methods.", 0.20, 0.39),
    (
        "PluginEval quality methodology — dimensions, rubrics. Use when understanding evaluation.",
        0.40,
        0.59,
    ),
    (
        "PluginEval quality methodology. Use this skill when understanding how plugin quality is "
        "measured or when interpreting evaluation results.",
        0.60,
        0.79,
    ),
    (
        "PluginEval quality methodology — dimensions, rubrics, statistical methods. Use this skill "
        "when understanding how plugin quality is measured, interpreting evaluation results, "
        "setting score thresholds, or explaining quality badges to stakeholders.",
        0.80,
        1.00,
    ),
]


@pytest.mark.parametrize(("description", "low", "high"), RATED)
def test_rated_rubric_descriptions_land_in_their_band(
    description: str, low: float, high: float
) -> None:
    score = analyse(description, name="evaluation-methodology").score
    assert low <= score <= high


@pytest.mark.parametrize(("description", "low", "high"), RATED)
def test_rated_descriptions_reach_the_dimension_through_the_report(
    description: str, low: float, high: float, make_skill: MakeSkill
) -> None:
    result = score(make_skill(frontmatter(f'"{description}"')))
    triggering = next(d for d in result.composite.dimensions if d.name == "triggering_accuracy")
    assert triggering.score is not None
    assert low <= triggering.score <= high


@pytest.mark.parametrize(
    "description",
    ["", "CSV", "example skill", "A skill about evaluation"],
)
def test_absent_or_vague_descriptions_are_unusable(description: str) -> None:
    assert analyse(description, name="example-skill").score < 0.20


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Formats reports. Use for CSV exports, column cleanup, and merge conflicts.", 3),
        ("Formats reports. Use when designing, building, or reviewing REST APIs.", 3),
        (
            "Formats reports. Use when exporting CSV tables; cleaning column names; merging ledger files.",
            3,
        ),
        (
            "Formats reports. Use this skill only when exporting CSV tables or merging spreadsheets.",
            2,
        ),
        ("Formats reports. For CSV exports, column cleanup, and ledger merges.", 3),
        (
            "Ledger toolkit. Use when merging quarterly CSV exports. Best for audit-ready ledger"
            " files, reconciling bank statements.",
            3,
        ),
    ],
)
def test_contexts_are_counted_however_they_are_joined(description: str, expected: int) -> None:
    assert len(analyse(description).specific_contexts) == expected


@pytest.mark.parametrize(
    "description",
    [
        "Formats CSV reports. For ledger merges, use the ledger skill instead.",
        "Formats CSV reports. For quick looks, see the preview skill.",
        "A formatter for CSV reports and ledger files.",
    ],
)
def test_a_for_phrase_that_sends_elsewhere_or_sits_mid_sentence_is_no_trigger(
    description: str,
) -> None:
    assert not analyse(description).has_trigger


def test_length_alone_earns_nothing() -> None:
    short = "Formats CSV reports for finance teams and their auditors."
    padded = short + " It is thorough, careful, complete and very well documented." * 8
    assert analyse(padded).score == analyse(short).score


def test_generic_single_context_scores_below_a_specific_one() -> None:
    generic = analyse("CSV report helper. Use when working with files.")
    specific = analyse("CSV report helper. Use when merging quarterly CSV exports.")
    assert generic.score < specific.score < 0.60


@pytest.mark.parametrize(
    "description",
    [
        "Formats CSV reports. Use when exporting tables.",
        "Formats CSV reports. Use for exporting tables.",
        "Formats CSV reports. Use to export tables.",
        "Formats CSV reports. Use this skill ONLY when exporting tables.",
        "Formats CSV reports. This skill should be used when exporting tables.",
        "Formats CSV reports. Invoke when exporting tables.",
        "Formats CSV reports. Activate when exporting tables.",
        "Formats CSV reports. Triggers on CSV export requests.",
        "Formats CSV reports. Use PROACTIVELY for exporting tables.",
        "格式化 CSV 报表。用于导出表格、清理列名和合并文件。",
        "格式化 CSV 报表。当需要导出表格时使用。",
        "Formatea informes CSV. Úsalo cuando exportes tablas.",
        "Formats CSV reports. When exporting tables or merging ledgers, use this skill.",
        "Formats CSV reports. For exporting tables and merging ledgers.",
        "Formats CSV reports. Best for quarterly ledger merges.",
        "Formats CSV reports. Ideal for batch exports of finance tables.",
    ],
)
def test_trigger_statements_are_recognised(description: str) -> None:
    assert analyse(description).has_trigger


def test_when_to_use_field_counts_as_a_trigger(make_skill: MakeSkill) -> None:
    folder = make_skill(
        frontmatter(
            "Formats CSV reports for finance teams.",
            extra="when_to_use: Exporting ledgers, cleaning column names, or merging CSV files.\n",
        )
    )
    result = score(folder)
    assert "PE102" not in codes(result)
    assert result.subscores["frontmatter_quality"].score >= 0.75


@pytest.mark.parametrize("extra", ["disable-model-invocation: true\n", "paths: ['**/*.csv']\n"])
def test_skills_that_do_not_trigger_from_text_are_exempt(extra: str, make_skill: MakeSkill) -> None:
    folder = make_skill(frontmatter("Formats CSV reports for finance teams.", extra=extra))
    assert "PE102" not in codes(score(folder))


def test_missing_trigger_fires_on_topic_only_description(make_skill: MakeSkill) -> None:
    folder = make_skill(frontmatter("Formats CSV reports for finance teams and auditors."))
    assert "PE102" in codes(score(folder))


def test_a_situation_written_before_the_trigger_counts() -> None:
    analysis = analyse(
        "Formats CSV reports. When exporting tables, cleaning column names or merging ledger "
        "files, use this skill."
    )
    assert analysis.trigger_phrase == "use this skill"
    assert len(analysis.specific_contexts) == 3 and analysis.score >= 0.80


def test_concrete_capabilities_without_a_trigger_beat_a_topic_label() -> None:
    label = analyse("Spreadsheet utilities for finance teams.")
    concrete = analyse(
        "Parquet toolkit. Read/write Parquet and Arrow IPC files, inspect row-group statistics, "
        "repartition datasets by column, convert CSV/JSONL to Parquet, for DuckDB and Spark "
        "pipelines."
    )
    assert not concrete.has_trigger
    assert label.score <= 0.35 < 0.55 <= concrete.score <= 0.69


def test_a_condition_over_every_request_separates_nothing() -> None:
    broad = analyse(
        "Thinking partner. Use when answering any question, making any decision, or planning "
        "project milestones with deadlines."
    )
    narrow = analyse(
        "Thinking partner. Use when comparing vendor contracts, weighing build-versus-buy "
        "options, or planning project milestones with deadlines."
    )
    assert broad.score <= narrow.score - 0.15
    assert any("whole class of requests" in c.label for c in broad.contributions)


def test_naming_what_to_use_instead_counts_as_a_boundary() -> None:
    plain = "Query the OpenAlex API. Use when finding citing works or author affiliations."
    bounded = plain + " For full-text search use the grobid skill."
    assert analyse(bounded).score == round(analyse(plain).score + 0.05, 4)


@pytest.mark.parametrize(
    "description",
    [
        # "to … use" inside a clause names no other tool, nor does "use this skill".
        "Routes every session. Use when starting work - explains how to find and use skills.",
        "Slide decks. If a deck needs to be opened, edited, or created, use this skill.",
        "Architecture templates. Use when refactoring a monolith to use bounded contexts.",
        "A collection of prompts for various use cases. Use when drafting a system prompt.",
        "Memory systems for LLM conversations including entity memory Use when: a chat must "
        "recall facts.",
    ],
)
def test_to_or_for_before_use_inside_a_clause_is_no_boundary(description: str) -> None:
    analysis = analyse(description)
    assert not any("disambiguates" in c.label for c in analysis.contributions)


@pytest.mark.parametrize(
    "boundary",
    [
        " For quick lookups use gget; for pathways use bioservices.",
        " This is the format skill—for analysis workflows use scanpy.",
        " (For lab notebooks, see benchling-integration.)",
    ],
)
def test_for_or_to_opening_a_clause_before_use_is_a_boundary(boundary: str) -> None:
    plain = "Query the OpenAlex API. Use when finding citing works or author affiliations."
    assert analyse(plain + boundary).score == round(analyse(plain).score + 0.05, 4)


def test_one_spaced_dash_before_what_the_skill_does_ends_the_situations() -> None:
    analysis = analyse(
        "Use when starting any conversation - establishes how to find and use skills, "
        "requiring the Skill tool before any response"
    )
    assert [c.text for c in analysis.contexts] == ["starting any conversation"]
    # Several dashes list situations, and a plural noun after one opens a situation.
    listed = analyse("Use when: - tests fail on CI - builds break after a merge - deploys stall")
    assert "deploys stall" in " ".join(c.text for c in listed.contexts)


def test_an_abbreviation_does_not_end_the_trigger_sentence() -> None:
    analysis = analyse(
        "Census helper. Use when querying U.S. census tables, joining tract shapefiles, or "
        "computing margins of error."
    )
    assert len(analysis.specific_contexts) == 3


def test_a_quoted_request_that_ends_its_sentence_ends_the_trigger_clause() -> None:
    analysis = analyse(
        'This skill should be used when the user asks to "index Parquet footers," "prune '
        'row groups by min/max," or "merge small Parquet files." It offers guidance for '
        "reading footers, writing statistics, and compaction jobs."
    )
    assert [c.text.strip("\"'") for c in analysis.contexts] == [
        "index Parquet footers",
        "prune row groups by min/max",
        "merge small Parquet files",
    ]
    # A quoted word followed by a lowercase one is inside the sentence, not at its end.
    inside = analyse('Use when a deploy log says "halted." or "rolled back." after a canary.')
    assert inside.contexts[-1].text.endswith("after a canary")


@pytest.mark.parametrize(
    "qualifier",
    [
        ", before opening a pull request",
        ", until the flaky test is fixed",
        ", especially if the flame graph shows lock contention",
        ", even when the profiler reports no hot spot",
    ],
)
def test_when_in_the_situation_or_which_case_matters_adds_no_situation(qualifier: str) -> None:
    analysis = analyse(f"Use when a Go service's p99 latency regresses{qualifier}.")
    assert [c.text for c in analysis.contexts] == ["Go service's p99 latency regresses"]


def test_a_qualifier_in_a_list_of_situations_is_one_of_them() -> None:
    # "or before …" is a situation of its own.
    both = analyse("Use when a Go service's p99 latency regresses, or before a load test.")
    assert len(both.contexts) == 2
    # An item of a list of situations, with a comma after it, is one too.
    listed = analyse(
        "Use when a Go service's p99 latency regresses, before a load test, or when a "
        "release adds a new endpoint."
    )
    assert len(listed.contexts) == 3
    # Two qualifiers in a row: the situations end at the first.
    twice = analyse(
        "Use when a Go service's p99 latency regresses, before a load test, especially if "
        "the flame graph shows lock contention."
    )
    assert [c.text for c in twice.contexts] == ["Go service's p99 latency regresses"]


def test_a_lone_adjective_is_not_a_context() -> None:
    analysis = analyse(
        "Use when working with LedgerDB, a store that makes ledgers queryable, traceable, and "
        "auditable."
    )
    texts = [c.text for c in analysis.specific_contexts]
    assert "working with LedgerDB" in texts
    assert not {"traceable", "auditable"} & set(texts)


def test_a_claim_of_precedence_never_scores_above_the_weak_band() -> None:
    text = (
        "[DEFAULT TOOL - HIGHEST PRIORITY] Answers research questions with live web search and "
        "cited sources. Use when comparing products, checking recent releases, or summarising "
        "news coverage."
    )
    claimed = analyse(text, name="research")
    plain = analyse(text.split("] ", 1)[1], name="research")
    assert plain.score > 0.39 and plain.precedence is None
    assert (claimed.score, claimed.band, claimed.precedence) == (0.39, "weak", "DEFAULT TOOL")


# The term pattern without its lookahead: what technical_terms finds must not change with it.
_UNFILTERED_TERM = re.compile(
    r"(?<![\w`])(?:[A-Za-z0-9][\w+#.-]*(?:/[\w+#.-]+)*)(?![\w`])|`[^`\n]{1,60}`"
)
TERM_TEXT = st.lists(
    st.sampled_from([*"aZ9 .-/+#_`\n:(é²Ä", "Foo", "bar", "JSON", "v2", "e.g."]),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(TERM_TEXT)
def test_term_lookahead_changes_no_term(text: str) -> None:
    filtered = technical_terms(text)
    with patch.object(triggering, "_TERM", _UNFILTERED_TERM):
        assert technical_terms(text) == filtered


# How widely published descriptions share each context's most distinctive word (_claimed).
SHARED = (100, {"tuning": 3, "dashboard": 20, "reviewing": 7, "alert": 50, "scaling": 7})


def test_contexts_lose_points_by_how_many_published_descriptions_share_their_rarest_word() -> None:
    with patch.object(triggering, "reference_counts", lambda: SHARED):
        result = analyse("Use when tuning dashboards, reviewing alerts, or scaling clusters.")
    claimed = [c for c in result.contributions if "published skill descriptions" in c.label]
    # Each context's rarest word: tuning (3), reviewing (7), and cluster (0, which no
    # published description uses, before scaling's 7): the mean of ln(1 + count).
    expected = -0.05 * (math.log(4) + math.log(8) + math.log(1)) / 3
    assert [c.points for c in claimed] == [round(expected, 4)]
    assert "('reviewing' 7, 'tuning' 3, 'cluster' 0)" in claimed[0].label
    assert "of 100 published" in claimed[0].label


def test_contexts_every_published_description_shares_lose_at_most_the_floor() -> None:
    common = (100, dict.fromkeys(["tuning", "dashboard", "reviewing", "alert"], 100))
    with patch.object(triggering, "reference_counts", lambda: common):
        result = analyse("Use when tuning dashboards or reviewing alerts.")
    assert [c.points for c in result.contributions if "published" in c.label] == [-0.15]


def test_contexts_no_published_description_shares_lose_nothing() -> None:
    with patch.object(triggering, "reference_counts", lambda: (100, {})):
        result = analyse("Use when tuning dashboards, reviewing alerts, or scaling clusters.")
    assert not [c for c in result.contributions if "published" in c.label]


def test_contexts_in_other_languages_are_not_read_against_the_english_table() -> None:
    with patch.object(triggering, "reference_counts", lambda: SHARED):
        result = analyse("当需要调优仪表盘、审查告警或扩展集群时使用。用于监控平台运维。")
    assert result.has_trigger
    assert not [c for c in result.contributions if "published" in c.label]


def test_shipped_table_ranks_contexts_every_skill_claims_below_named_ones() -> None:
    """With the shipped table: the same shape of description, three contexts each, scores
    lower when its contexts are words dozens of published skills use."""
    broad = analyse("Use when designing APIs, building web applications, or improving performance.")
    named = analyse(
        "Use when writing PromQL recording rules, tuning Alertmanager routes, or sizing Thanos "
        "retention."
    )
    assert broad.band == named.band == "excellent"
    points = {
        id(r): sum(c.points for c in r.contributions if "published" in c.label)
        for r in (broad, named)
    }
    assert points[id(broad)] < points[id(named)] <= 0
    assert points[id(broad)] <= -0.10


def test_a_description_the_table_counted_is_not_its_own_neighbour() -> None:
    text = "Use when tuning dashboards, reviewing alerts, or scaling clusters."
    own = frozenset({description_digest(text)})
    with (
        patch.object(triggering, "reference_counts", lambda: SHARED),
        patch.object(triggering, "reference_digests", lambda: own),
    ):
        result = analyse(text)
    [claimed] = [c for c in result.contributions if "published" in c.label]
    # Its own words are taken out of the counts: tuning 3 → 2, reviewing 7 → 6 (cluster 0).
    assert claimed.points == round(-0.05 * (math.log(3) + math.log(7)) / 3, 4)
    assert "('reviewing' 6, 'tuning' 2, 'cluster' 0)" in claimed.label
    # Another description is not taken out of them.
    with (
        patch.object(triggering, "reference_counts", lambda: SHARED),
        patch.object(triggering, "reference_digests", lambda: own),
    ):
        other = analyse(text.replace("clusters", "clusters today"))
    assert "('reviewing' 7, 'tuning' 3" in next(
        c.label for c in other.contributions if "published" in c.label
    )


def test_a_trigger_phrase_with_no_situation_is_said_as_such(make_skill: MakeSkill) -> None:
    """'Use when x.' has the words of a trigger and nothing to match: PE102 says so, and its
    fix starts from what the author wrote."""
    skill = "---\nname: date-fmt\ndescription: Does a thing. Use when x.\n---\n\n# D\n"
    [finding] = [f for f in score(make_skill(skill)).findings if f.code == "PE102"]
    assert (finding.line, finding.column) == (3, 1)
    assert finding.message == (
        "description says 'Use when …' but names no situation a router could match a request "
        "against"
    )
    assert finding.fix == (
        "After 'Use when', name three or more concrete situations, separated by commas."
    )


def test_a_trigger_that_only_repeats_the_name_is_unusable(make_skill: MakeSkill) -> None:
    # "working with" says nothing of the task: what is left is the name.
    repeated = analyse(
        "Use when working with tdd workflows tdd cycle", name="tdd-workflows-tdd-cycle"
    )
    assert (repeated.score, repeated.band) == (0.10, "unusable")
    # A verb of the task's own is something a router can match beyond the name.
    named = analyse("Use when reviewing tdd cycle logs after a run", name="tdd-workflows-tdd-cycle")
    assert named.band != "unusable"
    folder = make_skill(
        "---\nname: tdd-cycle\ndescription: Use when working with tdd cycle\n---\n\n# T\n\nSteps.\n",
        folder="tdd-cycle",
    )
    [finding] = [f for f in score(folder).findings if f.code == "PE102"]
    assert (finding.path, finding.line, finding.column) == ("tdd-cycle/SKILL.md", 3, 1)
    assert finding.message == (
        "description says 'Use when …' but what follows only repeats the skill's name: it "
        "names no situation a router could match a request against beyond the name"
    )
