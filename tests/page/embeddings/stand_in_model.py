"""A small stand-in for all-MiniLM-L6-v2 with the same contract (int64 ``input_ids``,
``attention_mask``, ``token_type_ids`` [batch, seq] in; float32 ``sentence_embedding``
[batch, 384] out, mean-pooled over the mask and L2-normalised), for the tests of the page's
plumbing: download, checks, caching, batching and padding. 1.5 MB instead of 90 MB, and a
numpy reference of exactly what it computes. The real model's figures are tested against
the command line's (test_semantic_figures.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROWS = 997  # ids are taken modulo this: the table stays small
DIMENSIONS = 384
MODEL_FILE = "all-MiniLM-L6-v2.onnx"


def table() -> np.ndarray:
    return np.random.default_rng(46).standard_normal((ROWS, DIMENSIONS)).astype(np.float32)


def stand_in_model() -> bytes:
    ints = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    out = helper.make_tensor_value_info(
        "sentence_embedding", TensorProto.FLOAT, ["batch", DIMENSIONS]
    )
    constants = [
        numpy_helper.from_array(table(), "table"),
        numpy_helper.from_array(np.array(ROWS, dtype=np.int64), "rows"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "seq_axis"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "last_axis"),
    ]
    nodes = [
        helper.make_node("Add", ["input_ids", "token_type_ids"], ["ids"]),
        helper.make_node("Mod", ["ids", "rows"], ["rows_of"]),
        helper.make_node("Gather", ["table", "rows_of"], ["vectors"]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "last_axis"], ["mask3"]),
        helper.make_node("Mul", ["vectors", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "seq_axis"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask", "seq_axis"], ["count"], keepdims=1),
        helper.make_node("Div", ["summed", "count"], ["mean"]),
        helper.make_node("ReduceL2", ["mean"], ["norm"], axes=[1], keepdims=1),
        helper.make_node("Div", ["mean", "norm"], ["sentence_embedding"]),
    ]
    graph = helper.make_graph(nodes, "stand-in", ints, [out], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def reference(ids: list[int]) -> np.ndarray:
    """What the stand-in gives for one id list (no padding), in float32."""
    rows = table()[np.array(ids, dtype=np.int64) % ROWS]
    mean = rows.sum(axis=0, dtype=np.float32) / np.float32(len(ids))
    return (mean / np.linalg.norm(mean)).astype(np.float32)


def install(site: Path, model: bytes | None = None) -> dict[str, object]:
    """Put the stand-in (or ``model``) and its manifest into ``site``'s static/model/."""
    data = stand_in_model() if model is None else model
    folder = site / "static" / "model"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    (folder / MODEL_FILE).write_bytes(data)
    entry = {"name": MODEL_FILE, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"files": [entry]}
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    return entry
