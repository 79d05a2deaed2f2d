"""Long tasks: the longest task of the page on hostile documents, in every mode.

    python bench/bench_long_tasks.py [--modes fixed,markdown] [--docs nested-list,table]
        [--dist dist --port 8812]

The page built into a temporary folder (or, with --dist, a site already built, served
on --port), headless Debian Chromium at 1,400 x 900. In each
mode: ordinary prose (tests/page/typing/hostile.py's PROSE, 20,000 code points) and each of
hostile.py's documents, pasted in one input event; everything after the paint (charts,
damage, the comparison, evidence) waits to be done. hostile.py's probe logs every Python
step of the page and a PerformanceObserver every long task (50 ms or more). Reported per
document (milliseconds, performance.now() in the page):

- edit: the paste's own task (the split and the result drawn);
- key: the same for a keystroke after it (its middle code point typed over), and the
  longest task after that;
- longest: the longest task after it; its ratio to prose's in the same mode and run
  (prose's longest task or edit, 50 ms at least: a long task is 50 ms or more);
- step: the longest Python step after the paint, its name and its number among that
  generator's steps (``_comparison #0-#6``: the comparison's rows; a fresh page per mode,
  so no row comes from another mode's cache);
- render: the longest task in which no Python step ran (the browser's style, layout and
  paint of what a step built);
- full gc: one full cycle collection right after (``gc.collect()``, timed in the page):
  what the page paid in one task after the steps before the edit's work was paced, and pays now only
  once the page has been idle for 5 s (app/inspector.py IDLE_COLLECT_MS).

The bar: no task over 200 ms. Times on a busy machine are longer for every
document alike; the ratios to prose are what to compare across runs.
Results: bench/results/long_tasks.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_boot import served_site  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chunker_py import MODES  # noqa: E402
from sitebuild.paths import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import make_server  # noqa: E402
from tests.page.conftest import launch_app  # noqa: E402
from tests.page.typing.hostile import HOSTILE, PROSE, probe, show  # noqa: E402

LIMIT_MS = 200
FLOOR_MS = 50
RESULTS = ROOT / "bench" / "results" / "long_tasks.json"
FULL_GC = """
import gc
from js import performance
_t = performance.now()
gc.collect()
performance.now() - _t
"""


def keystroke(text: str) -> str:
    """``text`` with its middle code point typed over (an edit within the limits: the
    hostile texts are 20,000 code points, so nothing can be added)."""
    middle = len(text) // 2
    return text[:middle] + "x" + text[middle + 1 :]


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


def figures(seen: dict[str, Any]) -> dict[str, Any]:
    start, end = seen["edit"]
    edit_task = next((s[1] for s in seen["steps"] if s[0] == "Page.update"), None)
    after = [s for s in seen["steps"] if s[1] != edit_task]
    longs = seen["long"]
    own = [d for b, d in longs if b <= start <= b + d]
    later = [(b, d) for b, d in longs if not b <= start <= b + d]
    render = [d for b, d in later if not any(b <= s[2] <= b + d for s in after)]
    step = max(after, key=lambda s: s[3] - s[2], default=None)
    # which of its generator's steps it was (the comparison: rows first, in
    # chunker_py's compare_rows order, then evidence per row, then damage per size)
    nth = 0 if step is None else [s[0] for s in after[: after.index(step)]].count(step[0])
    return {
        "edit": max([end - start, *own]),
        "longest": max((d for _b, d in later), default=0.0),
        "step": 0.0 if step is None else step[3] - step[2],
        "step_name": "" if step is None else f"{step[0].split()[-1]} #{nth}",
        "render": max(render, default=0.0),
        "steps": len(after),
    }


@contextlib.contextmanager
def built_site(dist: Path, port: int) -> Iterator[str]:
    """Serve ``dist`` (a site built already) on ``port``; its URL."""
    httpd = make_server(dist, port)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def site_url(dist: str | None, port: int) -> Iterator[str]:
    if dist is None:
        with served_site() as served:
            yield served.url
    else:
        with built_site(Path(dist), port) as url:
            yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--docs", default=",".join(HOSTILE))
    parser.add_argument("--dist", help="serve this built site instead of building one")
    parser.add_argument("--port", type=int, default=0, help="with --dist (0: any free port)")
    args = parser.parse_args()
    modes = args.modes.split(",")
    docs = args.docs.split(",")
    results: dict[str, dict[str, Any]] = {}
    print(f"load {load()} at the start", flush=True)
    with site_url(args.dist, args.port) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for mode in modes:
            # a fresh page per mode: the per-text caches would otherwise serve the later
            # modes' comparison rows from the first mode's run
            app = launch_app(browser, url, viewport={"width": 1400, "height": 900})
            app.open().wait_ready()
            probe(app)
            app.choose(MODES[mode].label)
            show(app, PROSE[:-1])  # this mode's code and tables loaded
            rows = results[mode] = {}
            for name in ["prose", *docs]:
                text = PROSE if name == "prose" else HOSTILE[name]()
                row = figures(show(app, text))
                row["full_gc"] = float(app.python(FULL_GC))  # type: ignore[arg-type]
                key = figures(show(app, keystroke(text)))
                row["key_edit"], row["key_longest"] = key["edit"], key["longest"]
                row["worst"] = max(row["edit"], row["longest"], key["edit"], key["longest"])
                rows[name] = row
                row["ratio"] = row["worst"] / max(FLOOR_MS, rows["prose"]["worst"])
                print(
                    f"{MODES[mode].label:18} {name:12} edit {row['edit']:5.0f} longest "
                    f"{row['longest']:5.0f} key {key['edit']:5.0f}/{key['longest']:5.0f} "
                    f"(x{row['ratio']:.1f} prose) step {row['step']:5.0f} "
                    f"{row['step_name']:22} render {row['render']:4.0f} full gc "
                    f"{row['full_gc']:4.0f} steps {row['steps']}",
                    flush=True,
                )
            app.page.context.close()
        browser.close()
    over = [
        f"{m}/{d}: {r['worst']:.0f} ms"
        for m, rows in results.items()
        for d, r in rows.items()
        if r["worst"] > LIMIT_MS
    ]
    print(f"load {load()} at the end")
    print("over 200 ms:", ", ".join(over) if over else "none")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
