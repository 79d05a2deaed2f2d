"""Recursive mode sized in tokens against LangChain's ``from_tiktoken_encoder`` (CPython only).

``tiktoken.get_encoding`` is pointed at the offline reference encodings (token_references),
so LangChain counts with real tiktoken and nothing is downloaded.
"""

from __future__ import annotations

import logging

import langchain_text_splitters as langchain
import pytest
import tiktoken
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import Settings, split_spans

from ..token_corpus import CORPUS, token_texts
from ..token_references import ROOT, tiktoken_encoding

pytestmark = pytest.mark.cpython_only  # Pyodide: LangChain and tiktoken are native

ENCODINGS = ["cl100k_base", "o200k_base"]


@pytest.fixture(autouse=True)
def _offline_tiktoken(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(tiktoken, "get_encoding", tiktoken_encoding)
    caplog.set_level(logging.ERROR)  # LangChain warns about each oversized chunk


def langchain_chunks(text: str, name: str, size: int, overlap: int) -> list[str]:
    splitter = langchain.RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=name, chunk_size=size, chunk_overlap=overlap
    )
    return list(splitter.split_text(text))


def ours(text: str, name: str, size: int, overlap: int) -> list[str]:
    settings = Settings(chunk_size=size, chunk_overlap=overlap, size_unit="tokens", tokenizer=name)
    return [text[s.start : s.end] for s in split_spans(text, settings)]


without_special_tokens = token_texts.filter(lambda t: "<|" not in t)


@pytest.mark.parametrize("name", ENCODINGS)
@given(text=without_special_tokens, data=st.data())
@example(text="Hello world.\n\nSecond paragraph here, with more words.", data=None)
def test_recursive_in_tokens_equals_from_tiktoken_encoder(
    name: str, text: str, data: st.DataObject | None
) -> None:
    size, overlap = (4, 1) if data is None else _size_and_overlap(data)
    assert ours(text, name, size, overlap) == langchain_chunks(text, name, size, overlap)


def _size_and_overlap(data: st.DataObject) -> tuple[int, int]:
    size = data.draw(st.integers(1, 30), label="size")
    return size, data.draw(st.integers(0, size - 1), label="overlap")


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize(("size", "overlap"), [(50, 10), (200, 0), (7, 3), (1000, 100)])
def test_recursive_in_tokens_equals_from_tiktoken_encoder_on_real_text(
    name: str, size: int, overlap: int
) -> None:
    guide = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
    texts = [guide, *(t for t in CORPUS.values() if "<|" not in t)]
    for text in texts:
        assert ours(text, name, size, overlap) == langchain_chunks(text, name, size, overlap)
