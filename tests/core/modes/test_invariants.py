"""Properties every result must have, for any text and settings (Hypothesis)."""

from __future__ import annotations

import itertools

from hypothesis import assume, example, given
from hypothesis import strategies as st

from chunker_py import Settings, analyse, split_spans
from chunker_py.engine.spans import window_count
from chunker_py.pipeline.analysis import count_chunks, summarise, tradeoffs
from chunker_py.pipeline.units import sizer_for

from ..conftest import any_text, settings_strategy, texts


@given(text=any_text, settings=settings_strategy())
@example(text="\ufeff", settings=Settings(chunk_size=1, chunk_overlap=0))
@example(text="a\r\n\r\nb", settings=Settings(chunk_size=2, chunk_overlap=1))
@example(text="😀" * 5, settings=Settings(mode="fixed", chunk_size=2, chunk_overlap=1))
@example(
    text="\x81", settings=Settings(mode="fixed", chunk_size=1, chunk_overlap=0, size_unit="tokens")
)
def test_spans_are_ordered_slices_inside_the_text(text: str, settings: Settings) -> None:
    spans = split_spans(text, settings)
    for i, (start, end, whole, meta) in enumerate(spans):
        assert 0 <= start < end <= len(text)
        if i:
            assert start >= spans[i - 1].start and end >= spans[i - 1].end
        # a note explains an oversized chunk; Token window (and Fixed size in tokens, which
        # cuts the same windows) counts tokens of the whole text's encoding, not of the
        # slice alone (test_token_window checks it)
        token_windows = settings.mode_info.tokens_only or (
            settings.mode == "fixed" and not sizer_for(settings).per_code_point
        )
        if not whole and not (meta and meta.note) and not token_windows:
            size = sizer_for(settings).length(text, start, end)  # in the size unit
            assert size <= settings.chunk_size  # merged chunks fit the size
            if settings.trim:
                chunk = text[start:end]
                assert chunk == chunk.strip()  # trimmed edges, interior untouched
    result = analyse(text, settings, max_chunks=None)
    for c, (start, end, _whole, _meta) in zip(result.chunks, spans, strict=True):
        assert c.text == text[start:end] == text[c.start : c.end]


@given(text=any_text, settings=settings_strategy(modes=("recursive",)))
def test_preserved_recursive_chunks_cover_every_code_point(text: str, settings: Settings) -> None:
    assume(text)
    settings = settings.replace(edges="preserve")
    spans = split_spans(text, settings)
    covered = set()
    for start, end, _whole, _meta in spans:
        covered.update(range(start, end))
    assert covered == set(range(len(text)))


def guide_windows(n: int, c: int, o: int) -> list[tuple[int, int]]:
    """docs/decisions.md's fixed windows, walked one by one: window i is [a, min(a + C, N)) with
    a = (i - 1)(C - O), stopping at the first window that reaches N (no formula shared
    with the engine's arithmetic count)."""
    windows: list[tuple[int, int]] = []
    a = 0
    while n > 0:
        windows.append((a, min(a + c, n)))
        if a + c >= n:
            break
        a += c - o
    return windows


@given(text=texts, settings=settings_strategy())
def test_fixed_window_count_matches_the_formula(text: str, settings: Settings) -> None:
    fixed = Settings(
        mode="fixed",
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        edges="preserve",
    )
    spans = split_spans(text, fixed)
    n, c, o = len(text), fixed.chunk_size, fixed.chunk_overlap
    expected = guide_windows(n, c, o)
    assert [(s.start, s.end) for s in spans] == expected
    assert len(spans) == window_count(n, c, o)
    for a, b in itertools.pairwise(spans):
        assert a.end - b.start == o  # preserved windows share exactly the requested overlap
    assert all(s.end - s.start == c for s in spans[:-1])


@given(text=any_text, settings=settings_strategy())
def test_counts_without_spans_equal_span_counts(text: str, settings: Settings) -> None:
    spans = split_spans(text, settings)
    assert count_chunks(text, settings) == len(spans)
    for t in tradeoffs(text, settings):
        at_size = settings.replace(chunk_size=t.size)
        assert t.count == len(split_spans(text, at_size))


@given(text=any_text, settings=settings_strategy(), limit=st.integers(0, 6))
def test_the_chunk_limit_keeps_counts_exact(text: str, settings: Settings, limit: int) -> None:
    full = len(split_spans(text, settings))
    result = analyse(text, settings, max_chunks=limit)
    assert result.count == full
    if full > limit:
        assert result.error is not None and result.chunks == ()
        assert f"{full:,} chunks" in result.error.message


@given(text=any_text, settings=settings_strategy())
def test_summary_figures_follow_the_formula_core(text: str, settings: Settings) -> None:
    result = analyse(text, settings, max_chunks=None)
    assume(result.summary is not None)
    assert result.summary is not None
    chunks = result.chunks
    lengths = [c.end - c.start for c in chunks]
    overlaps = [0] + [
        len(set(range(a.start, a.end)) & set(range(b.start, b.end)))
        for a, b in itertools.pairwise(chunks)
    ]
    covered = set().union(*(range(c.start, c.end) for c in chunks))
    s = result.summary
    assert [c.overlap for c in chunks] == overlaps
    assert s.repeated == sum(overlaps)
    assert s.omitted == len(text) - len(covered)
    assert (s.smallest, s.largest) == (min(lengths), max(lengths))
    assert s.average == sum(lengths) / len(lengths)
    assert summarise(len(text), list(result.spans)) == s


@given(text=any_text)
def test_utf16_offsets_slice_the_same_text(text: str) -> None:
    # lone surrogates are refused by check_document; test_records covers them in JSONL
    assume(not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text))
    result = analyse(text, Settings(chunk_size=3, chunk_overlap=1), max_chunks=None)
    units = text.encode("utf-16-le")
    for c in result.chunks:
        assert units[2 * c.start_utf16 : 2 * c.end_utf16].decode("utf-16-le") == c.text


@given(text=any_text)
def test_lines_and_columns_locate_chunk_edges(text: str) -> None:
    assume(not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text))
    result = analyse(text, Settings(chunk_size=4, chunk_overlap=1), max_chunks=None)
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    # map positions in the original to (line, column) by walking it once
    where = []
    line, col, i = 1, 1, 0
    while i < len(text):
        where.append((line, col))
        if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
            where.append((line, col + 1))
            i += 2
            line, col = line + 1, 1
            continue
        if text[i] in "\r\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    del lines
    for c in result.chunks:
        assert (c.start_line, c.start_column) == where[c.start]
        assert (c.end_line, c.end_column) == where[c.end - 1]


@given(
    text=any_text,
    settings=settings_strategy(),
    first=st.integers(0, 8),
    size=st.integers(0, 8),
    earlier=st.integers(0, 8),
)
@example(text="a b c d e f", settings=Settings(chunk_size=1, chunk_overlap=0), first=2, size=3,
         earlier=1)  # fmt: skip
def test_a_window_of_records_equals_the_same_slice_of_all(
    text: str, settings: Settings, first: int, size: int, earlier: int
) -> None:
    """Views ask for growing windows: the cached prefix is extended, never rebuilt or
    duplicated. The reference is a separate Analysis whose records are built in one go."""
    reference = analyse(text, settings, max_chunks=None).chunks
    result = analyse(text, settings, max_chunks=None)
    assert result.chunk_window(0, earlier) == reference[:earlier]  # builds a short prefix
    window = result.chunk_window(first, first + size)  # extends it or, past it, alone
    assert window == reference[first : first + size]
    assert result.chunk_window(first, first + 1) == reference[first : first + 1]
    assert result.chunk_window(0, len(reference) + 1) == reference  # extends it to the end
    assert [c.index for c in result.chunk_window(0, len(reference))] == list(range(len(reference)))


def test_the_engines_whitespace_runs_are_exactly_str_isspace() -> None:
    """Trimming scans with str.isspace() and indexes long runs with a regex: both must
    agree on every code point, or a long run would be trimmed differently from a short one."""
    from chunker_py.engine.index import _WHITESPACE_RUN

    differ = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if (_WHITESPACE_RUN.fullmatch(chr(cp)) is not None) != chr(cp).isspace()
    ]
    assert differ == []
