"""Share links: round trips and every bad-link case of bad input 6."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunker_py import Settings
from chunker_py.config.links import settings_from_fragment, settings_to_fragment

from ..conftest import settings_strategy


@given(
    settings=settings_strategy(max_size=10_000),
    name=st.text(alphabet=st.characters(blacklist_categories=["Cc", "Cs"]), max_size=200),
)
def test_links_round_trip(settings: Settings, name: str) -> None:
    """Every registered mode and option survives a link (strategies come from FIELDS)."""
    s = settings.replace(source_name=name)
    fragment = settings_to_fragment(s)
    assert fragment.startswith("#") and fragment.isascii()
    assert settings_from_fragment(fragment) == (s, [])


def test_link_holds_settings_only() -> None:
    fragment = settings_to_fragment(Settings(chunk_size=18, chunk_overlap=4))
    assert fragment == "#v=1&mode=recursive&size=18&overlap=4&edges=trim"


def read(fragment: str) -> tuple[Settings, list[str]]:
    return settings_from_fragment(fragment)


def test_empty_fragment_gives_defaults() -> None:
    assert read("") == (Settings(), [])
    assert read("#") == (Settings(), [])


def test_malformed_percent_escapes_are_ignored_by_name() -> None:
    s, notes = read("#size=%E0%A4%A&mode=fixed&name=%ZZ")
    assert s == Settings(mode="fixed")
    assert any("size" in n and "percent" in n for n in notes)
    assert any("name" in n for n in notes)


def test_invalid_utf8_and_lone_surrogates_are_ignored() -> None:
    s, notes = read("#name=%ED%A0%80&edges=preserve")
    assert s == Settings(edges="preserve")
    assert len(notes) == 1 and "name" in notes[0]
    s, notes = read("#name=a\ud800b")
    assert s == Settings() and "name" in notes[0]


def test_duplicate_keys_are_ignored_and_named() -> None:
    s, notes = read("#size=100&size=200&overlap=10")
    assert s == Settings(chunk_overlap=10)
    assert notes == ["Ignored size: it appears more than once in the link."]


def test_prototype_and_unknown_keys_are_ignored_and_named() -> None:
    s, notes = read("#__proto__=x&constructor=y&size=100&colour=red")
    assert s == Settings(chunk_size=100)
    assert len(notes) == 3
    assert all("unknown" in n for n in notes)
    assert any("__proto__" in n for n in notes)


def test_oversized_fragment_is_ignored_whole() -> None:
    s, notes = read("#size=100&name=" + "a" * 9000)
    assert s == Settings() and "8 KB" in notes[0]


def test_bad_values_fall_back_to_defaults_and_say_which() -> None:
    s, notes = read("#mode=clustering&size=0&overlap=-1&edges=strip&sep=%5B%5D&name=ok")
    assert s == Settings(source_name="ok")
    named = " ".join(notes)
    for key in ("mode", "size", "overlap", "edges", "sep"):
        assert f"Ignored {key} from the link" in named


def test_overlap_is_checked_against_the_links_size() -> None:
    s, notes = read("#size=10&overlap=10")
    assert s.chunk_size == 10 and s.chunk_overlap == 9
    assert any("overlap" in n for n in notes)


def test_hostile_name_in_a_link_is_kept_as_text() -> None:
    payload = "<img src=x onerror=alert(1)>"
    s = Settings(source_name=payload)
    assert read(settings_to_fragment(s)) == (s, [])
