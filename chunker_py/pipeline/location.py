"""Chunk records: each span located in code points, UTF-16 code units and 1-based lines and
columns (a line ends at CRLF, CR or LF), with its text sliced from the source.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from ..engine.spans import Span
from .results import Chunk

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Locator:
    """Maps code-point positions to UTF-16 offsets and 1-based lines and columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        # the UTF-16 offset of the last position asked, found from the one before by
        # encoding the text between them (records' offsets mostly increase: O(n) for all;
        # indexing 11,000 astral code points took ~40 ms in the page: issue 18, defect 8)
        self._last = (0, 0)
        self._astral = _ASTRAL.search(text) is not None
        self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]

    def utf16(self, position: int) -> int:
        if not self._astral:
            return position
        at, units = self._last
        if position >= at:
            units += len(self.text[at:position].encode("utf-16-le", "surrogatepass")) // 2
        else:
            units -= len(self.text[position:at].encode("utf-16-le", "surrogatepass")) // 2
        self._last = (position, units)
        return units

    def line_column(self, position: int) -> tuple[int, int]:
        line = bisect_right(self._line_starts, position)
        return line, position - self._line_starts[line - 1] + 1


_LAST: list[Locator] = []  # the last text's (the preview and the records share it)


def locator(text: str) -> Locator:
    """``Locator(text)``, kept for the last text: an edit builds the records of two views
    (issue 18, defect 8: 20,000 code points of emoji took ~35 ms in the page to index)."""
    last = _LAST[0] if _LAST else None  # one read: another thread may replace it
    if last is not None and last.text == text:
        return last
    made = Locator(text)
    _LAST[:] = [made]
    return made


def build_chunks(
    text: str, spans: Sequence[Span], first: int = 0, stop: int | None = None
) -> tuple[Chunk, ...]:
    """Chunk records for ``spans[first:stop]`` (indices stay those of the whole list);
    the only place chunk text is sliced from the source."""
    locate = locator(text)
    chunks = []
    stop = len(spans) if stop is None else min(stop, len(spans))
    if first >= stop:
        return ()
    prev_start, prev_end = spans[first - 1][:2] if first > 0 else (0, 0)
    for index in range(first, stop):
        start, end, whole, meta = spans[index]
        overlap = max(0, min(end, prev_end) - max(start, prev_start)) if index else 0
        start_line, start_column = locate.line_column(start)
        end_line, end_column = locate.line_column(end - 1)
        chunks.append(
            Chunk(
                index=index,
                start=start,
                end=end,
                start_utf16=locate.utf16(start),
                end_utf16=locate.utf16(end),
                length=end - start,
                overlap=overlap,
                start_line=start_line,
                start_column=start_column,
                end_line=end_line,
                end_column=end_column,
                text=text[start:end],
                whole=whole,
                heading_path=meta.heading_path if meta else "",
                prefix=meta.prefix if meta else "",
                note=meta.note if meta else "",
            )
        )
        prev_start, prev_end = start, end
    return tuple(chunks)
