"""The start-up snapshot as the build makes it, and the split of the page's Python into
lib.zip (what the snapshot holds) and app.zip (the rest). The page booting from it, and
falling back when it is unusable, is tests/page/boot/test_snapshot.py."""

from __future__ import annotations

import gzip
import hashlib
import html
import io
import json
import re
import zipfile
from pathlib import Path

from sitebuild.bundle import python_bundle, reproducible_zip, top_level_modules
from sitebuild.npm import npm_package, pyodide_python_version
from sitebuild.paths import CACHE
from sitebuild.snapshot import (
    SNAPSHOT_LAZY,
    only_lazy_modules_and_data,
    snapshot_key,
    snapshot_required_modules,
)


def pyodide_build_id() -> str:
    """The BUILD_ID the vendored pyodide.mjs checks a snapshot against."""
    source, _version = npm_package("pyodide")
    match = re.search(r'BUILD_ID:"([0-9a-f]{64})"', (source / "pyodide.mjs").read_text("utf-8"))
    assert match, "pyodide.mjs no longer names its BUILD_ID"
    return match.group(1)


def snapshot_build_id(raw: bytes) -> str:
    """Pyodide's snapshot header: magic, sizes, then the 256-bit build id (8 uint32 LE)."""
    words = [int.from_bytes(raw[i : i + 4], "little") for i in range(16, 48, 4)]
    return "".join(f"{w:08x}" for w in words)


def test_build_makes_a_snapshot_for_the_vendored_pyodide(site) -> None:
    raw = gzip.decompress((site.root / site.snapshot).read_bytes())
    assert snapshot_build_id(raw) == pyodide_build_id()


def free_chunk_bytes(heap: bytes, base: int, end: int) -> tuple[int, int]:
    """Walk dlmalloc's chunks in a wasm heap from ``base`` (each chunk's second word is its
    size, bit 1 set while in use) to ``end``, the break; return how many chunks are free and
    how many bytes of those chunks, past their bin links, are not zero."""
    free = stale = 0
    chunk = base
    while chunk < end:
        head = int.from_bytes(heap[chunk + 4 : chunk + 8], "little")
        size = head & ~7
        assert size >= 16 and chunk + size <= end, f"no chunk at {chunk}"
        if not head & 2:
            free += 1
            body = heap[chunk + (32 if size >= 256 else 16) : chunk + size]
            stale += len(body) - body.count(0)
        chunk += size
    return free, stale


def test_the_snapshot_ships_its_heap_s_free_memory_as_zeros(site) -> None:
    """First visit's bytes: free malloc chunks kept the bytes they last held, ~1 MB of the gzip; the
    maker zeroes them. The walk over the shipped heap must land on the break the maker
    reported, past thousands of free chunks, none of them holding a non-zero byte."""
    raw = gzip.decompress((site.root / site.snapshot).read_bytes())
    heap = raw[int.from_bytes(raw[4:8], "little") :]  # Pyodide's header is its second word
    cleared = snapshot_report(site)["cleared"]
    assert "skipped" not in cleared, cleared
    free, stale = free_chunk_bytes(heap, cleared["heapBase"], cleared["heapEnd"])
    assert free > 1000
    assert stale == 0


def snapshot_report(site) -> dict:
    """What the maker reported for the built snapshot (kept beside it in the cache)."""
    key = (site.root / site.snapshot).name.removeprefix("snapshot-").split(".")[0]
    return json.loads((CACHE / "snapshots" / f"snapshot-{key}.json").read_text("utf-8"))


def test_the_snapshot_s_heap_is_slimmed_before_it_is_saved(site) -> None:
    """First visit's bytes: every module is compiled without its functions' docstrings and its code
    locations' columns from Python's start (sitebuild/snapshot_site.py, the maker's
    sitecustomize), modules and classes lose their docstrings and the maker's own names in
    __main__ go before the heap is saved (snapshot_imports.py: drop_docstrings,
    forget_program);
    markdown_it's command line (argparse, gettext: ~77 KB) is not imported. The page reads
    none of them (tests/page/boot/test_snapshot.py checks the restored heap)."""
    report = snapshot_report(site)
    slimmed = report["slimmed"]
    # compiled slim from Python's start: Pyodide's modules, the bundle's, the stdlib's
    assert slimmed["modules"] > 350
    assert slimmed["code_docstrings"] > 3000 and slimmed["docstrings"] > 800
    assert slimmed["linetable_bytes_after"] < 0.6 * slimmed["linetable_bytes"]
    assert slimmed["main_names"] > 20  # its imports and definitions, the sources' JSON
    assert "markdown_it.cli" in SNAPSHOT_LAZY
    assert not [name for name in report["imported"] if name.startswith("markdown_it.cli")]
    assert "markdown_it" in report["imported"]


def test_page_fetches_the_snapshot_early_and_config_has_no_micropip_packages(site) -> None:
    index = (site.root / "index.html").read_text("utf-8")
    head = index[: index.index("</head>")]
    # snapshot.js starts the download from <head>, before PyScript's own scripts, asked at
    # high priority (as an async script it was answered after the page's other first
    # requests: ~270-360 ms after navigation at 100 Mbit/s, ~140 ms with it)
    early = (
        f'<script async fetchpriority="high" src="{site.build}/snapshot.js"'
        f' data-snapshot="{site.snapshot}"'
    )
    assert early in head
    assert head.index(early) < head.index('id="pyscript-core"')
    # PyScript's configuration is inline (no request for it before the interpreter starts)
    attributes = re.search(r'<script type="py" src="[^"]+" config="([^"]+)"', index)
    assert attributes, "no <script type=py> with an inline config"
    config = json.loads(html.unescape(attributes.group(1)))
    assert not list((site.root / site.build).glob("*.json"))
    assert "packages" not in config
    assert config["interpreter"] == f"./{site.build}/interpreter.js"


def test_the_brotli_copy_holds_the_same_snapshot_and_only_first_visits_download_it(
    site,
) -> None:
    """A first visit downloads the snapshot's brotli copy (snapshot.js decodes it with the
    vendored decoder, named beside it in index.html); it must decode to the gzip file's
    bytes, be smaller, and stay out of the service worker's list (the worker keeps the
    gzip file's bytes, inflated)."""
    import brotli

    packed = (site.root / site.snapshot_brotli).read_bytes()
    gzipped = (site.root / site.snapshot).read_bytes()
    assert brotli.decompress(packed) == gzip.decompress(gzipped)
    assert len(packed) < 0.8 * len(gzipped)
    index = (site.root / "index.html").read_text("utf-8")
    assert f'data-snapshot-brotli="{site.snapshot_brotli}"' in index
    assert f'data-brotli-decoder="{site.vendored.brotli}"' in index
    decoder = site.root / site.vendored.brotli
    assert decoder.is_file() and decoder.with_name("brotli_dec_wasm_bg.wasm").is_file()
    worker = (site.root / "sw.js").read_text("utf-8")
    assert Path(site.snapshot).name in worker
    assert Path(site.snapshot_brotli).name not in worker


def test_index_lists_the_sha256_of_each_4_mib_piece_of_the_inflated_snapshot(site) -> None:
    """The service worker keeps the snapshot inflated; snapshot.js checks that copy piece by
    piece as it reads it (each piece's digest starts once the piece is whole, so the check
    overlaps the read): index.html lists the SHA-256 of each 4 MiB of the inflated
    snapshot, in order, the last piece shorter."""
    index = (site.root / "index.html").read_text("utf-8")
    listed = re.search(r'data-snapshot-sha256="([^"]*)"', index)
    assert listed, "snapshot.js's tag has no data-snapshot-sha256"
    raw = gzip.decompress((site.root / site.snapshot).read_bytes())
    piece = 4 << 20
    expected = [
        hashlib.sha256(raw[at : at + piece]).hexdigest() for at in range(0, len(raw), piece)
    ]
    assert len(expected) > 1
    assert listed.group(1).split(" ") == expected
    # snapshot.js reads pieces of the same size
    script = (site.root / site.build / "snapshot.js").read_text("utf-8")
    assert "const PIECE = 4 << 20;" in script


def test_snapshot_key_follows_the_python_code_it_holds() -> None:
    bundle = python_bundle(pyodide_python_version())
    modules = top_level_modules(bundle)
    required = snapshot_required_modules()
    key = snapshot_key(bundle, modules, required)
    assert snapshot_key(bundle, modules, required) == key
    changed = reproducible_zip([("chunker_py/__init__.py", b"changed = True\n")])
    assert snapshot_key(changed, modules, required) != key
    assert "chunker_py" in required and "chunker_py" in modules
    # the dependencies' packages are imported into the snapshot too, whatever they are
    assert set(required) <= set(modules)


def test_lib_zip_holds_what_the_snapshot_holds_and_app_zip_the_rest(site) -> None:
    folder = site.root / site.build
    lib = zipfile.ZipFile(folder / "lib.zip").namelist()
    app = zipfile.ZipFile(folder / "app.zip").namelist()
    assert "chunker_py/__init__.py" in lib and "markdown_it/__init__.py" in lib
    # the app's modules are in the snapshot (main.py is PyScript's script, not in a zip);
    # the tokenizers' rank files are read from the file system, which a snapshot lacks
    assert "dom.py" in lib and "inspector.py" in lib and "main.py" not in lib + app
    assert any(name.startswith("chunker_py/_data/") for name in app)
    # a lazy package's files (markdown_it's command line, never imported by the page)
    assert "markdown_it/cli/__init__.py" in app and "markdown_it/cli/parse.py" in app
    assert not set(lib) & set(app)
    bundle = zipfile.ZipFile(io.BytesIO(python_bundle(pyodide_python_version())))
    assert set(lib) | set(app) == set(bundle.namelist())


def test_app_zip_waits_only_when_it_holds_nothing_but_lazy_modules_and_data() -> None:
    lazy = SNAPSHOT_LAZY[0].replace(".", "/") + ".py"
    data = "chunker_py/_data/o200k_base.ranks"
    assert only_lazy_modules_and_data(reproducible_zip([(lazy, b""), (data, b"")]))
    other = reproducible_zip([(lazy, b""), ("dom.py", b"")])
    assert not only_lazy_modules_and_data(other)
