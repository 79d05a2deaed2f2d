"""The page's speed in one run, headless Debian Chromium: boot, keystroke latency, chart, bytes.

    python bench/bench_page.py [--runs 5] [--settle 5000] [--edits 40] [--warmup 6]
    python bench/bench_page.py --profile | --compare 3 --variant table-fixed ...

1. Boot: bench_boot.py's table in the same run: bare Pyodide, the page from its start-up
   snapshot and the page without it (the fallback), cold and warm (``--runs`` interleaved
   runs, medians), each as a ratio to bare, with bytes raw and gzip.
2. Keystroke-to-paint latency over ``--edits`` real key presses (alternately Backspace and
   retyping the removed character at the end of the text area, so the text stays within
   20 000 code points) on 20 000 code points of tests/data/user_guide.txt:
   (a) default settings (recursive, 300/50); (b) a setting yielding close to but at most
   2 000 chunks (the chunk size is chosen here with chunker_py). (c) Sentence mode 300/50
   (its p95 no worse than (a)'s, Recursive mode's, in the same run). Times are
   performance.now() in the page: from the keydown event's time stamp (when the browser got
   the key, so a key waiting behind earlier work counts its wait) to the first animation frame after
   #app[data-state] is "ready" again ("frame"), and to a task queued in that frame, i.e.
   after its style, layout and paint and before the page's after-paint work ("paint").
   "ready" is when the panels were updated.
3. Trade-off chart redraws (window.Plotly.react wrapped in the page, once the real Plotly
   has replaced plotly-later.js's stand-in, counted per chart) against the number of edits
   that change the trade-off counts (computed with chunker_py here); plus a control: chunk
   size +1 and back must redraw it twice. The sizes histogram's redraws (after the paint)
   are reported too.
4. Bytes of a cold load: CDP Network.loadingFinished encodedDataLength summed (plus the
   start-up snapshot, which a worker fetches outside the page's CDP session).

``--map`` scrolls the page so the Chunk map is on screen (the text area stays in view: the
inputs column is sticky) before the latency cases, so every keystroke also lays out and
paints the map; ``--compare 3 --map --variant no-map`` gives its cost against the same page
without the map, in the same run.

``--profile`` serves a copy of the built site whose app/main.py is instrumented (never the
repository's files) and reports median milliseconds per phase of Page.update for both
latency cases; phases whose function no longer exists are left out. ``--variant NAME``
measures latency on a copy with a what-if change (see VARIANTS); ``--compare ROUNDS
--variant A --variant B+C`` serves baseline and variants side by side and alternates them
for ROUNDS rounds, which is what to trust on a busy machine.
Results: bench/results/page.json (page-<options>.json, page-compare.json otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_boot import ARGS, boot_runs, served_site, snapshot_url, summarise  # noqa: E402
from bench_boot import report as boot_report  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from chunker_py import analyse, parse_settings  # noqa: E402
from chunker_py.engine.limits import MAX_CHUNKS, MAX_CODE_POINTS  # noqa: E402
from sitebuild.paths import CHROMIUM  # noqa: E402
from sitebuild.site import Site  # noqa: E402

GUIDE = ROOT / "tests" / "data" / "user_guide.txt"
DEFAULTS = {"mode": "recursive", "chunk_size": "300", "chunk_overlap": "50"}
# the speed bars: first result at half a bare boot; keystroke p95 at the JS peer's (ChunkViz:
# p50 ~12 ms, p95 ~16 ms at 300 on this class of machine), one 60 Hz frame after the key
TARGETS = {"boot_ratio": 0.5, "p95_default": 16.0, "p95_2000": 16.0}
TRADEOFF_CHART, SIZES_CHART = "tradeoff-chart", "sizes-chart"

# In-page probe: the keydown event's time stamp (when the browser received the key, so a
# key waiting behind earlier work is counted), the ready mutation, the first animation frame after
# ready and a task queued in that frame (it runs after the frame's style, layout and paint).
# The probe asks for its frame at keydown, before the page asks for its own after-paint
# work, so its task runs ahead of that work and "paint" times the keystroke's frame only.
# Plotly.react calls are counted per chart element.
PROBE = """() => {
  const app = document.getElementById("app");
  const st = (window.__lat = { t0: null, ready: null, samples: [], waiters: [], react: {} });
  const sample = () => {
    const t0 = st.t0;
    if (t0 === null) return;
    if (st.ready === null) { requestAnimationFrame(sample); return; }
    const ready = st.ready, frame = performance.now();
    st.t0 = st.ready = null;
    setTimeout(() => {
      const paint = performance.now();
      st.samples.push({ t0, ready: ready - t0, frame: frame - t0, paint: paint - t0 });
      const waiters = st.waiters;
      st.waiters = [];
      waiters.forEach((w) => w());
    }, 0);
  };
  window.addEventListener("keydown", (event) => {
    // the key's own time, not the listener's: a key waiting behind other work counts
    st.t0 = event.timeStamp || performance.now();
    st.ready = null;
    requestAnimationFrame(sample);
  }, true);
  new MutationObserver(() => {
    if (app.dataset.state === "ready" && st.t0 !== null && st.ready === null) {
      st.ready = performance.now();
    }
  }).observe(app, { attributes: true, attributeFilter: ["data-state"] });
  const react = window.Plotly.react;
  window.Plotly.react = function (el, ...args) {
    const id = (el && el.id) || String(el);
    st.react[id] = (st.react[id] || 0) + 1;
    return react.call(this, el, ...args);
  };
}"""

# Resolves with sample n (1-based) once it exists.
SAMPLE = """(n) => new Promise((resolve) => {
  const st = window.__lat;
  const check = () =>
    st.samples.length >= n ? resolve(st.samples[n - 1]) : st.waiters.push(check);
  check();
})"""

# Applies text and settings as a user would (value + input/change events), then waits until
# the page is ready and one frame has been drawn; returns what the page shows.
APPLY = """async ({ text, mode, size, overlap }) => {
  const app = document.getElementById("app");
  const ready = () => new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => setTimeout(resolve, 0));
    if (app.dataset.state === "ready") return done();
    const obs = new MutationObserver(() => {
      if (app.dataset.state === "ready") { obs.disconnect(); done(); }
    });
    obs.observe(app, { attributes: true, attributeFilter: ["data-state"] });
  });
  const set = (id, value, event) => {
    const el = document.getElementById(id);
    if (el.value === value) return;
    el.value = value;
    el.dispatchEvent(new Event(event, { bubbles: true }));
  };
  const radio = document.getElementById("mode-" + mode);
  if (!radio.checked) {
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  }
  set("chunk-overlap", overlap, "input");
  set("chunk-size", size, "input");
  set("chunk-overlap", overlap, "input");
  if (text !== null) set("source-text", text, "input");
  await ready();
  const area = document.getElementById("source-text");
  return {
    chunks: document.getElementById("figure-chunks").textContent,
    status: document.getElementById("readiness-status").textContent,
    length: [...area.value].length,
  };
}"""

CARET_END = """() => {
  const area = document.getElementById("source-text");
  area.focus();
  area.setSelectionRange(area.value.length, area.value.length);
  return document.activeElement === area;
}"""

# app/main.py's line that starts the UI (variants and --profile insert code before it)
START = "inspector.start()\n"

# --profile: bench/page_profile.py, inserted in the COPY's app/main.py before START.
PROFILE = ROOT / "bench" / "page_profile.py"
PROFILE_CALL = "install_profile(inspector, performance)\n"

# --profile, JS side: time the JS builders and Plotly.react as called from Python.
JS_TIMERS = """() => {
  window.ciPhases = window.ciPhases || [];
  window.ciJs = [];
  const wrap = (obj, key, name) => {
    const fn = obj[key];
    obj[key] = function (...args) {
      const t0 = performance.now();
      try { return fn.apply(this, args); }
      finally { window.ciJs.push([name, performance.now() - t0]); }
    };
  };
  for (const key of Object.keys(window.ciRender || {})) {
    if (typeof window.ciRender[key] === "function") wrap(window.ciRender, key, `JS render.${key}`);
  }
  if (window.ciChunkMap) wrap(window.ciChunkMap, "chunkMap", "JS chunkMap.chunkMap");
  wrap(window.Plotly, "react", "JS Plotly.react");
}"""


def prose(code_points: int = MAX_CODE_POINTS) -> str:
    sample = GUIDE.read_text(encoding="utf-8")
    text = (sample * (code_points // len(sample) + 1))[:code_points]
    assert len(text) == code_points
    return text


def near_limit_setting(text: str) -> dict[str, str]:
    """Recursive mode, overlap 0: the chunk size whose count is closest to but at most the
    chunk limit, for the text and for the text less its last character (the edits)."""
    best = None
    for size in range(2, 200):
        counts = []
        for variant in (text, text[:-1]):
            result = analyse(
                variant, parse_settings({**DEFAULTS, "chunk_size": str(size), "chunk_overlap": "0"})
            )
            counts.append(result.count if result.error is None else None)
        if None not in counts and max(counts) <= MAX_CHUNKS:
            best = (size, max(counts))
            break
    assert best is not None
    return {"mode": "recursive", "chunk_size": str(best[0]), "chunk_overlap": "0"}


def chart_key(text: str, setting: dict[str, str]) -> tuple:
    chosen = parse_settings(setting)
    result = analyse(text, chosen)
    return tuple((t.size, t.count) for t in result.tradeoffs), chosen.chunk_size, result.count


def pct(values: list[float], q: float) -> float:
    """Percentile by linear interpolation (q in 0..100)."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# --map: bring the chunk map on screen (scrolling the page, not the map's own box).
SHOW_MAP = """() => {
  const panel = document.getElementById("chunk-map-panel");
  panel.scrollIntoView({ block: "start" });
  const box = panel.getBoundingClientRect();
  return box.top < innerHeight && box.bottom > 0;
}"""


def show_map(page: Page) -> None:
    assert page.evaluate(SHOW_MAP), "the chunk map is not on screen"


def apply(page: Page, setting: dict[str, str], text: str | None) -> dict[str, Any]:
    return page.evaluate(
        APPLY,
        {
            "text": text,
            "mode": setting["mode"],
            "size": setting["chunk_size"],
            "overlap": setting["chunk_overlap"],
        },
    )


def edit_latency(
    page: Page, text: str, setting: dict[str, str], edits: int, warmup: int
) -> dict[str, Any]:
    """Latency of ``edits`` key presses (after ``warmup`` unmeasured ones) at ``setting``."""
    shown = apply(page, setting, text)
    assert shown["length"] == len(text), shown
    if MAP_SHOWN:
        show_map(page)
    assert page.evaluate(CARET_END), "the text area did not take focus"
    if MAP_SHOWN:
        show_map(page)
    last = text[-1]
    page.evaluate("() => { window.__lat.react = {}; }")
    samples = []
    for i in range(warmup + edits):
        n = page.evaluate("() => window.__lat.samples.length") + 1
        if i % 2 == 0:
            page.keyboard.press("Backspace")
        else:
            page.keyboard.type(last)
        sample = page.evaluate(SAMPLE, n)
        if i >= warmup:
            samples.append(sample)
        page.wait_for_timeout(30)  # let timers, GC and Plotly's own work settle
    react_calls = page.evaluate("() => window.__lat.react")  # per chart element id
    final = page.evaluate("() => [...document.getElementById('source-text').value].length")
    expected = chart_key(text, setting)[:2] != chart_key(text[:-1], setting)[:2]
    result: dict[str, Any] = {
        "setting": setting,
        "chunks_shown": shown["chunks"],
        "status": shown["status"],
        "edits": edits,
        "warmup": warmup,
        "final_length": final,
        "plotly_react_calls": react_calls.get(TRADEOFF_CHART, 0),
        "plotly_react_expected": (warmup + edits) if expected else 0,
        "histogram_react_calls": react_calls.get(SIZES_CHART, 0),
    }
    for key in ("ready", "frame", "paint"):
        values = [s[key] for s in samples]
        result[key] = {"p50": pct(values, 50), "p95": pct(values, 95), "max": max(values)}
    result["samples"] = samples
    return result


def chart_control(page: Page, text: str) -> dict[str, int]:
    """Chunk size 300 -> 301 -> 300 changes the trade-off data twice: two redraws of the
    trade-off chart expected."""
    apply(page, dict(DEFAULTS), None)
    page.evaluate("() => { window.__lat.react = {}; }")
    for size in ("301", "300"):
        apply(page, {**DEFAULTS, "chunk_size": size}, None)
        # the chart is redrawn after the paint (after a pause when edits come quickly)
        page.wait_for_selector('#app[data-chart="ready"]', state="attached")
    expected = sum(
        chart_key(text, {**DEFAULTS, "chunk_size": a})[:2]
        != chart_key(text, {**DEFAULTS, "chunk_size": b})[:2]
        for a, b in (("300", "301"), ("301", "300"))
    )
    calls = page.evaluate("() => window.__lat.react")
    return {"plotly_react_calls": calls.get(TRADEOFF_CHART, 0), "expected": expected}


def wait_for_plotly(page: Page) -> None:
    """The real Plotly arrives after the first result (static/plotly-later.js); PROBE wraps
    its react(), not the stand-in's."""
    page.wait_for_selector('html[data-plotly="loaded"]', state="attached", timeout=60_000)


def persistent_context(driver: Any, profile_dir: str) -> Any:
    """Debian's Chromium with a fresh profile on disk (so a warm load has a cache)."""
    return driver.chromium.launch_persistent_context(
        profile_dir,
        executable_path=CHROMIUM,
        args=ARGS,
        headless=True,
        viewport={"width": 1280, "height": 900},
    )


def worker_snapshot_bytes(page) -> int:
    """The start-up snapshot's bytes: snapshot.js's worker fetches it, and a worker's
    requests are not in the page's CDP session (fetched again here, from the same server)."""
    if page.get_attribute("#app", "data-boot") != "snapshot":
        return 0
    with urllib.request.urlopen(snapshot_url(page)) as response:
        return len(response.read())


def interactive(
    driver, base: str, text: str, cases: dict, edits: int, warmup: int, profile: bool
) -> dict[str, Any]:
    """One cold load (bytes counted by CDP), then the latency cases in that page."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as profile_dir:
        context = persistent_context(driver, profile_dir)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        encoded: dict[str, float] = {}
        cdp.on(
            "Network.loadingFinished",
            lambda e: encoded.__setitem__(e["requestId"], e["encodedDataLength"]),
        )
        bodies: list[int] = []

        def on_response(response) -> None:
            with contextlib.suppress(Exception):  # redirects, aborted requests: no body
                bodies.append(len(response.body()))

        page.on("response", on_response)
        page.goto(base)
        page.wait_for_selector('#app[data-state="ready"]', state="attached", timeout=120_000)
        wait_for_plotly(page)
        page.wait_for_timeout(500)  # late requests (none expected) would still be counted
        page.remove_listener("response", on_response)
        out["cold_load"] = {
            "cdp_encoded_bytes": sum(encoded.values()) + worker_snapshot_bytes(page),
            "response_body_bytes": sum(bodies),
            "requests": len(encoded) + 1,
        }
        page.evaluate(PROBE)
        if profile:
            page.evaluate(JS_TIMERS)
        for name, setting in cases.items():
            if profile:
                page.evaluate("() => { window.ciPhases.length = 0; window.ciJs.length = 0; }")
            result = edit_latency(page, text, setting, edits, warmup)
            if profile:
                result["phases"] = phase_medians(page, warmup)
            out[name] = result
            print(
                f"{name}: {result['chunks_shown']} chunks, frame p50 {result['frame']['p50']:.1f}"
                f" p95 {result['frame']['p95']:.1f} ms; paint p95 {result['paint']['p95']:.1f} ms",
                file=sys.stderr,
            )
        out["chart_control"] = chart_control(page, text)
        context.close()
    return out


def phase_medians(page: Page, warmup: int) -> dict[str, float]:
    """Median ms per phase over the measured edits (Python phases and JS calls)."""
    records = [json.loads(r) for r in page.evaluate("() => window.ciPhases.slice()")]
    records = records[warmup:]
    js = page.evaluate("() => window.ciJs.slice()")
    phases: dict[str, list[float]] = {}
    for record in records:
        for key, value in record.items():
            if not key.startswith("_"):
                phases.setdefault(key, []).append(value)
    per_call: dict[str, list[float]] = {}
    for key, value in js:
        per_call.setdefault(key, []).append(value)
    result = {k: statistics.median(v) for k, v in phases.items()}
    for key, values in per_call.items():
        # JS calls per update (the chart may not be called at all): the median of the calls
        # made, and how many there were.
        result[f"{key} (median per call, {len(values)} calls)"] = statistics.median(values)
    return dict(sorted(result.items(), key=lambda kv: -kv[1]))


MAP_SHOWN = False  # set by --map

FIFTY_QUESTIONS = """
import evidence as _ev
from chunker_py.measures.evidence import Excerpt as _Ex, Question as _Q
_shown = _ev.EvidencePanel.show
def _fifty(self, result):
    t = self.source.text
    if len(t) > 10000 and len(self.questions) != 50:
        step = len(t) // 51
        at = [i * step for i in range(1, 51)]
        self.questions = [_Q(t[a : a + 60], (_Ex(t[a : a + 120], a, a + 120),)) for a in at]
        self.anchored_to = t
    _shown(self, result)
_ev.EvidencePanel.show = _fifty
"""

# --variant: what-if edits of the COPY's static files (never the repository's), to measure
# candidate optimisations. Each maps a file to (old, new) replacements that must apply.
VARIANTS: dict[str, dict[str, list[tuple[str, str]]]] = {
    # Fixed table layout: column widths from the first row only.
    "table-fixed": {
        "style.css": [("table.records {\n", "table.records {\n  table-layout: fixed;\n")]
    },
    # No chunk map (the reference for the map's cost).
    "no-map": {
        "chunkmap.js": [
            (
                "const chunkMap = (root, text, json) => {\n",
                "const chunkMap = (root, text, json) => {\n  return;\n",
            )
        ]
    },
    # The after-paint work runs after every key, even while keys follow closely. (The app's
    # modules come compiled in the start-up snapshot: variants change them from main.py.)
    "no-typing-pause": {
        "app/main.py": [(START, "inspector.TYPING_GAP_MS = 0\n" + START)],
    },
    # Evidence check: no questions at all (the page ships the sample's three),
    # or 50 questions on the measured text (one excerpt each, spread over the text).
    "no-questions": {
        "app/main.py": [
            (
                START,
                "import evidence\nevidence.EvidencePanel._load_sample = lambda self: None\n"
                + START,
            )
        ]
    },
    "fifty-questions": {"app/main.py": [(START, FIFTY_QUESTIONS + START)]},
    # The objects alive after start-up stay in the garbage collector's view.
    "gc-auto": {"app/main.py": [(START, START + "import gc\ngc.enable()\n")]},
    # Skip rendering work for panels outside the viewport.
    "cv-auto": {
        "style.css": [
            (
                ".panel {\n",
                ".panel {\n  content-visibility: auto;\n  contain-intrinsic-size: auto 600px;\n",
            )
        ]
    },
}


def patch_variants(site: Site, names: list[str]) -> None:
    for name in names:
        for file, edits in VARIANTS[name].items():
            path = site.root / site.build / file
            text = path.read_text("utf-8")
            for old, new in edits:
                if old not in text:
                    raise SystemExit(f"--variant {name}: {file} no longer contains {old!r}")
                text = text.replace(old, new)
            path.write_text(text, "utf-8")


def compare(
    driver,
    base: str,
    text: str,
    cases: dict,
    names: list[str],
    rounds: int,
    edits: int,
    warmup: int,
) -> dict[str, Any]:
    """Baseline and each variant (served side by side) in alternating rounds, so machine
    load hits all alike; per round a fresh page and ``edits`` measured edits per case."""
    pooled: dict[str, dict[str, list[dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory() as profile_dir:
        context = persistent_context(driver, profile_dir)
        for round_ in range(rounds):
            for name in ["baseline", *names]:
                page = context.new_page()
                page.goto(base + ("" if name == "baseline" else f"v-{name}/"))
                page.wait_for_selector(
                    '#app[data-state="ready"]', state="attached", timeout=120_000
                )
                wait_for_plotly(page)
                page.evaluate(PROBE)
                for case, setting in cases.items():
                    r = edit_latency(page, text, setting, edits, warmup)
                    pooled.setdefault(name, {}).setdefault(case, []).extend(r["samples"])
                page.close()
            print(f"compare: round {round_ + 1} of {rounds} done", file=sys.stderr)
        context.close()
    out: dict[str, Any] = {}
    for name, per_case in pooled.items():
        out[name] = {
            case: {
                key: {"p50": pct([x[key] for x in xs], 50), "p95": pct([x[key] for x in xs], 95)}
                for key in ("ready", "frame", "paint")
            }
            for case, xs in per_case.items()
        }
    return out


def serve_variants(site: Site, names: list[str]) -> None:
    """Each variant as a patched copy of the whole site in v-<name>/."""
    for name in names:
        copy = site.root / f"v-{name}"
        shutil.copytree(site.root, copy, ignore=shutil.ignore_patterns("v-*"))
        patch_variants(dataclasses.replace(site, root=copy), name.split("+"))


def instrument(site: Site) -> None:
    main = site.root / site.build / "app" / "main.py"
    source = main.read_text("utf-8")
    if START not in source:
        raise SystemExit(f"--profile: app/main.py no longer has {START!r}; update {PROFILE.name}")
    profile = PROFILE.read_text("utf-8")
    main.write_text(source.replace(START, f"{profile}\n{PROFILE_CALL}{START}"))


def ms(value: float) -> str:
    return f"{value:7.1f}"


def report(results: dict[str, Any], runs: int) -> None:
    boot = results.get("boot")
    lines = [
        f"bench_page.py: headless Chromium, {runs} boot runs (medians), "
        f"{results['latency_edits']} edits per latency case"
    ]
    if results["variants"]:
        lines.append(f"what-if variants (copy of the site): {', '.join(results['variants'])}")
    if boot:
        lines.append(
            f"boot to first result (target: snapshot <= {TARGETS['boot_ratio']}x bare, "
            "cold and warm); " + boot_report(boot, runs, results["settle_ms"])
        )
    lines.append(f"{'keystroke latency (ms)':34} {'p50':>7} {'p95':>7} {'max':>7}  target p95")
    latency_cases = [("default", TARGETS["p95_default"]), ("near_2000", TARGETS["p95_2000"])]
    if "sentence" in results:  # no worse than Recursive mode's p95 (same run)
        latency_cases.append(("sentence", None))
    for name, target in latency_cases:
        r = results[name]
        s = r["setting"]
        lines.append(
            f"  {name}: {s['mode']} {s['chunk_size']}/{s['chunk_overlap']}, "
            f"{r['chunks_shown']} chunks"
        )
        for key, label in (
            ("ready", "to ready"),
            ("frame", "to next frame"),
            ("paint", "to after paint"),
        ):
            v = r[key]
            mark = ""
            if key != "ready":
                goal = results["default"][key]["p95"] if target is None else target
                mark = f"  {goal:.0f} ({'met' if v['p95'] <= goal else 'MISSED'})"
                if target is None:
                    mark += " (Recursive's p95)"
            lines.append(f"    {label:30} {ms(v['p50'])} {ms(v['p95'])} {ms(v['max'])}{mark}")
        lines.append(
            f"    Plotly.react calls: {r['plotly_react_calls']} in "
            f"{r['edits'] + r['warmup']} edits (expected {r['plotly_react_expected']}: "
            f"trade-off counts unchanged)"
            if not r["plotly_react_expected"]
            else f"    Plotly.react calls: {r['plotly_react_calls']} (expected "
            f"{r['plotly_react_expected']})"
        )
        lines.append(f"    sizes histogram redraws (after the paint): {r['histogram_react_calls']}")
    c = results["chart_control"]
    lines.append(
        f"  chart control (size 300->301->300): {c['plotly_react_calls']} Plotly.react "
        f"calls, expected {c['expected']}"
    )
    cold = results["cold_load"]
    lines.append(
        f"cold load bytes: {cold['cdp_encoded_bytes'] / 1e6:.2f} MB on the wire (CDP, "
        f"{cold['requests']} requests), bodies {cold['response_body_bytes'] / 1e6:.2f} MB"
    )
    for name in ("default", "near_2000", "sentence"):
        if "phases" in results.get(name, {}):
            lines.append(f"profile {name} (median ms per update):")
            for key, value in results[name]["phases"].items():
                lines.append(f"    {key:54} {value:7.2f}")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=5, help="boot runs (each cold + warm); 0 skips the boot part"
    )
    parser.add_argument(
        "--settle", type=int, default=5000, help="ms on the page before a warm boot"
    )
    parser.add_argument("--edits", type=int, default=40, help="measured edits per case (>= 30)")
    parser.add_argument("--warmup", type=int, default=6)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instrumented copy: Page.update phases; skips the boot runs",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="what-if change measured on a copy (repeatable; a+b with --compare); skips boot runs",
    )
    parser.add_argument(
        "--compare",
        type=int,
        metavar="ROUNDS",
        default=0,
        help="instead: baseline vs each --variant alone, interleaved in ROUNDS"
        " rounds of --edits edits per case",
    )
    parser.add_argument(
        "--map", action="store_true", help="keep the Chunk map on screen while typing"
    )
    parser.add_argument("--port", type=int, default=0, help="serve on this port (0: a free one)")
    args = parser.parse_args()
    global MAP_SHOWN
    MAP_SHOWN = args.map
    for variant in args.variant:
        unknown = set(variant.split("+")) - set(VARIANTS)
        if unknown or ("+" in variant and not args.compare):
            parser.error(
                f"--variant {variant}: choose from {', '.join(sorted(VARIANTS))}"
                " (a+b combinations only with --compare)"
            )

    def prepare(site: Site) -> None:
        if args.compare:
            serve_variants(site, args.variant)
            return
        patch_variants(site, args.variant)
        if args.profile:
            instrument(site)

    text = prose()
    cases = {
        "default": dict(DEFAULTS),
        "near_2000": near_limit_setting(text),
        "sentence": {**DEFAULTS, "mode": "sentence"},  # target: Recursive's p95 (default)
    }
    results: dict[str, Any] = {"latency_edits": args.edits, "text_code_points": len(text)}
    started = time.monotonic()
    results["variants"] = args.variant
    if args.compare:
        with served_site(prepare, port=args.port) as served, sync_playwright() as driver:
            table = compare(
                driver, served.url, text, cases, args.variant, args.compare, args.edits, args.warmup
            )
        out = ROOT / "bench" / "results"
        out.mkdir(parents=True, exist_ok=True)
        (out / "page-compare.json").write_text(json.dumps(table, indent=1))
        print(
            f"{'variant (ms, pooled)':36} {'default frame p50/p95':>24} "
            f"{'near-2000 frame p50/p95':>26}"
            f" {'default ready p50':>18} {'near ready p50':>15}"
        )
        for name, r in table.items():
            d, n = r["default"], r["near_2000"]
            print(
                f"{name:36} {d['frame']['p50']:11.0f} / {d['frame']['p95']:5.0f}"
                f" {n['frame']['p50']:13.0f} / {n['frame']['p95']:5.0f}"
                f" {d['ready']['p50']:18.0f} {n['ready']['p50']:15.0f}"
            )
        return
    results["settle_ms"] = args.settle
    with served_site(prepare, port=args.port) as served, sync_playwright() as driver:
        if args.runs and not args.profile and not args.variant:
            samples = boot_runs(driver, served, args.runs, args.settle)
            results["boot"] = summarise(samples)
            results["boot_samples"] = samples
        results.update(
            interactive(driver, served.url, text, cases, args.edits, args.warmup, args.profile)
        )
    results["seconds"] = time.monotonic() - started
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    name = "page.json"
    if args.profile or args.variant or args.map:
        parts = (["profile"] if args.profile else []) + (["map"] if args.map else [])
        name = "page-" + "-".join(parts + args.variant) + ".json"
    (out / name).write_text(json.dumps(results, indent=1))
    report(results, len(results.get("boot_samples", {}).get("bare", [])))


if __name__ == "__main__":
    main()
