"""Long Unigram pieces counted in parts (``Unigram.parts``) and long segments normalized
in chunks (``blocks.Chunks``), against HF tokenizers and against one Viterbi over the
whole piece.

CJK text has no spaces, so for Metaspace + Unigram pipelines (XLM-RoBERTa, multilingual-e5,
BGE-M3) a paragraph is one piece. The vocabularies here are built, not trained: every
score is one of a few decimals (0.1 + 0.2 is not 0.3 in floating point), so near ties are
everywhere, and whether a part solved from 0 keeps HF's path (solved from the score of the
path before it) is tested where it is hardest. Some pieces hold punctuation and the
character after it, so some candidate cuts are refused; some characters are not in the
vocabulary (unknown, fused, or bytes with byte fallback).
"""

# ruff: noqa: RUF001, RUF003 (CJK punctuation is the point)
from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py.tokenizers.hf import load_tokenizer_json
from chunker_py.tokenizers.hf.blocks import CHUNK
from chunker_py.tokenizers.hf.unigram_model import Unigram

tokenizers = pytest.importorskip("tokenizers")  # never skipped: requirements-test.txt pins it

pytestmark = pytest.mark.cpython_only  # Pyodide: HF tokenizers is native

SENTENCES = [
    "今日は天気がいいので、公園に行きました。",
    "そこで友達に会って、一緒に昼ご飯を食べました！",
    "我们今天去公园散步，然后在湖边吃了午饭。",
    "天气很好，大家都很开心？",
    "東京の地下鉄は便利ですが、朝はとても混んでいます。",
    "한국어 문장도 조금 있습니다.",
    "Mixed 文字 and ｆｕｌｌ ｗｉｄｔｈ ①②。",
]
SCORES = [-0.1, -0.2, -0.3, -0.6, -0.7, -1.1, -2.3, -3.4, -0.4, -0.5]
MISSING = set("昼散混")  # unknown characters (not pieces of their own)


@cache
def vocabulary(seed: int = 5) -> list[list[object]]:
    rng = random.Random(seed)
    text = "".join(SENTENCES)
    chars = sorted(set(text) - MISSING - {" "})
    pieces: dict[str, float] = {"<unk>": 0.0, "\u2581": -1.0}
    for char in chars:
        pieces.setdefault(char, rng.choice(SCORES))
    for sentence in SENTENCES:
        for length in (2, 3, 4):
            for start in range(len(sentence) - length + 1):
                if rng.random() < 0.6:
                    piece = sentence[start : start + length].replace(" ", "\u2581")
                    pieces.setdefault(piece, rng.choice(SCORES) * rng.choice([1, 2, 3]))
    # pieces across punctuation: the cuts after 、 and after ， before some characters go
    for piece in ("、公", "、一", "，然", "。そ", "。我", "！天"):
        pieces[piece] = -0.3
    return [[piece, score] for piece, score in pieces.items()]


@cache
def precompiled_normalizer() -> dict:
    from .test_hf_tokenizer import trained

    reference, _ = trained("SentencePiece Unigram (Precompiled nmt_nfkc)")
    return json.loads(reference.to_str())["normalizer"]


NORMALIZERS = {
    "none": lambda: None,
    "NFKC + Replace": lambda: {
        "type": "Sequence",
        "normalizers": [
            {"type": "NFKC"},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ],
    },
    "Precompiled + Replace": precompiled_normalizer,
}
PIPELINES = [(name, fallback) for name in NORMALIZERS for fallback in (False, True)]


@cache
def pipeline(normalizer: str, byte_fallback: bool):
    vocab = list(vocabulary())
    if byte_fallback:
        vocab += [[f"<0x{byte:02X}>", -5.0] for byte in range(256)]
    spec = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": NORMALIZERS[normalizer](),
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                          "prepend_scheme": "always", "split": True},
        "post_processor": None,
        "decoder": None,
        "model": {"type": "Unigram", "unk_id": 0, "vocab": vocab, "byte_fallback": byte_fallback},
    }  # fmt: skip
    data = json.dumps(spec, ensure_ascii=False)
    reference = tokenizers.Tokenizer.from_str(data)
    return reference, load_tokenizer_json(data, "parts")


@pytest.fixture(autouse=True, scope="module")
def built() -> None:
    """Every pipeline built before Hypothesis runs (training the Precompiled one's model
    inside a test that Hypothesis drives is refused as a nested @given)."""
    for normalizer, byte_fallback in PIPELINES:
        pipeline(normalizer, byte_fallback)


def reference_ends(reference, text: str) -> list[int]:
    ends, top = [], 0
    for _, end in reference.encode(text, add_special_tokens=False).offsets:
        top = max(top, end)
        ends.append(top)
    return ends


def one_pass(model: Unigram, word: str) -> tuple[int, ...]:
    """The whole word through one Viterbi from 0 (as HF), no parts."""
    return model._ends(word, model.spans(word))


long_texts = st.lists(
    st.one_of(
        st.sampled_from(SENTENCES),
        st.text(alphabet="".join(SENTENCES) + "昼散混\u3000", min_size=1, max_size=30),
        # composed by NFKC across what would be a chunk's edge: kana and a voicing mark,
        # conjoining jamo, a letter and an accent
        st.sampled_from(["か\u3099", "\u1100\u1161\u11a8", "e\u0301", "\u3000\u3000 "]),
    ),
    min_size=4,
    max_size=40,
).map("".join)


def test_long_texts_are_cut_and_some_parts_are_solved_again() -> None:
    """The rules are exercised: a long piece makes many parts, some candidate cuts are
    refused (a piece crosses them), and near ties make some parts unsafe from 0."""
    _, ours = pipeline("none", False)
    model = ours.model
    rng = random.Random(3)
    word = "\u2581" + "".join(rng.choice(SENTENCES[:5]) for _ in range(400))
    assert model.count(word) == len(one_pass(model, word))  # the parts now cached
    cuts = model.cuts(word)
    assert len(cuts) > 40
    after = {word[end - 1 : end + 1] for _, end in cuts[:-1]}
    assert not after & {"、公", "、一", "，然", "。そ", "。我", "！天"}
    assert any(word[i : i + 2] == "、公" for i in range(len(word)))
    unsafe = [
        (start, end)
        for start, end in cuts
        if start and model._parts[word[start:end]].gap <= model.rounding(start, end - start)
    ]
    assert unsafe, "no near tie: the test does not exercise the fallback"


@pytest.mark.parametrize(("normalizer", "byte_fallback"), PIPELINES)
@settings(max_examples=60, deadline=None)
@given(
    text=long_texts, where=st.integers(0, 10**6), typed=st.sampled_from(["x", "今", "。", "", "昼"])
)
def test_long_cjk_texts_and_their_edits_count_as_tokenizers(
    normalizer: str, byte_fallback: bool, text: str, where: int, typed: str
) -> None:
    reference, ours = pipeline(normalizer, byte_fallback)
    position = where % (len(text) + 1)
    edited = text[:position] + typed + text[position + 1 :]
    for version in (text, edited):  # the edit counted with the first text's parts cached
        expected = len(reference.encode(version, add_special_tokens=False).ids)
        assert ours.count(version) == expected, (normalizer, byte_fallback, version)
        assert ours.token_ends(version, merged=False) == reference_ends(reference, version)


@settings(max_examples=300, deadline=None)
@given(
    sentences=st.lists(st.integers(0, len(SENTENCES) - 1), min_size=20, max_size=300),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from("今日天。、昼x")), max_size=5),
)
def test_parts_keep_the_one_pass_path_under_edits(
    sentences: list[int], edits: list[tuple[int, str]]
) -> None:
    """The model alone, on long words with many parts (far from the start, where rounding
    of the base is largest): the parts' tokens are one Viterbi's over the whole word."""
    for normalizer, byte_fallback in (("none", False), ("none", True)):
        model = pipeline(normalizer, byte_fallback)[1].model
        word = "\u2581" + "".join(SENTENCES[i] for i in sentences)
        for where, char in [(0, ""), *edits]:
            at = where % len(word)
            word = word[:at] + char + word[at + 1 :]
            assert model.tokenize(word) == one_pass(model, word)
            assert model.count(word) == len(one_pass(model, word))


@pytest.mark.parametrize(("normalizer", "byte_fallback"), PIPELINES)
@pytest.mark.parametrize("joined", ["か\u3099", "\u1100\u1161\u11a8", "e\u0301", "\u3000\u3000"])
def test_what_the_normalizer_joins_is_never_cut(
    normalizer: str, byte_fallback: bool, joined: str
) -> None:
    """A sequence the normalizer composes (or whose spaces Replace joins) at every offset
    around where a chunk could end."""
    reference, ours = pipeline(normalizer, byte_fallback)
    for before in range(CHUNK - 10, CHUNK + 10):
        text = "今日" * (before // 2) + "は" * (before % 2) + joined + "天気" * 200
        expected = len(reference.encode(text, add_special_tokens=False).ids)
        assert ours.count(text) == expected, (normalizer, byte_fallback, text)


@pytest.mark.parametrize("name", ["RUST_SPACE", "PUNCTUATION", "NUMERIC"])
def test_the_delimiter_regexes_are_their_tables(name: str) -> None:
    """WhitespaceSplit, Punctuation and Digits find their delimiters with a regex made of
    the frozen table (a CJK paragraph then costs no class code per character): the same
    code points as the table, every one of them."""
    from chunker_py.tokenizers.hf import unicode_data as ud
    from chunker_py.tokenizers.hf.pre_tokenizers import table_class
    from chunker_py.tokenizers.hf.tables import RangeSet

    table = getattr(ud, name)
    members, pattern = RangeSet(table), table_class(table)
    matched = {m.start() for m in pattern.finditer("".join(map(chr, range(0x110000))))}
    assert len(matched) > 10
    assert matched == {code for code in range(0x110000) if code in members}
