"""What the table generators beside this file share: every code point and their runs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALL = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
EVERY_CHARACTER = "".join(map(chr, ALL))
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def ranges(codes: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for cp in sorted(codes):
        if runs and runs[-1][1] == cp - 1:
            runs[-1] = (runs[-1][0], cp)
        else:
            runs.append((cp, cp))
    return runs
