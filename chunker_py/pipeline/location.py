"""Chunk records: each span located in code points, UTF-16 code units and 1-based lines and
columns (a line ends at CRLF, CR or LF), with its text sliced from the source.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence

from ..engine.spans import Span, SpanMeta
from .results import Chunk

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


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
    astral = [m.start() for m in _ASTRAL.finditer(text)]  # UTF-16 offset: + astral before
    line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    prev_start, prev_end = spans[first - 1][:2] if first > 0 else (0, 0)
    for index in range(first, stop):
        start, end, whole, meta = spans[index]
        overlap = max(0, min(end, prev_end) - max(start, prev_start)) if index else 0
        start_line = bisect_right(line_starts, start)
        end_line = bisect_right(line_starts, end - 1)
        yield (
            index,
            start,
            end,
            start + bisect_right(astral, start - 1) if astral else start,
            end + bisect_right(astral, end - 1) if astral else end,
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
