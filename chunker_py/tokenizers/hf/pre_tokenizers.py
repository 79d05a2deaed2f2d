"""The pre-tokenizers of a tokenizer.json, each as HF tokenizers splits.

A piece is ``(text, owners, shift)``: its normalized text, the source character of each
of its characters (or None when only counting) and HF's ``offsets_original().0`` (what
Metaspace's ``prepend_scheme: first`` asks). Splitting follows HF's ``split`` with its five
delimiter behaviours; empty pieces are dropped, as HF drops them.

Regex patterns run over class codes, as in ``chunker_py``'s tiktoken encodings: each code
point becomes one character naming its class in Oniguruma's ``\\p{L}``, ``\\p{N}``,
``\\s`` (frozen tables probed from HF), and a known pattern over those codes runs in `re`.
Only patterns listed in ``SPLIT_PATTERNS`` are accepted; any other is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from . import unicode_data as ud
from .normalizers import CharMap
from .tables import Owners, RangeSet, refuse

Piece = tuple[str, Owners, int]
Match = tuple[int, int, bool]  # start, end, is the delimiter
BEHAVIOURS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")


def slice_piece(piece: Piece, start: int, end: int) -> Piece:
    text, owners, shift = piece
    if owners is None:
        return text[start:end], None, shift if start == 0 else -1
    return text[start:end], owners[start:end], owners[start]


def split_piece(piece: Piece, matches: list[Match], behaviour: str) -> list[Piece]:
    """HF's ``NormalizedString::split``: ``matches`` cover the piece in order."""
    spans: list[list[int]] = []
    if behaviour == "isolated":
        spans = [[s, e] for s, e, _ in matches]
    elif behaviour == "removed":
        spans = [[s, e] for s, e, hit in matches if not hit]
    elif behaviour == "contiguous":
        previous = False
        for s, e, hit in matches:
            if hit == previous and spans:
                spans[-1][1] = e
            else:
                spans.append([s, e])
            previous = hit
    elif behaviour == "merged_with_previous":
        previous = False
        for s, e, hit in matches:
            if hit and not previous and spans:
                spans[-1][1] = e
            else:
                spans.append([s, e])
            previous = hit
    else:  # merged_with_next
        previous = False
        for s, e, hit in reversed(matches):
            if hit and not previous and spans:
                spans[-1][0] = s
            else:
                spans.append([s, e])
            previous = hit
        spans.reverse()
    return [slice_piece(piece, s, e) for s, e in spans if e > s]


RUNS = re.compile("d|x+")


def char_matches(text: str, codes: str) -> list[Match]:
    """HF's ``find_matches`` for a character predicate: each delimiter alone. ``codes``
    has "d" for each delimiter of ``text`` and "x" for any other character."""
    return [(m.start(), m.end(), m.group() == "d") for m in RUNS.finditer(codes)]


def regex_matches(text: str, codes: str, pattern: re.Pattern[str], invert: bool) -> list[Match]:
    """HF's ``find_matches`` for a regex, run over the text's class codes."""
    matches: list[Match] = []
    last = 0
    for match in pattern.finditer(codes):
        start, end = match.span()
        if last != start:
            matches.append((last, start, invert))
        matches.append((start, end, not invert))
        last = end
    if last != len(text):
        matches.append((last, len(text), invert))
    return matches


def one_char_matches(text: str, char: str) -> list[Match]:
    """``char_matches`` for one delimiter character, found with ``str.find`` (a CJK
    paragraph is one run: no pass over a class code per character)."""
    matches: list[Match] = []
    last = 0
    at = text.find(char)
    while at >= 0:
        if at > last:
            matches.append((last, at, False))
        matches.append((at, at + 1, True))
        last = at + 1
        at = text.find(char, last)
    if last < len(text):
        matches.append((last, len(text), False))
    return matches


class PreTokenizer:
    def split(self, pieces: list[Piece]) -> list[Piece]:
        raise NotImplementedError


def class_matches(text: str, delimiter: re.Pattern[str]) -> list[Match]:
    """``char_matches`` for the characters ``delimiter`` (one character) matches."""
    matches: list[Match] = []
    last = 0
    for found in delimiter.finditer(text):
        at = found.start()
        if at > last:
            matches.append((last, at, False))
        matches.append((at, at + 1, True))
        last = at + 1
    if last < len(text):
        matches.append((last, len(text), False))
    return matches


def table_class(table: tuple[int, ...]) -> re.Pattern[str]:
    """A regex of one character in a flat (first, last, ...) table of ranges."""
    ranges = zip(table[::2], table[1::2], strict=True)
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]")


class CharSplit(PreTokenizer):
    """Split on every character of a class (WhitespaceSplit, Punctuation, Digits, ...);
    with its ``table`` of ranges, the delimiters are found by a regex (a CJK paragraph
    without any costs no class code per character)."""

    def __init__(
        self,
        is_delimiter: Callable[[int], bool],
        behaviour: str,
        table: tuple[int, ...] | None = None,
    ) -> None:
        self.codes = CharMap(lambda cp: "d" if is_delimiter(cp) else "x")
        self.behaviour = behaviour
        self.delimiter = table_class(table) if table is not None else None

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            if self.delimiter is not None:
                matches = class_matches(piece[0], self.delimiter)
            else:
                matches = char_matches(piece[0], piece[0].translate(self.codes))
            out.extend(split_piece(piece, matches, self.behaviour))
        return out


def member_of(table: tuple[int, ...]) -> Callable[[int], bool]:
    return RangeSet(table).__contains__


class Sequence_(PreTokenizer):
    def __init__(self, steps: Sequence[PreTokenizer]) -> None:
        self.steps = list(steps)

    def split(self, pieces: list[Piece]) -> list[Piece]:
        for step in self.steps:
            pieces = step.split(pieces)
        return pieces


class BertPreTokenizer(PreTokenizer):
    """Whitespace removed, then each punctuation character alone: in one pass over codes
    (" " whitespace, "." punctuation, "a" anything else), the kept pieces are ``\\.|a+``."""

    PIECES = re.compile(r"\.|a+")

    def __init__(self) -> None:
        space, punctuation = RangeSet(ud.RUST_SPACE), RangeSet(ud.PUNCTUATION)
        self.codes = CharMap(lambda cp: " " if cp in space else "." if cp in punctuation else "a")

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            codes = piece[0].translate(self.codes)
            out.extend(slice_piece(piece, *m.span()) for m in self.PIECES.finditer(codes))
        return out


# ---------------------------------------------------------------- regex patterns

LETTERS = "strevmld"


@cache
def onig_codes() -> CharMap:
    """Code point -> class code for Oniguruma's classes in the known patterns."""
    letters, numbers, spaces = RangeSet(ud.ONIG_L), RangeSet(ud.ONIG_N), RangeSet(ud.ONIG_S)
    folds = {
        cp: chr(0x10 + LETTERS.index(letter)) for letter, cps in ud.FOLDS.items() for cp in cps
    }

    def code(cp: int) -> str:
        ch = chr(cp)
        if ch in "\r\n '" or (ch.lower() in LETTERS and ch.isascii()):
            return ch
        if cp in folds:
            return folds[cp]
        if cp in letters:
            return "\x01"
        if cp in numbers:
            return "\x02"
        if cp in spaces:
            return "\x03"
        return "\x04"

    return CharMap(code)


def _fold(letter: str) -> str:
    return f"[{letter}{letter.upper()}{chr(0x10 + LETTERS.index(letter))}]"


def _onig_classes() -> dict[str, str]:
    folds = "".join(chr(0x10 + i) for i in range(len(LETTERS)))
    return {
        "L": "\x01" + LETTERS + LETTERS.upper() + folds,
        "N": "\x02",
        "S": "\x03\\r\\n ",
    }


def _contractions_ignoring_case() -> str:
    f = _fold
    return (
        "'(?:"
        + "|".join(
            [f("s"), f("t"), f("r") + f("e"), f("v") + f("e"), f("m"), f("l") + f("l"), f("d")]
        )
        + ")"
    )


def _gpt2() -> str:
    c = _onig_classes()
    return (
        f"'s|'t|'re|'ve|'m|'ll|'d| ?[{c['L']}]+| ?[{c['N']}]+| ?[^{c['S']}{c['L']}{c['N']}]+"
        f"|[{c['S']}]+(?![^{c['S']}])|[{c['S']}]+"
    )


def _llama3(digits: str) -> str:
    c = _onig_classes()
    return (
        f"{_contractions_ignoring_case()}|[^\\r\\n{c['L']}{c['N']}]?[{c['L']}]+|[{c['N']}]{digits}"
        f"| ?[^{c['S']}{c['L']}{c['N']}]+[\\r\\n]*|[{c['S']}]*[\\r\\n]+"
        f"|[{c['S']}]+(?![^{c['S']}])|[{c['S']}]+"
    )


GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3 = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
QWEN2 = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Oniguruma pattern (as written in tokenizer.json) -> the same pattern over class codes.
SPLIT_PATTERNS: dict[str, Callable[[], str]] = {
    GPT2: _gpt2,
    LLAMA3: lambda: _llama3("{1,3}"),
    QWEN2: lambda: _llama3(""),
}


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(SPLIT_PATTERNS[pattern]())


class RegexSplit(PreTokenizer):
    def __init__(self, pattern: str, behaviour: str, invert: bool) -> None:
        self.regex = compiled(pattern)
        self.behaviour, self.invert = behaviour, invert

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        codes_table = onig_codes()
        for piece in pieces:
            text = piece[0]
            matches = regex_matches(text, text.translate(codes_table), self.regex, self.invert)
            out.extend(split_piece(piece, matches, self.behaviour))
        return out


class StringSplit(PreTokenizer):
    """Split on a literal string (HF escapes it into a regex)."""

    def __init__(self, literal: str, behaviour: str, invert: bool) -> None:
        self.regex = re.compile(re.escape(literal))
        self.behaviour, self.invert = behaviour, invert

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            matches = regex_matches(piece[0], piece[0], self.regex, self.invert)
            out.extend(split_piece(piece, matches, self.behaviour))
        return out


# ---------------------------------------------------------------- byte level, metaspace


def bytes_to_chars() -> list[str]:
    """GPT-2's byte -> printable character table."""
    kept = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table = {b: chr(b) for b in kept}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return [table[b] for b in range(256)]


@cache
def byte_chars() -> CharMap:
    chars = bytes_to_chars()
    return CharMap(lambda cp: "".join(chars[b] for b in chr(cp).encode("utf-8")))


def prepend(piece: Piece, prefix: str) -> Piece:
    text, owners, shift = piece
    if not text:
        return piece
    return prefix + text, (None if owners is None else [owners[0]] * len(prefix) + owners), shift


class ByteLevel(PreTokenizer):
    def __init__(self, add_prefix_space: bool, use_regex: bool) -> None:
        self.add_prefix_space = add_prefix_space
        self.regex = RegexSplit(GPT2, "isolated", False) if use_regex else None

    def split(self, pieces: list[Piece]) -> list[Piece]:
        if self.add_prefix_space:
            pieces = [p if p[0].startswith(" ") else prepend(p, " ") for p in pieces]
        if self.regex is not None:
            pieces = self.regex.split(pieces)
        table = byte_chars()
        out: list[Piece] = []
        for text, owners, shift in pieces:
            if (
                text.isascii() and text.isprintable() and " " not in text
            ):  # "!".."~" map to themselves
                out.append((text, owners, shift))
                continue
            if owners is None:
                out.append((text.translate(table), None, shift))
                continue
            images = [table[ord(ch)] for ch in text]
            new_owners = [owner for image, owner in zip(images, owners, strict=True) for _ in image]
            out.append(("".join(images), new_owners, shift))
        return out


class Metaspace(PreTokenizer):
    def __init__(self, replacement: str, scheme: str, split: bool) -> None:
        self.replacement, self.scheme, self.split_on = replacement, scheme, split
        self.codes = CharMap(lambda cp: "d" if cp == ord(replacement) else "x")

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        rep = self.replacement
        for text, owners, shift in pieces:
            # Each replacement takes the alignment of the space it replaces: owners stay.
            text = text.replace(" ", rep)
            piece: Piece = (text, owners, shift)
            if not text.startswith(rep) and (
                self.scheme == "always" or (self.scheme == "first" and shift == 0)
            ):
                piece = prepend(piece, rep)
            if self.split_on:
                out.extend(split_piece(piece, one_char_matches(piece[0], rep), "merged_with_next"))
            elif piece[0]:
                out.append(piece)
        return out


# ---------------------------------------------------------------- the reader


def read_behaviour(spec: dict[str, Any], default: str | None = None) -> str:
    """A split behaviour, as saved (``MergedWithPrevious``) or in snake case."""
    value = spec.get("behavior", default)
    names = {name.replace("_", ""): name for name in BEHAVIOURS}
    if not isinstance(value, str) or value.lower().replace("_", "") not in names:
        refuse(f"its pre-tokenizer {spec.get('type')!r} has an unknown behavior {value!r}")
    return names[value.lower().replace("_", "")]


def read_pre_tokenizer(spec: object) -> PreTokenizer | None:
    if spec is None:
        return None
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        refuse("its pre_tokenizer is not an object with a type")
    kind = spec["type"]
    if kind == "ByteLevel":
        return ByteLevel(
            bool(spec.get("add_prefix_space", True)), bool(spec.get("use_regex", True))
        )
    if kind == "Metaspace":
        replacement = spec.get("replacement", "\u2581")
        if not isinstance(replacement, str) or len(replacement) != 1:
            refuse("its Metaspace pre-tokenizer's replacement is not one character")
        scheme = spec.get("prepend_scheme", "always")
        if spec.get("add_prefix_space") is False:
            if scheme not in ("never", None) and "prepend_scheme" in spec:
                refuse(
                    "its Metaspace pre-tokenizer's add_prefix_space contradicts its prepend_scheme"
                )
            scheme = "never"
        if scheme not in ("always", "first", "never"):
            refuse(f"its Metaspace pre-tokenizer has an unknown prepend_scheme {scheme!r}")
        split = spec.get("split", True)
        return Metaspace(replacement, scheme, True if split is None else bool(split))
    if kind == "Whitespace":
        return Whitespace()
    if kind == "WhitespaceSplit":
        return CharSplit(member_of(ud.RUST_SPACE), "removed", ud.RUST_SPACE)
    if kind == "BertPreTokenizer":
        return BertPreTokenizer()
    if kind == "Punctuation":
        behaviour = read_behaviour(spec, "Isolated")
        return CharSplit(member_of(ud.PUNCTUATION), behaviour, ud.PUNCTUATION)
    if kind == "Digits":
        behaviour = "isolated" if spec.get("individual_digits", False) else "contiguous"
        return CharSplit(member_of(ud.NUMERIC), behaviour, ud.NUMERIC)
    if kind == "CharDelimiterSplit":
        delimiter = spec.get("delimiter")
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            refuse("its CharDelimiterSplit pre-tokenizer's delimiter is not one character")
        return CharSplit(ord(delimiter).__eq__, "removed")
    if kind == "Split":
        pattern = spec.get("pattern")
        behaviour = read_behaviour(spec)
        invert = bool(spec.get("invert", False))
        if (
            isinstance(pattern, dict)
            and isinstance(pattern.get("String"), str)
            and pattern["String"]
        ):
            return StringSplit(pattern["String"], behaviour, invert)
        if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str):
            if pattern["Regex"] in SPLIT_PATTERNS:
                return RegexSplit(pattern["Regex"], behaviour, invert)
            refuse(
                f"its Split pattern {pattern['Regex']!r} is not one this reader reproduces "
                "exactly (it knows GPT-2's, Llama 3's and Qwen 2/3's)"
            )
        refuse("its Split pre-tokenizer has no readable pattern")
    if kind == "Sequence":
        steps = spec.get("pretokenizers")
        if not isinstance(steps, list):
            refuse("its Sequence pre-tokenizer has no list of pretokenizers")
        return Sequence_([p for p in map(read_pre_tokenizer, steps) if p is not None])
    refuse(f"its pre-tokenizer {kind!r} is not one this reader reproduces exactly")


@cache
def word_codes() -> CharMap:
    word, space = RangeSet(ud.RUST_WORD), RangeSet(ud.REGEX_SPACE)
    return CharMap(lambda cp: "w" if cp in word else " " if cp in space else "x")


WORDS = re.compile(r"w+|x+")


class Whitespace(PreTokenizer):
    r"""``\w+|[^\w\s]+`` (Rust regex classes) kept, the rest removed."""

    def split(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        table = word_codes()
        for piece in pieces:
            codes = piece[0].translate(table)
            matches = regex_matches(piece[0], codes, WORDS, True)
            out.extend(split_piece(piece, matches, "removed"))
        return out


def without_prefix_space(pre: PreTokenizer | None) -> PreTokenizer | None:
    """``pre`` whose first step, a ByteLevel adding a prefix space, adds none (for a text
    that starts inside a segment); None when ``pre`` starts otherwise."""
    first = pre.steps[0] if isinstance(pre, Sequence_) and pre.steps else pre
    if not (isinstance(first, ByteLevel) and first.add_prefix_space):
        return None
    inside = ByteLevel.__new__(ByteLevel)
    inside.add_prefix_space, inside.regex = False, first.regex
    if isinstance(pre, Sequence_):
        return Sequence_([inside, *pre.steps[1:]])
    return inside


def metaspace_first(pre: PreTokenizer | None) -> bool:
    """Whether ``pre`` holds a Metaspace with ``prepend_scheme: first`` (whose pieces need
    their source offsets even when only counting)."""
    if isinstance(pre, Metaspace):
        return pre.scheme == "first"
    if isinstance(pre, Sequence_):
        return any(map(metaspace_first, pre.steps))
    return False
