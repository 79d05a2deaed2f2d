"""What every tokenizer shares: a count cache and the token-end contract."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Iterable, Iterator, Sequence
from itertools import pairwise
from typing import Protocol, TypeVar

T = TypeVar("T")

# heap entries taken between two yields of bpe.merge_long_steps (~1 us each in CPython):
# a 20,000-letter piece is then ~9 steps of ~5 ms in CPython, short enough for one task. Here,
# not in bpe (loaded on first use), since the comparison paces its steps by it.
MERGE_STEP = 4096


def drive(steps: Generator[int, None, T]) -> T:
    """Run ``steps`` to its end and return its value (the plain form of a stepwise one)."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


class LruDict:
    """A small least-recently-used map from text to a value (dicts keep insertion order)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: dict[str, int] = {}

    def get(self, key: str) -> int | None:
        value = self._items.pop(key, None)
        if value is not None:
            self._items[key] = value  # now the most recent
        return value

    def put(self, key: str, value: int) -> None:
        self._items[key] = value
        if len(self._items) > self.capacity:
            del self._items[next(iter(self._items))]


class SpanCounter(Protocol):
    """Counts of the spans of one text (``Tokenizer.span_counts``)."""

    def count(self, start: int, end: int) -> int: ...

    def piece_counts(self, bounds: Sequence[int]) -> list[int]: ...


class Tokenizer(ABC):
    """Counts the tokens of a text and says where they end, in code points.

    ``count`` is cached per text, so re-measuring the unchanged chunks of a document after
    a keystroke costs a dictionary look-up each.
    """

    name: str

    def __init__(self, name: str, count_cache: int = 16384) -> None:
        self.name = name
        self._counts = LruDict(count_cache)

    def count(self, text: str) -> int:
        """The number of tokens of ``text`` (as the reference tokenizer counts them)."""
        cached = self._counts.get(text)
        if cached is None:
            cached = self._count(text)
            self._counts.put(text, cached)
        return cached

    def piece_counts(self, text: str, bounds: Sequence[int]) -> list[int]:
        """The counts of the pieces ``text[bounds[i]:bounds[i + 1]]``, each alone."""
        count = self.count
        return [count(text[a:b]) for a, b in pairwise(bounds)]

    def span_counts(self, text: str) -> SpanCounter | None:
        """An object counting any span of ``text`` (``count(start, end)``,
        ``piece_counts(bounds)``) faster than its sliced text, if the tokenizer has one
        (the pure tokenizers have none: the page measures few spans of a text at a time)."""
        return None

    def known(self, text: str) -> int | None:
        """The count of ``text`` if it is in the cache, else None (nothing is counted)."""
        return self._counts.get(text)

    def count_steps(self, text: str) -> Generator[int, None, int]:
        """``count`` in steps: long pieces' merges yield the work done now and then (see
        ``paced``; the page runs one step per task). Same result and
        cache as ``count``."""
        cached = self._counts.get(text)
        if cached is None:
            cached = yield from self._count_steps(text)
            self._counts.put(text, cached)
        return cached

    def token_ends(self, text: str, *, merged: bool = True) -> list[int]:
        """Strictly increasing code-point offsets where the tokens of ``text`` end.

        A token that ends inside a code point (a byte-level token holding part of its
        UTF-8 bytes, or a normalised character expanded to several) ends at the next
        code-point boundary instead; tokens that then end at the same offset are merged
        (``merged=False``: one offset per token, nondecreasing, for counting tokens).
        """
        ends = self._token_ends(text)
        if merged:
            return [end for i, end in enumerate(ends) if i == 0 or end > ends[i - 1]]
        return ends

    @abstractmethod
    def _count(self, text: str) -> int: ...

    def _count_steps(self, text: str) -> Generator[int, None, int]:
        """``_count`` in steps; one step unless the tokenizer cuts its long work."""
        return self._count(text)
        yield  # a generator that returns at once

    @abstractmethod
    def _token_ends(self, text: str) -> list[int]:
        """One end per token, nondecreasing."""

    def __repr__(self) -> str:
        return f"<Tokenizer {self.name}>"


def paced(work: Iterable[int], every: int) -> Iterator[None]:
    """A None each time the work yielded so far (``count_steps``' figures) reaches another
    ``every``, and one after the rest of it, if any: many short pieces' merges share a
    step, a long one's is cut, and what comes after ``work`` finds it all done."""
    done = 0
    for amount in work:
        done += amount
        if done >= every:
            done = 0
            yield
    if done:
        yield
