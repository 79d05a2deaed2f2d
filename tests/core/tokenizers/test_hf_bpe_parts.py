"""Long BPE pieces counted in parts (``Bpe.parts``) against HF tokenizers and against one
merge pass over the whole piece.

BPE with byte fallback behind Metaspace (split off) or Prepend (Llama 2, Mistral) makes a
CJK paragraph one piece. The vocabularies here are built, not trained: tokens cross
punctuation (so some candidate cuts must be refused), some characters have no token
(bytes, or unknown, fused or not, when byte tokens are missing), and variants carry a
continuing-subword prefix, an end-of-word suffix, ignore_merges, or byte tokens that merge
(then no cut is allowed). The last tests weaken each rule of ``Bpe.cut_ok`` and check that
these texts then find a difference: the comparisons can fail.
"""

# ruff: noqa: RUF001 (CJK punctuation is the point)
from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py.tokenizers.hf import load_tokenizer_json
from chunker_py.tokenizers.hf.bpe_model import BPE_PART, Bpe

from .test_hf_unigram_parts import SENTENCES as UNIGRAM_SENTENCES
from .test_hf_unigram_parts import reference_ends

tokenizers = pytest.importorskip("tokenizers")  # never skipped: requirements-test.txt pins it

pytestmark = pytest.mark.cpython_only  # Pyodide: HF tokenizers is native

SENTENCES = [*UNIGRAM_SENTENCES[:5], "Mixed 文字 and text 。"]
# No token of their own: bytes, or (where a byte token is missing) unknown. 昼, 散 and 「
# come out as bytes either way, 混 and 」 as unknown when bytes are missing; the brackets
# are punctuation, so a cut may stand next to them.
MISSING = set("昼散混「」")
CROSSING = ["、公", "、一", "，然", "。そ", "。我", "！天", "。東京", "ました。", "そこ"]
PREFIX, SUFFIX = "##", "</w>"


@cache
def spec(variant: str) -> str:
    """A tokenizer.json: ``variant`` names the pipeline and the model's options."""
    rng = random.Random(24)
    prefix = PREFIX if "prefix" in variant else ""
    text = "".join(SENTENCES).replace(" ", "\u2581")
    chars = [*sorted(set(text) - MISSING), "\u2581", "x"]
    vocab: dict[str, int] = {"<unk>": 0}
    merges: list[list[str]] = []

    def add(token: str) -> None:
        vocab.setdefault(token, len(vocab))

    for char in chars:
        add(char)
        if prefix:
            add(prefix + char)
        if "suffix" in variant:
            add(char + SUFFIX)
            if prefix:
                add(prefix + char + SUFFIX)
    targets = list(CROSSING)
    for sentence in SENTENCES:
        sentence = sentence.replace(" ", "\u2581")
        for length in (2, 3, 4):
            for start in range(len(sentence) - length + 1):
                if rng.random() < 0.3:
                    targets.append(sentence[start : start + length])
    rng.shuffle(targets)
    for target in targets:
        if set(target) & MISSING:
            continue
        for heads in ("", prefix) if prefix else ("",):
            left = heads + target[0]
            for char in target[1:]:
                right = prefix + char
                joined = left + char
                if joined not in vocab:
                    add(joined)
                    merges.append([left, right])
                left = joined
    if "missing bytes" not in variant:
        for byte in range(256):
            add(f"<0x{byte:02X}>")
    else:
        for byte in range(0x80, 0x100):
            if byte % 3:
                add(f"<0x{byte:02X}>")
    if "merging bytes" in variant:
        add("<0xE6><0x98>")
        merges.append(["<0xE6>", "<0x98>"])
    model = {
        "type": "BPE", "dropout": None, "unk_token": "<unk>",
        "continuing_subword_prefix": prefix or None,
        "end_of_word_suffix": SUFFIX if "suffix" in variant else None,
        "fuse_unk": "unfused" not in variant, "byte_fallback": True,
        "ignore_merges": "ignore_merges" in variant, "vocab": vocab, "merges": merges,
    }  # fmt: skip
    if "Prepend" in variant:
        normalizer = {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "\u2581"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
        ]}  # fmt: skip
        pre = None
    else:
        normalizer = None
        pre = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first",
               "split": "split" in variant}  # fmt: skip
    return json.dumps(
        {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
         "normalizer": normalizer, "pre_tokenizer": pre, "post_processor": None,
         "decoder": None, "model": model},
        ensure_ascii=False,
    )  # fmt: skip


VARIANTS = [
    "Metaspace",
    "Prepend",
    "Metaspace missing bytes",
    "Metaspace missing bytes unfused",
    "Prepend prefix suffix",
    "Metaspace prefix missing bytes",
    "Metaspace split prefix suffix",  # HF's offsets of one piece run into the next
    "Metaspace ignore_merges",
    "Metaspace merging bytes",
]


@cache
def pipeline(variant: str):
    data = spec(variant)
    reference = tokenizers.Tokenizer.from_str(data)
    return reference, load_tokenizer_json(data, "parts")


def assert_same(variant: str, text: str) -> None:
    reference, ours = pipeline(variant)
    expected = len(reference.encode(text, add_special_tokens=False).ids)
    assert ours.count(text) == expected, (variant, text)
    # HF's offsets run on in token order by each symbol's length: a pending unknown comes
    # after the bytes of the characters that follow it, and a prefixed or suffixed
    # character's byte tokens count the prefix's or suffix's bytes too, so they may run
    # past the text's end, where ``token_ends`` stops them.
    expected = reference_ends(reference, text)
    clipped = [min(end, len(text)) for end in expected]
    assert ours.token_ends(text, merged=False) == clipped, (variant, text)
    assert ours.hf_token_ends(text) == expected, (variant, text)


def seeded_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = "".join(SENTENCES) + "昼散混x「」"
    texts = []
    for _ in range(count):
        parts = []
        while sum(map(len, parts)) < rng.randrange(2 * BPE_PART, 12 * BPE_PART):
            if rng.random() < 0.7:
                parts.append(rng.choice(SENTENCES))
            else:
                parts.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 20))))
        texts.append("".join(parts))
    return texts


def test_long_texts_are_cut_and_crossing_tokens_refuse_cuts() -> None:
    """The rules are exercised: a long word makes many parts, a candidate cut inside a
    token that crosses punctuation is refused, and with byte tokens that merge none is made."""
    _, ours = pipeline("Metaspace")
    model = ours.model
    assert isinstance(model, Bpe) and model.cuttable()
    word = "\u2581" + "".join(SENTENCES[i % 5] for i in range(300))
    cuts = model.cuts(word)
    assert len(cuts) > 20
    assert not any(model.cut_ok(pair) for pair in ("、公", "。そ", "！天", "そこ"))
    assert all(word[end - 1 : end + 1] not in CROSSING for _, end in cuts[:-1])
    merging = pipeline("Metaspace merging bytes")[1].model
    assert isinstance(merging, Bpe) and not merging.cuttable()
    for variant in VARIANTS[:-1]:
        model = pipeline(variant)[1].model
        assert isinstance(model, Bpe) and model.cuttable(), variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_long_texts_and_edits_count_as_tokenizers(variant: str) -> None:
    rng = random.Random(7)
    for text in seeded_texts(11, 25):
        assert_same(variant, text)
        for _ in range(6):  # edits with the text's parts cached
            at = rng.randrange(len(text))
            typed = rng.choice(["x", "今", "。", "", "昼", "、", " ", "公"])
            text = text[:at] + typed + text[at + (rng.random() < 0.7) :]
            assert_same(variant, text)


long_texts = st.lists(
    st.one_of(
        st.sampled_from(SENTENCES + CROSSING),
        st.text(alphabet="".join(SENTENCES) + "昼散混x「」", min_size=1, max_size=30),
    ),
    min_size=8,
    max_size=60,
).map("".join)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None)
@given(
    text=long_texts, where=st.integers(0, 10**6), typed=st.sampled_from(["x", "今", "。", "", "昼"])
)
def test_long_cjk_texts_and_their_edits_count_as_tokenizers(
    variant: str, text: str, where: int, typed: str
) -> None:
    position = where % (len(text) + 1)
    for version in (text, text[:position] + typed + text[position + 1 :]):
        assert_same(variant, version)


@pytest.mark.parametrize("variant", VARIANTS)
def test_short_texts_end_their_tokens_where_tokenizers_does(variant: str) -> None:
    """HF's offsets on short texts, where they often run past a piece's end: into the
    next piece (Metaspace split), to the text's end, or past it (then as raw bytes)."""
    rng = random.Random(24)
    alphabet = "今日は昼散混x「」 。公"
    texts = ["昼", "x昼", "混昼今", "a 昼昼 b", "」公。 日", "散 x昼公", "昼は今は 昼"]
    texts += [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12))) for _ in range(400)
    ]
    past = 0
    for text in texts:
        assert_same(variant, text)
        past += pipeline(variant)[1].hf_token_ends(text)[-1:] > [len(text)]
    # with bytes missing, "#" has no byte token: a prefixed character is unknown instead
    assert (past > 0) == ("suffix" in variant), past


def whole(model: Bpe, word: str) -> tuple[int, ...]:
    return model._merged(word, True, True)


@settings(max_examples=200, deadline=None)
@given(
    sentences=st.lists(st.integers(0, len(SENTENCES) - 1), min_size=10, max_size=200),
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from("今日天。、昼xそ公")), max_size=5
    ),
)
def test_parts_are_one_merge_pass_under_edits(
    sentences: list[int], edits: list[tuple[int, str]]
) -> None:
    for variant in ("Metaspace", "Metaspace missing bytes", "Prepend prefix suffix"):
        model = pipeline(variant)[1].model
        assert isinstance(model, Bpe)
        word = "\u2581" + "".join(SENTENCES[i] for i in sentences)
        for where, char in [(0, ""), *edits]:
            at = where % len(word)
            word = word[:at] + char + word[at + 1 :]
            assert model.tokenize(word) == whole(model, word)
            assert model.count(word) == len(whole(model, word))


# ------------------------------------------------------------ the rules can fail


def mismatches(variant: str, weakened) -> int:
    """How many seeded texts a fresh copy of the model, with ``weakened`` as its cut
    rule, counts differently from HF."""
    reference, _ = pipeline(variant)
    ours = load_tokenizer_json(spec(variant), "weakened")
    model = ours.model
    assert isinstance(model, Bpe) and model.cuttable()
    model.cut_ok = lambda pair: weakened(model, pair)  # type: ignore[method-assign]
    texts = seeded_texts(11, 25) + [
        "\u2581" + "天" * k + joined + "天" * (2 * BPE_PART)
        for k in range(BPE_PART - 4, BPE_PART + 4)
        for joined in ("混」", "混混」", "混「", "」「")  # unknowns fused across the cut
    ]
    bad = 0
    for text in texts:
        if ours.count(text) != len(reference.encode(text, add_special_tokens=False).ids):
            bad += 1
    return bad


def no_vocabulary_check(model: Bpe, pair: str) -> bool:
    return DROP_KIND not in (model._kind(pair[0]), model._kind(pair[1]))


DROP_KIND = "drop"


def no_pending_rule(model: Bpe, pair: str) -> bool:
    x, y = model._kind(pair[0]), model._kind(pair[1])
    return not (x == y == "hit" and pair in model._adjacent)


def test_without_the_vocabulary_check_the_counts_differ() -> None:
    assert mismatches("Metaspace", no_vocabulary_check) > 0


def test_without_the_pending_unknown_rule_the_counts_differ() -> None:
    assert mismatches("Metaspace missing bytes", no_pending_rule) > 0


def test_the_rules_as_written_find_no_difference_on_the_same_texts() -> None:
    assert mismatches("Metaspace missing bytes", Bpe.cut_ok) == 0
    assert mismatches("Metaspace", Bpe.cut_ok) == 0
