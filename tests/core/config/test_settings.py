"""Every bound of docs/decisions.md's settings table, both sides, and bad input 1-5."""

from __future__ import annotations

import json

import pytest

from chunker_py import ChunkerError, SettingError, Settings, parse_settings
from chunker_py.config.settings import DEFAULT_SEPARATORS


def test_defaults_are_the_guides() -> None:
    s = Settings()
    assert (s.mode, s.chunk_size, s.chunk_overlap, s.edges) == ("recursive", 300, 50, "trim")
    assert s.separators == ("\n\n", "\n", " ", "") == DEFAULT_SEPARATORS
    assert s.source_name == ""
    assert parse_settings({}) == s


@pytest.mark.parametrize(
    ("size", "parsed"),
    [("1", 1), ("10000", 10_000), (" 42 ", 42), ("007", 7), (1, 1), (10_000, 10_000)],
)
def test_chunk_size_accepts_its_range(size: object, parsed: int) -> None:
    assert parse_settings({"chunk_size": size, "chunk_overlap": "0"}).chunk_size == parsed


@pytest.mark.parametrize(
    "size", ["0", "-5", "1e309", "NaN", "12abc", "3.5", "10001", "", "+3", "٣", "3_0", 0, True]
)
def test_chunk_size_refuses_with_a_message_naming_field_and_range(size: object) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings({"chunk_size": size, "chunk_overlap": "0"})
    assert info.value.field == "chunk_size"
    assert "Chunk size must be a whole number from 1 to 10,000" in info.value.message


@pytest.mark.parametrize(("size", "overlap"), [("300", "0"), ("300", "299"), ("1", "0")])
def test_overlap_accepts_zero_to_size_minus_one(size: str, overlap: str) -> None:
    s = parse_settings({"chunk_size": size, "chunk_overlap": overlap})
    assert s.chunk_overlap == int(overlap)


@pytest.mark.parametrize("overlap", ["300", "301", "-1", "2.5", "x", ""])
def test_overlap_refused_before_any_splitting(overlap: str) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings({"chunk_size": "300", "chunk_overlap": overlap})
    assert info.value.field == "chunk_overlap"
    assert "Requested overlap must be a whole number from 0 to 299" in info.value.message
    assert "smaller than Chunk size" in info.value.message


@pytest.mark.parametrize(("key", "value"), [("mode", "clustering"), ("edges", "strip")])
def test_unknown_mode_or_edges_is_refused(key: str, value: str) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings({key: value})
    assert info.value.field == key and value in info.value.message


@pytest.mark.parametrize(
    ("separators", "phrase"),
    [
        ("[]", "at least one"),
        (str(["s" + str(i) for i in range(17)]).replace("'", '"'), "at most 16"),
        ('["' + "x" * 65 + '"]', "limit is 64"),
        ('["a", "a"]', "listed twice"),
        ('["", "\\n"]', "must be the last"),
        ("not json", "JSON list"),
        ('"\\n"', "JSON list"),
        ("[1]", "must be a string"),
        ('["\\ud800"]', "lone surrogate"),
    ],
)
def test_bad_separator_lists_are_refused(separators: str, phrase: str) -> None:
    with pytest.raises(SettingError) as info:
        parse_settings({"separators": separators})
    assert info.value.field == "separators" and phrase in info.value.message


def test_separator_bounds_accept_both_edges() -> None:
    sixteen = [f"s{i}" for i in range(15)] + [""]
    assert len(Settings(separators=tuple(sixteen)).separators) == 16
    assert Settings(separators=("x" * 64,)).separators == ("x" * 64,)


def test_regex_looking_separators_are_matched_literally() -> None:
    from chunker_py import analyse

    text = "aaaa(a+)+$bbbb"
    s = Settings(chunk_size=6, chunk_overlap=0, separators=("(a+)+$",))
    assert [c.text for c in analyse(text, s).chunks] == ["aaaa", "(a+)+$bbbb"]


@pytest.mark.parametrize(
    "name", ["</script><img src=x onerror=alert(1)>", "javascript:alert(1)", "\u202eevil", "../x"]
)
def test_hostile_source_names_are_plain_labels(name: str) -> None:
    """Parsed as the page and the CLI parse it, and carried into the records unchanged."""
    from chunker_py import analyse, to_jsonl

    parsed = parse_settings({"source_name": name})
    assert parsed.source_name == name
    record = json.loads(to_jsonl(analyse("Some text.", parsed)).splitlines()[0])
    assert (record["source"], record["id"]) == (name, f"{name}#0")


@pytest.mark.parametrize("name", ["a\nb", "a\rb", "tab\there", "x" * 201, "\x00"])
def test_source_name_refuses_controls_and_length(name: str) -> None:
    with pytest.raises(SettingError) as info:
        Settings(source_name=name)
    assert info.value.field == "source_name"


def test_source_name_accepts_200_code_points() -> None:
    name = "😀" * 200  # 400 UTF-16 units: the limit counts code points
    assert parse_settings({"source_name": name}).source_name == name


def test_an_abbreviation_may_have_exactly_32_code_points() -> None:
    """The limit itself is allowed and counts code points; one more is refused."""
    longest = "😀" * 31 + "."  # 32 code points, 63 UTF-16 units
    assert Settings(mode="sentence", abbreviations=(longest,)).get("abbreviations") == (longest,)
    with pytest.raises(SettingError, match="at most 32 code points") as info:
        Settings(mode="sentence", abbreviations=("x" + longest,))
    assert info.value.field == "abbreviations"


def test_every_setting_error_is_a_chunker_error_and_a_value_error() -> None:
    with pytest.raises(ChunkerError):
        Settings(chunk_size=0)
    with pytest.raises(ValueError):
        Settings(chunk_size=0)


@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(chunk_size=200, chunk_overlap=20, mode="sentence"),
        Settings(separators=("\n", " "), heading_level=2, source_name="a.md"),
    ],
)
def test_repr_names_only_what_differs_from_the_defaults_and_rebuilds_them(
    settings: Settings,
) -> None:
    shown = repr(settings)
    named = {key for key, value in settings.items() if value != Settings().get(key)}
    assert all(f"{key}=" in shown for key in named)
    assert shown.count("=") == len(named)
    assert eval(shown, {"Settings": Settings}) == settings
