"""The embedding model in the page: its bytes and load time, its speed against the command
line's, and the time to the semantic figures of a 20,000-code-point document.

    python bench/bench_embed_page.py --dist dist [--port 8813] [--repeat 3]

Serves a built site (``python build.py`` first: it writes the model) with the development
server (precompressed copies, as a good static host sends them) and drives headless Debian
Chromium at 1,400 x 900 in a fresh context. Reported (medians over ``--repeat`` runs):

- wire: the bytes of onnxruntime-web's files and the model as they crossed the wire
  (encoded body sizes), and raw;
- load: choosing the model to its session ready (download, SHA-256 checks, compile), cold
  (nothing cached) and from the page's cache;
- page, cli: chunks embedded per second, the same word-piece id lists (the 20,000-code-point
  document's chunks at default settings), in the page's worker (one thread, SIMD wasm) and by
  the command line's embedder (onnxruntime in CPython, its default threads, a fresh embedder
  so that nothing is remembered), and their ratio (goal: page >= 1/3 of the command line);
- figures: Semantic retrieval already loaded, the document pasted to its semantic figures
  shown (``#app[data-semantic="ready"]``), and the longest main-thread task meanwhile (the
  page's work must stay under 50 ms a task).

A busy machine slows every figure: compare the ratio, and runs on the same machine.
Results: bench/results/embed_page.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_long_tasks import built_site, load  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chunker_py import Settings, analyse  # noqa: E402
from chunker_py.config.links import settings_to_fragment  # noqa: E402
from chunker_py.embedding.wordpieces import encode  # noqa: E402
from sitebuild.paths import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.page.embeddings.conftest import EMBED, LOAD  # noqa: E402
from tests.page.typing.hostile import OBSERVE, PASTE, PROSE  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "embed_page.json"
ON_DEMAND = ("/static/model/", "/onnxruntime-web-")
TIMEOUT_MS = 600_000

# the page's own timing of one embedding job (the worker's batches included)
TIMED_EMBED = (
    "async (ids) => {\n  const start = performance.now();\n"
    f"  const vectors = await ({EMBED})(ids);\n"
    "  return [performance.now() - start, vectors.length];\n}"
)


def document_ids() -> tuple[list[str], list[list[int]]]:
    """The 20,000-code-point document's chunks at default settings, and their ids."""
    result = analyse(PROSE, Settings())
    texts = [PROSE[start:end] for start, end in result.spans]
    return texts, [encode(text) for text in texts]


def cli_seconds(model: Path, ids: list[list[int]]) -> float:
    from chunker_py.embedding.onnx_runtime import OnnxEmbedder

    embedder = OnnxEmbedder(model=model)
    start = time.perf_counter()
    embedder.run(ids)
    return time.perf_counter() - start


def page_run(browser: Any, url: str, ids: list[list[int]], dense: bool) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    wire: dict[str, int] = {}

    def finished(request: Any) -> None:
        if any(part in request.url for part in ON_DEMAND):
            wire[request.url] = request.sizes()["responseBodySize"]

    page.on("requestfinished", finished)
    page.goto(url)
    page.wait_for_selector('#app[data-state="ready"]', timeout=TIMEOUT_MS)
    cold = page.evaluate(LOAD)
    if not cold["ok"]:
        raise SystemExit(f"the model did not load: {cold['error']}")
    page.evaluate(TIMED_EMBED, ids[:8])  # the first run compiles what it needs
    ms, count = page.evaluate(TIMED_EMBED, ids)
    out: dict[str, Any] = {
        "wire_bytes": sum(wire.values()),
        "raw_bytes": cold["ready"]["bytes"],
        "load_cold_s": cold["ready"]["seconds"],
        "page_chunks_per_s": count / (ms / 1000),
    }
    if dense:
        out.update(semantic_figures(page, url))
    # the page's cache: a second page in the same context loads from it
    again = context.new_page()
    again.set_default_timeout(TIMEOUT_MS)
    again.goto(url)
    again.wait_for_selector('#app[data-state="ready"]', timeout=TIMEOUT_MS)
    warm = again.evaluate(LOAD)
    out["load_cached_s"] = warm["ready"]["seconds"] if warm["ok"] else None
    out["load_cached_from_cache"] = bool(warm["ok"] and warm["ready"]["fromCache"])
    context.close()
    return out


def semantic_figures(page: Any, url: str) -> dict[str, Any]:
    """Semantic retrieval (the model loaded), the document pasted to its figures shown."""
    page.goto(url + "#" + settings_to_fragment(Settings(retrieval="dense")))  # type: ignore[call-arg]
    page.wait_for_selector('#app[data-state="ready"]', timeout=TIMEOUT_MS)
    page.wait_for_selector('#app[data-semantic="ready"]', state="attached", timeout=TIMEOUT_MS)
    page.evaluate(OBSERVE)
    area = page.locator("#source-text")
    start, _end = area.evaluate(PASTE, PROSE)
    page.wait_for_function(
        "() => document.getElementById('app').dataset.semantic === 'pending'"
        " || document.getElementById('evidence-recall').textContent !== 'pending…'",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_selector('#app[data-semantic="ready"]', state="attached", timeout=TIMEOUT_MS)
    done = page.evaluate("() => performance.now()")
    longest = page.evaluate(
        "(start) => Math.max(0, ...window.__longTasks"
        ".filter(([b]) => b >= start).map(([, d]) => d))",
        start,
    )
    return {"figures_s": (done - start) / 1000, "longest_task_ms": longest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--port", type=int, default=8813)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-figures", action="store_true", help="skip the pasted document")
    options = parser.parse_args()
    dist = Path(options.dist)
    model = dist / "static" / "model" / "all-MiniLM-L6-v2.onnx"
    texts, ids = document_ids()
    runs = []
    with built_site(dist, options.port) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(options.repeat):
            run = page_run(browser, url, ids, dense=not options.no_figures)
            run["cli_chunks_per_s"] = len(ids) / cli_seconds(model, ids)
            run["ratio"] = run["page_chunks_per_s"] / run["cli_chunks_per_s"]
            runs.append(run)
            print(json.dumps(run), flush=True)
        browser.close()
    keys = [
        k
        for k in runs[0]
        if isinstance(runs[0][k], (int, float)) and not isinstance(runs[0][k], bool)
    ]
    median = {k: statistics.median(r[k] for r in runs if r.get(k) is not None) for k in keys}
    report = {
        "load_average": load(),
        "chunks": len(texts),
        "word_pieces": sum(len(i) for i in ids),
        "runs": runs,
        "median": median,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1), "utf-8")
    print(json.dumps({"chunks": len(texts), "median": median}, indent=1))


if __name__ == "__main__":
    main()
