"""Semantic mode on its own: exact records, the hard maximum's cuts, LangChain's guards,
the edge cases of the rules (one sentence, identical sentences, CRLF, emoji, NBSP, U+FEFF,
size 1) and the model's absence (``EmbeddingsPending``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import Settings, analyse, compare, split_spans
from chunker_py.embedding import supply
from chunker_py.embedding.supply import EmbeddingsPending, use_embedder
from chunker_py.modes import semantic
from chunker_py.pipeline.cache import text_index
from chunker_py.text.sentences import sentences

from ..conftest import any_text
from ..hashed_embedder import HashedEmbedder

TYPES = ("percentile", "standard-deviation", "interquartile", "gradient")


def chunks(text: str, **options: object) -> list[str]:
    settings = Settings(mode="semantic", **options)  # type: ignore[arg-type]
    return [text[s.start : s.end] for s in split_spans(text, settings)]


class TableEmbedder:
    """Vectors chosen per window text (unit vectors on two axes: cosine = their dot)."""

    def __init__(self, table: dict[str, tuple[float, ...]]) -> None:
        self.table = table

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [self.table[t] for t in texts]


@pytest.fixture
def embedder_of() -> Iterator[object]:
    previous = supply.current_embedder()

    def install(embedder: object) -> None:
        use_embedder(embedder)  # type: ignore[arg-type]

    yield install
    use_embedder(previous)


def at(angle_degrees: float) -> tuple[float, float]:
    r = math.radians(angle_degrees)
    return (math.cos(r), math.sin(r))


@given(text=any_text, kind=st.sampled_from(TYPES), size=st.integers(1, 60),
       window=st.integers(0, 5), min_size=st.integers(0, 30))  # fmt: skip
@example(text="\ufeffA.\r\nB 😀.\u00a0C.", kind="percentile", size=1, window=1, min_size=0)
def test_chunks_are_verbatim_ordered_within_the_size_and_never_overlap(
    text: str, kind: str, size: int, window: int, min_size: int
) -> None:
    settings = Settings(
        mode="semantic", chunk_size=size, breakpoint=kind, sentence_window=window,
        min_size=min_size,
    )  # fmt: skip
    result = analyse(text, settings, max_chunks=None)
    for chunk in result.chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert 0 < chunk.end - chunk.start <= size
        assert chunk.overlap == 0
    spans = result.spans
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    units = sentences(text_index(text), ())
    covered = {p for s in spans for p in range(s.start, s.end)}
    assert all(p in covered for a, b in units for p in range(a, b) if not text[p].isspace())


def test_one_sentence_is_one_chunk_and_needs_no_model(no_embedder: None) -> None:
    for kind in TYPES:
        assert chunks("Only one sentence here.", breakpoint=kind) == ["Only one sentence here."]


def test_two_sentences_with_gradient_need_no_model_and_give_one_chunk(no_embedder: None) -> None:
    text = "First one.  Second one."
    assert chunks(text, breakpoint="gradient") == [text]
    # over the size: the one place to cut, without vectors
    assert chunks(text, breakpoint="gradient", chunk_size=12) == ["First one.", "Second one."]


def test_identical_sentences_have_distance_zero_and_no_breakpoint() -> None:
    text = " ".join(["The same words again."] * 12)
    found = semantic.profile(text_index(text), semantic.Options(sentence_window=0))
    assert set(found.distances) == {0.0}
    for kind in TYPES:
        assert chunks(text, breakpoint=kind, sentence_window=0, chunk_size=10_000) == [text]


def test_a_group_over_the_size_is_cut_at_its_largest_distance_ties_to_the_earlier(
    embedder_of,
) -> None:
    """Sentences A..E with distances 0.5, 0.9, 0.9, 0.2 between windows (w = 0): the
    threshold (percentile 100) makes no breakpoint; size 10 forces cuts: first after B (the
    earlier of the two 0.9s), then after C; size 15 only the first (the later 0.9 would
    have given "Aa. Bb. Cc." and "Dd. Ee.")."""
    text = "Aa. Bb. Cc. Dd. Ee."
    angles, turn = [0.0], 0.0
    for d in (0.5, 0.9, 0.9, 0.2):
        turn += math.degrees(math.acos(1 - d))
        angles.append(turn)
    embedder_of(TableEmbedder({s: at(a) for s, a in zip(text.split(" "), angles, strict=True)}))
    found = semantic.profile(text_index(text), semantic.Options(sentence_window=0))
    assert found.distances == (0.5, 0.9, 0.9, 0.2)
    common = {"sentence_window": 0, "breakpoint_amount": 100.0}
    assert chunks(text, chunk_size=10_000, **common) == [text]
    assert chunks(text, chunk_size=10, **common) == ["Aa. Bb.", "Cc.", "Dd. Ee."]
    assert chunks(text, chunk_size=15, **common) == ["Aa. Bb.", "Cc. Dd. Ee."]


def test_a_sentence_alone_over_the_size_becomes_flagged_windows() -> None:
    text = "Tiny. " + "Longsentence" * 3 + "."
    result = analyse(text, Settings(mode="semantic", chunk_size=10))
    assert [c.text for c in result.chunks] == ["Tiny.", "Longsenten", "ceLongsent", "enceLongse",
                                               "ntence."]  # fmt: skip
    assert result.spans[0].meta is None
    assert all(s.meta == semantic.FALLBACK for s in result.spans[1:])


def test_each_window_text_is_embedded_once_and_a_resplit_reuses_the_distances(
    embedder_of,
) -> None:
    counting = HashedEmbedder()
    embedder_of(counting)
    text = "Apple pear. Apple pear. Engine gear. River lake. Rain snow."
    chunks(text, sentence_window=0)
    assert sorted(counting.asked) == sorted(set(counting.asked))
    assert len(counting.asked) == 4
    chunks(text, sentence_window=0, chunk_size=20, breakpoint="gradient")
    assert len(counting.asked) == 4


def test_without_the_model_the_mode_waits_and_names_the_windows(no_embedder: None) -> None:
    text = "Apple pear. Engine gear. River lake."
    with pytest.raises(EmbeddingsPending) as waiting:
        analyse(text, Settings(mode="semantic", sentence_window=0))
    assert waiting.value.texts == ("Apple pear.", "Engine gear.", "River lake.")
    assert "waiting for the embedding model" in waiting.value.message
    rows = compare(text, Settings(chunk_size=100, chunk_overlap=10))
    semantic_row = rows[-1]
    assert semantic_row.key == "semantic" and semantic_row.error == waiting.value.message
    assert all(row.error is None for row in rows[:-1])


def test_the_size_unit_bounds_chunks_in_tokens() -> None:
    text = " ".join(f"Sentence number {i} talks about topic {i % 3}." for i in range(30))
    settings = Settings(mode="semantic", chunk_size=20, size_unit="tokens", tokenizer="words")
    result = analyse(text, settings)
    assert len(result.chunks) > 1
    assert max(result.tokens) <= 20


@pytest.mark.parametrize("raw", ["", "95", "1.5", "0", "100", ".5", 3, 2.5])
def test_breakpoint_amounts_read(raw: object) -> None:
    settings = Settings(mode="semantic", breakpoint_amount=raw)
    assert settings.options().amount == (95.0 if raw == "" else float(raw))  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["-1", "100.5", "1e2", "abc", "nan", True, " 9 9"])
def test_bad_breakpoint_amounts_are_refused_with_the_field_named(raw: object) -> None:
    from chunker_py import SettingError

    with pytest.raises(SettingError) as refused:
        Settings(mode="semantic", breakpoint_amount=raw)
    assert refused.value.field == "breakpoint_amount"
    assert "Breakpoint amount must be a number from 0 to 100" in refused.value.message
