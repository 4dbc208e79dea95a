"""Text from a skill made inert for each output it reaches.

Names, paths, descriptions and the messages that quote them are written by strangers. Each
function here takes one such field and returns it ready for one output context, so that it
can neither steer a terminal, nor issue a command to a CI runner, nor become markup for a
reader; ordinary text comes back unchanged. Every reporter, and the command line's notes on
stderr, go through these functions and nothing else.

The convention shared by every context (``visible``): control characters (C0 but the tab,
DEL, C1), bidirectional overrides and isolates, line and paragraph separators and lone
surrogates, and the format characters that show nothing (zero-width spaces and joiners, the
word joiner, the soft hyphen, the byte order mark, Unicode tag characters) are shown as the
escape Python writes them with (``\\x1b``, ``\\n``, ``\\u202e``, ``\\u200b``),
and the legacy GitHub Actions command opener ``##[`` as ``#\\x23[``. A field therefore never
spans two lines. A backslash already in the text is left alone: the escapes are for reading,
not for decoding.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from plugin_eval import regexes
from plugin_eval.textsearch import LazyRegex

# Format characters that show nothing: the soft hyphen, the Mongolian vowel separator, the
# zero-width space, non-joiner and joiner, the word joiner and invisible operators, the byte
# order mark, the interlinear annotation marks and the tag characters (invisible letters that
# can carry hidden text). Shown, 'pdf' and 'pdf\u200b' are two names, and hidden text is seen.
_INVISIBLE = "\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
# C0 but the tab, DEL and C1; the Unicode bidi marks, embeddings, overrides and isolates; the
# line and paragraph separators; lone surrogates (undecodable bytes of a file name); the
# invisible format characters; and "##[", which the Actions runner reads as a command
# anywhere in a line.
_HIDDEN = regexes.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    f"\ud800-\udfff{_INVISIBLE}]|##\\["
)
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _shown(match: re.Match[str]) -> str:
    found = match.group()
    if found == "##[":
        return "#\\x23["
    code = ord(found)
    if code > 0xFFFF:
        return f"\\U{code:08x}"
    return _NAMED.get(found) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: str) -> str:
    """One field on one line, every character that could act instead of show made visible."""
    return _HIDDEN.sub(_shown, text)


def terminal(text: str) -> str:
    """A field for Rich console markup (text output, stderr): visible, markup escaped."""
    from rich.markup import escape  # imported on use: JSON output never loads Rich

    return escape(visible(text))


# The runner trims every Unicode white space off a line before it looks for '::' (.NET's
# TrimStart: U+00A0, U+2003, U+3000 … too), so any white space but the line feed may come
# before it.
_COMMAND_LINE = regexes.compile(r"^([^\S\n]*):(?=:)", re.MULTILINE)


def command_free(output: str) -> str:
    """A whole plain-text output in which no line starts (after white space) with '::', the
    opener of an Actions workflow command; such a line can only come from a field wrapped
    or placed at the start of a line, and its first ':' is shown as '\\x3a'."""
    return _COMMAND_LINE.sub(r"\1\\x3a", output)


def workflow_data(text: str) -> str:
    """A field in the message of an Actions workflow command: '%', CR and LF in the runner's
    own escapes (it turns them back into line breaks of the annotation, so the command stays
    on one line of the log), every other character that could act made visible."""
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def workflow_property(text: str) -> str:
    """A field in a property of an Actions workflow command (file, title): the data escapes
    plus ':' and ',', which end a property."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


# What opens a Markdown construct in running text. ASCII punctuation is escaped with a
# backslash (CommonMark lets any be): '\\' itself, '|' (a cell), '[' (every link, image,
# footnote and task box starts with one), '*' and '~' (emphasis, strikethrough), and '_'
# unless it stands between two letters or digits, where it can neither open nor close
# emphasis. '<' becomes an entity (no HTML, no autolink); '&' too where it would start an
# entity (one could decode to a bidi override). Every '@' is set in code: GitHub makes a
# mention of '@name' after rendering, and an e-mail link of 'x@-y.com' or 'x@_y.com' (a
# backslash does not stop it), outside code only. ':' before '//' and the '.'
# of 'www.' are escaped, so GFM finds no bare URL to link.
# Compiled on first use (as _BLOCK_OPENER and _JSON_HIDDEN): only Markdown output (JSON
# output) reads them.
_MARKDOWN_TEXT = LazyRegex(
    r"""[\\|\[*~]
    | (?<![^\W_])_ | _(?![^\W_])
    | < | &(?=\#?[0-9A-Za-z]+;) | @ | :(?=//) | (?i:www)\.""",
    re.VERBOSE,
)
_MARKDOWN_TEXT_AS = {"<": "&lt;", "&": "&amp;", "@": "`@`"}
# At the start of a line (a list item's text) these open a block: heading, quote, list,
# thematic break, setext underline; an ordered list marker is a number then '.' or ')'.
_BLOCK_OPENER = LazyRegex(r"[#>+\-*=_~]|(\d{1,9})([.)])")
_BACKTICKS = regexes.compile(r"`+")


def _text_escape(match: re.Match[str]) -> str:
    found = match.group()
    if found in _MARKDOWN_TEXT_AS:
        return _MARKDOWN_TEXT_AS[found]
    if found[-1] == ".":  # www.
        return found[:-1] + "\\."
    return "\\" + found


def _pieces(text: str) -> Iterator[tuple[Literal["text", "code", "ticks"], str]]:
    """``text`` cut as CommonMark pairs backtick strings: a string opens a code span that
    closes at the next string of the same length; a string that never closes is literal
    ("ticks"). Linear: each string's next equal string is found in one pass."""
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    closer: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        closer[i] = last.get(runs[i][1] - runs[i][0])
        last[runs[i][1] - runs[i][0]] = i
    pos = i = 0
    while i < len(runs):
        start, end = runs[i]
        j = closer[i]
        yield "text", text[pos:start]
        if j is None:
            yield "ticks", text[start:end]
            pos, i = end, i + 1
        else:
            yield "code", text[start : runs[j][1]]
            pos, i = runs[j][1], j + 1
    yield "text", text[pos:]


def markdown_text(text: str, table: bool = True) -> str:
    """A field in running Markdown text (a table cell, a heading, a list item): it renders as
    the literal text, keeps the code spans it had (a quoted `name` stays code), and opens no
    block, HTML, link, image, autolink, mention or cell. ``table``: inside a GFM table, where
    a '|' must be escaped even in a code span."""
    parts = []
    for kind, piece in _pieces(visible(text)):
        if kind == "code":
            parts.append(piece.replace("|", "\\|") if table else piece)
        elif kind == "ticks":
            parts.append("\\`" * len(piece))
        else:
            parts.append(_MARKDOWN_TEXT.rx.sub(_text_escape, piece))
    out = "".join(parts)
    if out[:1] in (" ", "\t"):
        return f"&#{ord(out[0])};{out[1:]}"
    opener = _BLOCK_OPENER.rx.match(out)
    if opener is None:
        return out
    if opener.group(1):
        return f"{opener.group(1)}\\{opener.group(2)}{out[opener.end() :]}"
    return "\\" + out


def markdown_code(text: str, table: bool = True) -> str:
    """A field as one Markdown code span (a path): fenced by one backtick more than its
    longest run of backticks, padded with a space when it starts or ends with one, so no
    character of it can end the span. ``table``: inside a GFM table ('|' escaped)."""
    text = visible(text)
    if table:
        text = text.replace("|", "\\|")
    fence = "`" * (max((len(r) for r in _BACKTICKS.findall(text)), default=0) + 1)
    edge = text[:1] + text[-1:]
    pad = " " if "`" in edge or (edge == "  " and text.strip(" ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_JSON_HIDDEN = LazyRegex(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
    f"{_INVISIBLE}]|##\\["
)


def _json_escape(match: re.Match[str]) -> str:
    found = match.group()
    if found == "##[":
        return "#\\u0023["
    code = ord(found)
    if code > 0xFFFF:  # JSON escapes a character outside the BMP as its surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(serialised: str) -> str:
    """A JSON document with the characters JSON leaves raw but a terminal or a reader would
    act on (DEL, C1, bidi, separators, lone surrogates) and '##[' written as \\u escapes:
    the same data, since they can only stand inside strings."""
    return _JSON_HIDDEN.rx.sub(_json_escape, serialised)


def model_json(model: BaseModel, indent: int | None = None) -> str:
    """``model`` as pydantic writes it as JSON; when a string holds a lone surrogate (an
    undecodable byte of a file name), which pydantic cannot encode, the same data written by
    ``json``, for ``json_text`` to escape (read such text back with ``json.loads``)."""
    try:
        return model.model_dump_json(indent=indent)
    except PydanticSerializationError:
        data = model.model_dump(mode="json")
        return json.dumps(
            data,
            ensure_ascii=False,
            indent=indent,
            separators=(",", ":") if indent is None else None,
        )


def html_text(text: str) -> str:
    """A field in HTML element content or a quoted attribute value: visible, then escaped."""
    return html.escape(visible(text), quote=True)


def score_text(score: float) -> str:
    """A score as reports show it: one decimal, or two where one would round it up to a whole
    number it does not reach (89.99 is '89.99', never a '90.0' beside a missed Gold and A-:
    the badge, grade and verdict thresholds are whole numbers)."""
    shown = f"{score:.1f}"
    if float(shown) > score and float(shown) == int(float(shown)):
        return f"{score:.2f}"
    return shown
