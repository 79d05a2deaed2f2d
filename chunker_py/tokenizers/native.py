"""cl100k_base and o200k_base counted by the tiktoken package: CPython's default when
tiktoken is installed (the command line's ``--tiktoken``; ``--no-tiktoken`` and the page
count in pure Python).

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
from itertools import compress, repeat
from operator import is_
from typing import Any

from .bpe import BpeTokenizer, SpanCounts, tiktoken_text

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
        # the same count without the Python wrapper, which only mends lone surrogates
        # (``tiktoken_text`` does it first here); the wrapper where a tiktoken lacks it
        self._encode_valid = getattr(
            getattr(encoding, "_core_bpe", None), "encode_ordinary", self._encode
        )

    def _count_text_steps(self, text: str) -> Generator[int, None, int]:
        """A whole text's count by tiktoken, in one step. The pure tokenizer's word-by-word
        counts (``BpeTokenizer._count_words_steps``) come first: tiktoken counts only the
        words not yet counted and the texts not cut into words, so ``--tiktoken`` keeps
        the word caches (without them it took 1.10x the pure counts' CPU)."""
        return len(self._encode(tiktoken_text(text)))
        yield  # a generator that returns at once

    def span_counts(self, text: str) -> SpanCounts:
        """Counts of the spans of ``text`` from its words (``SpanCounts``): in CPython a
        split measures every piece and chunk of a text, so its words are looked up once."""
        return SpanCounts(self, text)

    def _fill_word_counts_steps(
        self, words: list[str], counts: list[int | None]
    ) -> Generator[int, None, list[int]]:
        """The words not yet cached counted by tiktoken in one C-level pass (a corpus
        brings tens of thousands of new words: a generator step each took longer than
        tiktoken's counting)."""
        missing = dict.fromkeys(compress(words, map(is_, counts, repeat(None))))
        spaced = list(map(" ".__add__, missing))
        try:
            "".join(missing).encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates, which tiktoken_text mends
            found = [len(self._encode(tiktoken_text(text))) for text in spaced]
        else:
            found = list(map(len, map(self._encode_valid, spaced)))
        known = dict(zip(missing, found, strict=True))
        self._cache_words(known)
        return list(map(known.get, words, counts))  # type: ignore[arg-type]
        yield  # a generator that returns at once
