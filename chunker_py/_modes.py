"""The registry of splitting modes: a new mode is a new module plus one entry here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from . import _fixed, _recursive
from ._engine import Sink, TextIndex


class Feed(Protocol):
    """A mode: sends the chunks of ``text`` to ``sink`` in source order."""

    def __call__(
        self,
        text: str,
        *,
        size: int,
        overlap: int,
        separators: Sequence[str],
        index: TextIndex,
        sink: Sink,
    ) -> None: ...


@dataclass(frozen=True)
class Mode:
    name: str
    label: str
    feed: Feed
    uses_separators: bool


MODES: dict[str, Mode] = {
    "recursive": Mode("recursive", "Recursive", _recursive.feed, uses_separators=True),
    "fixed": Mode("fixed", "Fixed size", _fixed.feed, uses_separators=False),
}
