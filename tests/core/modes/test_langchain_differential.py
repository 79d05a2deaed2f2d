"""Recursive mode against LangChain's RecursiveCharacterTextSplitter, chunk for chunk.

The oracle compares chunk texts; our offsets come from the algorithm, and the invariant
tests check that every text equals ``source[start:end]``.
"""

from __future__ import annotations

import logging
import random

import langchain_text_splitters as langchain
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker_py import Settings, split_spans
from chunker_py.config.settings import DEFAULT_SEPARATORS

from ..conftest import ATOMS, SEPARATOR_POOL, any_text, separator_lists, size_and_overlap

pytestmark = pytest.mark.cpython_only  # Pyodide: LangChain needs compiled extensions


@pytest.fixture(autouse=True)
def _quiet_langchain(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)  # it logs a warning for each oversized chunk


def langchain_chunks(text: str, settings: Settings) -> list[str]:
    splitter = langchain.RecursiveCharacterTextSplitter(
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        separators=list(settings.separators),
        keep_separator="start",
        strip_whitespace=settings.trim,
        length_function=len,
    )
    return list(splitter.split_text(text))


def ours(text: str, settings: Settings) -> list[str]:
    return [text[s.start : s.end] for s in split_spans(text, settings)]


@given(
    text=any_text,
    sizes=size_and_overlap(),
    trim=st.booleans(),
    separators=st.one_of(st.just(DEFAULT_SEPARATORS), separator_lists()),
)
def test_recursive_matches_langchain(
    text: str, sizes: tuple[int, int], trim: bool, separators: tuple[str, ...]
) -> None:
    size, overlap = sizes
    settings = Settings(
        chunk_size=size,
        chunk_overlap=overlap,
        edges="trim" if trim else "preserve",
        separators=separators,
    )
    assert ours(text, settings) == langchain_chunks(text, settings)


def test_recursive_matches_langchain_on_thousands_of_seeded_texts() -> None:
    rng = random.Random(20261129)
    for _ in range(4000):
        text = "".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 80)))
        size = rng.choice([1, 2, 3, rng.randint(1, 60)])
        overlap = rng.randint(0, size - 1)
        if rng.random() < 0.5:
            seps: tuple[str, ...] = DEFAULT_SEPARATORS
        else:
            seps = tuple(rng.sample(SEPARATOR_POOL, rng.randint(1, 4)))
            seps += ("",) if rng.random() < 0.5 else ()
        settings = Settings(
            chunk_size=size,
            chunk_overlap=overlap,
            edges=rng.choice(["trim", "preserve"]),
            separators=seps,
        )
        assert ours(text, settings) == langchain_chunks(text, settings), (text, settings)


def test_recursive_matches_langchain_on_long_prose() -> None:
    words = ["retrieval", "chunk", "the", "a", "overlap", "😀", "naïve", "\n", "\n\n", "  "]
    rng = random.Random(7)
    text = " ".join(rng.choice(words) for _ in range(4000))
    for size, overlap in [(300, 50), (100, 99), (50, 0), (7, 3)]:
        settings = Settings(chunk_size=size, chunk_overlap=overlap)
        assert ours(text, settings) == langchain_chunks(text, settings)
