"""Cycle collection during a corpus run: off (``collector_off``), and one full collection
every ``COLLECT_EVERY`` files a process cut (``Collected``)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .corpus import Done, Output, Task


# A command-line run cuts with automatic cycle collection off (``collector_off``): cutting
# a file makes no reference cycle (tests/core/corpus/test_no_cycles.py), so collections
# freed nothing, yet walked the Markdown parse and sentences of the files being cut (~6 %
# of a run's CPU). ``Collected`` runs a full collection every ``COLLECT_EVERY``
# files cut in its process, for what other paths leave (a refused file's traceback).
COLLECT_EVERY = 64
_cut_since_collection = 0


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """Automatic cycle collection off in this process (and those it forks meanwhile),
    as it was afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@dataclass(frozen=True)
class Collected:
    """``cutter``, followed by a full collection every ``COLLECT_EVERY`` files this
    process cut (a run under ``collector_off``); picklable, as a pool's cutter must be."""

    cutter: Callable[[Task, Output], Done]

    def __call__(self, task: Task, output: Output) -> Done:
        global _cut_since_collection
        done = self.cutter(task, output)
        _cut_since_collection += 1
        if _cut_since_collection >= COLLECT_EVERY:
            _cut_since_collection = 0
            gc.collect()
        return done
