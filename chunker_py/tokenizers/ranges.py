"""Helpers over the frozen range tables: `re` character classes and membership tests."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

Ranges = Sequence[int]  # flat: first, last, first, last, ... (inclusive, sorted)


def class_body(table: Ranges) -> str:
    """The inside of a `re` character class matching exactly the table's code points.

    Every code point is written as an escape, so no character is special inside [].
    """
    parts = []
    for i in range(0, len(table), 2):
        first, last = table[i], table[i + 1]
        parts.append(f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}")
    return "".join(parts)


def contains(table: Ranges, code_point: int) -> bool:
    """Whether the code point lies in one of the table's ranges."""
    index = bisect_right(table, code_point)
    # An odd index means code_point >= some `first` and < the following `last`; a code
    # point equal to `last` lands on an even index one past it, hence the second test.
    return index % 2 == 1 or (index > 0 and table[index - 1] == code_point)
