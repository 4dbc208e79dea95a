"""The judge's reply: a forced tool call whose arguments are checked here, dimension by dimension.

Each dimension is validated on its own (``DimensionVerdict``), so one malformed dimension costs
that dimension, not the whole judgement. A verdict holds a band (0–4), a score inside that band
and one to three quotes from the skill; a score outside its band is refused as a contradiction.
Quotes are then checked against the text the judge was shown (``quoted_in``): one that does not
occur there, after whitespace is normalised, is dropped and counted, and a verdict left with no
quote is refused, since nothing in the skill supports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from plugin_eval.judge.material import normalised
from plugin_eval.judge.rubric import DIMENSIONS, band_bounds, band_of
from plugin_eval.montecarlo.backends.base import Tool

QUOTE_CHARS = 300
REASON_CHARS = 400
TOOL_NAME = "record_judgement"


class DimensionVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # Strict, as the tool schema says (integer, number): true is no score and "4" no band.
    band: int = Field(ge=0, le=4, strict=True)
    score: float = Field(ge=0.0, le=1.0, strict=True)
    evidence: list[str] = Field(min_length=1, max_length=3)
    reason: str = Field(default="", max_length=REASON_CHARS)

    @field_validator("band", mode="before")
    @classmethod
    def _whole_band(cls, value: object) -> object:
        """A band written 3.0 is the integer 3 (JSON has one kind of number)."""
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @model_validator(mode="after")
    def _score_in_band(self) -> DimensionVerdict:
        if band_of(self.score) != self.band:
            low, high = band_bounds(self.band)
            raise ValueError(
                f"score {self.score} is outside band {self.band} ({low:.2f}–{high:.2f})"
            )
        if any(not q.strip() or len(q) > QUOTE_CHARS for q in self.evidence):
            raise ValueError(f"each quote must be 1 to {QUOTE_CHARS} characters")
        return self


def _dimension_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "band": {
                "type": "integer",
                "minimum": 0,
                "maximum": 4,
                "description": "The rubric band: 0 (worst) to 4 (best).",
            },
            "score": {
                "type": "number",
                "minimum": 0,
                "maximum": 1,
                "description": "A score inside the band: 0.00–0.19, 0.20–0.39, 0.40–0.59, "
                "0.60–0.79 or 0.80–1.00.",
            },
            "evidence": {
                "type": "array",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "maxLength": QUOTE_CHARS},
                "description": "One to three passages copied exactly from the skill that "
                "support the band.",
            },
            "reason": {
                "type": "string",
                "maxLength": REASON_CHARS,
                "description": "One sentence: why this band and not the next one up.",
            },
        },
        "required": ["band", "score", "evidence", "reason"],
        "additionalProperties": False,
    }


JUDGE_TOOL = Tool(
    TOOL_NAME,
    "Record your judgement of the skill: for each dimension, a band, a score inside it and "
    "the quotes from the skill that support it.",
    {
        "type": "object",
        "properties": {d.name: _dimension_schema() for d in DIMENSIONS},
        "required": [d.name for d in DIMENSIONS],
        "additionalProperties": False,
    },
)


@dataclass(frozen=True, repr=False)
class Checked:
    """One judgement of one dimension, after validation and the quote check."""

    verdict: DimensionVerdict | None
    dropped_quotes: int = 0
    problem: str | None = None  # why the verdict was refused, when it was


def check(arguments: Mapping[str, Any] | None, shown: str) -> dict[str, Checked]:
    """Each dimension of a judge's tool arguments, validated and its quotes checked against
    ``shown`` (already ``normalised``)."""
    out: dict[str, Checked] = {}
    for dim in DIMENSIONS:
        raw = arguments.get(dim.name) if isinstance(arguments, Mapping) else None
        if raw is None:
            out[dim.name] = Checked(None, problem="no verdict for this dimension")
            continue
        try:
            verdict = DimensionVerdict.model_validate(raw)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            out[dim.name] = Checked(
                None, problem=f"invalid verdict ({where + ': ' if where else ''}{first['msg']})"
            )
            continue
        kept = [q for q in verdict.evidence if normalised(q) and normalised(q) in shown]
        dropped = len(verdict.evidence) - len(kept)
        if not kept:
            out[dim.name] = Checked(
                None, dropped, "none of its quotes occurs in the skill: nothing supports it"
            )
            continue
        out[dim.name] = Checked(verdict.model_copy(update={"evidence": kept}), dropped)
    return out
