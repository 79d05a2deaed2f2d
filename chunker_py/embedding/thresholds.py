"""Breakpoint thresholds over a list of distances, as LangChain's ``SemanticChunker``
(langchain-experimental) computes them with numpy, in pure Python with numpy's arithmetic.

A breakpoint follows sentence ``i`` when ``values[i] > threshold`` (strictly). ``values`` are
the distances themselves, except for ``gradient``, where they are numpy's ``gradient`` of the
distances. Every operation below repeats numpy's, in its order, so the thresholds are the
same floats, not merely close ones:

- ``percentile``: numpy's default (``method="linear"``): virtual index ``(n - 1) * q / 100``,
  then ``_lerp`` between its two neighbours (from the upper one when the weight is ≥ 0.5);
- ``standard-deviation``: ``mean + amount * std`` (population deviation, ``ddof=0``);
- ``interquartile``: ``mean + amount * (Q3 - Q1)`` (LangChain adds to the mean, not to Q3);
- ``gradient``: the percentile of ``numpy.gradient(distances)`` (unit spacing: central
  differences inside, one-sided at the two ends).

Sums are numpy's pairwise summation (``pairwise_sum`` in its C sources: a plain loop below
8 values, 8 partial sums up to 128, halves above), which is what ``np.mean`` and ``np.std``
add with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BREAKPOINT_TYPES = {
    "percentile": "Percentile",
    "standard-deviation": "Standard deviation",
    "interquartile": "Interquartile",
    "gradient": "Gradient",
}
# LangChain's BREAKPOINT_DEFAULTS
DEFAULT_AMOUNTS = {
    "percentile": 95.0,
    "standard-deviation": 3.0,
    "interquartile": 1.5,
    "gradient": 95.0,
}
# LangChain's guards: fewer sentences than this give no breakpoint (and need no vectors)
MIN_SENTENCES = {"percentile": 2, "standard-deviation": 2, "interquartile": 2, "gradient": 3}

_BLOCK = 128  # numpy's PW_BLOCKSIZE


def _pairwise_sum(values: Sequence[float], lo: int, n: int) -> float:
    if n < 8:
        total = -0.0
        for i in range(lo, lo + n):
            total += values[i]
        return total
    if n <= _BLOCK:
        r = [values[lo + j] for j in range(8)]
        i = 8
        stop = n - n % 8
        while i < stop:
            for j in range(8):
                r[j] += values[lo + i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            total += values[lo + i]
            i += 1
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(values, lo, half) + _pairwise_sum(values, lo + half, n - half)


def numpy_sum(values: Sequence[float]) -> float:
    """``np.sum`` of a float64 vector: 0 plus its pairwise sum."""
    return 0.0 + _pairwise_sum(values, 0, len(values))


def numpy_mean(values: Sequence[float]) -> float:
    return numpy_sum(values) / len(values)


def numpy_std(values: Sequence[float]) -> float:
    """Population standard deviation, as ``np.std`` (``ddof=0``) computes it."""
    mean = numpy_mean(values)
    squares = [(x - mean) * (x - mean) for x in values]
    return math.sqrt(numpy_sum(squares) / len(values))


def numpy_percentile(values: Sequence[float], amount: float) -> float:
    """``np.percentile(values, amount)`` with its default linear method."""
    ordered = sorted(values)
    n = len(ordered)
    virtual = (n - 1) * (amount / 100)
    if virtual >= n - 1:
        return ordered[-1]
    if virtual < 0:
        return ordered[0]
    previous = math.floor(virtual)
    a, b = ordered[previous], ordered[previous + 1]
    gamma = virtual - previous
    diff = b - a
    if gamma >= 0.5:
        return b - diff * (1 - gamma)
    return a + diff * gamma


def numpy_gradient(values: Sequence[float]) -> list[float]:
    """``np.gradient(values)`` with unit spacing (at least two values)."""
    n = len(values)
    out = [values[1] - values[0]]
    out.extend((values[i + 1] - values[i - 1]) / 2.0 for i in range(1, n - 1))
    out.append(values[n - 1] - values[n - 2])
    return out


def threshold(distances: Sequence[float], kind: str, amount: float) -> tuple[float, list[float]]:
    """The threshold and the values compared with it (LangChain's
    ``_calculate_breakpoint_threshold``), for at least one distance (two for ``gradient``)."""
    values = list(distances)
    if kind == "percentile":
        return numpy_percentile(values, amount), values
    if kind == "standard-deviation":
        return numpy_mean(values) + amount * numpy_std(values), values
    if kind == "interquartile":
        q1, q3 = numpy_percentile(values, 25), numpy_percentile(values, 75)
        return numpy_mean(values) + amount * (q3 - q1), values
    if kind == "gradient":
        gradient = numpy_gradient(values)
        return numpy_percentile(gradient, amount), gradient
    raise ValueError(f"unknown breakpoint type {kind!r}")


def breakpoints(values: Sequence[float], limit: float) -> list[int]:
    """The indexes ``i`` (a breakpoint after sentence ``i``) whose value is above ``limit``."""
    return [i for i, value in enumerate(values) if value > limit]
