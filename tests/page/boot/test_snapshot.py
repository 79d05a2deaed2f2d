"""The start-up snapshot: the page boots from it, and boots normally (and says so) when the
snapshot is missing, corrupt, refused by Pyodide or made for other code.

Each fallback case serves a copy of the built site with the snapshot broken in one way.
The page reports its path on #app (data-boot, data-boot-reason) and in the footer; the
figures it then shows are checked against chunker_py run here, so a fallback that boots
but computes nothing (or from the wrong code) fails. No timing is asserted. The build's
side (the snapshot's key and Pyodide build, the lib.zip / app.zip split) is
tests/build/test_snapshot_build.py.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable
from pathlib import Path

import brotli
import pytest
from playwright.sync_api import expect

import chunker_py
from chunker_py import Settings, analyse
from chunker_py.config.links import settings_from_fragment, settings_to_fragment
from sitebuild.policy import CSP
from sitebuild.site import Site

# they provoke console errors on purpose (refused, stale or corrupt snapshots)
pytestmark = pytest.mark.page_errors_expected

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")
SAMPLE_CHUNKS = f"{analyse(SAMPLE, Settings()).count:,}"


def snapshot_file(root: Path, site: Site) -> Path:
    """The snapshot in `root` (the built site or a copy of it) that a page from this machine
    (localhost, 127.0.0.1) downloads: the gzip file."""
    return root / site.snapshot


def brotli_file(root: Path, site: Site) -> Path:
    """Its brotli copy, which a first visit over a measured link (PROBED_HOST) downloads."""
    assert site.snapshot_brotli, "the build made no brotli copy (pip install brotli)"
    return root / site.snapshot_brotli


# Not loopback for snapshot.js: it measures the link (unthrottled here: fast) and downloads
# the brotli copy (any 127.x address reaches this machine, and Chromium treats them all as
# secure, so WebCrypto checks the decoded bytes there).
PROBED_HOST = "127.0.0.2"


def decoder_file(root: Path, site: Site) -> Path:
    """The brotli decoder's wasm, which snapshot.js's worker loads beside its module."""
    return (root / site.vendored.brotli).with_name("brotli_dec_wasm_bg.wasm")


def pack(path: Path, raw: bytes) -> None:
    """`raw` written to `path` compressed as its name says (.br or .gz), well-formed."""
    if path.suffix == ".br":
        path.write_bytes(brotli.compress(raw, quality=1))
    else:
        path.write_bytes(gzip.compress(raw, compresslevel=1))


def unpack(path: Path) -> bytes:
    data = path.read_bytes()
    return brotli.decompress(data) if path.suffix == ".br" else gzip.decompress(data)


def test_page_boots_from_the_snapshot_and_says_so(app) -> None:
    page = app.page
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.get_attribute("#app", "data-boot-reason") is None
    assert "started from the start-up snapshot" in (page.text_content("footer") or "")
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # snapshot.js's worker downloaded it, not the page's main thread
    assert not [url for url in fetched_by_the_page(page) if "/snapshot-" in url]


def test_pyodide_compiles_while_the_snapshot_arrives_and_reads_it_whole(new_app) -> None:
    """interpreter.js hands Pyodide a stand-in of the snapshot's size as soon as its bytes
    are on their way, so the wasm compiles meanwhile; the stand-in is pointed at the bytes
    before Pyodide reads its memory (the fsInit hook it awaits first). The marks show that
    order; the figures, computed by the restored Python, show the heap was whole."""
    page = new_app().open().wait_ready()
    marks = page.page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('mark')"
        ".filter((m) => m.name.startsWith('ci:')).map((m) => [m.name.slice(3), m.startTime]))"
    )
    assert page.page.get_attribute("#app", "data-boot") == "snapshot"
    assert marks["snapshot-started"] <= marks["snapshot-inflated"] <= marks["snapshot-handed"]
    assert marks["snapshot-handed"] <= marks["pyodide-restored"]
    assert page.page.text_content("#figure-chunks") == SAMPLE_CHUNKS


def array_buffer_bytes(page) -> float:
    """Bytes held in ArrayBuffers by the page once a garbage collection has run (CDP)."""
    session = page.context.new_cdp_session(page)
    session.send("HeapProfiler.enable")
    for _ in range(3):
        session.send("HeapProfiler.collectGarbage")
    return float(session.send("Runtime.getHeapUsage")["backingStorageSize"])


@pytest.mark.parametrize("host", ["127.0.0.1", PROBED_HOST])
def test_once_python_runs_the_page_lets_go_of_the_snapshot(host, site, serve_dir, new_app) -> None:
    """The snapshot's inflated bytes (31 MB) are copied into Python's memory by the restore
    and of no use after it, nor is the wasm decoded from its brotli copy (9.6 MB) once
    Pyodide has compiled it: the page keeps no reference to them (they were held for as long
    as it was open, 55 MB of ArrayBuffers against 9-21 MB now), whether they came from the
    gzip file (loopback) or its brotli copy (a measured link)."""
    app = new_app(serve_dir(site.root, host=host).url).open().wait_ready()
    page = app.page
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    kept = "() => ['chunkInspectorSnapshot', 'chunkInspectorWasm'].filter((k) => k in globalThis)"
    assert page.evaluate(kept) == []
    # the decoded brotli copies are handed to the service worker after the first result
    page.wait_for_selector('#offline-status[data-offline="ready"]', timeout=240_000)
    inflated = len(gzip.decompress((site.root / site.snapshot).read_bytes()))
    held = array_buffer_bytes(page)
    assert held < inflated, (held, inflated)
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS


def test_snapshot_interpreter_holds_the_key_and_chunker_py_from_the_snapshot(new_app, site) -> None:
    """Only the snapshot maker sets sys._chunk_inspector_snapshot: its presence proves the
    heap came from the file; chunker_py and markdown_it came with it (no lib.zip)."""
    page = new_app().open().wait_ready()
    key = snapshot_file(site.root, site).name.removeprefix("snapshot-").split(".")[0]
    assert page.python("import sys; sys._chunk_inspector_snapshot") == key
    assert page.python("import sys; 'markdown_it' in sys.modules") is True
    assert not [u for u in page.requests if u.endswith("/lib.zip")]


SLIMMED = """
import sys, json, chunker_py, markdown_it, inspector
docs = [json.__doc__, json.dumps.__doc__, json.JSONDecoder.__doc__, chunker_py.__doc__,
        chunker_py.analyse.__doc__, chunker_py.Settings.__doc__,
        markdown_it.MarkdownIt.parse.__doc__, inspector.__doc__]
code = chunker_py.analyse.__code__
columns = sorted({str(p[2:]) for c in (code, json.dumps.__code__) for p in c.co_positions()})
left = [n for n in ("prepare_snapshot", "drop_docstrings", "snapshot_config",
                    "precompile_sources") if n in globals()]
left += [n for n in ("sitecustomize", "markdown_it.cli") if n in sys.modules]
import dis
from chunker_py.text.graphemes import is_boundary
def calls():
    return [is_boundary("ab", 1) for _ in range(64)]
calls(), calls()
specialised = [i.opname for i in dis.get_instructions(calls, adaptive=True)
               if i.opname.startswith("CALL")]
[docs, columns, code.co_firstlineno, left, specialised]
"""


def test_the_snapshot_s_heap_has_no_docstrings_columns_or_maker_names(new_app) -> None:
    """First visit's bytes: the maker leaves out what the page never reads: every module's, class's
    and function's docstring (Pyodide's own modules' too: sitebuild/snapshot_site.py
    compiles them slim from Python's start), the column ranges of code locations (lines
    stay: tracebacks name the same lines), its sitecustomize and its own names in __main__
    (snapshot_imports.py: drop_docstrings, forget_program); markdown_it's command line is
    not in it, yet imports on demand."""
    import ast
    import json

    import markdown_it

    page = new_app().open().wait_ready()
    assert page.page.get_attribute("#app", "data-boot") == "snapshot"
    docs, columns, first_line, left, specialised = page.python(SLIMMED)
    here = [json.__doc__, json.dumps.__doc__, json.JSONDecoder.__doc__, chunker_py.__doc__]
    here += [analyse.__doc__]
    here += [Settings.__doc__, markdown_it.MarkdownIt.parse.__doc__]
    here += [ast.get_docstring(ast.parse((ROOT / "app" / "inspector.py").read_text("utf-8")))]
    assert all(here)  # each has one in its source
    assert docs == [None] * len(here)
    assert columns == ["(None, None)"]
    assert first_line == analyse.__code__.co_firstlineno
    assert left == []
    # a call to a snapshot's function still specialises: its code was made slim when it
    # was compiled (replacing a function's __code__ afterwards stops that for good)
    assert "CALL_PY_EXACT_ARGS" in specialised
    assert page.python("import markdown_it.cli.parse as cli; callable(cli.main)") is True
    assert page.page.text_content("#figure-chunks") == SAMPLE_CHUNKS


def test_snapshot_holds_the_app_and_pyscripts_package_compiled(new_app) -> None:
    """The app's modules come imported with the snapshot, and PyScript's own package (which
    PyScript writes and imports after the restore) is served from code compiled by build.py:
    every one of its modules the page imported, with the page's path."""
    page = new_app().open().wait_ready()
    held = page.python("import sys, inspector, dom; inspector.__file__, dom.__file__")
    assert held == ["/home/pyodide/inspector.py", "/home/pyodide/dom.py"]
    served, imported = page.python(
        "import sys\n"
        "served = sorted(sys._chunk_inspector_precompiled)\n"
        "files = {n: getattr(m, '__file__', None) for n, m in sys.modules.items()}\n"
        "imported = sorted(f for n, f in files.items()\n"
        "                  if f and (n == 'pyscript' or n.startswith('pyscript.')))\n"
        "served, imported"
    )
    assert "/home/pyodide/pyscript/__init__.py" in imported
    assert served == imported


def test_tokenizers_are_unpacked_when_the_first_result_needs_them(new_app) -> None:
    """app.zip (the tokenizers' code and data) stays packed on the snapshot path until
    Python first imports a tokenizer; a link that sizes chunks in tokens needs one for the
    very first result, which must still be right."""
    chosen = Settings(chunk_size=40, chunk_overlap=8, size_unit="tokens", tokenizer="o200k_base")
    page = new_app().open(settings_to_fragment(chosen)).wait_ready()
    assert page.page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.page.text_content("#figure-chunks") == f"{analyse(SAMPLE, chosen).count:,}"
    data = "/home/pyodide/chunker_py/_data/o200k_base.ranks"
    assert page.python(f"import os; os.path.exists({data!r})") is True
    # unpacked once: the page's hook is gone, and so is the snapshot's finder
    assert page.page.evaluate("() => 'chunkInspectorUnpack' in globalThis") is False
    finders = "import sys; [type(f).__name__ for f in sys.meta_path]"
    assert "UnpackOnDemand" not in page.python(finders)


# Keeps the page's own fetch of app.zip from ever answering (held, not failed: nothing is
# reported), and records when it was asked relative to the first result.
HOLD_APP_ZIP = """
(() => {
  const original = window.fetch;
  window.__appZipAsked = [];
  window.fetch = function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith("/app.zip")) {
      window.__appZipAsked.push(document.getElementById("app")?.dataset.state ?? null);
      return new Promise(() => {});
    }
    return original.call(this, input, init);
  };
})();
"""


def test_without_a_link_app_zip_waits_for_the_first_result_and_comes_when_needed(
    new_app,
) -> None:
    """Opened with no settings link, the page asks for app.zip (the tokenizers) only after
    its first result, so it never competes with the start; a tokenizer chosen before that
    download arrived is fetched at once (synchronously) and sizes the chunks right."""
    page = new_app()
    page.page.context.add_init_script(script=HOLD_APP_ZIP)
    page.open().wait_ready()
    assert page.page.get_attribute("#app", "data-boot") == "snapshot"
    page.page.wait_for_function("() => window.__appZipAsked.length > 0")
    assert page.page.evaluate("window.__appZipAsked") == ["ready"]
    page.choose("Tokens")
    page.select("Tokenizer", value="o200k_base")
    page.page.wait_for_function("() => !('chunkInspectorUnpack' in globalThis)")
    chosen, _notes = settings_from_fragment(page.page.evaluate("location.hash"))
    assert chosen.size_unit == "tokens" and chosen.tokenizer == "o200k_base"
    expect(page.page.locator("#figure-chunks")).to_have_text(f"{analyse(SAMPLE, chosen).count:,}")
    assert page.state() == "ready"


def corrupt(path: Path) -> None:
    """Flip bytes in the middle of the compressed data: inflating fails (or the CRC does, or
    for the brotli copy the SHA-256 of the piece it lands in)."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(b ^ 0xFF for b in data[middle : middle + 64])
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])


def other_build_id(path: Path) -> None:
    """A well-formed snapshot for another Pyodide build: Pyodide itself must refuse it (the
    check of each piece's SHA-256 refuses it first when it has one to go by)."""
    raw = bytearray(unpack(path))
    raw[16:20] = bytes(b ^ 0xFF for b in raw[16:20])
    pack(path, bytes(raw))


def altered(path: Path) -> None:
    """A well-formed file whose heap differs from the one built by one byte, in the middle:
    brotli has no checksum, so only the SHA-256 of each piece can tell."""
    raw = bytearray(unpack(path))
    raw[len(raw) // 2] ^= 0x01
    pack(path, bytes(raw))


def without_decoder(root: Path, site: Site) -> None:
    """No brotli decoder can load: snapshot.js downloads the gzip file instead."""
    decoder_file(root, site).unlink()


def stale_key(root: Path, site: Site) -> None:
    """The page expects another key (as after a code change with an old snapshot file)."""
    interpreter = root / site.build / "interpreter.js"
    text = interpreter.read_text("utf-8")
    key = snapshot_file(root, site).name.removeprefix("snapshot-").split(".")[0]
    assert text.count(key) == 2  # its file name and the key itself
    interpreter.write_text(text.replace(f'"key": "{key}"', '"key": "0123456789abcdef0123"'))


BREAKS: dict[str, tuple[Callable[[Path, Site], None], str]] = {
    "missing": (lambda root, site: snapshot_file(root, site).unlink(), "missing: HTTP 404"),
    "corrupt": (lambda root, site: corrupt(snapshot_file(root, site)), "corrupt"),
    "truncated": (lambda root, site: truncate(snapshot_file(root, site)), "corrupt"),
    "other-pyodide-build": (
        lambda root, site: other_build_id(snapshot_file(root, site)),
        "refused by Pyodide",
    ),
    "stale": (stale_key, "stale"),
    # the brotli copy, over a measured link (served on PROBED_HOST)
    "brotli-missing": (lambda root, site: brotli_file(root, site).unlink(), "missing: HTTP 404"),
    "brotli-corrupt": (lambda root, site: corrupt(brotli_file(root, site)), "corrupt"),
    "brotli-truncated": (lambda root, site: truncate(brotli_file(root, site)), "corrupt"),
    "brotli-altered": (lambda root, site: altered(brotli_file(root, site)), "corrupt"),
    "brotli-other-pyodide-build": (
        lambda root, site: other_build_id(brotli_file(root, site)),
        "corrupt: the brotli copy's SHA-256 differs",
    ),
    # where no brotli decoder runs, the gzip file instead (over a measured link)
    "brotli-no-decoder-gzip-corrupt": (
        lambda root, site: (without_decoder(root, site), corrupt(snapshot_file(root, site))),
        "corrupt",
    ),
}


@pytest.mark.parametrize("how", sorted(BREAKS))
def test_unusable_snapshot_falls_back_to_a_normal_boot_visibly(
    how: str, site, copy_site, serve_dir, new_app
) -> None:
    breaker, reason = BREAKS[how]
    broken = copy_site()
    breaker(broken, site)
    host = PROBED_HOST if how.startswith("brotli-") else "127.0.0.1"
    recorded = new_app(serve_dir(broken, host=host).url).open()
    assert recorded.wait_settled() == "ready", recorded.page.text_content("#boot-status")
    page = recorded.page
    assert page.get_attribute("#app", "data-boot") == "full"
    assert (page.get_attribute("#app", "data-boot-reason") or "").startswith(reason)
    footer = page.text_content("footer") or ""
    assert f"started without the start-up snapshot ({reason}" in footer
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    assert page.text_content("#core-version") == f"chunker_py {chunker_py.__version__}"
    assert recorded.foreign_requests() == []
    # the modules the snapshot would have held come from lib.zip instead
    assert any(url.endswith(f"{site.build}/lib.zip") for url in recorded.requests)
    warnings = [m.text for m in recorded.console if m.type == "warning"]
    assert any("start-up snapshot not used" in w for w in warnings)


def snapshot_requests(server) -> list[str]:
    return [r.path.rsplit("/", 1)[-1] for r in server.requests if "/snapshot-" in r.path]


def test_a_first_visit_downloads_the_brotli_copy_and_decodes_it_in_the_worker(
    site, serve_dir, new_app
) -> None:
    """Over a measured link the snapshot comes from its brotli copy (4.8 MB against the gzip
    file's 7.0), decoded by the vendored decoder: the gzip file is not asked for."""
    served = serve_dir(site.root, host=PROBED_HOST)
    app = new_app(served.url).open().wait_ready()
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    assert app.page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    assert snapshot_requests(served) == [Path(site.snapshot_brotli).name]
    marks = app.page.evaluate(
        "() => performance.getEntriesByType('mark').map((m) => m.name)"
        ".filter((n) => n.startsWith('ci:snapshot-decoder'))"
    )
    assert marks == ["ci:snapshot-decoder"]


def test_a_page_from_this_machine_downloads_the_gzip_file(site, serve_dir, new_app) -> None:
    """On loopback bytes cost nothing and DecompressionStream's native inflation is the
    quicker: the gzip file, not the brotli copy, and no decoder is loaded."""
    served = serve_dir(site.root)
    app = new_app(served.url).open().wait_ready()
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    assert snapshot_requests(served) == [Path(site.snapshot).name]
    assert not [r for r in served.requests if "brotli" in r.path]


def test_without_a_brotli_decoder_the_page_downloads_the_gzip_file(
    site, copy_site, serve_dir, new_app
) -> None:
    """Where the decoder cannot load, snapshot.js says so (a mark) and takes the gzip file
    (DecompressionStream inflates it): the page still boots from the snapshot."""
    root = copy_site()
    without_decoder(root, site)
    served = serve_dir(root, host=PROBED_HOST)
    app = new_app(served.url).open()
    assert app.wait_settled() == "ready", app.page.text_content("#boot-status")
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    assert app.page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    names = snapshot_requests(served)
    assert names == [Path(site.snapshot_brotli).name, Path(site.snapshot).name], names
    failed = app.page.evaluate(
        "() => performance.getEntriesByName('ci:snapshot-decoder-failed').length"
    )
    assert failed == 1


def test_a_snapshot_js_that_runs_after_the_interpreter_module_still_serves_the_snapshot(
    new_app,
) -> None:
    """snapshot.js is an async script: on a busy machine it ran after interpreter.js (the
    page then booted normally, "not requested: snapshot.js did not run"). Held back here
    until well after the interpreter module ran, it must still be waited for."""
    app = new_app()

    def late(route) -> None:
        response = route.fetch()
        time.sleep(3)  # interpreter.js is evaluated ~0.3-0.6 s after navigation
        route.fulfill(response=response)

    app.page.route("**/snapshot.js", late)
    app.open()
    assert app.wait_settled() == "ready", app.page.text_content("#boot-status")
    assert app.page.get_attribute("#app", "data-boot-reason") is None
    assert app.page.get_attribute("#app", "data-boot") == "snapshot"
    order = app.page.evaluate(
        """() => ['ci:interpreter-module', 'ci:snapshot-worker']
            .map((n) => performance.getEntriesByName(n)[0]?.startTime)"""
    )
    assert order[0] < order[1], order
    assert app.page.text_content("#figure-chunks") == SAMPLE_CHUNKS


def test_without_workers_the_page_inflates_the_snapshot_itself(site, serve_dir, new_app) -> None:
    """A policy that allows no blob: worker: snapshot.js cannot start its worker, and
    downloads and inflates the snapshot in the page; the page still boots from it."""
    policy = CSP.replace("worker-src 'self' blob:", "worker-src 'self'")
    assert policy != CSP
    recorded = new_app(serve_dir(site.root, csp=policy).url).open()
    assert recorded.wait_settled() == "ready", recorded.page.text_content("#boot-status")
    page = recorded.page
    assert page.get_attribute("#app", "data-boot") == "snapshot"
    assert page.text_content("#figure-chunks") == SAMPLE_CHUNKS
    # the page fetched the snapshot itself (a worker's fetches are not in its timeline)
    assert any("/snapshot-" in url for url in fetched_by_the_page(page))


def fetched_by_the_page(page) -> list[str]:
    return page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")


# Records every text #boot-status shows (added before any page script runs).
STATUS_LOG = """(() => {
  window.__statusTexts = [];
  const watch = () => {
    const status = document.getElementById('boot-status');
    if (!status) return requestAnimationFrame(watch);
    const area = document.getElementById('source-text');
    window.__areaEditableAtStart = !!area && !area.disabled && !area.readOnly
      && document.getElementById('app').dataset.state === 'loading';
    const log = () => window.__statusTexts.push(status.textContent);
    log();
    new MutationObserver(log).observe(status, { childList: true, characterData: true,
                                                subtree: true });
  };
  document.addEventListener('DOMContentLoaded', watch);
})();"""


def test_boot_status_shows_progress_while_the_runtime_loads(browser, server) -> None:
    context = browser.new_context()
    try:
        context.add_init_script(script=STATUS_LOG)
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector('#app[data-state="ready"]', state="attached", timeout=60_000)
        texts = page.evaluate("() => window.__statusTexts")
        assert "Starting Python from the start-up snapshot…" in texts
        assert "Loading the page's Python code…" in texts
        assert texts.index("Starting Python from the start-up snapshot…") < texts.index(
            "Loading the page's Python code…"
        )
        # the text area was there and editable while Python was still loading
        assert page.evaluate("() => window.__areaEditableAtStart") is True
        assert page.is_hidden("#boot-status")
    finally:
        context.close()
