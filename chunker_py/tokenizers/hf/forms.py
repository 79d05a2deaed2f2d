"""NFC, NFD, NFKC and NFKD as HF tokenizers computes them, from frozen tables.

The tables (``unicode_data``) are HF's own behaviour probed per code point, so these equal
``tokenizers.normalizers.NF*`` on characters HF's older Unicode data does not know too.
The algorithms are Unicode's: full decomposition, canonical ordering of non-starters by
combining class (a stable sort of each run), then canonical composition of primary pairs.

Every function takes the text and, when token boundaries are wanted, ``owners``: for each
character, the index of the source character it came from (HF's alignments, one source
character each). ``None`` skips that bookkeeping, the fast path for counting.
"""

from __future__ import annotations

import re
from functools import cache

from . import unicode_data as ud
from .tables import Owners, decode_map, transform_owners

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
L_FIRST, V_FIRST, T_FIRST, V_COUNT, T_COUNT = 0x1100, 0x1161, 0x11A7, 21, 28


def hangul(code: int) -> str:
    index = code - HANGUL_FIRST
    lead, vowel, trail = index // 588, (index % 588) // T_COUNT, index % T_COUNT
    return chr(L_FIRST + lead) + chr(V_FIRST + vowel) + (chr(T_FIRST + trail) if trail else "")


class Decompositions(dict[int, str]):
    """``str.translate`` table: code point -> its full decomposition (filled lazily)."""

    def __init__(self, mapping: dict[int, str]) -> None:
        super().__init__()
        self.mapping = mapping

    def __missing__(self, code: int) -> str:
        if HANGUL_FIRST <= code <= HANGUL_LAST:
            image = hangul(code)
        else:
            image = self.mapping.get(code, chr(code))
        self[code] = image
        return image


@cache
def combining_classes() -> dict[int, int]:
    return {code: ord(value) for code, value in decode_map(ud.CCC).items()}


@cache
def decompositions(compat: bool) -> Decompositions:
    canonical = decode_map(ud.NFD)
    if compat:
        canonical.update(decode_map(ud.NFKD))
    return Decompositions(canonical)


@cache
def pairs() -> dict[tuple[str, str], str]:
    return {(image[0], image[1]): chr(code) for code, image in decode_map(ud.PAIRS).items()}


@cache
def seconds() -> frozenset[str]:
    """The second characters of the composition pairs (Hangul's jamo aside)."""
    return frozenset(second for _, second in pairs())


@cache
def firsts() -> frozenset[str]:
    """The first characters of the composition pairs (Hangul's aside)."""
    return frozenset(first for first, _ in pairs())


@cache
def unstable(form: str) -> frozenset[int]:
    """Code points whose presence may make ``form`` change a text (a quick check).

    A text without any is in that form: every character is unchanged by it alone, and
    none is a non-starter (reordering) or the second of a composition pair.
    """
    marks = set(combining_classes())
    seconds = {ord(second) for _, second in pairs()}
    seconds.update(range(V_FIRST, V_FIRST + V_COUNT), range(T_FIRST + 1, T_FIRST + T_COUNT))
    if form in ("NFC", "NFKC"):
        table = ud.NFC_CHANGES if form == "NFC" else ud.NFKC_CHANGES
        changes = {c for i in range(0, len(table), 2) for c in range(table[i], table[i + 1] + 1)}
        return frozenset(marks | seconds | changes)
    mapping = decompositions(form == "NFKD")
    return frozenset(marks | set(mapping.mapping) | set(range(HANGUL_FIRST, HANGUL_LAST + 1)))


def is_stable(text: str, form: str) -> bool:
    if text.isascii():
        return True
    return unstable(form).isdisjoint(map(ord, set(text)))


def decompose(text: str, tracked: bool, compat: bool) -> tuple[str, list[int] | None]:
    """Full decomposition and canonical ordering; with ``tracked``, HF's change of each
    character (0: replaces a source character, 1: inserted after it), which travels with
    the character when it is reordered, as in unicode-normalization-alignments."""
    table = decompositions(compat)
    if not tracked:
        return reorder(text.translate(table), None)
    images = [table[ord(ch)] for ch in text]
    changes = [0 if i == 0 else 1 for image in images for i in range(len(image))]
    return reorder("".join(images), changes)


@cache
def mark_codes() -> dict[int, str]:
    """``str.translate`` table: a non-starter to "m", anything else to "s"."""
    ccc = combining_classes()

    class Codes(dict[int, str]):
        def __missing__(self, code: int) -> str:
            value = self[code] = "m" if code in ccc else "s"
            return value

    return Codes()


MARK_RUNS = re.compile("m{2,}")


def reorder(text: str, changes: list[int] | None) -> tuple[str, list[int] | None]:
    """Canonical ordering: stable sort of each run of non-starters by class."""
    ccc = combining_classes()
    if ccc.keys().isdisjoint(map(ord, set(text))):
        return text, changes
    chars = None
    for run in MARK_RUNS.finditer(text.translate(mark_codes())):
        i, j = run.span()
        if chars is None:
            chars = list(text)
        order = sorted(range(i, j), key=lambda k: ccc[ord(chars[k])])
        chars[i:j] = [chars[k] for k in order]
        if changes is not None:
            changes[i:j] = [changes[k] for k in order]
    return ("".join(chars) if chars is not None else text), changes


def compose_pair(first: str, second: str) -> str | None:
    a, b = ord(first), ord(second)
    if L_FIRST <= a < L_FIRST + 19 and V_FIRST <= b < V_FIRST + V_COUNT:
        return chr(HANGUL_FIRST + ((a - L_FIRST) * V_COUNT + b - V_FIRST) * T_COUNT)
    if (
        HANGUL_FIRST <= a <= HANGUL_LAST
        and (a - HANGUL_FIRST) % T_COUNT == 0
        and T_FIRST < b < T_FIRST + T_COUNT
    ):
        return chr(a + b - T_FIRST)
    return pairs().get((first, second))


def compose(text: str, changes: list[int] | None) -> tuple[str, list[int] | None]:
    """Canonical composition of a decomposed, ordered text (as Rust unicode-normalization's
    recomposition: a starter absorbs each following character it pairs with and that is
    not blocked). A composite's change gains (change - 1) per character it absorbs."""
    ccc = combining_classes()
    out: list[str] = []
    new_changes: list[int] = []
    starter = -1  # index in out of the current starter
    # class of the last character since the starter; -1: none yet
    # mutation: equivalent - -> + — never read: only once a starter is set, which sets it too
    # mutation: equivalent 1 -> 0 — the same: this first value is never read
    last_class = -1
    for i, ch in enumerate(text):
        change = changes[i] if changes is not None else 0
        klass = ccc.get(ord(ch), 0)
        if starter >= 0 and (last_class == -1 or last_class < klass):
            composite = compose_pair(out[starter], ch)
            if composite is not None:
                out[starter] = composite
                new_changes[starter] += change - 1
                continue
        if klass == 0:
            starter = len(out)
            last_class = -1
        elif starter >= 0:
            last_class = klass
        out.append(ch)
        new_changes.append(change)
    return "".join(out), (new_changes if changes is not None else None)


def normalize(text: str, owners: Owners, form: str) -> tuple[str, Owners]:
    """``text`` in ``form`` (one of NFC, NFD, NFKC, NFKD)."""
    if is_stable(text, form):
        return text, owners
    text, changes = decompose(text, owners is not None, compat=form in ("NFKC", "NFKD"))
    if form in ("NFC", "NFKC"):
        text, changes = compose(text, changes)
    if owners is None or changes is None:
        return text, None
    return text, transform_owners(owners, changes)
