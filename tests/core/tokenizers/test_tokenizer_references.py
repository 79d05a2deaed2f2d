"""The tokenizers against the references themselves (CPython only: tiktoken, tokenizers).

Left out of the Pyodide run, which compares with tests/data/token_golden.json instead;
the first test here keeps that file equal to what the references say.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import example, given

from chunker_py.tokenizers import bpe, get_tokenizer
from chunker_py.tokenizers.data import decode_ranks, read_data
from sitebuild.tokendata import RANK_SHA256, encode_ranks

from ..token_corpus import TOKENIZER_NAMES, token_texts
from ..token_references import (
    GOLDEN,
    ROOT,
    golden,
    golden_json,
    reference_count,
    reference_ends,
    tiktoken_file,
)

pytestmark = pytest.mark.cpython_only  # Pyodide: tiktoken and HF tokenizers are native

pytest.importorskip("tiktoken")  # never skipped in CPython: requirements-test.txt pins it


def test_the_golden_file_is_what_the_references_say() -> None:
    assert GOLDEN.read_text("utf-8") == golden_json(golden()), (
        "regenerate with `python -m tests.core.token_references` and review the diff"
    )


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@given(text=token_texts)
@example(text="<|endoftext|>")
@example(text="[SEP]x[CLS]")
@example(text="\r\n\r\n  \n")
@example(text="a\u0898\u0301\u0899")
def test_counts_and_ends_equal_the_reference(name: str, text: str) -> None:
    tokenizer = get_tokenizer(name)
    assert tokenizer.count(text) == reference_count(name, text)
    assert tokenizer.token_ends(text) == reference_ends(name, text)


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_sampled_code_points_in_every_context_equal_the_reference(name: str) -> None:
    """A sample of tools/check_token_tables.py (which covers every code point)."""
    rng = random.Random(name)
    contexts = ["a{0}b", " {0}{0}", "1{0}'s", "\n{0} x", "A{0}a", "{0}\u0301z", "'{0}"]
    codes = [rng.randrange(0x110000) for _ in range(3000)] + list(range(0x2000, 0x3100))
    texts = [
        c.format(chr(code)) for code in codes if not 0xD800 <= code <= 0xDFFF for c in contexts
    ]
    tokenizer = get_tokenizer(name)
    wrong = [t for t in texts if tokenizer.count(t) != reference_count(name, t)]
    assert not wrong, f"{len(wrong)} of {len(texts)} differ: {wrong[:5]!r}"


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_the_user_guide_counts_like_the_reference(name: str) -> None:
    text = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
    assert get_tokenizer(name).count(text * 2) == reference_count(name, text * 2)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_the_packaged_rank_files_are_openais_bit_for_bit(name: str) -> None:
    ranks = decode_ranks(read_data(f"{name}.ranks", name))
    digest = hashlib.sha256(tiktoken_file(ranks)).hexdigest()
    assert digest == RANK_SHA256[name]  # the hash tiktoken itself checks
    assert decode_ranks(encode_ranks(list(ranks))) == ranks


def long_pieces() -> list[str]:
    """Texts of one or a few pieces of 600-10,000 bytes (small alphabets, digits, CJK,
    emoji)."""
    rng = random.Random(18)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    texts = [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(600, 4000)))
        for alphabet in [
            "ab",
            "abcdefghijklmnopqrstuvwxyz",
            "aeiourstln",
            "0123456789",
            "\u4e00\u4e8c\u4e09",
        ]
        for _ in range(2)
    ]
    texts += [family * 400, "\u00e9" * 3000, "x" * 5000, "ab" * 2500 + "\U0001f600" * 50]
    return texts


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_long_pieces_without_spaces_count_like_the_reference(name: str) -> None:
    """Long tasks: one piece of thousands of bytes goes through the heap merge (merge_long);
    its packed entries must order ties and stale parts exactly as tiktoken's scan."""
    texts = long_pieces()
    tokenizer = get_tokenizer(name)
    wrong = [t[:20] for t in texts if tokenizer.token_ends(t) != reference_ends(name, t)]
    assert not wrong, f"{len(wrong)} of {len(texts)} differ: {wrong!r}"


@pytest.mark.parametrize("name", sorted(bpe.PATTERNS))
def test_counting_in_steps_counts_like_the_reference(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long tasks: ``count_steps`` pauses inside a long piece's merges (here every
    few heap entries, so every pause point is crossed) and still counts as tiktoken does;
    afterwards the plain ``count`` and ``token_ends`` read the pieces it cached."""
    monkeypatch.setattr(bpe, "MERGE_STEP", 97)
    tokenizer = bpe.BpeTokenizer(name)  # its own caches: every piece is merged here
    texts = [*long_pieces(), "q" * 20_000]
    for text in texts:
        steps = tokenizer.count_steps(text)
        pauses = 0
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                counted = stop.value
                break
            pauses += 1
        if not text.isdigit():  # digits are pieces of three, merged without a heap
            assert pauses > 0, text[:20]
        assert counted == reference_count(name, text), text[:20]
        assert tokenizer.token_ends(text, merged=False)[-1] == len(text)
    assert pauses >= 20_000 // 97, "a 20,000-letter piece pauses every 97 heap entries"
    assert [tokenizer.count(t) for t in texts] == [reference_count(name, t) for t in texts]
