"""The records of a result: one chunk, the summary figures, the token counts, a trade-off.

Plain frozen data; ``Analysis`` (``analysis.py``) holds them for one text and one set of
settings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chunk:
    """One retained chunk. Offsets are zero-based and end-exclusive; lines and columns are
    1-based, with ``end_line``/``end_column`` locating the chunk's last code point."""

    index: int
    start: int
    end: int
    start_utf16: int
    end_utf16: int
    length: int
    overlap: int
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    text: str
    whole: bool
    heading_path: str = ""
    prefix: str = ""
    note: str = ""


@dataclass(frozen=True)
class Summary:
    chunks: int
    repeated: int
    omitted: int
    smallest: int
    average: float
    largest: int

    @property
    def average_display(self) -> str:
        """The average rounded for display, to one decimal place."""
        return f"{self.average:.1f}"


@dataclass(frozen=True)
class TokenSummary:
    """Token counts of the chunks (the settings' tokenizer), beside the code-point summary."""

    smallest: int
    average: float
    largest: int
    total: int

    def as_json(self) -> dict[str, int | float]:
        return {
            "smallest": self.smallest,
            "average": self.average,
            "largest": self.largest,
            "total": self.total,
        }


@dataclass(frozen=True)
class Tradeoff:
    size: int
    count: int
