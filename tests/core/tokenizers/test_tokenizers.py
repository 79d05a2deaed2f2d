"""The pure-Python tokenizers, in CPython and inside Pyodide (no reference needed here).

tests/data/token_golden.json holds the references' counts and token ends for a mixed
corpus; test_tokenizer_references.py (CPython) recomputes it with tiktoken and HF
tokenizers, so both runs are tied to the references.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import ChunkerError, SettingError
from chunker_py.tokenizers import TOKENIZERS, get_tokenizer
from chunker_py.tokenizers.bpe import merge_long, merge_short
from chunker_py.tokenizers.data import read_data

from ..token_corpus import TOKENIZER_NAMES, token_texts

GOLDEN = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "token_golden.json").read_text("utf-8")
)
BPE = ["cl100k_base", "o200k_base"]


def test_the_registry_names_every_tokenizer_once() -> None:
    assert list(TOKENIZERS) == TOKENIZER_NAMES
    assert all(get_tokenizer(name).name == name for name in TOKENIZERS)
    assert get_tokenizer("wordpiece") is get_tokenizer("wordpiece")  # one cached instance


def test_an_unknown_tokenizer_is_a_setting_error() -> None:
    with pytest.raises(SettingError) as caught:
        get_tokenizer("gpt2")
    assert caught.value.field == "tokenizer"
    assert "cl100k_base" in caught.value.message


def test_missing_data_says_to_run_the_build() -> None:
    with pytest.raises(ChunkerError, match=r"python build\.py"):
        read_data("no_such_encoding.ranks", "no_such_encoding")


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_counts_equal_the_references_on_the_golden_corpus(name: str) -> None:
    tokenizer = get_tokenizer(name)
    wrong = [
        (text[:40], tokenizer.count(text), expected)
        for text, expected in zip(GOLDEN["texts"], GOLDEN["counts"][name], strict=True)
        if tokenizer.count(text) != expected
    ]
    assert not wrong, f"{len(wrong)} of {len(GOLDEN['texts'])} differ: {wrong[:5]}"


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_token_ends_equal_the_references_on_the_golden_corpus(name: str) -> None:
    tokenizer = get_tokenizer(name)
    wrong = [
        text[:40]
        for text, expected in zip(GOLDEN["texts"], GOLDEN["ends"][name], strict=True)
        if tokenizer.token_ends(text) != expected
    ]
    assert not wrong, f"{len(wrong)} of {len(GOLDEN['texts'])} differ: {wrong[:5]}"


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@given(text=token_texts)
@example(text="")
@example(text="\ufeff")
def test_token_ends_are_increasing_offsets_and_never_outnumber_the_count(
    name: str, text: str
) -> None:
    tokenizer = get_tokenizer(name)
    ends = tokenizer.token_ends(text)
    assert ends == sorted(set(ends))
    assert all(0 < end <= len(text) for end in ends)
    assert len(ends) <= tokenizer.count(text)
    every = tokenizer.token_ends(text, merged=False)  # one end per token
    assert len(every) == tokenizer.count(text)
    assert sorted(set(every)) == ends
    if name in BPE:
        # byte-level BPE covers every byte, so the last token ends at the end
        assert ends[-1:] == ([len(text)] if text else [])
        if text.isascii():
            assert len(ends) == tokenizer.count(text)


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@given(text=token_texts)
def test_the_count_cache_never_changes_a_count(name: str, text: str) -> None:
    tokenizer = get_tokenizer(name)
    first = tokenizer.count(text)
    tokenizer._counts = type(tokenizer._counts)(4096)  # forget every cached count
    assert tokenizer.count(text) == first


@pytest.mark.parametrize("name", BPE)
@given(data=st.data())
def test_the_heap_merge_equals_tiktokens_scan_merge(name: str, data: st.DataObject) -> None:
    ranks = get_tokenizer(name).load()[1]  # type: ignore[attr-defined]
    text = data.draw(token_texts)
    piece = (text * 4).encode("utf-8", "surrogatepass")[:400]
    assert merge_long(piece, ranks) == merge_short(piece, ranks)
