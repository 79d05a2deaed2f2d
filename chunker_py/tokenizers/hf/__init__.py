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

from .tokenizer import FIELD, MAX_BYTES, HfTokenizer, check_tokenizer_size, load_tokenizer_json

__all__ = [
    "FIELD",
    "MAX_BYTES",
    "HfTokenizer",
    "check_tokenizer_size",
    "load_tokenizer_json",
]
