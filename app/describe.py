"""What the page says about one chunk, decided here only: the overlap preview's title, the
chunk map's button name (read by screen readers) and its detail line. static/*.js only
sets these strings as text or attributes. No DOM here (tests/page/views runs it in CPython);
numbers are grouped as app/dom.py's ``number`` groups them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chunker_py import Chunk

HINT = "Enter or click: show its record"


def title(c: Chunk) -> str:
    """The preview's title of chunk ``c``: index, range, length and what is special."""
    return (
        f"#{c.index} · {c.start:,}–{c.end:,} · {c.length:,} code points"  # noqa: RUF001
        + (f" · repeats {c.overlap:,}" if c.overlap else "")
        + (" · unsplittable piece, kept whole" if c.whole else "")
        + (f" · {c.note}" if c.note else "")
        + (f" · {c.heading_path}" if c.heading_path else "")
    )


def detail(c: Chunk, damage: str = "", evidence: str = "") -> str:
    """The chunk map's line for the chunk under the pointer or focus: its preview title,
    its damage and evidence in words (once known), and what activating it does."""
    return (
        f"Chunk {title(c)}"
        + (f" · damage: {damage}" if damage else "")
        + (f" · evidence of {evidence}" if evidence else "")
        + f" · {HINT}"
    )


def names(spans: Sequence[Any], first: int = 0) -> list[str]:
    """The chunk map's button names of chunks ``first`` onwards, from their spans alone
    (the map names every chunk without building the records), before their damage and
    evidence are known: index, range, length and the code points shared with the chunk
    before (``Chunk.overlap``). One loop with the numbers formatted inline: a new text of
    2,000 chunks renames them all on the keystroke's path."""
    out: list[str] = []
    append = out.append
    before_start, before_end = (spans[first - 1][0], spans[first - 1][1]) if first else (0, 0)
    for index in range(first, len(spans)):
        start, end = spans[index][0], spans[index][1]
        shared = min(end, before_end) - max(start, before_start) if index else 0
        name = f"Chunk {index}, code points {start:,} to {end:,}, {end - start:,} long"
        append(f"{name}, starts with {shared:,} repeated" if shared > 0 else name)
        before_start, before_end = start, end
    return out


def full_name(base: str, damage: str, evidence: str) -> str:
    """``name`` with the chunk's damage and the questions whose evidence it holds."""
    return (
        base
        + (f", damage: {damage}" if damage else "")
        + (f", holds evidence of {evidence}" if evidence else "")
    )
