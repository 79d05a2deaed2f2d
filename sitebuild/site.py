"""The static site: dist/ written whole, from the parts the other modules make.

Layout of dist/ (every URL below is relative to index.html):

    index.html                      the template ./index.html with {{...}} filled in, and
                                    the first look: the sample's first result drawn at
                                    build time (sitebuild/first_look.py)
    **/*.gz, **/*.br                precompressed copies beside every compressible file
                                    (sitebuild/compress.py), for hosts that serve them
    sw.js                           the service worker: keeps every other file for offline
                                    use (sitebuild/offline.py writes it and the id)
    static/build-<hash>/            everything of ours, content-addressed: a rebuild with a
        app/*.py                    change gets a new folder name, so no browser can reuse
                                    a stale copy (the server also sends no-cache)
        static files (css, js, txt)
        snapshot.js                 fetches the snapshot from <head>, inflates it in a worker
        interpreter.js              PyScript's interpreter: boots Pyodide from the snapshot
                                    (or normally when it is unusable), unpacks the zips
        snapshot-<key>.bin.gz       the start-up memory snapshot, made with Node's Pyodide
                                    (sitebuild/snapshot.py); <key> = runtime + Python code +
                                    recipe + the PyScript package it holds compiled
        snapshot-<key>.bin.br       the same, brotli: what a first visit downloads (decoded
                                    by the vendored brotli-dec-wasm in snapshot.js's worker;
                                    the .gz is the service worker's and the fallback)
        stdlib.zip                  Python's standard library limited to what the page
                                    imports (recorded at build time; the snapshot is made
                                    with it); vendored python_stdlib.zip is the fallback
        lib.zip, app.zip            the page's Python (chunker_py, its dependencies, the
                                    app's modules): lib.zip holds what the snapshot holds,
                                    app.zip the rest (token data, tokenizers loaded lazily)
        offline.js                  registers sw.js after the first result; the footer says
                                    when the page is available offline
        wheels/chunker_py-*.whl     built by flit_core (sitebuild/wheel.py; not loaded at
                                    start-up; for download and micropip users)
    static/model/                   the embedding model (sitebuild/model.py):
        all-MiniLM-L6-v2.onnx       fetched only when Semantic or Hybrid retrieval is
        manifest.json               first chosen (static/embed_client.js), with
                                    static/vendor/onnxruntime-web-<version>/; never by a
                                    first visit, kept by the worker on demand only
    static/vendor/<pkg>-<version>/  the pinned npm runtime, each with its LICENSE
        pyodide-<v>/ also holds micropip's wheel and a copy of pyodide-lock.json whose
        micropip entry names that wheel's sha256, so loadPackage("micropip") stays local.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitebuild.bundle import python_bundle
from sitebuild.compress import BROTLI, precompress
from sitebuild.first_look import first_look_for
from sitebuild.model import write_model
from sitebuild.npm import ensure_node_modules, pyodide_python_version
from sitebuild.offline import WORKER, write_offline
from sitebuild.paths import APP, DIST, INDEX_TEMPLATE, ROOT, STATIC
from sitebuild.policy import CSP, WASM_PRELOAD
from sitebuild.pypi import sha256_hex
from sitebuild.shell import log
from sitebuild.snapshot import (
    FULL_STDLIB,
    SNAPSHOT_LAZY,
    Snapshot,
    only_lazy_modules_and_data,
    snapshot_brotli_name,
    snapshot_for,
    snapshot_name,
    split_bundle,
)
from sitebuild.tokendata import ensure_token_data
from sitebuild.vendor import ONNXRUNTIME_FILES, Vendored, pyscript_core_chunks, vendor_runtime
from sitebuild.wheel import build_wheel

# The size of the pieces whose SHA-256 index.html lists for the inflated snapshot
# (static/snapshot.js's SNAPSHOT_PIECE): each piece is checked as soon as it has been read
# from the service worker's cache, so the check overlaps the read instead of following it.
SNAPSHOT_PIECE = 4 << 20


def piece_digests(data: bytes, piece: int = SNAPSHOT_PIECE) -> list[str]:
    """SHA-256 (hex) of each `piece` bytes of `data`, the last one shorter."""
    return [hashlib.sha256(data[at : at + piece]).hexdigest() for at in range(0, len(data), piece)]


def interpreter_module(template: bytes, settings: dict[str, Any]) -> bytes:
    """static/interpreter.js with its build settings (URLs relative to it, the key) filled in."""
    marker = b"/* build.py fills this in */ {}"
    if template.count(marker) != 1:
        raise SystemExit("static/interpreter.js: expected one '/* build.py fills this in */ {}'")
    return template.replace(marker, json.dumps(settings, sort_keys=True).encode())


def own_files(
    wheel_name: str, wheel: bytes, vendored: Vendored, bundle: bytes, snapshot: Snapshot
) -> dict[str, bytes]:
    """The content-addressed part of the site, keyed by path inside build-<hash>/ (build()
    adds the snapshot, which is named by its own key)."""
    files: dict[str, bytes] = {}
    for path in sorted(APP.glob("*.py")):
        files[f"app/{path.name}"] = path.read_bytes()
    for path in sorted(STATIC.rglob("*")):
        relative = path.relative_to(STATIC)
        if relative.as_posix() == WORKER:  # written at the root by write_offline
            continue
        if path.is_file() and relative.parts[0] != "vendor" and "__pycache__" not in relative.parts:
            files[relative.as_posix()] = path.read_bytes()
    # Not used at start-up (see lib.zip and app.zip); kept for download and micropip users.
    files[f"wheels/{wheel_name}"] = wheel
    # Every page unpacks app.zip; only a page that could not use the snapshot needs lib.zip.
    files["lib.zip"], files["app.zip"] = split_bundle(bundle, snapshot.complete)
    # The standard library the page mounts: what it imports (the snapshot was made with it)
    files["stdlib.zip"] = snapshot.stdlib
    pyodide = "../" + vendored.pyodide.removeprefix("static/").rsplit("/", 1)[0] + "/"
    files["interpreter.js"] = interpreter_module(
        files["interpreter.js"],
        {
            # Relative to interpreter.js, which sits in static/build-<hash>/.
            "pyodide": pyodide,
            "stdlib": "./stdlib.zip",
            # the whole standard library, for a module stdlib.zip leaves out
            # (app/boot_finders.py): those modules, and where it is
            "fullStdlib": pyodide + FULL_STDLIB,
            "stdlibRest": list(snapshot.stdlib_rest),
            "app": "./app.zip",
            "lib": "./lib.zip",
            "snapshot": f"./{snapshot_name(snapshot.key)}",
            "key": snapshot.key,
            # the snapshot's size inflated: the gzip's last four bytes (ISIZE, < 4 GiB)
            "snapshotBytes": int.from_bytes(snapshot.data[-4:], "little"),
            # app.zip waits until Python first imports one of its modules (see
            # app/boot_finders.py, UnpackOnDemand) when that is all it holds,
            # with their data
            "appOnDemand": only_lazy_modules_and_data(files["app.zip"]),
            "lazy": list(SNAPSHOT_LAZY),  # for a normal boot's UnpackOnDemand
        },
    )
    return files


def pyscript_config(build_dir: str) -> str:
    """PyScript's configuration, written into the page's <script type="py" config="…">
    (inline JSON: no request for a config file before the interpreter can start)."""
    config: dict[str, Any] = {
        # Relative to the page (PyScript resolves `interpreter` against location.href). The
        # wrapper boots Pyodide from the memory snapshot, or normally when it is unusable,
        # and unpacks the zips itself: no `packages`, so micropip stays off the start-up
        # path (it is still vendored: `await pyodide_js.loadPackage("micropip")` works).
        "interpreter": f"./{build_dir}/interpreter.js",
        "plugins": list(PLUGINS_OFF),
    }
    return json.dumps(config, separators=(",", ":"))


# Only the error banner is wanted; the editor, terminal, game and donkey plugins would each
# cost a request at boot.
PLUGINS_OFF = (
    "!codemirror",
    "!deprecations-manager",
    "!donkey",
    "!py-editor",
    "!py-game",
    "!py-terminal",
)


def wasm_preload_html(wasm: str, brotli: str) -> str:
    """The inline script that preloads Pyodide's wasm (or its brotli copy `brotli`, "" for
    none) on a first visit (its text is sitebuild/wasm_preload.js, byte for byte: the
    policy allows it by that text's hash)."""
    wasm, brotli = html.escape(wasm), html.escape(brotli)
    return f'<script data-wasm="{wasm}" data-wasm-brotli="{brotli}">{WASM_PRELOAD}</script>'


def micropython_config() -> str:
    """The text of the page's <mpy-config>: the same plugins switched off for PyScript's
    MicroPython type, which the page never uses. PyScript's core loads the plugins once per
    script type, and a type without a config loads them all: without it five plugin modules
    were asked for while the start-up snapshot's request waited for one of the host's six
    connections (bench/bench_boot.py, 100 Mbit/s, 40 ms: the snapshot's first byte came
    ~160 ms after the link probe ended). With a config and no mpy script, PyScript never
    starts MicroPython."""
    return json.dumps({"plugins": list(PLUGINS_OFF)}, separators=(",", ":"))


def runtime_files(folder: Path) -> str:
    """``name:bytes:sha256`` for each of onnxruntime-web's files (static/embed_client.js)."""
    return " ".join(
        f"{name}:{(folder / name).stat().st_size}:{sha256_hex((folder / name).read_bytes())}"
        for name in ONNXRUNTIME_FILES
    )


def content_hash(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + sha256_hex(files[name]).encode() + b"\n")
    return digest.hexdigest()[:12]


def render_index(template: str, values: dict[str, str]) -> str:
    """Fill {{name}} slots; {{text:path}} inlines a repository file, HTML-escaped."""

    def fill(match: re.Match[str]) -> str:
        key = match.group(1).strip()
        if key.startswith("text:"):
            return html.escape((ROOT / key[5:]).read_text("utf-8"), quote=False)
        if key.startswith("html:"):  # markup we generate ourselves (it escapes its values)
            return values[key[5:]]
        if key not in values:
            raise SystemExit(f"index.html: unknown slot {{{{{key}}}}}")
        return html.escape(values[key], quote=False).replace('"', "&quot;")

    return re.sub(r"\{\{([^{}]+)\}\}", fill, template)


def settings_form_html() -> str:
    """The settings controls, generated from chunker_py's field definitions (app/form.py)."""
    for folder in (ROOT, APP):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    from form import settings_form

    return str(settings_form())


@dataclass(frozen=True)
class Site:
    root: Path
    build: str  # e.g. "static/build-0123456789ab", relative to index.html
    wheel: str  # URL of the chunker_py wheel, relative to index.html
    snapshot: str  # URL of the start-up snapshot (gzip), relative to index.html
    vendored: Vendored
    # URL of its brotli copy, which a first visit downloads ("" without the brotli package)
    snapshot_brotli: str = ""


def build(dist: Path = DIST) -> Site:
    """Write the whole static site to `dist` (replacing it) and say where things are."""
    ensure_node_modules()
    ensure_token_data()
    staging = dist.with_name(dist.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    vendored = vendor_runtime(staging)
    wheel_name, wheel = build_wheel()
    bundle = python_bundle(pyodide_python_version())
    snapshot = snapshot_for(bundle)
    files = own_files(wheel_name, wheel, vendored, bundle, snapshot)
    build_dir = f"static/build-{content_hash(files)}"
    # The snapshot is named by its key (which interpreter.js holds, so the hash covers it)
    # and kept out of the hash itself: it is not byte-reproducible across machines.
    files[snapshot_name(snapshot.key)] = snapshot.data
    snapshot_url = f"{build_dir}/{snapshot_name(snapshot.key)}"
    brotli_url = ""
    if snapshot.brotli is not None:
        files[snapshot_brotli_name(snapshot.key)] = snapshot.brotli
        brotli_url = f"{build_dir}/{snapshot_brotli_name(snapshot.key)}"
    for name, data in files.items():
        target = staging / build_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    wasm = vendored.pyodide.rsplit("/", 1)[0] + "/pyodide.asm.wasm"
    values = {
        "settings_form": settings_form_html(),
        "build": build_dir,
        "csp": CSP,
        "pyodide": vendored.pyodide.rsplit("/", 1)[0],
        "pyscript": vendored.pyscript,
        "plotly": vendored.plotly,
        "snapshot": snapshot_url,
        "snapshot_brotli": brotli_url,
        "brotli_decoder": vendored.brotli,
        # the service worker stores the snapshot inflated; snapshot.js checks that copy
        # against these, piece by piece as it is read (static/sw.js, static/snapshot.js)
        "snapshot_sha256": " ".join(piece_digests(gzip.decompress(snapshot.data))),
        "stdlib": f"{build_dir}/stdlib.zip",
        "pyscript_config": pyscript_config(build_dir),
        "micropython_config": micropython_config(),
        "wasm_preload": wasm_preload_html(wasm, wasm + ".br" if BROTLI is not None else ""),
        # the wasm's SHA-256 list, against which snapshot.js checks what it decoded from
        # the brotli copy (precompress writes it: sitebuild/compress.py)
        "wasm_sha256": " ".join(piece_digests((staging / wasm).read_bytes())),
        # the embedding model's runtime, downloaded only when Semantic or Hybrid retrieval
        # is first chosen: its folder, and each file's name, size and SHA-256, against which
        # static/embed_worker.js checks the download
        "onnxruntime": vendored.onnxruntime,
        "onnxruntime_files": runtime_files(staging / vendored.onnxruntime),
        "pyscript_chunk": vendored.pyscript
        + "/"
        + (pyscript_core_chunks(staging / vendored.pyscript) or ["core.js"])[0],
    }
    template = INDEX_TEMPLATE.read_text("utf-8")
    # The first look is drawn by the page's own first update of the page as built without
    # it (sitebuild/first_look.py), then written into it.
    bare_index = render_index(template, {**values, "first_look": ""})
    values["first_look"] = first_look_for(bundle, bare_index)
    index = render_index(template, values)
    (staging / "index.html").write_text(index, "utf-8")
    write_model(staging)  # fetched on demand: outside the offline list (sitebuild/offline.py)
    write_offline(staging)
    precompress(staging)  # after every file, sw.js and index.html included

    shutil.rmtree(dist, ignore_errors=True)
    staging.rename(dist)
    log(f"built {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist} ({build_dir})")
    wheel_url = f"{build_dir}/wheels/{wheel_name}"
    return Site(dist, build_dir, wheel_url, snapshot_url, vendored, brotli_url)
