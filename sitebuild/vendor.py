"""The runtime copied into dist/static/vendor/<pkg>-<version>/ from node_modules (and
micropip's wheel from PyPI), each with its licence. Generated, never edited or committed."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild.npm import npm_package, pyodide_lock, pyodide_python_version
from sitebuild.pypi import fetch_wheel, licence_of, sha256_hex

# The Pyodide files the page loads (and the start-up snapshot depends on).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)


@dataclass(frozen=True)
class Vendored:
    """Where the runtime landed, as URLs relative to index.html."""

    pyodide: str
    pyscript: str
    plotly: str
    brotli: str  # the brotli decoder's module (static/snapshot.js decodes the snapshot)
    # onnxruntime-web's folder (static/embed_client.js loads it when Semantic or Hybrid
    # retrieval is first chosen; never on a first visit, never precached)
    onnxruntime: str = ""


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

    lock = pyodide_lock()
    python = pyodide_python_version()
    # micropip and whatever it depends on in the lock; PyScript always loads micropip.
    wanted, todo = [], ["micropip"]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.append(name)
            todo.extend(lock["packages"][name]["depends"])
    licences: dict[str, bytes] = {}
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
            licences[name] = licence_of(archive)
        (target / f"LICENSE.{name}").write_bytes(licences[name])
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), "utf-8")

    # The pyodide npm package ships no licence file; its package.json says MPL-2.0, and
    # micropip (same authors, same licence) carries the MPL-2.0 text.
    manifest_licence = json.loads((source / "package.json").read_text("utf-8"))["license"]
    header = (
        f"Pyodide {version} is distributed under the {manifest_licence} licence "
        "(the 'license' field of its npm package.json); its npm package ships no licence "
        "file, so the licence text is reproduced below.\n\n"
    )
    (target / "LICENSE").write_bytes(header.encode() + licences["micropip"])
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


def vendor_brotli_decoder(target_root: Path) -> str:
    """brotli-dec-wasm: a streaming brotli decoder (Rust's brotli-decompressor as wasm, with
    its wasm-bindgen module), which static/snapshot.js's worker imports to decode the
    snapshot's brotli copy: browsers offer DecompressionStream for gzip and deflate only."""
    source, version = npm_package("brotli-dec-wasm")
    folder = f"brotli-dec-wasm-{version}"
    for name in ("brotli_dec_wasm.js", "brotli_dec_wasm_bg.wasm"):
        copy_file(source / "pkg" / name, target_root / folder / name)
    for licence in ("LICENSE-MIT.txt", "LICENSE-Apache.txt"):
        copy_file(source / licence, target_root / folder / licence)
    return folder


# onnxruntime-web: the ESM bundle of its WebAssembly back end (the Emscripten glue inside)
# and the SIMD build's wasm, which runs on one thread where the page is not cross-origin
# isolated (plain static hosting). The WebGPU, WebGL, JSPI and asyncify builds are not used.
ONNXRUNTIME_FILES = ("ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm")
MIT_LICENCE = """MIT License

Copyright (c) Microsoft Corporation

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def vendor_onnxruntime(target_root: Path) -> str:
    """onnxruntime-web's files for single-threaded SIMD WebAssembly, with its licence."""
    source, version = npm_package("onnxruntime-web")
    folder = f"onnxruntime-web-{version}"
    for name in ONNXRUNTIME_FILES:
        copy_file(source / "dist" / name, target_root / folder / name)
    # The npm package ships no licence file; its package.json and the bundle's banner say
    # MIT, Microsoft Corporation: that licence's text.
    licence = json.loads((source / "package.json").read_text("utf-8"))["license"]
    if licence != "MIT":
        raise SystemExit(f"onnxruntime-web {version}: licence {licence!r}, expected MIT")
    header = (
        f"ONNX Runtime Web {version} is distributed under the MIT licence (the 'license' "
        "field of its npm package.json and its bundle's banner); its npm package ships no "
        "licence file, so the licence text is reproduced below.\n\n"
    )
    (target_root / folder / "LICENSE").write_text(header + MIT_LICENCE, "utf-8")
    return folder


def vendor_runtime(dist: Path) -> Vendored:
    root = dist / "static" / "vendor"
    pyodide = vendor_pyodide(root)
    pyscript = vendor_pyscript(root)
    plotly = vendor_plotly(root)
    brotli = vendor_brotli_decoder(root)
    onnxruntime = vendor_onnxruntime(root)
    return Vendored(
        pyodide=f"static/vendor/{pyodide}/pyodide.mjs",
        pyscript=f"static/vendor/{pyscript}",
        plotly=f"static/vendor/{plotly}/plotly-basic.min.js",
        brotli=f"static/vendor/{brotli}/brotli_dec_wasm.js",
        onnxruntime=f"static/vendor/{onnxruntime}",
    )
