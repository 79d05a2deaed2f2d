"""Markdown structure mode: properties over generated Markdown, fixed cases, golden files.

The generator knows what it wrote — where each heading, fence, table, list and quote
starts and ends, each heading's level and title — and that knowledge is the oracle:
sections, heading paths and atomic blocks are computed here from it, never through the
mode's own helpers. Blocks are separated by blank lines so their kinds are unambiguous in
CommonMark; line ends are LF, CRLF or CR.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from chunker_py import Chunk, ResultError, Settings, analyse, to_jsonl
from chunker_py.pipeline.checks import output_budget

DATA = Path(__file__).resolve().parents[2] / "data"


@dataclass
class Block:
    kind: str
    start: int
    end: int  # last non-whitespace code point + 1
    level: int = 0
    title: str = ""
    header: tuple[str, str] = ("", "")  # a table's header and delimiter rows
    rows: list[tuple[int, int]] = field(default_factory=list)  # a table's body rows


@dataclass
class Doc:
    text: str
    blocks: list[Block]

    def headings(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "heading"]


WORDS = ["chunk", "Retrieval", "the", "a", "naïve", "über", "😀", "日本語", "x", "Dr.", "end."]
TITLE_WORDS = ["Intro", "Setup", "API", "Keys", "Über", "日本", "Notes", "x"]
CODE_LINES = ["x = 1", "# not a heading", "| not | a | table |", "- not a list", "    indented"]
CELLS = ["a", "bb", "naïve", "😀", "1", "x y"]


def words(draw: st.DrawFn, pool: list[str], low: int, high: int) -> str:
    return " ".join(draw(st.lists(st.sampled_from(pool), min_size=low, max_size=high)))


@st.composite
def heading(draw: st.DrawFn) -> tuple[list[str], dict[str, object]]:
    title = words(draw, TITLE_WORDS, 1, 4)
    if draw(st.booleans()):
        level = draw(st.integers(1, 6))
        indent = " " * draw(st.integers(0, 1))  # 2+ could nest it in a list above
        closing = draw(st.sampled_from(["", " #", " " + "#" * level]))
        return [f"{indent}{'#' * level} {title}{closing}"], {"level": level, "title": title}
    level = draw(st.integers(1, 2))
    underline = ("=" if level == 1 else "-") * draw(st.integers(1, 5))
    return [title, underline], {"level": level, "title": title}


@st.composite
def paragraph(draw: st.DrawFn) -> tuple[list[str], dict[str, object]]:
    lines = draw(st.lists(st.just(0), min_size=1, max_size=4))
    return [words(draw, WORDS, 1, 10) + draw(st.sampled_from(["", "  "])) for _ in lines], {}


@st.composite
def fence(draw: st.DrawFn, closed: bool = True) -> tuple[list[str], dict[str, object]]:
    mark = draw(st.sampled_from(["`", "~"])) * draw(st.integers(3, 5))
    info = draw(st.sampled_from(["", "py", "text"]))
    body = draw(st.lists(st.sampled_from([*CODE_LINES, "", ""]), max_size=6))
    closer = [mark[0] * (len(mark) + draw(st.integers(0, 2)))] if closed else []
    return [mark + info, *body, *closer], {}


@st.composite
def table(draw: st.DrawFn) -> tuple[list[str], dict[str, object]]:
    columns = draw(st.integers(1, 3))

    def row() -> str:
        return "| " + " | ".join(draw(st.sampled_from(CELLS)) for _ in range(columns)) + " |"

    head = row()
    cells = [draw(st.sampled_from([" --- ", ":-:", "---:"])) for _ in range(columns)]
    delimiter = "|" + "|".join(cells) + "|"
    rows = [row() for _ in range(draw(st.integers(0, 8)))]
    return [head, delimiter, *rows], {"header": (head, delimiter)}


@st.composite
def bullet_list(draw: st.DrawFn) -> tuple[list[str], dict[str, object]]:
    marker = draw(st.sampled_from(["-", "*", "1."]))
    items = draw(st.lists(st.just(0), min_size=1, max_size=5))
    return [f"{marker} {words(draw, WORDS, 1, 6)}" for _ in items], {}


@st.composite
def quote(draw: st.DrawFn) -> tuple[list[str], dict[str, object]]:
    lines = draw(
        st.lists(st.sampled_from(["> " + w for w in WORDS] + [">"]), min_size=1, max_size=4)
    )
    return ["> " + WORDS[0], *lines], {}


OTHER = {
    "rule": st.sampled_from([["***"], ["___"], ["- - -"]]).map(lambda lines: (lines, {})),
    "html": st.just((["<div>", "chunk", "</div>"], {})),
    # link reference definitions: markdown-it keeps them out of its token stream
    "definition": st.sampled_from(
        [["[ref]: /url"], ["[a]: <b> 'c'", "[d]: /e"], ['[über]: /x "Title"']]
    ).map(lambda lines: (lines, {})),
}
KINDS = {
    "heading": heading(),
    "paragraph": paragraph(),
    "fence": fence(),
    "table": table(),
    "list": bullet_list(),
    "quote": quote(),
    **OTHER,
}


@st.composite
def markdown_docs(draw: st.DrawFn) -> Doc:
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    kinds = draw(st.lists(st.sampled_from(list(KINDS)), min_size=1, max_size=14))
    # two lists separated by a blank line are one (loose) list in CommonMark
    kinds = [k for i, k in enumerate(kinds) if not (k == "list" and kinds[i - 1 : i] == ["list"])]
    parts: list[tuple[str, list[str], dict[str, object]]] = [
        (kind, *draw(KINDS[kind])) for kind in kinds
    ]
    if draw(st.booleans()):  # an unclosed fence runs to the end of the text
        parts.append(("fence", *draw(fence(closed=False))))
    text = ""
    blocks = []
    for number, (kind, lines, info) in enumerate(parts):
        if number:
            text += eol + draw(st.sampled_from(["", "  ", " " + eol])) + eol
        start = text_start = len(text)
        while start < text_start + len(lines[0]) and lines[0][start - text_start] == " ":
            start += 1
        rows = []
        position = len(text)
        for i, line in enumerate(lines):
            if kind == "table" and i >= 2:
                rows.append((position, position + len(line)))
            position += len(line) + len(eol)
        text += eol.join(lines)
        block = Block(kind, start, len(text.rstrip()), rows=rows)
        block.level = int(info.get("level", 0))  # type: ignore[call-overload]
        block.title = str(info.get("title", ""))
        block.header = info.get("header", ("", ""))  # type: ignore[assignment]
        blocks.append(block)
    text += draw(st.sampled_from(["", eol, eol + eol]))
    return Doc(text, blocks)


def chunks_of(doc: Doc, **options: object) -> tuple[Chunk, ...]:
    analysis = analyse(doc.text, Settings(mode="markdown", **options), max_chunks=None)  # type: ignore[arg-type]
    assert analysis.error is None, analysis.error
    return analysis.chunks


def expected_path(doc: Doc, position: int) -> str:
    """Titles of the headings above ``position``: the nearest one, then the nearest before
    it of a lower level, and so on (walking back, not the mode's stack)."""
    titles: list[str] = []
    level = 7
    for block in reversed(doc.headings()):
        if block.start <= position and block.level < level:
            titles.append(block.title)
            level = block.level
    return " > ".join(reversed(titles))


def crumb_free(chunk: Chunk, breadcrumb: bool) -> str:
    """The chunk's prefix without the breadcrumb (checked to be there when it should)."""
    crumb = chunk.heading_path + "\n\n" if breadcrumb and chunk.heading_path else ""
    assert chunk.prefix.startswith(crumb)
    return chunk.prefix[len(crumb) :]


sizes = st.one_of(st.integers(1, 20), st.integers(20, 400))


# ------------------------------------------------------------------ properties


@given(doc=markdown_docs(), size=sizes, level=st.integers(1, 6), overlap=st.integers(0, 50))
@example(
    doc=Doc("# A\n\n```\nx\n\ny\n```\n", [Block("heading", 0, 3, 1, "A"), Block("fence", 5, 18)]),
    size=13,
    level=6,
    overlap=0,
)
def test_chunks_stay_in_sections_and_cover_the_text(
    doc: Doc, size: int, level: int, overlap: int
) -> None:
    chunks = chunks_of(doc, chunk_size=size, heading_level=level, chunk_overlap=overlap)
    section_starts = [b.start for b in doc.headings() if b.level <= level]
    for chunk in chunks:
        assert chunk.text == doc.text[chunk.start : chunk.end]
        assert chunk.text.strip() == chunk.text  # never edge whitespace, never blank
        inside = [s for s in section_starts if chunk.start < s < chunk.end]
        assert not inside, f"chunk {chunk.index} {chunk.text!r} spans a section start"
    # no overlap: ascending, disjoint, and the records say 0
    assert all(a.end <= b.start for a, b in pairwise(chunks))
    assert all(c.overlap == 0 for c in chunks)
    covered = set()
    for chunk in chunks:
        covered.update(range(chunk.start, chunk.end))
    missed = [i for i, ch in enumerate(doc.text) if not ch.isspace() and i not in covered]
    assert not missed, f"not covered: {[doc.text[i] for i in missed]}"


@given(doc=markdown_docs(), size=sizes)
def test_atomic_blocks_that_fit_are_never_cut(doc: Doc, size: int) -> None:
    chunks = chunks_of(doc, chunk_size=size)
    atomic = [b for b in doc.blocks if b.kind in ("fence", "table", "list", "quote")]
    fitting = [b for b in atomic if b.end - b.start <= size]
    assume(fitting)
    for block in fitting:
        whole = [c for c in chunks if c.start <= block.start and block.end <= c.end]
        assert whole, f"{block.kind} {doc.text[block.start : block.end]!r} was cut"


@given(doc=markdown_docs(), size=sizes, level=st.integers(1, 6), breadcrumb=st.booleans())
def test_heading_paths_and_breadcrumbs(doc: Doc, size: int, level: int, breadcrumb: bool) -> None:
    assume(doc.headings())
    chunks = chunks_of(doc, chunk_size=size, heading_level=level, breadcrumb=breadcrumb)
    for chunk in chunks:
        assert chunk.heading_path == expected_path(doc, chunk.start)
        rest = crumb_free(chunk, breadcrumb)
        if not breadcrumb:
            assert chunk.heading_path == "" or not rest.startswith(chunk.heading_path + "\n")


@given(doc=markdown_docs(), size=st.integers(1, 60), breadcrumb=st.booleans())
def test_table_pieces_after_the_first_carry_the_header(
    doc: Doc, size: int, breadcrumb: bool
) -> None:
    tables = [b for b in doc.blocks if b.kind == "table" and b.end - b.start > size and b.rows]
    assume(tables)
    chunks = chunks_of(doc, chunk_size=size, breadcrumb=breadcrumb)
    for block in tables:
        pieces = [c for c in chunks if block.start <= c.start and c.end <= block.end]
        assert pieces and sum(c.end - c.start for c in pieces) >= sum(b - a for a, b in block.rows)
        assert pieces[0].start == block.start
        assert crumb_free(pieces[0], breadcrumb) == ""
        for piece in pieces[1:]:
            assert crumb_free(piece, breadcrumb).splitlines() == list(block.header)
        row_edges = {a for a, _b in block.rows} | {b for _a, b in block.rows}
        for piece in pieces[1:]:  # cut between rows only
            assert piece.start in row_edges and piece.end in row_edges


# ------------------------------------------------------------------ fixed cases


def texts_of(text: str, **options: object) -> list[tuple[str, str]]:
    chunks = chunks_of(Doc(text, []), **options)
    return [(c.text, c.prefix) for c in chunks]


def test_heading_only_sections_are_kept_and_text_before_headings_has_no_path() -> None:
    text = "Preface line.\n\n# A\n\n# B\n\nBody of B.\n"
    chunks = chunks_of(Doc(text, []), chunk_size=300)
    assert [(c.text, c.heading_path, c.prefix) for c in chunks] == [
        ("Preface line.", "", ""),
        ("# A", "A", "A\n\n"),
        ("# B\n\nBody of B.", "B", "B\n\n"),
    ]


def test_heading_level_option_decides_which_headings_start_sections() -> None:
    text = "# Top\n\nintro\n\n## Sub\n\nbody\n\n### Deep\n\nmore"
    assert [t for t, _p in texts_of(text, heading_level=1)] == [text]
    assert [t for t, _p in texts_of(text, heading_level=2)] == [
        "# Top\n\nintro",
        "## Sub\n\nbody\n\n### Deep\n\nmore",
    ]
    assert len(texts_of(text, heading_level=6)) == 3


def test_breadcrumb_option() -> None:
    text = "# Guide\n\n## Install\n\nRun it."
    on = chunks_of(Doc(text, []), chunk_size=300)
    off = chunks_of(Doc(text, []), chunk_size=300, breadcrumb=False)
    assert [c.prefix for c in on] == ["Guide\n\n", "Guide > Install\n\n"]
    assert [c.prefix for c in off] == ["", ""]
    assert [c.heading_path for c in off] == ["Guide", "Guide > Install"]


def test_fence_with_blank_lines_is_one_block_and_an_oversized_fence_stays_whole() -> None:
    fenced = "```py\nx = 1\n\n\ny = 2\n```"
    text = f"# Code\n\n{fenced}\n\nAfter."
    assert (fenced, "Code\n\n") in texts_of(text, chunk_size=len(fenced))
    chunks = chunks_of(Doc(text, []), chunk_size=5)
    long = [c for c in chunks if c.text == fenced]
    assert len(long) == 1 and long[0].note  # whole, and flagged


def test_unclosed_fence_runs_to_the_end() -> None:
    text = "Intro.\n\n~~~\n# not a heading\n\n| a |\n|---|\n"
    chunks = chunks_of(Doc(text, []), chunk_size=40)
    assert [(c.text, c.heading_path) for c in chunks] == [
        ("Intro.\n\n~~~\n# not a heading\n\n| a |\n|---|", "")
    ]


def test_plain_text_is_one_section_packed_by_paragraphs() -> None:
    text = "First paragraph here.\n\nSecond one.\n\nThird paragraph, longer than the rest."
    assert [t for t, _p in texts_of(text, chunk_size=40)] == [
        "First paragraph here.\n\nSecond one.",
        "Third paragraph, longer than the rest.",
    ]


def test_oversized_paragraph_descends_to_sentences() -> None:
    text = "# S\n\nOne short sentence. Another sentence here. A third one."
    assert [t for t, _p in texts_of(text, chunk_size=25)] == [
        "# S",
        "One short sentence.",
        "Another sentence here.",
        "A third one.",
    ]


def test_no_blank_chunks_at_size_one() -> None:
    """At size 1 words fall back to single code points; the spaces between them are not
    chunks here (Recursive mode keeps them, as the guide and LangChain do)."""
    assert [t for t, _p in texts_of("ab\u00a0c d", chunk_size=1)] == ["a", "b", "c", "d"]


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000"])
@pytest.mark.parametrize("size", [1, 5])
def test_a_paragraph_of_unicode_spaces_is_no_block_and_no_chunk(space: str, size: int) -> None:
    """markdown-it reads a line of NBSP, em or ideographic spaces (not CommonMark
    whitespace) as a paragraph; trimmed it is empty, so it makes no (empty) chunk."""
    text = f"a\n\n{space}\n\nb"
    spans = analyse(text, Settings(mode="markdown", chunk_size=size, chunk_overlap=0)).spans
    assert [(s.start, s.end) for s in spans] == [(0, 1), (6, 7)]


def test_crlf_table_header_prefix() -> None:
    text = "| h | i |\r\n|---|---|\r\n| 1 | 2 |\r\n| 3 | 4 |\r\n"
    chunks = chunks_of(Doc(text, []), chunk_size=12)
    assert [c.text for c in chunks] == ["| h | i |\r\n|---|---|", "| 1 | 2 |", "| 3 | 4 |"]
    assert [c.prefix.splitlines() for c in chunks] == [
        [],
        ["| h | i |", "|---|---|"],
        ["| h | i |", "|---|---|"],
    ]


def test_requested_overlap_is_ignored_and_recorded_as_zero() -> None:
    text = "para one is here\n\npara two is here\n\npara three here"
    analysis = analyse(text, Settings(mode="markdown", chunk_size=20, chunk_overlap=15))
    assert [c.overlap for c in analysis.chunks] == [0, 0, 0]
    assert '"chunk_overlap":0' in to_jsonl(analysis)


# ------------------------------------------------------------------ the output budget


def deep_doc(paragraphs: int, title_length: int = 180) -> str:
    headings = "\n\n".join(
        f"{'#' * level} {chr(64 + level) * title_length}" for level in range(1, 7)
    )
    return headings + "\n\n" + "\n\n".join("a" for _ in range(paragraphs))


def test_output_budget_refuses_rather_than_truncates() -> None:
    """Many one-letter chunks under a six-level path of long titles (within the chunk
    limit): the prefixes alone exceed 32 times the text, so the result is refused whole,
    with a message."""
    text = deep_doc(100)
    settings = Settings(mode="markdown", chunk_size=1)
    analysis = analyse(text, settings)
    assert isinstance(analysis.error, ResultError)
    assert "output budget" in analysis.error.message
    assert analysis.spans == () and analysis.chunks == ()
    # the same text and size without breadcrumbs fits: only the prefixes were too much
    plain = analyse(text, settings.replace(breadcrumb=False))
    assert plain.error is None and plain.count == analysis.count
    total = sum(len(c.prefix) + c.length for c in plain.chunks)
    crumbs = sum(len(c.heading_path) + 2 for c in plain.chunks if c.heading_path)
    assert total + crumbs > output_budget(len(text))


def test_output_budget_accepts_a_result_just_within_it() -> None:
    text = deep_doc(40, title_length=20)
    analysis = analyse(text, Settings(mode="markdown", chunk_size=200))
    assert analysis.error is None
    total = sum(len(c.prefix) + c.length for c in analysis.chunks)
    assert total <= output_budget(len(text))


# ------------------------------------------------------------------ golden files

GOLDEN_SETTINGS = {
    "default": {"mode": "markdown", "chunk_size": 300},
    "level2-nocrumbs-800": {
        "mode": "markdown",
        "chunk_size": 800,
        "heading_level": 2,
        "breadcrumb": False,
    },
    "small-80": {"mode": "markdown", "chunk_size": 80},
}
GOLDEN_DOCS = ("markdown-it-py-README.md", "annotated-types-README.md")


def golden_jsonl(doc: str, name: str) -> str:
    text = (DATA / doc).read_text(encoding="utf-8")
    settings = Settings(source_name=doc, **GOLDEN_SETTINGS[name])  # type: ignore[arg-type]
    analysis = analyse(text, settings)
    assert analysis.error is None
    return to_jsonl(analysis)


@pytest.mark.parametrize("name", GOLDEN_SETTINGS)
@pytest.mark.parametrize("doc", GOLDEN_DOCS)
def test_golden_files(doc: str, name: str) -> None:
    """Regenerate with ``python tests/data/make_golden.py`` after an intended change."""
    expected = (DATA / "golden" / f"{doc}.{name}.jsonl").read_text(encoding="utf-8")
    actual = golden_jsonl(doc, name)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", lineterm="", n=1
        )
        pytest.fail("golden file differs:\n" + "\n".join(list(diff)[:60]))
