"""The start-up snapshot, and the split of the page's Python into lib.zip and app.zip.

A Pyodide memory snapshot is the wasm heap after Python has started and imported the page's
modules; booting from it skips both (Pyodide's undocumented ``_makeSnapshot`` and
``_loadSnapshot`` options of ``loadPyodide``, checked against its build id; see
docs/architecture.md "The start-up snapshot"). It is made with Node's Pyodide from
node_modules (the same files the page vendors) by snapshot_maker.mjs, after unpacking the
page's Python bundle as the page does and importing every module in it
(snapshot_imports.py; the app's modules too: they bind the page's `window` and `document`
from `js`, and touch nothing else at import). It also holds PyScript's own package
compiled, for PyScript to import after the restore. Pyodide refuses a snapshot from another
build of itself; the page also refuses one whose key differs from the key in its
interpreter.js, and then boots normally.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitebuild.bundle import (
    app_modules,
    dependency_members,
    reproducible_zip,
    top_level_modules,
    top_level_names,
)
from sitebuild.compress import BROTLI, brotli_bytes
from sitebuild.npm import npm_package, pyodide_python_version
from sitebuild.paths import CACHE
from sitebuild.pypi import runtime_requirements, sha256_hex
from sitebuild.shell import log, run_node
from sitebuild.vendor import PYODIDE_FILES

MAKER = Path(__file__).with_name("snapshot_maker.mjs")
IMPORTS = Path(__file__).with_name("snapshot_imports.py")
SITE = Path(__file__).with_name("snapshot_site.py")  # the maker's sitecustomize
# PyScript's Python package, as the artifact its core.js is built with (see MAKER).
PYSCRIPT_STDLIB = "src/stdlib/pyscript.js"
HOME = "/home/pyodide"  # Pyodide's working directory, as in the page

# The command line's own modules (files, folders, rules, streams, Dask): the page imports
# none of them at start-up (with them the snapshot's heap grew past what the page
# restores), and the page's standard library leaves out what only they import. A file
# loaded in parts imports io.parts and io.stream (with io.corpus) on that click.
CLI_ONLY = tuple(
    f"chunker_py.io.{name}"
    for name in (
        *("cli", "cluster", "collector", "corpus", "fork_pool", "pool", "render", "rules"),
        *("parts", "sources", "stream", "sweeping", "tally"),
    )
)

# Imported on first use, not at snapshot time: the tokenizers' code and tables grew the
# snapshot's heap from 30 to 36 MB, past what Pyodide restores in the page ("offset is out
# of bounds"). Their files go to app.zip (on the snapshot path unpacked when one is first
# imported: app/boot_finders.py, UnpackOnDemand).
# (Not chunker_py.tokenizers.unicode_classes: measures.bm25, which the Evidence check imports
# with the app, imports it, so the snapshot holds it anyway and a normal boot needs it
# before the first result: it goes to lib.zip.)
SNAPSHOT_LAZY = (
    "chunker_py.tokenizers.bert_tables",
    "chunker_py.tokenizers.bpe",
    "chunker_py.tokenizers.wordpiece",
    "chunker_py.tokenizers.words",
    # the embedding model's input ids (imports wordpiece), its ONNX writer and the CLI's
    # onnxruntime door: loaded when dense or hybrid retrieval is first chosen
    "chunker_py.embedding.wordpieces",
    "chunker_py.embedding.onnx_graph",
    "chunker_py.embedding.onnx_runtime",
    # the CLI's --tiktoken (imports bpe; never the page's)
    "chunker_py.tokenizers.native",
    *CLI_ONLY,
    # markdown-it's command line (argparse, gettext; never the page's): 77 KB of the
    # snapshot's brotli copy
    "markdown_it.cli",
    "markdown_it.cli.parse",
    "chunker_py.text.front_matter",
    # the tokenizer.json reader: its package imports nothing until first use
    *(
        f"chunker_py.tokenizers.hf.{name}"
        for name in (
            "blocks",
            "bpe_model",
            "forms",
            "json_steps",
            "model_base",
            "models",
            "normalizers",
            "pre_tokenizers",
            "precompiled",
            "tables",
            "tokenizer",
            "unicode_data",
            "unigram_model",
        )
    ),
)


# app/boot_finders.py: the page's import hooks (app.zip on demand, the whole standard library
# for a module the trimmed one left out), installed in the snapshot by prepare_snapshot
FINDERS = "boot_finders"
FULL_STDLIB = "python_stdlib.zip"  # Pyodide's own, in the npm package (vendored beside it)


@dataclass(frozen=True)
class Snapshot:
    key: str  # hex digest of everything the snapshot was made from
    data: bytes  # gzip-compressed snapshot
    brotli: bytes | None  # the same, brotli-compressed (None without the brotli package)
    complete: tuple[str, ...]  # top-level modules it holds with every submodule imported
    stdlib: bytes  # the trimmed standard library zip the page mounts (and the snapshot did)
    stdlib_rest: tuple[str, ...]  # modules only in the full one (app/boot_finders.py)


def snapshot_name(key: str) -> str:
    # boot.js treats files named snapshot-* as optional: a 404 is a fallback, not a failure.
    return f"snapshot-{key}.bin.gz"


def snapshot_brotli_name(key: str) -> str:
    """The snapshot's brotli copy, which a first visit downloads (static/snapshot.js): a
    third smaller than the gzip file (4.1 against 5.9 MB), decoded in the page's worker by
    the vendored brotli-dec-wasm. Sent as it is (not a compressible type), never with
    Content-Encoding; the gzip file stays for the service worker and where the decoder
    cannot run."""
    return f"snapshot-{key}.bin.br"


# Brotli for the snapshot: quality 11 with the largest standard window (16 MiB). Measured on
# the 31.5 MB snapshot: 4.78 MB (gzip -9 6.96, xz -9e 4.71, zstd -19 --long=27 5.16); in
# Chromium's worker brotli-dec-wasm decodes it in ~100-150 ms as it arrives (xz-decompress
# ~360 ms, fzstd ~600 ms streaming; DecompressionStream's gzip ~180-215 ms).
SNAPSHOT_BROTLI = {"quality": 11, "lgwin": 24}


def brotli_copy(raw: bytes) -> bytes | None:
    """`raw` brotli-compressed as SNAPSHOT_BROTLI says, or None without the brotli package
    (the page then downloads the gzip file)."""
    if BROTLI is None:
        log("brotli is not installed (pip install brotli): the snapshot has no brotli copy")
        return None
    return brotli_bytes(raw, **SNAPSHOT_BROTLI)


def snapshot_required_modules() -> list[str]:
    """Modules that must be in the snapshot whole: chunker_py, the top-level packages of
    its runtime dependencies and the app's modules (app/main.py, the script PyScript runs,
    is not a module of the bundle)."""
    deps = dependency_members(pyodide_python_version()) if runtime_requirements() else {}
    return ["chunker_py", *top_level_names(deps), *(path.stem for path in app_modules())]


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
    programs = [MAKER.read_text("utf-8"), IMPORTS.read_text("utf-8"), SITE.read_text("utf-8")]
    recipe = json.dumps([*programs, modules, required, list(SNAPSHOT_LAZY), list(CLI_ONLY)])
    digest.update(recipe.encode())
    return digest.hexdigest()[:20]


def make_snapshot(
    bundle: bytes,
    key: str,
    modules: list[str],
    required: list[str],
    stdlib: bytes | None = None,
    stdlib_rest: Iterable[str] = (),
    record: bool = False,
) -> tuple[bytes, dict[str, Any]]:
    """Run snapshot_maker.mjs under Node; return the raw snapshot and its import report
    (with ``record``: no snapshot, and the report of record_stdlib)."""
    source, _version = npm_package("pyodide")
    with tempfile.TemporaryDirectory() as tmp:
        stdlib_path = None
        if stdlib is not None:
            stdlib_path = Path(tmp) / "stdlib.zip"
            stdlib_path.write_bytes(stdlib)
        bundle_path = Path(tmp) / "bundle.zip"
        bundle_path.write_bytes(bundle)
        out = Path(tmp) / "snapshot.bin"
        config = {
            "pyodide": str(source),
            "bundle": str(bundle_path),
            "out": str(out),
            "home": HOME,
            "imports": str(IMPORTS),
            "site": str(SITE),
            "modules": modules,
            "required": required,
            "lazy": list(SNAPSHOT_LAZY),
            "precompile": str(npm_package("@pyscript/core")[0] / PYSCRIPT_STDLIB),
            "key": key,
            "cli_only": list(CLI_ONLY),
            "stdlib": str(stdlib_path) if stdlib_path else None,
            "stdlib_rest": list(stdlib_rest),
            "finders": FINDERS,
            "record": record,
        }
        report = run_node(MAKER, config, Path(tmp), "making the start-up snapshot")
        if record:
            return b"", report
        log(f"snapshot: imported {len(report['imported'])} modules")
        slimmed = report["slimmed"]
        log(
            f"snapshot: dropped {slimmed['docstrings'] + slimmed['code_docstrings']} docstrings,"
            f" code locations {slimmed['linetable_bytes']:,} -> "
            f"{slimmed['linetable_bytes_after']:,} bytes (no columns)"
        )
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
    used_file = cached.with_name(f"stdlib-{key}.json")
    if not used_file.is_file():
        log("recording what the page imports from the standard library (Node's Pyodide)")
        _raw, used = make_snapshot(bundle, key, modules, required, record=True)
        used_file.parent.mkdir(parents=True, exist_ok=True)
        used_file.write_text(json.dumps(used), "utf-8")
    members = json.loads(used_file.read_text("utf-8"))["members"]
    stdlib, rest = trimmed_stdlib(members)
    if not (cached.is_file() and report_file.is_file()):
        log("making the start-up snapshot (Node's Pyodide)")
        raw, report = make_snapshot(bundle, key, modules, required, stdlib, rest)
        cached.parent.mkdir(parents=True, exist_ok=True)
        # ~7 MB each: keep the few newest (a branch switch back and forth stays cheap).
        older = sorted(cached.parent.glob("snapshot-*.gz"), key=lambda p: p.stat().st_mtime)
        for old in older[:-3]:
            old.unlink()
            old.with_suffix(".br").unlink(missing_ok=True)
            old.with_name(old.name.replace(".bin.gz", ".json")).unlink(missing_ok=True)
            recorded = old.name.replace("snapshot-", "stdlib-").replace(".bin.gz", ".json")
            old.with_name(recorded).unlink(missing_ok=True)
        report_file.write_text(json.dumps(report), "utf-8")
        partial = cached.with_suffix(".tmp")
        partial.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
        partial.rename(cached)
    report = json.loads(report_file.read_text("utf-8"))
    complete = complete_modules(modules, report)
    data = cached.read_bytes()
    return Snapshot(key, data, brotli_for(cached, data), complete, stdlib, rest)


def brotli_for(cached: Path, data: bytes) -> bytes | None:
    """The brotli copy of the cached gzip snapshot `data`, from beside it or made now
    (brotli at quality 11 takes ~35 s for the 31 MB: once per snapshot)."""
    beside = cached.with_suffix(".br")
    if beside.is_file():
        return beside.read_bytes()
    log("compressing the start-up snapshot with brotli (once per snapshot, ~35 s)")
    packed = brotli_copy(gzip.decompress(data))
    if packed is not None:
        partial = beside.with_name(beside.name + ".tmp")
        partial.write_bytes(packed)
        partial.rename(beside)
    return packed


def module_name(member: str) -> str | None:
    """The module a zip member holds (``a/b/__init__.py`` → ``a.b``), or None."""
    if not member.endswith(".py"):
        return None
    return member[:-3].removesuffix("/__init__").replace("/", ".")


def trimmed_stdlib(members: Iterable[str]) -> tuple[bytes, tuple[str, ...]]:
    """Pyodide's standard library zip limited to ``members`` (recorded by
    snapshot_imports.record_stdlib), each with the same bytes; and the modules of the full
    zip it leaves out, sorted (what app/boot_finders.py fetches the full zip for)."""
    source, _version = npm_package("pyodide")
    kept = set(members)
    with zipfile.ZipFile(source / FULL_STDLIB) as full:
        names = [name for name in full.namelist() if not name.endswith("/")]
        missing = kept - set(names)
        if missing:
            raise SystemExit(f"standard library: recorded, not in the zip: {sorted(missing)}")
        trimmed = reproducible_zip((name, full.read(name)) for name in names if name in kept)
    rest = sorted({m for name in names if name not in kept and (m := module_name(name))})
    return trimmed, tuple(rest)


def complete_modules(modules: list[str], report: dict[str, list[str]]) -> tuple[str, ...]:
    """Those of `modules` that imported, with no submodule left out."""
    skipped = {entry.split(" ", 1)[0] for entry in report["skipped"]}
    imported = set(report["imported"])
    return tuple(
        name
        for name in modules
        if name in imported and not any(s == name or s.startswith(name + ".") for s in skipped)
    )


def lazy_or_data(name: str) -> bool:
    """A bundle file the snapshot cannot hold: a SNAPSHOT_LAZY module, or a data file
    (chunker_py/_data: token rank files), read from the file system a snapshot does not
    keep. These go to app.zip."""
    return "/_data/" in name or module_name(name) in SNAPSHOT_LAZY


def split_bundle(bundle: bytes, in_snapshot: Iterable[str]) -> tuple[bytes, bytes]:
    """The bundle as (lib.zip, app.zip): the files of modules the snapshot holds whole (and
    the .dist-info folders), which a page booted from it never imports, and all the others."""
    held = set(in_snapshot)
    lib: list[tuple[str, bytes]] = []
    app: list[tuple[str, bytes]] = []
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
