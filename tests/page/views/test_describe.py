"""What the page says about a chunk (app/describe.py), in CPython: the chunk map's button
names, made from the spans alone, state what chunker_py's records say of each chunk."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunker_py import ChunkerError, Settings, analyse

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "app"))

import describe  # noqa: E402  (app/ is not a package: the page imports its modules flat)

WORDS = st.sampled_from(["alpha ", "beta. ", "😀 ", "\r\n", "\n\n", "café ", "x" * 30])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(WORDS, min_size=1, max_size=120).map("".join),
    st.integers(4, 60),
    st.integers(0, 90),
    st.sampled_from(["recursive", "fixed", "token-window"]),
)
def test_map_names_state_each_chunks_record(text: str, size: int, pct: int, mode: str) -> None:
    overlap = size * pct // 100
    try:
        chosen = Settings(chunk_size=size, chunk_overlap=overlap, mode=mode)
    except ChunkerError:
        assume(False)  # e.g. an overlap the mode refuses
    result = analyse(text, chosen)
    assume(result.error is None)
    names = describe.names(result.spans)
    expected = [
        f"Chunk {c.index}, code points {c.start:,} to {c.end:,}, {c.length:,} long"
        + (f", starts with {c.overlap:,} repeated" if c.overlap else "")
        for c in result.chunks
    ]
    assert names == expected
    # the names of a later part alone (the map renames only chunks after the unchanged ones)
    for first in {0, len(names) // 2, len(names)}:
        assert describe.names(result.spans, first) == names[first:]


def test_the_title_and_detail_line_say_the_same_chunk() -> None:
    result = analyse("Words go here. " * 40, Settings(chunk_size=120, chunk_overlap=40))
    c = replace(result.chunks[1], heading_path="Intro > Setup")
    assert c.overlap
    title = describe.title(c)
    assert title.startswith(f"#{c.index} · {c.start:,}–{c.end:,} · {c.length:,} code points")  # noqa: RUF001
    assert f" · repeats {c.overlap:,}" in title and title.endswith(f" · {c.heading_path}")
    assert describe.detail(c, "ends mid-sentence", "question 2") == (
        f"Chunk {title} · damage: ends mid-sentence · evidence of question 2 · "
        "Enter or click: show its record"
    )
    named = describe.full_name("Chunk 1", "", "question 2")
    assert named == "Chunk 1, holds evidence of question 2"
