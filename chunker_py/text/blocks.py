"""Markdown block structure from a real CommonMark parser (markdown-it-py, GFM tables).

Only the block pass runs (inline parsing is switched off: same block tokens and line maps,
a third of the time). A block's span runs from the start of its first line to the end of
its last line (line break excluded), trimmed of ``str.isspace`` characters. markdown-it's
line maps index the lines of ``re.split(r"\\r\\n|\\r|\\n", text)`` exactly, so U+2028,
U+0085, ``\\v`` and ``\\f`` are not line breaks here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import Any

from ..engine.index import TextIndex, per_text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# top-level token type -> block kind
_KINDS = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "fence": "fence",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
    "hr": "rule",
    "html_block": "html",
}


@dataclass(frozen=True)
class Block:
    """One top-level block. ``level`` and ``title`` are set for headings; ``header`` (the
    header and delimiter rows) and ``rows`` (body rows) for tables; ``items`` for lists."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""
    header: tuple[int, int] | None = None
    rows: tuple[tuple[int, int], ...] = ()
    items: tuple[tuple[int, int], ...] = field(default=())


def line_bounds(text: str) -> tuple[list[int], list[int]]:
    """Where each line of ``text`` starts and ends (its line break excluded); a line ends
    at CR LF, CR or LF."""
    if "\r" in text:
        starts, ends = [0], []
        for match in _LINE_BREAK.finditer(text):
            ends.append(match.start())
            starts.append(match.end())
        ends.append(len(text))
        return starts, ends
    # LF only (most texts): a line ends its length past one after the previous end (the
    # last one at len(text)), counted in C (a third of the match loop's time)
    ends = list(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=-1))
    del ends[0]
    starts = [0, *map((1).__add__, ends[:-1])]
    return starts, ends


class Lines:
    """Line starts and ends (line break excluded) of a text, as markdown-it counts lines."""

    def __init__(self, text: str) -> None:
        self.starts, self.ends = line_bounds(text)

    def span(self, text: str, first: int, stop: int) -> tuple[int, int]:
        """Lines ``first`` to ``stop - 1``, trimmed; empty spans collapse to a point."""
        start, end = self.starts[first], self.ends[max(stop - 1, first)]
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return start, end

    def blank(self, text: str, line: int) -> bool:
        return not text[self.starts[line] : self.ends[line]].strip()


@lru_cache(maxsize=2)
def _parser(normalize: bool = True) -> Any:
    """The block parser (``normalize=False``: without markdown-it's ``normalize`` rule,
    for a text it would not change)."""
    from markdown_it import MarkdownIt

    from .block_rules import rule_dispatch

    md = MarkdownIt("commonmark").enable("table")
    md.disable("inline")
    if not normalize:
        md.disable("normalize")
    rule_dispatch(md)  # the same tokens, each rule called only where it can match
    return md


def parse_tokens(text: str) -> list[Any]:
    """markdown-it's block tokens for ``text``."""
    # markdown-it's first rule, ``normalize``, only turns CR LF and CR into LF and NUL
    # into U+FFFD, but rewrites every LF to do so (~5 % of the parse): a text
    # with neither CR nor NUL skips it
    normalize = "\r" in text or "\0" in text
    return list(_parser(normalize).parse(text))


@per_text
def markdown_tokens(index: TextIndex) -> list[Any]:
    """The block tokens of the index's text, parsed once per text (Markdown structure mode
    and the damage figures share them)."""
    return parse_tokens(index.text)


@per_text
def markdown_blocks(index: TextIndex) -> tuple[Block, ...]:
    """The top-level blocks of the index's text, found once per text."""
    return parse_blocks(index.text, markdown_tokens(index))


def parse_blocks(text: str, tokens: list[Any] | None = None) -> tuple[Block, ...]:
    """The top-level blocks of ``text`` in source order (empty blocks left out)."""
    if tokens is None:
        tokens = parse_tokens(text)
    lines = Lines(text)
    blocks: list[Block] = []
    parsed_to = 0  # lines before this one are in a token or were checked
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None:
            continue
        blocks.extend(_untokened(text, lines, parsed_to, token.map[0]))
        parsed_to = max(parsed_to, token.map[1])
        kind = _KINDS.get(token.type)
        if kind is None:
            continue
        start, end = lines.span(text, *token.map)
        if start >= end:
            continue
        if kind == "heading":
            title = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
            blocks.append(Block(kind, start, end, level=int(token.tag[1]), title=title))
        elif kind == "table":
            blocks.append(_table(text, lines, tokens, i, start, end))
        elif kind == "list":
            blocks.append(Block(kind, start, end, items=_children(text, lines, tokens, i)))
        else:
            blocks.append(Block(kind, start, end))
    blocks.extend(_untokened(text, lines, parsed_to, len(lines.starts)))
    return tuple(blocks)


def _untokened(text: str, lines: Lines, first: int, stop: int) -> list[Block]:
    """Paragraph blocks for the nonblank lines ``first`` to ``stop - 1`` that no token
    covers: markdown-it consumes link reference definitions (``[a]: /url``) without a
    token, and their text must still be in a chunk."""
    out = []
    run = first
    for line in range(first, stop + 1):
        if line == stop or lines.blank(text, line):
            if run < line:
                start, end = lines.span(text, run, line)
                out.append(Block("paragraph", start, end))
            run = line + 1
    return out


def _closing(tokens: list[Any], i: int) -> int:
    """Index of the token closing the one opened at ``i``."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _table(text: str, lines: Lines, tokens: list[Any], i: int, start: int, end: int) -> Block:
    header: tuple[int, int] | None = None
    rows = []
    for j in range(i + 1, _closing(tokens, i)):
        token = tokens[j]
        if token.type == "thead_open" and token.map:
            # the header row and the delimiter row below it
            header = lines.span(text, token.map[0], token.map[0] + 2)
        elif token.type == "tr_open" and token.map and token.level == tokens[i].level + 2:
            row = lines.span(text, *token.map)
            if header is None or row[0] >= header[1]:
                rows.append(row)
    return Block("table", start, end, header=header, rows=tuple(r for r in rows if r[0] < r[1]))


def _children(text: str, lines: Lines, tokens: list[Any], i: int) -> tuple[tuple[int, int], ...]:
    items = []
    for j in range(i + 1, _closing(tokens, i)):
        token = tokens[j]
        if token.type == "list_item_open" and token.level == 1 and token.map:
            span = lines.span(text, *token.map)
            if span[0] < span[1]:
                items.append(span)
    return tuple(items)


@dataclass(frozen=True)
class Outline:
    """What the damage figures need from the parse, at every depth (a fence in a list item
    or a table in a quote counts too): fenced code blocks (unclosed ones run to the end),
    GFM tables, and where any block (paragraph, item, row, heading, ...) starts and ends."""

    fences: tuple[tuple[int, int], ...]
    tables: tuple[Block, ...]
    starts: frozenset[int]
    ends: frozenset[int]


def outline(text: str, tokens: list[Any], lines: Lines | None = None) -> Outline:
    if lines is None:
        lines = Lines(text)
    fences, tables = [], []
    starts, ends = set(), set()
    for i, token in enumerate(tokens):
        if token.map is None or token.nesting < 0:
            continue
        start, end = lines.span(text, *token.map)
        if start >= end:
            continue
        starts.add(start)
        ends.add(end)
        if token.type == "fence":
            fences.append((start, end))
        elif token.type == "table_open":
            tables.append(_table(text, lines, tokens, i, start, end))
    return Outline(tuple(fences), tuple(tables), frozenset(starts), frozenset(ends))


@per_text
def markdown_outline(index: TextIndex) -> Outline:
    """The outline of the index's text, found once per text."""
    return outline(index.text, markdown_tokens(index), text_lines(index))


@per_text
def text_lines(index: TextIndex) -> Lines:
    """The lines of the index's text, found once per text (the outline and the records'
    line and column numbers share them)."""
    return Lines(index.text)
