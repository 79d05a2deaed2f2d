"""Hugging Face ``tokenizer.json`` files, read in pure Python and counted exactly.

Covered: normalizers NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, Replace,
Prepend, BertNormalizer, Precompiled (SentencePiece's charsmap) and Sequence;
pre-tokenizers ByteLevel, Metaspace, Whitespace, WhitespaceSplit, BertPreTokenizer,
Punctuation, Digits, CharDelimiterSplit, Split (literal strings, and the regexes of GPT-2,
Llama 3 and Qwen 2/3) and Sequence; models BPE (with or without byte fallback), WordPiece
and Unigram; added tokens with their single_word / lstrip / rstrip / normalized flags.
Anything else is refused with a message naming it, never counted approximately.
"""

from __future__ import annotations

from typing import Any

# Imported on first use (the page's start-up snapshot leaves these modules out; build.py
# SNAPSHOT_LAZY): this package itself imports nothing.
__all__ = [
    "FIELD",
    "MAX_BYTES",
    "HfTokenizer",
    "check_tokenizer_size",
    "load_tokenizer_json",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import tokenizer

        return getattr(tokenizer, name)
    raise AttributeError(name)
