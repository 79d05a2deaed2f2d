"""Work done in steps: a generator that yields between slices of work (the page gives way
there) and returns its result. ``finish`` runs one to its end at once (the CLI); ``relay``
passes its yields on, changed, to an outer generator (a stage of a longer task)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

Result = TypeVar("Result")
Yielded = TypeVar("Yielded")


def relay(
    steps: Generator[Any, None, Result], each: Callable[[Any], Yielded]
) -> Generator[Yielded, None, Result]:
    """``yield from steps`` with ``each`` applied to what it yields; returns its result."""
    while True:
        try:
            item = next(steps)
        except StopIteration as done:
            result: Result = done.value
            return result
        yield each(item)


def finish(steps: Generator[Any, None, Result]) -> Result:
    """Run ``steps`` to its end and return its result (what it yields is dropped)."""
    results: list[Result] = []

    def keep() -> Generator[Any, None, None]:
        results.append((yield from steps))

    for _ in keep():
        pass
    return results[0]
