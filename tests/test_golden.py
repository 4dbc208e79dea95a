"""Every output over the bundled corpus is byte-identical to the recorded one.

The files under `tests/golden/out` were recorded with `python -m tests.golden.cases --write`;
a change that alters an output on purpose re-records them in the same commit.
"""

from __future__ import annotations

import pytest

from tests.golden.cases import HERE, cases, report_files, run


@pytest.mark.parametrize(("name", "args"), list(cases()), ids=[name for name, _ in cases()])
def test_command_output_is_unchanged(name: str, args: list[str]) -> None:
    code, out = run(args)
    assert f"exit {code}\n{out}" == (HERE / name).read_text(encoding="utf-8")


def test_report_folder_is_unchanged() -> None:
    written = report_files()
    recorded = {
        p.relative_to(HERE / "report").as_posix(): p.read_text(encoding="utf-8")
        for p in sorted((HERE / "report").rglob("*"))
        if p.is_file()
    }
    assert sorted(written) == sorted(recorded)
    for rel, text in written.items():
        assert text == recorded[rel], rel
