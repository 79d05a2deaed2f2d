"""Chunk records: each span located in code points, UTF-16 code units and 1-based lines and
columns (a line ends at CRLF, CR or LF), with its text sliced from the source.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence

from ..engine.index import TextIndex
from ..engine.spans import Span, SpanMeta
from ..text.blocks import text_lines
from .cache import text_index
from .results import Chunk


def _line_starts(index: TextIndex) -> list[int]:
    """Where each line of the text starts, kept per text (a record window or the chunk
    map's detail line re-scans nothing; the Markdown outline reads the same lines)."""
    return text_lines(index).starts


class _Utf16:
    """UTF-16 offsets of code-point offsets asked for in any order, cheapest in ascending
    order (a pass over the spans): the astral code points between the offset asked last
    and the next one are counted by encoding that stretch in C, so a pass encodes the
    text about once, and an index of every astral code point (one Python object each:
    ~20 ms on 20,000 code points of ZWJ emoji in the page) is built only for a
    text with few of them (``_AstralIndex``)."""

    __slots__ = ("_extra", "_last", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._last = 0  # the code-point offset asked last
        self._extra = 0  # astral code points before it (each one UTF-16 unit more)

    def __call__(self, offset: int) -> int:
        last = self._last
        if offset >= last:
            self._extra += _astral_in(self._text[last:offset])
        else:
            self._extra -= _astral_in(self._text[offset:last])
        self._last = offset
        return offset + self._extra


class _AstralIndex:
    """UTF-16 offsets of a text with few astral code points (``FEW_ASTRAL``): their
    positions, found once, and a binary search per offset (the cursor's
    encodings were ~60 % of ``located``'s time on the corpus' files with emoji)."""

    __slots__ = ("_positions",)

    def __init__(self, text: str) -> None:
        self._positions = [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, offset: int) -> int:
        return offset + bisect_left(self._positions, offset)


# A text with at most this many astral code points gets an ``_AstralIndex`` (one Python
# object each); one with more (emoji-heavy text) keeps the ``_Utf16`` cursors.
FEW_ASTRAL = 256
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _astral_in(piece: str) -> int:
    # a lone surrogate is one unit, as in a JavaScript string
    return len(piece.encode("utf-16-le", "surrogatepass")) // 2 - len(piece)


# index, start, end, start_utf16, end_utf16, length, overlap, start_line, start_column,
# end_line, end_column, text, whole, meta: a chunk record's fields in ``Chunk``'s order
# (its mode's ``meta`` in place of the three fields taken from it)
Located = tuple[int, int, int, int, int, int, int, int, int, int, int, str, bool, SpanMeta | None]


def located(
    text: str, spans: Sequence[Span], first: int = 0, stop: int | None = None
) -> Iterator[Located]:
    """The fields of the records of ``spans[first:stop]`` (indices stay those of the whole
    list), without building ``Chunk`` objects (the JSONL writer reads them so); the only
    place chunk text is sliced from the source."""
    stop = len(spans) if stop is None else min(stop, len(spans))
    if first >= stop:
        return
    astral = 0 if text.isascii() else _astral_in(text)
    start16: Callable[[int], int] | None = None
    end16: Callable[[int], int] | None = None
    if 0 < astral <= FEW_ASTRAL:
        start16 = end16 = _AstralIndex(text)
    elif astral:
        # UTF-16 offsets: starts and ends each ascend (or nearly), so one cursor each
        start16, end16 = _Utf16(text), _Utf16(text)
    line_starts = _line_starts(text_index(text))
    prev_start, prev_end = spans[first - 1][:2] if first > 0 else (0, 0)
    # min and max as comparisons, no call for a UTF-16 offset equal to the code point's:
    # a record's fields are much of the JSONL writer's time
    for index in range(first, stop):
        start, end, whole, meta = spans[index]
        if index:
            overlap = (end if end < prev_end else prev_end) - (
                start if start > prev_start else prev_start
            )
            if overlap < 0:
                overlap = 0
        else:
            overlap = 0
        start_line = bisect_right(line_starts, start)
        end_line = bisect_right(line_starts, end - 1)
        yield (
            index,
            start,
            end,
            start if start16 is None else start16(start),
            end if end16 is None else end16(end),
            end - start,
            overlap,
            start_line,
            start - line_starts[start_line - 1] + 1,
            end_line,
            end - line_starts[end_line - 1],
            text[start:end],
            whole,
            meta,
        )
        prev_start, prev_end = start, end


def build_chunks(
    text: str, spans: Sequence[Span], first: int = 0, stop: int | None = None
) -> tuple[Chunk, ...]:
    """Chunk records for ``spans[first:stop]`` (indices stay those of the whole list)."""
    return tuple(
        Chunk(i, start, end, s16, e16, length, overlap, sl, sc, el, ec, piece, whole,
              *(meta or SpanMeta()))  # heading_path, prefix, note
        for i, start, end, s16, e16, length, overlap, sl, sc, el, ec, piece, whole, meta
        in located(text, spans, first, stop)
    )  # fmt: skip
