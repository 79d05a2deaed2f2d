"""The document and result limits (docs/decisions.md "Accepted settings", bad input 7, 8, 18) at
their edges: N-1 and N accepted, N+1 refused with the count and the limit; nothing is
truncated to fit."""

from __future__ import annotations

import pytest

from chunker_py import DocumentError, ResultError, Settings, analyse, decode_document
from chunker_py.engine.limits import MAX_CHUNKS, MAX_CODE_POINTS, MAX_IMPORT_BYTES
from chunker_py.text.documents import check_document

ONE_A_CHUNK = Settings(mode="fixed", chunk_size=1, chunk_overlap=0)


@pytest.mark.parametrize("length", [MAX_CODE_POINTS - 1, MAX_CODE_POINTS])
def test_a_text_up_to_the_code_point_limit_is_split(length: int) -> None:
    text = "é" * length  # code points, not bytes or UTF-16 units
    check_document(text)
    result = analyse(text, Settings(chunk_size=1_000, chunk_overlap=0))
    assert result.error is None and result.chunks[-1].end == length


def test_a_text_one_code_point_over_the_limit_is_refused_with_its_length() -> None:
    text = "😀" * (MAX_CODE_POINTS + 1)  # 40,002 UTF-16 units: counted as code points
    for refuse in (check_document, lambda t: analyse(t, Settings())):
        with pytest.raises(DocumentError, match="has 20,001 code points; the limit is 20,000"):
            refuse(text)


@pytest.mark.parametrize("count", [MAX_CHUNKS - 1, MAX_CHUNKS])
def test_a_result_up_to_the_chunk_limit_is_given_whole(count: int) -> None:
    result = analyse("a" * count, ONE_A_CHUNK)
    assert result.error is None and len(result.chunks) == result.count == count


def test_one_chunk_over_the_limit_is_refused_with_the_count_and_no_chunks() -> None:
    result = analyse("a" * (MAX_CHUNKS + 1), ONE_A_CHUNK)
    assert isinstance(result.error, ResultError)
    assert "would produce 2,001 chunks, more than the 2,000 limit" in result.error.message
    assert result.chunks == ()


@pytest.mark.parametrize("size", [MAX_IMPORT_BYTES - 1, MAX_IMPORT_BYTES])
def test_a_file_up_to_the_byte_limit_is_read(size: int) -> None:
    assert len(decode_document(b"a" * size, max_code_points=None)) == size


def test_a_file_one_byte_over_the_limit_is_refused_with_its_size() -> None:
    with pytest.raises(DocumentError, match="has 100,001 bytes; imports accept at most 100,000"):
        decode_document(b"a" * (MAX_IMPORT_BYTES + 1), max_code_points=None)
