"""Line starts and ends (``text/blocks.py``'s ``line_bounds``), which the Markdown outline
and every record's line and column numbers read: the same as a scan for CR LF, CR and LF
(the one before issue 22's faster path for texts without CR), on any text."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py.pipeline.location import located
from chunker_py.text.blocks import Lines, line_bounds

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def scanned(text: str) -> tuple[list[int], list[int]]:
    """The reference: every line break matched, in order."""
    starts, ends = [0], []
    for match in _LINE_BREAK.finditer(text):
        ends.append(match.start())
        starts.append(match.end())
    ends.append(len(text))
    return starts, ends


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


@given(texts, st.data())
def test_records_line_and_column_numbers_count_lines_as_the_scan(
    text: str, data: st.DataObject
) -> None:
    """Each record's start and end line and column, from the lines the outline shares."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=6)))
    spans = [(a, b, False, None) for a, b in pairwise(cuts) if a < b]
    starts, _ends = scanned(text)
    for record, (start, end, _w, _m) in zip(located(text, spans), spans, strict=True):
        first = max(i for i, s in enumerate(starts) if s <= start)
        last = max(i for i, s in enumerate(starts) if s <= end - 1)
        assert record[7:11] == (first + 1, start - starts[first] + 1, last + 1, end - starts[last])
