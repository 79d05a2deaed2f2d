"""Differential tests against pySBD and sentencex (CPython only: sentencex is a native
extension, and neither runs in the page).

- Real text: the repository's documents, paragraph by paragraph (both references treat
  a blank line differently from each other; ours always ends a sentence there). Every
  disagreement was looked at: the ones where ours is right are kept below as cases, the
  rates have floors a real regression would break.
- Generated prose (Hypothesis): sentences built from words, numbers, abbreviations before
  names, e-mail addresses, quotations and ``?!`` runs that both references read the same
  way; ours must find exactly their sentences.
"""

from __future__ import annotations

import re
from pathlib import Path

import pysbd
import pytest
import sentencex
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py import sentence_spans

pytestmark = pytest.mark.cpython_only  # Pyodide: the reference segmenters are native

ROOT = Path(__file__).resolve().parents[3]
PYSBD = pysbd.Segmenter(language="en", clean=False, char_span=True)


def ours(text: str) -> set[int]:
    return {b for _a, b in sentence_spans(text, language="en")}


def pysbd_ends(text: str) -> set[int]:
    found = set()
    for span in PYSBD.segment(text):
        end = span.end
        while end > span.start and text[end - 1].isspace():
            end -= 1
        if end > span.start:
            found.add(end)
    return found


def sentencex_ends(text: str) -> set[int]:
    found, position = set(), 0
    for piece in sentencex.segment("en", text):
        at = text.find(piece, position)
        assert at >= 0, piece
        if piece.strip():
            found.add(at + len(piece.rstrip()))
        position = at + len(piece)
    return found


def paragraphs(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return [p.strip() for p in re.split(r"\n[^\S\n]*\n", text) if p.strip()]


def agreement(texts: list[str], reference: object) -> float:
    common = union = 0
    for text in texts:
        mine, theirs = ours(text), reference(text)  # type: ignore[operator]
        common += len(mine & theirs)
        union += len(mine | theirs)
    return common / union if union else 1.0


DOCUMENTS = [
    # (document, floor of agreement with pySBD, with sentencex), measured (0.99 and 0.86
    # on the guide, 1.0 and 1.0 on the sample) then lowered a little: below the floor a
    # change has moved many boundaries at once. sentencex keeps a paragraph that holds a
    # list as one sentence per item, so it misses the sentences inside items.
    ("tests/data/user_guide.txt", 0.97, 0.82),
    ("static/sample.txt", 0.97, 0.95),
]


@pytest.mark.parametrize(("name", "pysbd_floor", "sentencex_floor"), DOCUMENTS)
def test_agreement_on_the_repository_documents(
    name: str, pysbd_floor: float, sentencex_floor: float
) -> None:
    texts = paragraphs(ROOT / name)
    assert agreement(texts, pysbd_ends) >= pysbd_floor
    assert agreement(texts, sentencex_ends) >= sentencex_floor


# Disagreements found on the documents where ours is right (kept as cases).
OURS_RIGHT = [
    # sentencex keeps the sentences of a list item together
    (
        "3. Set Chunk size and a smaller Requested overlap. The initial values are 300.\n"
        "4. Choose Chunk edges. Keep Trim edge whitespace.",
        [
            "3. Set Chunk size and a smaller Requested overlap.",
            "The initial values are 300.",
            "4. Choose Chunk edges.",
            "Keep Trim edge whitespace.",
        ],
    ),
    # pySBD ends a sentence before a comma after "codes."
    (
        "Both cases use Reset password. Keep backup codes., which contains 34 code points.",
        ["Both cases use Reset password.", "Keep backup codes., which contains 34 code points."],
    ),
]


@pytest.mark.parametrize(("text", "expected"), OURS_RIGHT)
def test_where_the_references_were_wrong(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text)] == expected


FIRST = st.sampled_from(["The", "A", "This", "She", "We", "It", "Dr. Smith", "Mr. Jones"])
WORD = st.sampled_from(
    ["cat", "house", "model", "retrieval", "3.14", "$100.00", "1,000", "e-mail",
     "jane.doe@example.com", "www.example.com", "config.yaml", "Paris", "Dr. Watson",
     "Mrs. Brown", "p. 55", "U.S.A. today", "(in brackets)", "'quoted'", "and", "of"]
)  # fmt: skip
END = st.sampled_from([".", "!", "?", "?!", "!!"])


@st.composite
def prose(draw: st.DrawFn) -> str:
    sentences = []
    for _ in range(draw(st.integers(1, 8))):
        words = draw(st.lists(WORD, min_size=1, max_size=10))
        sentences.append(" ".join([draw(FIRST), *words]) + draw(END))
    return " ".join(sentences)


@settings(max_examples=60, deadline=None)
@given(text=prose())
def test_generated_prose_matches_both_references(text: str) -> None:
    assert ours(text) == pysbd_ends(text) == sentencex_ends(text)
