"""The text index's one cache helper: ``per_text`` computes a fact once per text and
arguments, keeps facts of different functions apart, and a new text starts empty."""

from __future__ import annotations

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
