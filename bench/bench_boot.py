"""Boot cost of the page against bare Pyodide, cold and warm, in headless Debian Chromium.

    python bench/bench_boot.py [--runs 5]

"bare" is a minimal page that imports the vendored pyodide.mjs, calls loadPyodide() and
runs 1+1; "page" is the built index.html until #app[data-state=ready]. Both are served by
build.make_server (same headers, same CSP) from a temporary copy of the built site. Cold
= a fresh browser profile (empty HTTP cache); warm = a second load in that profile. The
time is performance.now() in the page at the end, i.e. from navigation start. Runs
alternate between the two pages so that machine load affects both alike; the ratio
page/bare is the figure to compare across machines. Results: bench/results/boot.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, Playwright, sync_playwright  # noqa: E402

import build  # noqa: E402

ARGS = build.CHROMIUM_ARGS

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare pyodide</title>
<link rel="icon" href="data:,"><script type="module" src="bare.js"></script></head>
<body></body></html>
"""

BARE_JS = """import { loadPyodide } from "./%s";
const pyodide = await loadPyodide();
const result = pyodide.runPython("1+1");
window.__bootMs = performance.now();
document.documentElement.dataset.booted = String(result);
"""

# Records when the page first reaches data-state=ready (the test contract).
READY_PROBE = """
new MutationObserver((_, observer) => {
  const app = document.getElementById("app");
  if (app && app.dataset.state === "ready" && window.__bootMs === undefined) {
    window.__bootMs = performance.now();
    document.documentElement.dataset.booted = "ready";
    observer.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""


def transferred_bytes(page) -> int:
    return page.evaluate(
        "performance.getEntriesByType('resource').reduce((n, e) => n + e.transferSize, 0)"
        " + performance.getEntriesByType('navigation')[0].transferSize"
    )


def boot_once(context, url: str) -> tuple[float, int]:
    page = context.new_page()
    page.goto(url)
    # wait_for_selector, not wait_for_function: the page's CSP refuses Playwright's eval.
    page.wait_for_selector("html[data-booted]", state="attached", timeout=120_000)
    ms = page.evaluate("window.__bootMs")
    size = transferred_bytes(page)
    page.close()
    return ms, size


def measure(driver: Playwright, url: str) -> dict[str, float]:
    # A persistent profile has a disk cache, like a real browser; an incognito context's
    # memory cache is too small to keep the 9.6 MB pyodide.asm.wasm, so "warm" would
    # download it again.
    with tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=build.CHROMIUM, args=ARGS, headless=True
        )
        return measure_in(context, url)


def measure_in(context: BrowserContext, url: str) -> dict[str, float]:
    context.add_init_script(READY_PROBE)
    cold, cold_bytes = boot_once(context, url)
    warm, warm_bytes = boot_once(context, url)
    context.close()
    return {"cold": cold, "warm": warm, "cold_bytes": cold_bytes, "warm_bytes": warm_bytes}


@contextmanager
def served_site(prepare: Callable[[build.Site], None] | None = None) -> Iterator[str]:
    """Build the site (plus bare.html) into a temporary folder, serve it, yield its base URL.

    ``prepare`` may alter the temporary copy before serving (bench_page.py's profiling)."""
    with tempfile.TemporaryDirectory() as tmp:
        site = build.build(Path(tmp) / "dist")
        (site.root / "bare.html").write_text(BARE_HTML)
        (site.root / "bare.js").write_text(BARE_JS % site.vendored.pyodide)
        if prepare is not None:
            prepare(site)
        server = build.make_server(site.root, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()
            server.server_close()


def boot_runs(driver: Playwright, base: str, runs: int) -> dict[str, list[dict[str, float]]]:
    """``runs`` cold+warm samples of each page, alternating bare and page."""
    samples: dict[str, list[dict[str, float]]] = {"bare": [], "page": []}
    measure(driver, base + "bare.html")  # let the OS file cache settle first
    for run in range(runs):
        for name, path in (("bare", "bare.html"), ("page", "")):
            sample = measure(driver, base + path)
            samples[name].append(sample)
            print(
                f"run {run + 1} {name}: cold {sample['cold']:.0f} ms, warm {sample['warm']:.0f} ms",
                file=sys.stderr,
            )
    return samples


def summarise(samples: dict[str, list[dict[str, float]]]) -> dict:
    """Medians per page and the page/bare ratios."""
    summary: dict = {
        name: {
            key: statistics.median(s[key] for s in runs)
            for key in ("cold", "warm", "cold_bytes", "warm_bytes")
        }
        for name, runs in samples.items()
    }
    for kind in ("cold", "warm"):
        summary[f"ratio_{kind}"] = summary["page"][kind] / summary["bare"][kind]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    with served_site() as base, sync_playwright() as driver:
        samples = boot_runs(driver, base, args.runs)

    summary = summarise(samples)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "boot.json").write_text(json.dumps({"summary": summary, "samples": samples}, indent=1))
    print(f"median of {args.runs} runs, headless chromium")
    for name in ("bare", "page"):
        s = summary[name]
        print(
            f"{name:5}: cold {s['cold']:6.0f} ms  warm {s['warm']:6.0f} ms  "
            f"transferred cold {s['cold_bytes'] / 1e6:.2f} MB, warm {s['warm_bytes'] / 1e6:.2f} MB"
        )
    print(f"page/bare: cold {summary['ratio_cold']:.2f}x  warm {summary['ratio_warm']:.2f}x")


if __name__ == "__main__":
    main()
