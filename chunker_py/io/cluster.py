"""Cutting a corpus on a Dask cluster: ``--dask SCHEDULER_ADDRESS``.

Every file is cut on the cluster's workers by the same ``corpus.cut`` as a local run,
through the ``concurrent.futures`` executor Dask's client offers
(``Client(address).get_executor()``), and ``corpus.cut_corpus`` yields the results in the
files' order, so the output is byte for byte the local run's.

What every file needs — the run's distinct settings, the output format, the folder
relative paths are read from and the cutting function — **travels once to every worker**,
as a worker plugin (``Client.register_plugin``): Dask installs it on each worker, and on
any worker that joins or replaces a dead one later. A file's task carries only its path,
its metadata and the number of its settings. Each worker process loads a tokenizer's data
once (``get_tokenizer`` keeps it) and reuses it for every file it cuts.

A file that cannot be read or decoded is reported as in a local run. A worker that dies
while cutting a file is replaced by Dask and the file is cut again elsewhere; a file that
keeps killing workers (more often than ``distributed.scheduler.allowed-failures``) is
reported as not cut, and the run completes for the others. Any other error stops the run,
as locally. Workers read the files: paths must be valid on them (the same machine, or a
shared file system) and ``chunker_py`` must be installed there
(``pip install chunker_py[dask]``).

Dask is imported only here and only when a run asks for it; it is not a dependency of
``chunker_py``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass, fields, replace
from typing import Any

from ..config.settings import Settings
from ..engine.errors import SettingError
from ..tokenizers import get_tokenizer
from .corpus import Done, Output, Task, cut, cut_corpus

Cutter = Callable[[Task, Output], Done]

# Per worker process: the shared part of each run under way, by run key, and how many
# times a shared part arrived (tests read it).
_RUNS: dict[str, Shared] = {}
_RECEIVED: list[int] = [0]


@dataclass(frozen=True)
class Shared:
    """What every file of a run needs: sent to each worker once."""

    settings: tuple[Settings, ...]
    output: Output
    root: str
    cutter: Cutter = cut


@dataclass(frozen=True)
class FileTask:
    """One file's task without its settings: ``settings`` numbers them in ``Shared``."""

    fields: dict[str, Any]
    settings: int
    name: str  # its source name, for a report made without the settings

    def task(self, shared: Shared) -> Task:
        task = Task(settings=shared.settings[self.settings], **self.fields)
        return replace(task, root=shared.root) if shared.root and not task.root else task


def cut_file(job: FileTask, run: str) -> Done:
    """Runs on a worker: one file, with the run's shared part already there."""
    shared = _RUNS[run]
    return shared.cutter(job.task(shared), shared.output)


def cut_files(jobs: tuple[FileTask, ...], run: str) -> list[Done]:
    """Runs on a worker: a batch of small files, one round trip for all of them."""
    return [cut_file(job, run) for job in jobs]


def batches(jobs: Iterable[FileTask], root: str) -> Iterator[tuple[FileTask, ...]]:
    """Consecutive files in batches of up to ``BATCH_FILES`` and ``BATCH_BYTES`` (a file
    at least that big goes alone): a task's round trip costs about 20-30 ms, so small
    files share one."""
    batch: list[FileTask] = []
    size = 0
    for job in jobs:
        data = job.fields.get("data")
        try:
            nbytes = (
                len(data)
                if data is not None
                else os.stat(
                    os.path.join(job.fields.get("root") or root, job.fields["path"])
                ).st_size
            )
        except OSError:
            nbytes = 0  # reported by its cut
        if batch and (size + nbytes > BATCH_BYTES or len(batch) >= BATCH_FILES):
            yield tuple(batch)
            batch, size = [], 0
        batch.append(job)
        size += nbytes
    if batch:
        yield tuple(batch)


BATCH_FILES = 32
BATCH_BYTES = 256 * 1024


def install(run: str, shared: Shared) -> None:
    """On a worker, once: keep the run's shared part and load its tokenizers' data."""
    _RECEIVED[0] += 1
    _RUNS[run] = shared
    for name in sorted({s.tokenizer for s in shared.settings}):
        get_tokenizer(name).count("a")


def uninstall(run: str) -> None:
    _RUNS.pop(run, None)


def _plugin(run: str, shared: Shared) -> Any:
    """A Dask worker plugin that installs ``shared`` on every worker (defined here, so
    that Dask is imported only for a run on a cluster; Dask pickles it by value)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class ChunkerRun(WorkerPlugin):
        def __init__(self) -> None:
            self.run, self.shared = run, shared

        def setup(self, worker: Any) -> None:
            install(self.run, self.shared)

        def teardown(self, worker: Any) -> None:
            uninstall(self.run)

    return ChunkerRun()


def split_tasks(tasks: Iterable[Task]) -> tuple[list[FileTask], tuple[Settings, ...]]:
    """The files' tasks without their settings, and the distinct settings they number."""
    numbers: dict[Settings, int] = {}
    jobs = []
    for task in tasks:
        number = numbers.setdefault(task.settings, len(numbers))
        named = {f.name: getattr(task, f.name) for f in fields(Task) if f.name != "settings"}
        jobs.append(FileTask(named, number, task.settings.source_name))
    return jobs, tuple(numbers)


def cut_on_dask(
    address: str,
    tasks: Iterable[Task],
    output: Output,
    *,
    cutter: Cutter = cut,
    ahead: int | None = None,
) -> Iterator[Done]:
    """Cut ``tasks`` on the Dask scheduler at ``address``; results in the tasks' order,
    each as soon as it and all before it are done."""
    try:
        import distributed
    except ImportError:
        raise SettingError(
            "--dask needs Dask's distributed scheduler: pip install 'chunker_py[dask]' "
            "(or dask[distributed]).",
            field="dask",
        ) from None
    jobs, settings = split_tasks(tasks)
    try:
        connect: Any = distributed.Client  # Dask is untyped
        client = connect(address, timeout=30)
    except OSError as exc:
        raise SettingError(
            f"Cannot reach the Dask scheduler at {address}: {exc}", field="dask"
        ) from None
    run = f"chunker-py-{uuid.uuid4().hex}"
    with client:
        # at least 1: a scheduler with no worker yet still gets files ahead
        # mutation: equivalent 1 -> 0 — in output only: cut_corpus then keeps one file in
        # flight, and the records are the same
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        shared = Shared(settings, output, os.getcwd(), cutter)
        client.register_plugin(_plugin(run, shared), name=run)
        try:
            for done in cut_corpus(
                batches(jobs, shared.root),  # type: ignore[arg-type]  # a batch of FileTasks
                run,  # type: ignore[arg-type]  # the run's key stands for its Output
                _OnDask(client),
                ahead=ahead or 4 * workers,  # enough in flight to hide the round trips
                cutter=cut_files,  # type: ignore[arg-type]
            ):
                yield from done  # type: ignore[misc]  # a batch's list of Done
        finally:
            client.unregister_worker_plugin(run)


def received() -> int:
    """On a worker: how often a run's shared part arrived in this process."""
    return _RECEIVED[0]


class _OnDask(Executor):
    """The files' tasks as Dask futures, a file whose task killed its workers reported as
    not cut (a ``Done`` with its error) instead of raised; every other error is raised.

    Dask's own ``Client.get_executor()`` is not used: its futures break when a finished
    result is lost with its worker before it is fetched (the result is then read as an
    error); a Dask future's ``result()`` waits for Dask to compute it again."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return _Outcome(self._client, self._client.submit(fn, *args, pure=False, **kwargs), args)


class _Outcome(Future[Any]):
    """One file's result, read from its Dask future when it is asked for."""

    def __init__(self, client: Any, inner: Any, args: tuple[Any, ...]) -> None:
        super().__init__()
        self._client, self._inner, self._args = client, inner, args

    def _alone(self, job: FileTask, run: str) -> _Outcome:
        """``job`` cut again in a task of its own (its batch killed its workers)."""
        args = ((job,), run)
        return _Outcome(self._client, self._client.submit(cut_files, *args, pure=False), args)

    def result(self, timeout: float | None = None) -> Any:
        try:
            return self._inner.result(timeout)
        except Exception as error:
            if type(error).__name__ != "KilledWorker":
                raise
            batch, run = self._args
            if len(batch) > 1:  # find the file that kills: each of the batch alone
                alone = [self._alone(job, run) for job in batch]
                return [done for outcome in alone for done in outcome.result(timeout)]
            job = batch[0]
            return [
                Done(
                    job.name,
                    "",
                    0,
                    f"The file {job.fields['path']} was not cut: the Dask workers cutting "
                    f"it died ({error}).",
                )
            ]
