"""Semantic mode in the page: LangChain's equivalent code, and the distance curve drawn under
the chunk map.

``langchain_code`` and ``curve`` are pure Python without the DOM (the tests run them in
CPython); ``DistanceCurve`` draws a curve with Plotly through ``dom.plot``.

The curve shows, for each pair of neighbouring sentences, the distance between their
windows (or, for the gradient type, the gradient the threshold is compared with), the
threshold as a flat line, and the breakpoints as markers; the hover text names the two
sentences (their first words, as text: Plotly renders hover text as text, never as HTML,
because each label is escaped here first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chunker_py import Settings
from chunker_py.embedding import MODEL_NAME, Vector
from chunker_py.embedding.supply import EmbeddingsPending
from chunker_py.embedding.thresholds import DEFAULT_AMOUNTS

HUB_NAME = f"sentence-transformers/{MODEL_NAME}"


class WaitingEmbedder:
    """Semantic mode's embedder in the page: the vectors the model's worker has made
    (app/embeddings.py keeps them by text, so an edit embeds only the windows whose text
    changed). A window without its vector yet raises ``EmbeddingsPending`` naming every
    one missing: the page asks the worker for them and splits again when they arrive."""

    def __init__(self, vectors: Mapping[str, Vector]) -> None:
        self.vectors = vectors

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        missing = [text for text in texts if text not in self.vectors]
        if missing:
            raise EmbeddingsPending(missing)
        return [self.vectors[text] for text in texts]


WORDS_SHOWN = 8


def langchain_code(settings: Settings, document: str) -> str:
    """LangChain's SemanticChunker with HuggingFaceEmbeddings for the same model and the
    same breakpoint settings (what differs is in ``LANGCHAIN_NOTE``)."""
    kind = settings.get("breakpoint").replace("-", "_")
    amount = settings.get("breakpoint_amount")
    amount = DEFAULT_AMOUNTS[settings.get("breakpoint")] if amount is None else amount
    minimum = settings.get("min_size") or None
    return f"""\
import json

from langchain_experimental.text_splitter import SemanticChunker
from langchain_huggingface import HuggingFaceEmbeddings

# newline="" keeps CR LF line endings as they are; utf-8-sig drops a leading BOM
with open({document!r}, encoding="utf-8-sig", newline="") as file:
    text = file.read()
splitter = SemanticChunker(
    HuggingFaceEmbeddings(model_name={HUB_NAME!r}),
    buffer_size={settings.get("sentence_window")},
    breakpoint_threshold_type={kind!r},
    breakpoint_threshold_amount={amount!r},
    min_chunk_size={minimum!r},
)
for chunk in splitter.split_text(text):
    print(json.dumps(chunk, ensure_ascii=False))
"""


LANGCHAIN_NOTE = (
    "Not exact: LangChain's SemanticChunker finds its sentences with the regex "
    "(?<=[.?!])\\s+ (Semantic mode uses the sentence rules), has no maximum size (chunks "
    "of any length; here none exceeds the chunk size), and joins a chunk's sentences with "
    "single spaces, so its chunks have no offsets and its min_chunk_size counts that joined "
    "text. With the same sentences and vectors it finds the same breakpoints."
)


@dataclass(frozen=True)
class Curve:
    """What the distance chart draws: x = the sentence each value follows (1-based),
    the values, the threshold, the breakpoints' x, and one hover label per value."""

    x: tuple[int, ...]
    values: tuple[float, ...]
    threshold: float | None
    breakpoints: tuple[int, ...]
    labels: tuple[str, ...]
    title: str


def _opening(text: str) -> str:
    words = text.split()
    shown = " ".join(words[:WORDS_SHOWN])
    return shown + (" …" if len(words) > WORDS_SHOWN else "")


def _escaped(text: str) -> str:
    """Plotly's hover text accepts a few tags: the document's own ``<`` and ``&`` are
    shown as written, never read as markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def curve(text: str, profile: object, breakpoint: str) -> Curve:
    """The chart's data from ``chunker_py.modes.semantic.profile``'s result."""
    units = profile.sentences  # type: ignore[attr-defined]
    values = profile.values  # type: ignore[attr-defined]
    labels = tuple(
        _escaped(
            f"after sentence {i + 1}: {value:.4f}\n"
            f"{_opening(text[units[i][0] : units[i][1]])}\n"
            f"→ {_opening(text[units[i + 1][0] : units[i + 1][1]])}"
        ).replace("\n", "<br>")
        for i, value in enumerate(values)
    )
    name = "gradient of the distance" if breakpoint == "gradient" else "distance"
    return Curve(
        x=tuple(range(1, len(values) + 1)),
        values=tuple(values),
        threshold=profile.threshold,  # type: ignore[attr-defined]
        breakpoints=tuple(i + 1 for i in profile.breakpoints),  # type: ignore[attr-defined]
        labels=labels,
        title=f"{name.capitalize()} between neighbouring sentence windows",
    )


def figure(data: Curve) -> dict[str, object]:
    """The Plotly traces and layout of a curve (a line, the threshold, the breakpoints)."""
    traces: list[dict[str, object]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "distance",
            "x": list(data.x),
            "y": list(data.values),
            "text": list(data.labels),
            "hovertemplate": "%{text}<extra></extra>",
        }
    ]
    if data.threshold is not None and data.x:
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": "threshold",
                "x": [data.x[0], data.x[-1]],
                "y": [data.threshold, data.threshold],
                "line": {"dash": "dash"},
                "hovertemplate": f"threshold {data.threshold:.4f}<extra></extra>",
            }
        )
    chosen = [i - 1 for i in data.breakpoints]
    traces.append(
        {
            "type": "scatter",
            "mode": "markers",
            "name": "breakpoint",
            "x": [data.x[i] for i in chosen],
            "y": [data.values[i] for i in chosen],
            "text": [data.labels[i] for i in chosen],
            "hovertemplate": "breakpoint %{text}<extra></extra>",
            "marker": {"symbol": "triangle-down", "size": 9},
        }
    )
    layout = {
        "title": {"text": data.title, "font": {"size": 13}},
        "height": 220,
        "margin": {"l": 48, "r": 12, "t": 32, "b": 36},
        "xaxis": {"title": {"text": "sentence"}},
        "showlegend": True,
    }
    return {"data": traces, "layout": layout}
