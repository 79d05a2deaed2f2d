"""``paced``: the steps a long count is cut into (one step per task, so no task runs long)."""

from __future__ import annotations

from chunker_py.tokenizers.base import paced


def steps(work: list[int], every: int = 10) -> int:
    return sum(1 for _ in paced(iter(work), every))


def test_no_work_is_no_step() -> None:
    assert steps([]) == 0
    assert steps([0, 0, 0]) == 0


def test_a_step_each_time_the_work_reaches_another_every_and_one_for_the_rest() -> None:
    assert steps([10]) == 1  # exactly once the size: nothing left for a last step
    assert steps([9, 1]) == 1  # the two together reach it
    assert steps([9]) == 1  # short of it: the rest still gets its step
    assert steps([10, 1]) == 2
    assert steps([5, 5, 5, 5]) == 2
    assert steps([3] * 7) == 2  # 12 reaches it after four; the last three (9) are the rest
    assert steps([25]) == 1  # one long piece is one step (its own steps come from work)
