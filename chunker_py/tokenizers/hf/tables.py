"""What the tokenizer.json reader's modules share: table decoding, refusals, owners."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NoReturn

from ...engine.errors import SettingError

FIELD = "tokenizer_file"
Owners = list[int] | None  # per character, the index of the source character (or None)


def refuse(reason: str) -> NoReturn:
    """Refuse a tokenizer.json: ``reason`` completes "This tokenizer.json cannot be used: "."""
    raise SettingError(f"This tokenizer.json cannot be used: {reason}.", field=FIELD)


class RangeSet:
    """Membership in a flat (first, last, first, last, ...) table of inclusive ranges."""

    __slots__ = ("table",)

    def __init__(self, table: tuple[int, ...]) -> None:
        self.table = table

    def __contains__(self, code: int) -> bool:
        index = bisect_right(self.table, code)
        return index % 2 == 1 or (index > 0 and self.table[index - 1] == code)


def decode_map(blob: str) -> dict[int, str]:
    """A ``key:v.v`` blob of ``unicode_data`` as code point -> string."""
    table, key = {}, 0
    for entry in blob.split():
        delta, _, image = entry.partition(":")
        key += int(delta, 16)
        table[key] = "".join(chr(int(cp, 16)) for cp in image.split("."))
    return table


# A regex made of literal characters (or escaped metacharacters) and quantifiers means the
# same in Oniguruma and in `re`; anything with classes, groups, anchors or flags may not.
_LITERAL_REGEX = re.compile(
    r"(?:[^\\\[\](){}.*+?|^$]|\\[\\.*+?()\[\]{}|^$/ -]|\\[nrt])"
    r"(?:[*+?]|\{\d+(?:,\d*)?\})?"
)


def literal_regex(pattern: str) -> re.Pattern[str] | None:
    """``pattern`` compiled for `re` if it is a quantified literal, else None."""
    if not pattern:
        return None
    position = 0
    while position < len(pattern):
        match = _LITERAL_REGEX.match(pattern, position)
        if match is None:
            return None
        position = match.end()
    try:
        compiled = re.compile(pattern)
    except re.error:
        return None
    return None if compiled.match("") is not None else compiled


def transform_owners(owners: list[int], changes: list[int]) -> list[int]:
    """HF's ``NormalizedString::transform`` on alignments: a change of 0 or -N takes the
    next source character's alignment (and skips N more), +1 the previous one's."""
    new_owners = []
    position = 0
    for change in changes:
        if change > 0:
            new_owners.append(owners[position - 1] if position > 0 else -1)
        else:
            new_owners.append(owners[position] if position < len(owners) else owners[-1])
            position += 1 - change
    return new_owners


U64_MAX = (1 << 64) - 1
POW10 = [float(f"1e{k}") for k in range(309)]


def serde_float(literal: str) -> float:
    """A JSON number as serde_json (without ``float_roundtrip``, as in HF tokenizers)
    reads it: the digits into a u64 (digits past its range dropped), rounded to f64, then
    multiplied or divided by an f64 power of ten. That can differ from the correctly
    rounded value by an ulp, and Unigram's Viterbi ties hinge on it."""
    negative = literal.startswith("-")
    mantissa, _, exponent_text = literal.lstrip("-").replace("E", "e").partition("e")
    integer, _, fraction = mantissa.partition(".")
    if len(integer) + len(fraction) <= 19 and not exponent_text:
        # every 19-digit significand fits a u64: no digit is dropped (the common case,
        # 250 k Unigram scores: the digit loop below was most of a large file's load)
        result = float(int(integer + fraction))
        if fraction:
            result /= POW10[len(fraction)]
        return -result if negative else result
    significand, exponent, full = 0, 0, False
    for digit in integer:
        if full or significand * 10 + int(digit) > U64_MAX:
            full = True
            exponent += 1
        else:
            significand = significand * 10 + int(digit)
    for digit in fraction:
        if full or significand * 10 + int(digit) > U64_MAX:
            full = True
            continue
        significand = significand * 10 + int(digit)
        exponent -= 1
    if exponent_text:
        value = int(exponent_text)
        if abs(value) > 2**31 - 1:  # serde_json's exponent overflow
            if significand and value > 0:
                raise ValueError("number out of range")
            return -0.0 if negative else 0.0
        exponent = max(-(2**31), min(2**31 - 1, exponent + value))
    result = float(significand)
    while True:
        if abs(exponent) < len(POW10):
            result = result * POW10[exponent] if exponent >= 0 else result / POW10[-exponent]
            if result == float("inf"):
                raise ValueError("number out of range")
            break
        if result == 0.0:
            break
        if exponent >= 0:
            raise ValueError("number out of range")
        result /= 1e308
        exponent += 308
    return -result if negative else result
