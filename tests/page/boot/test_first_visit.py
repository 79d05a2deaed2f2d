"""The first visit's bytes: the page's standard library is stdlib.zip, limited to
what it imports, with the whole one fetched only for a module outside it; and a first visit
over a slow link boots without the start-up snapshot, which the service worker stores for the
next visit.

A slow link is DevTools' network throttling of the page (the service worker's own downloads
are not throttled). No timing is asserted: the page's choice is read from #app's data-boot
and data-boot-reason, the bytes from its requests.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")
SAMPLE_CHUNKS = f"{analyse(SAMPLE, Settings()).count:,}"
FULL_STDLIB = "/python_stdlib.zip"
OFFLINE_TIMEOUT_MS = 240_000


def stdlib_members(site) -> set[str]:
    with zipfile.ZipFile(io.BytesIO((site.root / site.build / "stdlib.zip").read_bytes())) as z:
        return set(z.namelist())


def remove_snapshot(root: Path, site) -> None:
    """The snapshot gone from a copy of the site, both files (its brotli copy and the gzip)."""
    (root / site.snapshot).unlink()
    (root / site.snapshot_brotli).unlink()


def throttle(app, mbit: float) -> None:
    session = app.page.context.new_cdp_session(app.page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 40,
            "downloadThroughput": mbit * 1e6 / 8,
            "uploadThroughput": mbit * 1e6 / 8,
        },
    )


@pytest.mark.parametrize("boot", ["snapshot", "full"])
def test_a_module_outside_stdlib_zip_brings_the_whole_standard_library(
    boot: str, site, copy_site, serve_dir, new_app
) -> None:
    # colorsys is in Pyodide's standard library and nothing of the page imports it
    assert "colorsys.py" not in stdlib_members(site)
    root = site.root
    if boot == "full":
        root = copy_site()
        remove_snapshot(root, site)
    app = new_app(serve_dir(root).url).open().wait_ready()
    assert app.page.get_attribute("#app", "data-boot") == boot
    assert app.page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # the sample's boot and first result needed nothing outside stdlib.zip
    misses = "import sys; [f.misses for f in sys.meta_path if hasattr(f, 'misses')]"
    assert app.python(misses) == [[]]
    assert not [u for u in app.requests if u.endswith(FULL_STDLIB)]
    assert [u for u in app.requests if u.endswith(f"{site.build}/stdlib.zip")]
    assert app.python("import colorsys\ncolorsys.rgb_to_hsv(0.0, 0.0, 1.0)") == [2 / 3, 1.0, 1.0]
    assert len([u for u in app.requests if u.endswith(FULL_STDLIB)]) == 1
    # a module no standard library has still fails as usual, and fetches nothing more
    missing = "try:\n    import no_such_module_here\nexcept ImportError as e:\n    r = e.name\nr"
    assert app.python(missing) == "no_such_module_here"
    assert app.python(misses) == [["colorsys"]]
    assert len([u for u in app.requests if u.endswith(FULL_STDLIB)]) == 1


# The link probe (snapshot.js) reads stdlib.zip's timing entry: this makes it say that the
# file's bytes took 10 s to arrive (well under 1 Mbit/s), whatever the link really is.
SLOW_LINK = """(() => {
  const byName = Performance.prototype.getEntriesByName;
  Performance.prototype.getEntriesByName = function (name, ...rest) {
    const entries = byName.call(this, name, ...rest);
    if (!String(name).endsWith("/stdlib.zip")) return entries;
    return entries.map((e) => e.responseEnd > 0
      ? Object.assign(e.toJSON(), { responseStart: e.responseEnd - 10000 }) : e);
  };
})();"""

# The same, saying the file's bytes took 1 ms (hundreds of Mbit/s), whatever the link is.
FAST_PROBE = SLOW_LINK.replace("e.responseEnd - 10000", "e.responseEnd - 1")
# PyScript's plugins the page switches off (sitebuild/site.py's PLUGINS_OFF); each was a
# request at boot, asked while the snapshot's request waited for a connection
PLUGIN_MODULE = re.compile(
    r"/(deprecations-manager|donkey|py-editor|py-game|py-terminal)-[^/]+\.js$"
)

# Not loopback for snapshot.js, so it measures the link (any 127.x address reaches this
# machine; Chromium treats them all as secure, so the service worker runs there too).
PROBED_HOST = "127.0.0.2"


@pytest.fixture(scope="module")
def probed_server(site, serve_dir):
    """The built site on PROBED_HOST: a host whose link snapshot.js measures."""
    return serve_dir(site.root, host=PROBED_HOST)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", PROBED_HOST])
def test_a_first_visit_from_this_machine_is_a_fast_link_without_a_probe(
    host: str, site, serve_dir, new_app
) -> None:
    """On localhost and 127.0.0.1 snapshot.js asks for the snapshot at once, with no probe:
    a link measured slow there (a busy machine) does not change its choice. Any other host,
    127.0.0.2 included, is measured, and the same slow measure sends it the slow link's way."""
    served = serve_dir(site.root, host=PROBED_HOST if host == PROBED_HOST else "127.0.0.1")
    app = new_app(served.url.replace("127.0.0.1", host))
    app.page.context.add_init_script(script=SLOW_LINK)
    app.open().wait_ready()
    page = app.page
    measured = page.evaluate("() => performance.getEntriesByName('ci:link-measured').length")
    boot = page.get_attribute("#app", "data-boot")
    reason = page.get_attribute("#app", "data-boot-reason") or ""
    if host == PROBED_HOST:
        assert (boot, measured) == ("full", 1)
        assert reason.startswith("first visit on a slow link (0."), reason
    else:
        assert (boot, measured, reason) == ("snapshot", 0, "")
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


@pytest.mark.page_errors_expected  # the first boot's warning that it did not use the snapshot
def test_a_slow_first_visit_boots_without_the_snapshot_and_the_next_visit_uses_it(
    site, probed_server, new_app
) -> None:
    app = new_app(probed_server.url)  # the throttled link, as snapshot.js measures it
    finished: list[tuple[str, float]] = []  # downloads that arrived (url, start, ms since 1970)
    app.page.on("requestfinished", lambda r: finished.append((r.url, r.timing["startTime"])))
    throttle(app, 5)
    app.open().wait_ready()
    page = app.page
    assert page.get_attribute("#app", "data-boot") == "full"
    reason = page.get_attribute("#app", "data-boot-reason") or ""
    assert reason.startswith("first visit on a slow link ("), reason
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # the page's first result (the app's first paint: the mark benchmarks report too)
    ready_at = page.evaluate("() => performance.getEntriesByName('ci:app-started')[0].startTime")
    ready_epoch = page.evaluate("() => performance.timeOrigin") + ready_at
    # before the first result: the page downloaded neither the snapshot nor the whole
    # standard library (a worker's fetches are in the page's requests, not its timeline)
    early = page.evaluate(
        """(t) => performance.getEntriesByType('resource')
            .filter((e) => e.startTime < t).map((e) => e.name)""",
        ready_at,
    )
    assert not [u for u in early if "/snapshot-" in u or u.endswith(FULL_STDLIB)]
    # the tokenizers (app.zip) come after the first result on this path too; lib.zip before
    assert not [u for u in early if u.endswith("/app.zip")], page.evaluate(
        """() => [performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]),
        performance.getEntriesByType('resource').filter((e) => e.name.endsWith('app.zip'))
        .map((e) => [e.initiatorType, e.startTime])]"""
    )
    assert [u for u in early if u.endswith(f"{site.build}/lib.zip")]
    # nor did snapshot.js's worker: its look into the caches found nothing (a failed
    # request), and it asked for nothing more
    assert not [u for u, start in finished if "/snapshot-" in u and start < ready_epoch]
    # Pyodide's wasm came as its brotli copy on this path too (0.8 MB fewer on a slow link)
    wasm = [u.rsplit("/", 1)[-1] for u, _ in finished if "/pyodide.asm.wasm" in u]
    assert wasm == ["pyodide.asm.wasm.br"], wasm
    # the service worker stores the build (the snapshot with it) after the first result
    page.wait_for_selector('#offline-status[data-offline="ready"]', timeout=OFFLINE_TIMEOUT_MS)
    cached = page.evaluate(
        """async (name) => !!(await caches.match(new URL(name, location.href).href))""",
        site.snapshot,
    )
    assert cached
    # and the worker started only once app.zip (downloaded after the first result) was in
    registered, app_zip_end = page.evaluate(
        """() => [performance.getEntriesByName('ci:offline-register')[0].startTime,
        performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app.zip'))
        .responseEnd]"""
    )
    assert registered >= app_zip_end
    # the next visit, over the same slow link, boots from the snapshot the worker kept
    page.reload()
    app.wait_ready()
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


@pytest.mark.page_errors_expected  # the browser logs the 404
def test_a_missing_app_zip_without_a_link_says_what_is_missing_without_a_bug_report(
    site, copy_site, serve_dir, new_app
) -> None:
    """Without a settings link the first result needs no tokenizer; app.zip comes after it.
    When it cannot be loaded, the token figures and the readiness panel say which file is
    missing (no bug report, no error box), the result stays and the page keeps splitting."""
    broken = copy_site()
    (broken / site.build / "app.zip").unlink()
    app = new_app(serve_dir(broken).url).open()
    assert app.wait_settled() == "ready", (
        app.page.text_content("#readiness"),
        app.page.text_content("#boot-status"),
        [m.text for m in app.console][-15:],
    )
    page = app.page
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    missing = f"{site.build}/app.zip (the tokenizers' code and data) failed to load (HTTP 404)"
    expected = f"(unavailable: {missing})"
    page.wait_for_function(
        "(t) => document.getElementById('tokens-status').textContent === t", arg=expected
    )
    assert [page.text_content(f"#tokens-{k}") for k in ("smallest", "average", "largest")] == [
        "—"
    ] * 3
    # the sample's Evidence check needs them too: the readiness panel names the file,
    # without a bug report, and the result stays
    expect(page.locator("#readiness")).to_have_attribute("data-status", "unavailable")
    assert missing in (page.text_content("#readiness-message") or "")
    assert "Bug" not in (page.text_content("#readiness") or "")
    assert page.is_hidden("#boot-status")
    assert app.state() == "ready"
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # splitting still works; the work after it that needs the tokenizers (the sample's
    # Evidence check) says the same again, not a bug report
    app.settle(lambda: app.fill("Chunk size", "120"))
    at_120 = analyse(SAMPLE, Settings(chunk_size=120)).count
    assert page.text_content("#figure-chunks") == f"{at_120:,}"
    expect(page.locator("#readiness")).to_have_attribute("data-status", "unavailable")
    message = page.text_content("#readiness-message") or ""
    assert missing in message and "Bug" not in message
    assert page.is_hidden("#boot-status")


@pytest.mark.parametrize(
    "boot",
    # a normal boot logs the missing snapshot (404) and why it was not used
    ["snapshot", pytest.param("full", marks=pytest.mark.page_errors_expected)],
)
def test_pyscript_s_script_comes_from_a_preload_asked_before_python_starts(
    boot: str, site, copy_site, serve_dir, new_app
) -> None:
    """PyScript asks for its script (app/main.py) only once the interpreter is ready, a round
    trip on the critical path after the snapshot's restore: index.html preloads it, and
    PyScript's request takes that response (one request for it, asked from a <link>, before
    Python started), on either boot path."""
    root = copy_site()
    if boot == "full":
        remove_snapshot(root, site)
    served = serve_dir(root)
    app = new_app(served.url)
    asked: list[str] = []
    app.page.on("request", lambda r: asked.extend([r.url] if r.url.endswith("/main.py") else []))
    app.open()
    assert app.wait_settled() == "ready", app.page.text_content("#boot-status")
    assert app.page.get_attribute("#app", "data-boot") == boot
    assert asked == [f"{served.url}{site.build}/app/main.py"], asked
    initiator, started, python = app.page.evaluate(
        """() => {
          const entry = performance.getEntriesByType('resource')
            .find((e) => e.name.endsWith('/app/main.py'));
          const start = performance.getEntriesByName('ci:load-called')[0];
          return [entry.initiatorType, entry.startTime, start.startTime];
        }"""
    )
    assert initiator == "link"
    assert started < python
    assert app.page.text_content("#figure-chunks") == SAMPLE_CHUNKS


def wasm_preloads(page) -> int:
    return page.evaluate(
        "() => document.querySelectorAll('link[rel=preload][href*=\"/pyodide.asm.wasm\"]').length"
    )


def test_a_first_visit_asks_for_the_wasm_with_its_first_requests(
    site, probed_server, server, new_app
) -> None:
    """index.html's one inline script (allowed by its hash) preloads Pyodide's wasm on a
    first visit off loopback, before the parser reaches snapshot.js; PyScript's plugins
    that the page switches off are not asked for, MicroPython's included."""
    app = new_app(probed_server.url).open().wait_ready()
    page = app.page
    assert wasm_preloads(page) == 1
    wasm, script = page.evaluate(
        """() => ['/pyodide.asm.wasm.br', '/snapshot.js'].map((end) => performance
            .getEntriesByType('resource').find((e) => e.name.endsWith(end)))
            .map((e) => [e.initiatorType, e.startTime])"""
    )
    assert wasm[0] == "link" and wasm[1] <= script[1], (wasm, script)
    # its brotli copy, decoded by the page: Pyodide's request for the wasm never left it
    assert [u for u in app.requests if "/pyodide.asm.wasm" in u] == [
        f"{probed_server.url}{site.vendored.pyodide.rsplit('/', 1)[0]}/pyodide.asm.wasm.br"
    ]
    assert page.evaluate("() => performance.getEntriesByName('ci:wasm-decoded').length") == 1
    assert not [u for u in app.requests if PLUGIN_MODULE.search(u)]
    # the policy refused nothing (the inline script ran: its preload is there)
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # loopback: no preload (the snapshot and the wasm are asked for at once there), and the
    # wasm itself (bytes cost nothing there; decoding would)
    local = new_app(server.url).open().wait_ready()
    assert wasm_preloads(local.page) == 0
    assert [u.rsplit("/", 1)[-1] for u in local.requests if "/pyodide.asm.wasm" in u] == [
        "pyodide.asm.wasm"
    ]
    assert not [u for u in local.requests if PLUGIN_MODULE.search(u)]


@pytest.mark.page_errors_expected  # the boot's warning that it did not use the snapshot
def test_a_fast_probe_and_a_slow_download_boot_without_the_snapshot(
    site, probed_server, new_app
) -> None:
    """A first visit asks for the snapshot before stdlib.zip's probe has measured the link,
    and measures the download's own first 250 ms too: stdlib.zip's probe made to say
    "fast" here, over a link throttled to 5 Mbit/s the snapshot's own measure says slow. The
    download is stopped (none of its requests finishes), its brotli decoder is never
    started (only once a measure passes), and the page boots normally."""
    app = new_app(probed_server.url)
    app.page.context.add_init_script(script=FAST_PROBE)
    finished: list[str] = []
    app.page.on("requestfinished", lambda r: finished.append(r.url))
    throttle(app, 5)
    app.open().wait_ready()
    page = app.page
    reason = page.get_attribute("#app", "data-boot-reason") or ""
    assert page.get_attribute("#app", "data-boot") == "full", reason
    assert reason.startswith("first visit on a slow link ("), reason
    assert "over the snapshot's first 250 ms" in reason, reason
    probe = page.evaluate("() => performance.getEntriesByName('ci:link-measured')[0].detail.mbit")
    assert probe > 100, probe
    # the .gz: the look into the HTTP cache (a failed only-if-cached request); the .br: the
    # download, asked for and stopped
    asked = [u for u in app.requests if "/snapshot-" in u]
    assert [u for u in asked if u.endswith(".bin.br")], asked
    assert not [u for u in finished if "/snapshot-" in u], finished
    # the snapshot's decoder was never started (the wasm's brotli copy has its own)
    assert page.evaluate("() => performance.getEntriesByName('ci:snapshot-decoder').length") == 0
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


@pytest.mark.page_errors_expected  # the boot's warning that it did not use the snapshot
def test_a_snapshot_downloaded_before_the_probe_has_measured_waits_for_its_verdict(
    site, probed_server, new_app
) -> None:
    """The early download can end before stdlib.zip's probe has measured the link (here its
    response is held back 3 s, and the probe then says "slow"): the bytes wait for the
    verdict, and the page boots normally, not from a snapshot the probe refused."""
    app = new_app(probed_server.url)
    app.page.context.add_init_script(script=SLOW_LINK)

    def late(route) -> None:
        response = route.fetch()
        time.sleep(3)
        route.fulfill(response=response)

    app.page.route("**/stdlib.zip", late)
    app.open().wait_ready()
    page = app.page
    reason = page.get_attribute("#app", "data-boot-reason") or ""
    assert page.get_attribute("#app", "data-boot") == "full", reason
    assert reason.startswith("first visit on a slow link (0."), reason
    downloaded, measured = page.evaluate(
        """() => ['ci:snapshot-downloaded', 'ci:link-measured']
            .map((n) => performance.getEntriesByName(n)[0]?.startTime)"""
    )
    assert downloaded < measured, (downloaded, measured)  # the case this test is about
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


@pytest.mark.page_errors_expected  # the warning that the wasm is downloaded again
@pytest.mark.parametrize("damage", ["other-bytes", "flipped", "truncated", "missing"])
def test_a_damaged_brotli_copy_of_the_wasm_is_not_used(
    damage: str, site, probed_server, new_app
) -> None:
    """The wasm's brotli copy is checked against the wasm's SHA-256 list before Pyodide gets
    it: a copy that decodes to other bytes (a valid stream of a wasm one byte off), is
    damaged, ends early or is missing leaves Pyodide's own request to the network (the wasm
    itself), and the page boots as usual."""
    (copy,) = site.root.rglob("pyodide.asm.wasm.br")
    data = bytearray(copy.read_bytes())
    if damage == "other-bytes":
        import brotli

        wasm = bytearray(next(site.root.rglob("pyodide.asm.wasm")).read_bytes())
        wasm[len(wasm) // 2] ^= 0x01
        data = bytearray(brotli.compress(bytes(wasm), quality=1))
    if damage == "flipped":  # a bit of the last block: the decoder itself refuses it
        data[-2000] ^= 0x01
    if damage == "truncated":
        del data[-1000:]
    app = new_app(probed_server.url)

    def damaged(route) -> None:
        if damage == "missing":
            route.fulfill(status=404, body="")
        else:
            route.fulfill(body=bytes(data), content_type="application/octet-stream")

    # only the copy's own URL: the host still sends the wasm itself (brotli-encoded or not)
    app.page.route("**/pyodide.asm.wasm.br", damaged)
    app.open().wait_ready()
    page = app.page
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.evaluate("() => performance.getEntriesByName('ci:wasm-decoded').length") == 0
    assert [u.rsplit("/", 1)[-1] for u in app.requests if "/pyodide.asm.wasm" in u] == [
        "pyodide.asm.wasm.br",
        "pyodide.asm.wasm",
    ]
    assert any("Pyodide's wasm downloaded again" in m.text for m in app.console)
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


# structuredClone refusing to transfer a stream, as a browser without transferable streams
NO_TRANSFERABLE_STREAMS = """(() => {
  const clone = globalThis.structuredClone;
  globalThis.structuredClone = (value, options) => {
    if (options?.transfer?.some((t) => t instanceof ReadableStream)) {
      throw new DOMException("no", "DataCloneError");
    }
    return clone(value, options);
  };
})();"""


def test_without_transferable_streams_the_wasm_s_brotli_copy_is_decoded_whole(
    site, probed_server, new_app
) -> None:
    """Where a stream cannot be handed to a worker (structuredClone refuses it here), the
    page reads the wasm's brotli copy whole and hands the worker its buffer: still only
    the copy is downloaded, and Pyodide gets the decoded wasm."""
    app = new_app(probed_server.url)
    app.page.context.add_init_script(script=NO_TRANSFERABLE_STREAMS)
    app.open().wait_ready()
    page = app.page
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.evaluate("() => performance.getEntriesByName('ci:wasm-decoded').length") == 1
    assert [u.rsplit("/", 1)[-1] for u in app.requests if "/pyodide.asm.wasm" in u] == [
        "pyodide.asm.wasm.br"
    ]
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
