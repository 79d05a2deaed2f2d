"""The guide's worked examples, figure for figure, as data tables."""

from __future__ import annotations

import pytest

from chunker_py import Settings, analyse

NOTE = "Reset password. Keep backup codes."


def test_note_has_34_code_points() -> None:
    assert len(NOTE) == 34


# mode, chunks (text, start, end, overlap), repeated, omitted, total length, average shown
WORKED = [
    (
        "recursive",
        [("Reset password.", 0, 15, 0), ("Keep backup", 16, 27, 0), ("codes.", 28, 34, 0)],
        0,
        2,
        32,
        "10.7",
    ),
    (
        "fixed",
        [
            ("Reset password. Ke", 0, 18, 0),
            (". Keep backup code", 14, 32, 4),
            ("codes.", 28, 34, 4),
        ],
        8,
        0,
        42,
        "14.0",
    ),
]


@pytest.mark.parametrize(("mode", "chunks", "repeated", "omitted", "total", "average"), WORKED)
def test_worked_example(
    mode: str,
    chunks: list[tuple[str, int, int, int]],
    repeated: int,
    omitted: int,
    total: int,
    average: str,
) -> None:
    result = analyse(NOTE, Settings(mode=mode, chunk_size=18, chunk_overlap=4, edges="trim"))
    assert result.error is None and result.summary is not None
    got = [(c.text, c.start, c.end, c.overlap) for c in result.chunks]
    assert got == chunks
    assert result.summary.chunks == 3
    assert result.summary.repeated == repeated
    assert result.summary.omitted == omitted
    assert sum(c.length for c in result.chunks) == total
    assert result.summary.average_display == average


def test_recursive_example_omits_the_spaces_at_15_and_27() -> None:
    result = analyse(NOTE, Settings(chunk_size=18, chunk_overlap=4))
    covered = {p for c in result.chunks for p in range(c.start, c.end)}
    assert sorted(set(range(len(NOTE))) - covered) == [15, 27]
    assert NOTE[15] == NOTE[27] == " "


def test_fixed_example_repeats_the_guides_text() -> None:
    result = analyse(NOTE, Settings(mode="fixed", chunk_size=18, chunk_overlap=4))
    second, third = result.chunks[1], result.chunks[2]
    assert second.text[: second.overlap] == ". Ke"
    assert third.text[: third.overlap] == "code"


def test_emoji_example_offsets_in_both_units() -> None:
    text = "A😀BC😀D"
    result = analyse(text, Settings(chunk_size=3, chunk_overlap=1))
    rows = [(c.text, c.start, c.end, c.start_utf16, c.end_utf16) for c in result.chunks]
    assert rows == [
        ("A😀B", 0, 3, 0, 4),
        ("BC😀", 2, 5, 3, 7),
        ("😀D", 4, 6, 5, 8),  # A=0, 😀=1-2, B=3, C=4, 😀=5-6, D=7
    ]
    utf16 = text.encode("utf-16-le")
    for c in result.chunks:
        assert utf16[2 * c.start_utf16 : 2 * c.end_utf16].decode("utf-16-le") == c.text


def test_fixed_windows_share_exactly_the_overlap_when_preserved() -> None:
    text = "abcdefghijklmnopqrstuvwxyz"
    result = analyse(text, Settings(mode="fixed", chunk_size=7, chunk_overlap=3, edges="preserve"))
    assert [c.text for c in result.chunks] == [
        "abcdefg",
        "efghijk",
        "ijklmno",
        "mnopqrs",
        "qrstuvw",
        "uvwxyz",
    ]
    assert [c.overlap for c in result.chunks[1:]] == [3] * 5


def test_size_one_emits_terminal_code_points_unchanged() -> None:
    result = analyse("a b\n", Settings(chunk_size=1, chunk_overlap=0, edges="trim"))
    assert [c.text for c in result.chunks] == ["a", " ", "b", "\n"]
    assert result.summary is not None and result.summary.omitted == 0


def test_feff_is_kept_and_nbsp_is_trimmed() -> None:
    text = "\ufeff\u00a0word\u00a0"
    result = analyse(text, Settings(mode="fixed", chunk_size=10, chunk_overlap=0))
    assert [c.text for c in result.chunks] == ["\ufeff\u00a0word"]


def test_crlf_blank_line_is_not_the_default_paragraph_separator() -> None:
    text = "one two\r\n\r\nthree four"
    default = analyse(text, Settings(chunk_size=12, chunk_overlap=0))
    assert [c.text for c in default.chunks] == ["one two", "three four"]
    assert default.chunks[0].end == 7  # split at "\n" then trimmed: not at "\r\n\r\n"
    custom = analyse(
        text, Settings(chunk_size=12, chunk_overlap=0, separators=("\r\n\r\n", "\r\n", " ", ""))
    )
    assert [c.text for c in custom.chunks] == ["one two", "three four"]
    lines = analyse("a\r\nb", Settings(chunk_size=1, chunk_overlap=0))
    assert [c.text for c in lines.chunks] == ["a", "\r", "\n", "b"]


def test_comparison_sizes_follow_the_guide() -> None:
    from chunker_py.pipeline.analysis import comparison_sizes

    assert comparison_sizes(300, 50) == [150, 300, 450, 600]
    assert comparison_sizes(7, 0) == [3, 7, 10, 14]  # 3.5 and 10.5 rounded down
    assert comparison_sizes(300, 200) == [201, 300, 450, 600]  # half raised to overlap + 1
    assert comparison_sizes(8000, 10) == [4000, 8000, 10_000]  # capped and merged
    assert comparison_sizes(1, 0) == [1, 2]


def test_unsplittable_piece_is_kept_whole_untrimmed_and_warned() -> None:
    settings = Settings(chunk_size=5, chunk_overlap=0, separators=(" ",))
    result = analyse("aaaa bbbbbbbbbb c", settings)
    assert [c.text for c in result.chunks] == ["aaaa", " bbbbbbbbbb", "c"]
    assert [c.whole for c in result.chunks] == [False, True, False]
    assert result.chunks[1].start == 4  # untrimmed: keeps its leading separator space
    assert len(result.warnings) == 1
    assert "index 1" in result.warnings[0] and "11 code points" in result.warnings[0]
    fine = analyse("aaaa bbbb", Settings(chunk_size=5, chunk_overlap=0, separators=(" ", "")))
    assert fine.warnings == ()
