"""Semantic and Hybrid retrieval in the page: the embedding model, its download and the
vectors, kept by text.

The model (all-MiniLM-L6-v2, run by onnxruntime-web in static/embed_worker.js, reached
through static/embed_client.js) is downloaded from the page's own origin the first time
Semantic or Hybrid retrieval is chosen, with its progress in bytes, and checked (length
and SHA-256) before anything uses or keeps it. Text becomes word-piece ids here, with the
core's ``chunker_py.embedding.wordpieces.encode``, exactly as the command line does; the
worker answers with float32 unit vectors, which the core ranks (``CachedEmbedder`` hands it
the vectors already made). Vectors are kept by text, so an edit embeds only the chunks whose
text changed; the result panels never wait for them: the Evidence check shows its semantic
figures as pending and asks again when they have arrived (``on_vectors``), and a job for a
text that has since changed is forgotten.

What the user sees is in ``#embedding`` (``data-state``: off, loading, ready, failed,
unsupported; ``data-pending``: the texts still being embedded; ``data-embedded``: the texts
embedded so far; ``data-loaded``/``data-total``: the download's bytes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from dom import by_id, number
from pyodide.ffi import create_proxy

from chunker_py.embedding import DIMENSIONS, MODEL_NAME, Vector

# The vectors kept, by text (a 20,000-code-point document at the default size has about
# 80 chunks; 2,000 chunks of a comparison row and a few edits fit well within this).
MAX_KEPT = 20_000
# texts encoded per task and sent as one worker job: a long document's chunks are encoded
# over several tasks, never in one that holds the main thread
SLICE = 16
DENSE_CHOICES = ("dense", "hybrid")
NO_CLIENT = "the page's script for the embedding model (embed_client.js) did not load"


def word_piece_ids(text: str) -> list[int]:
    """The ids the model is fed for ``text``: [CLS] ... [SEP], at most 256 (the core's
    encoder, shared with the command line)."""
    from chunker_py.embedding.wordpieces import encode  # the core's, imported when first used

    return list(encode(text))


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB"


class VectorsPending(Exception):
    """The core asked for vectors the worker has not made yet (``texts``)."""

    def __init__(self, texts: Sequence[str]) -> None:
        super().__init__(f"{len(texts)} texts not embedded yet")
        self.texts = list(texts)


class CachedEmbedder:
    """The ``Embedder`` the core is handed in the page: the vectors the worker has made.
    The page hands it over only once every text it expects the core to ask for has its
    vector (``texts_to_embed``); asked for another, it raises ``VectorsPending`` before
    the core keeps anything, and the page asks the worker for it."""

    def __init__(self, vectors: dict[str, Vector]) -> None:
        self.vectors = vectors

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        missing = [text for text in texts if text not in self.vectors]
        if missing:
            raise VectorsPending(missing)
        return [self.vectors[text] for text in texts]


def texts_to_embed(analysis: Any, questions: Sequence[Any]) -> list[str]:
    """What the core embeds to rank ``analysis``'s chunks for ``questions``: each non-empty
    chunk's text and each question's text."""
    text = analysis.text
    chunks = [text[span[0] : span[1]] for span in analysis.spans if span[1] > span[0]]
    return list(dict.fromkeys([*chunks, *(question.text for question in questions)]))


def dense_retrieval(analysis: Any) -> bool:
    """Whether ``analysis``'s settings rank chunks with the model (Semantic or Hybrid)."""
    return getattr(analysis.settings, "retrieval", "bm25") in DENSE_CHOICES


class Embeddings:
    """The model's state in the page, the vectors made so far, and the one embedding job
    under way (a newer request replaces it)."""

    def __init__(self, on_vectors: Callable[[], None]) -> None:
        # every text asked for has its vector now, or the model has become unavailable
        self.on_vectors = on_vectors
        self.vectors: dict[str, Vector] = {}
        self.state = "off"
        self.reason = ""  # why the model is unavailable (unsupported, failed)
        self.keys = 0  # the last job's key
        self.jobs: dict[int, list[str]] = {}  # the jobs under way, by key: their texts
        self.posted: dict[int, int] = {}  # the worker's id of each job handed to it
        self.job_proxies: dict[int, list[Any]] = {}
        self.groups: list[set[int]] = []  # the jobs of each request not done yet
        # what was asked for since the last result, request by request (asked again, in
        # order, once the model has loaded)
        self.wanted: list[list[str]] = []
        self.load_seconds: float | None = None
        self.embedded = 0  # texts the worker has embedded in this page (its data-embedded)
        self._proxies: list[Any] = []
        self.said = ("", False)  # the message shown last, and whether it is a problem

    def _client(self) -> Any:
        from js import window  # after the start-up snapshot's restore, not at import

        return window.chunkInspectorEmbed

    def _proxy(self, function: Callable[..., Any]) -> Any:
        proxy = create_proxy(function)
        self._proxies.append(proxy)
        return proxy

    # -- what the user sees
    def _show(self, message: str, *, problem: bool = False) -> None:
        self.said = (message, problem)
        box = by_id("embedding")
        box.hidden = False
        box.dataset.state = self.state
        box.dataset.pending = str(sum(len(texts) for texts in self.jobs.values()))
        box.dataset.embedded = str(self.embedded)
        status = by_id("embedding-status")
        status.textContent = message
        status.classList.toggle("problem", problem)
        by_id("embedding-retry").hidden = self.state != "failed"
        if self.state != "loading":
            by_id("embedding-progress").hidden = True

    def wire(self) -> None:
        """Disable Semantic and Hybrid where the browser cannot run the model, saying why;
        the Retry button starts a clean download after a failure."""
        from js import document, window

        client = getattr(window, "chunkInspectorEmbed", None)
        reason = str(client.support()) if client is not None else NO_CLIENT
        retry = by_id("embedding-retry")
        retry.addEventListener("click", self._proxy(lambda _e: self._load()))
        if not reason:
            return
        self.state, self.reason = "unsupported", reason
        for value in DENSE_CHOICES:
            for control in document.querySelectorAll(
                f'#retrieval option[value="{value}"], input[name="retrieval"][value="{value}"]'
            ):
                control.disabled = True
                control.title = f"Unavailable: {reason}."
        self._show(
            f"Semantic and Hybrid retrieval are unavailable: {reason}. Lexical (BM25) "
            "retrieval and everything else work as before.",
            problem=True,
        )

    def reveal(self) -> None:
        """Semantic or Hybrid retrieval chosen (again): what was said last is shown again
        (after a failure, with its Retry button)."""
        if self.state != "off":
            message, problem = self.said
            self._show(message, problem=problem)

    def hide(self) -> None:
        """Lexical retrieval chosen: nothing to say (unless the browser cannot run it)."""
        if self.state != "unsupported":
            by_id("embedding").hidden = True

    # -- loading
    def _load(self) -> None:
        if self.state in ("loading", "ready", "unsupported"):
            return
        self.state = "loading"
        self._show(f"Downloading the embedding model ({MODEL_NAME}) from this site…")
        progress = by_id("embedding-progress")
        progress.hidden = False
        progress.removeAttribute("value")
        promise = self._client().settle(self._proxy(self._progress))
        promise.then(self._proxy(self._settled))

    def _progress(self, loaded: int, total: int) -> None:
        progress = by_id("embedding-progress")
        progress.max = total
        progress.value = loaded
        by_id("embedding").dataset.loaded = str(int(loaded))
        by_id("embedding").dataset.total = str(int(total))
        by_id("embedding-status").textContent = (
            f"Downloading the embedding model ({MODEL_NAME}) from this site: "
            f"{megabytes(int(loaded))} of {megabytes(int(total))}…"
        )

    def _settled(self, outcome: Any) -> None:
        if outcome.ok:
            self._loaded(outcome)
        else:
            self._failed(outcome)

    def _loaded(self, ready: Any) -> None:
        self.state = "ready"
        self.load_seconds = float(ready.seconds)
        where = "from this browser's copy" if ready.fromCache else "downloaded"
        self._show(
            f"The embedding model ({MODEL_NAME}) is ready ({where}, "
            f"{megabytes(int(ready.bytes))}, {self.load_seconds:.1f} s); it runs in this "
            "browser, offline too."
        )
        wanted, self.wanted = self.wanted, []
        for texts in wanted:
            self.request(texts)

    def _failed(self, error: Any) -> None:
        self.state = "failed"
        self.reason = f"{error.file}: {error.reason}"
        self._show(
            f"The embedding model could not be loaded ({self.reason}). Nothing of it was "
            "kept; choose Retry to download it again. Lexical (BM25) retrieval works as "
            "before.",
            problem=True,
        )
        from js import console

        console.warn(f"embedding model: {self.reason}")
        self.on_vectors()  # the figures waiting for it say it is unavailable

    def available(self) -> bool:
        """Whether vectors can still come (False: failed until Retry, or unsupported)."""
        return self.state not in ("failed", "unsupported")

    # -- vectors
    def embedder(self) -> CachedEmbedder:
        """The embedder over the vectors made so far."""
        return CachedEmbedder(self.vectors)

    def without_vectors(self, texts: Sequence[str]) -> list[str]:
        """The texts that have no vector yet."""
        return [text for text in texts if text not in self.vectors]

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The texts without a vector and not being embedded, once each, in order."""
        flying = {text for job in self.jobs.values() for text in job}
        return list(dict.fromkeys(t for t in texts if t not in self.vectors and t not in flying))

    def request(self, texts: Sequence[str]) -> None:
        """Get vectors for ``texts``: the download the first time, then worker jobs for the
        texts neither embedded nor under way, ``SLICE`` texts each, each encoded in a task
        of its own (encoding a long document at once would hold the main thread);
        ``on_vectors`` is called when the jobs of one request are all done (a result's own
        texts are asked for first, the comparison rows' after: its figures do not wait for
        theirs)."""
        if self.state != "ready" and list(texts) not in self.wanted:
            self.wanted.append(list(texts))
        if self.state == "off":
            self._load()
        if self.state != "ready":
            return  # loading (the texts follow), or failed until Retry, or unsupported
        todo = self.missing(texts)
        group: set[int] = set()
        for at in range(0, len(todo), SLICE):
            self.keys += 1
            key, part = self.keys, todo[at : at + SLICE]
            self.jobs[key] = part
            group.add(key)
            self._later(partial(self._post, key, part))
        if todo:
            self.groups.append(group)
            self._say_pending()

    @staticmethod
    def _later(task: Callable[[], None]) -> None:
        from js import window
        from pyodide.ffi import create_once_callable

        window.setTimeout(create_once_callable(task), 0)

    def _post(self, key: int, texts: list[str]) -> None:
        """Encode ``texts`` and hand them to the worker (unless dropped meanwhile)."""
        if key not in self.jobs:
            return
        ids = json.dumps([word_piece_ids(text) for text in texts], separators=(",", ":"))
        proxies: list[Any] = []

        def keep(function: Callable[..., Any]) -> Any:
            proxy = create_proxy(function)
            proxies.append(proxy)
            return proxy

        self.job_proxies[key] = proxies
        self.posted[key] = int(
            self._client().embed(
                ids,
                keep(lambda indexes, data: self._vectors(texts, indexes, data)),
                keep(lambda: self._finished(key)),
                keep(lambda reason: self._finished(key, str(reason))),
            )
        )

    def drop_stale(self) -> None:
        """A new result: the jobs under way are for texts that may be gone; the worker skips
        their remaining batches (the vectors already made are kept, by text)."""
        for key in list(self.jobs):
            self._release(key)
        self.groups = []
        self.wanted = []

    def _release(self, key: int) -> None:
        """Forget job ``key``: the worker skips what it has not done of it."""
        self.jobs.pop(key, None)
        job = self.posted.pop(key, None)
        if job is not None:
            self._client().forget(job)
        for proxy in self.job_proxies.pop(key, []):
            proxy.destroy()

    def _say_pending(self) -> None:
        left = sum(len(texts) for texts in self.jobs.values())
        self._show(f"Embedding {number(left)} texts with {MODEL_NAME}: semantic figures pending…")

    def _vectors(self, texts: list[str], indexes: Any, data: Any) -> None:
        values = data.to_py().tolist()
        rows = indexes.to_py()
        self.embedded += len(rows)
        for row, index in enumerate(rows):
            self.vectors[texts[index]] = tuple(values[row * DIMENSIONS : (row + 1) * DIMENSIONS])
        if len(self.vectors) > MAX_KEPT:  # the oldest go first (dicts keep insertion order)
            for text in list(self.vectors)[: len(self.vectors) - MAX_KEPT]:
                del self.vectors[text]

    def _finished(self, key: int, problem: str = "") -> None:
        if key not in self.jobs:
            return  # dropped as stale
        self.posted.pop(key, None)  # done: nothing to cancel
        self._release(key)
        if problem:
            self.state, self.reason = "failed", problem
            self.drop_stale()
            self._show(
                f"The embedding model failed ({problem}). Choose Retry to load it again; "
                "Lexical (BM25) retrieval works as before.",
                problem=True,
            )
            self.on_vectors()
            return
        done = [group for group in self.groups if key in group and len(group) == 1]
        for group in self.groups:
            group.discard(key)
        self.groups = [group for group in self.groups if group]
        if self.jobs:
            self._say_pending()
        else:
            self._show(f"Semantic figures from {MODEL_NAME}, run in this browser.")
        if done:
            self.on_vectors()
