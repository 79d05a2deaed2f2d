"""Semantic mode's page views in CPython (app/semantic.py): the LangChain code the page
copies runs as written and is SemanticChunker with the page's breakpoint settings (its
HuggingFaceEmbeddings stood in for by the tests' hashed embedder, since the model is not
downloaded here); the distance curve's data are the profile's, and its hover labels show
the document's text as text."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import types
from pathlib import Path

import pytest

from chunker_py import Settings
from chunker_py.embedding.supply import use_embedder
from chunker_py.modes import semantic as semantic_mode
from chunker_py.pipeline.cache import text_index
from tests.core.hashed_embedder import HashedEmbedder

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "app"))

import semantic  # noqa: E402  (app/ is not a package: the page imports its modules flat)
import snippets  # noqa: E402

SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")


@pytest.fixture
def hugging_face_stand_in(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``langchain_huggingface`` with HuggingFaceEmbeddings answering from the hashed
    embedder; the model names it was asked for are listed."""
    asked: list[str] = []

    class HuggingFaceEmbeddings(HashedEmbedder):
        def __init__(self, model_name: str) -> None:
            super().__init__()
            asked.append(model_name)

    module = types.ModuleType("langchain_huggingface")
    module.HuggingFaceEmbeddings = HuggingFaceEmbeddings  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "langchain_huggingface", module)
    return asked


@pytest.mark.cpython_only
@pytest.mark.parametrize(
    "settings",
    [
        Settings(mode="semantic"),
        Settings(mode="semantic", breakpoint="interquartile", breakpoint_amount=0.5,
                 sentence_window=2, min_size=200),
        Settings(mode="semantic", breakpoint="gradient", sentence_window=0),
    ],
    ids=repr,
)  # fmt: skip
def test_the_langchain_code_is_semantic_chunker_with_the_same_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hugging_face_stand_in: list[str],
    settings: Settings,
) -> None:  # fmt: skip
    text_splitter = pytest.importorskip("langchain_experimental.text_splitter")
    (tmp_path / snippets.DOCUMENT).write_bytes(SAMPLE.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    code = snippets.langchain_code(settings)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    chunks = [json.loads(line) for line in out.getvalue().splitlines()]
    options = settings.options()
    expected = text_splitter.SemanticChunker(
        HashedEmbedder(),
        buffer_size=options.sentence_window,
        breakpoint_threshold_type=options.breakpoint.replace("-", "_"),
        breakpoint_threshold_amount=options.amount,
        min_chunk_size=options.min_size or None,
    ).split_text(SAMPLE)
    assert chunks == expected
    assert hugging_face_stand_in == ["sentence-transformers/all-MiniLM-L6-v2"]
    note = snippets.langchain_note(settings)
    assert "no maximum size" in note and "no offsets" in note and "regex" in note


def test_the_curve_is_the_profile_and_its_labels_are_text() -> None:
    previous = use_embedder(HashedEmbedder())
    try:
        curve_checks()
    finally:
        use_embedder(previous)


def curve_checks() -> None:
    text = "Apple pear <b>plum</b>. Apple pear plum. Engine & gear. River lake. Rain snow."
    options = semantic_mode.Options(breakpoint_amount=50.0, sentence_window=0)
    found = semantic_mode.profile(text_index(text), options)
    data = semantic.curve(text, found, "percentile")
    assert data.values == found.distances and data.threshold == found.threshold
    assert data.breakpoints == tuple(i + 1 for i in found.breakpoints) and data.breakpoints
    assert "&lt;b&gt;plum&lt;/b&gt;" in data.labels[0] and "<b>" not in data.labels[0]
    assert "Engine &amp; gear." in data.labels[1]
    drawn = semantic.figure(data)
    _line, threshold, markers = drawn["data"]  # type: ignore[misc]
    assert threshold["y"] == [found.threshold, found.threshold]
    assert markers["x"] == list(data.breakpoints)
    assert markers["y"] == [found.distances[i] for i in found.breakpoints]
