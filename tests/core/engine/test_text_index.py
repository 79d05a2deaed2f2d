"""The text index's one cache helper: ``per_text`` computes a fact once per text and
arguments, keeps facts of different functions apart, and a new text starts empty."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunker_py.engine.index import TextIndex, per_text

calls: list[tuple[str, int]] = []


@per_text
def length_plus(index: TextIndex, extra: int) -> int:
    calls.append(("length_plus", extra))
    return len(index.text) + extra


@per_text
def length_times(index: TextIndex, extra: int) -> int:
    calls.append(("length_times", extra))
    return len(index.text) * extra


def test_a_fact_is_computed_once_per_text_and_arguments() -> None:
    calls.clear()
    index = TextIndex("abcd")
    assert [length_plus(index, 1), length_plus(index, 1), length_plus(index, 2)] == [5, 5, 6]
    assert [length_times(index, 1), length_times(index, 2)] == [4, 8]  # same args, own key
    assert calls == [
        ("length_plus", 1),
        ("length_plus", 2),
        ("length_times", 1),
        ("length_times", 2),
    ]
    other = TextIndex("ab")
    assert length_plus(other, 1) == 3
    assert calls[-1] == ("length_plus", 1)


# Whitespace of every kind str.isspace knows, in runs around the direct-scan limit (32).
_SPACES = st.sampled_from([" ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u3000", "\x1c", "\x85"])
_RUN_TEXT = st.lists(
    st.one_of(
        st.text(alphabet="ab\u200b\ufeff", min_size=1, max_size=3),
        st.builds(lambda s, n: s * n, _SPACES, st.integers(1, 70)),
    ),
    max_size=8,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_RUN_TEXT, st.data())
def test_skipping_whitespace_equals_a_scan_one_code_point_at_a_time(text: str, data) -> None:
    """``skip_space`` and ``skip_space_back`` (direct scans for short runs, the run index
    for long ones) equal walking over ``str.isspace`` code points one by one, at every
    position, whether or not the run index was already built."""
    index = TextIndex(text)
    positions = list(range(len(text) + 1))
    if data.draw(st.booleans()):
        index.skip_space_back(len(text))  # may build the run index first
    for p in data.draw(st.permutations(positions)):
        forward = p
        while forward < len(text) and text[forward].isspace():
            forward += 1
        back = p
        while back > 0 and text[back - 1].isspace():
            back -= 1
        assert index.skip_space(p) == forward
        assert index.skip_space_back(p) == back


@settings(max_examples=200, deadline=None)
@given(_RUN_TEXT, st.data())
def test_trimming_equals_stripping_one_code_point_at_a_time(text: str, data) -> None:
    """``trim`` (direct scans, then the index of long runs) strips ``str.isspace`` code
    points from both edges; an all-whitespace range collapses to its end."""
    assume(text)
    index = TextIndex(text)
    for _ in range(20):
        start = data.draw(st.integers(0, len(text) - 1))
        end = data.draw(st.integers(start + 1, len(text)))
        a, b = start, end
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        assert index.trim(start, end) == ((a, b) if a < b else (end, end))
