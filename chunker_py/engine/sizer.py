"""Sizers measure text for the engine: code points (the guide's unit) or a tokenizer.

A mode finds boundaries; a sizer says how big a piece is. The engine only ever asks for
the sizes of pieces (``lengths``, turned into cumulative sums and binary-searched) or of one
slice (``length``), so a token sizer plugs in without making the merge quadratic.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Protocol


class Sizer(Protocol):
    name: str
    # True only for code points: sizes are offsets' differences, which enables the
    # arithmetic fast paths (fixed windows counted without building them).
    per_code_point: bool

    def length(self, text: str, start: int, end: int) -> int:
        """The size of ``text[start:end]``."""
        ...

    def lengths(self, text: str, bounds: Sequence[int]) -> list[int]:
        """The sizes of the pieces ``bounds[i]..bounds[i + 1]``."""
        ...


class CodePoints:
    """Sizes in code points: a slice's size is the difference of its offsets."""

    name = "code-points"
    per_code_point = True

    def length(self, text: str, start: int, end: int) -> int:
        return end - start

    def lengths(self, text: str, bounds: Sequence[int]) -> list[int]:
        return [b - a for a, b in pairwise(bounds)]


CODE_POINTS: Sizer = CodePoints()
