"""Shared strategies and Hypothesis profiles for the core tests.

Profiles: ``ci`` (default, thorough) and ``pyodide`` (fewer examples, for the run inside
real Pyodide under Node). Choose with HYPOTHESIS_PROFILE.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from chunker_py.tokenizers import use_tiktoken
from tests.conftest import tokenizers_kept

# The core tests count cl100k_base and o200k_base in pure Python, as the page does, also in
# CPython where tiktoken would count by default: the pure counts are what they guard.
# tests/core/tokenizers/test_native.py checks tiktoken's counts against them.
use_tiktoken(False)

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "pyodide", max_examples=40, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Semantic mode's vectors in every core test: a deterministic hashed bag of words (tests
# of the model's absence uninstall it with the ``no_embedder`` fixture). Only here: the
# page's tests, run in the same process after these, compute without one, as the page
# does before the model has loaded.
from chunker_py.embedding.supply import use_embedder  # noqa: E402

from .hashed_embedder import HashedEmbedder  # noqa: E402


@pytest.fixture(autouse=True, scope="package")
def _hashed_vectors():
    previous = use_embedder(HashedEmbedder())
    yield
    use_embedder(previous)


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


# ---------------------------------------------------------------- settings, from the registry
# Strategies are derived from the field definitions and the mode registry, so every mode
# and option is exercised by the property tests as soon as it is registered. A list field
# needs a value strategy here: a new one without it fails test_every_field_has_a_strategy.


@st.composite
def abbreviation_lists(draw: st.DrawFn) -> tuple[str, ...]:
    words = st.sampled_from(["Vgl.", "sog", "bspw.", "Abb.", "x.y.", "Op"])
    return tuple(draw(st.lists(words, max_size=3, unique=True)))


LIST_VALUES = {"separators": separator_lists(), "abbreviations": abbreviation_lists()}
# text fields whose values have a form of their own
TEXT_VALUES = {
    "breakpoint_amount": st.one_of(
        st.none(),
        st.sampled_from([0.0, 1.5, 3.0, 25.0, 50.0, 95.0, 100.0]),
        st.floats(0, 100, allow_nan=False),
    )
}
COMMON = ("mode", "chunk_size", "chunk_overlap")


def field_values(key: str) -> st.SearchStrategy[object]:
    from chunker_py import FIELDS

    field = FIELDS[key]
    if field.kind == "whole" and field.default is None:  # optional (Budget): empty or set
        return st.none() | st.integers(field.low, field.high)
    if field.kind == "whole":
        return st.integers(field.low, field.high)
    if field.kind == "choice":
        return st.sampled_from(list(field.choices))
    if field.kind == "flag":
        return st.booleans()
    if field.kind == "list":
        return LIST_VALUES[key]
    if key in TEXT_VALUES:
        return TEXT_VALUES[key]
    return st.text(alphabet=st.characters(blacklist_categories=["Cc", "Cs"]), max_size=20)


@st.composite
def settings_strategy(
    draw: st.DrawFn, modes: tuple[str, ...] | None = None, max_size: int = 40
) -> object:
    """Any valid settings of the given modes (all registered modes by default)."""
    from chunker_py import FIELDS, MODES, Settings

    mode = draw(st.sampled_from(list(modes or MODES)))
    size, overlap = draw(size_and_overlap(max_size))
    values: dict[str, object] = {"mode": mode, "chunk_size": size, "chunk_overlap": overlap}
    for key in FIELDS:
        if key not in COMMON and key != "source_name":
            values[key] = draw(field_values(key))
    return Settings(**values)  # type: ignore[arg-type]


# docs/decisions.md "Comparison" and docs/evidence.md: the rows in the table's order
COMPARISON = [
    "Recursive (generic)",
    "Recursive (Markdown preset)",
    "Markdown structure",
    "Sentence",
    "Fixed (overlap 0)",
    "Fixed with overlap",
    "Token window",
    "Semantic",
]


@pytest.fixture
def no_embedder():
    """No embedding model installed during the test (the page before the model loads)."""
    previous = use_embedder(None)
    yield
    use_embedder(previous)


@pytest.fixture
def restored_registry():
    """Tokenizers added by a test are gone after it (the registry is process-wide)."""
    with tokenizers_kept():
        yield
