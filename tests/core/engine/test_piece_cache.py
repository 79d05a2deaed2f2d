"""The recursive splitter's piece cache (a keystroke's speed) never changes a result.

A long piece's chunks are kept by its text and settings and replayed at its new offset
after an edit. Each example fills the cache with one text under several settings of every
mode (so entries made by one mode, size, overlap, edge policy, separator list or size unit
sit in the cache when another asks), edits the text the way typing does, and compares
every split with a split made from an empty cache.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunker_py import Settings, analyse
from chunker_py.engine import separators

from ..conftest import settings_strategy, texts


def records(text: str, settings: Settings) -> tuple[object, ...]:
    result = analyse(text, settings, max_chunks=None)
    return (result.count, result.spans, result.error and result.error.message)


def cold(text: str, settings: Settings) -> tuple[object, ...]:
    separators._PIECE_CHUNKS.clear()
    return records(text, settings)


@st.composite
def edits(draw: st.DrawFn, text: str) -> str:
    """``text`` after one keystroke-sized edit: an insertion, a deletion or a replacement."""
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["insert", "delete", "replace"]))
    piece = draw(st.sampled_from(["a", " ", "\n", "\n\n", "😀", "word ", "."]))
    if kind == "insert" or not text:
        return text[:at] + piece + text[at:]
    stop = min(len(text), at + draw(st.integers(1, 3)))
    return text[:at] + (piece if kind == "replace" else "") + text[stop:]


def variants(base: Settings) -> list[Settings]:
    """``base`` and settings differing from it in one thing that shapes a long piece's
    chunks: the same pieces then meet cache entries made under the other value."""
    return [
        base,
        base.replace(edges="preserve" if base.edges == "trim" else "trim"),
        base.replace(chunk_overlap=0 if base.chunk_overlap else base.chunk_size // 2),
        base.replace(chunk_size=base.chunk_size + 1),
        base.replace(separators=(" ", "\n", "")),
        base.replace(separators=("\n", " ")),
        base.replace(mode="markdown"),  # paragraphs split at words, blank pieces dropped
        base.replace(size_unit="code-points" if base.size_unit == "tokens" else "tokens"),
        base.replace(tokenizer="words" if base.tokenizer != "words" else "cl100k_base"),
    ]


@given(
    data=st.data(),
    text=texts.map(lambda t: t * 3),
    base=settings_strategy(modes=("recursive",), max_size=12),
)
def test_warm_splits_equal_cold_splits_before_and_after_an_edit(
    data: st.DataObject, text: str, base: Settings
) -> None:
    choices = variants(base.replace(preset="generic"))
    expected = {i: cold(text, s) for i, s in enumerate(choices)}
    edited = data.draw(edits(text))
    expected_edited = {i: cold(edited, s) for i, s in enumerate(choices)}
    separators._PIECE_CHUNKS.clear()
    for _round in range(2):  # the second round is served from the cache the first filled
        for i, settings in enumerate(choices):
            assert records(text, settings) == expected[i]
            assert records(edited, settings) == expected_edited[i]


def test_the_cache_is_used_and_bounded() -> None:
    """An edit in the last paragraph replays the others (a positive control that the
    cache is filled at all), and the cache empties itself when full."""
    text = "".join(f"Paragraph {i} has a few words in it.\n\n" for i in range(50))
    settings = Settings(chunk_size=14, chunk_overlap=0)
    separators._PIECE_CHUNKS.clear()
    records(text, settings)
    filled = len(separators._PIECE_CHUNKS)
    assert filled >= 50
    records(text + "More", settings)
    assert len(separators._PIECE_CHUNKS) == filled  # nothing new: "More" is short
    old_max = separators._PIECE_CHUNKS_MAX
    try:
        separators._PIECE_CHUNKS_MAX = 10
        other = text.replace("Paragraph", "Section")  # 50 pieces the cache has not seen
        records(other, settings)
        assert len(separators._PIECE_CHUNKS) <= 10
        assert records(other, settings) == cold(other, settings)
    finally:
        separators._PIECE_CHUNKS_MAX = old_max
