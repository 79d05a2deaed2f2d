"""Several documents in the page: 20 documents of 20,000 code points and 50 questions,
against one document, in the same run.

    python bench/bench_documents_page.py [--documents 20] [--dist dist --port 8812]

The page built into a temporary folder (or, with --dist, a site already built, served on
--port), headless Debian Chromium at 1,400 x 900, a fresh page per case. Each case browses
its files at once (Browse TXT/MD), then imports 50 questions about the first document.
Reported per case (seconds from the files given to Browse TXT/MD, performance.now() in
the page): the selected document's result shown, its comparison ready, the comparison
over the set ready (several documents only), and the questions' figures ready after
their import; and the longest task (PerformanceObserver, 50 ms or more) from the import
to the set's table. The ratio of each time to one document's is what to compare across
runs; times on a busy machine are longer for both cases alike.
Results: bench/results/documents_page.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_long_tasks import load, site_url  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from sitebuild.paths import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.page.conftest import launch_app  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "documents_page.json"
WORDS = ["account", "backup", "codes", "reset", "password", "billing", "invoice", "audit",
         "laptop", "admin", "review", "policy", "refund", "team", "access", "key"]  # fmt: skip
LONG_TASKS = """() => {
    window.__long = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__long.push(entry.duration);
    }).observe({ type: 'longtask' });
}"""


def document(seed: int, code_points: int = 20_000) -> str:
    """Markdown prose: headings, paragraphs of sentences, a list now and then."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < code_points:
        words = rng.sample(WORDS, 9)
        sentence = " ".join(words).capitalize() + ". "
        block = (
            f"## Section {len(out)}\n\n"
            if rng.random() < 0.08
            else "- " + sentence + "\n"
            if rng.random() < 0.1
            else sentence * 3 + "\n\n"
        )
        out.append(block)
        size += len(block)
    return "".join(out)[:code_points]


def questions(text: str, count: int = 50) -> bytes:
    """``count`` questions, each with one excerpt of ``text`` at its offsets."""
    rng = random.Random(1)
    lines = []
    for n in range(count):
        start = rng.randrange(0, len(text) - 80)
        ref = {"content": text[start : start + 60], "start_index": start,
               "end_index": start + 60}  # fmt: skip
        lines.append(json.dumps({"question": f"Question {n} about {rng.choice(WORDS)}?",
                                 "references": [ref]}))  # fmt: skip
    return "\n".join(lines).encode()


def case(browser: Any, url: str, count: int) -> dict[str, float]:
    app = launch_app(browser, url, viewport={"width": 1400, "height": 900})
    app.open().wait_ready()
    page = app.page
    page.wait_for_selector('#app[data-comparison="ready"]', state="attached", timeout=180_000)
    texts = [document(seed) for seed in range(count)]
    files: list[Any] = [
        {"name": f"doc-{n:02}.md", "mimeType": "text/markdown", "buffer": text.encode()}
        for n, text in enumerate(texts)
    ]
    page.evaluate(LONG_TASKS)
    page.evaluate("() => { window.__ciStart = performance.now(); }")
    page.get_by_label("Browse TXT/MD").set_input_files(files=files)
    since = "(performance.now() - window.__ciStart) / 1000"
    shown = (
        "() => document.getElementById('source-status').textContent.startsWith('Imported')"
        f" && document.getElementById('app').dataset.state === 'ready' && {since}"
    )
    out: dict[str, float] = {"result": page.wait_for_function(shown, timeout=180_000).json_value()}
    page.wait_for_selector('#app[data-comparison="ready"]', state="attached", timeout=600_000)
    out["comparison"] = page.evaluate(f"() => {since}")
    if count > 1:
        page.wait_for_selector('#app[data-set="ready"]', state="attached", timeout=900_000)
        out["set"] = page.evaluate(f"() => {since}")
    out["longest_task_ms"] = max(page.evaluate("() => window.__long"), default=0.0)
    page.evaluate("() => { window.__ciStart = performance.now(); }")
    asked: Any = {"name": "asked.jsonl", "mimeType": "application/jsonl",
                  "buffer": questions(texts[0])}  # fmt: skip
    page.get_by_label("Import questions").set_input_files(files=[asked])
    page.wait_for_function(
        "() => document.getElementById('evidence-status').textContent.startsWith('Imported')",
        timeout=60_000,
    )
    page.wait_for_selector('#app[data-evidence="ready"]', state="attached", timeout=600_000)
    out["questions"] = page.evaluate(f"() => {since}")
    page.context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--dist", help="serve this built site instead of building one")
    parser.add_argument("--port", type=int, default=0, help="with --dist (0: any free port)")
    args = parser.parse_args()
    print(f"load {load()} at the start", flush=True)
    with site_url(args.dist, args.port) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        one = case(browser, url, 1)
        several = case(browser, url, args.documents)
        browser.close()
    print(f"{'':>28} {'1 document':>12} {f'{args.documents} documents':>14} {'ratio':>7}")
    for key, label in [("result", "selected document's result"),
                       ("comparison", "its comparison"), ("questions", "50 questions' figures"),
                       ("longest_task_ms", "longest task (ms)")]:  # fmt: skip
        a, b = one[key], several[key]
        ratio = f"{b / a:.2f}\N{MULTIPLICATION SIGN}" if a else "—"
        print(f"{label:>28} {a:>12.2f} {b:>14.2f} {ratio:>7}")
    print(f"{'the set comparison':>28} {'—':>12} {several['set']:>14.2f}")
    print(f"load {load()} at the end", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"one": one, "several": several, "when": time.time()}))


if __name__ == "__main__":
    main()
