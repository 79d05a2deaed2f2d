"""Every limit of docs/decisions.md's "Accepted settings" table (and the settings of bad input 1-6
names) at its edges: N-1 and N accepted, N+1 refused with a SettingError naming the
field; a value quoted in a message cut to its display length (40 code points) exactly
there; a share link of 8 KB read, one byte more ignored."""

from __future__ import annotations

from typing import Any

import pytest

from chunker_py import SettingError, Settings
from chunker_py.config.links import settings_from_fragment, settings_to_fragment
from chunker_py.engine.fields import shown
from chunker_py.engine.limits import (
    MAX_ABBREVIATION_LENGTH,
    MAX_ABBREVIATIONS,
    MAX_CHUNK_SIZE,
    MAX_FRAGMENT_BYTES,
    MAX_SEPARATOR_LENGTH,
    MAX_SEPARATORS,
    MAX_SOURCE_NAME,
    MAX_TOP_K,
)


def separators(count: int) -> tuple[str, ...]:
    return (*(f"<{n}>" for n in range(count - 1)), "") if count else ()


def abbreviations(count: int) -> tuple[str, ...]:
    return tuple(f"Ab{n}." for n in range(count))


# field, the settings at a value n, the lowest and highest accepted n
LIMITS: list[tuple[str, Any, int, int]] = [
    ("chunk_size", lambda n: {"chunk_size": n, "chunk_overlap": 0}, 1, MAX_CHUNK_SIZE),
    ("chunk_overlap", lambda n: {"chunk_size": 10, "chunk_overlap": n}, 0, 9),
    ("separators", lambda n: {"separators": separators(n)}, 1, MAX_SEPARATORS),
    (
        "separators",
        lambda n: {"separators": ("x" * n, "")},
        1,
        MAX_SEPARATOR_LENGTH,
    ),
    ("source_name", lambda n: {"source_name": "s" * n}, 0, MAX_SOURCE_NAME),
    ("top_k", lambda n: {"top_k": n}, 1, MAX_TOP_K),
    (
        "abbreviations",
        lambda n: {"mode": "sentence", "abbreviations": abbreviations(n)},
        0,
        MAX_ABBREVIATIONS,
    ),
    (
        "abbreviations",
        lambda n: {"mode": "sentence", "abbreviations": ("A" * n + ".",)},
        1,
        MAX_ABBREVIATION_LENGTH - 1,  # the dot counts
    ),
]
IDS = [
    "chunk size",
    "overlap",
    "separators",
    "separator length",
    "source name",
    "top k",
    "abbreviations",
    "abbreviation length",
]


@pytest.mark.parametrize(("field", "at", "low", "high"), LIMITS, ids=IDS)
def test_each_limit_holds_at_its_edges(field: str, at: Any, low: int, high: int) -> None:
    for n in {low, low + 1, high - 1, high}:
        Settings(**at(n))  # accepted
    below = low - 1 if field not in ("source_name", "abbreviations") else None  # no -1 length
    for n in (high + 1,) if below is None else (below, high + 1):
        with pytest.raises(SettingError) as refused:
            Settings(**at(n))
        assert refused.value.field == field, n


@pytest.mark.parametrize(
    ("value", "expected"),
    [("a" * 39, repr("a" * 39)), ("a" * 40, repr("a" * 40)), ("a" * 41, repr("a" * 37 + "..."))],
)
def test_a_value_in_a_message_is_cut_to_40_code_points(value: str, expected: str) -> None:
    """Up to 40 code points a value is quoted whole; longer, its first 37 and "...",
    40 in all."""
    assert shown(value) == expected


def test_a_value_cut_for_a_message_reads_so_in_the_message() -> None:
    with pytest.raises(SettingError) as refused:
        Settings(chunk_size="9" * 41)  # type: ignore[arg-type]
    assert repr("9" * 37 + "...") in refused.value.message


def fragment_of(size: int) -> str:
    """A share link's fragment of exactly ``size`` bytes: the settings' own, then an
    unknown key padded out (unknown keys are ignored with a note)."""
    base = settings_to_fragment(Settings(chunk_size=123, chunk_overlap=7)).lstrip("#")
    pad = "&zz="
    return base + pad + "z" * (size - len(base) - len(pad))


@pytest.mark.parametrize("size", [MAX_FRAGMENT_BYTES - 1, MAX_FRAGMENT_BYTES])
def test_a_share_link_up_to_8_kb_is_read(size: int) -> None:
    fragment = fragment_of(size)
    assert len(fragment.encode()) == size
    settings, notes = settings_from_fragment(fragment)
    assert (settings.chunk_size, settings.chunk_overlap) == (123, 7)
    assert not any("8 KB" in note for note in notes)


def test_a_share_link_one_byte_over_8_kb_is_ignored_and_said_so() -> None:
    settings, notes = settings_from_fragment(fragment_of(MAX_FRAGMENT_BYTES + 1))
    assert settings == Settings()
    assert notes == ["The settings link is longer than 8 KB; all its values were ignored."]
