"""Chunk records located in UTF-16 units and lines, window by window (so no task runs long:
the UTF-16 offsets of a text with many astral code points come from a cursor over the
text, not an index of them; a text with few gets that index; the line starts
are kept per text)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import Settings, analyse
from chunker_py.engine.spans import Span
from chunker_py.pipeline import location
from chunker_py.pipeline.location import located

from ..conftest import any_text

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"


def utf16(text: str, offset: int) -> int:
    """The reference: the UTF-16 length of the text before ``offset`` (a lone surrogate
    is one unit, as in a JavaScript string)."""
    return len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[Span]]:
    """Any text and any spans over it, in any order, overlapping or not: the cursor must
    be exact going backwards as well as forwards."""
    text = draw(st.one_of(any_text, st.text(max_size=60)).filter(bool))
    bounds = st.integers(0, len(text) - 1)
    spans = []
    for a, b in draw(st.lists(st.tuples(bounds, bounds), min_size=1, max_size=12)):
        spans.append(Span(min(a, b), max(a, b) + 1, True, None))
    return text, spans


@given(case=text_and_spans(), first=st.integers(0, 12))
@example(
    case=(
        "a\ud800b" + FAMILY + "\r\n\r" + FAMILY,
        [Span(2, 9, True, None), Span(0, 4, True, None)],
    ),
    first=0,
)
@pytest.mark.parametrize("few", [0, 1, location.FEW_ASTRAL])  # cursors, either, the index
def test_utf16_offsets_and_lines_of_any_spans(
    case: tuple[str, list[Span]], first: int, few: int
) -> None:
    text, spans = case
    kept = location.FEW_ASTRAL
    location.FEW_ASTRAL = few
    try:
        records = list(located(text, spans, first))
    finally:
        location.FEW_ASTRAL = kept
    assert [r[0] for r in records] == list(range(first, len(spans)))
    for index, start, end, start16, end16, *_rest in records:
        assert (start16, end16) == (utf16(text, start), utf16(text, end)), (index, spans)
    for r in records:
        start, end, start_line, start_column = r[1], r[2], r[7], r[8]
        # the line breaks wholly before the start (a CRLF's CR before it is not one)
        breaks = [m for m in re.finditer(r"\r\n|\r|\n", text) if m.end() <= start]
        assert start_line == len(breaks) + 1
        assert start_column == start - (breaks[-1].end() if breaks else 0) + 1
        assert r[11] == text[start:end]


@given(text=any_text, size=st.integers(1, 6), first=st.integers(0, 30), stop=st.integers(0, 30))
@example(text=FAMILY * 9 + "\r\nx" + FAMILY, size=4, first=3, stop=9)
def test_a_window_of_records_equals_the_same_records_built_whole(
    text: str, size: int, first: int, stop: int
) -> None:
    """The records, the preview and the chunk map's detail line ask for windows in any
    order; each equals the same records of the whole list."""
    result = analyse(text, Settings(chunk_size=size, chunk_overlap=size // 3),
                     max_chunks=None, max_code_points=None)  # fmt: skip
    fresh = analyse(text, Settings(chunk_size=size, chunk_overlap=size // 3),
                    max_chunks=None, max_code_points=None)  # fmt: skip
    whole = result.chunks
    assert fresh.chunk_window(first, stop) == whole[first:stop]
    assert fresh.chunk_window(0, stop) == whole[:stop]
    assert fresh.chunk_window(first, first + 1) == whole[first : first + 1]
    for chunk in whole:
        assert chunk.start_utf16 == utf16(text, chunk.start)
        assert chunk.end_utf16 == utf16(text, chunk.end)
