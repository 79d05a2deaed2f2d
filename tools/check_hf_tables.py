#!/usr/bin/env python3
"""Compare the tokenizer.json reader's components with HF tokenizers around every code point.

Dev-only and slow (minutes; the tests check samples of the same):

    python tools/check_hf_tables.py

Every code point is put in contexts (alone, after a letter, before and after combining
marks of several classes, doubled, after an apostrophe or a space) and each normalizer
(NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, BertNormalizer cased and uncased) and each
pre-tokenizer that splits by character class (the three Split patterns, ByteLevel,
Whitespace, WhitespaceSplit, BertPreTokenizer, Punctuation, Digits) must give what
`tokenizers` gives: the same text, and the same pieces.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tokenizers import Regex, normalizers, pre_tokenizers  # noqa: E402

from chunker_py.tokenizers.hf import normalizers as ours  # noqa: E402
from chunker_py.tokenizers.hf import pre_tokenizers as ours_pre  # noqa: E402

CONTEXTS = ["{0}", "a{0}", "{0}\u0301", "a\u0327{0}\u0301", "{0}\u0334\u0300", "{0}{0}",
            "'{0}", " {0}\u1161\u11a8", "\u1100{0}"]  # fmt: skip
CODE_POINTS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
SEPARATOR = "\n"  # every checked component keeps a newline alone or as a space

NORMALIZERS = {
    "NFC": (normalizers.NFC(), ours.Form("NFC")),
    "NFD": (normalizers.NFD(), ours.Form("NFD")),
    "NFKC": (normalizers.NFKC(), ours.Form("NFKC")),
    "NFKD": (normalizers.NFKD(), ours.Form("NFKD")),
    "Lowercase": (normalizers.Lowercase(), ours.Lowercase()),
    "StripAccents": (normalizers.StripAccents(), ours.StripAccents()),
    # (Precompiled: SentencePiece's nmt_nfkc, trained on the spot; see precompiled())
    "BertNormalizer uncased": (
        normalizers.BertNormalizer(lowercase=True),
        ours.BertNormalizer(clean=True, chinese=True, strip=True, lowercase=True),
    ),
    "BertNormalizer cased": (
        normalizers.BertNormalizer(lowercase=False),
        ours.BertNormalizer(clean=True, chinese=True, strip=False, lowercase=False),
    ),
}
PRE_TOKENIZERS = {
    "Split GPT-2": pre_tokenizers.Split(Regex(ours_pre.GPT2), "isolated"),
    "Split Llama 3": pre_tokenizers.Split(Regex(ours_pre.LLAMA3), "isolated"),
    "Split Qwen 2": pre_tokenizers.Split(Regex(ours_pre.QWEN2), "isolated"),
    "ByteLevel": pre_tokenizers.ByteLevel(add_prefix_space=False),
    "Whitespace": pre_tokenizers.Whitespace(),
    "WhitespaceSplit": pre_tokenizers.WhitespaceSplit(),
    "BertPreTokenizer": pre_tokenizers.BertPreTokenizer(),
    "Punctuation": pre_tokenizers.Punctuation(),
    "Digits": pre_tokenizers.Digits(individual_digits=False),
}


def precompiled() -> tuple[object, object]:
    """SentencePiece's nmt_nfkc charsmap, from a model the tests train."""
    from tests.core.tokenizers.test_hf_tokenizer import sentencepiece_unigram

    reference = sentencepiece_unigram()[0].normalizer
    charsmap = json.loads(sentencepiece_unigram()[0].to_str())["normalizer"]["normalizers"][0]
    mine = ours.read_normalizer(charsmap)
    return reference, mine


def check_normalizer(name: str) -> int:
    if name == "Precompiled":
        reference, mine = precompiled()
    else:
        reference, mine = NORMALIZERS[name]
    bad = 0
    for context in CONTEXTS:
        for cp in CODE_POINTS:
            text = context.format(chr(cp))
            if reference.normalize_str(text) != mine.apply(text, None)[0]:
                bad += 1
                if bad <= 5:
                    print(f"  {name}: differs on {text!a}")
    return bad


def check_pre_tokenizer(name: str) -> int:
    reference = PRE_TOKENIZERS[name]
    spec = {"type": name.split()[0]} if not name.startswith("Split") else None
    if spec is None:
        pattern = {"GPT-2": ours_pre.GPT2, "Llama 3": ours_pre.LLAMA3, "Qwen 2": ours_pre.QWEN2}
        mine = ours_pre.RegexSplit(pattern[name.split(" ", 1)[1]], "isolated", False)
    elif name == "ByteLevel":
        mine = ours_pre.ByteLevel(add_prefix_space=False, use_regex=True)
    else:
        mine = ours_pre.read_pre_tokenizer(spec)
    assert mine is not None
    bad = 0
    for context in CONTEXTS:
        for cp in CODE_POINTS:
            text = context.format(chr(cp))
            expected = [piece for piece, _ in reference.pre_tokenize_str(text)]
            got = [piece for piece, _, _ in mine.split([(text, None, 0)])]
            if expected != got:
                bad += 1
                if bad <= 5:
                    print(f"  {name}: differs on {text!a}: {expected} != {got}")
    return bad


def main() -> int:
    failures = 0
    checks = [(n, check_normalizer) for n in [*NORMALIZERS, "Precompiled"]]
    checks += [(n, check_pre_tokenizer) for n in PRE_TOKENIZERS]
    for name, check in checks:
        if sys.argv[1:] and name not in sys.argv[1:]:
            continue
        began = time.perf_counter()
        bad = check(name)
        texts = len(CONTEXTS) * len(CODE_POINTS)
        print(f"{name}: {texts} texts, {bad} differ ({time.perf_counter() - began:.0f} s)")
        failures += bad
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
