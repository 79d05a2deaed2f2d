"""A tokenizer.json loaded in steps (a 17 MB file must not freeze typing).

The stepped JSON parser must read exactly what ``json.loads`` reads (and refuse what it
refuses); scores must be read as serde_json reads them (HF tokenizers' own reading, got
back through ``to_str``); a load yields often and registers nothing until it ends.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py import TOKENIZERS
from chunker_py.engine.errors import SettingError
from chunker_py.engine.steps import finish
from chunker_py.stepwise import add_tokenizer_json_in_steps
from chunker_py.tokenizers.hf.json_steps import (
    EVERY,
    json_text,
    json_text_in_steps,
    parse_in_steps,
)
from chunker_py.tokenizers.hf.tables import serde_float


def drained(text: str | bytes) -> object:
    steps = parse_in_steps(json_text(text))
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def reference(text: str | bytes) -> object:
    return json.loads(text, parse_float=serde_float)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(json_values, st.sampled_from([None, 1, 2]))
def test_the_stepped_parser_reads_what_json_loads_reads(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert drained(text) == reference(text)
    assert drained(text.encode("utf-8")) == reference(text.encode("utf-8"))


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]


@settings(max_examples=200, deadline=None)
@given(
    st.text(min_size=1).map(lambda t: json.dumps(t, ensure_ascii=False)),
    st.sampled_from(ENCODINGS),
    st.integers(1, 9),
)
def test_decoding_in_slices_reads_what_one_decode_reads(
    text: str, encoding: str, slice_bytes: int
) -> None:
    """Slices of 1-9 bytes cut multi-byte characters and surrogate pairs anywhere: the
    stepped decode gives json.loads's text (bytes decoded whole, as json.loads does)."""
    data = text.encode(encoding, "surrogatepass")
    steps = json_text_in_steps(data, slice_bytes)
    assert finish(steps) == data.decode(json.detect_encoding(data), "surrogatepass")
    assert json.loads(finish(json_text_in_steps(data, slice_bytes))) == json.loads(data)
    pauses = sum(1 for _ in json_text_in_steps(data, slice_bytes))
    assert pauses == -(-len(data) // slice_bytes) - 1


@pytest.mark.parametrize("data", [b'"\xff"', b'"a\xc3"', '"\u00e9"'.encode("utf-8")[:-1] + b"\xc3"])
def test_decoding_in_slices_refuses_what_one_decode_refuses(data: bytes) -> None:
    with pytest.raises(ValueError):
        json.loads(data)
    for slice_bytes in (1, 2, 1 << 20):
        with pytest.raises(ValueError):
            finish(json_text_in_steps(data, slice_bytes))


BROKEN = [
    "",
    " ",
    "{",
    '{"a": 1,}',
    '{"a" 1}',
    '{"a": 1 "b": 2}',
    "[1, 2,]",
    "[1 2]",
    '{"model": [1, 2',
    '{"a": 1} x',
    "{a: 1}",
    '{"a": [[1, 2], [3, ]]}',
    "\ufeff{}",
    '{"a": "\x01"}',
]


@pytest.mark.parametrize("text", BROKEN)
def test_the_stepped_parser_refuses_what_json_loads_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        reference(text)
    with pytest.raises(ValueError):
        drained(text)


@example("0.5")
@example("-15.4419269212589083")  # serde_json reads it an ulp away from Python
@example("1234567890123456789.5")  # 20 digits: one dropped
@example("1e-7")
@settings(max_examples=120, deadline=None)
@given(
    st.builds(
        lambda sign, whole, fraction, exponent: f"{sign}{whole}.{fraction}{exponent}",
        st.sampled_from(["", "-"]),
        st.integers(0, 10**12).map(str),
        st.text("0123456789", min_size=1, max_size=24),
        st.sampled_from(["", "e-3", "E5", "e0"]),
    )
)
def test_scores_are_read_as_hf_tokenizers_reads_them(literal: str) -> None:
    tokenizers = pytest.importorskip("tokenizers")  # never skipped: requirements-test.txt
    text = (
        '{"version": "1.0", "model": {"type": "Unigram", "unk_id": 0, '
        f'"vocab": [["<unk>", 0.0], ["a", {literal}]]}}}}'
    )
    saved = json.loads(tokenizers.Tokenizer.from_str(text).to_str())
    assert serde_float(literal) == saved["model"]["vocab"][1][1]


def big_vocabulary_file(entries: int) -> str:
    vocab = [["<unk>", 0.0], *([f"w{i}", -1.0 - i / 7] for i in range(entries))]
    spec = {"model": {"type": "Unigram", "unk_id": 0, "vocab": vocab}, "normalizer": None}
    return json.dumps(spec, indent=2)


def test_a_large_vocabulary_yields_progress_often_and_in_order() -> None:
    text = big_vocabulary_file(5 * EVERY)
    fractions = list(parse_in_steps(text))
    assert len(fractions) >= 5
    assert fractions == sorted(fractions)
    assert fractions[0] > 0 and fractions[-1] < 1


@pytest.mark.usefixtures("restored_registry")
def test_a_load_dropped_half_way_registers_nothing() -> None:
    data = big_vocabulary_file(3 * EVERY).encode("utf-8")
    steps = add_tokenizer_json_in_steps(data, "dropped.json")
    next(steps)
    steps.close()
    assert "file:dropped.json" not in TOKENIZERS
    steps = add_tokenizer_json_in_steps(data, "dropped.json")
    try:
        while True:
            next(steps)
    except StopIteration as done:
        assert done.value == "file:dropped.json"
    assert "file:dropped.json" in TOKENIZERS


def test_a_broken_file_in_steps_is_refused_with_the_reader_s_message() -> None:
    steps = add_tokenizer_json_in_steps(b'{"model": {"type": "Unigram", "vocab": [', "bad.json")
    with pytest.raises(SettingError, match="not JSON"):
        list(steps)


STEPPED = [
    "Metaspace + Unigram (NFKC)",
    "Unigram (NFC, WhitespaceSplit)",
    "SentencePiece Unigram (Precompiled nmt_nfkc)",
    "byte-level BPE (GPT-2)",
    "byte-level BPE (Llama 3)",
]


@pytest.mark.cpython_only  # the reference (HF tokenizers) is native
@pytest.mark.parametrize("family", STEPPED)
def test_a_model_built_and_released_in_small_steps_counts_as_tokenizers(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Steps of 7 pieces, merges and freed list items: every step boundary of the model's
    build (a Unigram's lowest score and longest pieces carried across them) and of the
    parsed lists' release is crossed many times, and the counts stay tokenizers'."""
    from chunker_py.tokenizers.hf import bpe_model, tokenizer, unigram_model
    from tests.core.tokenizers.test_hf_tokenizer import fixed_texts, trained

    reference, _ = trained(family)
    data = reference.to_str().encode("utf-8")
    for module, step in (
        (unigram_model, "BUILD_STEP"),
        (bpe_model, "MERGE_STEP"),
        (tokenizer, "RELEASE_STEP"),
    ):
        monkeypatch.setattr(module, step, 7)
    pauses = sum(1 for _ in tokenizer.load_in_steps(data, family))
    ours = finish(tokenizer.load_in_steps(data, family))
    model = json.loads(data)["model"]
    assert pauses > len(model["merges"] if "merges" in model else model["vocab"]) // 7 > 20
    if model["type"] == "Unigram":  # HF's unknown score: the lowest score less 10
        assert ours.model.unk_score == min(score for _, score in model["vocab"]) - 10
    for text in fixed_texts()[::3]:
        assert ours.count(text) == len(reference.encode(text, add_special_tokens=False).ids), text
