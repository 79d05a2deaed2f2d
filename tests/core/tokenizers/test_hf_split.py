"""``split_piece``: HF's ``NormalizedString::split`` drops the empty pieces a split leaves
(a zero-width match, an empty text), whatever the behaviour."""

from __future__ import annotations

import pytest

from chunker_py.tokenizers.hf.pre_tokenizers import split_piece

BEHAVIOURS = ["isolated", "removed", "contiguous", "merged_with_previous", "merged_with_next"]


@pytest.mark.parametrize("behaviour", BEHAVIOURS)
def test_an_empty_text_splits_into_no_piece(behaviour: str) -> None:
    assert split_piece(("", [], 0), [(0, 0, False)], behaviour) == []
    assert split_piece(("", None, 0), [(0, 0, True)], behaviour) == []


def test_a_zero_width_match_leaves_no_empty_piece() -> None:
    piece = ("ab", [3, 4], 3)
    matches = [(0, 0, True), (0, 2, False), (2, 2, True)]
    assert split_piece(piece, matches, "isolated") == [("ab", [3, 4], 3)]


def test_isolated_matches_are_pieces_of_their_own() -> None:
    piece = ("a-b", None, 0)
    matches = [(0, 1, False), (1, 2, True), (2, 3, False)]
    assert [p[0] for p in split_piece(piece, matches, "isolated")] == ["a", "-", "b"]
    assert [p[0] for p in split_piece(piece, matches, "removed")] == ["a", "b"]
