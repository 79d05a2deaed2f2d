"""cl100k_base and o200k_base counted by the tiktoken package: the command line's
``--tiktoken`` (CPython, when tiktoken is installed; never the default, never the page's).

Only counts change hands: ``NativeBpeTokenizer`` is the pure ``BpeTokenizer`` whose
whole-text count (``_count_text_steps``, what a text or a word not yet counted needs) asks
tiktoken's ``encode_ordinary``, built from the same rank file and tiktoken's own split
patterns (``tiktoken_ext.openai_public``'s, written out here: calling it would download the
ranks). Token ends (Token window mode, sizes in tokens) stay pure Python.
tests/core/tokenizers/test_native.py checks that both count as tiktoken does on the whole
text, on the repository's documents and on Hypothesis texts.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .bpe import BpeTokenizer, tiktoken_text

_CONTRACTIONS = "(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
PATTERNS = {
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",  # noqa: E501
    "o200k_base": "|".join(
        [
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
            + _CONTRACTIONS,
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
            + _CONTRACTIONS,
            r"\p{N}{1,3}",
            r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
            r"\s*[\r\n]+",
            r"\s+(?!\S)",
            r"\s+",
        ]
    ),
}


class NativeBpeTokenizer(BpeTokenizer):
    """A tiktoken encoding whose counts tiktoken makes (its ranks read once, shared)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        import tiktoken

        ranks = self.load()[1]
        encoding: Any = tiktoken.Encoding(
            f"{name} (chunker_py)", pat_str=PATTERNS[name], mergeable_ranks=ranks,
            special_tokens={},
        )  # fmt: skip
        self._encode = encoding.encode_ordinary

    def _count_text_steps(self, text: str) -> Generator[int, None, int]:
        """A whole text's count by tiktoken, in one step. The pure tokenizer's word-by-word
        counts (``BpeTokenizer._count_words_steps``) come first: tiktoken counts only the
        words not yet counted and the texts not cut into words, so ``--tiktoken`` keeps
        the word caches (without them it took 1.10x the pure counts' CPU)."""
        return len(self._encode(tiktoken_text(text)))
        yield  # a generator that returns at once
