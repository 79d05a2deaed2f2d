"""Damage figures (docs/decisions.md "Damage", after the chunk-damage study): what a
result breaks, for any mode.

Everything is computed from the spans, with the Markdown parse, the sentences and the
grapheme data cached per text (``per_text``), so a settings change re-parses nothing
and the figures cost O(chunks · log blocks).

Definitions (docs/decisions.md "Damage", exactly):
- A block's span runs from the start of its first line to the end of its last line, trimmed
  of ``str.isspace`` characters. Fences and tables are counted at every depth (inside list
  items and quotes too); an unclosed fence runs to the end of the text.
- **code block cut**: a fenced code block whose span lies inside no single chunk. **table
  cut** likewise. **table rows without header**: chunks that intersect a table's body rows
  but hold neither its header row nor a context prefix containing it.
- A **chunk edge** is a chunk's start or end as emitted (trimmed when trimming); edges at 0
  or at the end of the text never count. **mid-word**: both neighbouring code points are
  ``str.isalnum()`` and neither belongs to a script written without spaces (``SPACELESS``).
  **split grapheme**: the edge is not an extended grapheme cluster boundary (UAX #29).
- **ends mid-sentence**: a chunk other than the last whose end is not followed, after
  whitespace, by a sentence start (Sentence mode's rules and abbreviations), a block start
  or the end of the text. **starts mid-sentence**: a chunk other than the first whose start
  is not preceded, before whitespace, by a sentence end, a block end or the start of the
  text.
- **over size**: longer than the chunk size in the size unit.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, NamedTuple

from ..config.settings import Settings
from ..engine.index import TextIndex, per_text
from ..engine.sizer import Sizer
from ..engine.spans import Span
from ..text.blocks import Block, markdown_outline, markdown_tokens
from ..text.graphemes import FIRST_MARK, Graphemes
from ..text.sentences import sentences

# Scripts written without spaces between words, by code-point block (a block's unassigned
# code points included; the few Common-script marks inside, such as U+30FC, are written
# inside words of these scripts anyway). An edge between two of their letters is how such
# text is always split, so it is not counted as mid-word.
SPACELESS: tuple[tuple[int, int, str], ...] = (
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x17FF, "Khmer"),
    (0x19E0, 0x19FF, "Khmer Symbols"),
    (0x2E80, 0x2FDF, "CJK Radicals Supplement, Kangxi Radicals"),
    (0x3005, 0x3007, "Han iteration mark, closing mark, number zero"),
    (0x3021, 0x3029, "Hangzhou numerals"),
    (0x3038, 0x303B, "Hangzhou numerals, vertical iteration mark"),
    (0x3040, 0x309F, "Hiragana"),
    (0x30A0, 0x30FF, "Katakana"),
    (0x31F0, 0x31FF, "Katakana Phonetic Extensions"),
    (0x3400, 0x4DBF, "CJK Unified Ideographs Extension A"),
    (0x4E00, 0x9FFF, "CJK Unified Ideographs"),
    (0xA9E0, 0xA9FF, "Myanmar Extended-B"),
    (0xAA60, 0xAA7F, "Myanmar Extended-A"),
    (0xF900, 0xFAFF, "CJK Compatibility Ideographs"),
    (0xFF66, 0xFF9F, "Halfwidth Katakana"),
    (0x116D0, 0x116FF, "Myanmar Extended-C"),
    (0x1AFF0, 0x1B16F, "Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana"),
    (0x20000, 0x3FFFF, "CJK Unified Ideographs Extensions B-J, Compatibility Supplement"),
)
_SPACELESS_FIRST = [first for first, _last, _name in SPACELESS]


def spaceless(char: str) -> bool:
    """Whether ``char`` belongs to Han, Hiragana, Katakana, Thai, Lao, Khmer or Myanmar."""
    cp = ord(char)
    i = bisect_right(_SPACELESS_FIRST, cp) - 1
    return i >= 0 and cp <= SPACELESS[i][1]


def mid_word(text: str, p: int) -> bool:
    """Whether an edge at ``p`` falls between two letters or digits of one word."""
    if p <= 0 or p >= len(text):
        return False
    before, after = text[p - 1], text[p]
    return before.isalnum() and after.isalnum() and not spaceless(before) and not spaceless(after)


class ChunkDamage(NamedTuple):
    """How one chunk is damaged. ``rows_without_header`` is shown by the page and counted
    in the summary; records carry the other fields (``RECORD_KEYS``)."""

    cuts_code: bool = False
    cuts_table: bool = False
    ends_mid_sentence: bool = False
    starts_mid_sentence: bool = False
    over_size: bool = False
    mid_word_edges: int = 0
    split_grapheme_edges: int = 0
    rows_without_header: bool = False

    @property
    def damaged(self) -> bool:
        return any(self)

    def record(self) -> dict[str, Any]:
        """The JSONL record's ``damage`` object."""
        return dict(zip(RECORD_KEYS, self[: len(RECORD_KEYS)], strict=True))

    def describe(self) -> list[str]:
        """The damage in words, for the preview and the records table."""
        words = []
        if self.cuts_code:
            words.append("cuts a code block")
        if self.cuts_table:
            words.append("cuts a table")
        if self.rows_without_header:
            words.append("table rows without their header")
        if self.starts_mid_sentence:
            words.append("starts mid-sentence")
        if self.ends_mid_sentence:
            words.append("ends mid-sentence")
        if self.mid_word_edges:
            words.append("cut mid-word" + (" at both edges" if self.mid_word_edges == 2 else ""))
        if self.split_grapheme_edges:
            both = " at both edges" if self.split_grapheme_edges == 2 else ""
            words.append("splits a character (grapheme cluster)" + both)
        if self.over_size:
            words.append("over the chunk size")
        return words


RECORD_KEYS = (
    "cuts_code",
    "cuts_table",
    "ends_mid_sentence",
    "starts_mid_sentence",
    "over_size",
    "mid_word_edges",
    "split_grapheme_edges",
)
SUMMARY_KEYS = (
    "code_blocks",
    "code_blocks_cut",
    "tables",
    "tables_cut",
    "table_rows_without_header",
    "ends_mid_sentence",
    "starts_mid_sentence",
    "mid_word_edges",
    "split_grapheme_edges",
    "over_size",
)


@dataclass(frozen=True)
class Damage:
    """The damage of one result: document-wide counts and one ``ChunkDamage`` per chunk."""

    code_blocks: int
    code_blocks_cut: int
    tables: int
    tables_cut: int
    table_rows_without_header: int
    ends_mid_sentence: int
    starts_mid_sentence: int
    mid_word_edges: int
    split_grapheme_edges: int
    over_size: int
    chunks: tuple[ChunkDamage, ...]

    def figures(self) -> dict[str, int]:
        """The counts, in the CLI summary's order."""
        return {key: getattr(self, key) for key in SUMMARY_KEYS}

    @property
    def damaged(self) -> int:
        """How many chunks have any damage."""
        return sum(1 for c in self.chunks if c.damaged)


class _Regions:
    """Disjoint source ranges in order, for "which of them does a chunk touch"."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        self.starts = [s for s, _e in spans]
        self.ends = [e for _s, e in spans]

    def touching(self, start: int, end: int) -> range:
        """Indices of the ranges that intersect ``[start, end)``."""
        first = bisect_right(self.ends, start)
        stop = first
        while stop < len(self.starts) and self.starts[stop] < end:
            stop += 1
        return range(first, stop)


class _Table:
    """A table's header and body rows, for the rows-without-header check."""

    def __init__(self, text: str, block: Block) -> None:
        self.header = block.header
        self.header_text = text[block.header[0] : block.header[1]] if block.header else ""
        self.rows = _Regions(block.rows)

    def headless(self, start: int, end: int, prefix: str) -> bool:
        """A chunk ``[start, end)`` with body rows but no header, in its text or prefix."""
        if self.header is None or not self.rows.touching(start, end):
            return False
        holds = start <= self.header[0] and self.header[1] <= end
        return not holds and self.header_text not in prefix


@per_text
def _edges(
    index: TextIndex, abbreviations: tuple[str, ...], language: str
) -> tuple[set[int], set[int]]:
    """Positions where a chunk may end (sentence and block ends) and start, per text."""
    outline = markdown_outline(index)
    units = sentences(index, abbreviations, language)
    return {e for _s, e in units} | outline.ends, {s for s, _e in units} | outline.starts


@per_text
def _graphemes(index: TextIndex) -> Graphemes:
    return Graphemes(index.text)


def text_facts(index: TextIndex, settings: Settings) -> Iterator[None]:
    """Compute the facts about the text that ``assess`` reads (the Markdown outline, the
    sentence edges, the grapheme boundaries), one per step; each is kept per text, so a
    caller can spread them over several tasks before ``assess`` (the page does). The
    Markdown block tokens and the outline made from them are a step each (~30 ms CPU in
    CPython each on a 2,000-row table: too long for one task)."""
    markdown_tokens(index)
    yield
    markdown_outline(index)
    yield
    sentences(index, tuple(settings.get("abbreviations")), settings.get("sentence_language"))
    yield
    _edges(index, tuple(settings.get("abbreviations")), settings.get("sentence_language"))
    _graphemes(index)
    yield


def _uncut(regions: Sequence[tuple[int, int]], starts: list[int], reach: list[int]) -> list[bool]:
    """For each region, whether one chunk holds it: some chunk starting at or before its
    start reaches its end (``reach[i]`` is the furthest end among chunks ``0..i``)."""
    out = []
    for a, b in regions:
        i = bisect_right(starts, a)
        out.append(i > 0 and reach[i - 1] >= b)
    return out


def assess(
    text: str, spans: Sequence[Span], settings: Settings, sizer: Sizer, index: TextIndex
) -> Damage:
    """The damage of ``spans`` (nonempty, in source order) over ``text``."""
    outline = markdown_outline(index)
    ends_ok, starts_ok = _edges(
        index, tuple(settings.get("abbreviations")), settings.get("sentence_language")
    )
    graphemes = _graphemes(index)
    n, size, last = len(text), settings.chunk_size, len(spans) - 1

    starts = [s.start for s in spans]
    reach = list(accumulate((s.end for s in spans), max))
    fence_whole = _uncut(outline.fences, starts, reach)
    table_whole = _uncut([(t.start, t.end) for t in outline.tables], starts, reach)
    cut_fences = _Regions(
        [f for f, whole in zip(outline.fences, fence_whole, strict=True) if not whole]
    )
    tables = _Regions([(t.start, t.end) for t in outline.tables])
    table_rows = [_Table(text, t) for t in outline.tables]

    skip, skip_back, boundary = index.skip_space, index.skip_space_back, graphemes.is_boundary
    length = None if sizer.per_code_point else sizer.length  # code points: end - start
    any_cut_fence = bool(cut_fences.starts)
    clean = ChunkDamage()  # shared by every undamaged chunk (most of them)
    chunks = []
    damaged = []  # the others, for the counts
    for i, (start, end, _whole, meta) in enumerate(spans):
        cuts_code = any_cut_fence and bool(cut_fences.touching(start, end))
        cuts_table = headless = False
        if table_rows and (touched := tables.touching(start, end)):
            cuts_table = any(not table_whole[t] for t in touched)
            prefix = meta.prefix if meta else ""
            headless = any(table_rows[t].headless(start, end, prefix) for t in touched)
        ends_mid = i < last and (q := skip(end)) != n and q not in starts_ok
        starts_mid = i > 0 and (q := skip_back(start)) != 0 and q not in ends_ok
        over = (end - start if length is None else length(text, start, end)) > size
        # mid_word and grapheme boundaries at each edge inside the text; their common
        # case (no letter or digit on both sides; both sides below U+0300, where only
        # CR LF holds together) is decided here without a call
        words = splits = 0
        for edge in (start, end):
            if 0 < edge < n:
                before, after = text[edge - 1], text[edge]
                if before.isalnum() and after.isalnum() and mid_word(text, edge):
                    words += 1
                if before < FIRST_MARK and after < FIRST_MARK:
                    splits += before == "\r" and after == "\n"
                else:
                    splits += not boundary(edge)
        if cuts_code or cuts_table or ends_mid or starts_mid or over or words or splits or headless:
            found = ChunkDamage(
                cuts_code, cuts_table, ends_mid, starts_mid, over, words, splits, headless
            )
            chunks.append(found)
            damaged.append(found)
        else:
            chunks.append(clean)
    return Damage(
        code_blocks=len(outline.fences),
        code_blocks_cut=fence_whole.count(False),
        tables=len(outline.tables),
        tables_cut=table_whole.count(False),
        table_rows_without_header=sum(c.rows_without_header for c in damaged),
        ends_mid_sentence=sum(c.ends_mid_sentence for c in damaged),
        starts_mid_sentence=sum(c.starts_mid_sentence for c in damaged),
        mid_word_edges=sum(c.mid_word_edges for c in damaged),
        split_grapheme_edges=sum(c.split_grapheme_edges for c in damaged),
        over_size=sum(c.over_size for c in damaged),
        chunks=tuple(chunks),
    )
