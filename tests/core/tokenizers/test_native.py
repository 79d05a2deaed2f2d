"""cl100k_base and o200k_base counted by the tiktoken package (CPython's default when it is
installed, the CLI's --tiktoken) count exactly as the pure-Python tokenizers do (CPython
only: tiktoken is native)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import ChunkerError, Settings, analyse
from chunker_py import tokenizers as registry
from chunker_py.tokenizers.bpe import BpeTokenizer, tiktoken_text

from ..token_corpus import CORPUS, token_texts
from .test_word_counts import WORDY

pytestmark = pytest.mark.cpython_only  # Pyodide has no tiktoken

pytest.importorskip("tiktoken")  # never skipped in CPython: requirements-test.txt pins it

from chunker_py.tokenizers.native import NativeBpeTokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
NAMES = ("cl100k_base", "o200k_base")
PURE = {name: BpeTokenizer(name) for name in NAMES}
NATIVE = {name: NativeBpeTokenizer(name) for name in NAMES}
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "bench" / "data" / "README-6f5a5e5.md",  # the long README of an earlier commit, frozen
    ROOT / "CHANGELOG.md",
    ROOT / "static" / "sample.txt",
    *sorted((ROOT / "tests" / "data").glob("*.md")),
    *sorted((ROOT / "tests" / "data").glob("*.txt")),
]


@given(text=token_texts | st.sampled_from(sorted(CORPUS.values())) | WORDY)
@example(text="lone \ud800 surrogate \udfff and a pair \ud83d\ude00")
@example(text="<|endoftext|><|fim_prefix|> <|endofprompt|>")
@pytest.mark.parametrize("name", NAMES)
def test_tiktoken_counts_as_the_pure_tokenizer(name: str, text: str) -> None:
    assert NATIVE[name]._count(text) == PURE[name]._count(text) == tiktoken_count(name, text)


def tiktoken_count(name: str, text: str) -> int:
    """tiktoken's count of the whole text, as it is (no word caches)."""
    return len(NATIVE[name]._encode(tiktoken_text(text)))


@pytest.mark.parametrize("name", NAMES)
def test_the_repository_documents_chunks_count_alike(name: str) -> None:
    counted = 0
    for path in DOCUMENTS:
        text = path.read_text("utf-8")
        result = analyse(text, Settings(chunk_size=300, chunk_overlap=50), max_chunks=None,
                         max_code_points=None)  # fmt: skip
        pieces = [text[s.start : s.end] for s in result.spans] + [text]
        expected = [tiktoken_count(name, p) for p in pieces]
        assert [NATIVE[name]._count(p) for p in pieces] == expected
        assert [PURE[name]._count(p) for p in pieces] == expected
        counted += len(pieces)
    assert counted > 500


def test_tiktoken_counts_by_default_where_it_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_TIKTOKEN", {})
    monkeypatch.setattr(registry, "_CACHE", {})
    assert registry.tiktoken_counts()
    assert type(registry.get_tokenizer("cl100k_base")) is NativeBpeTokenizer
    assert type(registry.get_tokenizer("o200k_base")) is NativeBpeTokenizer
    assert type(registry.get_tokenizer("words")).__name__ == "WordsTokenizer"


def test_without_tiktoken_the_default_is_the_pure_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_TIKTOKEN", {})
    monkeypatch.setattr(registry, "_CACHE", {})
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert type(registry.get_tokenizer("cl100k_base")) is BpeTokenizer


def test_use_tiktoken_switches_the_registry_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_TIKTOKEN", {})
    monkeypatch.setattr(registry, "_CACHE", {})
    registry.use_tiktoken(False)
    assert type(registry.get_tokenizer("o200k_base")) is BpeTokenizer
    registry.use_tiktoken()
    assert type(registry.get_tokenizer("cl100k_base")) is NativeBpeTokenizer
    assert type(registry.get_tokenizer("o200k_base")) is NativeBpeTokenizer
    registry.use_tiktoken(False)
    assert type(registry.get_tokenizer("cl100k_base")) is BpeTokenizer


def test_without_tiktoken_the_option_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(ChunkerError, match="pip install tiktoken"):
        registry.use_tiktoken()


@pytest.mark.subprocess
def test_the_command_line_writes_the_same_bytes_with_or_without_tiktoken(tmp_path: Path) -> None:
    for n, path in enumerate(DOCUMENTS[:4]):
        (tmp_path / f"{n}{path.suffix}").write_bytes(path.read_bytes())
    for extra in ([], ["--tokenizer", "o200k_base", "--size-unit", "tokens", "--size", "80"]):
        runs = [
            subprocess.run(
                [sys.executable, "-m", "chunker_py", str(tmp_path), "--no-limits", "--jobs", "2",
                 *extra, *native],
                capture_output=True, cwd=ROOT, check=True, timeout=300,
            ).stdout
            for native in (["--no-tiktoken"], [], ["--tiktoken"])
        ]  # fmt: skip
        assert runs[0] == runs[1] == runs[2] and runs[0].count(b"\n") > 100


@given(text=token_texts | WORDY | st.sampled_from(sorted(CORPUS.values())), data=st.data())
@example(text="a\t \nb  c \u3000 d", data=None)
@pytest.mark.parametrize("name", NAMES)
def test_span_counts_with_tiktoken_count_as_tiktoken(
    name: str, text: str, data: st.DataObject | None
) -> None:
    """What a split measures in CPython (``SpanCounts`` over the tiktoken tokenizer's
    caches) against tiktoken's count of each span's text."""
    spans = NATIVE[name].span_counts(text)
    ends = st.integers(0, len(text))
    pairs = [(0, len(text))]
    if data is not None:
        pairs += data.draw(st.lists(st.tuples(ends, ends).map(sorted), max_size=8))
    for start, end in pairs:
        assert spans.count(start, end) == tiktoken_count(name, text[start:end]), (start, end)
