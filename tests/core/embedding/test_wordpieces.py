"""The model's input ids: ``wordpieces.encode`` equals HF ``tokenizers`` with the model's
tokenizer.json and sentence-transformers' truncation (256 with [CLS] and [SEP]), on the
tokenizers' stress texts, random texts and real documents; a text over the window is
counted in ``unseen_word_pieces`` (BAD-INPUT 34: truncated, never an error)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py.embedding import MAX_WORD_PIECES
from chunker_py.embedding.wordpieces import CLS, SEP, encode, unseen_word_pieces

from ..token_corpus import CORPUS, token_texts

tokenizers = pytest.importorskip("tokenizers")  # never skipped in CPython: requirements-test.txt

ROOT = Path(__file__).resolve().parents[3]
TOKENIZER_JSON = ROOT / ".cache" / "token-reference" / "wordpiece_tokenizer.json"


@cache
def reference() -> tokenizers.Tokenizer:
    """The model's tokenizer.json as sentence-transformers calls it: truncation at 256."""
    assert TOKENIZER_JSON.is_file(), "run `python build.py` to extract the reference"
    tokenizer = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_WORD_PIECES)
    return tokenizer


def reference_ids(text: str) -> list[int]:
    return list(reference().encode(text).ids)


def real_texts() -> list[str]:
    """Paragraphs of the repository's own documents (prose, Markdown, code)."""
    texts = []
    for name in ("user_guide.txt", "markdown-it-py-README.md", "annotated-types-README.md"):
        document = (ROOT / "tests" / "data" / name).read_text("utf-8")
        texts.extend(p for p in document.split("\n\n") if p.strip())
    return texts


@given(text=token_texts)
@example(text="")
@example(text="[SEP]x[CLS]")
@example(text="\ufeff")
def test_encode_equals_the_reference(text: str) -> None:
    assert encode(text) == reference_ids(text)


@settings(max_examples=60)
@given(
    words=st.lists(
        st.sampled_from(["a", "word", "日本", "😀", "[SEP]", "x" * 120, "é!"]),
        min_size=100,
        max_size=400,
    )
)
def test_long_texts_are_truncated_like_the_reference(words: list[str]) -> None:
    text = " ".join(words)
    assert encode(text) == reference_ids(text)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_stress_texts_equal_the_reference(name: str) -> None:
    assert encode(CORPUS[name]) == reference_ids(CORPUS[name])


def test_real_paragraphs_and_whole_documents_equal_the_reference() -> None:
    texts = real_texts()
    assert len(texts) > 100
    for text in texts:
        assert encode(text) == reference_ids(text), text[:80]
    whole = "\n\n".join(texts)
    assert encode(whole) == reference_ids(whole)
    assert len(encode(whole)) == MAX_WORD_PIECES


def test_unseen_word_pieces_are_what_truncation_drops() -> None:
    """BAD-INPUT 34: a text over the window is embedded truncated and its unseen word
    pieces are counted; one that fits loses none."""
    untruncated = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    untruncated.no_truncation()
    untruncated.no_padding()
    for text in ["short", "word " * 254, "word " * 255, "\n\n".join(real_texts())]:
        full = len(untruncated.encode(text).ids)
        assert unseen_word_pieces(text) == max(0, full - MAX_WORD_PIECES)
        assert encode(text)[0] == CLS and encode(text)[-1] == SEP
