"""The embedding model in the command line: its bytes, its speed, and what it changes in
the Evidence check on Chroma's chunking evaluation (CPython; onnxruntime).

    python bench/bench_embed.py [--chroma DIR] [--quick]

- bytes: the ONNX file the build ships (float16 weights), raw, gzip -9 and brotli -9;
- speed: chunks embedded per second by ``OnnxEmbedder`` (all cores, batches of 32), on real
  chunks of Chroma's five documents at the default settings, with the session's start-up;
- recall: ``python -m chunker_py --format compare --no-limits --questions questions_df.csv``
  over the five documents with ``--retrieval bm25``, ``dense`` and ``hybrid`` (run in this
  process, so dense and hybrid share the chunk vectors): each comparison row's corpus line;
- agreement: the top-5 chunks of dense retrieval with the shipped model against the
  independent numpy float32 reference (tests/core/embedding/numpy_reference.py), per
  question, at the default settings, on the three smaller documents (the reference runs
  at ~10 chunks a second), and the mean recall of both.

Chroma's data (``--chroma``, default /work/chroma-eval/data) is read, never copied.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunker_py import Settings, analyse  # noqa: E402
from chunker_py.embedding.onnx_runtime import OnnxEmbedder  # noqa: E402
from chunker_py.io.cli import execute  # noqa: E402
from chunker_py.io.questions import questions_for, read_questions  # noqa: E402
from chunker_py.measures import ranking  # noqa: E402
from chunker_py.measures.evidence import evidence_of  # noqa: E402
from sitebuild.model import model_file  # noqa: E402

DOCUMENTS = ("chatlogs", "finance", "pubmed", "state_of_the_union", "wikitexts")
SMALL = ("chatlogs", "state_of_the_union", "wikitexts")


def model_bytes() -> dict[str, int]:
    import brotli

    data = model_file()
    return {
        "raw": len(data),
        "gzip-9": len(gzip.compress(data, 9, mtime=0)),
        "brotli-9": len(brotli.compress(data, quality=9)),
    }


def texts_of(chroma: Path, names: tuple[str, ...]) -> dict[str, str]:
    return {n: (chroma / "corpora" / f"{n}.md").read_text("utf-8") for n in names}


def speed(embedder_path: Path, texts: list[str]) -> dict[str, float]:
    start = time.perf_counter()
    embedder = OnnxEmbedder(embedder_path)
    loaded = time.perf_counter() - start
    cpu, wall = time.process_time(), time.perf_counter()
    embedder.embed(texts)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "chunks": len(texts),
        "session_s": round(loaded, 2),
        "chunks_per_s": round(len(texts) / wall, 1),
        "cpu_s_per_chunk_ms": round(1000 * cpu / len(texts), 2),
    }


def recall_table(
    chroma: Path, model: Path, documents: tuple[str, ...]
) -> dict[str, list[dict[str, object]]]:
    """Each method's compare corpus lines (row, recall, precision, IoU, first hit)."""
    ranking.use_embedder(OnnxEmbedder(model))
    files = [str(chroma / "corpora" / f"{n}.md") for n in documents]
    table: dict[str, list[dict[str, object]]] = {}
    for method in ("bm25", "dense", "hybrid"):
        parts: list[str] = []
        argv = [*files, "--format", "compare", "--no-limits", "--quiet", "--jobs", "1"]
        argv += ["--questions", str(chroma / "questions_df.csv"), "--retrieval", method]
        started = time.perf_counter()
        execute(argv, parts.append, print)
        lines = [json.loads(x) for x in "".join(parts).splitlines()]
        corpus = [x for x in lines if x.get("corpus")]
        table[method] = [
            {
                "row": x["row"],
                "questions": x["evidence"]["questions"] - x["evidence"]["unmatched"],
                **{
                    k: x["evidence"]["retrieval"][k]
                    for k in ("recall", "precision", "iou", "first_hit_rank")
                },
                "beyond_model_window": x.get("beyond_model_window"),
            }
            for x in corpus
        ]
        print(f"{method}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return table


def agreement(chroma: Path, model: Path) -> dict[str, object]:
    """Top-5 identical (as a set and in order) between the shipped model and the numpy
    reference, and the mean recall of each, at the default settings."""
    sys.path.insert(0, str(ROOT / "tests" / "core" / "embedding"))
    from tests.core.embedding import numpy_reference

    class Reference:
        def embed(self, texts: list[str]) -> list[tuple[float, ...]]:
            return [tuple(float(x) for x in numpy_reference.embed(t)) for t in texts]

    raw = (chroma / "questions_df.csv").read_bytes().decode("utf-8")
    asked = read_questions(raw, name="questions_df.csv", max_questions=None, max_bytes=None)
    shipped = OnnxEmbedder(model)
    same_set = same_order = total = 0
    recalls: dict[str, list[float]] = {"shipped": [], "reference": []}
    for name, text in texts_of(chroma, SMALL).items():
        questions = list(questions_for(asked, f"{name}.md", f"{name}.md"))
        settings = Settings(retrieval="dense")
        found = {}
        for label, embedder in (("shipped", shipped), ("reference", Reference())):
            result = analyse(text, settings, max_chunks=None, max_code_points=None)
            found[label] = evidence_of(result, questions, embedder=embedder)
        for a, b in zip(found["shipped"].results, found["reference"].results, strict=True):
            if a.retrieval is None or b.retrieval is None:
                continue
            total += 1
            same_set += set(a.retrieval.chunks) == set(b.retrieval.chunks)
            same_order += a.retrieval.chunks == b.retrieval.chunks
            recalls["shipped"].append(a.retrieval.recall)
            recalls["reference"].append(b.retrieval.recall)
    return {
        "questions": total,
        "top5_same_set_pct": round(100 * same_set / total, 1),
        "top5_same_order_pct": round(100 * same_order / total, 1),
        "mean_recall": {k: round(sum(v) / len(v), 4) for k, v in recalls.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chroma", type=Path, default=Path("/work/chroma-eval/data"))
    parser.add_argument("--quick", action="store_true", help="bytes and speed only")
    parser.add_argument(
        "--documents",
        default=",".join(DOCUMENTS),
        help="the recall table's documents (default all five; the three smaller ones: "
        + ",".join(SMALL)
        + ")",
    )
    args = parser.parse_args()
    model_file()
    model = next((ROOT / ".cache" / "model").glob("*.onnx"))
    print(json.dumps({"model_bytes": model_bytes()}), flush=True)
    text = texts_of(args.chroma, ("state_of_the_union",))["state_of_the_union"]
    result = analyse(text, Settings(), max_chunks=None, max_code_points=None)
    chunks = [text[s.start : s.end] for s in result.spans][:400]
    print(json.dumps({"speed": speed(model, chunks), "cores": os.cpu_count()}), flush=True)
    if args.quick:
        return
    documents = tuple(args.documents.split(","))
    print(json.dumps({"recall": recall_table(args.chroma, model, documents)}), flush=True)
    print(json.dumps({"agreement": agreement(args.chroma, model)}), flush=True)


if __name__ == "__main__":
    main()
