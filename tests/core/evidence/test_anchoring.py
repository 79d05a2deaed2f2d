"""Excerpts are anchored by exact content and follow their text through edits (docs/decisions.md
"Evidence check", bad input 28): never dropped, never moved silently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py.measures.evidence import (
    Excerpt,
    Question,
    anchor,
    check_evidence,
    edit_between,
    follow_edit,
    locate,
)

TEXT = "Refunds take 14 days. Gift cards are never refunded. Refunds take 14 days."
RULE = "Refunds take 14 days."
SECOND = TEXT.rindex(RULE)


def q(start: int, content: str = RULE) -> Question:
    return Question("How long do refunds take?", (Excerpt(content, start, start + len(content)),))


def test_offsets_holding_their_content_are_used_as_is() -> None:
    (p,) = anchor(TEXT, q(SECOND))
    assert (p.start, p.found, p.moved) == (SECOND, True, False)


def test_wrong_offsets_find_the_occurrence_nearest_them() -> None:
    (p,) = anchor(TEXT, q(SECOND - 3))
    assert (p.start, p.found, p.moved) == (SECOND, True, True)
    (p,) = anchor(TEXT, q(2))
    assert (p.start, p.moved) == (0, True)


def test_locate_prefers_the_earlier_of_two_equally_near() -> None:
    assert locate("ab..ab", "ab", 2) == 0
    assert locate("ab..ab", "ab", 3) == 4
    assert locate("abc", "x", 1) is None


def test_insert_before_moves_the_excerpt_with_its_text() -> None:
    new = "Note. " + TEXT
    (moved,) = follow_edit(TEXT, new, [q(SECOND)])
    assert moved.excerpts[0].start == SECOND + 6
    assert new[moved.excerpts[0].start :].startswith(RULE)
    # the first copy follows its text too (to 6), not the other copy
    (first,) = follow_edit(TEXT, new, [q(0)])
    assert first.excerpts[0].start == 6


def test_insert_after_keeps_the_excerpt_in_place() -> None:
    new = TEXT + " More text."
    (same,) = follow_edit(TEXT, new, [q(SECOND)])
    assert same.excerpts[0].start == SECOND


def test_insert_inside_loses_the_excerpt_which_is_flagged_not_dropped() -> None:
    text = "Alpha beta. Gamma delta."
    question = Question("g?", (Excerpt("Gamma delta.", 12, 24),))
    new = text[:17] + "X" + text[17:]  # "Gamma Xdelta."
    (kept,) = follow_edit(text, new, [question])
    assert kept.excerpts[0] == question.excerpts[0]  # last offsets and content kept
    (p,) = anchor(new, kept)
    assert p.found is False
    (r,) = check_evidence(new, [(0, len(new))], [kept]).results
    assert r.matched is False and r.precision_omega is None
    # undoing the edit finds it again
    (back,) = follow_edit(new, text, [kept])
    assert anchor(text, back)[0].found


def test_insert_inside_finds_another_copy_and_says_it_moved() -> None:
    new = TEXT[:3] + "X" + TEXT[3:]  # the first copy is edited; the second still matches
    (moved,) = follow_edit(TEXT, new, [q(0)])
    (p,) = anchor(new, moved)
    assert p.found and p.start == SECOND + 1
    assert moved.excerpts[0].start != 0  # not silently at the edited place


def test_delete_the_excerpt() -> None:
    text = "Keep this. Drop that."
    question = Question("d?", (Excerpt("Drop that.", 11, 21),))
    new = text[:10]
    (kept,) = follow_edit(text, new, [question])
    assert anchor(new, kept)[0].found is False
    assert kept.excerpts[0] == question.excerpts[0]


@settings(max_examples=200)
@given(st.text("ab \n", max_size=30), st.text("ab \n", max_size=30), st.data())
def test_edit_between_describes_the_edit(old, new, data) -> None:  # type: ignore[no-untyped-def]
    start, old_end, new_end = edit_between(old, new)
    assert old[:start] == new[:start]
    assert old[old_end:] == new[new_end:]
    assert old[:start] + new[start:new_end] + old[old_end:] == new


@settings(max_examples=200)
@given(
    st.text("abc. ", min_size=1, max_size=20),
    st.text("abc. ", max_size=20),
    st.text("xyz", min_size=1, max_size=6),
    st.text("abc. ", max_size=10),
)
def test_an_excerpt_outside_the_edit_always_follows(before, after, excerpt, inserted) -> None:  # type: ignore[no-untyped-def]
    text = before + excerpt + after
    question = Question("?", (Excerpt(excerpt, len(before), len(text) - len(after)),))
    for new, start in (
        (inserted + text, len(inserted) + len(before)),  # inserted before
        (text + inserted, len(before)),  # after
        (before[1:] + excerpt + after, len(before) - 1),  # deleted before
    ):
        (moved,) = follow_edit(text, new, [question])
        assert moved.excerpts[0].start == start
        assert new[start : start + len(excerpt)] == excerpt
