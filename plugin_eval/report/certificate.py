"""The certificate of one skill (`plugin-eval certify`): its schema and its four renderings.

The model is what ``certificate.json`` holds and ``plugin-eval schema --certificate`` prints;
text, Markdown and the SVG badge only show it. Every field that comes from the skill, or from
a model's reply quoted in a reason, goes through ``report.neutral`` for its output.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from plugin_eval import __version__
from plugin_eval.report.judge import alpha_text
from plugin_eval.report.neutral import (
    command_free,
    html_text,
    json_text,
    markdown_code,
    markdown_text,
    score_text,
    visible,
)
from plugin_eval.scoring.composite import whole

SCHEMA_VERSION = "1"
NOT_CERTIFIED = "NOT CERTIFIED"
TITLE = "plugin-eval certificate"
CertificateFormat = Literal["text", "markdown", "json"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class SkillOut(_Model):
    name: str
    path: str = Field(description="The skill folder, as given.")


class CertifiedDimension(_Model):
    name: str
    weight: float
    score: float | None = Field(description="0–1; null when no layer measured it (never 0).")
    measured_by: list[str] = Field(description="The layers that scored this dimension.")
    needed_by_certification: list[str] = Field(
        description="The layers that must have measured this dimension for the skill to be "
        "certified (the judge for the four judged dimensions, Monte Carlo routing for "
        "triggering_accuracy); empty when certification needs none."
    )


class ModelsOut(_Model):
    judge: list[str] = Field(description="The models that gave the judgements, in turn.")
    routing: str = Field(description="The model that routed the Monte Carlo prompts.")


class MonteCarloRuns(_Model):
    runs: int = Field(description="Routing runs made (0 when the layer did not run).")
    runs_requested: int
    distinct_prompts: int
    stopped_early: str | None = Field(description="ci_width or max_cost; null when it was not.")


class JudgesOut(_Model):
    judges: int = Field(description="Independent judgements asked for.")
    usable_judges: int
    alpha: float | None = Field(
        description="Krippendorff's alpha of the judges' bands; null when undefined (one "
        "judge, every band the same) or when the judge did not run."
    )
    alpha_ci_lower: float | None
    alpha_ci_upper: float | None


class CostOut(_Model):
    usd: float | None = Field(
        description="List price of every call the certificate rests on (judge and Monte "
        "Carlo), whether this run made it or read it from the response cache, so two "
        "identical runs agree; null when no price is known for a model (give --price IN,OUT)."
    )
    judge_usd: float | None
    monte_carlo_usd: float | None
    calls: int = Field(description="Model calls, cached ones included.")
    input_tokens: int
    output_tokens: int


class Certificate(_Model):
    kind: Literal["certificate"] = "certificate"
    schema_version: str = SCHEMA_VERSION
    tool: str = "plugin-eval"
    version: str = Field(default=__version__, description="The plugin-eval version.")
    generated_at: str = Field(
        description="When it was issued: the only field that changes between identical runs."
    )
    certified: bool
    result: str = Field(description="Certified+, Certified, or NOT CERTIFIED.")
    reasons: list[str] = Field(
        description="Why it is not certified: each unmeasured dimension certification needs, "
        "and why it went unmeasured; a confidence label below Certified. Empty when certified."
    )
    skill: SkillOut
    score: float = Field(description="The composite, 0–100.")
    ci_lower: float | None = Field(description="95 % interval of the composite.")
    ci_upper: float | None
    badge: str
    grade: str
    confidence_label: str = Field(
        description="The report's label for what the layers measured, capped at Assessed when "
        "a dimension certification needs went unmeasured: a certificate that is not certified "
        "never carries a Certified label."
    )
    dimensions: list[CertifiedDimension]
    backend: str
    models: ModelsOut
    monte_carlo: MonteCarloRuns
    judges: JudgesOut
    cost: CostOut


def badge_text(cert: Certificate) -> str:
    """The right half of the badge: 'Certified+ · gold 86', or 'not certified'."""
    if not cert.certified:
        return "not certified"
    medal = f"{cert.badge} " if cert.badge != "none" else ""
    return f"{cert.result} · {medal}{cert.score:.0f}"


def _interval(cert: Certificate) -> str:
    if cert.ci_lower is None or cert.ci_upper is None:
        return "no interval"
    return f"95 % interval {cert.ci_lower:.1f}–{cert.ci_upper:.1f}"


def _alpha(j: JudgesOut) -> str:
    if j.alpha is None:
        return "agreement undefined"
    return f"Krippendorff's alpha {alpha_text(j.alpha, j.alpha_ci_lower, j.alpha_ci_upper)}"


def _cost(c: CostOut) -> str:
    if c.usd is None:
        money = "USD unknown (no list price for a model; give --price IN,OUT)"
    else:
        parts = [
            f"{name} {value:.4f}"
            for name, value in (("judge", c.judge_usd), ("Monte Carlo", c.monte_carlo_usd))
            if value is not None
        ]
        money = f"USD {c.usd:.4f} ({', '.join(parts)})"
    return (
        f"{money}; {c.calls:,} call(s), {c.input_tokens:,} input and {c.output_tokens:,} "
        "output token(s)"
    )


def _fields(cert: Certificate) -> list[tuple[str, str]]:
    """Label and value of every field but the dimensions, as text (not yet neutralised)."""
    mc, j = cert.monte_carlo, cert.judges
    stopped = f", stopped early ({mc.stopped_early})" if mc.stopped_early else ""
    return [
        ("result", cert.result),
        ("skill", cert.skill.name),
        ("path", cert.skill.path),
        ("composite", f"{score_text(cert.score)}/100, {_interval(cert)}"),
        ("badge", cert.badge),
        ("grade", cert.grade),
        ("confidence", cert.confidence_label),
        ("backend", cert.backend),
        ("models", f"judge {', '.join(cert.models.judge)}; routing {cert.models.routing}"),
        (
            "monte carlo",
            f"{mc.runs} run(s) of {mc.runs_requested} requested, "
            f"{mc.distinct_prompts} distinct prompt(s){stopped}",
        ),
        ("judges", f"{j.judges} asked, {j.usable_judges} usable; {_alpha(j)}"),
        ("cost", _cost(cert.cost)),
        ("plugin-eval", cert.version),
        ("issued", cert.generated_at),
    ]


def _score(d: CertifiedDimension) -> str:
    return "—" if d.score is None else whole(d.score)


def render_text(cert: Certificate) -> str:
    """The certificate as plain text: fields, reasons, then one line per dimension."""
    lines = [TITLE, ""]
    for label, value in _fields(cert):
        lines.append(f"{label:<12} {visible(value)}")
        if label == "result":
            lines += [
                f"{'why' if i == 0 else '':<12} {visible(reason)}"
                for i, reason in enumerate(cert.reasons)
            ]
    lines += ["", f"{'dimension':<24} {'weight':>6} {'score':>5}  {'measured by':<28} needs"]
    for d in cert.dimensions:
        by = ", ".join(d.measured_by) or "unmeasured"
        needs = ", ".join(d.needed_by_certification) or "—"
        lines.append(f"{d.name:<24} {d.weight:>6.2f} {_score(d):>5}  {by:<28} {needs}")
    return command_free("\n".join(line.rstrip() for line in lines) + "\n")


# The fields whose text comes from the skill or the command line; the rest is plugin-eval's.
OUTSIDE = frozenset({"skill", "path", "models"})


def render_markdown(cert: Certificate) -> str:
    """The certificate as Markdown: a field table, the reasons, the dimension table."""
    lines = [
        f"# {TITLE}",
        "",
        f"**{markdown_text(cert.result)}**: {markdown_text(cert.skill.name)}",
    ]
    lines += ["", "| field | value |", "|---|---|"]
    for label, value in _fields(cert):
        if label == "path":
            value = markdown_code(value)
        elif label in OUTSIDE:
            value = markdown_text(value)
        lines.append(f"| {label} | {value} |")
    if cert.reasons:
        lines += ["", "## Why it is not certified", ""]
        lines += [f"- {markdown_text(reason, table=False)}" for reason in cert.reasons]
    lines += [
        "",
        "## Dimensions",
        "",
        "| dimension | weight | score | measured by | certification needs |",
        "|---|---:|---:|---|---|",
    ]
    for d in cert.dimensions:
        by = ", ".join(d.measured_by) or "unmeasured"
        needs = ", ".join(d.needed_by_certification) or "—"
        lines.append(f"| {d.name} | {d.weight:.2f} | {_score(d)} | {by} | {needs} |")
    return "\n".join(lines) + "\n"


def render_json(cert: Certificate) -> str:
    """The certificate as JSON (``Certificate``'s schema), C1 and bidi characters escaped."""
    return json_text(json.dumps(cert.model_dump(mode="json"), indent=2, ensure_ascii=False)) + "\n"


SVG_OPENING = '<svg xmlns="http://www.w3.org/2000/svg" class="plugin-eval-certificate" '
# White text on every right half at 4.5:1 or more (WCAG AA): the badge draws its own
# background, so it reads the same on a light page and a dark one.
COLOURS = {
    "platinum": "#4d5d73",
    "gold": "#7d6200",
    "silver": "#616161",
    "bronze": "#8a4b22",
    "none": "#4a5568",
}
NOT_CERTIFIED_COLOUR = "#b3261e"


def render_svg(cert: Certificate) -> str:
    """A self-contained shields-style badge: 'plugin-eval | Certified+ · gold 86'. No script,
    no link, no font to fetch; the skill's name is in the title, escaped."""
    left, right = "plugin-eval", badge_text(cert)
    lw, rw = 6 * len(left) + 12, 7 * len(right) + 12
    colour = COLOURS.get(cert.badge, COLOURS["none"]) if cert.certified else NOT_CERTIFIED_COLOUR
    title = html_text(f"{cert.skill.name}: {left} {right}")
    return (
        f'{SVG_OPENING}width="{lw + rw}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{rw}" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" '
        'font-size="11">'
        f'<text x="{lw / 2:.0f}" y="14">{html_text(left)}</text>'
        f'<text x="{lw + rw / 2:.0f}" y="14">{html_text(right)}</text></g></svg>\n'
    )


RENDER = {"text": render_text, "markdown": render_markdown, "json": render_json}
# The files `certify` writes, each with the start only a certificate of that name has.
FILES = {
    "certificate.txt": (render_text, TITLE + "\n"),
    "certificate.md": (render_markdown, f"# {TITLE}\n"),
    "certificate.json": (render_json, '{\n  "kind": "certificate",\n'),
    "badge.svg": (render_svg, SVG_OPENING),
}


def files(cert: Certificate) -> dict[str, str]:
    """File name → text, for the four files of a certificate."""
    return {name: render(cert) for name, (render, _) in FILES.items()}


def foreign(folder: Path) -> list[str]:
    """The certificate file names in ``folder`` that hold something other than a previous
    certificate of that name (a file of the user's, a folder, a symlink): never overwritten."""
    found = []
    for name, (_, opening) in FILES.items():
        path = folder / name
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        except OSError:
            found.append(name)
            continue
        if not stat.S_ISREG(info.st_mode) or not _starts_with(path, opening.encode()):
            found.append(name)
    return found


def _starts_with(path: Path, opening: bytes) -> bool:
    try:
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return False
    try:
        return os.read(fd, len(opening)) == opening
    finally:
        os.close(fd)
