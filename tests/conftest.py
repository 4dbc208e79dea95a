"""Shared helpers: skill folders are built in tmp_path from small texts."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from plugin_eval.analysis import Facts
from plugin_eval.config import Config
from plugin_eval.document import SkillDocument, parse_skill
from plugin_eval.engine import score_skill
from plugin_eval.results import SkillResult
from tests.fake_llm_server import FakeLLM

# The cache's sealing key (plugin_eval.cache.sealing_key): the tests, and the processes they
# start, never write one into the user's own cache folder.
os.environ.setdefault("PLUGIN_EVAL_CACHE_KEY", "plugin-eval tests")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS_REAL = SHARED / "corpus-real"
SEEDS = SHARED / "seeds"

MakeSkill = Callable[..., Path]


def write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    for rel, content in files.items():
        target = (root / rel).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_bytes(content.encode("utf-8"))


@pytest.fixture
def make_skill(tmp_path: Path) -> MakeSkill:
    """make_skill(skill_md, folder="example-skill", **{"references/x.md": "..."})."""

    def make(
        skill_md: str | bytes,
        folder: str = "example-skill",
        files: Mapping[str, str | bytes] | None = None,
    ) -> Path:
        root = tmp_path / "skills" / folder
        root.mkdir(parents=True, exist_ok=True)
        write_files(root, {"SKILL.md": skill_md, **(files or {})})
        return root

    return make


def frontmatter(description: str, name: str = "example-skill", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n# Title\n\nBody text.\n"


def doc_of(folder: Path) -> tuple[SkillDocument, Facts]:
    doc = parse_skill(folder)
    return doc, Facts(doc)


def score(folder: Path, config: Config | None = None) -> SkillResult:
    return score_skill(folder, config or Config(), folder.name)


def codes(result: SkillResult) -> list[str]:
    return [f.code for f in result.findings]


# The API key the model-backend tests put in the environment: long enough (8+ characters)
# that the key redaction never mistakes ordinary words for it, and checked for leaks.
TEST_KEY = "sk-test-do-not-leak-4242"


@pytest.fixture(scope="session")
def server() -> Iterator[FakeLLM]:
    """The loopback model server (tests/fake_llm_server.py), started once for the session."""
    fake = FakeLLM().start()
    yield fake
    fake.stop()


@pytest.fixture
def llm(server: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    """The server, emptied, with a fresh response cache and TEST_KEY in the environment."""
    server.reset()
    monkeypatch.setenv("PLUGIN_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    return server
