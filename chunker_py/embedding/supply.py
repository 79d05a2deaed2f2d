"""Where the core gets its vectors: the embedder the door in use has installed.

The core never loads a model. A door installs one ``Embedder`` with ``use_embedder`` and
the modes that need vectors (Semantic mode) ask ``embed`` for them:

- the command line installs the CPython embedder over the ONNX model before it splits;
- the page installs an embedder that answers from the vectors its worker has computed
  (kept per text, so an edit re-embeds only the texts that changed) and raises
  ``EmbeddingsPending`` with the texts it lacks; the page catches it, says that it is
  waiting for the embedding model, has the worker embed those texts, and runs again;
- tests install a deterministic embedder of their own.

With no embedder installed, ``embed`` raises ``EmbeddingsPending`` too: a result that needs
vectors is never made up without them. ``Embedder`` is the protocol in this package.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.errors import ChunkerError
from . import MODEL_NAME, Embedder, Vector


class EmbeddingsPending(ChunkerError):
    """Texts have no vector yet (the model is not loaded, or still working); ``texts`` are
    the ones missing, in the order asked, without repeats."""

    def __init__(self, texts: Sequence[str]) -> None:
        super().__init__(
            f"Semantic mode is waiting for the embedding model ({MODEL_NAME}): "
            f"{len(texts):,} sentence window(s) are not embedded yet.",
            field="mode",
        )
        self.texts = tuple(dict.fromkeys(texts))


_installed: list[Embedder | None] = [None]


def use_embedder(embedder: Embedder | None) -> Embedder | None:
    """Install ``embedder`` (None: none) for every later ``embed``; returns the previous
    one, so a caller can put it back."""
    previous = _installed[0]
    _installed[0] = embedder
    return previous


def current_embedder() -> Embedder | None:
    return _installed[0]


def embed(texts: Sequence[str]) -> list[Vector]:
    """One unit vector per text, in order, from the installed embedder; each distinct text
    is asked for once. Raises ``EmbeddingsPending`` when there is no embedder."""
    embedder = _installed[0]
    unique = list(dict.fromkeys(texts))
    if embedder is None:
        raise EmbeddingsPending(unique)
    vectors = dict(zip(unique, embedder.embed(unique), strict=True))
    return [vectors[text] for text in texts]
