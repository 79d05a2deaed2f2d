"""Inline lists at their edges: a list needs two items numbered in sequence in one style
("1) … 2) …"); a single marker, or a first item whose next marker is of another kind,
starts no sentence."""

from __future__ import annotations

import pytest

from chunker_py import sentence_spans


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        "You need: 1) flour, and see b) below for more.",  # "1)" then a letter: no list
        "You need: 1) flour and nothing else, see part 3) of the guide.",  # 1 then 3
        "You need: a) flour and then 2) sugar for the cake.",  # a letter, then a digit
    ],
)
def test_a_single_item_starts_no_sentence(text: str) -> None:
    assert sentences(text) == [text]


def test_two_items_in_sequence_start_a_sentence_each() -> None:
    assert sentences("You need: 1) flour 2) sugar and 3) eggs.") == [
        "You need:",
        "1) flour",
        "2) sugar and",
        "3) eggs.",
    ]
