"""Offline use: after a first visit the service worker (sw.js) keeps exactly the build's
files, the page reloads and splits with its server stopped, a new build replaces the
cached one, and without service workers the page works as before and says so.

The server here is really stopped: its listening socket and every open keep-alive
connection are closed, so any file the reload gets can only come from the worker's cache.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from sitebuild.offline import on_demand, write_offline
from sitebuild.serve import RequestLog, make_server

from ..conftest import BOOT_TIMEOUT_MS, CACHED, App, launch_app

# The worker downloads ~27 MB after the first result: give a busy machine time.
SAVED_TIMEOUT_MS = 180_000


class Host:
    """The site in `root` on 127.0.0.1:`port` (0: a free one), until stop()."""

    def __init__(self, root: Path, port: int = 0, log: RequestLog | None = None) -> None:
        self.root = root
        self.httpd = make_server(root, port, log=log)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.connections: set[socket.socket] = set()
        handle = self.httpd.process_request

        def tracked(request: Any, address: Any) -> None:
            self.connections.add(request)
            handle(request, address)

        self.httpd.process_request = tracked  # type: ignore[method-assign,assignment]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        for connection in self.connections:
            with contextlib.suppress(OSError):  # already closed by its handler
                connection.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def hosts() -> Iterator[Callable[..., Host]]:
    started: list[Host] = []

    def start(root: Path, port: int = 0) -> Host:
        host = Host(root, port)
        started.append(host)
        return host

    yield start
    for host in started:
        host.stop()


@pytest.fixture
def apps(browser: Browser) -> Iterator[Callable[..., App]]:
    opened: list[App] = []

    def open_app(url: str, **options: Any) -> App:
        app = launch_app(browser, url, **options)
        opened.append(app)
        return app

    yield open_app
    for app in opened:
        app.page.context.close()


def build_files(root: Path) -> set[str]:
    """What a build wrote for the browser and the worker keeps at install: every file but
    the worker itself, the precompressed copies beside originals (those are for hosts), the
    snapshot's brotli copy (for first visits: the worker keeps the gzip file's bytes,
    inflated) and the files kept on demand (the embedding model and its runtime)."""
    names = set()
    for path in root.rglob("*"):
        name = path.relative_to(root).as_posix()
        if not path.is_file() or name == "sw.js":
            continue
        if name.endswith((".gz", ".br")) and Path(str(path)[:-3]).is_file():
            continue
        if re.search(r"(^|/)snapshot-[^/]*\.bin\.br$", name):
            continue
        if on_demand(name):  # the embedding model and its runtime: kept once the page asks
            continue
        names.add(name)
    return names


def page_id(app: App) -> str:
    return app.page.get_attribute("script[data-offline-id]", "data-offline-id") or ""


def wait_saved(app: App) -> None:
    """The footer says the page is available offline (the active worker holds this build)."""
    status = app.page.locator("#offline-status")
    expect(status).to_have_attribute("data-offline", "ready", timeout=SAVED_TIMEOUT_MS)
    expect(status).to_have_text(re.compile(r"available offline"))
    expect(app.page.locator("footer")).to_contain_text("available offline")


def split_at(app: App, size: str) -> list[list[str]]:
    app.fill("Chunk size", size)
    return app.records()


def new_build(copy: Path) -> str:
    """Turn a copy of the site into a different build, as a rebuild with a change would
    be: its own folder name, index.html pointing there, a new sw.js. Returns the folder."""
    old = next((copy / "static").glob("build-*")).name
    new = "build-0ff11e0ff11e"
    (copy / "static" / old).rename(copy / "static" / new)
    index = copy / "index.html"
    index.write_text(index.read_text("utf-8").replace(old, new), "utf-8")
    write_offline(copy)
    return new


def assert_cache_holds_exactly(app: App, host: Host) -> list[str]:
    """One cache, named by the page's build, holding every file of the served build."""
    cached = app.page.evaluate(CACHED)
    assert list(cached) == [f"chunk-inspector-{page_id(app)}"], list(cached)
    urls: list[str] = next(iter(cached.values()))
    assert sorted(urls) == sorted(host.url + name for name in build_files(host.root))
    return urls


def first_visit(apps: Callable[..., App], host: Host) -> App:
    app = apps(host.url)
    app.open().wait_ready()
    wait_saved(app)
    return app


def test_after_a_first_visit_it_reloads_and_splits_with_the_server_stopped(
    apps: Callable[..., App], hosts: Callable[..., Host], copy_site: Callable[[], Path]
) -> None:
    host = hosts(copy_site())
    app = first_visit(apps, host)
    assert_cache_holds_exactly(app, host)
    online = split_at(app, "120")

    host.stop()
    app.page.reload()
    app.wait_ready(BOOT_TIMEOUT_MS)
    assert app.page.evaluate("() => !!navigator.serviceWorker.controller")
    wait_saved(app)
    assert split_at(app, "120") == online
    assert split_at(app, "80") != online
    assert app.records()


def test_a_new_build_replaces_the_cached_one(
    apps: Callable[..., App], hosts: Callable[..., Host], copy_site: Callable[[], Path]
) -> None:
    host = hosts(copy_site())
    app = first_visit(apps, host)
    old_id = page_id(app)

    second = copy_site()
    folder = new_build(second)
    host.stop()
    host = hosts(second, host.port)  # same origin, new deployment
    app.page.reload()
    app.wait_ready()
    new_id = page_id(app)
    assert new_id != old_id
    wait_saved(app)
    urls = assert_cache_holds_exactly(app, host)  # the old build's cache is gone
    assert any(f"/static/{folder}/" in url for url in urls)

    host.stop()
    app.page.reload()
    app.wait_ready()
    assert page_id(app) == new_id  # the offline reload shows the new build
    assert app.records()


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2"])
def test_without_service_workers_the_page_works_and_says_it_is_not_offline(
    host: str, apps: Callable[..., App], site, serve_dir
) -> None:
    app = apps(serve_dir(site.root, host=host).url)
    app.page.context.add_init_script(script="delete Navigator.prototype.serviceWorker;")
    app.open().wait_ready()
    status = app.page.locator("#offline-status")
    expect(status).to_have_attribute("data-offline", "unavailable")
    expect(status).to_have_text(re.compile("not available offline"))
    assert split_at(app, "120")
    if host == "127.0.0.2":  # a measured link: brotli copies decoded, kept for no worker
        decoded = "() => performance.getEntriesByName('ci:wasm-decoded').length"
        assert app.page.evaluate(decoded) == 1
        assert app.page.evaluate("() => globalThis.chunkInspectorSeeds === undefined")


# `damage`: "middle" flips 64 bytes in the middle (a whole piece of the SHA-256 list),
# "end" the last byte (the last, shorter piece, checked after the read), "truncated" drops
# the last 1,000 bytes. Returns the URL, the stored mark and the length before the damage.
CORRUPT_CACHED_SNAPSHOT = """async (damage) => {
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (!/\\/snapshot-[^/]*$/.test(new URL(request.url).pathname)) continue;
            const response = await cache.match(request);
            let data = new Uint8Array(await response.arrayBuffer());
            const stored = response.headers.get("Chunk-Inspector-Snapshot");
            const size = data.length;
            const middle = data.length >> 1;
            if (damage === "middle") for (let i = middle; i < middle + 64; i++) data[i] ^= 0xff;
            if (damage === "end") data[data.length - 1] ^= 0xff;
            if (damage === "truncated") data = data.subarray(0, data.length - 1000);
            await cache.put(request, new Response(data, { headers: response.headers }));
            return [request.url, stored, size];
        }
    }
    return null;
}"""


@pytest.mark.parametrize("damage", ["middle", "end", "truncated"])
def test_a_corrupt_cached_snapshot_falls_back_to_a_normal_boot_offline(
    damage: str,
    apps: Callable[..., App],
    hosts: Callable[..., Host],
    copy_site: Callable[[], Path],
    site,
) -> None:
    """The worker's copy of the snapshot is damaged (as a disk error would), in a piece read
    early, in its last piece or cut short: the offline reload boots the normal way from the
    cached files, says why, and shows its result."""
    host = hosts(copy_site())
    app = first_visit(apps, host)
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    online = split_at(app, "120")
    damaged, stored, size = app.page.evaluate(CORRUPT_CACHED_SNAPSHOT, damage)
    assert damaged.startswith(host.url), damaged
    # the worker keeps it inflated (no inflating on a repeat visit): the SHA-256 that
    # index.html gives, not the gzip's CRC, must catch the damage
    assert stored == "inflated"
    assert size == len(gzip.decompress((host.root / site.snapshot).read_bytes()))

    host.stop()
    app.page.reload()
    assert app.wait_settled(BOOT_TIMEOUT_MS) == "ready", app.page.text_content("#boot-status")
    assert app.page.get_attribute("#app", "data-boot") == "full"
    reason = app.page.get_attribute("#app", "data-boot-reason") or ""
    assert reason == "corrupt: the stored copy's SHA-256 differs", reason
    assert "started without the start-up snapshot (corrupt" in (
        app.page.text_content("footer") or ""
    )
    assert split_at(app, "120") == online


def test_a_first_visit_over_a_measured_link_hands_the_worker_the_snapshot_it_decoded(
    apps: Callable[..., App], serve_dir, site
) -> None:
    """Over a measured link (127.0.0.2) the page downloads the snapshot's brotli copy, which
    the worker does not keep; the page hands the worker the inflated bytes it already has (a
    seed cache that the worker's install copies from and its activation drops), so the
    worker never asks for the 7 MB gzip file, and the next visit boots from its copy."""
    served = serve_dir(site.root, host="127.0.0.2")
    app = apps(served.url)
    app.open().wait_ready()
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    wait_saved(app)
    asked = [r.path.rsplit("/", 1)[-1] for r in served.requests if "/snapshot-" in r.path]
    assert asked == [Path(site.snapshot_brotli).name], asked
    # so with Pyodide's wasm: its brotli copy, decoded by the page, never the wasm itself
    wasm = [r.path.rsplit("/", 1)[-1] for r in served.requests if "/pyodide.asm.wasm" in r.path]
    assert wasm == ["pyodide.asm.wasm.br"], wasm
    cached = app.page.evaluate(CACHED)
    assert list(cached) == [f"chunk-inspector-{page_id(app)}"], list(cached)
    assert served.url + site.snapshot in next(iter(cached.values()))
    wasm_url = f"{served.url}{site.vendored.pyodide.rsplit('/', 1)[0]}/pyodide.asm.wasm"
    stored = app.page.evaluate(
        """async (url) => {
          const response = await caches.match(url);
          const bytes = new Uint8Array(await response.arrayBuffer());
          const digest = await crypto.subtle.digest('SHA-256', bytes);
          return [response.headers.get('Content-Type'), bytes.length,
            Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')];
        }""",
        wasm_url,
    )
    plain = next(site.root.rglob("pyodide.asm.wasm")).read_bytes()
    assert stored == ["application/wasm", len(plain), hashlib.sha256(plain).hexdigest()]
    wasm = "() => document.querySelectorAll('link[rel=preload][href*=\"asm.wasm\"]').length"
    assert app.page.evaluate(wasm) == 1  # a first visit: the wasm preloaded
    app.page.reload()
    app.wait_ready(BOOT_TIMEOUT_MS)
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    assert app.page.get_attribute("#app", "data-boot-reason") is None
    asked = [r.path.rsplit("/", 1)[-1] for r in served.requests if "/snapshot-" in r.path]
    assert asked == [Path(site.snapshot_brotli).name], asked
    # a repeat visit (the worker controls the page) does not preload it: the worker's cache
    # serves it, and V8 reuses its compiled code
    assert app.page.evaluate(wasm) == 0
