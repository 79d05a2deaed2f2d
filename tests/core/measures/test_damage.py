"""Damage figures (docs/decisions.md "Damage"): hand-built documents and spans where every figure is
known by construction, properties over generated documents, and the CLI's summary and
comparison output."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import chunker_py.pipeline.cache as text_cache
from chunker_py import MODES, Settings, analyse, compare, damage_by_size, to_jsonl
from chunker_py.engine.spans import Span, SpanMeta
from chunker_py.io.cli import run
from chunker_py.measures.damage import SPACELESS, Damage, mid_word, spaceless
from chunker_py.modes.sentence import FALLBACK
from chunker_py.pipeline.analysis import damage_of
from chunker_py.pipeline.compare import row_settings
from chunker_py.pipeline.units import sizer_for
from chunker_py.text.blocks import markdown_blocks

from ..conftest import COMPARISON, texts

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # 👩‍👩‍👧, 5 code points


def spans_damage(text: str, ranges: list[tuple[int, int]], **settings: Any) -> Damage:
    """The damage of hand-placed chunks (no splitter involved)."""
    return damage_of(text, [Span(a, b) for a, b in ranges], Settings(**settings))


def fence(lines: int) -> str:
    return "```python\n" + "".join(f"x{i} = {i}\n" for i in range(lines)) + "```"


# -- code blocks


@pytest.mark.parametrize("lines", [1, 4, 12])
def test_a_fence_is_cut_exactly_when_no_chunk_can_hold_it(lines: int) -> None:
    code = fence(lines)
    text = f"Intro line.\n\n{code}\n\nOutro line."
    start = text.index("```")
    end = start + len(code)
    # one chunk per block: nothing cut
    whole = spans_damage(text, [(0, 11), (start, end), (end + 2, len(text))])
    assert (whole.code_blocks, whole.code_blocks_cut) == (1, 0)
    assert not any(c.cuts_code for c in whole.chunks)
    # cut between its first and second line: both chunks holding a part say so
    middle = text.index("\n", start)
    cut = spans_damage(text, [(0, 11), (start, middle), (middle + 1, len(text))])
    assert (cut.code_blocks, cut.code_blocks_cut) == (1, 1)
    assert [c.cuts_code for c in cut.chunks] == [False, True, True]
    # a splitter whose chunks are shorter than the fence must cut it; Markdown structure
    # keeps it whole, over size, when it does not fit
    for size in (len(code) - 1, len(code), len(code) + 40):
        fixed = analyse(text, Settings(mode="fixed", chunk_size=size, chunk_overlap=0)).damage
        assert fixed is not None
        if size < len(code):
            assert fixed.code_blocks_cut == 1
        structure = analyse(text, Settings(mode="markdown", chunk_size=size)).damage
        assert structure is not None
        assert structure.code_blocks_cut == 0
        assert structure.over_size == (1 if size < len(code) else 0)
    recursive = analyse(text, Settings(chunk_size=len(code) // 2, chunk_overlap=0)).damage
    assert recursive is not None and recursive.code_blocks_cut == 1


def test_an_unclosed_fence_runs_to_the_end_of_the_text() -> None:
    text = "Intro.\n\n```\nopen = 1\nstill = 2\n"
    start = text.index("```")
    held = spans_damage(text, [(0, 6), (start, len(text) - 1)])
    assert (held.code_blocks, held.code_blocks_cut) == (1, 0)
    short = spans_damage(text, [(0, 6), (start, len(text) - 4)])  # ends before "= 2"
    assert (short.code_blocks, short.code_blocks_cut) == (1, 1)


def test_fences_and_tables_inside_lists_and_quotes_count() -> None:
    text = "- item\n\n  ```\n  a = 1\n  ```\n\n> | h |\n> |---|\n> | 1 |\n"
    d = spans_damage(text, [(0, len(text) - 1)])
    assert (d.code_blocks, d.tables, d.code_blocks_cut, d.tables_cut) == (1, 1, 0, 0)


def test_indented_code_is_not_a_fenced_code_block() -> None:
    d = spans_damage("Text.\n\n    indented = 1\n", [(0, 5), (11, 23)])
    assert d.code_blocks == 0


# -- tables

HEADER = "| h1 | h2 |\n|----|----|"
TABLE = HEADER + "".join(f"\n| a{i} | b{i} |" for i in range(1, 5))  # lines of 11


def test_table_split_with_and_without_the_header_prefix() -> None:
    # Markdown structure: pieces between rows; later pieces repeat the header as prefix
    structure = analyse(TABLE, Settings(mode="markdown", chunk_size=23))
    assert [s.end - s.start for s in structure.spans] == [23, 23, 23]
    assert [bool(s.meta and HEADER in s.meta.prefix) for s in structure.spans] == [
        False,
        True,
        True,
    ]
    d = structure.damage
    assert d is not None
    assert (d.tables, d.tables_cut, d.table_rows_without_header) == (1, 1, 0)
    # recursive at the same size: header and delimiter, then one row per chunk, no prefix
    recursive = analyse(TABLE, Settings(chunk_size=23, chunk_overlap=0))
    assert [TABLE[s.start : s.end] for s in recursive.spans][1:] == [
        f"| a{i} | b{i} |" for i in range(1, 5)
    ]
    d = recursive.damage
    assert d is not None
    assert (d.tables, d.tables_cut, d.table_rows_without_header) == (1, 1, 4)
    assert [c.rows_without_header for c in d.chunks] == [False, True, True, True, True]
    assert [c.cuts_table for c in d.chunks] == [True] * 5


def test_a_chunk_holding_the_header_row_has_its_header() -> None:
    rows_start = TABLE.index("| a3")
    d = spans_damage(TABLE, [(0, rows_start - 1), (rows_start, len(TABLE))])
    assert (d.tables_cut, d.table_rows_without_header) == (1, 1)
    # the same second chunk with the header as its context prefix
    prefixed = damage_of(
        TABLE,
        [Span(0, rows_start - 1), Span(rows_start, len(TABLE), False, SpanMeta(prefix=HEADER))],
        Settings(),
    )
    assert prefixed.table_rows_without_header == 0


# -- chunk edges


def test_a_fixed_window_of_one_on_ab_has_one_mid_word_edge_pair() -> None:
    result = analyse("ab", Settings(mode="fixed", chunk_size=1, chunk_overlap=0))
    d = result.damage
    assert d is not None
    # the cut at 1 is the end of chunk 0 and the start of chunk 1: two edges, one per chunk
    assert [c.mid_word_edges for c in d.chunks] == [1, 1]
    assert d.mid_word_edges == 2
    assert d.split_grapheme_edges == 0


@pytest.mark.parametrize(
    ("text", "size", "mid_word", "split"),
    [
        ("e\u0301e\u0301", 1, 0, 4),  # inside both clusters; U+0301 is not alphanumeric
        (FAMILY, 2, 0, 4),  # edges at 2 and 4, inside the ZWJ sequence
        ("中文字符", 1, 0, 0),  # Han: written without spaces
        ("ひらがなカタカナ", 2, 0, 0),  # Hiragana, Katakana
        ("a中b", 1, 0, 0),  # a Han neighbour is enough
        ("한국어", 1, 4, 0),  # Hangul is written with spaces
        ("ab12", 2, 2, 0),  # digits and letters of one word
        ("ab cd", 3, 0, 0),  # trimmed chunks "ab" and "cd" end next to the space
    ],
)
def test_edge_figures_in_fixed_windows(text: str, size: int, mid_word: int, split: int) -> None:
    d = analyse(text, Settings(mode="fixed", chunk_size=size, chunk_overlap=0)).damage
    assert d is not None
    assert (d.mid_word_edges, d.split_grapheme_edges) == (mid_word, split)


def test_an_edge_between_cr_and_lf_splits_a_grapheme_only_when_kept() -> None:
    text = "a\r\nb"
    kept = analyse(text, Settings(mode="fixed", chunk_size=2, chunk_overlap=0, edges="preserve"))
    assert [text[s.start : s.end] for s in kept.spans] == ["a\r", "\nb"]
    assert kept.damage is not None
    assert [c.split_grapheme_edges for c in kept.damage.chunks] == [1, 1]
    # trimming moves both edges off the line break: nothing split
    trimmed = analyse(text, Settings(mode="fixed", chunk_size=2, chunk_overlap=0))
    assert [text[s.start : s.end] for s in trimmed.spans] == ["a", "b"]
    assert trimmed.damage is not None and trimmed.damage.split_grapheme_edges == 0


def test_edges_at_the_ends_of_the_text_never_count() -> None:
    d = spans_damage("e\u0301", [(0, 2)])
    assert (d.mid_word_edges, d.split_grapheme_edges) == (0, 0)
    assert not mid_word("ab", 0) and not mid_word("ab", 2) and mid_word("ab", 1)


def test_only_a_chunk_with_a_neighbour_on_that_side_can_cut_a_sentence() -> None:
    """docs/decisions.md "Damage": ends mid-sentence is for a chunk other than the last,
    starts mid-sentence for one other than the first, even where the chunks stop short of
    the text's ends."""
    text = "One two three. Four five six."
    alone = spans_damage(text, [(4, 7)])  # "two", inside its sentence on both sides
    assert (alone.ends_mid_sentence, alone.starts_mid_sentence) == (0, 0)
    pair = spans_damage(text, [(0, 7), (8, 13)])  # "One two" | "three"
    assert [c.ends_mid_sentence for c in pair.chunks] == [True, False]
    assert [c.starts_mid_sentence for c in pair.chunks] == [False, True]


def _script_by_name(char: str) -> bool:
    """An independent oracle for the excluded scripts: the character's Unicode name."""
    name = unicodedata.name(char, "")
    prefixes = (
        "CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH", "HANGZHOU", "HIRAGANA",
        "KATAKANA", "HALFWIDTH KATAKANA", "HENTAIGANA", "THAI", "LAO", "KHMER", "MYANMAR",
    )  # fmt: skip
    # Han's own marks; other "IDEOGRAPHIC ..." letters (tally and annotation marks) are not
    return name.startswith(prefixes) or name in (
        "IDEOGRAPHIC ITERATION MARK",
        "IDEOGRAPHIC CLOSING MARK",
        "IDEOGRAPHIC NUMBER ZERO",
        "VERTICAL IDEOGRAPHIC ITERATION MARK",
    )


def test_spaceless_scripts_agree_with_character_names() -> None:
    """Every letter or digit the runtime's Unicode knows: the block ranges say "spaceless"
    exactly when the character's name says Han, kana, Thai, Lao, Khmer or Myanmar."""
    wrong = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if (c := chr(cp)).isalnum() and spaceless(c) != _script_by_name(c)
    ]
    assert wrong == []
    assert [first for first, _l, _n in SPACELESS] == sorted(f for f, _l, _n in SPACELESS)


# -- sentences and over size

SENTENCES = "Alpha beta. Gamma delta.\n\nEpsilon zeta"


def test_chunks_on_sentence_bounds_are_not_mid_sentence() -> None:
    d = spans_damage(SENTENCES, [(0, 11), (12, 24), (26, 38)])
    assert (d.ends_mid_sentence, d.starts_mid_sentence, d.mid_word_edges) == (0, 0, 0)


def test_a_cut_inside_a_sentence_is_counted_on_both_sides() -> None:
    d = spans_damage(SENTENCES, [(0, 8), (8, 24), (26, 38)])  # "Alpha be|ta. Gamma delta."
    assert [c.ends_mid_sentence for c in d.chunks] == [True, False, False]
    assert [c.starts_mid_sentence for c in d.chunks] == [False, True, False]
    assert [c.mid_word_edges for c in d.chunks] == [1, 1, 0]
    assert (d.ends_mid_sentence, d.starts_mid_sentence) == (1, 1)


def test_block_starts_and_ends_end_no_sentence_early() -> None:
    text = "# Title\nText here\n- one\n- two"  # no sentence ends at all
    d = spans_damage(text, [(0, 7), (8, 17), (18, 23), (24, 29)])
    assert (d.ends_mid_sentence, d.starts_mid_sentence) == (0, 0)
    inside = spans_damage(text, [(0, 12), (13, 29)])  # "# Title\nText|here..."
    assert (inside.ends_mid_sentence, inside.starts_mid_sentence) == (1, 1)


def test_abbreviations_follow_the_settings() -> None:
    text = "Abschn. Zwei folgt."
    builtin = spans_damage(text, [(0, 7), (8, 19)])
    assert builtin.ends_mid_sentence == 0  # "Abschn." then a capital: a sentence end
    mine = spans_damage(text, [(0, 7), (8, 19)], abbreviations=("Abschn.",))
    assert (mine.ends_mid_sentence, mine.starts_mid_sentence) == (1, 1)


def test_over_size_uses_the_chunk_size() -> None:
    d = spans_damage("abcdef ghij", [(0, 6), (7, 11)], chunk_size=5, chunk_overlap=0)
    assert [c.over_size for c in d.chunks] == [True, False] and d.over_size == 1


def test_records_carry_each_chunks_damage() -> None:
    result = analyse("ab", Settings(mode="fixed", chunk_size=1, chunk_overlap=0))
    records = [json.loads(line) for line in to_jsonl(result).splitlines()]
    assert [r["damage"]["mid_word_edges"] for r in records] == [1, 1]
    assert [r["damage"]["ends_mid_sentence"] for r in records] == [True, False]
    assert list(records[0])[-3:] == ["damage", "source", "settings"]


def test_describe_says_the_damage_in_words() -> None:
    d = spans_damage(SENTENCES, [(0, 8), (8, 24), (26, 38)])
    assert d.chunks[0].describe() == ["ends mid-sentence", "cut mid-word"]
    assert d.chunks[2].describe() == [] and not d.chunks[2].damaged
    assert d.damaged == 2


def test_describe_says_a_split_character_at_one_or_both_edges() -> None:
    # e + COMBINING ACUTE ACCENT is one grapheme cluster: each inner edge splits one
    text = "xe\u0301ye\u0301z"
    d = spans_damage(text, [(0, 2), (2, 5), (5, 7)], chunk_size=3, chunk_overlap=0)
    split = [[w for w in c.describe() if "character" in w] for c in d.chunks]
    assert split == [
        ["splits a character (grapheme cluster)"],
        ["splits a character (grapheme cluster) at both edges"],
        ["splits a character (grapheme cluster)"],
    ]


def test_an_unusable_result_has_no_damage() -> None:
    assert analyse("", Settings()).damage is None


# -- properties


@given(text=texts, size=st.integers(5, 80), overlap=st.integers(0, 4))
def test_sentence_mode_without_fallback_never_ends_mid_sentence(
    text: str, size: int, overlap: int
) -> None:
    result = analyse(text, Settings(mode="sentence", chunk_size=size, chunk_overlap=overlap))
    assume(result.error is None)
    assume(not any(s.meta == FALLBACK for s in result.spans))
    d = result.damage
    assert d is not None
    assert (d.ends_mid_sentence, d.starts_mid_sentence) == (0, 0)


WORDS = st.sampled_from(["alpha", "beta", "Gamma", "x = 1", "é", "中文", "d."])
LINES = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
FENCES = st.lists(LINES, min_size=0, max_size=5).map(
    lambda lines: "```\n" + "".join(line + "\n" for line in lines) + "```"
)
TABLES = st.tuples(st.integers(1, 3), st.lists(WORDS, min_size=1, max_size=6)).map(
    lambda t: (
        "| "
        + " | ".join(f"h{i}" for i in range(t[0]))
        + " |\n|"
        + "---|" * t[0]
        + "".join("\n| " + " | ".join([cell] * t[0]) + " |" for cell in t[1])
    )
)
BLOCKS = st.one_of(FENCES, TABLES, LINES, LINES.map(lambda line: "## " + line))
DOCUMENTS = st.lists(BLOCKS, min_size=1, max_size=8).map("\n\n".join)


@given(text=DOCUMENTS, size=st.integers(8, 120))
def test_markdown_structure_cuts_no_fence_or_table_that_fits(text: str, size: int) -> None:
    result = analyse(text, Settings(mode="markdown", chunk_size=size))
    assume(result.error is None)
    d = result.damage
    assert d is not None
    blocks = markdown_blocks(text_cache.text_index(text))
    too_big_tables = [b for b in blocks if b.kind == "table" and b.end - b.start > size]
    assert d.code_blocks == sum(b.kind == "fence" for b in blocks)
    assert d.code_blocks_cut == 0  # fences that fit stay whole; bigger ones stay whole too
    assert d.tables_cut == len(too_big_tables)
    assert d.table_rows_without_header == 0


SETTINGS = st.builds(
    lambda mode, size, overlap, edges: Settings(
        mode=mode, chunk_size=size, chunk_overlap=min(overlap, size - 1), edges=edges
    ),
    st.sampled_from(sorted(MODES)),
    st.integers(1, 60),
    st.integers(0, 10),
    st.sampled_from(["trim", "preserve"]),
)


@given(text=st.one_of(texts, DOCUMENTS), settings=SETTINGS)
def test_damage_is_unchanged_by_recomputing(text: str, settings: Settings) -> None:
    first = analyse(text, settings)
    assume(first.damage is not None)
    text_cache._recent.clear()  # a fresh index: parse, sentences, graphemes again
    again = analyse(text, settings)
    assert again.damage == first.damage
    assert again.damage is not first.damage
    d = first.damage
    assert d is not None and len(d.chunks) == first.count
    for count, per_chunk in (
        ("table_rows_without_header", "rows_without_header"),
        ("ends_mid_sentence", "ends_mid_sentence"),
        ("starts_mid_sentence", "starts_mid_sentence"),
        ("mid_word_edges", "mid_word_edges"),
        ("split_grapheme_edges", "split_grapheme_edges"),
        ("over_size", "over_size"),
    ):  # each count is its chunks' sum (they are summed over damaged ones only)
        assert getattr(d, count) == sum(getattr(c, per_chunk) for c in d.chunks), count
    assert all(0 <= c.mid_word_edges <= 2 and 0 <= c.split_grapheme_edges <= 2 for c in d.chunks)
    assert not d.chunks[-1].ends_mid_sentence and not d.chunks[0].starts_mid_sentence


# -- comparison and CLI

# a fixed real README (this repository's own grows past the 20,000-code-point page limit)
README = Path(__file__).resolve().parents[2] / "data" / "markdown-it-py-README.md"


def test_comparison_rows_follow_the_current_settings() -> None:
    settings = Settings(chunk_size=200, chunk_overlap=0)
    rows = row_settings(settings)
    assert [key for key, _label, _s in rows] == [
        "recursive",
        "recursive-markdown",
        "markdown",
        "sentence",
        "fixed",
        "fixed-overlap",
        "token-window",
        "semantic",
    ]
    by_key = {key: s for key, _label, s in rows}
    assert by_key["fixed-overlap"].chunk_overlap == 40  # size / 5 when the overlap is 0
    assert by_key["recursive-markdown"].preset == "markdown"
    assert all(s.chunk_size == 200 for s in by_key.values())
    kept = {k: s for k, _l, s in row_settings(Settings(chunk_size=200, chunk_overlap=30))}
    assert kept["fixed-overlap"].chunk_overlap == 30 and kept["fixed"].chunk_overlap == 0
    # Markdown structure ignores the overlap, so it may exceed the size: rows use size / 5
    wide = {
        k: s
        for k, _l, s in row_settings(Settings(mode="markdown", chunk_size=50, chunk_overlap=80))
    }
    assert wide["sentence"].chunk_overlap == 10


def test_compare_marks_the_current_row_and_reuses_its_analysis() -> None:
    text = README.read_text("utf-8")
    settings = Settings(mode="markdown", chunk_size=300)
    current = analyse(text, settings)
    rows = compare(text, settings, known=current)
    assert [r.current for r in rows] == [False, False, True, False, False, False, False, False]
    assert rows[2].damage is current.damage
    for row in rows:
        alone = analyse(text, row.settings)
        assert row.count == alone.count and row.damage == alone.damage
        size = sizer_for(row.settings)  # the size unit: tokens for the token window
        assert row.max_size == max(size.length(text, s.start, s.end) for s in alone.spans)


def test_compare_reports_rows_over_the_chunk_limit() -> None:
    text = "ab" * 1250  # 2,500 code points, no spaces
    rows = {r.key: r for r in compare(text, Settings(chunk_size=1, chunk_overlap=0))}
    fixed = rows["fixed"]
    assert fixed.over_limit and fixed.count == 2500 and fixed.damage is None
    assert fixed.as_json()["code_blocks_cut"] is None and fixed.error


def test_exactly_the_limit_after_dropping_blank_windows_keeps_the_spans() -> None:
    """2,500 windows of which 500 are single spaces: 2,000 retained, at the limit, so the
    result has its chunks (they were once dropped as if the raw count were the result's)."""
    result = analyse("word " * 500, Settings(mode="fixed", chunk_size=1, chunk_overlap=0))
    assert result.error is None and result.count == len(result.spans) == 2000
    assert result.damage is not None and result.damage.mid_word_edges == 2 * 1500


def documented_damage_figures() -> list[str]:
    """The figures in the order of docs/evidence.md's table under "Damage and comparison"."""
    readme = (Path(__file__).resolve().parents[3] / "docs" / "evidence.md").read_text("utf-8")
    section = readme.split("\n## Damage and comparison\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return [name for row in rows for name in row.split("`")[1::2]]


def test_cli_summary_and_compare(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text(f"Intro.\n\n{fence(6)}\n\n{TABLE}\n", encoding="utf-8")
    summary = json.loads(run([str(note), "--size", "30", "--overlap", "0", "--format", "summary"]))
    assert list(summary["damage"]) == documented_damage_figures()
    assert summary["damage"]["code_blocks"] == 1 and summary["damage"]["tables"] == 1
    assert summary["damage"]["code_blocks_cut"] == 1  # 55 code points at size 30
    lines = run([str(note), "--size", "30", "--overlap", "0", "--format", "compare"])
    rows = [json.loads(line) for line in lines.splitlines()]
    assert [r["row"] for r in rows] == COMPARISON
    assert [r["current"] for r in rows] == [True, False, False, False, False, False, False, False]
    assert rows[2]["code_blocks_cut"] == 0 and rows[2]["settings"]["mode"] == "markdown"
    assert rows[5]["settings"]["chunk_overlap"] == 6
    assert all(r["over_limit"] is False and r["error"] is None for r in rows)


def test_damage_by_size_follows_the_trade_off_sizes() -> None:
    code = fence(10)
    assert len(code) == 83
    text = f"Intro.\n\n{code}\n\nOutro."
    settings = Settings(chunk_size=60, chunk_overlap=0)
    current = analyse(text, settings)
    rows = damage_by_size(text, settings, known=current)
    assert [r.settings.chunk_size for r in rows] == [30, 60, 90, 120]
    assert [r.current for r in rows] == [False, True, False, False]
    assert rows[1].damage is current.damage
    # the fence is cut below its length and whole at or above it
    assert [r.damage.code_blocks_cut for r in rows if r.damage] == [1, 1, 0, 0]
