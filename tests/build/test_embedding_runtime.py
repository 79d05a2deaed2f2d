"""The embedding model's runtime as the build writes it: onnxruntime-web's single-threaded
SIMD WebAssembly files only, with the licence beside them, named with their sizes and
SHA-256 in index.html, and kept by the service worker on demand, never at install."""

from __future__ import annotations

import hashlib
import json
import re

from sitebuild.npm import npm_package
from sitebuild.offline import on_demand


def worker_manifest(root) -> dict:  # type: ignore[no-untyped-def]
    text = (root / "sw.js").read_text("utf-8")
    found = re.search(r"const MANIFEST = (\{.*?\});\n", text)
    assert found, "sw.js holds no manifest"
    return dict(json.loads(found.group(1)))


def test_onnxruntime_web_is_vendored_as_its_simd_wasm_build_only_with_its_licence(site) -> None:
    _source, version = npm_package("onnxruntime-web")
    folder = site.root / "static" / "vendor" / f"onnxruntime-web-{version}"
    originals = sorted(p.name for p in folder.iterdir() if p.suffix not in (".gz", ".br"))
    assert originals == ["LICENSE", "ort-wasm-simd-threaded.wasm", "ort.wasm.bundle.min.mjs"]
    licence = (folder / "LICENSE").read_text("utf-8")
    assert "MIT License" in licence and "Microsoft Corporation" in licence
    assert site.vendored.onnxruntime == f"static/vendor/onnxruntime-web-{version}"


def test_index_names_each_runtime_file_with_its_size_and_sha256(site) -> None:
    index = (site.root / "index.html").read_text("utf-8")
    script = re.search(r'<script src="[^"]*/embed_client\.js"([^>]*)>', index)
    assert script, "index.html does not load embed_client.js"
    listed = re.search(r'data-runtime-files="([^"]*)"', script.group(1))
    folder = re.search(r'data-runtime="([^"]*)"', script.group(1))
    assert listed and folder
    entries = [entry.split(":") for entry in listed.group(1).split()]
    assert [name for name, _size, _sha in entries] == [
        "ort.wasm.bundle.min.mjs",
        "ort-wasm-simd-threaded.wasm",
    ]
    for name, size, sha256 in entries:
        data = (site.root / folder.group(1) / name).read_bytes()
        assert int(size) == len(data)
        assert sha256 == hashlib.sha256(data).hexdigest()


def test_the_worker_keeps_the_model_and_its_runtime_on_demand_not_at_install(site) -> None:
    manifest = worker_manifest(site.root)
    assert not [name for name in manifest["files"] if on_demand(name)]
    kept = manifest["on_demand"]
    runtime = [name for name in kept if "/onnxruntime-web-" in name]
    assert {name.rsplit("/", 1)[1] for name in runtime} >= {
        "ort.wasm.bundle.min.mjs",
        "ort-wasm-simd-threaded.wasm",
    }
    for name, sha256 in kept.items():
        assert hashlib.sha256((site.root / name).read_bytes()).hexdigest() == sha256
    # the rest of the site is still precached, as before
    assert "index.html" in manifest["files"]
    assert any(name.endswith("embed_client.js") for name in manifest["files"])
