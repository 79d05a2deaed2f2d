"""A deterministic stand-in for the embedding model in the core's tests: hashed bag of words.

Each case-folded run of word characters adds ±1 to one of ``DIMENSIONS`` coordinates
(both chosen by a CRC-32 of the word), plus a constant first coordinate so that a text
without words still has a direction; the vector is then scaled to unit length. Texts with
the same words have the same vector whatever their whitespace, so LangChain's windows
(sentences joined with single spaces) and Semantic mode's (verbatim ranges) embed alike.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Sequence

DIMENSIONS = 24
_WORD = re.compile(r"\w+")


def hashed_vector(text: str) -> tuple[float, ...]:
    vector = [0.0] * DIMENSIONS
    vector[0] = 1.0
    for word in _WORD.findall(text.casefold()):
        code = zlib.crc32(word.encode("utf-8", "surrogatepass"))
        vector[1 + code % (DIMENSIONS - 1)] += 1.0 if code & 0x80000000 else -1.0
    norm = math.sqrt(math.fsum(x * x for x in vector))
    return tuple(x / norm for x in vector)


class HashedEmbedder:
    """``chunker_py.embedding.Embedder`` over ``hashed_vector``; counts the texts asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.asked.extend(texts)
        return [hashed_vector(text) for text in texts]

    # LangChain's Embeddings interface, for SemanticChunker
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [list(hashed_vector(text)) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return list(hashed_vector(text))
