"""Line starts and ends (``text/blocks.py``'s ``line_bounds``), which the Markdown outline
and every record's line and column numbers read: the same as a scan for CR LF, CR and LF
(the one before the faster path for texts without CR), on any text; and each field
``located`` gives a record, against its definition."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py.pipeline.location import located
from chunker_py.text.blocks import Lines, line_bounds

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def scanned(text: str) -> tuple[list[int], list[int]]:
    """The reference: every line break matched, in order (a line starts after one and
    ends before the next)."""
    breaks = list(_LINE_BREAK.finditer(text))
    return [0, *(m.end() for m in breaks)], [*(m.start() for m in breaks), len(text)]


# line breaks of every kind, and characters that only look like one (U+2028, NEL, VT, FF)
texts = st.text(st.sampled_from("ab \t\n\r\u2028\x85\x0b\x0c😀\ud800"), max_size=60) | st.text()


@given(texts)
@example("")
@example("\n")
@example("\r\n")
@example("a\n")
@example("\na")
@example("\n\n\r")
@example("\ufeff\n")
def test_line_bounds_equal_a_scan_for_line_breaks(text: str) -> None:
    assert line_bounds(text) == scanned(text)
    lines = Lines(text)
    assert (lines.starts, lines.ends) == scanned(text)


def utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2


@given(texts, st.data())
@example("a\nb😀c\r\nd", None)
def test_located_fields_equal_their_definitions(text: str, data: st.DataObject | None) -> None:
    """Every record field ``located`` gives (offsets in code points and UTF-16 units,
    length, overlap with the previous chunk, 1-based lines and columns, the text), against
    its definition, on overlapping, nested and touching spans in start order."""
    if data is None:
        pairs = [(0, 3), (1, 5), (2, 3), (3, 7), (7, 8)]
    else:
        ends = st.integers(0, len(text))
        pairs = data.draw(st.lists(st.tuples(ends, ends), max_size=8))
    spans = sorted((min(a, b), max(a, b), False, None) for a, b in pairs if a != b)
    starts, _ends = scanned(text)
    previous = (0, 0)
    for index, (record, (start, end, _w, _m)) in enumerate(
        zip(located(text, spans), spans, strict=True)
    ):
        first = max(i for i, s in enumerate(starts) if s <= start)
        last = max(i for i, s in enumerate(starts) if s <= end - 1)
        overlap = max(0, min(end, previous[1]) - max(start, previous[0])) if index else 0
        assert record[:12] == (
            index,
            start,
            end,
            utf16(text, start),
            utf16(text, end),
            end - start,
            overlap,
            first + 1,
            start - starts[first] + 1,
            last + 1,
            end - starts[last],
            text[start:end],
        )
        previous = (start, end)
