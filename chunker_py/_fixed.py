"""Fixed mode: windows of ``size`` code points advancing by ``size - overlap``.

Window i (from 1) is ``[a, min(a + size, N))`` with ``a = (i - 1)(size - overlap)``;
splitting stops at the first window that reaches N. Each window is trimmed on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._engine import Sink, TextIndex


def feed(
    text: str,
    *,
    size: int,
    overlap: int,
    separators: Sequence[str],
    index: TextIndex,
    sink: Sink,
) -> None:
    """Send the retained windows of ``text`` to ``sink``; separators play no part."""
    del separators
    sink.windows(0, len(text), size, overlap)
