"""Similarity on a grid, so that two runtimes whose float32 arithmetic differs in the last
bits still rank alike.

A similarity is the dot product of two unit vectors summed exactly (``math.fsum`` over
products that are exact in float64, since both factors are float32 values), then rounded to
``GRID_DECIMALS`` decimals. Rankings order by the rounded score, ties to the lower chunk
index; Semantic mode's distances are ``1 - similarity`` on the same grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

GRID_DECIMALS = 4


def similarity(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product of two unit vectors, rounded to the grid."""
    return round(math.fsum(x * y for x, y in zip(a, b, strict=True)), GRID_DECIMALS)


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    """1 - similarity, on the same grid."""
    return round(1.0 - similarity(a, b), GRID_DECIMALS)
