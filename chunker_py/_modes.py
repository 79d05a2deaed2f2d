"""The registry of splitting modes: a new mode is a new module plus one entry here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from . import _fixed, _recursive
from ._engine import EdgeIndex, Span


class SplitSpans(Protocol):
    def __call__(
        self,
        text: str,
        *,
        size: int,
        overlap: int,
        trim: bool,
        separators: Sequence[str],
        edges: EdgeIndex | None = None,
    ) -> list[Span]: ...


@dataclass(frozen=True)
class Mode:
    name: str
    label: str
    split_spans: SplitSpans
    uses_separators: bool


MODES: dict[str, Mode] = {
    "recursive": Mode("recursive", "Recursive", _recursive.split_spans, uses_separators=True),
    "fixed": Mode("fixed", "Fixed size", _fixed.split_spans, uses_separators=False),
}
