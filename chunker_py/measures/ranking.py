"""Rankings of a result's chunks for a question (docs/decisions.md "Retrieval choices").

- ``bm25``: BM25 Okapi over the chunks' words (``bm25.py``), as the Evidence check always did;
- ``dense``: the similarity of the chunk's and the question's all-MiniLM-L6-v2 embeddings
  (``embedding.scores.similarity``, on its four-decimal grid so both doors rank alike);
- ``hybrid``: reciprocal rank fusion of the two, score = 1/(60 + rank_bm25) +
  1/(60 + rank_dense), ranks 1-based.

Every ranking orders all the chunks, best first, ties to the lower chunk index; how many
of them a question takes (top k, or a budget) is decided by the caller, not here. The
embeddings come from an injected ``Embedder`` (the command line's onnxruntime, the page's
worker): this module never runs a model itself. A chunk's vector is computed once per
result; an empty chunk never reaches the model (its similarity is 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..config.settings import RETRIEVALS
from ..embedding import Embedder, Vector, supply
from ..embedding.scores import similarity
from ..engine.errors import SettingError
from .bm25 import BM25, bm25_tokens

METHODS = RETRIEVALS
RRF_K = 60


def use_embedder(embedder: Embedder | None) -> None:
    """Install the embedder dense and hybrid rankings (and Semantic mode) use from now on in
    this process (None: none); ``embedding.supply`` holds it."""
    supply.use_embedder(embedder)


def has_embedder() -> bool:
    return supply.current_embedder() is not None


def current_embedder() -> Embedder:
    """The installed embedder; a SettingError when there is none."""
    embedder = supply.current_embedder()
    if embedder is None:
        raise SettingError(
            "Semantic and hybrid retrieval need the embedding model, which is not loaded.",
            field="retrieval",
        )
    return embedder


def needs_model(method: str) -> bool:
    return method in ("dense", "hybrid")


def best_first(scores: Sequence[float]) -> list[int]:
    """Every index, highest score first, ties to the lower index."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def bm25_ranking(index: BM25, question: str) -> list[int]:
    return best_first(index.scores(bm25_tokens(question)))


def dense_scores(chunk_vectors: Sequence[Vector | None], question: Vector) -> list[float]:
    """Each chunk's similarity with the question (0 for an empty chunk: no vector)."""
    return [0.0 if v is None else similarity(v, question) for v in chunk_vectors]


def fusion_scores(*rankings: Sequence[int]) -> list[float]:
    """Each chunk's reciprocal rank fusion score: the sum of 1/(60 + rank), ranks 1-based."""
    scores = [0.0] * len(rankings[0])
    for ranking in rankings:
        for rank, index in enumerate(ranking, 1):
            scores[index] += 1 / (RRF_K + rank)
    return scores


def fused(*rankings: Sequence[int]) -> list[int]:
    """Reciprocal rank fusion (k = 60) of full rankings of the same chunks."""
    return best_first(fusion_scores(*rankings))


def chunk_vectors(texts: Sequence[str], embedder: Embedder) -> list[Vector | None]:
    """The chunks' vectors, None for an empty chunk (BAD-INPUT 34: it never reaches the
    model)."""
    present = [t for t in texts if t]
    vectors = iter(embedder.embed(present)) if present else iter(())
    return [next(vectors) if t else None for t in texts]


def ranking(
    method: str,
    question: str,
    index: BM25,
    vectors: Sequence[Vector | None] | None = None,
    question_vector: Vector | None = None,
    depth: int | None = None,
) -> list[int]:
    """The first ``depth`` chunks (all when None) of ``method``'s ranking, from what it
    needs: the BM25 index, and for dense and hybrid the chunks' and the question's
    vectors. Hybrid fuses the full rankings; only the result is cut."""
    if method not in METHODS:
        raise SettingError(f"Retrieval must be {', '.join(METHODS)} (got {method!r}).")
    if method == "bm25":  # a heap of the first depth: as fast as before with a small k
        return index.ranking(bm25_tokens(question), index.count if depth is None else depth)
    assert vectors is not None and question_vector is not None
    ranked = best_first(dense_scores(vectors, question_vector))
    if method == "hybrid":
        ranked = fused(bm25_ranking(index, question), ranked)
    return ranked if depth is None else ranked[:depth]
