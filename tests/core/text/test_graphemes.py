"""Grapheme cluster boundaries (UAX #29, Unicode 18): hand-checked cases, the generated
table against its source, and every position of generated text against wcwidth's own
segmenter (an independent implementation over the same data). The browser's
``Intl.Segmenter`` is compared in tests/page/panels/test_grapheme_segmenter.py."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker_py.text.graphemes import (
    CONSONANT,
    CONTROL,
    CR,
    INCB_EXTEND,
    LF,
    LINKER,
    OTHER,
    Graphemes,
    boundaries,
    is_boundary,
    properties,
)

wcwidth = pytest.importorskip("wcwidth")  # pinned in requirements-test.txt and the Pyodide run

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # 👩‍👩‍👧
THUMBS_DARK = "\U0001f44d\U0001f3ff"  # 👍🏿
FLAGS = "\U0001f1e9\U0001f1ea\U0001f1eb\U0001f1f7"  # 🇩🇪🇫🇷
HEART_EMOJI = "\u2764\ufe0f"  # ❤️

# Interesting code points for generated text: one or more of every break class and flag.
POOL = [
    "a", "Z", "1", " ", "\t", "\r", "\n", "\x00", "\u00ad", "\u200b",  # Other, Control
    "e", "\u0301", "\u0308", "\u20e3",  # combining marks (Extend)
    "\u200d", "\U0001f469", "\U0001f467", "\U0001f600", "\u2764", "\u00a9",  # ZWJ, pictographs
    "\U0001f3fb", "\U0001f3ff", "\ufe0f", "\ufe0e",  # skin tones, variation selectors
    "\U0001f1e9", "\U0001f1ea", "\U0001f1eb", "\U0001f1f7",  # regional indicators
    "\u1100", "\u1161", "\u11a8", "\uac00", "\uac01",  # Hangul L, V, T, LV, LVT
    "\u0600", "\u0d4e",  # Prepend
    "\u0903", "\u093e",  # SpacingMark
    "\u0915", "\u0937", "\u094d", "\u093c", "\u0905", "\u25cc", "\u1cf5", "\u0995",  # GB9c
    "\u0e01", "\u0e33", "\u4e2d", "\u3042",  # Thai (sara am), Han, Hiragana
]  # fmt: skip


def reference(text: str) -> list[int]:
    """Boundaries from wcwidth's grapheme iterator."""
    out, position = [0], 0
    for cluster in wcwidth.iter_graphemes(text):
        position += len(cluster)
        out.append(position)
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [0]),
        ("ab", [0, 1, 2]),
        ("e\u0301x", [0, 2, 3]),  # combining acute stays with its base
        ("a\r\nb", [0, 1, 3, 4]),  # GB3: CR LF is one cluster
        ("\r\r\n\n", [0, 1, 3, 4]),
        (FAMILY + "!", [0, 5, 6]),  # GB11: the ZWJ sequence is one cluster
        ("\u200d\U0001f469", [0, 1, 2]),  # ZWJ without a pictograph before it
        (THUMBS_DARK, [0, 2]),  # skin tone modifier (Extend)
        (FLAGS + "\U0001f1e9", [0, 2, 4, 5]),  # GB12/13: pairs from the run's start
        ("x" + FLAGS, [0, 1, 3, 5]),
        (HEART_EMOJI + "\u2764\ufe0e", [0, 2, 4]),  # variation selectors (Extend)
        ("\u1100\u1161\u11a8", [0, 3]),  # GB6/7: L V T
        ("\uac00\u11a8\uac01\u1161", [0, 2, 3, 4]),  # LV T, then LVT V breaks
        ("\u0600\u0661", [0, 2]),  # GB9b: Prepend joins what follows
        ("\u0600\n", [0, 1, 2]),  # ... but not a line break (GB5)
        ("\u0915\u093e", [0, 2]),  # GB9a: SpacingMark
        ("\u0915\u094d\u0937", [0, 3]),  # GB9c: consonant virama consonant (both versions)
        ("a\u094d\u0937", [0, 3]),  # GB9c in Unicode 18: no consonant needed before
        ("\u094d\u0915", [0, 2]),  # ... even at the start of the text
        ("\u0915\u094d\u093c\u0937", [0, 4]),  # Extend between linker and consonant
        ("a\u00adb", [0, 1, 2, 3]),  # soft hyphen is a Control
        ("\u0e01\u0e33", [0, 2]),  # Thai sara am is a SpacingMark
    ],
)
def test_known_boundaries(text: str, expected: list[int]) -> None:
    assert boundaries(text) == expected
    assert reference(text) == expected  # the hand count agrees with wcwidth


def test_ends_are_always_boundaries() -> None:
    g = Graphemes(FAMILY)
    assert g.is_boundary(0) and g.is_boundary(len(FAMILY))
    assert [g.is_boundary(p) for p in range(1, len(FAMILY))] == [False] * 4
    assert is_boundary("e\u0301", 1) is False and is_boundary("e\u0301", -1) is True


def test_the_fast_path_premise_holds_below_u0300() -> None:
    """Below U+0300 every code point is Other, Control, CR or LF and in no Indic conjunct,
    so ``is_boundary`` may answer those pairs without the tables."""
    for cp in range(0x300):
        value = properties(chr(cp))
        assert value & 15 in (OTHER, CONTROL, CR, LF), hex(cp)
        assert not value & (LINKER | CONSONANT | INCB_EXTEND), hex(cp)
    assert properties("\u0300") & 15 != OTHER  # the first Extend: the premise is tight


def test_a_long_flag_run_pairs_from_its_start() -> None:
    text = "a" + "\U0001f1e9" * 9 + "b"
    g = Graphemes(text)
    assert [p for p in range(len(text) + 1) if g.is_boundary(p)] == [0, 1, 3, 5, 7, 9, 10, 11]


@given(st.lists(st.sampled_from(POOL), max_size=16).map("".join))
def test_every_position_agrees_with_wcwidth(text: str) -> None:
    assert boundaries(text) == reference(text)


def test_every_pair_of_break_values_agrees_with_wcwidth() -> None:
    """One representative per distinct property value, in every ordered pair and after
    each of a few contexts (pictograph + ZWJ, a consonant + virama, a regional indicator)."""
    from chunker_py.text.graphemes import _table

    starts, values = _table()
    representatives: dict[int, str] = {}
    for start, _value in zip(starts, values, strict=True):
        char = chr(start)
        if not 0xD800 <= start <= 0xDFFF:
            representatives.setdefault(properties(char), char)
    for char in POOL:  # Hangul LVT shares its run with LV; the pool has both
        representatives.setdefault(properties(char), char)
    reps = list(representatives.values())
    assert len(reps) >= 16  # 12 classes (Hangul LV/LVT apart) and the flag mixes
    for context in ("", "\U0001f469\u200d", "\u0915\u094d", "\U0001f1e9"):
        for a in reps:
            for b in reps:
                text = context + a + b
                assert boundaries(text) == reference(text), [hex(ord(c)) for c in text]


def test_the_committed_table_is_what_the_generator_writes() -> None:
    from tools.gen_grapheme_tables import TARGET, encode, properties

    assert TARGET.read_text(encoding="utf-8") == encode(*properties())
