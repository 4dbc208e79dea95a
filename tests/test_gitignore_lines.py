"""PE309 INERT_GITIGNORE_LINE: a .gitignore line a skill has the model write starts with
'./', which git never matches. Each case is a small setup skill of the kind that keeps a
signing key or generated receipts out of a repository."""

from __future__ import annotations

from plugin_eval.findings import Finding
from tests.conftest import MakeSkill, frontmatter, score

DESCRIPTION = (
    "Sets up signed audit receipts for tool calls. Use when adding an audit trail, rotating "
    "the signing key, or verifying receipts in CI."
)


def found(make_skill: MakeSkill, body: str) -> list[Finding]:
    folder = make_skill(frontmatter(DESCRIPTION, name="audit-receipts") + body, "audit-receipts")
    return [f for f in score(folder).findings if f.code == "PE309"]


def places(findings: list[Finding]) -> list[tuple[str, int | None, int | None]]:
    return [(f.path, f.line, f.column) for f in findings]


def test_each_way_of_writing_a_line_into_a_gitignore_is_read(make_skill: MakeSkill) -> None:
    body = (
        "\n## Setup\n\n"  # lines 9-11
        "1. Keep the key and the receipts out of git:\n\n"  # 12-13
        "   ```bash\n"  # 14
        '   echo "./signing.key" >> .gitignore\n'  # 15: echo, quoted, in a list item
        "   printf '%s\\n' ./receipts/ ./tmp >> .gitignore\n"  # 16: printf's arguments
        "   echo ./cache | tee -a .gitignore\n"  # 17: through tee
        "   ```\n\n"  # 18-19
        "```sh\n"  # 20
        "cat >> .gitignore <<'EOF'\n"  # 21
        "./build/\n"  # 22: a here-document's line
        "dist/\n"  # 23
        "EOF\n"  # 24
        "```\n\n"  # 25-26
        "```gitignore\n"  # 27
        "*.log\n"  # 28
        "!./keep.log\n"  # 29: a negation, in a block that is a .gitignore
        "```\n"
    )
    findings = found(make_skill, body)
    assert places(findings) == [
        ("audit-receipts/SKILL.md", 15, 10),
        ("audit-receipts/SKILL.md", 16, 18),
        ("audit-receipts/SKILL.md", 16, 30),
        ("audit-receipts/SKILL.md", 17, 9),
        ("audit-receipts/SKILL.md", 22, 1),
        ("audit-receipts/SKILL.md", 29, 1),
    ]
    assert findings[0].message == (
        "the .gitignore line './signing.key' starts with './', which git never matches: "
        "'signing.key' is not ignored and can be committed"
    )
    assert findings[0].fix == (
        "Write 'signing.key', or '/signing.key' to match it only at the top of the repository."
    )
    assert (
        "'keep.log' is not taken back in where an earlier line ignores it" in findings[-1].message
    )
    assert findings[-1].fix.startswith("Write '!keep.log', or '!/keep.log'")


def test_a_block_whose_first_line_names_the_gitignore_is_one(make_skill: MakeSkill) -> None:
    body = "\nAdd these lines:\n\n```\n# .gitignore\n./receipts/\nreceipts.db\n```\n"
    assert places(found(make_skill, body)) == [("audit-receipts/SKILL.md", 14, 1)]


def test_lines_git_matches_and_lines_written_elsewhere_are_not_reported(
    make_skill: MakeSkill,
) -> None:
    body = (
        "\nAn entry such as `./signing.key` in prose is not a step, and `./` is read only in "
        "what is written to a .gitignore.\n\n"
        "```bash\n"
        'echo "/signing.key" >> .gitignore\n'  # anchored at the top: matches
        'echo "receipts/" >> .gitignore\n'
        'echo "./notes.md" >> NOTES.txt\n'  # not a .gitignore
        'echo "./x" >> backup.gitignore.old\n'  # nor is this
        'echo "$KEY_PATH" >> .gitignore\n'  # built by the shell: not read
        "```\n\n"
        "```bash\n"
        "cat > config.env <<EOF\n"  # a here-document into another file
        "./not-a-pattern\n"
        "EOF\n"
        "```\n"
    )
    assert found(make_skill, body) == []


def test_an_unclosed_quote_is_read_as_nothing(make_skill: MakeSkill) -> None:
    body = '\n```bash\necho "./signing.key >> .gitignore\n```\n'
    assert found(make_skill, body) == []
