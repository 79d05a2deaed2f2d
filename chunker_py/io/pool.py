"""``--jobs N`` off Linux: ``LocalPool``, a pool of worker processes in which a worker
that dies costs one file (on Linux the command line uses ``fork_pool.cut_beside``, which also
cuts a file alone again, with ``cut_alone``, when its worker died). Its own module, so
that ``concurrent.futures`` is imported only by a run that uses it."""

from __future__ import annotations

import gc
import multiprocessing
import signal
import sys
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from typing import Any

from .corpus import Done, Task


class LocalPool(Executor):
    """``--jobs N``: a process pool in which a worker that dies (out of memory, killed)
    costs one file, not the run. A dead worker breaks the whole pool and every file in it
    then fails alike, so each of those files is cut again alone, in a fresh one-process
    pool: the one whose process dies again is reported as not cut (a ``Done`` with its
    error), the others come out as usual; later files go to a fresh pool."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._pool = _process_pool(workers)
        self._forked: ProcessPoolExecutor | None = None  # the pool whose workers exist

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        try:
            inner = self._first_submit(fn, args, kwargs)
        except BrokenExecutor:
            self._renew(self._pool)
            inner = self._first_submit(fn, args, kwargs)
        return _Guarded(self, self._pool, inner, fn, args, kwargs)

    def _first_submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Future[Any]:
        """``submit`` to the pool; a forking pool forks all its workers on its first
        submit, so that one runs with the garbage collector's objects frozen: the workers
        then never scan (and so never copy) the pages of what they inherit (the loaded
        modules and token data), about 8 % fewer page faults on the bench corpus. The
        parent unfreezes right after, its own collections unchanged."""
        pool = self._pool
        if self._forked is pool:
            return pool.submit(fn, *args, **kwargs)
        gc.freeze()
        try:
            return pool.submit(fn, *args, **kwargs)
        finally:
            gc.unfreeze()
            self._forked = pool

    def _renew(self, broken: ProcessPoolExecutor) -> None:
        if self._pool is broken:
            broken.shutdown(wait=False)
            self._pool = _process_pool(self._workers)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait, cancel_futures=cancel_futures)


def _process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool whose workers are forked on Linux (Python 3.14 made forkserver the default
    there): a forked worker starts with the parent's modules and token data already
    loaded (``cli._check_dependencies``), so start-up is paid once per run, not once per
    worker; elsewhere the platform's default (spawn on macOS and Windows). SIGTERM ends a
    worker (a dead worker), whatever handler the parent has (``cut_beside``'s raises
    ``Terminated``, which would stop the parent's run from inside the pool)."""
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    return ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=signal.signal,
        initargs=(signal.SIGTERM, signal.SIG_DFL),
    )


class _Guarded(Future[Any]):
    """One file's result from a ``LocalPool``, cut again alone if its pool broke."""

    def __init__(
        self,
        owner: LocalPool,
        pool: ProcessPoolExecutor,
        inner: Future[Any],
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        super().__init__()
        self._owner, self._pool, self._inner = owner, pool, inner
        self._call = fn, args, kwargs

    def result(self, timeout: float | None = None) -> Any:
        try:
            return self._inner.result(timeout)
        except BrokenExecutor:
            self._owner._renew(self._pool)
        fn, args, kwargs = self._call
        return cut_alone(fn, args, kwargs, timeout)


def cut_alone(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    timeout: float | None = None,
) -> Any:
    """``fn(task, ...)`` in a one-process pool of its own, after the process cutting that
    task died; a ``Done`` that says so if this one dies too."""
    with _process_pool(1) as alone:
        try:
            return alone.submit(fn, *args, **kwargs).result(timeout)
        except BrokenExecutor:
            task: Task = args[0]
            return Done(
                task.settings.source_name,
                "",
                0,
                f"{task.display or f'The file {task.path}'} was not cut: the process "
                "cutting it died.",
            )
