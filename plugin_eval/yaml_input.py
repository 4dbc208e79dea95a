"""YAML from a tree strangers wrote (frontmatter, eval files): read with bounded cost.

An alias (``*a``) stands for the whole node its anchor (``&a``) names. PyYAML builds that
node once and shares it, but whatever walks the value (``str()``, ``json.dumps``, a
comparison) walks it once per alias: nine short lines of aliases of aliases stand for 9⁹
strings, minutes and gigabytes for ``str()`` of one key. So a document's events are counted
before it is built, in one pass over them: the nodes its aliases repeat beyond the one each
alias is written as, in all, may be at most ``YAML_ALIAS_NODES``; past that, or at an alias
inside the node its own anchor names (a cycle, repeating without end), the document is
refused with an ``AliasError`` at that alias. Aliases are never expanded into text.
"""

from __future__ import annotations

from typing import Any

import yaml

from plugin_eval.budgets import YAML_ALIAS_NODES

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class AliasError(yaml.MarkedYAMLError):
    """A document whose aliases repeat too much (or without end); marked at the alias."""


def check_aliases(source: str, limit: int = YAML_ALIAS_NODES) -> None:
    """Raise AliasError if the aliases of ``source`` repeat more than ``limit`` nodes.

    A syntax error raises the YAMLError the loader would; text without both an anchor and an
    alias is not read at all.
    """
    if "&" not in source or "*" not in source:
        return
    sizes: dict[str, int] = {}  # nodes each anchor names, itself included
    open_anchors: dict[str, int] = {}  # anchors of collections not yet closed
    stack: list[tuple[str | None, int]] = []  # per open collection: anchor, nodes so far
    repeated = 0
    for event in yaml.parse(source, Loader=LOADER):
        if isinstance(event, yaml.DocumentStartEvent):
            sizes.clear()
            continue
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append((event.anchor, 1))
            if event.anchor is not None:
                open_anchors[event.anchor] = open_anchors.get(event.anchor, 0) + 1
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
                open_anchors[anchor] -= 1
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            name = event.anchor or ""
            if open_anchors.get(name):
                raise AliasError(
                    problem=f"alias *{name} stands inside the node &{name} names: it repeats "
                    "without end",
                    problem_mark=_mark(event),
                )
            # An unknown alias is the composer's error to report; it counts as one node here.
            size = sizes.get(name, 1)
            repeated += size - 1
            if repeated > limit:
                raise AliasError(
                    problem=f"aliases repeat more than {limit:,} nodes in all (*{name} alone "
                    f"stands for {size:,})",
                    problem_mark=_mark(event),
                )
        else:
            continue
        if stack:
            anchor, count = stack[-1]
            stack[-1] = (anchor, count + size)


def _mark(event: yaml.Event) -> yaml.Mark | None:
    """Where an event starts, as the pure-Python Mark (the C parser has a type of its own)."""
    start = event.start_mark
    if start is None:
        return None
    return yaml.Mark("<unicode string>", start.index, start.line, start.column, None, 0)


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` once ``check_aliases`` passes; raises only YAMLError subclasses."""
    check_aliases(text)
    loader = LOADER(text)
    try:
        return loader.get_single_data()
    except RecursionError:  # nested deeper than the constructor's recursion reaches
        raise yaml.YAMLError("nested too deeply to read") from None
    finally:
        loader.dispose()
