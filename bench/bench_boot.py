"""Boot cost of the page against bare Pyodide, cold and warm, in headless Debian Chromium.

    python bench/bench_boot.py [--runs 5] [--settle 5000] [--repeat 1] [--http-gzip]
                               [--mbit 10 --latency 40 --offline [--gzip-host]]

Pages, all served by sitebuild's make_server (same headers, same CSP) from one temporary build:

    bare         a minimal page: import the vendored pyodide.mjs, loadPyodide(), runPython("1+1")
    peer         a JavaScript page of the peer's (ChunkViz's) shape: its chunks of the sample
                 listed by one script (see PEER_HTML); the page's first look is compared to it
    snapshot     the built page (boots from the start-up snapshot), until #app is "ready"
    no-snapshot  a copy of the page without the snapshot file: the fallback, a normal boot
    snapshot-always  (--pages) a copy of the page whose link probe always finds the link fast:
                 the snapshot path on a first visit whatever the link (on a slow link the
                 page itself takes the full boot, so this is what it would cost instead)
    before       (--before DIST) another build's dist/ (say, main's), copied in beside the
                 page: before and after a change in one interleaved run
    http-gzip    (--http-gzip) the snapshot uncompressed in the page's eyes, sent with
                 Content-Encoding: gzip (the browser inflates it off the main thread)
                 instead of a .gz file inflated by DecompressionStream in the page

Cold = a fresh browser profile (empty HTTP cache); warm = a second load in that profile
after the first has stayed open ``--settle`` ms (a returning visitor: V8 writes its
compiled-wasm cache a few seconds after a load, so a warm load straight after a cold one
measures a cache that real visitors have); ``--repeat N`` makes N such visits one after the
other, and the median one is the run's warm time. The time is performance.now() in the page when
it is done, i.e. from navigation start. Runs alternate between the pages so that machine
load affects all alike; the ratios to bare are the figures to compare across machines.

A throttled host (``--mbit N``): one token bucket of N Mbit/s shared by every connection,
``--latency`` ms before each response, compression as sitebuild's server sends it (brotli
or gzip from the precompressed copies, as a good static host does). ``--offline`` adds a
third visit with the host down (every request answered by closing the connection) after
the page's service worker has stored the build: "offline" is that reload's time, or
"fails". With the service worker the warm (repeat) visit is served from its cache.
``--gzip-host``: the throttled host offers gzip only (as many static hosts), not brotli.
A throttled host listens on 127.0.0.2, not 127.0.0.1: static/snapshot.js takes localhost,
127.0.0.1 and ::1 for a fast link without measuring it, and must measure this one.
The report then lists, per page, the bytes each file put on the wire before the first
result (cold visit, as the host sent them): what the critical path costs, file by file.

Bytes: the files a cold load requested, raw (as sitebuild's make_server sends them) and as a
gzip-compressing host would send them (each response gzip -6, already-gzipped files as
they are). Results: bench/results/boot.json.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.server
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, Playwright, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from sitebuild.offline import write_offline  # noqa: E402
from sitebuild.paths import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from sitebuild.serve import SiteHandler  # noqa: E402
from sitebuild.site import Site, build  # noqa: E402

ARGS = CHROMIUM_ARGS

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

# The JavaScript peer's shape (ChunkViz: one HTML page and one script that splits a text
# inline in it and lists the chunks; the real one is 0.08 MB on the
# wire). This stand-in is a few KB, so it is faster than the real peer: the page's first
# look is compared against it. Its time is when its chunks are in the DOM, as the page's
# first look (static/firstlook.js's ci:first-look mark).
PEER_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>peer</title>
<link rel="icon" href="data:,"><script type="module" src="peer.js"></script></head>
<body><ol id="chunks"></ol></body></html>
"""

PEER_JS = """const text = %s;
// a recursive character splitter (separators in order, no overlap), as the peer has
const split = (piece, seps, size) => {
  if (piece.length <= size) return [piece];
  const [sep, ...rest] = seps;
  const parts = sep === "" ? [...piece] : piece.split(sep);
  const out = [];
  let current = "";
  for (const part of parts) {
    const next = current ? current + sep + part : part;
    if (next.length <= size) { current = next; continue; }
    if (current) out.push(current);
    if (part.length > size && rest.length) { out.push(...split(part, rest, size)); current = ""; }
    else current = part;
  }
  if (current) out.push(current);
  return out;
};
const list = document.getElementById("chunks");
for (const chunk of split(text, ["\\n\\n", "\\n", " ", ""], 300)) {
  const item = document.createElement("li");
  item.textContent = chunk;
  list.append(item);
}
window.__bootMs = performance.now();
document.documentElement.dataset.booted = "peer";
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

# name -> path below the server root
PAGES = {"bare": "bare.html", "snapshot": "", "no-snapshot": "no-snapshot/", "peer": "peer.html"}
HTTP_GZIP = "http-gzip/"
ALWAYS = "snapshot-always/"
BEFORE = "before/"
# static/snapshot.js's threshold, which snapshot-always/ sets to 0
FAST_MBIT = "const FAST_MBIT = 15;"


def snapshot_url(page: Any) -> str:
    """The start-up snapshot's URL, as the page's snapshot.js names it for its worker: its
    brotli copy when the page names one (the gzip file when the decoder failed, which the
    ci:snapshot-decoder-failed mark says), else the gzip file."""
    url: str = page.evaluate(
        "(() => { const d = document.querySelector('script[data-snapshot]').dataset;"
        " const failed = performance.getEntriesByName('ci:snapshot-decoder-failed').length;"
        " return new URL((!failed && d.snapshotBrotli) || d.snapshot, location.href).href; })()"
    )
    return url


def boot_once(
    context: BrowserContext,
    url: str,
    settle_ms: int,
    timeout_ms: int = 120_000,
    host: type[Throttled] | None = None,
) -> dict[str, Any]:
    log_start = len(host.log) if host is not None else 0
    page = context.new_page()
    try:
        page.goto(url)
        # wait_for_selector, not wait_for_function: the page's CSP refuses Playwright's eval.
        page.wait_for_selector("html[data-booted]", state="attached", timeout=timeout_ms)
    except PlaywrightError:
        page.close()
        return {
            "ms": None,
            "boot": None,
            "urls": [],
            "marks": {},
            "files": {},
            "mbit": None,
            "rate": None,
        }
    # each file's bytes the host wrote before the page reached its first result (its
    # clock and the host's are this machine's): Playwright notices the first result a
    # little later, and what started after it (Plotly, app.zip) must not count
    ready_at = page.evaluate("(performance.timeOrigin + window.__bootMs) / 1000")
    files: dict[str, int] = {}
    for at, path, size in host.log[log_start:] if host is not None else ():
        if at <= ready_at:
            files[path] = files.get(path, 0) + size
    # the host's bytes (as sent: compressed, headers aside) up to the first result
    wire = sum(files.values()) if host is not None else None
    ms = page.evaluate("window.__bootMs")
    path = page.evaluate("document.getElementById('app')?.dataset.boot ?? null")
    if settle_ms:
        page.wait_for_timeout(settle_ms)
    if page.locator("#offline-status").count():
        # the service worker stores the build after the first result: a repeat visit
        # (and the offline one) is served from its cache once it has
        with contextlib.suppress(PlaywrightError):  # no worker here: nothing to wait for
            page.wait_for_selector('#offline-status[data-offline="ready"]', timeout=300_000)
    # The page's own requests; plus the snapshot, which snapshot.js's worker fetches (a
    # worker's requests are not in the page's timeline).
    resources = page.evaluate(
        "[location.href, ...performance.getEntriesByType('resource')"
        ".filter((e) => e.responseStatus === 200).map((e) => e.name)]"
    )
    if path == "snapshot":
        resources.append(snapshot_url(page))
    # static/interpreter.js's marks (ci:*): where the boot's time went
    marks = page.evaluate(
        "Object.fromEntries(performance.getEntriesByType('mark')"
        ".filter((m) => m.name.startsWith('ci:')).map((m) => [m.name.slice(3), m.startTime]))"
    )
    # what snapshot.js's link probe measured (Mbit/s), when it measured
    mbit = page.evaluate(
        "performance.getEntriesByName('ci:link-measured')[0]?.detail?.mbit ?? null"
    )
    # and what a first visit's snapshot download measured over its own first 250 ms
    rate = page.evaluate(
        "performance.getEntriesByName('ci:snapshot-rate')[0]?.detail?.mbit ?? null"
    )
    page.close()
    return {
        "mbit": mbit,
        "rate": rate,
        "ms": ms,
        "boot": path,
        "urls": resources,
        "marks": marks,
        "wire": wire,
        "files": files,
    }


def measure(
    driver: Playwright,
    url: str,
    settle_ms: int,
    host: type[Throttled] | None = None,
    repeat: int = 1,
) -> dict[str, Any]:
    # A persistent profile has a disk cache, like a real browser; an incognito context's
    # memory cache is too small to keep the 9.6 MB pyodide.asm.wasm, so "warm" would
    # download it again.
    with tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True
        )
        context.add_init_script(READY_PROBE)
        cold = boot_once(context, url, settle_ms, host=host)
        # ``repeat`` repeat visits in this profile, one after the other: the median one is
        # "warm" (one visit's time swings by a factor of two on a busy machine)
        warms = [boot_once(context, url, 0, host=host) for _ in range(max(1, repeat))]
        warm = sorted(warms, key=lambda visit: visit["ms"])[len(warms) // 2]
        offline = None
        if host is not None:
            host.down = True
            try:
                offline = boot_once(context, url, 0, timeout_ms=60_000)["ms"]
            finally:
                host.down = False
        context.close()
    return {
        "cold": cold["ms"],
        "warm": warm["ms"],
        "warm_all": [visit["ms"] for visit in warms],
        "offline": offline,
        "wire_cold": cold["wire"],
        "wire_warm": warm["wire"],
        "boot": cold["boot"],
        "probe_mbit": cold["mbit"],
        "own_mbit": cold["rate"],
        "urls": cold["urls"],
        "marks_cold": cold["marks"],
        "marks_warm": warm["marks"],
        "files_cold": cold.get("files", {}),
    }


class GzipSnapshotHandler(SiteHandler):
    """Serves snapshot-*.bin from the .bin.gz beside it with Content-Encoding: gzip."""

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        packed = path.with_name(path.name + ".gz")
        if not (path.name.startswith("snapshot-") and path.suffix == ".bin" and packed.is_file()):
            return super().send_head()
        data = packed.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return _Body(data)


class Bucket:
    """One token bucket (bytes per second) shared by every connection of the host."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.lock = threading.Lock()
        self.free_at = time.monotonic()

    def take(self, size: int) -> None:
        with self.lock:
            start = max(self.free_at, time.monotonic())
            self.free_at = start + size / self.rate
            wait = self.free_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)


class Throttled(GzipSnapshotHandler):
    """The host over a slow link: ``bucket`` shared, ``latency`` s before each response;
    ``down`` closes every connection without an answer (the host is gone)."""

    bucket: Bucket | None = None
    latency = 0.0
    down = False
    gzip_only = False  # refuse brotli, as a host that offers gzip only
    sent = 0  # body bytes sent, all connections
    log: list[tuple[float, str, int]] = []  # noqa: RUF012  # (time.time(), URL path, bytes) per write

    def send_head(self) -> Any:
        if type(self).down:
            self.close_connection = True
            return None
        time.sleep(self.latency)
        if self.gzip_only and "br" in self.headers.get("Accept-Encoding", ""):
            del self.headers["Accept-Encoding"]
            self.headers["Accept-Encoding"] = "gzip"
        return super().send_head()

    def send_error(self, *args: Any, **kwargs: Any) -> None:
        if not type(self).down:
            super().send_error(*args, **kwargs)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        while chunk := source.read(16_384):
            if self.bucket is not None:
                self.bucket.take(len(chunk))
            outputfile.write(chunk)
            type(self).sent += len(chunk)
            self.log.append((time.time(), unquote(urlsplit(self.path).path), len(chunk)))


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, _size: int = -1) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


def add_variants(site: Site, http_gzip: bool, before: Path | None = None) -> None:
    """no-snapshot/ and snapshot-always/ (and http-gzip/): copies of the built page, beside
    it; before/: a copy of the `before` dist/."""
    skip = {"no-snapshot", "http-gzip", "snapshot-always", "before"}  # and bench_page.py's v-*
    top = [p for p in site.root.iterdir() if p.name not in skip and not p.name.startswith("v-")]
    copies = ["no-snapshot", "snapshot-always"] + (["http-gzip"] if http_gzip else [])
    for name in copies:
        target = site.root / name
        target.mkdir()
        for item in top:
            if item.is_dir():
                shutil.copytree(item, target / item.name)
            else:
                shutil.copy2(item, target / item.name)
    for snapshot in (site.root / "no-snapshot" / site.build).glob("snapshot-*.bin.*"):
        snapshot.unlink()  # the gzip file and its brotli copy
    probe = site.root / "snapshot-always" / site.build / "snapshot.js"
    text = probe.read_text("utf-8")
    assert FAST_MBIT in text, f"{probe} no longer has {FAST_MBIT}"
    probe.write_text(text.replace(FAST_MBIT, "const FAST_MBIT = 0;"), "utf-8")
    for compressed in probe.parent.glob("snapshot.js.*"):  # .br/.gz beside it: stale now
        compressed.unlink()
    if before is not None:
        shutil.copytree(before, site.root / "before")
    if http_gzip:
        build_dir = site.root / "http-gzip" / site.build
        (packed,) = build_dir.glob("snapshot-*.bin.gz")
        plain = packed.name.removesuffix(".gz")
        for file in (build_dir / "interpreter.js", site.root / "http-gzip" / "index.html"):
            text = file.read_text("utf-8")
            assert packed.name in text, f"{file} no longer names {packed.name}"
            # and not its brotli copy: this variant is about the gzip file's delivery
            text = re.sub(r'data-snapshot-brotli="[^"]*"', 'data-snapshot-brotli=""', text)
            file.write_text(text.replace(packed.name, plain), "utf-8")
    for name in copies:  # each copy's service worker lists the files it really has
        write_offline(site.root / name)


@dataclass(frozen=True)
class Served:
    url: str  # "http://127.0.0.1:PORT/" (127.0.0.2 for a throttled host)
    root: Path
    host: type[Throttled] | None = None  # set when the host can be throttled or downed


@contextmanager
def served_site(
    prepare: Callable[[Site], None] | None = None,
    http_gzip: bool = False,
    mbit: float = 0,
    latency_ms: float = 0,
    gzip_only: bool = False,
    port: int = 0,
    before: Path | None = None,
) -> Iterator[Served]:
    """Build the site (plus bare.html and the variant copies) into a temporary folder and
    serve it. ``prepare`` may alter the built site before the copies are made. A throttled
    host (``mbit`` or ``latency_ms``) listens on 127.0.0.2, which snapshot.js measures."""
    with tempfile.TemporaryDirectory() as tmp:
        site = build(Path(tmp) / "dist")
        (site.root / "bare.html").write_text(BARE_HTML)
        (site.root / "bare.js").write_text(BARE_JS % site.vendored.pyodide)
        sample = (ROOT / "static" / "sample.txt").read_text("utf-8")
        (site.root / "peer.html").write_text(PEER_HTML)
        (site.root / "peer.js").write_text(PEER_JS % json.dumps(sample))
        if prepare is not None:
            prepare(site)
        add_variants(site, http_gzip, before)
        host = type(
            "Host",
            (Throttled,),
            {
                "bucket": Bucket(mbit * 1e6 / 8) if mbit else None,
                "latency": latency_ms / 1000,
                "gzip_only": gzip_only,
                "log": [],
            },
        )
        address = "127.0.0.2" if mbit or latency_ms else "127.0.0.1"
        server = http.server.ThreadingHTTPServer(
            (address, port), lambda *a, **k: host(*a, directory=str(site.root), **k)
        )
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield Served(f"http://{address}:{server.server_address[1]}/", site.root, host)
        finally:
            server.shutdown()
            server.server_close()


def wire_bytes(root: Path, base: str, urls: list[str]) -> dict[str, int]:
    """Bytes of the requested files: raw, and gzip -6 per response (.gz and .br files as they are;
    a snapshot-*.bin served by GzipSnapshotHandler is counted as its .gz)."""
    raw = packed = 0
    for url in dict.fromkeys(urls):
        path = unquote(urlsplit(url).path).lstrip("/")
        file = root / (path + "index.html" if path.endswith("/") or not path else path)
        if not file.is_file() and (gz := file.with_name(file.name + ".gz")).is_file():
            size = gz.stat().st_size
            raw, packed = raw + size, packed + size
            continue
        if not file.is_file() or not url.startswith(base):
            continue
        data = file.read_bytes()
        raw += len(data)
        packed += len(data) if file.suffix in (".gz", ".br") else len(gzip.compress(data, 6))
    return {"raw": raw, "gzip": packed}


def fmt(mbit: float | None) -> str:
    return "-" if mbit is None else f"{mbit:.1f}"


def boot_runs(
    driver: Playwright,
    served: Served,
    runs: int,
    settle_ms: int = 5000,
    pages: dict[str, str] | None = None,
    offline: bool = False,
    repeat: int = 1,
) -> dict[str, list[dict[str, Any]]]:
    """``runs`` cold+warm samples of each page, the pages alternating within each run
    (``repeat`` repeat visits a sample, their median its warm time)."""
    pages = pages or PAGES
    samples: dict[str, list[dict[str, Any]]] = {name: [] for name in pages}
    measure(driver, served.url + "bare.html", 0)  # let the OS file cache settle first
    for run in range(runs):
        for name, path in pages.items():
            host = served.host if offline else None
            sample = measure(driver, served.url + path, settle_ms, host, repeat)
            sample.update(wire_bytes(served.root, served.url, sample.pop("urls")))
            samples[name].append(sample)
            print(
                f"run {run + 1} {name}: cold {sample['cold']:.0f} ms, "
                f"warm {sample['warm']:.0f} ms "
                f"({', '.join(f'{ms:.0f}' for ms in sample['warm_all'])}), "
                f"offline {sample['offline']} "
                f"({sample['boot'] or 'bare'}; probe {fmt(sample['probe_mbit'])} Mbit/s, "
                f"snapshot's own {fmt(sample['own_mbit'])} Mbit/s)",
                file=sys.stderr,
            )
    return samples


def summarise(samples: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Medians per page and each page's ratio to bare."""
    summary: dict[str, Any] = {}
    for name, runs in samples.items():
        summary[name] = {
            key: statistics.median(s[key] for s in runs) for key in ("cold", "warm", "raw", "gzip")
        }
        summary[name]["boot"] = sorted({str(s["boot"]) for s in runs})
        paths = sorted({path for s in runs for path in s.get("files_cold", {})})
        summary[name]["files_cold"] = {
            path: statistics.median(s.get("files_cold", {}).get(path, 0) for s in runs)
            for path in paths
        }
        for key in ("offline", "wire_cold", "wire_warm"):
            values = [s[key] for s in runs if s.get(key) is not None]
            summary[name][key] = statistics.median(values) if values else None
        for kind in ("cold", "warm"):
            marks = [s[f"marks_{kind}"] for s in runs]
            names = sorted({n for m in marks for n in m}, key=lambda n: marks[0].get(n, 0))
            summary[name][f"marks_{kind}"] = {
                n: statistics.median(m[n] for m in marks if n in m) for n in names
            }
    for name in samples:
        for kind in ("cold", "warm"):
            summary[name][f"ratio_{kind}"] = summary[name][kind] / summary["bare"][kind]
    return summary


def report(summary: dict[str, Any], runs: int, settle_ms: int) -> str:
    lines = [
        f"median of {runs} interleaved runs, headless chromium; warm = reload after "
        f"{settle_ms} ms on the page",
        f"{'page':12} {'cold ms':>8} {'/bare':>6} {'warm ms':>8} {'/bare':>6} "
        f"{'raw MB':>7} {'gzip MB':>8} {'wire MB':>8} {'offline':>8}  boot path",
    ]
    for name, s in summary.items():
        wire = f"{s['wire_cold'] / 1e6:8.2f}" if s.get("wire_cold") is not None else f"{'-':>8}"
        offline = f"{s['offline']:8.0f}" if s.get("offline") is not None else f"{'fails':>8}"
        lines.append(
            f"{name:12} {s['cold']:8.0f} {s['ratio_cold']:6.2f} {s['warm']:8.0f} "
            f"{s['ratio_warm']:6.2f} {s['raw'] / 1e6:7.2f} {s['gzip'] / 1e6:8.2f} {wire} "
            f"{offline}  {', '.join(s['boot'])}"
        )
    peer, page = summary.get("peer"), summary.get("snapshot")
    if peer and page:
        for kind in ("cold", "warm"):
            look = page[f"marks_{kind}"].get("first-look")
            if look is not None:
                lines.append(
                    f"first look ({kind}): {look:.0f} ms = {look / peer[kind]:.2f}x the peer's "
                    f"first result ({peer[kind]:.0f} ms); the live result {page[kind]:.0f} ms = "
                    f"{page[f'ratio_{kind}']:.2f}x bare ({summary['bare'][kind]:.0f} ms)"
                )
    for name, s in summary.items():
        files = sorted(s.get("files_cold", {}).items(), key=lambda item: -item[1])
        if files:
            listed = ", ".join(
                f"{path.rsplit('/', 1)[-1] or 'index.html'} {sent / 1e6:.2f}"
                for path, sent in files
                if sent >= 10_000
            )
            total = sum(sent for _path, sent in files) / 1e6
            lines.append(f"  {name} cold, before the first result: {total:.2f} MB: {listed}")
    for name, s in summary.items():
        for kind in ("cold", "warm"):
            if s[f"marks_{kind}"]:
                steps = ", ".join(f"{n} {t:.0f}" for n, t in s[f"marks_{kind}"].items())
                lines.append(f"  {name} {kind} marks (ms): {steps}, ready {s[kind]:.0f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--settle", type=int, default=5000, help="ms on the page before warm")
    parser.add_argument(
        "--repeat", type=int, default=1, help="repeat visits a run (their median is warm)"
    )
    parser.add_argument("--http-gzip", action="store_true", help="also the http-gzip variant")
    parser.add_argument("--mbit", type=float, default=0, help="a shared link of N Mbit/s")
    parser.add_argument("--latency", type=float, default=0, help="ms before each response")
    parser.add_argument("--offline", action="store_true", help="also a reload, host down")
    parser.add_argument("--gzip-host", action="store_true", help="the host offers no brotli")
    parser.add_argument("--port", type=int, default=0, help="the host's port (0: a free one)")
    parser.add_argument(
        "--pages",
        help="a comma-separated subset of: "
        + ", ".join([*PAGES, "snapshot-always", "before"])
        + " (bare always; snapshot-always and before only when named)",
    )
    parser.add_argument("--before", type=Path, help="another build's dist/: the page 'before'")
    args = parser.parse_args()
    pages = dict(PAGES, **({"http-gzip": HTTP_GZIP} if args.http_gzip else {}))
    if args.before:
        pages["before"] = BEFORE
    if args.pages:
        chosen = {"bare", *args.pages.split(",")}
        named = dict(pages, **{"snapshot-always": ALWAYS})
        pages = {name: path for name, path in named.items() if name in chosen}

    with (
        served_site(
            None, args.http_gzip, args.mbit, args.latency, args.gzip_host, args.port, args.before
        ) as served,
        sync_playwright() as driver,
    ):
        samples = boot_runs(
            driver, served, args.runs, args.settle, pages, args.offline, args.repeat
        )

    summary = summarise(samples)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "boot.json").write_text(json.dumps({"summary": summary, "samples": samples}, indent=1))
    print(report(summary, args.runs, args.settle))


if __name__ == "__main__":
    main()
