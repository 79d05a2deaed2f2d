"""Sentence embeddings with all-MiniLM-L6-v2: what dense and hybrid retrieval and Semantic
mode share.

The pipeline is sentence-transformers' for this model: the BERT WordPiece tokenizer
([CLS] ... [SEP], at most ``MAX_WORD_PIECES`` word pieces with both), the six-layer encoder,
mean pooling over the attention mask, L2 normalisation. A vector is ``DIMENSIONS`` floats
(float32 values held as Python floats); the similarity of two vectors is their dot product,
on the grid of ``scores.similarity`` so that both doors (CPython and the page) rank alike.

The core never runs a model itself: an ``Embedder`` is handed to the code that needs vectors
(the command line loads one with onnxruntime; the page runs the same model in a worker).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
# sentence-transformers' max_seq_length for this model, [CLS] and [SEP] included
MAX_WORD_PIECES = 256

Vector = tuple[float, ...]


class Embedder(Protocol):
    """Turns texts into unit vectors, one per text, in order."""

    def embed(self, texts: Sequence[str]) -> list[Vector]: ...
