"""Unknown characters in a BPE model with ``fuse_unk``: a run of them is one token that
ends where the run ends, as HF ``tokenizers`` cuts it."""

from __future__ import annotations

import json
import random

import pytest
import tokenizers
from tokenizers import models, pre_tokenizers

from chunker_py.tokenizers.hf import HfTokenizer, load_tokenizer_json

from .test_hf_unigram_parts import reference_ends as running_ends

pytestmark = pytest.mark.cpython_only  # Pyodide: HF tokenizers is native


def pair(fuse_unk: bool) -> tuple[tokenizers.Tokenizer, HfTokenizer]:
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3}
    tokenizer = tokenizers.Tokenizer(
        models.BPE(vocab=vocab, merges=[("a", "b")], unk_token="<unk>", fuse_unk=fuse_unk)
    )
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    text = tokenizer.to_str()
    return tokenizer, load_tokenizer_json(text.encode("utf-8"), "fused unknowns")


def reference_ends(reference: tokenizers.Tokenizer, text: str) -> list[int]:
    return [end for _start, end in reference.encode(text, add_special_tokens=False).offsets]


@pytest.mark.parametrize("fuse_unk", [True, False])
@pytest.mark.parametrize("text", ["axxxb", "xxab", "abxx", "xyz", "a x b", "xx yy ab"])
def test_unknown_runs_end_as_tokenizers_ends_them(fuse_unk: bool, text: str) -> None:
    reference, ours = pair(fuse_unk)
    expected = reference_ends(reference, text)
    assert ours.token_ends(text, merged=False) == expected
    assert ours.count(text) == len(expected)


def test_a_fused_run_is_one_token_ending_after_its_last_character() -> None:
    _reference, ours = pair(True)
    assert ours.token_ends("axxxb", merged=False) == [1, 4, 5]
    assert json.loads(pair(True)[0].to_str())["model"]["fuse_unk"] is True


@pytest.mark.parametrize("prefix", ["", "##"])
def test_characters_left_out_shift_the_ends_as_tokenizers_shifts_them(prefix: str) -> None:
    """With no unknown token, HF leaves out a character with no token, and its bytes: the
    offsets after it run on from where it stood ("x日ab": "ab" ends at 2), and so do ours."""
    vocab = {"a": 0, "b": 1, "ab": 2, "é": 3}
    if prefix:
        vocab.update({"##a": 4, "##b": 5, "##é": 6})
    options = {"continuing_subword_prefix": prefix} if prefix else {}
    reference = tokenizers.Tokenizer(
        models.BPE(vocab=vocab, merges=[("a", prefix + "b")], **options)
    )
    reference.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    ours = load_tokenizer_json(reference.to_str(), "characters left out")
    rng = random.Random(24)
    texts = ["x日ab a日b"]
    texts += [
        "".join(rng.choice("abé x日") for _ in range(rng.randrange(1, 10))) for _ in range(500)
    ]
    for text in texts:
        expected = [min(end, len(text)) for end in running_ends(reference, text)]
        assert ours.token_ends(text, merged=False) == expected, text
        assert ours.count(text) == len(expected)
    assert ours.token_ends("x日ab a日b", merged=False) == ([2, 7] if not prefix else [1, 2, 7])
