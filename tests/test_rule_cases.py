"""Rule cases kept as data: one YAML file per rule code under `tests/rule_cases/`.

Each file names its rule and lists cases. A case gives a skill either as `files` (relative
path to text) or as a `description` (with optional `extra` frontmatter lines and `body`),
which becomes SKILL.md with the description on line 3. It then gives either `pass: true`
or `expect`: the rule's findings as `{line, column}` (and `path` when not SKILL.md; `null`
where the rule reports none). A case the rule gets wrong today carries `xfail: "reason"`;
it fails the suite once the rule is fixed, so the mark is removed with the fix.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.rules import BY_CODE
from tests.conftest import write_files

CASES = Path(__file__).parent / "rule_cases"
CASE_KEYS = {"name", "files", "folder", "description", "extra", "body", "expect", "pass", "xfail"}

Located = tuple[str, int | None, int | None]


def skill_files(case: dict[str, Any]) -> dict[str, str]:
    if "files" in case:
        return dict(case["files"])
    # JSON strings are valid YAML double-quoted scalars, so any description survives as text.
    description = json.dumps(case["description"], ensure_ascii=False)
    body = case.get("body", "# Example skill\n\nSteps.\n")
    head = f"---\nname: example-skill\ndescription: {description}\n{case.get('extra', '')}---\n"
    return {"SKILL.md": f"{head}\n{body}"}


def expected(case: dict[str, Any]) -> Counter[Located]:
    if case.get("pass") is True:
        assert "expect" not in case, "a case either passes or expects findings"
        return Counter()
    assert case.get("expect"), "a case needs `pass: true` or a non-empty `expect`"
    return Counter(
        (e.get("path", "SKILL.md"), e.get("line"), e.get("column")) for e in case["expect"]
    )


def load() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        code = data["rule"]
        assert path.stem == code and code in BY_CODE, path.name
        for case in data["cases"]:
            assert set(case) <= CASE_KEYS, f"{path.name}: {case.get('name')}"
            marks = (
                [pytest.mark.xfail(reason=case["xfail"], strict=True)] if "xfail" in case else []
            )
            params.append(pytest.param(code, case, id=f"{code}-{case['name']}", marks=marks))
    return params


@pytest.mark.parametrize(("code", "case"), load())
def test_rule_case(code: str, case: dict[str, Any], tmp_path: Path) -> None:
    root = tmp_path / "skills" / case.get("folder", "example-skill")
    write_files(root, skill_files(case))
    found = Counter(
        (f.path, f.line, f.column)
        for f in score_skill(root, Config(), "").findings
        if f.code == code
    )
    assert found == expected(case)


def test_every_case_file_holds_several_cases() -> None:
    files = sorted(CASES.glob("*.yaml"))
    assert len(files) >= 8
    for path in files:
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
        names = [c["name"] for c in cases]
        assert len(cases) >= 5 and len(names) == len(set(names)), path.name
