"""Shared strategies and Hypothesis profiles for the core tests.

Profiles: ``ci`` (default, thorough) and ``pyodide`` (fewer examples, for the run inside
real Pyodide under Node). Choose with HYPOTHESIS_PROFILE.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "pyodide", max_examples=40, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Building blocks that stress every rule of the guide: the default separators, CRLF, tabs,
# NBSP, U+FEFF (not whitespace), emoji (two UTF-16 units), combining marks, ZWJ sequences,
# U+2028 and lone CR.
ATOMS = [
    "a",
    "b",
    "word",
    "x",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\r\n\r\n",
    "\r",
    "\t",
    "\u00a0",
    "\ufeff",
    "\u2028",
    "😀",
    "e\u0301",
    "👩\u200d💻",
    "🇫🇷",
    "\u202e",
    "=1+2",
    '"',
    ",",
    ".",
]

texts = st.lists(st.sampled_from(ATOMS), max_size=40).map("".join)
any_text = st.one_of(texts, st.text(max_size=60))
SEPARATOR_POOL = ["\n\n", "\n", " ", "\r\n", "\r\n\r\n", ".", "😀", "ab", "\t", "xx", "(a+)+$"]


@st.composite
def separator_lists(draw: st.DrawFn) -> tuple[str, ...]:
    seps = draw(st.lists(st.sampled_from(SEPARATOR_POOL), min_size=1, max_size=5, unique=True))
    if draw(st.booleans()):
        seps.append("")
    return tuple(seps)


@st.composite
def size_and_overlap(draw: st.DrawFn, max_size: int = 40) -> tuple[int, int]:
    size = draw(st.one_of(st.just(1), st.integers(1, max_size)))
    return size, draw(st.integers(0, size - 1))
