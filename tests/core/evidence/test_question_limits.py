"""The Evidence check's limits at their edges (docs/decisions.md "Evidence check", bad input 26):
a question's excerpts (1-20), its length (1-1 000 code points), questions a document
(200, lifted by --no-limits) and a questions file's bytes (2 000 000), each at N-1 and N
accepted, N+1 refused with the limit; and a question quoted in a message cut to its
display length (40 code points) exactly there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chunker_py import DocumentError
from chunker_py.engine.limits import (
    MAX_EXCERPTS,
    MAX_QUESTION_LENGTH,
    MAX_QUESTIONS,
    MAX_QUESTIONS_BYTES,
)
from chunker_py.io.questions import read_questions

EXCERPT = {"content": "Refunds take 14 days.", "start_index": 0, "end_index": 21}


def question(text: str = "How long?", excerpts: int = 1) -> dict[str, Any]:
    return {"question": text, "references": [EXCERPT] * excerpts}


def file_of(*questions: dict[str, Any]) -> str:
    return json.dumps(list(questions))


@pytest.mark.parametrize("excerpts", [1, MAX_EXCERPTS - 1, MAX_EXCERPTS])
def test_a_question_with_up_to_the_maximum_of_excerpts_is_read(excerpts: int) -> None:
    (read,) = read_questions(file_of(question(excerpts=excerpts)))
    assert len(read.excerpts) == excerpts


def test_one_excerpt_over_the_maximum_is_refused_with_the_limit() -> None:
    with pytest.raises(DocumentError, match=f"has {MAX_EXCERPTS + 1} excerpts; the limit is 20"):
        read_questions(file_of(question(excerpts=MAX_EXCERPTS + 1)))


def test_no_excerpt_is_refused() -> None:
    with pytest.raises(DocumentError, match="a list of 1 or more excerpts"):
        read_questions(file_of(question(excerpts=0)))


@pytest.mark.parametrize("length", [1, MAX_QUESTION_LENGTH - 1, MAX_QUESTION_LENGTH])
def test_a_question_up_to_the_maximum_length_is_read(length: int) -> None:
    (read,) = read_questions(file_of(question("q" * length)))
    assert len(read.text) == length


def test_a_question_one_code_point_over_the_maximum_is_refused_with_the_limit() -> None:
    with pytest.raises(DocumentError, match="has 1,001 code points; the limit is 1,000"):
        read_questions(file_of(question("q" * (MAX_QUESTION_LENGTH + 1))))


@pytest.mark.parametrize("count", [MAX_QUESTIONS - 1, MAX_QUESTIONS])
def test_up_to_the_maximum_of_questions_are_read(count: int) -> None:
    assert len(read_questions(file_of(*[question(f"Q{n}?") for n in range(count)]))) == count


def test_one_question_over_the_maximum_is_refused_and_lifted_without_limits() -> None:
    data = file_of(*[question(f"Q{n}?") for n in range(MAX_QUESTIONS + 1)])
    with pytest.raises(DocumentError, match=r"more than 200 questions .* the limit is 200"):
        read_questions(data)
    assert len(read_questions(data, max_questions=None)) == MAX_QUESTIONS + 1


def padded_file(size: int) -> bytes:
    """A valid questions file of exactly ``size`` bytes (spaces after the list)."""
    data = file_of(question()).encode()
    return data + b" " * (size - len(data))


@pytest.mark.parametrize("size", [MAX_QUESTIONS_BYTES - 1, MAX_QUESTIONS_BYTES])
def test_a_questions_file_up_to_the_byte_limit_is_read(size: int) -> None:
    data = padded_file(size)
    assert len(data) == size
    assert len(read_questions(data)) == 1


def test_a_questions_file_one_byte_over_the_limit_is_refused_with_its_size() -> None:
    with pytest.raises(DocumentError, match="2,000,001 bytes"):
        read_questions(padded_file(MAX_QUESTIONS_BYTES + 1))


def quoted(text: str) -> str:
    """The question as a message about it quotes it."""
    too_long = question(text, excerpts=MAX_EXCERPTS + 1)
    with pytest.raises(DocumentError) as refused:
        read_questions(file_of(too_long))
    return refused.value.message.split('(question "', 1)[1].split('")', 1)[0]


@pytest.mark.parametrize(
    ("length", "shown"),
    [(39, "a" * 39), (40, "a" * 40), (41, "a" * 39 + "…")],
)
def test_a_question_in_a_message_is_cut_to_40_code_points(length: int, shown: str) -> None:
    """Up to 40 code points a question is quoted whole; longer, its first 39 and "…",
    40 in all."""
    assert quoted("a" * length) == shown
