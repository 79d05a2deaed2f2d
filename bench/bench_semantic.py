"""Semantic mode: time to the first result of a 20,000-code-point document once the model is
loaded (CPython, onnxruntime), against Sentence mode's on the same text in the same run.

    python bench/bench_semantic.py [--runs N]

The document is the user guide, then the frozen README of bench/data/, then the sample,
cut at 20,000 code points (mostly distinct sentences, so the windows are not embedded
once for many repeats). The model is loaded before the clock starts; each run gets a new
embedder over the same loaded session, so no vector is reused from an earlier run (the
page's "first result" after loading). Then a second result on the same text with another
breakpoint type (the vectors kept) is timed. Wall and CPU times, the best of the runs;
the ratios are over Sentence mode's. Needs ``pip install ".[embeddings]"``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunker_py import Settings, analyse  # noqa: E402
from chunker_py.embedding.onnx_runtime import OnnxEmbedder  # noqa: E402
from chunker_py.embedding.supply import use_embedder  # noqa: E402
from chunker_py.modes import semantic  # noqa: E402
from chunker_py.pipeline import cache  # noqa: E402
from chunker_py.pipeline.cache import text_index  # noqa: E402
from chunker_py.text.sentences import sentences  # noqa: E402

CODE_POINTS = 20_000
SOURCES = [
    ROOT / "tests" / "data" / "user_guide.txt",
    ROOT / "bench" / "data" / "README-6f5a5e5.md",
    ROOT / "static" / "sample.txt",
]


def document() -> str:
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    assert len(text) >= CODE_POINTS
    return text[:CODE_POINTS]


def timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text = document()
    started = time.perf_counter()
    loaded = OnnxEmbedder()
    load = time.perf_counter() - started
    units = sentences(text_index(text), ())
    windows = {text[a:b] for a, b in semantic.windows(units, 1)}
    print(
        f"document: {len(text):,} code points, {len(units):,} sentences, "
        f"{len(windows):,} distinct windows (Sentence window 1); model load {load:.2f} s"
    )
    sentence_mode = Settings(mode="sentence", chunk_size=300, chunk_overlap=50)
    first = Settings(mode="semantic", chunk_size=300)
    again = first.replace(breakpoint="interquartile")
    best: dict[str, tuple[float, float]] = {}

    def keep(name: str, figures: tuple[float, float]) -> None:
        best[name] = min(best.get(name, figures), figures)

    for _run in range(args.runs):
        cache._recent.clear()  # each first result finds the text's sentences anew
        keep("Sentence", timed(lambda: analyse(text, sentence_mode)))
        cache._recent.clear()
        fresh = OnnxEmbedder.__new__(OnnxEmbedder)  # the loaded session, no vectors yet
        fresh.__dict__.update(loaded.__dict__, cache={}, texts_run=0)
        previous = use_embedder(fresh)
        try:
            semantic._recent.clear()  # no distances kept from an earlier run
            keep("Semantic, first result", timed(lambda: analyse(text, first)))
            assert fresh.texts_run == len(windows)
            keep("Semantic, another breakpoint type", timed(lambda: analyse(text, again)))
        finally:
            use_embedder(previous)
    reference = best["Sentence"][0]
    print(f"{'':36} {'wall s':>8} {'CPU s':>8} {'x Sentence (wall)':>18}")
    for name, (wall, cpu) in best.items():
        print(f"{name:36} {wall:8.3f} {cpu:8.3f} {wall / reference:18.1f}")
    print(f"per window: {best['Semantic, first result'][0] / len(windows) * 1000:.1f} ms wall")


if __name__ == "__main__":
    main()
