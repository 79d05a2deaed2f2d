"""Documents: limits, strict UTF-8 imports and hostile text (bad input 7-18)."""

from __future__ import annotations

import zlib

import pytest

from chunker_py import DocumentError, Settings, analyse, decode_document, split_spans
from chunker_py.text.documents import check_document


def test_paste_over_20000_code_points_is_refused_with_the_count() -> None:
    check_document("😀" * 20_000)  # 40 000 UTF-16 units, 20 000 code points: accepted
    with pytest.raises(DocumentError) as info:
        check_document("a" * 20_001)
    assert "20,001 code points" in info.value.message and "20,000" in info.value.message


def test_file_over_100000_bytes_is_refused_with_its_size() -> None:
    decode_document(b"a" * 100_000, max_code_points=None)
    with pytest.raises(DocumentError) as info:
        decode_document(b"a" * 100_001)
    assert "100,001 bytes" in info.value.message


def png() -> bytes:
    raw = b"\x00\xff\x00\x00"
    return b"\x89PNG\r\n\x1a\n" + zlib.compress(raw)


@pytest.mark.parametrize(
    "data",
    [
        png(),
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nstream\n\x00\x01\x02",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
        "hello".encode("utf-16"),
        "hello".encode("utf-16-le"),
        "hello".encode("utf-16-be"),
        b"text\x00with nul",
        b"caf\xe9",  # Latin-1
        b"\xed\xa0\x80",  # an encoded surrogate
        b"\xc0\xaf",  # overlong
    ],
)
def test_non_utf8_files_are_refused_not_repaired(data: bytes) -> None:
    with pytest.raises(DocumentError) as info:
        decode_document(data, name="f.txt")
    assert "not a UTF-8 text file" in info.value.message


def test_utf8_bom_is_dropped_but_inner_feff_stays() -> None:
    assert decode_document("\ufeffa\ufeffb".encode()) == "a\ufeffb"


def test_empty_file_has_its_own_message() -> None:
    with pytest.raises(DocumentError, match="is empty"):
        decode_document(b"", name="empty.txt")


def test_cjk_under_the_code_point_limit_but_over_the_byte_limit() -> None:
    text = "漢" * 40_000  # 120 000 bytes
    with pytest.raises(DocumentError, match="bytes"):
        decode_document(text.encode())
    with pytest.raises(DocumentError, match="code points"):
        check_document(text)
    check_document("漢" * 20_000)  # a paste of 60 000 bytes is fine


def test_whitespace_only_text_with_trimmed_edges_has_a_specific_message() -> None:
    result = analyse(" \n\t\u00a0 ", Settings())
    assert result.error is not None and "Preserve edge whitespace" in result.error.message
    assert analyse(" \n\t ", Settings(edges="preserve")).error is None
    assert analyse("", Settings()).error is not None


def test_line_endings_are_kept_exactly() -> None:
    text = "a\r\nb\rc\n"
    result = analyse(text, Settings(chunk_size=100, chunk_overlap=0, edges="preserve"))
    assert result.chunks[0].text == text


def test_unicode_is_never_normalised() -> None:
    text = "e\u0301 👩\u200d💻 🇫🇷 \u05e9\u05dc\u05d5\u05dd \u200b"
    result = analyse(text, Settings(chunk_size=4, chunk_overlap=1))
    covered = set().union(*(range(c.start, c.end) for c in result.chunks))
    omitted = [text[i] for i in range(len(text)) if i not in covered]
    assert omitted and all(ch.isspace() for ch in omitted)  # only trimmed edge whitespace
    assert "\u200b" in result.chunks[-1].text  # zero-width space is not whitespace: kept
    for c in result.chunks:
        assert c.text == text[c.start : c.end]
        assert c.end_utf16 - c.start_utf16 == len(c.text.encode("utf-16-le")) // 2


def test_lone_surrogates_are_reported_with_their_position() -> None:
    with pytest.raises(DocumentError) as info:
        check_document("ab\udc00c")
    assert "at code point 2" in info.value.message


def test_over_the_chunk_limit_is_reported_without_records() -> None:
    result = analyse("x" * 20_000, Settings(chunk_size=10_000, chunk_overlap=9_999))
    assert result.error is not None and result.chunks == () and result.summary is None
    assert result.error.message.startswith("These settings would produce 10,001 chunks")
    assert "raise the chunk size or lower the overlap" in result.error.message


@pytest.mark.parametrize("mode", ["recursive", "fixed"])
def test_pathological_single_line_counts_every_window_exactly(mode: str) -> None:
    """One 20 000-code-point line at size 1 000 / overlap 999: the count is exact. That the
    work stays linear is measured, not asserted: bench/bench_core.py prints the cost ratio
    against a text ten times shorter (tests never assert wall-clock times)."""
    settings = Settings(mode=mode, chunk_size=1_000, chunk_overlap=999)
    # windows start at 0, 1, ..., 19 000: the last one reaches the end
    assert analyse("x" * 20_000, settings).count == 19_001
    assert analyse("x" * 2_000, settings).count == 1_001


def test_counting_past_the_limit_matches_building_every_span() -> None:
    text = ("ab  " * 3000) + "\u00a0" * 50
    for mode in ("recursive", "fixed"):
        s = Settings(mode=mode, chunk_size=6, chunk_overlap=5)
        assert analyse(text, s).count == len(split_spans(text, s))
