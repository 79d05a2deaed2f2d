"""The sweep (docs/decisions.md "Context budget"): every comparison row x the size ladder x
overlap 0 and the row's own, over the documents and their questions; each configuration's
figures equal running it alone; the ranking follows its objective; the verdict names the
top."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunker_py import Settings, analyse
from chunker_py.embedding import onnx_runtime
from chunker_py.embedding.supply import use_embedder
from chunker_py.engine.steps import finish
from chunker_py.io.questions import read_questions
from chunker_py.measures.evidence import Excerpt, Question, evidence_of
from chunker_py.pipeline.sweep import (
    Document,
    configurations,
    ladder_sizes,
    objective_keys,
    sweep,
    sweep_steps,
    sweep_texts,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "static" / "sample.txt").read_text(encoding="utf-8")
QUESTIONS = tuple(read_questions((ROOT / "static" / "sample-questions.csv").read_bytes()))
SECOND = (
    "# Shipping\n\nParcels leave the warehouse within two days. Express parcels leave the "
    "same day.\n\n```\nship --express\n```\n\nReturns are free for thirty days.\n"
)
SECOND_QUESTION = Question(
    "How fast do express parcels leave?",
    (Excerpt("Express parcels leave the same day.", SECOND.index("Express"),
             SECOND.index("Express") + len("Express parcels leave the same day.")),),
)  # fmt: skip
DOCUMENTS = (Document(None, SAMPLE, QUESTIONS), Document("shipping", SECOND, (SECOND_QUESTION,)))


def test_the_ladder_is_half_to_three_times_the_size_clamped() -> None:
    assert ladder_sizes(300) == [150, 300, 450, 600, 900]
    assert ladder_sizes(1) == [1, 2, 3]
    assert ladder_sizes(5_000) == [2_500, 5_000, 7_500, 10_000]


def test_configurations_cover_every_row_size_and_overlap_once() -> None:
    configs = configurations(Settings(chunk_size=300, chunk_overlap=50))
    keys = [c.key for c in configs]
    assert len(keys) == len(set(keys))
    effective = [json.dumps(c.settings.record_settings(), sort_keys=True) for c in configs]
    assert len(effective) == len(set(effective))  # the same settings run once
    assert "recursive/150/0" in keys and "recursive/900/50" in keys
    assert "markdown/300/0" in keys and "markdown/300/50" not in keys  # no overlap there
    assert "fixed-overlap/300/50" in keys and "fixed-overlap/300/0" not in keys  # = fixed
    for c in configs:
        assert c.settings.overlap < c.settings.chunk_size
    # 5 rows with overlap x 5 sizes x 2, Markdown structure x 5, Fixed and Fixed with overlap;
    # Semantic mode's row needs the embedding model and is not swept
    assert len(configs) == 5 * 5 * 2 + 5 + 5 + 5 - 10
    assert not any(c.row == "semantic" for c in configs)


def test_an_overlap_not_below_a_ladder_size_is_skipped() -> None:
    keys = [c.key for c in configurations(Settings(chunk_size=100, chunk_overlap=60))]
    assert "recursive/50/0" in keys and "recursive/50/60" not in keys
    assert "recursive/100/60" in keys


def _alone(documents: tuple[Document, ...], settings: Settings, budget: int) -> dict:
    """One configuration's figures, computed by itself from the public pieces."""
    chunks = tokens = damaged = excerpts = kept = matched = questions = 0
    omega = recall = precision = iou = 0.0
    for document in documents:
        analysis = analyse(document.text, settings)
        assert analysis.error is None and analysis.damage is not None
        chunks += analysis.count
        tokens += sum(analysis.tokens)
        damaged += analysis.damage.damaged
        found = evidence_of(analysis, document.questions, budget=budget)
        assert found is not None
        questions += len(found.results)
        for r in found.matched:
            assert r.retrieval is not None and r.retrieval.budget == budget
            matched += 1
            excerpts += len(r.excerpts)
            kept += sum(1 for e in r.excerpts if e.kept_whole)
            omega += r.precision_omega or 0.0
            recall += r.retrieval.recall
            precision += r.retrieval.precision
            iou += r.retrieval.iou
    return {
        "chunks": chunks,
        "tokens_embedded": tokens,
        "damaged_chunks": damaged,
        "questions": questions,
        "unmatched": questions - matched,
        "excerpts": excerpts,
        "kept_whole": kept,
        "precision_omega": omega / matched,
        "recall": recall / matched,
        "precision": precision / matched,
        "iou": iou / matched,
    }


@pytest.mark.parametrize("budget", [None, 120])
def test_every_configurations_figures_equal_running_it_alone(budget: int | None) -> None:
    settings = Settings(chunk_size=300, chunk_overlap=50, budget=budget)
    done = sweep(DOCUMENTS, settings)
    assert len(done.lines) == len(configurations(settings))
    for line in done.lines:
        config = next(c for c in configurations(settings) if c.key == line["configuration"])
        alone = _alone(DOCUMENTS, config.settings, budget or 1_000)
        assert {k: line[k] for k in alone} == pytest.approx(alone, rel=1e-12), line["name"]
        assert line["budget"] == (budget or 1_000) and line["documents"] == 2
        assert line["settings"] == config.settings.record_settings()


def test_the_steps_give_the_same_sweep_with_progress_to_the_end() -> None:
    settings = Settings(chunk_size=200, chunk_overlap=20)
    steps = sweep_steps(DOCUMENTS, settings)
    progress = []
    try:
        while True:
            progress.append(next(steps))
    except StopIteration as end:
        stepped = end.value
    assert stepped == sweep(DOCUMENTS, settings)
    total = len(configurations(settings)) * len(DOCUMENTS)
    assert progress[-1] == (total, total)
    assert [d for d, _t in progress] == sorted(d for d, _t in progress)
    assert len(progress) > total  # pauses inside configurations too


@pytest.mark.parametrize("retrieval", ["dense", "hybrid"])
def test_the_texts_listed_are_what_the_sweep_embeds(retrieval: str) -> None:
    """The page has the sweep's texts embedded first, then sweeps: with only those vectors
    at hand the sweep runs to the end, and it asks for every one of them."""
    from tests.core.hashed_embedder import HashedEmbedder

    settings = Settings(chunk_size=200, chunk_overlap=20, retrieval=retrieval)
    listed = finish(sweep_texts(DOCUMENTS, settings))
    assert len(listed) == len(set(listed)) and "" not in listed
    assert {q.text for q in QUESTIONS} | {SECOND_QUESTION.text} <= set(listed)
    hashed = HashedEmbedder()
    known = dict(zip(listed, hashed.embed(listed), strict=True))
    asked: set[str] = set()

    class OnlyThese:
        def embed(self, texts: list[str]) -> list[tuple[float, ...]]:
            asked.update(texts)
            return [known[t] for t in texts]  # a KeyError fails the test

    previous = use_embedder(OnlyThese())
    try:
        done = sweep(DOCUMENTS, settings)
    finally:
        use_embedder(previous)
    assert asked == set(listed)
    assert all(line["error"] is None for line in done.lines)
    # BM25 embeds nothing, and a document without questions adds nothing
    assert finish(sweep_texts(DOCUMENTS, settings.replace(retrieval="bm25"))) == []
    alone = finish(sweep_texts([Document(None, SAMPLE)], settings))
    assert alone == []


def test_the_default_ranking_is_recall_then_fewer_damaged_chunks_then_fewer_tokens() -> None:
    done = sweep(DOCUMENTS, Settings())
    by_key = {line["configuration"]: line for line in done.lines}
    ranked = [by_key[k] for k in done.ranking]
    keys = [(-x["recall"], x["damaged_chunks"], x["tokens_embedded"]) for x in ranked]
    assert keys == sorted(keys)
    assert done.objective["keys"] == ["recall", "damage", "tokens"]
    assert done.objective["label"].startswith("evidence recall within 1,000 tokens")
    top = ranked[0]
    assert done.verdicts[0].startswith(top["name"] + ": ")
    assert f"keeps {top['kept_whole']} of {top['excerpts']} excerpts whole" in done.verdicts[0]
    assert (
        f"finds {round(100 * top['recall'])} % of the evidence within 1,000 tokens"
        in (done.verdicts[0])
    )
    assert len(done.verdicts) == 3


def test_the_objective_picks_the_first_key() -> None:
    done = sweep(DOCUMENTS, Settings(), objective="tokens")
    by_key = {line["configuration"]: line for line in done.lines}
    tokens = [by_key[k]["tokens_embedded"] for k in done.ranking]
    assert tokens == sorted(tokens)
    assert objective_keys("damage", True) == ["damage", "recall", "tokens"]


def test_without_questions_the_ranking_is_by_damage_only_and_says_so() -> None:
    docs = tuple(Document(d.name, d.text) for d in DOCUMENTS)
    done = sweep(docs, Settings())
    assert done.objective["keys"] == ["damage", "tokens"]
    assert done.objective["label"].startswith("damage only (the verdict needs questions)")
    by_key = {line["configuration"]: line for line in done.lines}
    damaged = [by_key[k]["damaged_chunks"] for k in done.ranking]
    assert damaged == sorted(damaged)
    assert "excerpts" not in done.verdicts[0] and "damages" in done.verdicts[0]


def test_a_verdict_names_the_code_blocks_it_cuts_or_keeps() -> None:
    done = sweep((DOCUMENTS[1],), Settings(chunk_size=40, chunk_overlap=0))
    for sentence in done.verdicts:
        assert "cuts no code block" in sentence or "cuts 1 code block" in sentence


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=300,
        text=True,
        encoding="utf-8",
    )


@pytest.mark.subprocess
def test_cli_format_sweep_equals_the_librarys_lines(tmp_path: Path) -> None:
    sample = str(ROOT / "static" / "sample.txt")
    questions = str(ROOT / "static" / "sample-questions.csv")
    done = cli(sample, "--questions", questions, "--format", "sweep", "--budget", "500")
    assert done.returncode == 0, done.stderr
    # the command line's Semantic rows embed with the model when it is installed, and
    # wait for it when not: the library run here does the same
    embedder = None if onnx_runtime.missing_modules() else onnx_runtime.OnnxEmbedder()
    previous = use_embedder(embedder)
    try:
        expected = sweep((Document(None, SAMPLE, QUESTIONS),), Settings(budget=500)).jsonl()
    finally:
        use_embedder(previous)
    assert done.stdout == expected
    last = json.loads(done.stdout.splitlines()[-1])
    assert set(last) == {"ranking", "objective", "verdicts", "pareto"}
    assert last["objective"]["budget"] == 500


@pytest.mark.subprocess
def test_cli_refuses_an_unknown_objective() -> None:
    done = cli(str(ROOT / "static" / "sample.txt"), "--format", "sweep", "--objective", "best")
    assert done.returncode == 2 and done.stdout == ""
    assert "Objective must be one of recall, precision" in done.stderr


def test_the_pareto_front_is_every_configuration_no_other_beats_on_both_axes() -> None:
    done = sweep(DOCUMENTS, Settings())
    points = {x["configuration"]: (x["tokens_embedded"], x["recall"]) for x in done.lines}

    def beaten(key: str) -> bool:
        t, r = points[key]
        return any(t2 <= t and r2 >= r and (t2 < t or r2 > r) for k, (t2, r2) in points.items())

    brute = sorted((k for k in points if not beaten(k)), key=lambda k: points[k])
    front = list(done.pareto)
    # equal points: the first of them only
    assert [points[k] for k in front] == sorted({points[k] for k in brute})
    assert all(not beaten(k) for k in front)
    tokens = [points[k][0] for k in front]
    assert tokens == sorted(tokens)
