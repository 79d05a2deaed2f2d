"""Fixed mode: windows of ``size`` code points advancing by ``size - overlap``.

Window i (from 1) is ``[a, min(a + size, N))`` with ``a = (i - 1)(size - overlap)``;
splitting stops at the first window that reaches N. Each window is trimmed on its own.
Sized in tokens, the windows are counted in tokens: exactly Token window's cuts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.fields import Field
from ..engine.merge import Job
from ..sizing.tokens import token_windows

FIELDS: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Options:
    """Fixed mode has no options of its own."""


def feed(job: Job, options: Options) -> None:
    """Send the retained windows of the text to the sink."""
    if not job.sizer.per_code_point:
        token_windows(job)  # the same windows, counted in tokens
        return
    job.sink.windows(0, len(job.text), job.size, job.overlap)
