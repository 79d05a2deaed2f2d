"""The embedding model as the build ships it: dist/static/model/all-MiniLM-L6-v2.onnx and
manifest.json (names, byte sizes, sha256), converted from the pinned weights, outside the
service worker's list so that a first visit never downloads it, and runnable with the
inputs and output the manifest names."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from chunker_py.embedding import DIMENSIONS, MAX_WORD_PIECES, MODEL_NAME, onnx_graph
from sitebuild.model import MANIFEST_FILE, MODEL_FILE, MODEL_FOLDER, write_model
from sitebuild.offline import on_demand, site_files


def test_the_model_and_its_manifest_describe_each_other(tmp_path: Path) -> None:
    described = write_model(tmp_path)
    folder = tmp_path / MODEL_FOLDER
    assert json.loads((folder / MANIFEST_FILE).read_text("utf-8")) == described
    assert described["model"] == MODEL_NAME
    assert described["dimensions"] == DIMENSIONS
    assert described["max_word_pieces"] == MAX_WORD_PIECES
    assert described["inputs"] == ["input_ids", "attention_mask", "token_type_ids"]
    assert described["output"] == "sentence_embedding"
    (entry,) = described["files"]
    data = (folder / MODEL_FILE).read_bytes()
    assert entry == {
        "name": MODEL_FILE,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert 40e6 < len(data) < 50e6  # float16 weights: half the 90.9 MB safetensors


def test_the_offline_list_leaves_the_model_out(tmp_path: Path) -> None:
    """A first visit and the service worker's install never download the model."""
    write_model(tmp_path)
    (tmp_path / "index.html").write_text("<p>page</p>", "utf-8")
    # the model's files are kept on demand only: never among the files installed at once
    installed = [name for name in site_files(tmp_path) if not on_demand(name)]
    assert installed == ["index.html"]
    assert all(on_demand(name) for name in site_files(tmp_path) if name != "index.html")


def test_a_damaged_safetensors_file_is_refused() -> None:
    with pytest.raises(ValueError, match="sha256"):
        onnx_graph.checked_weights(b"\x08" + b"\0" * 7 + b"{}")


@pytest.mark.cpython_only
def test_the_built_site_ships_the_model_outside_the_worker_s_list(site) -> None:
    folder = site.root / MODEL_FOLDER
    manifest = json.loads((folder / MANIFEST_FILE).read_text("utf-8"))
    for entry in manifest["files"]:
        data = (folder / entry["name"]).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"])
    worker = (site.root / "sw.js").read_text("utf-8")
    manifest_json = re.search(r"const MANIFEST = (\{.*?\});\n", worker, re.S)
    assert manifest_json is not None
    offline = json.loads(manifest_json.group(1))
    # installed at once: nothing of the model; kept on demand, with its sha256: the model
    assert not any(name.startswith(MODEL_FOLDER) for name in offline["files"])
    model = f"{MODEL_FOLDER}/{MODEL_FILE}"
    data = (site.root / model).read_bytes()
    assert offline["on_demand"][model] == hashlib.sha256(data).hexdigest()
    assert MODEL_FILE not in (site.root / "index.html").read_text("utf-8")
    assert not (folder / (MODEL_FILE + ".gz")).exists()  # float16 weights hardly compress
