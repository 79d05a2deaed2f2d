"""Sentence mode: the sentence rules as a data table, and the packing as properties.

The table states, case by case, where sentences end in several scripts (docs/decisions.md "Sentence
mode"), including the documented German-ordinal limit. The properties build text from
sentences the generator knows, so chunk edges are checked against boundaries it wrote,
not against the mode's own splitter.
"""

# ruff: noqa: RUF001  (the table holds fullwidth and curly punctuation on purpose)

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from chunker_py import Chunk, Settings, analyse, sentence_spans

BUILT_IN = ()  # no user abbreviations


def split(text: str, abbreviations: tuple[str, ...] = BUILT_IN) -> list[str]:
    """Sentence texts as the mode finds them (its abbreviation setting included)."""
    spans = sentence_spans(text, abbreviations=abbreviations)
    return [text[a:b] for a, b in spans]


CASES = [
    # Latin
    (
        "Hello world. This is a test! Is it? Yes.",
        ["Hello world.", "This is a test!", "Is it?", "Yes."],
    ),
    ("lower. next words stay together", ["lower. next words stay together"]),
    ("It costs 5. 10 people came.", ["It costs 5.", "10 people came."]),
    ("Pi is 3.14 today. Good.", ["Pi is 3.14 today.", "Good."]),
    ("Wow!! Really?! Yes.", ["Wow!!", "Really?!", "Yes."]),
    ("No stop at the end", ["No stop at the end"]),
    ("Ends here.", ["Ends here."]),
    ("End.\u00a0Y after NBSP", ["End.", "Y after NBSP"]),
    (
        "First para\n\nsecond para no stop\r\n \r\nthird",
        ["First para", "second para no stop", "third"],
    ),
    (
        "line one\nstill the same sentence. New one.",
        ["line one\nstill the same sentence.", "New one."],
    ),
    # CJK: fullwidth terminators end a sentence unconditionally
    ("我爱你。你好！真的吗？好的．", ["我爱你。", "你好！", "真的吗？", "好的．"]),
    ("日本語です。 次の文です。", ["日本語です。", "次の文です。"]),
    # Devanagari
    ("यह एक वाक्य है। यह दूसरा है॥ तीसरा", ["यह एक वाक्य है।", "यह दूसरा है॥", "तीसरा"]),
    # Arabic and Urdu
    ("هذا سؤال؟ نعم. هذا جيد۔ تمام", ["هذا سؤال؟", "نعم.", "هذا جيد۔", "تمام"]),
    # Hebrew
    ("זה משפט. זה עוד משפט! ומה?", ["זה משפט.", "זה עוד משפט!", "ומה?"]),
    # Thai: a Latin dot before a caseless letter ends a sentence, and so does a space
    # between Thai letters (FluentChunker's known limit "Thai splits only at punctuation", lifted)
    ("ประโยคแรก. ประโยคที่สอง", ["ประโยคแรก.", "ประโยคที่สอง"]),
    ("ประโยคแรก ประโยคที่สอง", ["ประโยคแรก", "ประโยคที่สอง"]),
    # Spanish openers
    ("Hola. ¿Qué tal? ¡Bien! Adiós.", ["Hola.", "¿Qué tal?", "¡Bien!", "Adiós."]),
    # closing quotes and brackets stay with their sentence; openers start one
    (
        '"Stop." She left. He said "Go!" Then ran.',
        ['"Stop."', "She left.", 'He said "Go!"', "Then ran."],
    ),
    ("(It works.) Next one.", ["(It works.)", "Next one."]),
    (
        "Il a dit «Oui.» Puis il est parti. «Non», dit-elle.",
        ["Il a dit «Oui.»", "Puis il est parti.", "«Non», dit-elle."],
    ),
    ("Er sagte „Hallo.“ Dann ging er.", ["Er sagte „Hallo.“", "Dann ging er."]),
    ("Sie rief »Halt!« Alle blieben stehen.", ["Sie rief »Halt!«", "Alle blieben stehen."]),
    ("She said ‘no.’ Then left.", ["She said ‘no.’", "Then left."]),
    ("End. “Quoted start.” Next.", ["End.", "“Quoted start.”", "Next."]),
    ("「東京」に行きました。「はい」", ["「東京」に行きました。", "「はい」"]),
    # an ellipsis ends a sentence before a capital, not before a lower-case word (it was
    # never a terminator in the first sentence rules)
    ("Wait… What now? And then… nothing.", ["Wait…", "What now?", "And then… nothing."]),
    # built-in abbreviations (EN/DE/FR/ES), case-insensitive, dot optional in the list
    ("Dr. Smith met Mr. Jones. They talked.", ["Dr. Smith met Mr. Jones.", "They talked."]),
    ("See e.g. Fig. 3 and i.e. This one. Next.", ["See e.g. Fig. 3 and i.e. This one.", "Next."]),
    ("DR. Who arrived. Fine.", ["DR. Who arrived.", "Fine."]),
    ("Das ist z.B. Text bzw. Inhalt usw. Ende.", ["Das ist z.B. Text bzw. Inhalt usw. Ende."]),
    ("M. Dupont est là. Mme. Roy aussi. Oui.", ["M. Dupont est là.", "Mme. Roy aussi.", "Oui."]),
    ("La Sra. García llegó. Bien.", ["La Sra. García llegó.", "Bien."]),
    ("(Prof. Ng) spoke. Then.", ["(Prof. Ng) spoke.", "Then."]),
]

USER_CASES = [
    # user abbreviations, with and without their dot, any case
    ("Siehe Abb. Drei. Gut.", ("Abb.",), ["Siehe Abb. Drei.", "Gut."]),
    ("Siehe Abb. Drei. Gut.", ("abb",), ["Siehe Abb. Drei.", "Gut."]),
    ("Siehe Abb. Drei. Gut.", (), ["Siehe Abb.", "Drei.", "Gut."]),
    ("Vgl. Kap. 3 hier. Ende.", ("Kap.",), ["Vgl. Kap. 3 hier.", "Ende."]),
    ("Vgl. Kap. 3 hier. Ende.", (), ["Vgl. Kap.", "3 hier.", "Ende."]),
    ("Das ist sog. Unsinn. Ende.", ("sog.", "Vgl."), ["Das ist sog. Unsinn.", "Ende."]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_sentence_rules(text: str, expected: list[str]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize(("text", "abbreviations", "expected"), USER_CASES)
def test_user_abbreviations(text: str, abbreviations: tuple[str, ...], expected: list[str]) -> None:
    assert split(text, abbreviations) == expected


def test_german_ordinal_no_longer_ends_a_sentence() -> None:
    """FluentChunker's known limit, solved: "am 3. Oktober" is one sentence."""
    assert split("Wir treffen uns am 3. Oktober in Berlin.") == [
        "Wir treffen uns am 3. Oktober in Berlin."
    ]


def test_the_abbreviations_setting_reaches_the_mode() -> None:
    """Without "Abb." the first chunk ends after it; with it that sentence is too long for
    the size and falls back to windows, flagged."""
    text = "Sieh Abb. Zwei drei vier. Fünf."
    default = analyse(text, Settings(mode="sentence", chunk_size=16, chunk_overlap=0))
    assert [(c.text, c.note) for c in default.chunks] == [
        ("Sieh Abb.", ""),
        ("Zwei drei vier.", ""),
        ("Fünf.", ""),
    ]
    user = analyse(
        text, Settings(mode="sentence", chunk_size=16, chunk_overlap=0, abbreviations=("Abb.",))
    )
    assert user.chunks[0].note and user.chunks[-1].text == "Fünf."
    assert user.chunks[-1].note == ""


# ------------------------------------------------------------------ properties


@dataclass
class Doc:
    text: str
    sentences: list[tuple[int, int]]  # as the generator wrote them


OPENING = [
    "The",
    "Über",
    "Año",
    "日本語",
    "यह",
    "هذا",
    "זה",
    "ประโยค",
    "¿Qué",
    "¡Hola",
    "«Oui",
    "„Ja",
    '"Yes',
    "(Aside",
    "3 of",  # "3." alone would be a list marker, not a sentence
    "Dr. Who",
]
# A sentence that opens a quotation or a bracket closes it (a terminator inside an open
# one ends no sentence).
CLOSING = {"«": "»", "„": "“", '"': '"', "(": ")"}
MIDDLE = [
    "chunk",
    "retrieval",
    "naïve",
    "über",
    "of",
    "3.14",
    "met Dr. Smith",
    "the etc. list",
    "😀",
    "wait… then",
    "e\u0301",
    "an\u00a0item",
]
ENDING = [".", "!", "?", "?!", "...", "。", "！", "।", "؟", "!)", "?’"]
GAP = [" ", "  ", "\n", "\r\n", "\n\n", "\t", "\r\n\r\n", " \u2028 "]


@st.composite
def sentence_docs(draw: st.DrawFn) -> Doc:
    text = ""
    spans = []
    count = draw(st.integers(1, 12))
    for number in range(count):
        if number:
            text += draw(st.sampled_from(GAP))
        start = len(text)
        body = draw(st.lists(st.sampled_from(MIDDLE), max_size=8))
        opening = draw(st.sampled_from(OPENING))
        text += " ".join([opening, *body])
        last = number == count - 1
        text += draw(st.sampled_from(ENDING)) if not last or draw(st.booleans()) else ""
        text += CLOSING.get(opening[0], "")
        spans.append((start, len(text)))
    return Doc(text, spans)


def mode_chunks(doc: Doc, size: int, overlap: int) -> tuple[Chunk, ...]:
    settings = Settings(mode="sentence", chunk_size=size, chunk_overlap=overlap)
    analysis = analyse(doc.text, settings, max_chunks=None)
    assert analysis.error is None, analysis.error
    return analysis.chunks


@given(doc=sentence_docs())
def test_generated_sentences_are_found(doc: Doc) -> None:
    """The generator's sentences are the splitter's (the properties below rely on it)."""
    assert sentence_spans(doc.text) == doc.sentences


@given(doc=sentence_docs(), size=st.integers(1, 120), data=st.data())
def test_chunks_are_whole_sentences_unless_flagged(
    doc: Doc, size: int, data: st.DataObject
) -> None:
    overlap = data.draw(st.integers(0, size - 1), label="overlap")
    chunks = mode_chunks(doc, size, overlap)
    starts = {a for a, _b in doc.sentences}
    ends = {b for _a, b in doc.sentences}
    for chunk in chunks:
        if chunk.note:  # fallback: fixed windows inside one sentence longer than the size
            owner = [(a, b) for a, b in doc.sentences if a <= chunk.start and chunk.end <= b]
            assert owner and owner[0][1] - owner[0][0] > size
            assert chunk.length <= size
        else:
            assert chunk.start in starts and chunk.end in ends
            assert chunk.length <= size
    covered = set()
    for chunk in chunks:
        covered.update(range(chunk.start, chunk.end))
    assert all(i in covered for i, ch in enumerate(doc.text) if not ch.isspace())


@given(doc=sentence_docs(), size=st.integers(2, 120), data=st.data())
def test_overlap_is_whole_trailing_sentences_that_fit(
    doc: Doc, size: int, data: st.DataObject
) -> None:
    overlap = data.draw(st.integers(1, size - 1), label="overlap")
    chunks = mode_chunks(doc, size, overlap)
    starts = [a for a, _b in doc.sentences]
    ends = [b for _a, b in doc.sentences]
    pairs = [(p, c) for p, c in pairwise(chunks) if c.start < p.end and not p.note + c.note]
    assume(pairs)
    for previous, chunk in pairs:
        assert chunk.overlap == previous.end - chunk.start <= overlap
        assert chunk.start in starts and previous.end in ends
        assert chunk.start > previous.start  # progress: the first sentence is never carried


@given(doc=sentence_docs(), size=st.integers(2, 120), data=st.data())
def test_overlap_carries_as_many_sentences_as_fit(doc: Doc, size: int, data: st.DataObject) -> None:
    """The sentence before the first carried one (if it is not the previous chunk's
    first) would not have fitted in the overlap or left room for the next sentence."""
    overlap = data.draw(st.integers(1, size - 1), label="overlap")
    chunks = mode_chunks(doc, size, overlap)
    starts = [a for a, _b in doc.sentences]
    ends = [b for _a, b in doc.sentences]
    checked = 0
    for previous, chunk in pairwise(chunks):
        if previous.note or chunk.note:
            continue
        first = starts.index(chunk.start)
        if first == 0 or starts[first - 1] <= previous.start:
            continue
        if ends.index(previous.end) + 1 >= len(starts):
            continue
        following_end = ends[ends.index(previous.end) + 1]
        candidate = starts[first - 1]
        fits = previous.end - candidate <= overlap and following_end - candidate <= size
        checked += 1
        assert not fits, (previous.text, chunk.text)
    assume(checked)
