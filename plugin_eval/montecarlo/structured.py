"""Seed 000's structured-data quality: a JSON object scored against the fields it should hold.

Four sub-scores, each 0–100, weighed as the seed weighs them into its structuring quality
score (``WEIGHTS``):

- field completeness (30 %): required fields present / required fields; 100 when nothing is
  required;
- value accuracy (40 %): the mean match (below) of the declared fields present that have
  something to be checked against, 0 when none has: a value is checked against its
  expected value when one is given, else against the source texts (the seed's cleaned
  texts; for a Monte Carlo case, its prompt), as the seed checks that "the title appears in
  the cleaned text";
- type correctness (15 %): declared fields present whose value has a declared type /
  declared fields present, 0 when none is; a missing field is completeness's loss, not this
  one's (the seed's own example has completeness 90 with types 100);
- information sufficiency (15 %): optional fields present / optional fields the source holds
  (all the optional fields, or, when expected values are given, those with one): the seed's
  "misses obvious information present in the cleaned text", required fields being
  completeness's; 100 when there is none, the seed's "complete extraction → 100".

A field is present when its key holds a value that is not null, blank text, or an empty list
or object. Fields are the top-level keys; a nested value is compared as a whole.

A value matches (the seed's guideline: exact → 100, partially correct → 60–80, inconsistent →
below 50) after both sides are written canonically (``canonical``: ISO dates as datetime
reads them, URLs with scheme and host lowercased, the default port and a trailing slash
dropped) and normalised as seed 000 normalises text (HTML stripped, lowercase, whitespace
collapsed):

- exact (100): the same text; against a source text, the value occurs in it as whole words,
  or it is a date or URL the text names (a date also matches a timestamp on that day);
- otherwise by the overlap of their words (runs of letters and digits): against an expected
  value the Jaccard similarity of the two word sets, against a source text the share of the
  value's words the text holds; partial from an overlap of 0.5, scored 60 + 40 × (overlap −
  0.5) (60–80); inconsistent below it, scored 100 × overlap (0–50). Against several source
  texts a value takes its best match.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from plugin_eval import json_input, regexes
from plugin_eval.montecarlo.consistency import normalise

TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
# Seed 000's structuring quality score: completeness, accuracy, types, sufficiency.
WEIGHTS = (0.30, 0.40, 0.15, 0.15)
# The seed's partially correct band (60–80) starts at this overlap; below it, inconsistent.
PARTIAL_AT = 0.5
EXACT, PARTIAL_LOW, PARTIAL_HIGH = 100.0, 60.0, 80.0
NOT_JSON = "not JSON"
NOT_OBJECT = "JSON, but not an object"
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}

_WORD = regexes.compile(r"\w+")
_WORD_CHAR = regexes.compile(r"\w")
_NOT_WORD_CHAR = regexes.compile(r"\W")
_TIME = r"(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?"
_ISO = regexes.compile(r"\d{4}-\d{2}-\d{2}" + _TIME)
_URL = regexes.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"'`]+")
# A date or URL named in a text: dates not inside a longer number, URLs without the
# punctuation that ends the sentence around them.
_ISO_IN_TEXT = regexes.compile(r"(?<![\d-])\d{4}-\d{2}-\d{2}" + _TIME + r"(?![\d:])")
_URL_TRAILER = ".,;:!?)]}"
# The same URLs, found in a text: a scheme starts at the first letter of a run of scheme
# characters. Tried at every letter, the run was read to its end from each one, so a text of
# 160,000 letters took half a minute; tried once a run, the search reads it once.
_URL_IN_TEXT = regexes.compile(
    r"(?<![A-Za-z0-9+.-])[0-9+.-]*(?P<url>[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"'`]+)"
)
Kind = Literal["exact", "partial", "inconsistent"]


class SchemaError(ValueError):
    """A schema or an expected object that cannot be read: what is wrong, and what to write."""


@dataclass(frozen=True, repr=False)
class Field:
    """A declared field: its name, its JSON types (any when empty) and whether it is required."""

    name: str
    types: tuple[str, ...] = ()
    required: bool = False


@dataclass(frozen=True, repr=False)
class Verdict:
    """How well one value matches: the seed's kind of match and its score (0–100)."""

    kind: Kind
    score: float


@dataclass(frozen=True, repr=False)
class Source:
    """A source text, read once: normalised, its words, and the dates and URLs it names."""

    body: str
    words: frozenset[str]
    names: frozenset[str]


@dataclass(frozen=True, repr=False)
class Expectation:
    """What a structured reply should hold: its fields, maybe their expected values, and the
    schema as the eval file gave it (kept to be saved again)."""

    fields: tuple[Field, ...]
    expected: Mapping[str, Any] | None = field(default=None, hash=False)
    schema: object = field(default=None, hash=False, compare=False)


@dataclass(frozen=True, repr=False)
class StructuredScore:
    """Seed 000's four sub-scores of one object (0–100), with each compared value's match;
    ``not_json`` says why a reply held no object to score (every sub-score then 0)."""

    completeness: float
    accuracy: float
    type_correctness: float
    sufficiency: float
    verdicts: tuple[tuple[str, Verdict], ...] = ()
    not_json: str | None = None

    @property
    def score(self) -> float:
        """The seed's structuring quality score."""
        return structuring_quality(
            self.completeness, self.accuracy, self.type_correctness, self.sufficiency
        )


def structuring_quality(
    completeness: float, accuracy: float, type_correctness: float, sufficiency: float
) -> float:
    """completeness × 0.30 + value accuracy × 0.40 + types × 0.15 + sufficiency × 0.15."""
    parts = (completeness, accuracy, type_correctness, sufficiency)
    return sum(weight * part for weight, part in zip(WEIGHTS, parts, strict=True))


# --- schemas ---------------------------------------------------------------------------------


def schema_fields(schema: object) -> tuple[Field, ...]:
    """The fields of seed 000's ``{fields: [{name, type, required}]}`` or of a JSON Schema's
    ``properties`` and ``required``."""
    if not isinstance(schema, Mapping):
        raise SchemaError(
            "must be a mapping: seed 000's {fields: [{name, type, required}]} or a JSON Schema "
            "with properties"
        )
    if "fields" in schema:
        return _seed_fields(schema["fields"])
    if "properties" in schema:
        return _json_schema_fields(schema)
    raise SchemaError(
        "has neither fields (seed 000's {fields: [{name, type, required}]}) nor properties "
        "(a JSON Schema)"
    )


def _seed_fields(value: object) -> tuple[Field, ...]:
    if not isinstance(value, list) or not value:
        raise SchemaError("fields must be a list of {name, type, required}, one a field")
    out: list[Field] = []
    for n, item in enumerate(value, 1):
        where = f"field {n}"
        if not isinstance(item, Mapping):
            raise SchemaError(f"{where} is not a mapping: give it name, type and required")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise SchemaError(f'{where} has no name: give it name: "title"')
        required = item.get("required", False)
        if not isinstance(required, bool):
            raise SchemaError(f"{where} ({name}): required must be true or false")
        out.append(Field(name, _types(item.get("type"), f"{where} ({name})"), required))
    return _distinct(out)


def _json_schema_fields(schema: Mapping[str, Any]) -> tuple[Field, ...]:
    properties, required = schema["properties"], schema.get("required", [])
    if schema.get("type", "object") != "object":
        raise SchemaError("describes no object: a reply's JSON is scored field by field")
    if not isinstance(properties, Mapping):
        raise SchemaError("properties must be a mapping of field name to schema")
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise SchemaError("required must be a list of field names")
    out: list[Field] = []
    for name, sub in properties.items():
        if not isinstance(name, str) or not isinstance(sub, Mapping):
            raise SchemaError(f"properties: {name!s} must be a field name with a schema")
        out.append(Field(name, _types(sub.get("type"), f"properties.{name}"), name in required))
    # A required name the properties leave out is a field of any type.
    out += [Field(name, (), True) for name in required if name not in properties]
    return _distinct(out)


def _types(value: object, where: str) -> tuple[str, ...]:
    types = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if value is None:
        return ()
    if types is None or not all(isinstance(t, str) and t in TYPES for t in types):
        raise SchemaError(f"{where}: type must be one of {', '.join(TYPES)} (or a list of them)")
    return tuple(str(t) for t in types)


def _distinct(fields: list[Field]) -> tuple[Field, ...]:
    seen: set[str] = set()
    for f in fields:
        if f.name in seen:
            raise SchemaError(f"declares {f.name} twice: keep one")
        seen.add(f.name)
    return tuple(fields)


def expectation(expected: object, schema: object) -> Expectation:
    """An eval case's ``expected_json`` and ``expected_schema`` (either may be None); a
    SchemaError's message starts with the key at fault."""
    if expected is not None and not isinstance(expected, Mapping):
        raise SchemaError('expected_json must be a JSON object: {"field": value, …}')
    if schema is not None:
        try:
            fields = schema_fields(schema)
        except SchemaError as err:
            raise SchemaError(f"expected_schema {err}") from None
        names = {f.name for f in fields}
        extra = [str(key) for key in expected or {} if key not in names]
        if extra:
            raise SchemaError(
                f"expected_json has {', '.join(extra)}, which expected_schema does not "
                "declare: declare it, or leave it out"
            )
        return Expectation(fields, expected, schema)
    if not expected:
        raise SchemaError("expected_json has no field: give the object the reply should hold")
    # Without a schema every key with an expected value is required, of that value's type.
    return Expectation(
        tuple(Field(key, (type_of(value),), present(value)) for key, value in expected.items()),
        expected,
    )


def type_of(value: object) -> str:
    """The JSON type of a value: a whole number is an integer, any other a number."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def has_type(value: object, types: Sequence[str]) -> bool:
    """Is the value of one of the types (of any, when none is declared)? An integer is a
    number, and a number with no fraction (3.0) an integer, as in JSON Schema."""
    if not types:
        return True
    kind = type_of(value)
    whole = kind == "number" and isinstance(value, float) and value.is_integer()
    return any(
        t == kind or (t == "number" and kind == "integer") or (t == "integer" and whole)
        for t in types
    )


def present(value: object) -> bool:
    """Does a field hold something: not null, blank text, or an empty list or object?"""
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list | dict):
        return bool(value)
    return True


# --- replies ---------------------------------------------------------------------------------


def reply_object(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of a reply, from its first ```json block that parses, or else from the
    whole reply; or None and why there is none (``NOT_JSON``, ``NOT_OBJECT``)."""
    from plugin_eval.markdown_parser import parse

    source = text.replace("\r\n", "\n").replace("\r", "\n")
    fenced = [
        t.content
        for t in parse(source, {})
        if t.type == "fence" and t.info.strip().lower().split()[:1] == ["json"]
    ]
    for candidate in fenced or [text]:
        try:
            value = json_input.parse(candidate)
        except json_input.JsonInputError:
            continue
        return (value, None) if isinstance(value, dict) else (None, NOT_OBJECT)
    return None, NOT_JSON


def score_reply(reply: str, want: Expectation, sources: Sequence[Source] = ()) -> StructuredScore:
    """A reply's structured quality; 0 on every sub-score when it holds no JSON object."""
    data, problem = reply_object(reply)
    if data is None:
        return StructuredScore(0.0, 0.0, 0.0, 0.0, not_json=problem)
    return score_object(data, want, sources)


def score_object(
    data: Mapping[str, Any], want: Expectation, sources: Sequence[Source] = ()
) -> StructuredScore:
    """Seed 000's four sub-scores of one object (see the module's documentation)."""
    here = [f for f in want.fields if present(data.get(f.name))]
    required = [f for f in want.fields if f.required]
    expected = want.expected
    optional = [
        f
        for f in want.fields
        if not f.required and (expected is None or present(expected.get(f.name)))
    ]
    verdicts: list[tuple[str, Verdict]] = []
    for f in here:
        if expected is not None:
            if present(expected.get(f.name)):
                verdicts.append((f.name, match_value(data[f.name], expected[f.name])))
        elif sources:
            verdicts.append((f.name, match_in_sources(data[f.name], sources)))
    names = {f.name for f in here}
    return StructuredScore(
        completeness=_share(sum(f.name in names for f in required), len(required), 100.0),
        accuracy=sum(v.score for _, v in verdicts) / len(verdicts) if verdicts else 0.0,
        type_correctness=_share(sum(has_type(data[f.name], f.types) for f in here), len(here), 0.0),
        sufficiency=_share(sum(f.name in names for f in optional), len(optional), 100.0),
        verdicts=tuple(verdicts),
    )


def _share(part: int, whole: int, empty: float) -> float:
    return 100.0 * part / whole if whole else empty


# --- matching values -------------------------------------------------------------------------


def canonical(value: object) -> str:
    """A value as text to compare: ISO dates and URLs in canonical form, numbers without a
    trailing ``.0``, ``true``/``false``, a list or object as the text of its values in order.

    Read without recursion (a value 900 levels deep is JSON Python reads): a container's text
    is its values' texts joined by spaces, so the whole is every scalar's text, depth first,
    an empty container standing as an empty text."""
    if not isinstance(value, Mapping | list | tuple):
        return _canonical_scalar(value)
    texts: list[str] = []
    stack: list[Iterator[object]] = [iter((value,))]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, Mapping | list | tuple):
            values = item.values() if isinstance(item, Mapping) else item
            if values:
                stack.append(iter(values))
            else:
                texts.append("")
        else:
            texts.append(_canonical_scalar(item))
    return " ".join(texts)


_END = object()


def _canonical_scalar(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        text = value.strip()
        return iso_date(text) or canonical_url(text) or value
    return str(value)


def iso_date(text: str) -> str | None:
    """An ISO 8601 date or timestamp written canonically, or None: a date as YYYY-MM-DD (so is
    a timestamp at midnight with no zone), a timestamp with a zone in UTC."""
    if not _ISO.fullmatch(text):
        return None
    try:
        moment = datetime.fromisoformat(text.upper())
    except ValueError:
        return None
    if moment.tzinfo is not None:
        return moment.astimezone(UTC).isoformat(sep=" ")
    if moment.time() == datetime.min.time():
        return moment.date().isoformat()
    return moment.isoformat(sep=" ")


def canonical_url(text: str) -> str | None:
    """A URL with its scheme and host lowercased, its default port and a trailing slash
    dropped; None when the text is not one URL."""
    if not _URL.fullmatch(text):
        return None
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # a port that is not a number
        return None
    host = parts.hostname
    if not host:
        return None
    scheme = parts.scheme.lower()
    user = parts.netloc.rpartition("@")[0]
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and DEFAULT_PORTS.get(scheme) != port:
        netloc += f":{port}"
    netloc = f"{user}@{netloc}" if user else netloc
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), parts.query, parts.fragment))


def words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text))


def graded(overlap: float) -> Verdict:
    """The seed's score of a value that is not an exact match, from its word overlap."""
    if overlap >= PARTIAL_AT:
        span = PARTIAL_HIGH - PARTIAL_LOW
        return Verdict("partial", PARTIAL_LOW + span * (overlap - PARTIAL_AT) / (1 - PARTIAL_AT))
    return Verdict("inconsistent", 100.0 * overlap)


def match_value(value: object, expected: object) -> Verdict:
    """A value against its expected value: the same normalised text, else word Jaccard."""
    got, want = normalise(canonical(value)), normalise(canonical(expected))
    if got == want:
        return Verdict("exact", EXACT)
    mine, theirs = words(got), words(want)
    union = mine | theirs
    return graded(len(mine & theirs) / len(union) if union else 0.0)


def source(text: str) -> Source:
    """A source text read once for the values to be checked against it."""
    raw = html.unescape(text)
    names: set[str] = set()
    for found in _ISO_IN_TEXT.finditer(raw):
        day = iso_date(found.group())
        if day is not None:
            names |= {day, day[:10]}
    for found in _URL_IN_TEXT.finditer(raw):
        url = canonical_url(found["url"].rstrip(_URL_TRAILER))
        if url is not None:
            names.add(normalise(url))
    body = normalise(text)
    return Source(body, words(body), frozenset(names))


def match_in_text(value: object, text: Source) -> Verdict:
    """A value against a source text: held as whole words or named there, else the share of
    its words the text holds."""
    got = normalise(canonical(value))
    if not got:
        return Verdict("inconsistent", 0.0)
    if got in text.names or _whole_words(got, text.body):
        return Verdict("exact", EXACT)
    mine = words(got)
    return graded(len(mine & text.words) / len(mine) if mine else 0.0)


def _whole_words(got: str, body: str) -> bool:
    r"""Whether ``body`` holds ``got`` with no word character just before or after it: what
    ``re.search(rf"(?<!\w){re.escape(got)}(?!\w)", body)`` finds, without its cost (the
    look-behind first keeps ``re`` from searching for the text, so it compared ``got`` at
    every place of ``body``). After a place with a word character before it, the search goes
    on after the next character that is not one."""
    at = 0
    while (found := body.find(got, at)) >= 0:
        end = found + len(got)
        if found and _WORD_CHAR.match(body, found - 1):
            gap = _NOT_WORD_CHAR.search(body, found)
            if gap is None:
                return False
            at = gap.start() + 1
        elif end < len(body) and _WORD_CHAR.match(body, end):
            at = found + 1
        else:
            return True
    return False


def match_in_sources(value: object, sources: Sequence[Source]) -> Verdict:
    """A value's best match among the source texts (the first of equals)."""
    best = Verdict("inconsistent", 0.0)
    for text in sources:
        verdict = match_in_text(value, text)
        if verdict.score > best.score:
            best = verdict
    return best
