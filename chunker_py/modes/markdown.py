"""Markdown structure mode (after RagBuilder's MarkdownTextSplitter and FluentChunker):
sections, whole blocks, breadcrumbs.

Every heading at or above ``Split at heading level`` starts a section and no chunk spans
two sections. Within a section whole blocks are packed up to the chunk size (no overlap).
A block too big for the size descends: a table splits between rows and each later piece
gets the header and delimiter rows as its context prefix; a list splits between items; a
paragraph, quote or item into sentences, then by the recursive word rules; a code block
stays whole and is flagged. The chunk size budgets the slice only, not the prefix.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.fields import Field, flag_reader, whole_reader
from ..engine.index import TextIndex, per_text
from ..engine.merge import Job, pack_units
from ..engine.separators import split_words
from ..engine.spans import SpanMeta
from ..text.blocks import Block, markdown_blocks
from ..text.sentences import sentence_spans

PATH_JOINER = " > "


@dataclass(frozen=True)
class Options:
    heading_level: int = 6
    breadcrumb: bool = True


FIELDS = (
    Field(
        "heading_level",
        "Split at heading level",
        "whole",
        6,
        whole_reader("heading_level", "Split at heading level", 1, 6),
        help="Headings of this level and above (1 = # only, 6 = every heading) start a new "
        "section; no chunk spans two sections.",
        link="level",
        cli_help="1-6, default 6: headings at or above it start sections",
        low=1,
        high=6,
        modes=("markdown",),
        widget="number",
    ),
    Field(
        "breadcrumb",
        "Include heading breadcrumb",
        "flag",
        True,
        flag_reader("breadcrumb", "Include heading breadcrumb"),
        help="Each chunk's context prefix starts with its heading path and a blank line "
        "(shown, never part of the chunk's text).",
        link="crumbs",
        cli_help="leave the heading path out of the context prefix",
        modes=("markdown",),
        widget="checkbox",
    ),
)


def structure(job: Job) -> tuple[Block, ...]:
    """The text's blocks, parsed once per text."""
    return markdown_blocks(job.index)


class _Paths:
    """The heading path at any position: the titles of the headings above it."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.starts: list[int] = []
        self.paths: list[str] = []
        stack: list[tuple[int, str]] = []
        for block in blocks:
            if block.kind == "heading":
                while stack and stack[-1][0] >= block.level:
                    stack.pop()
                stack.append((block.level, block.title))
                self.starts.append(block.start)
                self.paths.append(PATH_JOINER.join(title for _level, title in stack))

    def at(self, position: int) -> str:
        i = bisect_right(self.starts, position) - 1
        return self.paths[i] if i >= 0 else ""


def feed(job: Job, options: Options) -> None:
    blocks = structure(job)
    paths = _Paths(blocks)
    sink, text, sizer, size = job.sink, job.text, job.sizer, job.size

    def length(a: int, b: int) -> int:
        return sizer.length(text, a, b)

    def meta(position: int, prefix: str = "", note: str = "") -> SpanMeta:
        path = paths.at(position)
        crumb = path + "\n\n" if options.breadcrumb and path else ""
        return SpanMeta(heading_path=path, prefix=crumb + prefix, note=note)

    def emit(a: int, b: int) -> None:
        sink.finished(a, b, meta(a))

    def pack(units: Sequence[tuple[int, int]]) -> None:
        pack_units(units, 0, len(units), size, 0, length, emit)

    def descend(block: Block) -> None:
        """A block bigger than the size, cut by its own structure."""
        if block.kind in ("fence", "code"):
            note = "code block longer than the chunk size, kept whole"
            sink.finished(block.start, block.end, meta(block.start, note=note))
        elif block.kind == "table" and block.header is not None and block.rows:
            _table(block)
        elif block.kind == "list" and len(block.items) > 1:
            units_then(block.items)
        else:
            units_then(_block_sentences(job.index, block.start, block.end))

    def units_then(units: Sequence[tuple[int, int]]) -> None:
        """Pack units that fit; cut each one that does not by the recursive word rules."""
        run: list[tuple[int, int]] = []
        for a, b in units:
            if length(a, b) <= size:
                run.append((a, b))
                continue
            pack(run)
            run = []
            sink.context = meta(a)
            split_words(job, a, b)
            sink.context = None
        pack(run)

    def _table(block: Block) -> None:
        assert block.header is not None
        header_text = text[block.header[0] : block.header[1]] + "\n"
        units = [block.header, *block.rows]
        first = True

        def table_emit(a: int, b: int) -> None:
            nonlocal first
            sink.finished(a, b, meta(a, "" if first else header_text))
            first = False

        pack_units(units, 0, len(units), size, 0, length, table_emit)

    for section in _sections(blocks, options.heading_level):
        run: list[tuple[int, int]] = []
        for block in section:
            if length(block.start, block.end) <= size:
                run.append((block.start, block.end))
                continue
            pack(run)
            run = []
            descend(block)
        pack(run)


@per_text
def _block_sentences(index: TextIndex, start: int, end: int) -> list[tuple[int, int]]:
    """A block's sentences, scanned once per text (they do not depend on the settings)."""
    return sentence_spans(index.text, start, end)


def _sections(blocks: Sequence[Block], level: int) -> list[list[Block]]:
    """Blocks grouped into sections: a heading at or above ``level`` starts one."""
    sections: list[list[Block]] = [[]]
    for block in blocks:
        if block.kind == "heading" and block.level <= level and sections[-1]:
            sections.append([])
        sections[-1].append(block)
    return [s for s in sections if s]
