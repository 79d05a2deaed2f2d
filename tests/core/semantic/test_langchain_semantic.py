"""Semantic mode against LangChain's SemanticChunker (langchain-experimental), breakpoint for
breakpoint.

Both get the same sentences (SemanticChunker's sentence split is patched to return ours),
the same vectors (the hashed bag-of-words embedder, which gives LangChain's space-joined
windows and our verbatim ones the same vector) and the same distances (its cosine distance
is patched to the grid of ``scores.distance``, which the product uses so that both doors
decide alike; ``test_grid_distances_are_langchains_rounded`` checks they are its own
distances rounded). Then, while the maximum does not bind, our chunks are exactly its
groups of sentences, for every breakpoint type, amount, window and minimum size; while it
binds, every one of its breakpoints is still a cut of ours.

One documented difference: with exactly two sentences and the gradient type, LangChain's
guard returns each sentence alone; docs/decisions.md says no breakpoint (one chunk), as for one
sentence.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from chunker_py import Settings, split_spans
from chunker_py.embedding import scores
from chunker_py.pipeline.cache import text_index
from chunker_py.text.sentences import sentences

from ..hashed_embedder import HashedEmbedder, hashed_vector

text_splitter = pytest.importorskip("langchain_experimental.text_splitter")
pytestmark = pytest.mark.cpython_only  # Pyodide: no numpy or LangChain

DATA = Path(__file__).resolve().parents[2] / "data"
CHROMA = Path("/work/chroma-eval/data/corpora")
TYPES = ("percentile", "standard-deviation", "interquartile", "gradient")
MAX = 10_000


def grid_distances(items: list[dict]) -> tuple[list[float], list[dict]]:
    """LangChain's ``calculate_cosine_distances`` on the product's grid."""
    found = []
    for i in range(len(items) - 1):
        d = scores.distance(
            items[i]["combined_sentence_embedding"], items[i + 1]["combined_sentence_embedding"]
        )
        found.append(d)
        items[i]["distance_to_next"] = d
    return found, items


@pytest.fixture(autouse=True)
def _grid(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(text_splitter, "calculate_cosine_distances", grid_distances)
    yield


def units_of(text: str) -> list[tuple[int, int]]:
    return sentences(text_index(text), ())


def langchain_groups(
    text: str, kind: str, amount: float | None, window: int, min_size: int
) -> list[tuple[int, int]]:
    """SemanticChunker's groups as sentence ranges ``[first, stop)``."""
    units = units_of(text)
    listed = [text[a:b] for a, b in units]
    chunker = text_splitter.SemanticChunker(
        HashedEmbedder(),
        buffer_size=window,
        breakpoint_threshold_type=kind.replace("-", "_"),
        breakpoint_threshold_amount=amount,
        min_chunk_size=min_size or None,
    )
    chunker._get_single_sentences_list = lambda _text: listed  # type: ignore[method-assign]
    out, first = [], 0
    for chunk in chunker.split_text(text):
        stop = first + 1
        while " ".join(listed[first:stop]) != chunk:
            stop += 1
            assert stop <= len(listed)
        out.append((first, stop))
        first = stop
    assert first == len(listed)
    return out


def our_spans(text: str, kind: str, amount: float | None, window: int, min_size: int, size: int):
    settings = Settings(
        mode="semantic",
        chunk_size=size,
        breakpoint=kind,
        breakpoint_amount=amount,
        sentence_window=window,
        min_size=min_size,
    )
    return [(s.start, s.end) for s in split_spans(text, settings)]


def as_spans(text: str, groups: list[tuple[int, int]]) -> list[tuple[int, int]]:
    units = units_of(text)
    return [(units[a][0], units[b - 1][1]) for a, b in groups]


def assert_same_as_langchain(
    text: str, kind: str, amount: float | None, window: int, min_size: int = 0
) -> None:
    units = units_of(text)
    if not units:  # LangChain returns the blank text as one chunk; no sentence, no chunk
        assert our_spans(text, kind, amount, window, min_size, MAX) == []
        return
    expected = langchain_groups(text, kind, amount, window, min_size)
    if kind == "gradient" and len(units) == 2:  # the documented difference
        assert expected == [(0, 1), (1, 2)]
        expected = [(0, 2)]
    theirs = as_spans(text, expected)
    ours = our_spans(text, kind, amount, window, min_size, MAX)
    if all(b - a <= MAX for a, b in theirs):
        assert ours == theirs
    else:  # the maximum binds (a long document): each of its cuts is kept, and more made
        assert all(b - a <= MAX for a, b in ours)
        assert set(theirs) - set(ours) or len(ours) > len(theirs)
        assert {b for _a, b in theirs} <= {b for _a, b in ours}


# ------------------------------------------------------------------------------ strategies
TOPICS = [
    ["apple", "pear", "plum", "fig", "grape"],
    ["engine", "gear", "bolt", "valve", "piston"],
    ["river", "lake", "rain", "cloud", "snow"],
    ["😀", "e\u0301", "\ufeffword", "naïve", "x\u00a0y"],
]
GAPS = [" ", "  ", "\n", "\n\n", "\r\n", "\r\n\r\n", " \u00a0", "\t"]


@st.composite
def sentence_texts(draw: st.DrawFn, single_spaces: bool = False) -> str:
    """Sentences of a few topics' words, each "Word word word." with its own ending."""
    out = []
    for _ in range(draw(st.integers(1, 14))):
        topic = TOPICS[draw(st.integers(0, len(TOPICS) - 1))]
        words = draw(st.lists(st.sampled_from(topic), min_size=1, max_size=6))
        words[0] = words[0][:1].upper() + words[0][1:]
        out.append(" ".join(words) + draw(st.sampled_from([".", "!", "?", "."])))
    if single_spaces:
        return " ".join(out)
    gaps = [draw(st.sampled_from(GAPS)) for _ in out]
    return "".join(s + g for s, g in zip(out, gaps, strict=True)).rstrip(" \n\r\t\u00a0")


amounts = {
    "percentile": st.one_of(st.none(), st.sampled_from([0.0, 25.0, 50.0, 90.0, 100.0])),
    "standard-deviation": st.one_of(st.none(), st.sampled_from([0.0, 0.5, 1.0, 2.0])),
    "interquartile": st.one_of(st.none(), st.sampled_from([0.0, 0.5, 1.0, 3.0])),
    "gradient": st.one_of(st.none(), st.sampled_from([0.0, 50.0, 80.0, 100.0])),
}


@st.composite
def kinds_and_amounts(draw: st.DrawFn) -> tuple[str, float | None]:
    kind = draw(st.sampled_from(TYPES))
    return kind, draw(amounts[kind])


# ------------------------------------------------------------------------------ the tests
@given(text=sentence_texts(), chosen=kinds_and_amounts(), window=st.integers(0, 5))
@example(text="One sentence only.", chosen=("percentile", None), window=1)
@example(text="Same words. Same words. Same words. Same words.", chosen=("gradient", None),
         window=0)  # fmt: skip
def test_breakpoints_equal_langchains_while_the_maximum_does_not_bind(
    text: str, chosen: tuple[str, float | None], window: int
) -> None:
    assert_same_as_langchain(text, *chosen, window)


@given(
    text=sentence_texts(single_spaces=True),
    chosen=kinds_and_amounts(),
    window=st.integers(0, 3),
    min_size=st.integers(0, 120),
)
def test_a_minimum_size_skips_the_breakpoints_langchain_skips(
    text: str, chosen: tuple[str, float | None], window: int, min_size: int
) -> None:
    """Single spaces between sentences, so LangChain's joined length is the verbatim one."""
    assert_same_as_langchain(text, *chosen, window, min_size)


def real_texts() -> list[tuple[str, str]]:
    texts = [("user_guide", (DATA / "user_guide.txt").read_text(encoding="utf-8"))]
    for path in sorted(CHROMA.glob("*.md")) if CHROMA.is_dir() else []:
        texts.append((path.stem, path.read_text(encoding="utf-8")[:20_000]))
    return texts


@pytest.mark.parametrize(("name", "text"), real_texts(), ids=[n for n, _t in real_texts()])
@pytest.mark.parametrize("kind", TYPES)
def test_breakpoints_equal_langchains_on_real_documents(name: str, text: str, kind: str) -> None:
    for window in (0, 1, 3):
        assert_same_as_langchain(text, kind, None, window)
    assert_same_as_langchain(text, kind, 50.0 if kind in ("percentile", "gradient") else 1.0, 1)


def test_minimum_size_on_a_real_document_with_single_spaces() -> None:
    """The sample's sentences joined by single spaces (so lengths agree with LangChain's)."""
    guide = (DATA / "user_guide.txt").read_text(encoding="utf-8")
    text = " ".join(guide[a:b] for a, b in units_of(guide))
    units = units_of(text)
    assert len(units) > 50
    assert all(text[b:c] == " " for (_a, b), (c, _d) in itertools.pairwise(units))
    for kind in TYPES:
        for min_size in (50, 300, 1000):
            assert_same_as_langchain(text, kind, None, 1, min_size)


@given(
    text=sentence_texts(),
    chosen=kinds_and_amounts(),
    window=st.integers(0, 3),
    size=st.integers(1, 80),
)
@example(text="Apple pear. Engine gear. River lake.", chosen=("percentile", 0.0), window=0,
         size=1)  # fmt: skip
def test_with_the_maximum_binding_every_langchain_breakpoint_is_kept(
    text: str, chosen: tuple[str, float | None], window: int, size: int
) -> None:
    units = units_of(text)
    assume(units)
    kind, amount = chosen
    chunks = our_spans(text, kind, amount, window, 0, size)
    # within the size, except the flagged windows of a sentence alone over it (code points:
    # those windows are within it too)
    assert all(0 < end - start <= size for start, end in chunks)
    assert all(text[a:b] == text[a:b].strip() or not text[a:b].strip() for a, b in chunks)
    # in order, disjoint, covering every sentence (a window of white space alone is dropped,
    # as every chunk's edges are trimmed)
    assert all(b <= c for (_a, b), (c, _d) in itertools.pairwise(chunks))
    covered = {p for s, e in chunks for p in range(s, e)}
    assert all(p in covered for a, b in units for p in range(a, b) if not text[p].isspace())
    groups = langchain_groups(text, kind, amount, window, 0)
    if kind == "gradient" and len(units) == 2:
        groups = [(0, 2)]
    ends = {end for _start, end in chunks}
    starts = {start for start, _end in chunks}
    for _first, stop in groups[:-1]:
        assert units[stop - 1][1] in ends and units[stop][0] in starts


def test_grid_distances_are_langchains_rounded() -> None:
    """The grid distance is LangChain's own 1 - cosine of the same vectors, rounded to four
    decimals (its unpatched cosine, from langchain_community)."""
    from langchain_community.utils.math import cosine_similarity

    guide = (DATA / "user_guide.txt").read_text(encoding="utf-8")
    units = units_of(guide)
    vectors = [hashed_vector(guide[a:b]) for a, b in units]
    for u, v in itertools.pairwise(vectors):
        theirs = 1 - float(cosine_similarity([list(u)], [list(v)])[0][0])
        assert math.isclose(scores.distance(u, v), theirs, abs_tol=0.5e-4 + 1e-9)
