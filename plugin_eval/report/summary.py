"""summary.json and summary.md of a marketplace report (GitHub job-summary friendly)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from plugin_eval import __version__
from plugin_eval.report.markdown import cell

BADGES = ("platinum", "gold", "silver", "bronze", "none")
ATTENTION_BELOW = 60.0
MAX_ROWS = 400  # GitHub caps a job summary at 1 MiB; summary.json always has every row
Row = dict[str, Any]


def summary_json(
    rows: list[Row], stamp: str, root: str, notes: list[str], previous: list[Row] | None
) -> dict[str, Any]:
    scored = [r for r in rows if not r["errored"]]
    data: dict[str, Any] = {
        "schema_version": "1",
        "tool": "plugin-eval",
        "version": __version__,
        "generated_at": stamp,
        "root": root,
        "depth": "quick",
        "counts": {
            "plugins": sum(1 for r in rows if r["kind"] == "plugin"),
            "skills": sum(1 for r in rows if r["kind"] == "skill"),
            "errored": len(rows) - len(scored),
        },
        "mean_score": _mean(r["score"] for r in scored),
        "badge_counts": {b: sum(1 for r in scored if r["badge"] == b) for b in BADGES},
        "notes": notes,
        "rows": rows,
    }
    if previous is not None:
        data["changes"] = changes(rows, previous)
    return data


def _mean(values: Any) -> float | None:
    items = list(values)
    return round(sum(items) / len(items), 2) if items else None


def changes(rows: list[Row], previous: list[Row]) -> dict[str, Any]:
    before = {r["path"]: r for r in previous}
    now = {r["path"]: r for r in rows}
    deltas = []
    for path in sorted(now.keys() & before.keys()):
        a, b = before[path], now[path]
        if a.get("score") is None or b.get("score") is None:
            continue
        delta = round(b["score"] - a["score"], 2)
        if delta or a.get("badge") != b.get("badge"):
            deltas.append(
                {
                    "path": path,
                    "name": b["name"],
                    "before": a["score"],
                    "after": b["score"],
                    "delta": delta,
                    "badge_before": a.get("badge"),
                    "badge_after": b["badge"],
                }
            )
    deltas.sort(key=lambda d: (-abs(d["delta"]), d["path"]))
    return {
        "added": sorted(now.keys() - before.keys()),
        "removed": sorted(before.keys() - now.keys()),
        "score_changes": deltas,
        "new_findings": sum(len(r.get("changes", {}).get("new", [])) for r in rows),
        "fixed_findings": sum(len(r.get("changes", {}).get("fixed", [])) for r in rows),
    }


def load_previous(folder: Path) -> list[Row] | None:
    try:
        data = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    rows = data.get("rows") if isinstance(data, dict) else None
    return rows if isinstance(rows, list) else None


def _weakest(row: Row) -> str:
    return ", ".join(f"{d['name']} {d['score'] * 100:.0f}" for d in row["weakest_dimensions"])


def _flags(row: Row) -> str:
    return ", ".join(f"{k}×{v}" if v > 1 else k for k, v in row["anti_patterns"].items()) or "—"


def _ci(row: Row) -> str:
    if row.get("ci_lower") is None or row.get("ci_upper") is None:
        return "—"
    return f"[{row['ci_lower']:.1f}, {row['ci_upper']:.1f}]"


def summary_md(data: dict[str, Any]) -> str:
    rows: list[Row] = data["rows"]
    scored = [r for r in rows if not r["errored"]]
    c = data["counts"]
    out = [
        "# plugin-eval report",
        "",
        f"{c['plugins']} plugins and {c['skills']} loose skills under `{cell(data['root'])}` · "
        f"depth {data['depth']} (static layer) · plugin-eval {data['version']} · {data['generated_at']}",
        "",
        "| mean score | " + " | ".join(BADGES) + " | errored |",
        "|---:|" + "---:|" * (len(BADGES) + 1),
        f"| {data['mean_score'] if data['mean_score'] is not None else '—'} | "
        + " | ".join(str(data["badge_counts"][b]) for b in BADGES)
        + f" | {c['errored']} |",
        "",
    ]
    if "changes" in data:
        out += _changes_md(data["changes"], rows)
    attention = [r for r in scored if r["score"] < ATTENTION_BELOW or r["anti_patterns"]]
    attention.sort(key=lambda r: (r["score"], r["path"]))
    out += [
        f"## Needs attention ({len(attention)})",
        "",
        "Score under 60 or any anti-pattern; weakest dimensions are each item's own.",
        "",
    ]
    if attention:
        out += [
            "| item | kind | score | weakest dimensions | anti-patterns |",
            "|---|---|---:|---|---|",
        ]
        out += [
            f"| {cell(r['name'])} (`{cell(r['path'])}`) | {r['kind']} | {r['score']:.1f} | "
            f"{_weakest(r)} | {_flags(r)} |"
            for r in attention[:MAX_ROWS]
        ]
        out += _more(len(attention))
    errors = [r for r in rows if r["errored"] or r["load_errors"]]
    out += [
        "",
        f"## Errors ({len(errors)})",
        "",
        "Items that could not be scored, or that a harness would not load.",
        "",
    ]
    if errors:
        out += ["| item | problem |", "|---|---|"]
        out += [
            f"| `{cell(r['path'])}` | "
            f"{cell(r['error'] or 'load errors: ' + ', '.join(r['load_errors']))} |"
            for r in errors[:MAX_ROWS]
        ]
        out += _more(len(errors))
    for kind, title in (("plugin", "Plugins"), ("skill", "Loose skills")):
        ranked = sorted(
            (r for r in scored if r["kind"] == kind), key=lambda r: (-r["score"], r["path"])
        )
        out += ["", f"## {title} ranked ({len(ranked)})", ""]
        if not ranked:
            continue
        out += [
            "| # | name | score | badge | grade | CI | weakest | anti-patterns |",
            "|---:|---|---:|---|---|---|---|---|",
        ]
        out += [
            f"| {i} | {cell(r['name'])} | {r['score']:.1f} | {r['badge']} | {r['grade']} | "
            f"{_ci(r)} | {_weakest(r)} | {_flags(r)} |"
            for i, r in enumerate(ranked[:MAX_ROWS], 1)
        ]
        out += _more(len(ranked))
    if data["notes"]:
        out += ["", "## Skipped", ""] + [f"- {cell(n)}" for n in data["notes"][:MAX_ROWS]]
    return "\n".join(out) + "\n"


def _more(total: int) -> list[str]:
    return ["", f"… and {total - MAX_ROWS} more in summary.json."] if total > MAX_ROWS else []


def _changes_md(ch: dict[str, Any], rows: list[Row]) -> list[str]:
    out = [
        "## What changed",
        "",
        f"{len(ch['added'])} added, {len(ch['removed'])} removed, "
        f"{len(ch['score_changes'])} score or badge changes, {ch['new_findings']} new findings, "
        f"{ch['fixed_findings']} fixed.",
        "",
    ]
    if ch["score_changes"]:
        out += ["| item | before | after | Δ | badge |", "|---|---:|---:|---:|---|"]
        for d in ch["score_changes"][:MAX_ROWS]:
            badge = (
                d["badge_after"]
                if d["badge_before"] == d["badge_after"]
                else f"{d['badge_before']} → {d['badge_after']}"
            )
            out.append(
                f"| {cell(d['name'])} (`{cell(d['path'])}`) | {d['before']:.1f} | "
                f"{d['after']:.1f} | {d['delta']:+.1f} | {badge} |"
            )
        out.append("")
    for label, key in (("Added", "added"), ("Removed", "removed")):
        if ch[key]:
            out += [
                f"{label}: "
                + ", ".join(f"`{cell(p)}`" for p in ch[key][:50])
                + (" …" if len(ch[key]) > 50 else ""),
                "",
            ]
    counter: Counter[str] = Counter()
    for r in rows:
        for kind in ("new", "fixed"):
            for key in r.get("changes", {}).get(kind, []):
                counter[f"{kind}|{r['path']}|{key}"] += 1
    listed = sorted(counter)[:40]
    if listed:
        out += ["<details><summary>New and fixed findings</summary>", ""]
        out += [
            f"- {k.split('|', 1)[0]}: `{cell(k.split('|')[1])}` {cell(k.split('|', 2)[2])}"
            for k in listed
        ]
        out += ["", "</details>", ""]
    return out
