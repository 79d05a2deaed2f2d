"""``transform_owners``: which source character each normalized character comes from, as
HF's ``NormalizedString::transform`` aligns them (0 keeps, +1 inserts, -N removes N)."""

from __future__ import annotations

from chunker_py.tokenizers.hf.tables import transform_owners


def test_kept_characters_keep_their_owners() -> None:
    assert transform_owners([4, 5, 6], [0, 0, 0]) == [4, 5, 6]


def test_an_insertion_takes_the_previous_characters_owner() -> None:
    assert transform_owners([4, 5, 6], [0, 1, 0, 0]) == [4, 4, 5, 6]


def test_an_insertion_before_every_character_is_owned_by_none() -> None:
    """Nothing comes before it: -1, not the last character's owner."""
    assert transform_owners([4, 5, 6], [1, 0, 0, 0]) == [-1, 4, 5, 6]


def test_a_removal_takes_the_next_owner_and_skips_the_removed_characters() -> None:
    assert transform_owners([4, 5, 6, 7, 8], [0, -2, 0]) == [4, 5, 8]
