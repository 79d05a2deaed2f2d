"""A long document in parts (the page's long files): the parts cover the file in order,
each starts where the streamed path's segment starts, and the parts' chunks, at offsets
in the original file, equal the streamed path's with a buffer of 20,000 code points."""

from __future__ import annotations

import io
import json
import random

import pytest

from chunker_py import DocumentError, SettingError, Settings
from chunker_py.io.parts import MAX_TOTAL_CODE_POINTS, cut_parts, part_chunks, part_lines
from chunker_py.io.stream import Position, Segment, iter_chunks, record_lines

WORDS = ["alpha", "beta", "gamma", "delta", "épsilon", "😀", "zeta\r\n", "eta.", "theta\n\n"]


def long_text(code_points: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    pieces: list[str] = []
    total = 0
    while total < code_points:
        word = rng.choice(WORDS)
        pieces.append(word + " ")
        total += len(word) + 1
    return "".join(pieces)[:code_points]


@pytest.mark.parametrize("mode", ["recursive", "sentence", "fixed"])
def test_parts_cover_the_file_and_equal_the_streamed_path(mode: str) -> None:
    text = long_text(60_000)
    settings = Settings(mode=mode, chunk_size=300, chunk_overlap=50)
    parts = cut_parts(text, settings)
    assert len(parts) >= 3
    assert all(len(part.text) <= 20_000 for part in parts)
    assert "".join(part.text for part in parts) == text
    at = 0
    for part in parts:  # offsets absolute: each part starts where the previous ended
        assert part.position.code_points == at
        assert text[at : at + len(part.text)] == part.text
        at += len(part.text)
    chunks = list(part_chunks(parts, settings))
    streamed = list(iter_chunks(io.StringIO(text, newline=""), settings, buffer_size=20_000))
    assert chunks == streamed
    for chunk in chunks:  # every chunk is the original file's text at its offsets
        assert text[chunk.start : chunk.end] == chunk.text


def test_a_chunk_never_crosses_a_part_seam() -> None:
    text = long_text(45_000, seed=3)
    settings = Settings(chunk_size=500, chunk_overlap=100)
    parts = cut_parts(text, settings)
    seams = [part.position.code_points for part in parts[1:]]
    for chunk in part_chunks(parts, settings):
        assert not any(chunk.start < seam < chunk.end for seam in seams)


def test_a_text_within_one_part_is_one_part() -> None:
    parts = cut_parts("short text", Settings())
    assert [(p.text, p.position.code_points) for p in parts] == [("short text", 0)]


def test_over_the_total_limit_is_refused_with_the_limit() -> None:
    """Bad input case 30."""
    with pytest.raises(DocumentError, match="at most 1,000,000 code points in all"):
        cut_parts("a " * (MAX_TOTAL_CODE_POINTS // 2 + 1), Settings())


def test_markdown_mode_cannot_be_cut_like_the_streamed_path() -> None:
    with pytest.raises(SettingError, match="cannot be streamed"):
        cut_parts("# Title\n\n" + "word " * 5_000, Settings(mode="markdown"))


@pytest.mark.parametrize("mode", ["recursive", "token-window"])
@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_each_parts_lines_are_the_streamed_paths_lines_for_its_segment(
    mode: str, format: str
) -> None:
    """A part's download: the lines `--stream --buffer-size 20000` writes for that part
    of the file (offsets in the file, ids and indices across it); the parts' lines, one
    after another, are the streamed file's (a CSV part repeats the header)."""
    text = "  \n\n" + long_text(52_000, seed=11)
    settings = Settings(mode=mode, chunk_size=200, chunk_overlap=20, source_name="big.md")
    parts = cut_parts(text, settings)
    assert len(parts) == 3
    streamed = "".join(
        record_lines(io.StringIO(text, newline=""), settings, format=format, buffer_size=20_000)
    )
    header = streamed.split("\n", 1)[0] + "\n" if format == "csv" else ""
    pieces = [part_lines(parts, which, settings, format) for which in range(len(parts))]
    assert all(piece.startswith(header) for piece in pieces)
    assert header + "".join(piece[len(header) :] for piece in pieces) == streamed
    last = json.loads(pieces[-1].splitlines()[-1]) if format == "jsonl" else None
    if last is not None:  # the file's last chunk, at its place in the file
        assert last["id"] == f"big.md#{last['index']}"
        assert text[last["start"] : last["end"]] == last["text"]


def test_a_part_that_trims_to_nothing_has_no_lines_and_numbers_none() -> None:
    settings = Settings(chunk_size=50, chunk_overlap=0)
    parts = [Segment("first part of it. ", Position()), Segment(" \n ", Position(18, 18, 1, 19))]
    parts.append(Segment("after the blank.", Position(21, 21, 2, 2)))
    assert part_lines(parts, 1, settings) == ""
    after = json.loads(part_lines(parts, 2, settings))
    assert (after["index"], after["start"], after["start_line"]) == (1, 21, 2)
