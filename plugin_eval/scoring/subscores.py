"""The seven static sub-scores: each a sum of named contributions, clamped to [0, 1]."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, islice

from plugin_eval import budgets, regexes
from plugin_eval.analysis import CASE_TRAPS, Facts, RefStatus
from plugin_eval.document import CodeBlock, Heading, Problem, SkillDocument
from plugin_eval.evidence import Evidence, SubScore, total
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import BY_CODE
from plugin_eval.rules.pe208_unmentioned_script import shipped_scripts
from plugin_eval.scoring.composite import penalty
from plugin_eval.textsearch import Lowered, from_starts
from plugin_eval.vocabulary import DimensionName, SubScoreName

# What one finding of a (non anti-pattern) rule takes off its sub-score.
DEDUCTION = {Severity.ERROR: 0.20, Severity.WARNING: 0.10, Severity.INFO: 0.03}
MAX_DEDUCTIONS_PER_RULE = 2


def deductions(name: str, findings: Iterable[Finding]) -> list[Evidence]:
    """What the findings of the rules that lower sub-score ``name`` take off it."""
    by_code: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        rule = BY_CODE.get(f.code)
        if rule is not None and rule.subscore == name:
            by_code[f.code].append(f)
    out = []
    for code in sorted(by_code):
        group = by_code[code]
        counted = group[:MAX_DEDUCTIONS_PER_RULE]
        for f in counted:
            out.append(Evidence(f"{f.code} {f.flag}: {f.message}", -DEDUCTION[f.severity], f.line))
        if len(group) > len(counted):
            out.append(
                Evidence(f"{code}: {len(group) - len(counted)} more not deducted again", 0.0)
            )
    return out


class _Headings:
    """A skill's headings as ``Facts.headings_matching`` searches them (their texts joined
    by line feeds), searched lower-cased where that finds the same (textsearch.Lowered)."""

    def __init__(self, doc: SkillDocument, facts: Facts) -> None:
        self.headings = doc.headings
        self.facts = facts
        text = "\n".join([h.text for h in self.headings])
        traps = not text.isascii() and any(trap in text for trap in CASE_TRAPS)
        self.lowered = None if traps else text.lower()

    @cached_property
    def starts(self) -> list[int]:
        """Where each heading's text starts in the joined text."""
        return [0, *accumulate(len(h.text) + 1 for h in self.headings)]

    def matching(self, regex: Lowered) -> list[Heading]:
        """``facts.headings_matching(regex.regex)``: headings the regex finds something in."""
        if self.lowered is None:
            return self.facts.headings_matching(regex.regex)
        found = {bisect_right(self.starts, m.start()) - 1 for m in regex.finditer(self.lowered)}
        return [self.headings[i] for i in sorted(found)]

    def first(self, regex: Lowered) -> Heading | None:
        """The first of ``matching(regex)``, found by the regex's first match."""
        if self.lowered is None:
            return next(iter(self.facts.headings_matching(regex.regex)), None)
        match = next(regex.finditer(self.lowered), None)
        return (
            None if match is None else self.headings[bisect_right(self.starts, match.start()) - 1]
        )


def frontmatter_quality(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Triggering quality of the description (rubric bands) less frontmatter defects."""
    line = doc.fields["description"].line if "description" in doc.fields else None
    evidence = [Evidence(c.label, c.points, line) for c in facts.trigger.contributions]
    return total("frontmatter_quality", evidence + deductions("frontmatter_quality", findings))


# What work is handed to, within three words of the verb ("delegate the review to a
# subagent", "coordinate the specialist agents", "dispatch tasks").
DELEGABLE = (
    r"\s+(?:[\w-]+\s+){0,3}?(?:\w+-)?(?:sub-?)?(?:agents?|skills?|tasks?|workers?|specialists?|"
    r"teams?|tools?|jobs?|workflows?|steps?)\b"
)
# Orchestrator signals, matched on lowercased prose: (kind, regex, the words one of which
# every match begins with, the words one of which the prose must hold for any match, or None
# where they are nearly the start words, so that looking for them first only reads the prose
# twice). The regex is tried only where a start word occurs (textsearch.from_starts); word
# starts are checked after.
SIGNALS: tuple[tuple[str, re.Pattern[str], tuple[str, ...], tuple[str, ...] | None], ...] = (
    (
        "orchestration",
        regexes.compile(
            # Orchestrating, coordinating, dispatching, delegating or supervising is
            # orchestration only with something to hand work to ("dispatch tasks to workers");
            # "genomic coordinates", "vtable dispatch", "delegate authentication" and
            # "`propagate()` orchestrates the message passing" name no such thing. An
            # orchestrator is one.
            r"(?:orchestrators?\b|(?:orchestrat(?:e|es|ing)|coordinat(?:e|es|ing)|"
            r"dispatch(?:es|ing)?|delegat(?:e|es|ing)|supervis(?:e|es|ing))\b" + DELEGABLE + r"|"
            r"spawn\w*\s+(?:sub-?)?agents?|sub-?agents?|manag\w+\s+(?:the\s+)?workflow|"
            r"hand\s+off\s+to|route\s+(?:it|this|the\s+\w+)\s+to)\b"
        ),
        (
            "orchestrat",
            "coordinat",
            "dispatch",
            "delegat",
            "supervis",
            "spawn",
            "sub",
            "manag",
            "hand",
            "route",
        ),
        None,
    ),
    (
        "calls other",
        regexes.compile(
            # "use the X skill" calls another; "use this skill" names itself, not a delegate.
            r"(?:call|invoke|run|use|trigger|launch)\s+(?:the\s+)?"
            r"(?!(?:this|that|these|the|a|an|our|my|your|its)\s)[\w-]+\s+(?:skill|agent)s?\b"
        ),
        ("call", "invoke", "run", "use", "trigger", "launch"),
        ("skill", "agent"),
    ),
    (
        "agent loop",
        regexes.compile(
            r"(?:loop|repeat|iterate|keep\s+going)\s+until\b|decide\s+(?:which|what|whether)\b|"
            r"you\s+will\s+first\s+assess\b"
        ),
        ("loop", "repeat", "iterate", "keep", "decide", "you"),
        ("until", "decide", "assess"),
    ),
)
_INPUT_WORDS = r"inputs?|parameters?|arguments?|args|prerequisites"
_OUTPUT_WORDS = (
    r"outputs?|returns?|output format|response format|report format|deliverables?|results? format"
)
# Nouns that make an I/O word the subject of a heading: "Output format", "Input schema".
_CONTRACT_NOUNS = r"(?:formats?|schemas?|structure|contracts?|spec\w*|fields?|shapes?|templates?)"


def _io_heading(words: str, said: str, written: str) -> Lowered:
    """A heading about the inputs or outputs themselves: the I/O word is what it is about
    (its last word, before a contract noun, or opening "Inputs and outputs"), not a modifier
    ("Validate Input Files", "Model Output Types", "Parameter Tuning Guide")."""
    return Lowered(
        rf"\b(?:{words})(?:\s*\([^)\n]*\))?\s*:?\s*$|\b(?:{words})\s+{_CONTRACT_NOUNS}\b|"
        rf"^\W*(?:\d+[.)]\s*)?(?:{words})\s*(?:and\b|&|/|:)|\bwhat {said}\b|{written}",
        re.IGNORECASE | re.MULTILINE,
    )


# Matched on the headings joined by line feeds (_Headings.matching): one per line.
INPUT_HEADING = _io_heading(_INPUT_WORDS, "you (?:need|provide)", "输入|参数")
OUTPUT_HEADING = _io_heading(_OUTPUT_WORDS, "(?:it|you) (?:returns?|get)", "输出|返回")
# An input or output stated in prose: what it returns or produces, or what it takes as input
# ("takes a brief tangent" states no input).
IO_PROSE = regexes.compile(
    r"\b(?:returns?|outputs?|produces?|emits?|responds? with)\s+(?:a|an|the|one|json|yaml|"
    r"markdown|table|list)\b|\b(?:takes?|accepts?|expects?|receives?)\s+[^.\n]{0,40}?\bas\s+"
    r"(?:its\s+)?input\b|\binput:|\boutput:"
)
# The words one of which every IO_PROSE match begins with (see textsearch.from_starts).
IO_PROSE_STARTS = (
    *("return", "output", "produce", "emit", "respond", "take", "accept", "expect"),
    *("receive", "input"),
)
# A paragraph line that labels the contract in bold: "**Input:** …", "**Output format:** …".
_LABEL_LINE = regexes.compile(
    rf"^\s*\*\*(?:(?P<input>{_INPUT_WORDS})|(?P<output>{_OUTPUT_WORDS}))\s*:?\*\*",
    re.IGNORECASE,
)
STRUCTURED_LANGS = frozenset(
    {
        "json",
        "jsonc",
        "json5",
        "yaml",
        "yml",
        "toml",
        "xml",
        "typescript",
        "ts",
        "jsonschema",
        "graphql",
        "proto",
        "protobuf",
        "csv",
    }
)
# A typed field in a list or table row: "- `name` (string): …", "| count | int |".
FIELD_ITEM = regexes.compile(
    r"^\s*(?:[-*+]|\d+[.)]|\|)?\s*[`*]*[\w.\[\]-]+[`*]*\s*(?:\(|:|—|–| - |\|)"
)


# A labelled placeholder line of a reply template: "Position: [one sentence]", "- **Risk**:
# <what could fail>", "Confidence: {High|Medium|Low}", "Name: {{ name }}". The bracket holds a
# word: "key: {...}" elides a mapping and "key: []" is an empty list, in a file, not a reply.
_ENDS_A_PLACEHOLDER = r":\s*[\[<{]{1,2}\s*\w"
_PLACEHOLDER_LINE = regexes.compile(
    r"^\s*[^\w\s]*\s*\**[\w][\w ()/'-]{0,40}\**\s*" + _ENDS_A_PLACEHOLDER, re.M
)
# How each match of _PLACEHOLDER_LINE ends; such ends never overlap, so a block holds as many
# of them as it holds matches at least. ``re`` skips to each colon, where the ^ of the line
# regex is tried at every position of the block.
_PLACEHOLDER_END = regexes.compile(_ENDS_A_PLACEHOLDER)
# The prose right before a block that says the block is the reply's shape.
_TEMPLATE_INTRO = regexes.compile(
    r"\b(?:format|template|contract|deliver\w*|respond\w*|repl(?:y|ies)|output\w*|"
    r"report\w*|return\w*|produce\w*|provide\w*|structure\w*)\b",
    re.IGNORECASE,
)


def _template(doc: SkillDocument, block: CodeBlock) -> bool:
    """A block that is the exact shape of the reply: two or more labelled placeholders, right
    after a line that calls it the format, template, contract or output."""
    content = block.content
    if ":" not in content or not ("[" in content or "<" in content or "{" in content):
        return False
    # The line before is read before the placeholders are counted: one short line, where
    # the block can be long (and the count stops at two).
    line = block.line - 1
    while line > doc.body_start and not doc.line_text(line).strip():
        line -= 1
    if _TEMPLATE_INTRO.search(doc.line_text(line)) is None:
        return False
    return _at_least(2, _PLACEHOLDER_END, content) and _at_least(2, _PLACEHOLDER_LINE, content)


def _at_least(count: int, regex: re.Pattern[str], text: str) -> bool:
    """Whether ``regex`` finds ``count`` matches in ``text`` (the search stops there)."""
    return len(list(islice(regex.finditer(text), count))) == count


def _labelled(doc: SkillDocument) -> int | None:
    """The first paragraph line that labels the output in bold, when another labels the input."""
    found: dict[str, int] = {}
    for prose in doc.prose:
        if prose.block != "paragraph" or "**" not in prose.text:
            continue
        for row, text in enumerate(prose.text.split("\n")):
            m = _LABEL_LINE.match(text)
            if m is not None:
                found.setdefault("input" if m.group("input") else "output", prose.line + row)
    return found["output"] if "input" in found and "output" in found else None


# What shipping its own scripts adds in the band of a worker with no documented contract.
SHIPPED_SCRIPTS_POINTS = 0.02


def orchestration_wiring(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Worker or orchestrator? Banded by the orchestration-fitness rubric."""
    headings = _Headings(doc, facts)
    input_heads = set(map(id, headings.matching(INPUT_HEADING)))
    output_heads = set(map(id, headings.matching(OUTPUT_HEADING)))
    # The sections are placed only when one is an input or output section (most are not).
    sections = doc.sections() if input_heads or output_heads else ()
    inputs = [s for s in sections if id(s.heading) in input_heads]
    outputs = [s for s in sections if id(s.heading) in output_heads]
    # Both declared by bold labels ("**Input:** …", "**Output format:** …") instead of
    # headings: a documented contract, though with no section to hold a schema.
    output_label = None if inputs or outputs else _labelled(doc)
    spans = [(s.heading.line, s.end_line) for s in outputs]
    # The output sections as disjoint line ranges, so a line is placed by bisection, not
    # tried against every section.
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(spans):
        if ends and start <= ends[-1] + 1:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)

    def in_outputs(line: int) -> bool:
        at = bisect_right(starts, line) - 1
        return at >= 0 and line <= ends[at]

    # Without output sections every block and list is outside them: none is placed.
    outside = [b for b in doc.code_blocks if not in_outputs(b.line)] if spans else doc.code_blocks
    structured = (
        [
            b
            for b in doc.code_blocks
            if in_outputs(b.line)
            and (b.language in STRUCTURED_LANGS or b.content.lstrip().startswith(("{", "[")))
        ]
        if spans
        else []
    )
    field_lists = (
        [
            p
            for p in doc.prose
            if p.block in ("list", "table")
            and in_outputs(p.line)
            and FIELD_ITEM.match(doc.line_text(p.line))
        ]
        if spans
        else []
    )
    # An exact reply format outside any output section ("deliver, in this format:" and a
    # block of labelled placeholders) is an output contract too.
    templates = [b for b in outside if _template(doc, b)]
    worker_code = [b for b in outside if b not in templates]
    joined = facts.prose_lower
    # Read only where no section, label or template documents the contract: the one case
    # that uses it.
    io_prose = (
        next(from_starts(IO_PROSE, joined, IO_PROSE_STARTS), None)
        if not inputs and not outputs and output_label is None and not templates
        else None
    )

    evidence: list[Evidence] = []
    if not doc.code_blocks and all(p.block == "heading" for p in doc.prose):
        evidence.append(Evidence("no instructions in the body: nothing works as a worker", 0.0))
        return total(
            "orchestration_wiring", evidence + deductions("orchestration_wiring", findings)
        )
    if inputs and outputs and (structured or len(field_lists) >= 2):
        evidence.append(
            Evidence(
                "band: explicit input and output sections with a structured output (0.80–1.00)",
                0.82,
                outputs[0].heading.line,
            )
        )
        if len(worker_code) >= 2:
            evidence.append(Evidence(f"{len(worker_code)} worker code blocks", 0.08))
        if structured and field_lists:
            evidence.append(Evidence("output has both a schema block and typed fields", 0.04))
    elif (inputs and outputs) or output_label is not None:
        where = outputs[0].heading.line if outputs else output_label
        evidence.append(Evidence("band: documented inputs and outputs (0.60–0.79)", 0.70, where))
        if len(worker_code) >= 2:
            evidence.append(Evidence(f"{len(worker_code)} worker code blocks", 0.06))
    elif inputs or outputs or io_prose or templates:
        where = (
            (outputs or inputs)[0].heading.line
            if (outputs or inputs)
            else templates[0].line
            if templates
            else (facts.prose_line(io_prose.start()) if io_prose else None)
        )
        what = (
            "an output section"
            if outputs
            else "an input section"
            if inputs
            else f"{len(templates)} exact output template(s)"
            if templates
            else "inputs or outputs described in prose"
        )
        evidence.append(Evidence(f"band: documented contract, {what} (0.60–0.79)", 0.64, where))
        if structured or templates:
            first = (structured or templates)[0].line
            evidence.append(Evidence("structured output example", 0.06, first))
        if len(worker_code) >= 2:
            evidence.append(Evidence(f"{len(worker_code)} worker code blocks", 0.04))
    else:
        evidence.append(
            Evidence(
                "band: worker with prose-only output, no inputs or outputs documented (0.40–0.59)",
                0.48,
            )
        )
        if len(worker_code) >= 2:
            evidence.append(Evidence(f"{len(worker_code)} worker code blocks", 0.06))
        # A worker with no written contract still does its work itself when it ships the
        # programs that do it (the rubric's "self-contained execution"): readers put such
        # skills above the reference guides of the band.
        shipped = len(shipped_scripts(doc))  # as PE208 reads them
        if shipped:
            evidence.append(
                Evidence(
                    f"ships {shipped} script(s) in scripts/ that do its work itself",
                    SHIPPED_SCRIPTS_POINTS,
                )
            )

    # "Use the SimPy skill when …" in SimPy's own body names itself, not a delegate.
    own = {n.lower() for n in (doc.name, doc.folder.name) if n}
    signals = [
        (f"{kind}: '{m.group(0)}'", facts.prose_line(m.start()))
        for kind, regex, starts, keywords in SIGNALS
        if keywords is None or any(k in joined for k in keywords)
        for m in from_starts(regex, joined, starts)
        if (m.start() == 0 or not joined[m.start() - 1].isalnum())
        and not (kind == "calls other" and m.group(0).split()[-2] in own)
    ]
    signals.sort(key=lambda s: s[1] or 0)
    distinct = list(dict.fromkeys(label.lower() for label, _ in signals))
    if distinct:
        penalty = min(0.45, 0.10 * len(distinct))
        first = signals[0][1]
        shown = ", ".join(distinct[:4]) + (
            f", +{len(distinct) - 4} more" if len(distinct) > 4 else ""
        )
        evidence.append(Evidence(f"orchestrator signals ({shown})", -round(penalty, 4), first))
    return total("orchestration_wiring", evidence + deductions("orchestration_wiring", findings))


def progressive_disclosure(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Body within the specification's budgets, detail in supporting files SKILL.md links."""
    lines, tokens = doc.body_lines, facts.body_tokens
    # Only "fewer than three" is read (and then shown): the count stops at three.
    content_lines = len(
        list(islice(filter(str.strip, islice(doc.lines, doc.body_start - 1, None)), 3))
    )
    evidence: list[Evidence] = []
    if content_lines < 3:
        evidence.append(Evidence(f"body is nearly empty ({content_lines} lines of text)", 0.10))
    else:
        over = max(lines / budgets.BODY_LINES, tokens / budgets.BODY_TOKENS)
        if over < 1:  # the guide is "under" the budget, as PE303 reads it
            evidence.append(
                Evidence(
                    f"body within budget: {lines} lines, ~{tokens} tokens (under "
                    f"{budgets.BODY_LINES} lines and {budgets.BODY_TOKENS} tokens)",
                    0.50,
                )
            )
        else:
            points = round(max(0.0, 0.50 * (2 - over)), 4)
            evidence.append(
                Evidence(
                    f"body over budget: {lines} lines, ~{tokens} tokens ({over:.1f}× the guide)",
                    points,
                )
            )

    if content_lines < 3:
        return total(
            "progressive_disclosure", evidence + deductions("progressive_disclosure", findings)
        )
    # Detail lives wherever the skill keeps it (references/, docs/, forms.md): what counts is
    # that SKILL.md links or names the files that hold it.
    ref_files = facts.detail_files
    linked_refs = facts.linked_detail
    compact = lines <= budgets.COMPACT_LINES and tokens <= budgets.COMPACT_TOKENS
    if ref_files and linked_refs:
        share = len(linked_refs) / len(ref_files)
        evidence.append(
            Evidence(
                f"detail in supporting files: {len(linked_refs)} of {len(ref_files)} linked or "
                "named in SKILL.md",
                round(0.30 + 0.20 * share, 4),
            )
        )
    elif ref_files:
        evidence.append(
            Evidence(
                f"{len(ref_files)} supporting text file(s) but SKILL.md links none of them", 0.10
            )
        )
    elif compact:
        evidence.append(Evidence("compact skill: nothing needs to move to supporting files", 0.50))
    else:
        evidence.append(Evidence("long body and no supporting files to hold the detail", 0.0))
    return total(
        "progressive_disclosure", evidence + deductions("progressive_disclosure", findings)
    )


# Matched on the headings joined by line feeds (_Headings.matching).
EXAMPLE_HEADING = Lowered(r"\b(?:examples?|usage|sample|demo|walkthrough)\b|示例|例子")
USAGE_HEADING = Lowered(
    r"\b(?:when to use|usage|how to|workflow|steps?|instructions?|quick ?start|process|"
    r"procedure|getting started|use cases?)\b|使用|步骤|流程"
)
EDGE_HEADING = Lowered(
    r"\b(?:troubleshoot\w*|pitfalls?|edge cases?|common (?:mistakes|errors|issues)|gotchas?|"
    r"limitations?|caveats?|faq|errors?|failure modes?|anti-?patterns?|don'?ts?)\b|注意|常见问题"
)


def structural_completeness(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Sections, examples, guidance and edge cases, read from the parse (never from code)."""
    evidence: list[Evidence] = []
    headings = doc.headings
    sections = [h for h in headings if h.level in (2, 3)]
    if headings:
        evidence.append(Evidence("has headings", 0.10, headings[0].line))
    if len(sections) >= 3:
        evidence.append(Evidence(f"{len(sections)} sections (h2/h3)", 0.20))
    elif sections:
        evidence.append(
            Evidence(f"{len(sections)} section(s) (h2/h3)", 0.08 * len(sections) + 0.02)
        )
    code = doc.code_blocks
    found = _Headings(doc, facts)
    # An examples section is looked for only where no code block shows examples already.
    example_heads = not code and found.first(EXAMPLE_HEADING) is not None
    if code or example_heads or doc.blockquotes:
        what = f"{len(code)} code block(s)" if code else "an examples section or quoted example"
        evidence.append(Evidence(f"shows examples: {what}", 0.20))
    if code:
        tagged = sum(1 for b in code if b.language or not b.fenced)
        langs = sorted({b.language for b in code if b.language})
        evidence.append(
            Evidence(
                f"{tagged} of {len(code)} code blocks name a language ({', '.join(langs) or 'none'})",
                round(0.10 * tagged / len(code), 4),
            )
        )
    elif example_heads or doc.blockquotes:
        evidence.append(Evidence("prose examples need no language tags", 0.10))
    usage = found.first(USAGE_HEADING)
    if usage is not None:
        evidence.append(Evidence(f"usage guidance section ('{usage.text}')", 0.15, usage.line))
    edges = found.first(EDGE_HEADING)
    if edges is not None:
        evidence.append(
            Evidence(f"edge cases / troubleshooting section ('{edges.text}')", 0.15, edges.line)
        )
    if doc.tables or doc.list_items >= 3:
        evidence.append(
            Evidence(
                f"structured content: {doc.tables} table(s), {doc.list_items} list items", 0.10
            )
        )
    return total(
        "structural_completeness", evidence + deductions("structural_completeness", findings)
    )


def token_efficiency(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Instructions without shouting or repetition (prose only; code is not counted)."""
    if not doc.tokens:
        return total(
            "token_efficiency", [Evidence("no body: no instructions to be efficient", 0.0)]
        )
    evidence = [Evidence("start", 1.0)]
    directives = len(facts.directives)
    # Without a directive the density is 0 whatever the count: prose lines are counted only
    # when there is one (most skills have none).
    lines = max(1, facts.prose_lines) if directives else 1
    density = directives / lines
    for limit, cost in ((0.5, 0.4), (0.2, 0.2), (0.1, 0.1)):
        if density > limit:
            evidence.append(
                Evidence(
                    f"{directives} MUST/NEVER/ALWAYS in {lines} prose lines (density {density:.2f} > "
                    f"{limit})",
                    -cost,
                    facts.directives[0][0],
                )
            )
            break
    blocks = [" ".join(p.text.split()).lower() for p in doc.prose if p.block != "heading"]
    blocks = [b for b in blocks if len(b) >= 20]
    if blocks:
        counts = Counter(blocks)
        repeated = sum(n - 1 for n in counts.values() if n > 1)
        if repeated:
            share = repeated / len(blocks)
            evidence.append(
                Evidence(
                    f"{repeated} of {len(blocks)} prose blocks repeat earlier ones",
                    -round(0.4 * share + 0.05, 4),
                )
            )
    description = " ".join((doc.description or "").split()).lower()
    if len(description) >= 40 and any(description == b for b in blocks):
        evidence.append(Evidence("body repeats the description word for word", -0.05))
    return total("token_efficiency", evidence + deductions("token_efficiency", findings))


SEE_ALSO = Lowered(r"\b(?:see also|related|further reading|next steps|companion)\b")


def ecosystem_coherence(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Points to its neighbours and says where it stops."""
    evidence = [Evidence("start", 0.50)]
    resolved = [r for r in facts.references if r.status in (RefStatus.OK, RefStatus.OUTSIDE)]
    if resolved:
        evidence.append(
            Evidence(
                f"{len(resolved)} working relative link(s)",
                round(min(0.20, 0.05 * len(resolved)), 4),
                resolved[0].line,
            )
        )
    related = _Headings(doc, facts).first(SEE_ALSO)
    if related is not None:
        evidence.append(
            Evidence(f"points to related material ('{related.text}')", 0.15, related.line)
        )
    if facts.trigger.negative:
        evidence.append(
            Evidence("description says when not to use it (boundary with neighbours)", 0.15)
        )
    return total("ecosystem_coherence", evidence + deductions("ecosystem_coherence", findings))


def harness_portability(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> SubScore:
    """Loads the same in Claude Code, Codex and other harnesses."""
    evidence = [Evidence("start", 1.0)]
    return total("harness_portability", evidence + deductions("harness_portability", findings))


Measure = Callable[[SkillDocument, Facts, list[Finding]], SubScore]


@dataclass(frozen=True, repr=False)
class SubScoreDef:
    """One static sub-score: how it is measured, the dimension it feeds, its static weight."""

    name: SubScoreName
    measure: Measure
    feeds: DimensionName | None
    weight: float


# The seven static sub-scores, in report order. `weight` is the share of each in the static
# layer's own score; harness portability feeds no composite dimension.
SUBSCORES: tuple[SubScoreDef, ...] = (
    SubScoreDef("frontmatter_quality", frontmatter_quality, "triggering_accuracy", 0.32),
    SubScoreDef("orchestration_wiring", orchestration_wiring, "orchestration_fitness", 0.23),
    SubScoreDef("progressive_disclosure", progressive_disclosure, "progressive_disclosure", 0.14),
    SubScoreDef(
        "structural_completeness", structural_completeness, "structural_completeness", 0.10
    ),
    SubScoreDef("token_efficiency", token_efficiency, "token_efficiency", 0.09),
    SubScoreDef("ecosystem_coherence", ecosystem_coherence, "ecosystem_coherence", 0.06),
    SubScoreDef("harness_portability", harness_portability, None, 0.06),
)
FEEDS: dict[str, DimensionName | None] = {d.name: d.feeds for d in SUBSCORES}
WEIGHTS: dict[str, float] = {d.name: d.weight for d in SUBSCORES}


UNREADABLE = frozenset({Problem.NOT_TEXT, Problem.EMPTY_FILE})


def compute(doc: SkillDocument, facts: Facts, findings: list[Finding]) -> dict[str, SubScore]:
    unreadable = next((p for p in doc.problems if p.kind in UNREADABLE), None)
    if unreadable is not None:
        # A harness loads nothing from this file, so no sub-score has anything to credit.
        why = Evidence(f"nothing to score: {unreadable.message}", 0.0, unreadable.line)
        return {d.name: SubScore(d.name, 0.0, (why,)) for d in SUBSCORES}
    return {d.name: d.measure(doc, facts, findings) for d in SUBSCORES}


def static_dimensions(subscores: Mapping[str, float]) -> dict[str, float]:
    """The dimension scores the static layer produces from its sub-scores."""
    return {
        d.feeds: subscores[d.name] for d in SUBSCORES if d.feeds is not None and d.name in subscores
    }


def static_layer_score(subscores: Mapping[str, float], anti_pattern_count: float) -> float:
    """The static layer's own score: its sub-scores weighted (over those present) × penalty."""
    present = [d for d in SUBSCORES if d.name in subscores]
    weighted = sum(d.weight * subscores[d.name] for d in present)
    share = sum(d.weight for d in present) or 1.0
    return round(weighted / share * penalty(anti_pattern_count), 4)
