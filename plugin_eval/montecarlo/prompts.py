"""Prompt sets: eval files beside the skill, or generated prompts (half should trigger).

Eval files live in ``<skill>/evals/``:

- ``*.json`` in Anthropic skill-creator's trigger format, ``[{"query": …, "should_trigger":
  true}]`` (or ``{"evals": [{"prompt": …, "should_trigger": …}]}``);
- ``*.yaml`` / ``*.yml`` in the style of seed 004: ``cases:`` with ``id``, ``prompt``,
  ``should_trigger``, ``expected_keywords`` and ``expected_items``; or seed 004's own
  dataset, its cases with ``text`` and ``expected_cards`` (front and back keywords, a type).

In either, a case may give ``expected_json`` (the object a reply should hold) and
``expected_schema`` (a JSON Schema, or seed 000's ``{fields: [{name, type, required}]}``):
each reply's JSON is then scored by seed 000's structured-data quality (``structured``).

A top-level ``strict-seed: true`` matches that file's keywords as seed 004 writes them
(case and spacing as they are), instead of plugin-eval's normalised match.

Without one, the offline backend uses the deterministic generator below and a model
backend writes the prompts itself (falling back to the generator if its reply is unusable).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from plugin_eval import budgets, json_input, regexes, yaml_input
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.errors import Explained
from plugin_eval.montecarlo.backends.base import Tool
from plugin_eval.montecarlo.lexical import NOT_FOR, without_boundaries
from plugin_eval.montecarlo.structured import Expectation, SchemaError, expectation
from plugin_eval.output_files import write_text
from plugin_eval.triggering import find_trigger
from plugin_eval.walk import kind_of, list_one, read_file

EVAL_DIR = "evals"
EVAL_SUFFIXES = (".json", ".yaml", ".yml")
# The request of a case: the first of these keys it has (seed 004's dataset says ``text``).
PROMPT_KEYS = ("prompt", "query", "text")
STRICT_SEED = "strict-seed"

# Headings that name a part of the document, not something the skill does.
STRUCTURAL = regexes.compile(
    r"^(?:input|inputs|output|outputs|returns?|steps?|examples?|example \w+|usage|overview|"
    r"notes?|see also|related|references?|edge cases.*|troubleshooting|pitfalls|faq|"
    r"when to use|when not to use|use cases?|workflow|instructions|quick start|"
    r"prerequisites|requirements|summary|introduction|contents|table of contents)$",
    re.IGNORECASE,
)
_SENTENCE = regexes.compile(r"(?<=[.!?])\s+|[。!?]")
_CLAUSE = regexes.compile(r"\s*[,;,;、]\s*(?:or\s+|and\s+)?|\s+or\s+(?=\w+ing\b)")
WHEN_HEADING = regexes.compile(
    r"\bwhen\s+to\s+use\b|\buse\s+(?:it\s+)?when\b|\buse\s+cases?\b", re.I
)
# Requests no development skill should take, for a skill with no neighbours.
OFF_TOPIC = (
    "Write a short poem about autumn leaves",
    "What is the capital of Australia?",
    "Translate 'good morning' into Italian",
    "Suggest a name for my new puppy",
    "Plan a three-day trip to Lisbon",
    "Explain how photosynthesis works to a ten-year-old",
    "Give me a recipe for vegetable soup",
    "Summarise the plot of Hamlet in two sentences",
    "Recommend a board game for four players",
    "How many minutes are there in a week?",
    "Draft a birthday message for my grandmother",
    "What causes the seasons on Earth?",
)


class EvalFileError(Explained):
    """An eval file that cannot be read: named with the file and the case."""


@dataclass(frozen=True, repr=False)
class ExpectedCard:
    """Seed 004's expected card: keywords its front and its back should hold, maybe its type."""

    front_keywords: tuple[str, ...]
    back_keywords: tuple[str, ...]
    card_type: str | None = None


@dataclass(frozen=True, repr=False)
class EvalCase:
    id: str
    prompt: str
    should_trigger: bool
    expected_keywords: tuple[str, ...] = ()
    expected_items: tuple[tuple[str, ...], ...] = ()
    source: str = ""
    owner: str | None = None  # for a near miss: the skill that should take it
    expected_cards: tuple[ExpectedCard, ...] = ()
    strict_seed: bool = False  # keywords matched as seed 004 writes it: case and spacing kept
    structured: Expectation | None = None  # expected_json and expected_schema (seed 000)

    @property
    def has_expectations(self) -> bool:
        return bool(
            self.expected_keywords
            or self.expected_items
            or self.expected_cards
            or self.structured is not None
        )


@dataclass(frozen=True, repr=False)
class PromptSet:
    cases: tuple[EvalCase, ...]
    origin: str
    generated: bool
    notes: tuple[str, ...] = ()


# --- eval files ----------------------------------------------------------------------


def eval_files(folder: Path, display: str) -> list[Path]:
    """The skill's eval files (evals/*.json, *.yaml, *.yml). Like every file of a skill, one
    that is a symlink, or in an evals/ that is one, is never followed: it is refused, named."""
    kind = kind_of(folder / EVAL_DIR)
    if kind == "link":
        raise EvalFileError(
            f"{display}/{EVAL_DIR}: a symlink, not followed; copy the eval files into the skill "
            "folder"
        )
    if kind != "dir":
        return []
    here = list_one(folder / EVAL_DIR)
    for name in (*here.links, *here.others):
        if name.lower().endswith(EVAL_SUFFIXES):
            raise EvalFileError(
                f"{display}/{EVAL_DIR}/{name}: a symlink or special file, not followed; make it "
                "a regular file in the skill folder"
            )
    return [folder / EVAL_DIR / n for n in here.files if n.lower().endswith(EVAL_SUFFIXES)]


def load_evals(folder: Path, display: str) -> PromptSet | None:
    """Every eval file of the skill, merged; None when it has none."""
    files = eval_files(folder, display)
    if not files:
        return None
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for path in files:
        shown = f"{display}/{EVAL_DIR}/{path.name}"
        for case in load_eval_file(path, shown):
            # A repeated id takes the file's name, then a number, until it is one no case has.
            cid, more = case.id, 1
            while cid in seen:
                cid = f"{path.stem}-{case.id}" + (f"-{more}" if more > 1 else "")
                more += 1
            seen.add(cid)
            cases.append(_replace_id(case, cid))
    if not cases:
        raise EvalFileError(f"{display}/{EVAL_DIR}: the eval files hold no cases")
    return PromptSet(
        tuple(cases), " + ".join(f"{EVAL_DIR}/{p.name}" for p in files), generated=False
    )


def load_eval_file(path: Path, shown: str) -> list[EvalCase]:
    try:
        raw = read_file(path, budgets.EVAL_FILE_BYTES + 1)
        if len(raw) > budgets.EVAL_FILE_BYTES:
            raise ValueError(f"larger than {budgets.EVAL_FILE_BYTES:,} bytes")
        text = raw.decode("utf-8-sig")
        # Both readers bound their cost: JSON nesting and numbers, YAML aliases (never expanded).
        is_yaml = path.suffix.lower() != ".json"
        data: object = yaml_input.safe_load(text) if is_yaml else json_input.parse(text)
    except json_input.JsonInputError as err:
        raise EvalFileError(
            f"{shown}: cannot be read: {err.message} (line {err.line}, column {err.column})"
        ) from None
    except yaml.MarkedYAMLError as err:
        # What is wrong first ("found an undefined alias"), then what was being read.
        mark = err.problem_mark or err.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        said = ", ".join(part.strip() for part in (err.problem, err.context) if part)
        raise EvalFileError(f"{shown}: cannot be read: {said or _first_line(err)}{where}") from None
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as err:
        raise EvalFileError(f"{shown}: cannot be read: {_first_line(err)}") from None
    items: object = data
    key: str | None = None
    if isinstance(data, dict):
        key = "cases" if "cases" in data else "evals"
        items = data.get(key)
    site = _Site(shown, text if is_yaml else None, key)
    if not isinstance(items, list):
        raise EvalFileError(
            f"{shown}: expected a list of cases, or a mapping with 'cases' or 'evals'"
        )
    strict = _strict(data, False, site.top) if isinstance(data, dict) else False
    return [_case(item, n, path.stem, site, strict) for n, item in enumerate(items, 1)]


class _Site:
    """Names a place in an eval file for an error: the file, the case and, in YAML, the line."""

    def __init__(self, shown: str, yaml_text: str | None, cases_key: str | None) -> None:
        self.shown = shown
        self._text = yaml_text  # JSON's reader keeps no positions, so JSON gets no lines
        self._root: yaml.Node | None = None
        self._cases: tuple[str, ...] = (cases_key,) if cases_key else ()

    def top(self, key: str) -> str:
        """The file, and the line of one of its top-level keys."""
        return self.shown + self._line((key,))

    def at(self, n: int, *path: str | int) -> str:
        """Case ``n`` (from 1), and the line of the part ``path`` leads to (or of the case)."""
        return f"{self.shown}: case {n}{self._line((*self._cases, n - 1, *path))}"

    def _line(self, path: Sequence[str | int]) -> str:
        if self._text is None:
            return ""
        if self._root is None:
            # Composed only for an error, after safe_load has read the text and counted its
            # aliases: the nodes are shared, never expanded.
            self._root = yaml.compose(self._text, Loader=yaml_input.LOADER)
        node = self._root
        for step in path:
            inner = _child(node, step) if node is not None else None
            if inner is None:
                break
            node = inner
        return f" (line {node.start_mark.line + 1})" if node is not None else ""


def _child(node: yaml.Node, step: str | int) -> yaml.Node | None:
    found: object = None
    if isinstance(step, int) and isinstance(node, yaml.SequenceNode):
        found = node.value[step] if step < len(node.value) else None
    elif isinstance(step, str) and isinstance(node, yaml.MappingNode):
        # YAML keeps the last of two equal keys, and so does this.
        found = next((v for k, v in reversed(node.value) if k.value == step), None)
    return found if isinstance(found, yaml.Node) else None


def _strict(mapping: dict[Any, Any], default: bool, where: Callable[[str], str]) -> bool:
    """``strict-seed`` of the file or of one case (which overrides the file's)."""
    if "strict_seed" in mapping:
        raise EvalFileError(
            f"{where('strict_seed')}: strict_seed is not a key: write {STRICT_SEED}: true"
        )
    value = mapping.get(STRICT_SEED, default)
    if not isinstance(value, bool):
        raise EvalFileError(
            f"{where(STRICT_SEED)}: {STRICT_SEED} must be true (match keywords as seed 004 "
            "writes them) or false"
        )
    return value


def _case(item: object, n: int, stem: str, site: _Site, strict: bool) -> EvalCase:
    if not isinstance(item, dict):
        raise EvalFileError(
            f"{site.at(n)} is not a mapping: give it a prompt (or query, or seed 004's text)"
        )
    prompt = next((item[key] for key in PROMPT_KEYS if key in item), None)
    if not isinstance(prompt, str) or not prompt.strip():
        raise EvalFileError(
            f"{site.at(n)} has no 'query' or 'prompt' text (nor seed 004's 'text'): give the "
            "request to put to the model"
        )
    # skill-creator's output evals carry no should_trigger: they are tasks for the skill.
    should = item.get("should_trigger", True)
    if not isinstance(should, bool):
        raise EvalFileError(f"{site.at(n, 'should_trigger')}: should_trigger must be true or false")
    keywords = item.get("expected_keywords") or []
    if not _is_keywords(keywords):
        raise EvalFileError(
            f"{site.at(n, 'expected_keywords')}: expected_keywords must be a list of strings"
        )
    items = item.get("expected_items") or []
    if not isinstance(items, list):
        raise EvalFileError(
            f"{site.at(n, 'expected_items')}: expected_items must be a list of items"
        )
    expected_items = tuple(
        _item(x, f"{site.at(n, 'expected_items', i)}: expected_items") for i, x in enumerate(items)
    )
    owner = item.get("owner")
    return EvalCase(
        id=str(item.get("id", f"{stem}-{n:02d}")),
        prompt=prompt.strip(),
        should_trigger=should,
        expected_keywords=tuple(keywords),
        expected_items=expected_items,
        source=f"{site.shown}#{n}",
        owner=owner if isinstance(owner, str) and owner and owner != "none" else None,
        expected_cards=_cards(item.get("expected_cards"), n, site),
        strict_seed=_strict(item, strict, lambda key: site.at(n, key)),
        structured=_structured(item, n, site),
    )


def _is_keywords(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(k, str) for k in value)


def _item(value: object, where: str) -> tuple[str, ...]:
    """An expected item: a keyword, a list of keywords, or a mapping with ``keywords``."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, dict):
        value = value.get("keywords")
    if isinstance(value, list) and value and all(isinstance(k, str) for k in value):
        return tuple(value)
    raise EvalFileError(
        f"{where}: each item is a keyword, a list of keywords or {{keywords: [...]}}"
    )


def _cards(value: object, n: int, site: _Site) -> tuple[ExpectedCard, ...]:
    """Seed 004's ``expected_cards``: each with ``front_keywords``, ``back_keywords`` and
    maybe ``card_type``."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise EvalFileError(
            f"{site.at(n, 'expected_cards')}: expected_cards must be a list of cards, each "
            "with front_keywords and back_keywords"
        )
    return tuple(_card(card, n, i, site) for i, card in enumerate(value))


def _card(value: object, n: int, i: int, site: _Site) -> ExpectedCard:
    name = f"expected card {i + 1}"
    if not isinstance(value, dict):
        raise EvalFileError(
            f"{site.at(n, 'expected_cards', i)}: {name} is not a mapping: give it "
            "front_keywords: [...] and back_keywords: [...]"
        )
    sides: list[tuple[str, ...]] = []
    for key in ("front_keywords", "back_keywords"):
        keywords = value.get(key)
        if not _is_keywords(keywords):
            raise EvalFileError(
                f"{site.at(n, 'expected_cards', i, key)}: {name}: {key} must be a list of "
                "keywords in quotes ([] for none)"
            )
        sides.append(tuple(keywords))
    card_type = value.get("card_type")
    if card_type is not None and (not isinstance(card_type, str) or not card_type.strip()):
        raise EvalFileError(
            f"{site.at(n, 'expected_cards', i, 'card_type')}: {name}: card_type must be a "
            'name in quotes (card_type: "qa"), or left out'
        )
    front, back = sides
    if not front and not back:
        # Seed 004 scores an empty side 0, so such a card could never reach the threshold.
        raise EvalFileError(
            f"{site.at(n, 'expected_cards', i)}: {name} has no keywords on either side, so it "
            "can never match: give front_keywords or back_keywords"
        )
    return ExpectedCard(front, back, card_type)


def _structured(item: Mapping[str, Any], n: int, site: _Site) -> Expectation | None:
    """Seed 000's ``expected_json`` and ``expected_schema``, when the case gives either."""
    given = {key: item.get(key) for key in ("expected_json", "expected_schema")}
    if all(value is None for value in given.values()):
        return None
    plain: dict[str, object] = {}
    for key, value in given.items():
        try:
            plain[key] = _json_value(value)
        except ValueError as err:
            raise EvalFileError(f"{site.at(n, key)}: {key}{err}") from None
        except RecursionError:  # nested hundreds deep: named here, not as a crash
            raise EvalFileError(
                f"{site.at(n, key)}: {key} is nested too deeply to read: flatten it"
            ) from None
    try:
        return expectation(plain["expected_json"], plain["expected_schema"])
    except SchemaError as err:
        where = "expected_json" if str(err).startswith("expected_json") else "expected_schema"
        raise EvalFileError(f"{site.at(n, where)}: {err}") from None


def _json_value(value: object, path: str = "") -> object:
    """A value read from YAML as JSON holds it: an unquoted date (2024-03-05) becomes its ISO
    text; keys must be text; anything JSON cannot hold is refused."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, list):
        return [_json_value(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, inner in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{path}: the key {key!r} is not text: put it in quotes")
            out[key] = _json_value(inner, f"{path}.{key}")
        return out
    raise ValueError(f"{path}: a {type(value).__name__} is not a JSON value")


def _replace_id(case: EvalCase, cid: str) -> EvalCase:
    from dataclasses import replace

    return case if case.id == cid else replace(case, id=cid)


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def save_evals(path: Path, prompt_set: PromptSet, skill: str) -> None:
    """Write the set used: skill-creator JSON for ``.json``, seed-004-style YAML otherwise
    (whole or not at all, like every file a run writes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # strict-seed is said once for the file when every case has it, else on each case that does.
    every_strict = bool(prompt_set.cases) and all(c.strict_seed for c in prompt_set.cases)
    if path.suffix.lower() == ".json":
        rows: list[dict[str, Any]] = []
        for c in prompt_set.cases:
            row: dict[str, Any] = {"query": c.prompt, "should_trigger": c.should_trigger}
            if c.expected_keywords:
                row["expected_keywords"] = list(c.expected_keywords)
            if c.expected_items:
                row["expected_items"] = [list(i) for i in c.expected_items]
            _save_seed_fields(row, c, per_case=True)
            rows.append(row)
        write_text(path, json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    cases = []
    for c in prompt_set.cases:
        case: dict[str, Any] = {"id": c.id, "prompt": c.prompt, "should_trigger": c.should_trigger}
        if c.expected_keywords:
            case["expected_keywords"] = list(c.expected_keywords)
        if c.expected_items:
            case["expected_items"] = [{"keywords": list(i)} for i in c.expected_items]
        _save_seed_fields(case, c, per_case=not every_strict)
        if c.owner:
            case["owner"] = c.owner
        cases.append(case)
    document: dict[str, Any] = {
        "name": f"{skill}-evals",
        "version": "1",
        "source": prompt_set.origin,
    }
    if every_strict:
        document[STRICT_SEED] = True
    document["cases"] = cases
    text = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    write_text(path, text)


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, but a string holding U+0085, U+2028 or U+2029 is written double
    quoted, where they are escapes: in any other style the emitter writes them raw, and a
    reader folds them as line breaks ("a\u0085b" comes back "a b")."""


def _string(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if any(ch in data for ch in "\x85\u2028\u2029"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return dumper.represent_str(data)


_Dumper.add_representer(str, _string)


def _save_seed_fields(row: dict[str, Any], case: EvalCase, per_case: bool) -> None:
    if case.expected_cards:
        row["expected_cards"] = [
            {
                "front_keywords": list(card.front_keywords),
                "back_keywords": list(card.back_keywords),
                **({"card_type": card.card_type} if card.card_type is not None else {}),
            }
            for card in case.expected_cards
        ]
    if case.structured is not None:
        if case.structured.expected is not None:
            row["expected_json"] = case.structured.expected
        if case.structured.schema is not None:
            row["expected_schema"] = case.structured.schema
    if case.strict_seed and per_case:
        row[STRICT_SEED] = True


# --- the deterministic generator ------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Seed:
    """One thing a skill is for, in words, and where those words came from."""

    text: str
    source: str


def seeds_of(doc: SkillDocument) -> list[Seed]:
    """What a skill is for: "When to use" items first (from the body, which the router never
    sees), then the description's trigger contexts, its summary, and the body's headings."""
    out: list[Seed] = []
    # Prose is in line order: each section's blocks are found by bisection, not a full scan.
    lines = [prose.line for prose in doc.prose]
    for section in doc.sections():
        if not WHEN_HEADING.search(section.heading.text):
            continue
        first = bisect_right(lines, section.heading.line)
        for prose in doc.prose[first : bisect_right(lines, section.end_line)]:
            if prose.block in ("list", "paragraph"):
                text = _source_text(doc, prose.line, section.end_line)
                out.append(Seed(text, f"body: {section.heading.text} (line {prose.line})"))
    for clause in trigger_clauses(doc):
        out.append(Seed(clause, "description: trigger clause"))
    summary = _summary(doc.description or "")
    if summary:
        out.append(Seed(summary, "description: summary"))
    for heading in doc.headings:
        if heading.level in (2, 3) and not STRUCTURAL.match(heading.text.strip()):
            out.append(Seed(heading.text, f"body: heading (line {heading.line})"))
    return _distinct(out)


_MARKER = regexes.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _source_text(doc: SkillDocument, line: int, last: int) -> str:
    """A list item or paragraph as written, inline code included (prose drops it)."""
    lines = [_MARKER.sub("", doc.line_text(line))]
    for number in range(line + 1, last + 1):
        text = doc.line_text(number)
        if not text.strip() or _MARKER.match(text) or text.lstrip().startswith("#"):
            break
        lines.append(text)
    return re.sub(r"[`*]+", "", " ".join(" ".join(lines).split()))


def trigger_clauses(doc: SkillDocument) -> list[str]:
    """The situations after the description's trigger phrase, split at commas, and when_to_use."""
    out: list[str] = []
    description = doc.description or ""
    match = find_trigger(description)
    if match is not None:
        sentence = _SENTENCE.split(description[match.end() :], maxsplit=1)[0]
        out += [p for p in _CLAUSE.split(sentence) if len(p.split()) >= 2 or _wide(p)]
    when = Facts(doc).when_to_use
    if when and when.strip():
        out.append(when.strip())
    return [without_boundaries(p).strip(" .;:") for p in out if without_boundaries(p).strip(" .;:")]


def _wide(text: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" for ch in text) and len(text.strip()) >= 4


def not_for(doc: SkillDocument) -> list[Seed]:
    """The description's own boundaries ("Not for Excel workbooks…"): near misses by design."""
    text = " ".join(v for v in (doc.description, Facts(doc).when_to_use) if isinstance(v, str))
    return [Seed(m.group(1).strip(), "description: not for") for m in NOT_FOR.finditer(text)]


def generate(
    target: SkillDocument,
    neighbours: Sequence[tuple[str, SkillDocument]],
    count: int,
) -> PromptSet:
    """Up to ``count`` prompts: one per distinct thing the target is for, and as many near
    misses: its own "not for" boundaries, what its nearest neighbours are for (nearest
    first), then requests no skill should take.

    One prompt per source, never rephrased: rewording changes nothing for a lexical
    router, so variants would only pretend to be more evidence.
    """
    positives = seeds_of(target) or [Seed(target.name.replace("-", " "), "name")]
    positives = positives[: max(1, count - count // 2)]
    taken = {_norm(s.text) for s in positives}
    own: list[tuple[Seed, str | None]] = [(s, None) for s in not_for(target)]
    borrowed = _round_robin([[(s, name) for s in seeds_of(doc)] for name, doc in neighbours])
    bank: list[tuple[Seed, str | None]] = [(Seed(t, "off-topic"), None) for t in OFF_TOPIC]
    negatives: list[tuple[Seed, str | None]] = []
    for seed, owner in own + borrowed + bank:
        if _norm(seed.text) not in taken and len(negatives) < len(positives):
            taken.add(_norm(seed.text))
            negatives.append((seed, owner))
    cases = [_case_of(s, None, True, f"gen-t{i:02d}") for i, s in enumerate(positives, 1)]
    cases += [_case_of(s, o, False, f"gen-n{i:02d}") for i, (s, o) in enumerate(negatives, 1)]
    notes = [
        f"{len(cases)} prompts were generated from the skill, its neighbours and a fixed bank; "
        "review them with --save-evals and keep (and add to) the good ones in evals/"
    ]
    if not any(s.source.startswith("body") for s in positives):
        notes.append(
            "every should-trigger prompt was cut from the description itself, so recall only "
            "shows that the description stands apart from its neighbours' (the body has no "
            "'When to use' section to draw on); real requests in evals/ measure more"
        )
    return PromptSet(tuple(cases), "generated (deterministic)", generated=True, notes=tuple(notes))


def _case_of(seed: Seed, owner: str | None, should: bool, cid: str) -> EvalCase:
    return EvalCase(cid, _clean(seed.text), should, source=seed.source, owner=owner)


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .")


def _clean(text: str) -> str:
    text = " ".join(text.split()).strip(" .;:,")
    return text[:1].upper() + text[1:] if text else text


def _summary(description: str) -> str:
    first = re.split(r"(?<=[.!?。])\s+", description.strip(), maxsplit=1)[0]
    return first.strip() if len(first.split()) >= 3 else ""


def _distinct(seeds: Iterable[Seed]) -> list[Seed]:
    seen: set[str] = set()
    out = []
    for seed in seeds:
        key = _norm(seed.text)
        if key and key not in seen:
            seen.add(key)
            out.append(seed)
    return out


def _round_robin(
    groups: Sequence[Sequence[tuple[Seed, str | None]]],
) -> list[tuple[Seed, str | None]]:
    out = []
    for depth in range(max((len(g) for g in groups), default=0)):
        out += [g[depth] for g in groups if depth < len(g)]
    return out


# --- prompts written by a model -------------------------------------------------------

GENERATE_TOOL = Tool(
    name="write_eval_prompts",
    description="Submit the test prompts.",
    schema={
        "type": "object",
        "properties": {
            "prompts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "prompt": {"type": "string"},
                        "should_trigger": {"type": "boolean"},
                        "owner": {
                            "type": "string",
                            "description": "For a near miss: the neighbour skill that fits, or none.",
                        },
                    },
                    "required": ["prompt", "should_trigger"],
                },
            }
        },
        "required": ["prompts"],
    },
)
GENERATE_SYSTEM = (
    "You write test prompts that check when an AI assistant should use a skill. "
    "Write them as real users would: varied, concrete, and without copying the skill's wording."
)


def generation_prompt(
    target: SkillDocument, neighbours: Sequence[tuple[str, str]], count: int
) -> str:
    half = count // 2
    lines = [
        f"Target skill: {target.name}",
        f"Description: {' '.join((target.description or '').split())}",
        "",
        "What the skill's instructions cover (excerpt):",
        target.body_text[:4000],
        "",
        "Neighbour skills (the assistant can pick these instead):",
        *(f"- {name}: {' '.join(desc.split())}" for name, desc in neighbours),
        "",
        f"Write {count - half} requests this skill should handle (should_trigger: true) and "
        f"{half} near misses that look related but belong to a neighbour or to no skill "
        "(should_trigger: false, owner: the neighbour's name or none). "
        "Call write_eval_prompts once with all of them.",
    ]
    return "\n".join(lines)


def parse_generated(tool_input: Mapping[str, Any] | None, origin: str) -> PromptSet | None:
    """The model's prompts, or None when they are unusable (then the generator is used)."""
    rows = (tool_input or {}).get("prompts")
    if not isinstance(rows, list):
        return None
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for row in rows:
        if not isinstance(row, dict):
            continue
        prompt, should = row.get("prompt"), row.get("should_trigger")
        if not isinstance(prompt, str) or not prompt.strip() or not isinstance(should, bool):
            continue
        if prompt.strip().lower() in seen:
            continue
        seen.add(prompt.strip().lower())
        owner = row.get("owner")
        tag = "t" if should else "n"
        cases.append(
            EvalCase(
                id=f"gen-{tag}{sum(1 for c in cases if c.should_trigger == should) + 1:02d}",
                prompt=prompt.strip(),
                should_trigger=should,
                source="written by the model",
                owner=owner if isinstance(owner, str) and owner and owner != "none" else None,
            )
        )
    if not any(c.should_trigger for c in cases) or all(c.should_trigger for c in cases):
        return None
    return PromptSet(
        tuple(cases),
        origin,
        generated=True,
        notes=("prompts were written by the model; review them with --save-evals",),
    )
