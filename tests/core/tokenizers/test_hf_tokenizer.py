"""tokenizer.json files read by chunker_py against HF tokenizers itself (CPython only).

Small tokenizers of each family are trained with `tokenizers` once per session (byte-level
BPE with GPT-2's, Llama 3's and Qwen 2's patterns, Metaspace + Unigram, WordPiece with
BertNormalizer cased and uncased, BPE with byte fallback, and one that chains the other
normalizers and pre-tokenizers), saved as tokenizer.json, read back by our reader, and
compared with `tokenizers` on the same texts: the count, and every token's end (HF's
offsets, made nondecreasing). Then the real all-MiniLM-L6-v2 tokenizer.json, then the
refusals.
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py.engine.errors import SettingError
from chunker_py.tokenizers.hf import HfTokenizer, load_tokenizer_json
from chunker_py.tokenizers.hf.pre_tokenizers import LLAMA3, QWEN2

from ..token_corpus import ATOMS, CORPUS, random_texts, token_texts
from ..token_references import TOKENIZER_JSON

tokenizers = pytest.importorskip("tokenizers")  # never skipped: requirements-test.txt pins it
from tokenizers import Regex, decoders, models, normalizers, pre_tokenizers, trainers  # noqa: E402

pytestmark = pytest.mark.cpython_only  # Pyodide: HF tokenizers and regex are native

ROOT = Path(__file__).resolve().parents[3]

# Scripts for the training text and the random texts: (first, last) code point ranges.
SCRIPTS = {
    "latin": [(0x61, 0x7A), (0xE0, 0xFF), (0x100, 0x17F)],
    "greek": [(0x3B1, 0x3C9), (0x391, 0x3A9)],
    "cyrillic": [(0x430, 0x44F), (0x410, 0x42F)],
    "arabic": [(0x627, 0x64A), (0x64B, 0x652)],
    "hebrew": [(0x5D0, 0x5EA)],
    "devanagari": [(0x915, 0x939), (0x93E, 0x94D)],
    "thai": [(0xE01, 0xE2E), (0xE31, 0xE3A)],
    "cjk": [(0x4E00, 0x4E80)],
    "kana": [(0x3041, 0x3096), (0x30A1, 0x30FA)],
    "hangul": [(0xAC00, 0xAD00), (0x1100, 0x1112), (0x1161, 0x1175)],
    "emoji": [(0x1F600, 0x1F64F), (0x1F3FB, 0x1F3FF)],
    "marks": [(0x300, 0x36F)],
}


def multilingual_lines(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        words = []
        for _ in range(rng.randrange(1, 12)):
            script = SCRIPTS[rng.choice(list(SCRIPTS))]
            first, last = rng.choice(script)
            words.append("".join(chr(rng.randint(first, last)) for _ in range(rng.randint(1, 7))))
        separators = [
            " ",
            " ",
            " ",
            ", ",
            ". ",
            "\n",
            "\r\n",
            "  ",
            "\t",
            "\u00a0",
            "\ufeff",
            "'s ",
        ]
        line = ""
        for word in words:
            line += word + rng.choice(separators)
        lines.append(line)
    return lines


def training_text() -> list[str]:
    guide = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8").splitlines()
    return guide + list(CORPUS.values()) + multilingual_lines(1500, seed=1)


SPECIALS = ["<unk>", "<s>", "</s>", "<|endoftext|>"]


def byte_level(split: pre_tokenizers.PreTokenizer | None, normalizer=None, prefix=False):
    tokenizer = tokenizers.Tokenizer(models.BPE())
    tokenizer.normalizer = normalizer
    if split is None:
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=prefix)
    else:
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
            [split, pre_tokenizers.ByteLevel(add_prefix_space=prefix, use_regex=False)]
        )
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    return tokenizer, trainer


def unigram(normalizer, pre_tokenizer):
    tokenizer = tokenizers.Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizer
    tokenizer.pre_tokenizer = pre_tokenizer
    trainer = trainers.UnigramTrainer(
        vocab_size=2500,
        special_tokens=["<pad>", "<unk>", "<s>", "</s>"],
        unk_token="<unk>",
        show_progress=False,
    )
    return tokenizer, trainer


def wordpiece(lowercase: bool):
    tokenizer = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=lowercase)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(
        vocab_size=500, special_tokens=["[UNK]", "[CLS]", "[SEP]", "[MASK]"], show_progress=False
    )
    return tokenizer, trainer


def byte_fallback(metaspace: bool):
    tokenizer = tokenizers.Tokenizer(
        models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True)
    )
    if metaspace:  # Mistral / Llama 2 as saved by recent transformers
        tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first", split=False)
    else:  # Llama 2 as first converted
        tokenizer.normalizer = normalizers.Sequence(
            [normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")]
        )
    trainer = trainers.BpeTrainer(
        vocab_size=500, special_tokens=["<unk>", "<s>", "</s>"], show_progress=False
    )
    return tokenizer, trainer


def kitchen_sink():
    """The components the families above leave out, chained."""
    tokenizer = tokenizers.Tokenizer(
        models.BPE(unk_token="<unk>", continuing_subword_prefix="##", end_of_word_suffix="</w>")
    )
    tokenizer.normalizer = normalizers.Sequence(
        [
            normalizers.Strip(),
            normalizers.NFKD(),
            normalizers.StripAccents(),
            normalizers.Lowercase(),
            normalizers.Replace(Regex("a{2,}"), "a"),
        ]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Whitespace(),
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.Punctuation("merged_with_previous"),
            pre_tokenizers.Split("-", "merged_with_next"),
        ]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=500,
        special_tokens=["<unk>"],
        continuing_subword_prefix="##",
        end_of_word_suffix="</w>",
        show_progress=False,
    )
    return tokenizer, trainer


def proto_fields(data: bytes):
    """(field number, value) of a protobuf message: ints for varints, bytes otherwise."""
    position = 0

    def varint() -> int:
        nonlocal position
        value, shift = 0, 0
        while True:
            byte = data[position]
            position += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while position < len(data):
        key = varint()
        wire = key & 7
        if wire == 0:
            yield key >> 3, varint()
        elif wire == 2:
            size = varint()
            yield key >> 3, data[position : position + size]
            position += size
        else:
            size = 4 if wire == 5 else 8
            yield key >> 3, data[position : position + size]
            position += size


def sentencepiece_unigram():
    """A SentencePiece model trained here (nmt_nfkc charsmap), converted as HF's
    converters do for XLM-RoBERTa: Precompiled + Replace, Metaspace, Unigram."""
    spm = pytest.importorskip("sentencepiece")  # never skipped: requirements-test.txt pins it
    written = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(training_text()), model_writer=written, vocab_size=2000,
        model_type="unigram", minloglevel=2, hard_vocab_limit=False,
    )  # fmt: skip
    vocab, unk_id, charsmap = [], 0, b""
    for number, value in proto_fields(written.getvalue()):
        if number == 1:  # a piece: 1 text, 2 score (float32), 3 type (2 = unknown)
            piece = dict(proto_fields(value))
            if piece.get(3) == 2:
                unk_id = len(vocab)
            vocab.append((piece[1].decode(), struct.unpack("<f", piece[2])[0]))
        elif number == 3:  # normalizer_spec: 2 precompiled_charsmap
            charsmap = dict(proto_fields(value))[2]
    tokenizer = tokenizers.Tokenizer(models.Unigram(vocab, unk_id=unk_id))
    tokenizer.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(charsmap), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    return tokenizer, None


def nfc_unigram():
    return unigram(
        normalizers.Sequence([normalizers.NFC(), normalizers.Replace(Regex(" {2,}"), " ")]),
        pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()]),
    )


FAMILIES = {
    "byte-level BPE (GPT-2)": lambda: byte_level(None, prefix=True),
    "byte-level BPE (Llama 3)": lambda: byte_level(pre_tokenizers.Split(Regex(LLAMA3), "isolated")),
    "byte-level BPE (Qwen 2, NFC)": lambda: byte_level(
        pre_tokenizers.Split(Regex(QWEN2), "isolated"), normalizers.NFC()
    ),
    "Metaspace + Unigram (NFKC)": lambda: unigram(
        normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]),
        pre_tokenizers.Metaspace(),
    ),
    "Unigram (NFC, WhitespaceSplit)": nfc_unigram,
    "SentencePiece Unigram (Precompiled nmt_nfkc)": sentencepiece_unigram,
    "WordPiece uncased": lambda: wordpiece(lowercase=True),
    "WordPiece cased": lambda: wordpiece(lowercase=False),
    "BPE byte fallback (Prepend + Replace)": lambda: byte_fallback(metaspace=False),
    "BPE byte fallback (Metaspace first)": lambda: byte_fallback(metaspace=True),
    "BPE kitchen sink": kitchen_sink,
}


def with_byte_tokens(data: dict) -> dict:
    """Add <0x00>..<0xFF> to a BPE vocabulary (SentencePiece models carry them)."""
    vocab = data["model"]["vocab"]
    for byte in range(256):
        vocab.setdefault(f"<0x{byte:02X}>", len(vocab))
    return data


@cache
def trained(family: str) -> tuple[tokenizers.Tokenizer, HfTokenizer]:
    """(the reference, ours), from one tokenizer.json trained here."""
    tokenizer, trainer = FAMILIES[family]()
    if trainer is not None:
        tokenizer.train_from_iterator(training_text(), trainer=trainer)
    if family.startswith("byte-level"):
        tokenizer.decoder = decoders.ByteLevel()
    data = json.loads(tokenizer.to_str())
    if "byte fallback" in family:
        data = with_byte_tokens(data)
    model = data["model"]
    if "Llama 3" in family:
        model["ignore_merges"] = True  # as Llama 3's own file
    if "GPT-2" in family:
        model["merges"] = [" ".join(pair) for pair in model["merges"]]  # the older format
    if family.startswith("Unigram (NFC"):
        model["byte_fallback"] = True
        model["vocab"] += [[f"<0x{byte:02X}>", -100.0] for byte in range(256)]
    data.setdefault("added_tokens", [])
    # added tokens with every flag: raw, normalized, single_word, lstrip, rstrip
    next_id = 100000
    for content, flags in [
        ("<|endoftext|>", {"special": True, "normalized": False}),
        ("[MARK]", {"special": True, "normalized": False, "lstrip": True, "rstrip": True}),
        ("Word", {"special": False, "normalized": True, "single_word": True}),
        ("xyz", {"special": False, "normalized": True}),
    ]:
        entry = {
            "id": next_id,
            "content": content,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": True,
            "special": False,
        }
        entry.update(flags)
        data["added_tokens"].append(entry)
        next_id += 1
    text = json.dumps(data, ensure_ascii=False)
    reference = tokenizers.Tokenizer.from_str(text)
    reference.no_padding()
    reference.no_truncation()
    return reference, load_tokenizer_json(text.encode("utf-8"), family)


def reference_ends(reference: tokenizers.Tokenizer, text: str) -> list[int]:
    ends, top = [], 0
    for _, end in reference.encode(text, add_special_tokens=False).offsets:
        top = max(top, end)
        ends.append(top)
    return ends


def assert_same(family: str, text: str) -> None:
    reference, ours = trained(family)
    expected = len(reference.encode(text, add_special_tokens=False).ids)
    assert ours.count(text) == expected, (family, text)
    assert ours.token_ends(text, merged=False) == reference_ends(reference, text), (family, text)


def fixed_texts() -> list[str]:
    texts = list(CORPUS.values()) + random_texts(300, seed=24) + multilingual_lines(300, seed=2)
    texts += [
        "",
        " ",
        "  x",
        "x  ",
        "\ufeffx",
        "Word Words aWord Word.",
        "  [MARK]  x",
        "a xyz XYZ",
        "<|endoftext|><|endoftext|>",
        "e\u0301\u0327 \u1e69\u0301 \u0344 \u0f73 \u212b",
    ]
    return texts


@pytest.mark.parametrize("family", FAMILIES)
def test_fixed_texts_count_and_end_as_tokenizers(family: str) -> None:
    for text in fixed_texts():
        assert_same(family, text)


multilingual = st.lists(
    st.one_of(
        st.sampled_from(ATOMS),
        st.sampled_from(
            SCRIPTS["latin"]
            + SCRIPTS["greek"]
            + SCRIPTS["marks"]
            + SCRIPTS["cjk"]
            + SCRIPTS["arabic"]
            + SCRIPTS["hangul"]
            + SCRIPTS["emoji"]
        ).flatmap(lambda r: st.integers(r[0], r[1]).map(chr)),
    ),
    max_size=25,
).map("".join)


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=100)
@given(text=st.one_of(token_texts, multilingual))
@example(text="\r\n\r\n  \n")
@example(text="a\u0301\u0323 Å ﬁ ①")
def test_random_texts_count_and_end_as_tokenizers(family: str, text: str) -> None:
    assert_same(family, text)


# ---------------------------------------------------------------- counting in blocks

# Families whose long texts are counted block by block (see hf/blocks.py; the kitchen
# sink's Strip strips the first block's left and the last block's right); the Prepend
# family is also tested without its single_word token.
# Every family is counted in blocks: the Prepend one's single_word token "Word" (normalized
# "▁Word") makes a block after the first count as following a word character.
IN_BLOCKS = list(FAMILIES)
PREPEND = "BPE byte fallback (Prepend + Replace), no single_word token"


# An rstrip added token ending with a Cyrillic letter: no cut after that letter.
RSTRIP = "Metaspace + Unigram (NFKC), rstrip token мир"


# A Strip normalizer before ByteLevel, where a block's leading space matters.
STRIPPED = "byte-level BPE (GPT-2), Strip normalizer"


@cache
def in_blocks(family: str) -> tuple[tokenizers.Tokenizer, HfTokenizer]:
    if family == STRIPPED:
        data = json.loads(trained("byte-level BPE (GPT-2)")[0].to_str())
        data["normalizer"] = {"type": "Strip", "strip_left": True, "strip_right": True}
        reference = tokenizers.Tokenizer.from_str(json.dumps(data))
        return reference, load_tokenizer_json(json.dumps(data), family)
    if family == RSTRIP:
        reference = tokenizers.Tokenizer.from_str(trained("Metaspace + Unigram (NFKC)")[0].to_str())
        reference.add_tokens([tokenizers.AddedToken("мир", rstrip=True, normalized=False)])
        return reference, load_tokenizer_json(reference.to_str(), family)
    if family != PREPEND:
        return trained(family)
    data = json.loads(trained("BPE byte fallback (Prepend + Replace)")[0].to_str())
    data["added_tokens"] = [t for t in data["added_tokens"] if not t["single_word"]]
    text = json.dumps(data, ensure_ascii=False)
    reference = tokenizers.Tokenizer.from_str(text)
    reference.no_padding()
    reference.no_truncation()
    return reference, load_tokenizer_json(text, family)


ascii_words = st.text("abcXYZ019.,;:!?'", min_size=1, max_size=6)
near_spaces = st.sampled_from(
    ["\u0301", "e\u0301", "\r\n", "\n", "  ", "\t", "\u00a0", "\ufeff", "[MARK]", "Word",
     "xyz", "<|endoftext|>", "'s", "1234", "\u2581", "。", "👩\u200d💻"]
)  # fmt: skip
long_texts = st.lists(
    st.one_of(ascii_words, ascii_words, near_spaces, token_texts, multilingual),
    min_size=20,
    max_size=60,
).map(" ".join)


def test_the_families_count_long_texts_in_blocks() -> None:
    assert [family for family in FAMILIES if trained(family)[1].in_blocks] == IN_BLOCKS
    assert in_blocks(PREPEND)[1].in_blocks
    assert in_blocks(STRIPPED)[1].in_blocks


@pytest.mark.parametrize("family", [*IN_BLOCKS, PREPEND, STRIPPED])
@settings(max_examples=30, deadline=None)
@given(text=long_texts, where=st.integers(0, 10**6), typed=st.sampled_from(["x", " ", "", ". A"]))
def test_long_texts_and_their_edits_count_as_tokenizers_in_blocks(
    family: str, text: str, where: int, typed: str
) -> None:
    """The blocks' counts add up to HF's count of the whole text, and so do they after a
    keystroke, when most blocks come from the cache."""
    reference, ours = in_blocks(family)
    position = where % (len(text) + 1)
    edited = text[:position] + typed + text[position + 1 :]
    for version in (text, edited):
        assert ours.count(version) == len(reference.encode(version, add_special_tokens=False).ids)


# Scripts with spaces between words: cut at a space between two letters of any script
# (hf/blocks.py's ``letters_safe`` and ``Cuts``). Letters that must not be cut at: ﷺ (its
# NFKC holds spaces), ำ (Thai, a SpacingMark letter), ൎ (Malayalam, a Prepend letter),
# Hangul jamo (L before, V after a space), CJK (BertNormalizer spaces it), ﬁ, İ, ǅ, ß, Ω.
def alphabet(*ranges: tuple[int, int]) -> list[str]:
    return [chr(c) for first, last in ranges for c in range(first, last + 1) if chr(c).isalpha()]


SPACED = {
    "cyrillic": alphabet((0x400, 0x45F), (0x490, 0x4FF)),
    "greek": alphabet((0x386, 0x3CE), (0x1F00, 0x1F15)),
    "arabic": [*alphabet((0x621, 0x64A), (0x671, 0x6D3)), "\u064e", "\u0651", "\u0670"],
    "devanagari": [*alphabet((0x905, 0x939)), "\u093e", "\u093f", "\u094d", "\u0902"],
    "hebrew": [*alphabet((0x5D0, 0x5EA)), "\u05b0", "\u05bc", "\u05c1"],
    "armenian": alphabet((0x531, 0x556), (0x561, 0x587)),
}
ODD_LETTERS = ["\ufdfa", "\u0e33", "\u0d4e", "\u1100", "\u1161", "\u11a8", "\u3131",
               "日", "本", "\ufb01", "\u0130", "\u01c5", "\u00df", "\u2126", "\u017f",
               "\u1e9b", "\uff21", "\u00aa", "\u02b0", "\u0345", "e\u0301", "\u0301"]  # fmt: skip
spaced_words = st.one_of(
    *[st.text(st.sampled_from(letters), min_size=1, max_size=8) for letters in SPACED.values()],
    st.lists(st.sampled_from(ODD_LETTERS), min_size=1, max_size=3).map("".join),
    st.sampled_from(["\u043c\u0438\u0440", "\u043c\u0438\u0440\u043e\u043c"]),  # мир, RSTRIP's
)
spaced_texts = st.lists(
    st.one_of(spaced_words, spaced_words, spaced_words, near_spaces), min_size=30, max_size=80
).map(" ".join)


def test_texts_of_spaced_scripts_are_cut_between_letters() -> None:
    """Not vacuous: a Cyrillic or Greek text is more than one block for every family."""
    words = ["Привет", "мир", "Καλημέρα", "κόσμε", "Ωραία"] * 40
    text = " ".join(words)
    for family in [*IN_BLOCKS, PREPEND, RSTRIP, STRIPPED]:
        assert len(in_blocks(family)[1].cuts.blocks(text)) > 10, family


@pytest.mark.parametrize("family", [*IN_BLOCKS, PREPEND, RSTRIP, STRIPPED])
@settings(max_examples=30, deadline=None)
@given(
    text=spaced_texts,
    where=st.integers(0, 10**6),
    typed=st.sampled_from(["x", " ", "", "ж", "\u0301", "ά", "\ufdfa", "\u0e33", "\u1161"]),
)
def test_long_texts_of_spaced_scripts_count_as_tokenizers_in_blocks(
    family: str, text: str, where: int, typed: str
) -> None:
    """Counted in blocks cut between letters of any script, a text and its edit count as
    HF counts them, and as the text counted whole (also with spaces at both ends, which
    the kitchen sink's Strip takes off the first and the last block only)."""
    reference, ours = in_blocks(family)
    position = where % (len(text) + 1)
    edited = text[:position] + typed + text[position + 1 :]
    for version in (text, edited, "\t  " + edited + " \n "):
        expected = len(reference.encode(version, add_special_tokens=False).ids)
        assert ours.count(version) == expected
        assert ours._count_whole(version) == expected


def test_a_block_after_a_word_does_not_start_a_single_word_token() -> None:
    """The Prepend family's single_word "Word" (normalized "▁Word") is not matched after a
    word in the text, so neither at the start of a block cut there; after "." it is, and
    no block starts there (its count as a continuation would differ)."""
    reference, ours = trained("BPE byte fallback (Prepend + Replace)")
    text = " ".join(["abc Word", "xyz. Word", "Wordy Word", "42 Word", "é Word"] * 12)
    with every_cut():
        blocks = ours.cuts.blocks(text)
        assert sum(block.startswith(" Word") for block in blocks) >= 24
        assert not any(before.endswith(".") for before in blocks[:-1])
        assert ours._count(text) == len(reference.encode(text, add_special_tokens=False).ids)


def test_a_letter_whose_image_holds_spaces_ends_no_block() -> None:
    """BertNormalizer puts spaces around 中; a later Replace of space runs then merges the
    space after its image with the cut's space in the whole text, not in a block that
    ends with it (with Metaspace, a lone ▁ piece more). So 中 ends no block, as ﷺ under
    NFKC would not, whatever the pre-tokenizer."""
    data = json.loads(trained("Metaspace + Unigram (NFKC)")[0].to_str())
    data["normalizer"] = {
        "type": "Sequence",
        "normalizers": [
            {"type": "BertNormalizer", "clean_text": False, "handle_chinese_chars": True,
             "strip_accents": False, "lowercase": False},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ],
    }  # fmt: skip
    reference = tokenizers.Tokenizer.from_str(json.dumps(data))
    ours = load_tokenizer_json(json.dumps(data), "spaced ideographs")
    assert ours.in_blocks
    words = ["мир", "中", "日本", "Ωραία", "\ufdfa", "word"]
    text = " ".join(words[(k * 5) % len(words)] for k in range(60))
    expected = len(reference.encode(text, add_special_tokens=False).ids)
    with every_cut():
        assert len(ours.cuts.blocks(text)) > 20
        assert ours._count(text) == expected


# Scripts without spaces: cut before non-ASCII punctuation after a letter, and between two
# CJK ideographs where BertNormalizer spaces them (hf/blocks.py's ``joins_safe``, ``Joins``).
JOINED = [
    "byte-level BPE (GPT-2)",
    "byte-level BPE (Llama 3)",
    "byte-level BPE (Qwen 2, NFC)",
    "WordPiece uncased",
    "WordPiece cased",
    "BPE kitchen sink",  # Strip and Replace "a{2,}" around the forms: cut where neither acts
]
NO_PREFIX = "byte-level BPE (GPT-2), no prefix space"
NFKC_WORDS = "WordPiece uncased, NFKC + Lowercase, Whitespace"
QWEN_NFKC = "byte-level BPE (Qwen 2), NFKC"
CJK_TOKENS = "WordPiece cased, added tokens 」「 and single_word 東京"
LLAMA_TOKEN = "byte-level BPE (Llama 3), added token 、東"
# A Replace whose literal crosses a cut ("好。" in the whole text, not in two blocks), one
# of kana with a quantifier after the forms, and a Strip between them.
KITCHEN_REPLACE = "BPE kitchen sink, Replace 好。 and ん{2,}, Strip inside"
JOIN_VARIANTS = [NO_PREFIX, NFKC_WORDS, QWEN_NFKC, CJK_TOKENS, LLAMA_TOKEN, KITCHEN_REPLACE]


@cache
def joined(family: str) -> tuple[tokenizers.Tokenizer, HfTokenizer]:
    if family in JOINED:
        return trained(family)
    base = {
        NO_PREFIX: "byte-level BPE (GPT-2)",
        NFKC_WORDS: "WordPiece uncased",
        QWEN_NFKC: "byte-level BPE (Qwen 2, NFC)",
        CJK_TOKENS: "WordPiece cased",
        LLAMA_TOKEN: "byte-level BPE (Llama 3)",
        KITCHEN_REPLACE: "BPE kitchen sink",
    }[family]
    data = json.loads(trained(base)[0].to_str())
    if family == NO_PREFIX:
        data["pre_tokenizer"]["add_prefix_space"] = False
    elif family == NFKC_WORDS:
        data["normalizer"] = {
            "type": "Sequence",
            "normalizers": [{"type": "NFKC"}, {"type": "Lowercase"}],
        }
        data["pre_tokenizer"] = {"type": "Whitespace"}
    elif family == QWEN_NFKC:
        data["normalizer"] = {"type": "NFKC"}
    elif family == KITCHEN_REPLACE:
        steps = data["normalizer"]["normalizers"]
        steps.insert(0, {"type": "Replace", "pattern": {"String": "好。"}, "content": "！"})  # noqa: RUF001
        steps.insert(3, {"type": "Strip", "strip_left": True, "strip_right": True})
        steps.append({"type": "Replace", "pattern": {"Regex": "ん{2,}"}, "content": "ン"})
    reference = tokenizers.Tokenizer.from_str(json.dumps(data))
    reference.no_padding()
    reference.no_truncation()
    if family == CJK_TOKENS:
        reference.add_tokens(
            [
                tokenizers.AddedToken("」「", normalized=False),
                tokenizers.AddedToken("東京", single_word=True, normalized=False),
            ]
        )
    elif family == LLAMA_TOKEN:
        reference.add_tokens([tokenizers.AddedToken("、東", normalized=True)])
    return reference, load_tokenizer_json(reference.to_str(), family)


def letters(*ranges: tuple[int, int]) -> list[str]:
    return [chr(c) for first, last in ranges for c in range(first, last + 1)]


UNSPACED = {
    "ideographs": [*letters((0x4E00, 0x4E2F), (0x6771, 0x6771), (0x4EAC, 0x4EAC)), "\uf900",
                   "\uf9dc", "\U00020000", "\u3400"],
    "kana": [*letters((0x3041, 0x3096), (0x30A1, 0x30FA)), "\u3099", "\u309a", "\uff76",
             "\uff9e", "\u30fc"],
    "hangul": [*letters((0xAC00, 0xAC10), (0x1100, 0x1102), (0x1161, 0x1163)), "\u11a8"],
    "thai": [*letters((0x0E01, 0x0E30)), "\u0e31", "\u0e33", "\u0e48", "\u0e40"],
}  # fmt: skip
PUNCTUATION = [*"。、，．！？：；「」『』（）【】・…〜《》", "\uff01", "\uff0e",  # noqa: RUF001
    "\u3000", "\u2019", "\u00b7", "\u0e2f", "\u0e5a", "\uff61", "\u2026", "\u02bc"]  # fmt: skip
unspaced_words = st.one_of(
    *[st.text(st.sampled_from(chars), min_size=1, max_size=10) for chars in UNSPACED.values()],
    st.text(st.sampled_from(PUNCTUATION), min_size=1, max_size=2),
    st.text(st.sampled_from(PUNCTUATION), min_size=1, max_size=2),
    st.sampled_from(["東京", "」「", "、東", "\uff21\uff11", "\uff41", "x", "'s", "42", "[MARK]",
                     "Word", "<|endoftext|>", "\u0301", "\ufeff", "\u200d", "e\u0301", " ",
                     "\r\n"]),
)  # fmt: skip
unspaced_texts = st.lists(unspaced_words, min_size=30, max_size=120).map("".join)


def test_texts_without_spaces_are_cut_where_their_pieces_end() -> None:
    """Not vacuous: a Japanese or Chinese text without a space is more than 10 blocks for
    the families whose pre-tokenizer ends a piece at its punctuation (or, WordPiece,
    between ideographs), and one block for the others (Metaspace, WhitespaceSplit, no
    pre-tokenizer)."""
    text = "今日は天気がいいので、公園に行きました。友達に会って、昼ご飯を食べました！" * 20  # noqa: RUF001
    for family in [*JOINED, *JOIN_VARIANTS]:
        assert len(joined(family)[1].cuts.blocks(text)) > 10, family
    for family in FAMILIES:
        if family not in JOINED:
            _, ours = trained(family)
            assert not ours.in_blocks or len(ours.cuts.blocks(text)) == 1, family
    chinese = "我们今天去公园散步然后在湖边吃了午饭天气很好大家都很开心" * 20
    for family in ("WordPiece uncased", "WordPiece cased", CJK_TOKENS):
        assert len(joined(family)[1].cuts.blocks(chinese)) > 10, family


@pytest.mark.parametrize("family", [*JOINED, *JOIN_VARIANTS])
@settings(max_examples=30, deadline=None)
@given(
    text=unspaced_texts,
    where=st.integers(0, 10**6),
    typed=st.sampled_from(["x", "", "。", "中", "\u3099", "\uff9e", "\uff01", " ", "東", "、"]),
)
def test_texts_without_spaces_count_as_tokenizers_in_blocks(
    family: str, text: str, where: int, typed: str
) -> None:
    """Cut before punctuation and between ideographs, a text of CJK, kana, Hangul or Thai
    and its edit count as HF counts them, and as the text counted whole; also with blocks
    of one code point at least, so that every cut the rules accept is made (and with spaces
    at both ends, which a Strip takes off the first and the last block only)."""
    reference, ours = joined(family)
    position = where % (len(text) + 1)
    edited = text[:position] + typed + text[position + 1 :]
    for version in (text, edited, " \u3000" + edited + "\r\n "):
        expected = len(reference.encode(version, add_special_tokens=False).ids)
        assert ours.count(version) == expected
        assert ours._count_whole(version) == expected
        with every_cut():
            assert ours._count(version) == expected, ours.cuts.blocks(version)


def test_a_replace_that_crosses_a_cut_finds_a_difference_unless_refused() -> None:
    """Not vacuous: with ``Joins`` ignoring the Strip and Replace steps, the kitchen sink
    with a Replace of "好。" cuts between 好 and 。 and counts differently from HF."""
    from chunker_py.tokenizers.hf import blocks

    reference, _ = joined(KITCHEN_REPLACE)
    text = "天気がいいので、公園に行きました。とても好。大好き！んんん。" * 30  # noqa: RUF001
    expected = len(reference.encode(text, add_special_tokens=False).ids)
    with every_cut():
        ours = load_tokenizer_json(reference.to_str(), "rules kept")
        assert len(ours.cuts.blocks(text)) > 50  # at 、 and ！, never next to 。  # noqa: RUF003
        assert ours._count(text) == expected
        with patch.object(blocks, "_untouched", lambda step, image: True):
            weakened = load_tokenizer_json(reference.to_str(), "rules weakened")
            assert weakened._count(text) != expected


@contextmanager
def every_cut() -> Iterator[None]:
    """Blocks of at least one code point: a text is cut at every place the rules accept."""
    from chunker_py.tokenizers.hf import blocks, tokenizer

    with patch.object(blocks, "BLOCK", 1), patch.object(tokenizer, "BLOCK", 1):
        yield


# ---------------------------------------------------------------- the real BERT file


@cache
def real_bert() -> tuple[tokenizers.Tokenizer, HfTokenizer]:
    assert TOKENIZER_JSON.is_file(), "run `python build.py` to extract the reference"
    reference = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    reference.no_padding()
    reference.no_truncation()
    return reference, load_tokenizer_json(TOKENIZER_JSON.read_bytes(), "all-MiniLM-L6-v2")


@settings(max_examples=200)
@given(text=st.one_of(token_texts, multilingual))
def test_the_real_bert_file_counts_as_tokenizers(text: str) -> None:
    reference, ours = real_bert()
    assert ours.count(text) == len(reference.encode(text, add_special_tokens=False).ids)
    assert ours.token_ends(text, merged=False) == reference_ends(reference, text)


def test_the_real_bert_file_counts_as_the_built_in_wordpiece() -> None:
    from chunker_py.tokenizers import get_tokenizer

    built_in = get_tokenizer("wordpiece")
    _, ours = real_bert()
    for text in fixed_texts():
        assert ours.count(text) == built_in.count(text)


# ---------------------------------------------------------------- refusals


def bert_json() -> dict:
    return json.loads(TOKENIZER_JSON.read_bytes())


def refused(data: bytes | str) -> str:
    with pytest.raises(SettingError) as caught:
        load_tokenizer_json(data, "x")
    assert caught.value.field == "tokenizer_file"
    return caught.value.message


def test_a_truncated_file_is_refused() -> None:
    data = TOKENIZER_JSON.read_bytes()
    assert "not JSON" in refused(data[: len(data) // 2])


def test_a_file_that_is_not_json_is_refused() -> None:
    assert "not JSON" in refused(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert "no model" in refused(b'{"vocab": {"a": 1}}')


def test_an_unknown_model_type_is_refused() -> None:
    data = bert_json()
    data["model"]["type"] = "WordLevel"
    assert "'WordLevel'" in refused(json.dumps(data))


def test_an_unsupported_normalizer_is_refused() -> None:
    data = bert_json()
    data["normalizer"] = {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Nmt"}]}
    assert "normalizer 'Nmt'" in refused(json.dumps(data))
    data["normalizer"] = {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "}
    assert "'\\\\s+'" in refused(json.dumps(data))


def test_an_unsupported_split_pattern_is_refused() -> None:
    data = bert_json()
    data["pre_tokenizer"] = {
        "type": "Split",
        "pattern": {"Regex": "\\p{L}+"},
        "behavior": "Isolated",
        "invert": False,
    }
    message = refused(json.dumps(data))
    assert "Split pattern '\\\\p{L}+'" in message and "Llama 3" in message


def test_a_200_mb_file_is_refused_before_it_is_parsed() -> None:
    message = refused(b" " * 200_000_000)
    assert "200 MB" in message


def test_bpe_dropout_is_refused() -> None:
    reference, _ = trained("byte-level BPE (GPT-2)")
    data = json.loads(reference.to_str())
    data["model"]["dropout"] = 0.1
    assert "dropout" in refused(json.dumps(data))


# ---------------------------------------------------------------- the command line


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        capture_output=True, cwd=ROOT, check=False, timeout=120,
    )  # fmt: skip


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hf") / "note.md"
    path.write_text("\n\n".join(v for k, v in CORPUS.items() if k != "controls"), "utf-8")
    return path


@pytest.mark.subprocess
def test_the_cli_sizes_in_the_file_s_tokens_as_the_built_in_wordpiece(document: Path) -> None:
    """The real BERT file counts like the built-in `wordpiece`: same chunks, same tokens."""
    args = ["--size-unit", "tokens", "--size", "40", "--overlap", "8"]
    from_file = cli(str(document), *args, "--tokenizer-file", str(TOKENIZER_JSON))
    built_in = cli(str(document), *args, "--tokenizer", "wordpiece")
    assert from_file.returncode == built_in.returncode == 0, from_file.stderr
    records = [json.loads(line) for line in from_file.stdout.splitlines()]
    expected = [json.loads(line) for line in built_in.stdout.splitlines()]
    assert len(records) > 5
    for record, other in zip(records, expected, strict=True):
        assert record["settings"].pop("tokenizer") == "file:wordpiece_tokenizer.json"
        other["settings"].pop("tokenizer")
        assert record == other


@pytest.mark.subprocess
def test_the_cli_token_window_cuts_at_the_file_s_token_ends(document: Path, tmp_path: Path) -> None:
    reference, _ = trained("Metaspace + Unigram (NFKC)")
    path = tmp_path / "unigram.json"
    path.write_text(reference.to_str(), "utf-8")
    result = cli(str(document), "--mode", "token-window", "--size", "7", "--overlap", "0",
                 "--tokenizer-file", str(path))  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = document.read_text("utf-8")
    ends = reference_ends(reference, text)
    starts = [json.loads(line)["start"] for line in result.stdout.splitlines()]
    # every window after the first starts where the reference's 7th, 14th... token ends
    # (or later, when a token ends inside a character or whitespace is trimmed)
    assert len(starts) == -(-len(ends) // 7)
    for window, start in enumerate(starts[1:], 1):
        assert start >= ends[7 * window - 1]


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda p: p.write_bytes(b'{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ['),
            "not JSON",
        ),
        (lambda p: os.truncate(p, 200 * 1024 * 1024), "210 MB"),
        (lambda p: p.write_text('{"model": {"type": "WordLevel", "vocab": {}}}'), "'WordLevel'"),
    ],
)
def test_the_cli_refuses_a_bad_file_with_exit_2(
    document: Path, tmp_path: Path, make, message: str
) -> None:
    path = tmp_path / "tokenizer.json"
    path.touch()
    make(path)
    result = cli(str(document), "--tokenizer-file", str(path))
    assert result.returncode == 2 and result.stdout == b""
    assert message in result.stderr.decode()


@pytest.mark.subprocess
def test_the_cli_takes_one_tokenizer_setting(document: Path) -> None:
    result = cli(
        str(document), "--tokenizer", "o200k_base", "--tokenizer-file", str(TOKENIZER_JSON)
    )
    assert result.returncode == 2 and b"not both" in result.stderr


# ---------------------------------------------------------------- links


@pytest.mark.usefixtures("restored_registry")
def test_a_link_names_a_file_tokenizer_and_falls_back_visibly_where_it_is_not_loaded() -> None:
    from chunker_py import Settings, add_tokenizer_json
    from chunker_py.config.links import settings_from_fragment, settings_to_fragment

    name = add_tokenizer_json(TOKENIZER_JSON.read_bytes(), "my-model.json")
    fragment = settings_to_fragment(Settings(tokenizer=name))
    assert "tok=file%3Amy-model.json" in fragment and "vocab" not in fragment
    loaded, notes = settings_from_fragment(fragment)  # here the file is loaded
    assert loaded.tokenizer == name and notes == []
    other, notes = settings_from_fragment(fragment.replace("my-model", "other-model"))
    assert other.tokenizer == "cl100k_base"
    assert len(notes) == 1 and "'other-model.json', which is not loaded" in notes[0]


@pytest.mark.usefixtures("restored_registry")
def test_a_second_file_of_the_same_name_gets_its_own_tokenizer() -> None:
    from chunker_py import add_tokenizer_json, get_tokenizer

    bert = TOKENIZER_JSON.read_bytes()
    reference, _ = trained("WordPiece cased")
    first = add_tokenizer_json(bert, "tokenizer.json")
    again = add_tokenizer_json(bert, "tokenizer.json")
    second = add_tokenizer_json(reference.to_str(), "tokenizer.json")
    assert first == again == "file:tokenizer.json"
    assert second == "file:tokenizer.json (2)"
    assert get_tokenizer(first).count("Hello WORLD") != get_tokenizer(second).count("Hello WORLD")


def test_the_golden_file_of_small_tokenizers_is_what_tokenizers_says() -> None:
    """tests/data/hf_golden.json, which the Pyodide run compares the reader with."""
    from ..hf_golden import HF_GOLDEN, reference_results

    stored = json.loads(HF_GOLDEN.read_text("utf-8"))
    assert len(stored) >= 6
    for family, entry in stored.items():
        counts, ends = reference_results(json.dumps(entry["tokenizer.json"]))
        assert (counts, ends) == (entry["counts"], entry["ends"]), (
            f"{family}: regenerate with `python -m tests.core.hf_golden` and review the diff"
        )
