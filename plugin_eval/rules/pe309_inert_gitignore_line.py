"""PE309: a .gitignore line the skill has the model write is one git matches."""

from __future__ import annotations

import shlex
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import CodeBlock, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule

# Lines written to a .gitignore by echo or printf, through a redirection or tee:
# `echo "./key" >> .gitignore`, `printf '%s\n' ./a ./b | tee -a .gitignore`.
_TO_GITIGNORE = r"(?:>>?|\|\s*(?:sudo\s+)?tee(?:\s+-a)?)\s*[^\s;|&<>]{0,512}\.gitignore(?![\w.-])"
_PRINT = regexes.compile(r"(?P<cmd>echo|printf)\s+(?P<args>[^|;&>\n]{1,1024}?)\s*" + _TO_GITIGNORE)
# A here-document's opening, matched at the `<<`: its word (quoted or not) ends it on a line
# of its own. Here, one into a .gitignore (`cat >> .gitignore <<'EOF'`, `cat <<EOF >>
# .gitignore`), after a `cat` found before it on the line; PE310 reads those of any file.
HEREDOC = regexes.compile(r"<<-?\s*(?P<q>['\"]?)(?P<end>\w{1,64})(?P=q)")
_INTO = regexes.compile(_TO_GITIGNORE)
# A block that is a .gitignore: its language says so, or its first line is a comment naming it.
_GITIGNORE_LANGS = frozenset({"gitignore", "ignore"})
_NAMES_GITIGNORE = regexes.compile(r"#\s*(?:\S*/)?\.gitignore\b")


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for block in doc.code_blocks:
        for offset, pattern in _written_patterns(block):
            line = block.line + offset + (1 if block.fenced else 0)
            text = doc.line_text(line)
            at = text.find(pattern)
            negated = "!" if pattern.startswith("!") else ""
            name = pattern[len(negated) + 2 :]
            yield RULE.finding(
                f"the .gitignore line '{pattern}' starts with './', which git never matches: "
                + (
                    f"'{name}' is not taken back in where an earlier line ignores it"
                    if negated
                    else f"'{name}' is not ignored and can be committed"
                ),
                line,
                at + 1 if at >= 0 else None,
                fix=f"Write '{negated}{name}', or '{negated}/{name}' to match it only at the top "
                "of the repository.",
            )


def _written_patterns(block: CodeBlock) -> Iterator[tuple[int, str]]:
    """Each pattern starting with './' (or '!./') that ``block`` writes to a .gitignore, with
    the index of its line in the block."""
    lines = block.content.split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    if block.language.lower() in _GITIGNORE_LANGS or _NAMES_GITIGNORE.fullmatch(first):
        for index, line in enumerate(lines):
            if _inert(line.strip()):
                yield index, line.strip()
        return
    if ".gitignore" not in block.content:
        return
    end: str | None = None
    for index, line in enumerate(lines):
        if end is not None:
            if line.strip() == end:
                end = None
            elif _inert(line.strip()):
                yield index, line.strip()
            continue
        if ".gitignore" not in line:
            continue
        # Each write into a .gitignore, and the echo or printf nearest before it: one pass
        # over the line, however many commands it holds.
        start = 0
        for into in _INTO.finditer(line):
            at = into.start()
            command = max(_word_at(line, "echo", start, at), _word_at(line, "printf", start, at))
            match = _PRINT.match(line, command) if command >= 0 else None
            if match is not None and match.end() == into.end():
                for pattern in _printed(match["cmd"], match["args"]):
                    if _inert(pattern):
                        yield index, pattern
            start = into.end()
        if start:  # the line writes into a .gitignore: a here-document's lines may follow
            arrows = line.find("<<")
            heredoc = HEREDOC.match(line, arrows) if arrows >= 0 else None
            if heredoc is not None and _word_at(line, "cat", 0, arrows) >= 0:
                end = heredoc["end"]


def _word_at(line: str, word: str, start: int, end: int) -> int:
    """Where the last ``word`` of ``line[start:end]`` begins as a whole word, or -1."""
    at = line.rfind(word, start, end)
    while at >= 0:
        after = at + len(word)
        if (at == 0 or not (line[at - 1].isalnum() or line[at - 1] == "_")) and (
            after >= len(line) or not (line[after].isalnum() or line[after] == "_")
        ):
            return at
        at = line.rfind(word, start, at)
    return -1


def _printed(command: str, args: str) -> list[str]:
    """The lines ``echo`` or ``printf`` prints from ``args`` as the shell would split them
    (quotes read, nothing expanded or run): echo's words on one line, printf's arguments one
    per line after a format with a '%' in it, else the format's own lines."""
    try:
        words = shlex.split(args)
    except ValueError:  # an unclosed quote: nothing certain to read
        return []
    if command == "echo":
        while words and words[0] in ("-e", "-n", "-en", "-ne", "-E"):
            words = words[1:]
        text = " ".join(words)
    elif not words:
        return []
    elif "%" in words[0]:
        return [w for w in words[1:] if w]
    else:
        text = words[0]
    return [part for part in text.replace("\\n", "\n").split("\n") if part]


def _inert(pattern: str) -> bool:
    return pattern.startswith(("./", "!./")) and len(pattern.lstrip("!")) > 2


RULE = Rule(
    code="PE309",
    flag="INERT_GITIGNORE_LINE",
    name="inert-gitignore-line",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="A .gitignore line the skill has the model write (`echo … >> .gitignore`, a here-"
    "document into it, or a block that is one) does not start with './', which git never "
    "matches.",
    why="git reads a pattern's './' as part of the name, so `./secrets.key` ignores nothing: "
    "the key, the receipts or the build output the step means to keep out is committed with "
    "everything else.",
    fix="Drop the './' (`secrets.key`), or write a leading '/' to match only at the top of the "
    "repository (`/secrets.key`).",
    bad=Example(
        {
            "SKILL.md": GOOD_SKILL
            + '\nKeep the signing key out of git:\n\n```bash\necho "./signing.key" >> '
            ".gitignore\n```\n"
        },
        expect=(Expect("PE309", "SKILL.md", 13, 7),),
    ),
    good=Example(
        {
            "SKILL.md": GOOD_SKILL
            + '\nKeep the signing key out of git:\n\n```bash\necho "/signing.key" >> '
            ".gitignore\n```\n"
        }
    ),
    source="plugin-eval; git's gitignore documentation (pattern format)",
    limits="Read in SKILL.md's code blocks (not in reference files, not in prose): `echo` and "
    "`printf` into a file named `.gitignore` through `>`, `>>` or `tee` (the last such command "
    "before each write, its arguments split as the shell splits them, up to 1,024 characters; "
    "printf's arguments one per line after a format holding '%'), the lines of a here-"
    "document that `cat` writes there, and every line of a block whose language is `gitignore` "
    "or whose first line is a comment naming `.gitignore`. A pattern the shell builds (a "
    "variable, a command substitution) is taken as written, so `$DIR` is never reported.",
    links=(sources.GITIGNORE,),
    check=check,
)
