"""Properties of the sentence boundaries on any text, and of what stands on them.

Sentences are disjoint, ordered, inside the requested range and never start or end with
white space, for any text (Hypothesis, with the characters the rules look at made
likely); Sentence mode without fallback never ends a chunk inside a sentence; the damage
figures agree with Sentence mode's chunks (no chunk that fits ends mid-sentence).
"""

# ruff: noqa: RUF001  (the alphabet holds look-alike characters on purpose)

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py import Settings, analyse, sentence_spans
from chunker_py.text.sentence_language import LANGUAGES

# The characters the rules look at, plus some of every script and edge cases of the
# house (CRLF, NBSP, U+FEFF, emoji, combining marks, astral letters).
ALPHABET = st.sampled_from(
    [
        *"aZ 09.!?…;:,'\"()[]«»„“”‘’「」『』《》（）【】。！？．।॥؟۔։።፧။។\n\r\t•-*",
        *["\u00a0", "\ufeff", "😀", "e\u0301", "𝐀", "𠀀", "ß", "İ", "Ω", ";", "ก", "ข", "ي"],
        *["Dr.", "No.", "St.", "U.S.", "e.g.", "3.", "a)", "1.", "...", ". . .", "\n\n", "The"],
    ]
)
TEXTS = st.lists(ALPHABET, max_size=60).map("".join)


def check_spans(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    previous = start
    for a, b in spans:
        assert previous <= a < b <= end, (spans, start, end)
        assert not text[a].isspace() and not text[b - 1].isspace(), (text[a:b],)
        previous = b
    # nothing but white space is left out
    covered = set()
    for a, b in spans:
        covered.update(range(a, b))
    assert all(text[i].isspace() for i in range(start, end) if i not in covered)


@given(text=TEXTS, language=st.sampled_from(sorted(LANGUAGES)))
@example(text="\ufeffA. B", language="auto")
@example(text=". . . .", language="en")
@example(text="1.", language="auto")
@example(text="a\r\n\r\nb", language="auto")
def test_sentences_are_disjoint_ordered_trimmed_ranges(text: str, language: str) -> None:
    check_spans(text, 0, len(text), sentence_spans(text, language=language))


@given(text=TEXTS, data=st.data())
def test_a_range_gives_ranges_inside_it(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)), label="start")
    end = data.draw(st.integers(start, len(text)), label="end")
    check_spans(text, start, end, sentence_spans(text, start, end))


@given(text=TEXTS, abbreviations=st.lists(st.sampled_from(["Dr", "no.", "Abb.", "z"]), max_size=3))
def test_user_abbreviations_only_remove_boundaries(text: str, abbreviations: list[str]) -> None:
    """An abbreviation of one's own never adds a sentence end (at most it joins two)."""
    plain = {b for _a, b in sentence_spans(text, language="en")}
    joined = {b for _a, b in sentence_spans(text, abbreviations=abbreviations, language="en")}
    assert joined - plain <= {len(text.rstrip())} | plain


WORDS = st.sampled_from(
    ["The", "cat", "sat.", "Dr.", "Smith", "left!", "Why?", "No.", "5", "…", "U.S.", "St.",
     "„Ja.“", "(see", "above.)", "我爱你。", "यह।", "\n", "\n\n", "1.", "a)"]
)  # fmt: skip


@given(
    words=st.lists(WORDS, min_size=1, max_size=40),
    size=st.integers(20, 200),
    data=st.data(),
)
def test_sentence_mode_ends_chunks_only_at_sentence_ends(
    words: list[str], size: int, data: st.DataObject
) -> None:
    """Without the fallback (no sentence longer than the size), every chunk starts at a
    sentence start and ends at a sentence end, and the damage figures count no chunk
    as ending or starting mid-sentence."""
    text = " ".join(["The", *words])
    sentences = sentence_spans(text)
    if any(b - a > size for a, b in sentences):
        return  # the fallback applies; tested in test_sentence_mode
    overlap = data.draw(st.integers(0, size // 2), label="overlap")
    settings = Settings(mode="sentence", chunk_size=size, chunk_overlap=overlap)
    result = analyse(text, settings, max_chunks=None)
    assert result.error is None
    starts = {a for a, _b in sentences}
    ends = {b for _a, b in sentences}
    damage = result.damage
    assert damage is not None
    for chunk, figures in zip(result.chunks, damage.chunks, strict=True):
        assert not chunk.note
        assert chunk.start in starts and chunk.end in ends
        assert not figures.ends_mid_sentence and not figures.starts_mid_sentence
