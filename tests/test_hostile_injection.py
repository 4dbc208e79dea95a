"""Injection (issue 10): text from a skill never steers a terminal, a CI runner or a reader.

Skills whose folder names, frontmatter names, descriptions and links carry escape sequences,
other controls, bidi overrides, newlines followed by workflow commands, backticks, HTML,
Markdown and mentions are built in tmp_path and run through the real command line: `score` in
every output format, `compare`, `--show-files`, and the marketplace `report` (its stderr and
its summary.md). Every output must hold no raw control character, no line a CI runner would
execute (outside `--output github`, whose lines are its own commands), and, in Markdown, no
HTML, image, link or stray block made of a skill's text; and the hostile text must still be
there to read, made visible, not dropped.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.neutral import (
    command_free,
    json_text,
    markdown_code,
    markdown_text,
    terminal,
    visible,
    workflow_data,
    workflow_property,
)
from plugin_eval.report.text import console_for

HOSTILE = {
    "csi": "\x1b[2Jclear",
    "osc-title": "\x1b]0;pwned-title\x07rest",
    "bel": "ring\x07bell",
    "c0": "c0\x01\x02\x08\x0b\x0c\x0e\x1f-end",
    "c1-csi": "c1\x9b31m-red",
    "del": "del\x7f-end",
    "bidi": "bidi\u202eevil\u202c\u2066iso\u2069\u200f",
    "separator": "line\u2028para\u2029end",
    "invisible": "pdf\u200b\u200d\u2060\u00ad\ufeff\U000e0041\U000e0042-end",
    "workflow": "x\n::error file=x::pwned",
    "stop-commands": "y\n::stop-commands::tok",
    "carriage-return": "z\r::warning::w",
    "leading-command": "::error::lead",
    "legacy-command": "v ##[error]legacy",
    "backticks": "a`b``c",
    "code-span": "see `<b>x</b>` here",
    "html": "<b>x</b><img src=x onerror=alert(1)><!-- c -->",
    "image": "![i](http://e.example/x.png)",
    "link": "[l](http://e.example/)",
    "autolink": "www.evil.example http://evil.example/p mail@evil.example",
    "mention": "@someone and @org/team",
    "pipe": "a|b\\|c",
    "heading": "# h",
    "quote": "> q",
    "ordered": "1. x",
    "task": "- [ ] t",
    "entity": "&#x202e;&lt;b&gt;",
    "rich-markup": "[bold red]x[/] [link=http://e.example]y[/link]",
    "emoji": ":smile:-skill",
    "trailing-backslash": "tail\\",
}
FORMATS = ("text", "markdown", "json", "sarif", "github", "html")
# Raw characters no output may hold: C0 but tab and newline, DEL, C1, bidi, separators, and
# format characters that show nothing (zero-width, word joiner, soft hyphen, BOM, tags).
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
COMMAND = re.compile(r"^[ \t]*::", re.MULTILINE)
GITHUB_LINE = re.compile(r"::(error|warning|notice) [^:\n]*::[^\n]*")
MENTION = re.compile(r"(?<![0-9A-Za-z`])@[0-9A-Za-z]")
MARKUP_TOKENS = {"html_inline", "html_block", "image", "link_open"}
BLOCK_TOKENS = {"blockquote_open", "ordered_list_open", "fence", "code_block", "hr"}
DESCRIPTION = "Use when exporting tables, cleaning column names, or merging ledger files."
runner = CliRunner()


def _folder_name(text: str) -> str:
    return "k-" + text.replace("/", "_")


def _yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: JSON's escapes, but a character outside the BMP
    as YAML's \\U escape (YAML reads JSON's surrogate pair as two lone surrogates)."""
    return re.sub(
        r"\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}",
        lambda m: "\\U{:08x}".format(ord(json.loads('"' + m.group() + '"'))),
        json.dumps(text),
    )


def _skill(parent: Path, text: str) -> Path:
    """A skill whose folder, name, description and one link all carry ``text``."""
    folder = parent / _folder_name(text)
    os.mkdir(folder)  # any byte but '/' and NUL is a valid name on Linux
    body = text.replace("\n", " ").replace("\r", " ")
    (folder / "SKILL.md").write_text(
        f"---\nname: {_yaml_quoted(text)}\n"
        f"description: {_yaml_quoted(f'Formats CSV reports {text}. {DESCRIPTION}')}\n---\n\n"
        f"# Title\n\nSee [the guide]({body}.md) and more.\n",
        encoding="utf-8",
    )
    return folder


def _markdown() -> MarkdownIt:
    """GitHub-flavoured as far as markdown-it goes; autolinks as GFM makes them (a scheme or
    'www.', not any bare domain)."""
    md = MarkdownIt("gfm-like")
    assert md.linkify is not None  # linkify-it-py, a test dependency
    md.linkify.set({"fuzzy_link": False})
    return md


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def _plain(token: Token) -> str:
    """The text an inline token renders, code spans' content included."""
    return "".join(
        t.content for t in _tokens(token.children or []) if t.type in ("text", "code_inline")
    )


def _cells(line: str) -> int:
    """Cells of a GFM table row: a '|' after a backslash is inside a cell."""
    return len(re.split(r"(?<!\\)\|", line.strip().strip("|")))


def _check_markdown(text: str) -> list[Token]:
    """No markup and no stray block from a field; every table row as wide as its header."""
    tokens = _markdown().parse(text)
    found = {t.type for t in _tokens(tokens)}
    assert not found & MARKUP_TOKENS, found & MARKUP_TOKENS
    assert not found & BLOCK_TOKENS, found & BLOCK_TOKENS
    # GitHub links @name in rendered text (not in code) and notifies that user.
    texts = [t.content for t in _tokens(tokens) if t.type == "text"]
    assert not [m for m in texts if MENTION.search(m)], [m for m in texts if MENTION.search(m)]
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"\|(:?-+:?\|)+", line):
            width = _cells(lines[i - 1])
            for row in lines[i + 1 :]:
                if not row.startswith("|"):
                    break
                assert _cells(row) == width, row
    return tokens


def _check_plain_output(text: str, where: str) -> None:
    raw = RAW.search(text)
    assert raw is None, f"raw {raw.group()!r} in {where}"
    assert "##[" not in text, f"'##[' in {where}"
    starts = COMMAND.findall(text)
    assert not starts, f"a line starting with '::' in {where}"


def _html_text(page: str) -> str:
    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []

        def handle_data(self, data: str) -> None:
            self.parts.append(data)

    parser = Text()
    parser.feed(page)
    return "".join(parser.parts)


def _unescape(value: str) -> str:
    return (
        value.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
    )


def _workflow_shown(text: str) -> str:
    """What a workflow command carries back for ``text`` once the runner unescapes it."""
    parts = re.split(r"([\r\n])", text)
    return "".join(p if p in ("\r", "\n") else visible(p) for p in parts)


@pytest.fixture(scope="module")
def skills(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    parent = tmp_path_factory.mktemp("hostile")
    return {key: _skill(parent, text) for key, text in HOSTILE.items()}


def _score(folder: Path, fmt: str) -> tuple[str, str]:
    result = runner.invoke(app, ["score", str(folder), "--fail-on", "none", "-o", fmt])
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("key", HOSTILE)
def test_score_output_is_inert_and_still_names_the_skill(
    skills: dict[str, Path], key: str, fmt: str
) -> None:
    text = HOSTILE[key]
    out, err = _score(skills[key], fmt)
    raw = RAW.search(out + err)
    assert raw is None, f"raw {raw.group()!r}"
    assert "##[" not in out + err
    assert not COMMAND.findall(err)
    if fmt == "github":
        for line in out.splitlines():
            assert GITHUB_LINE.fullmatch(line), line
        notice = out.splitlines()[-1]
        title = notice.split("title=", 1)[1].split("::", 1)[0]
        assert _unescape(title) == f"plugin-eval {_workflow_shown(text)}"
        return
    assert not COMMAND.findall(out), COMMAND.findall(out)
    if fmt == "json":
        assert json.loads(out)["name"] == text  # the data, exactly
    elif fmt == "sarif":
        assert json.loads(out)["runs"][0]["properties"]["scores"][0]["name"] == text
    elif fmt == "html":
        assert visible(text) in _html_text(out)
    elif fmt == "text":
        assert out.startswith(command_free(visible(text)) + "  ")
    else:
        tokens = _check_markdown(out)
        heading = next(t for t in tokens if t.type == "inline")
        expected = visible(text).replace("`", "")
        assert _plain(heading).replace("`", "").startswith(expected + ": ")


@pytest.mark.parametrize("fmt", ("text", "markdown", "json"))
def test_compare_output_is_inert(skills: dict[str, Path], fmt: str) -> None:
    for key in ("workflow", "csi", "image", "backticks", "leading-command"):
        result = runner.invoke(app, ["compare", str(skills[key]), str(skills["pipe"]), "-o", fmt])
        assert result.exit_code == 0, result.output
        _check_plain_output(result.stdout, f"compare {key} -o {fmt}")
        if fmt == "markdown":
            _check_markdown(result.stdout)


def test_a_path_wrapped_onto_a_new_line_opens_no_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text summary gives a path too long for its table a line of its own, wrapped at
    its blanks: the part after the break, '::error::wrapped', would start a line; it is
    shown with its first ':' as '\\x3a'."""
    monkeypatch.chdir(tmp_path)
    for text in ("a" * 225 + " ::error::wrapped " + "b" * 5, "plain"):
        _skill(tmp_path, text)
    result = runner.invoke(app, ["score", ".", "--fail-on", "none"])
    assert result.exit_code == 0, result.output
    _check_plain_output(result.stdout, "text")
    assert "\n\\x3a:error::wrapped" in result.stdout


def test_show_files_lists_one_line_per_path(skills: dict[str, Path]) -> None:
    parent = skills["workflow"].parent
    result = runner.invoke(app, ["score", str(parent), "--show-files"])
    assert result.exit_code == 0, result.output
    _check_plain_output(result.stdout, "--show-files")
    assert len(result.stdout.splitlines()) == len(HOSTILE)


def test_an_error_about_a_hostile_path_is_one_inert_line(tmp_path: Path) -> None:
    missing = tmp_path / "gone\n::error file=x::pwned\x1b[2J"
    result = runner.invoke(app, ["score", str(missing)])
    assert result.exit_code in (1, 2), result.output
    _check_plain_output(result.stderr, "stderr")
    assert "gone\\n::error file=x::pwned\\x1b[2J" in result.stderr


def test_text_output_shows_emoji_codes_as_written(skills: dict[str, Path]) -> None:
    """A folder named ':smile:-skill' is shown by name, not as an emoji (regression)."""
    out, _ = _score(skills["emoji"], "text")
    assert ":smile:-skill" in out and "\U0001f604" not in out


@pytest.fixture(scope="module")
def report(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`report` over a tree of every hostile skill, and a marketplace whose remote plugins
    carry the hostile names (each one a note on stderr and in summary.md); run first without
    half of the skills, so the second run, given the first as --previous, lists them added."""
    base = tmp_path_factory.mktemp("market")
    root, first, out = base / "root", base / "first", base / "out"
    root.mkdir()
    plugins = [
        {"name": text, "source": {"source": "github", "repo": "o/r"}} for text in HOSTILE.values()
    ]
    (root / ".claude-plugin").mkdir()
    (root / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps({"name": "m", "plugins": plugins}), encoding="utf-8"
    )
    texts = list(HOSTILE.values())
    for text in texts[::2]:
        _skill(root, text)
    _report(root, first)
    for text in texts[1::2]:
        _skill(root, text)
    return _report(root, out, "--previous", str(first)), out


def _report(root: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = ["report", str(root), "--out", str(out), "--no-cache", "--jobs", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "plugin_eval", *command, "--html", "--sarif", *options],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done


def test_report_stderr_is_inert_and_names_every_hostile_plugin(
    report: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, _ = report
    _check_plain_output(done.stdout + done.stderr, "report stderr")
    assert f"{len(HOSTILE)} plugin(s) have a remote source; not fetched: " in done.stderr
    for text in HOSTILE.values():
        assert f"'{visible(text)}'" in done.stderr
    assert "\U0001f604" not in done.stderr


def test_report_summary_md_is_inert_markdown(
    report: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    _, out = report
    summary = (out / "summary.md").read_text(encoding="utf-8")
    _check_plain_output(summary, "summary.md")
    tokens = _check_markdown(summary)
    rendered = "\n".join(_plain(t) for t in tokens if t.type == "inline")
    assert "## What changed" in summary
    for text in HOSTILE.values():
        expected = visible(text).replace("`", "")
        # ranked and skipped, and added for half of them
        assert rendered.replace("`", "").count(expected) >= 2, text


@pytest.mark.parametrize("name", ("summary.sarif", "report.html"))
def test_report_sarif_and_html_are_inert(
    report: tuple[subprocess.CompletedProcess[str], Path], name: str
) -> None:
    _, out = report
    _check_plain_output((out / name).read_text(encoding="utf-8"), name)


# The functions every reporter uses, one per output context.


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("\x1b]0;t\x07", "\\x1b]0;t\\x07"),
        ("a\nb\rc\td", "a\\nb\\rc\td"),
        ("\x9b\x7f\x00", "\\x9b\\x7f\\x00"),
        ("\u202eabc\u2066", "\\u202eabc\\u2066"),
        ("\u2028", "\\u2028"),
        ("bad\udcff", "bad\\udcff"),
        ("##[error]x ###[", "#\\x23[error]x ##\\x23["),
        (
            "plain text, ünïcode ✓ and \\x1b as written",
            "plain text, ünïcode ✓ and \\x1b as written",
        ),
    ],
)
def test_visible_shows_what_would_act(text: str, shown: str) -> None:
    assert visible(text) == shown


@given(st.text())
def test_visible_leaves_one_line_with_nothing_that_acts(text: str) -> None:
    shown = visible(text)
    assert RAW.search(shown) is None and "\n" not in shown and "##[" not in shown
    assert re.search("[\ud800-\udfff]", shown) is None


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs"))))
def test_ordinary_text_is_unchanged_by_visible(text: str) -> None:
    if not RAW.search(text) and "##[" not in text:
        assert visible(text) == text


def test_terminal_escapes_rich_markup_and_emoji() -> None:
    console, buffer = console_for(RenderOptions())
    field = terminal("[bold]x[/] :smile: \x1b[2J tail\\")
    console.print(f"[dim]{field}[/]", soft_wrap=True)  # as the reporters use it
    assert buffer.getvalue() == "[bold]x[/] :smile: \\x1b[2J tail\\\n"


def test_command_free_breaks_only_lines_that_open_a_command() -> None:
    text = "a ::b\n  ::error::x\n::stop-commands::t\nok"
    assert command_free(text) == "a ::b\n  \\x3a:error::x\n\\x3a:stop-commands::t\nok"


@pytest.mark.parametrize("space", ["\u00a0", "\u1680", "\u2003", "\u202f", "\u205f", "\u3000"])
def test_command_free_breaks_a_command_behind_any_white_space_the_runner_trims(
    space: str,
) -> None:
    """The runner trims every Unicode white space off a line before it reads '::' (.NET's
    TrimStart), and `visible` leaves these spaces as they are: a name opening with U+3000
    once forged an annotation from a line of text output."""
    text = f"{space}::error file=README.md,line=1::forged\nkept {space}::x"
    assert (
        command_free(text) == f"{space}\\x3a:error file=README.md,line=1::forged\nkept {space}::x"
    )


@pytest.mark.parametrize("address", ["x@example.com", "x@-evil.example", "x@_b.com", "a@.b"])
def test_every_at_sign_in_markdown_text_is_set_in_code(address: str) -> None:
    """GitHub links 'x@-evil.example' as an e-mail address too, and a backslash does not
    stop it: only code does."""
    local, domain = address.split("@")
    assert markdown_text(address) == f"{local}`@`{domain.replace('_', chr(92) + '_')}"


def test_workflow_escapes_follow_the_runner() -> None:
    assert workflow_data("100%\r\n::x \x1b") == "100%25%0D%0A::x \\x1b"
    assert workflow_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_json_text_keeps_the_data_and_escapes_what_would_act() -> None:
    data = {"name": "\x9b\x7f\u202e##[x\u2028", "n": [1, "é"]}
    text = json_text(json.dumps(data, ensure_ascii=False))
    assert RAW.search(text) is None and "##[" not in text
    assert json.loads(text) == data
    assert json_text('{"a": "plain ✓"}') == '{"a": "plain ✓"}'


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("skills/a/SKILL.md", "`skills/a/SKILL.md`"),
        ("a`b", "``a`b``"),
        ("a``b`", "``` a``b` ```"),
        ("`", "`` ` ``"),
        (" x ", "`  x  `"),
    ],
)
def test_markdown_code_fences_longer_than_any_run(text: str, span: str) -> None:
    assert markdown_code(text, table=False) == span


@given(st.text(min_size=1).filter(lambda t: t.strip(" ")))
def test_markdown_code_renders_the_text_as_one_code_span(text: str) -> None:
    """In a table cell and in a list item: one code span holding exactly the visible text."""
    for source, table in (
        (f"| {markdown_code(text)} | z |\n|---|---|\n", True),
        (f"- {markdown_code(text, table=False)}\n", False),
    ):
        tokens = list(_tokens(_markdown().parse(source)))
        codes = [t.content for t in tokens if t.type == "code_inline"]
        assert codes == [visible(text)], (source, table)


@given(st.text())
def test_markdown_text_renders_the_text_and_nothing_else(text: str) -> None:
    """Any text in a table cell or a list item: no markup, no block, one cell; without
    backticks it renders exactly as its visible form."""
    shown = visible(text)
    for source in (
        f"| {markdown_text(text)} | z |\n|---|---|\n| {markdown_text(text)} | z |\n",
        f"- {markdown_text(text, table=False)}\n",
    ):
        tokens = _check_markdown(source)
        kinds = [t.type for t in tokens]
        assert kinds.count("bullet_list_open") + kinds.count("table_open") == 1
        assert "heading_open" not in kinds
        if "`" not in text:
            rendered = {_plain(t).strip() for t in tokens if t.type == "inline"} - {"z"}
            assert rendered <= {shown.strip()}, (source, rendered)


def test_a_name_of_a_megabyte_is_cut_so_it_hides_no_other_item(tmp_path: Path) -> None:
    """GitHub shows no job summary over 1 MiB: a skill named with 1.1 MB once pushed the
    Markdown of every item past it. A name is shown by its first and last characters."""
    rest = "description: Cleans CSV files. Use when fixing dates or blank rows.\n---\n# T\n\nx\n"
    (tmp_path / "huge").mkdir()
    (tmp_path / "huge" / "SKILL.md").write_text(f"---\nname: a{'n' * 1_100_000}z\n{rest}")
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "SKILL.md").write_text(f"---\nname: good\n{rest}")
    shown = {}
    for output in ("markdown", "github", "json", "text"):
        result = runner.invoke(app, ["score", str(tmp_path), "-o", output, "--fail-on", "none"])
        assert result.exit_code == 0, result.stderr
        shown[output] = result.stdout
        assert len(result.stdout) < 100_000, output
    names = [r["name"] for r in json.loads(shown["json"])["reports"]]
    assert names == ["good", "a" + "n" * 98 + "…" + "n" * 99 + "z"]  # 200 characters
    assert all(names[1] in shown[o] for o in ("markdown", "text"))
    assert "good" in shown["github"]
