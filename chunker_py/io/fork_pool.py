"""``--jobs N`` on Linux (``cut_beside``): this process and forked workers cut the files,
taking task indices from shared pipes; SIGTERM and SIGINT reap the workers and remove
their folder, and a run removes the folders of parents killed before it."""

from __future__ import annotations

import contextlib
import gc
import os
import select
import shutil
import signal
import tempfile
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from ..config.settings import Settings
from .corpus import Done, Output, Task, cut, cut_corpus

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    _SigHandler = Callable[[int, Any], Any] | int | signal.Handlers | None


# The parent of a ``cut_beside`` run cuts files up to 16 MiB itself: a bigger one (only
# with --no-limits) goes to a worker, so a file that exhausts memory kills a worker (and
# costs that file), not the run. Cutting a file takes about 40-45 times its bytes
# (measured: 16 MB more resident for 0.45 MB, 198 MB for 4.5 MB), so 16 MiB is under a
# gigabyte. (The page's import limit, 100,000 bytes, was the bound before: in a corpus of
# files above it only the worker cut, and --jobs 2 ran no faster than --jobs 1.)
PARENT_MAX_BYTES = 16 << 20
AHEAD_PER_JOB = 8  # task indices in the pipes per process: workers never wait for the parent
_INDEX = 4  # bytes of one task index in a pipe (below PIPE_BUF: written and read whole)


def cut_beside(
    tasks: Sequence[Task],
    output: Output,
    jobs: int,
    *,
    ahead: int,
    cutter: Callable[[Task, Output], Done] = cut,
) -> Generator[Done, None, None]:
    """``--jobs N`` on Linux: ``cut_corpus``'s results (the same ``Done``s, in the tasks'
    order, a bounded number of files taken beyond the one written last), cut by this
    process and ``jobs - 1`` forked workers, so that ``--jobs 2`` runs two processes on
    two cores, not two workers beside a waiting parent.

    Workers inherit the tasks (nothing is pickled to them). Task indices go into two
    pipes, ``ahead`` (at least ``AHEAD_PER_JOB`` per process) beyond the file written last:
    one that every process takes from, this one between the files it writes, and one for
    files too big for this process, that only workers take from; the kernel shares the
    work out, whoever is free takes the next file. A worker writes a file's output to a
    file in a private folder and sends only the ``Done``'s figures back; the writer reads
    the file back (no result thread, no large pickle). A worker that dies costs the file
    it held as in ``LocalPool``: cut again alone, reported if that process dies too; a new
    worker takes its place."""
    if jobs < 2 or len(tasks) < 2:
        yield from cut_corpus(tasks, output, cutter=cutter)
        return
    warm_up(tasks, output)
    previous = _on_sigterm(_terminated)  # before the folder exists: never left behind
    run = None
    try:
        run = _Beside(tasks, output, cutter, max(ahead, AHEAD_PER_JOB * jobs), previous)
        for _ in range(jobs - 1):
            run.fork()
        yield from run.results()
    finally:
        # a second SIGTERM or SIGINT waits until the workers are reaped and the folder is
        # gone (then SIGTERM's handler before the run acts: by default the process ends)
        stopping = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            if run is not None:
                run.close()
        finally:
            _on_sigterm(previous)
            signal.pthread_sigmask(signal.SIG_SETMASK, stopping)


# What a first file makes a process load or build once (markdown-it and its parser, the
# sentence rules, the grapheme tables, the JSON writer's and the tokenizer's state): a
# fence, a table, a list, a heading, sentences, an astral character, a line break of each
# kind. The first texts measured (markdown-it alone is ~45 ms to import).
WARM_UP_TEXT = (
    "---\ntitle: a\n---\n# Heading\n\nOne sentence. Dr. Two, 2.5 ok? Yes!\r\n"
    "\n- item one\n1. item two\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
    "```py\ncode = 1\n```\n\n    indented\n\ncafé 😀 \u2028 done.\r"
)
WARM_UP_SETTINGS = 8  # distinct settings warmed at most (a rules file may have many)


def warm_up(tasks: Sequence[Task], output: Output) -> None:
    """Cut a small sample document, as the run's files are cut (their settings, metadata
    on or off, the output's format), before a ``cut_beside`` run forks: the workers
    inherit what the first file loads and builds instead of each loading it again (without
    it, ``--jobs 2`` took ~10 % more CPU than ``--jobs 1``). Nothing is written; any
    failure is left for the real files to meet."""
    seen: set[Settings] = set()
    for task in tasks:
        if task.settings in seen:
            continue
        seen.add(task.settings)
        sample = Task(
            "warm-up.md",
            task.settings,
            metadata=None if task.metadata is None else {},
            data=WARM_UP_TEXT.encode(),
            questions=task.questions,
        )
        with contextlib.suppress(Exception):
            cut(sample, replace(output, lifted=True))
        if len(seen) >= WARM_UP_SETTINGS:
            break


class Terminated(BaseException):
    """SIGTERM during a ``cut_beside`` run: raised in this process (as SIGINT raises
    KeyboardInterrupt), so that the run reaps its workers and removes its folder, which
    the signal's default action (the process ends at once) would leave behind."""


_STOPS = {signal.SIGTERM, signal.SIGINT}


def _terminated(_signum: int, _frame: object) -> None:
    raise Terminated("stopped by SIGTERM")


def _on_sigterm(handler: _SigHandler) -> _SigHandler:
    """Set SIGTERM's handler, returning the one before; outside the main thread, where
    Python cannot set handlers, nothing changes (None)."""
    if handler is None:
        return None
    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        return None
    return signal.SIG_DFL if previous is None else previous  # None: a handler set in C


@dataclass
class _Worker:
    pid: int
    results: Connection
    held: list[int] = field(default_factory=list)  # indices it took, not back yet


def _folder_prefix(pid: int) -> str:
    """The start of a run's folder name: this machine's name and the run's process id,
    so that a later run can tell the folder of a parent that no longer runs here."""
    host = "".join(char for char in os.uname().nodename if char.isascii() and char.isalnum())
    return f"chunker_py-{host}-{pid}-"


def _sweep_orphans(root: str) -> None:
    """Remove the folders that runs on this machine left behind when their parent was
    killed by SIGKILL (which no handler sees, so ``close`` never ran): a folder whose
    name holds this machine's name and the id of a process that no longer exists, and
    that belongs to this user. (A folder of another machine sharing ``root``, or of a
    process whose id was taken again, stays: it may be in use.)"""
    host_prefix = _folder_prefix(0)[: -len("0-")]
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        pid_text = entry.name[len(host_prefix) :].split("-", 1)[0]
        if not entry.name.startswith(host_prefix) or not pid_text.isdigit():
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid() or not entry.is_dir(
                follow_symlinks=False
            ):
                continue
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            shutil.rmtree(entry.path, ignore_errors=True)  # its parent is gone
        except OSError:  # vanished, or a process of another user: running
            continue


class _Beside:
    """One ``cut_beside`` run, seen from this process."""

    def __init__(
        self,
        tasks: Sequence[Task],
        output: Output,
        cutter: Callable[[Task, Output], Done],
        ahead: int,
        sigterm: _SigHandler = None,
    ) -> None:
        self.tasks, self.output, self.cutter, self.ahead = tasks, output, cutter, ahead
        self.sigterm = sigterm  # SIGTERM's handler before the run: the workers' own
        _sweep_orphans(tempfile.gettempdir())
        self.folder = tempfile.mkdtemp(prefix=_folder_prefix(os.getpid()))
        self.shared_r, self.shared_w = os.pipe()  # any process takes from it
        self.big_r, self.big_w = os.pipe()  # workers only
        for fd in (self.shared_r, self.big_r):
            os.set_blocking(fd, False)  # every reader polls: none waits on a taken index
        self.workers: dict[Connection, _Worker] = {}
        self.ready: dict[int, Done] = {}
        self.put = 0  # tasks whose index went into a pipe
        self.written = 0  # tasks yielded

    def fork(self) -> None:
        """Start one worker, with the parent's objects frozen for the garbage collector
        (as ``LocalPool`` forks): it never scans, so never copies, what it inherits."""
        from multiprocessing import Pipe  # here: a run of one process never needs it

        receive, send = Pipe(duplex=False)
        # SIGTERM and SIGINT wait until the worker is known (to be reaped): raised in the
        # fork's own hooks, their exceptions would be ignored and the run go on
        stopping = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        gc.freeze()
        try:
            pid = os.fork()
            if pid == 0:  # the worker: never returns into the parent's code
                status = 1
                try:
                    # SIGTERM ends a worker as before (a dead worker: its file is cut again)
                    _on_sigterm(self.sigterm)
                    signal.pthread_sigmask(signal.SIG_SETMASK, stopping)
                    receive.close()
                    os.close(self.shared_w)
                    os.close(self.big_w)
                    for other in self.workers.values():
                        other.results.close()
                    status = self._serve(send)
                finally:
                    os._exit(status)
            send.close()
            self.workers[receive] = _Worker(pid, receive)
        finally:
            gc.unfreeze()
            signal.pthread_sigmask(signal.SIG_SETMASK, stopping)

    def _serve(self, send: Connection) -> int:
        """The worker's loop: take an index (a big file's first), say so, cut the task,
        write its output to the folder, send its ``Done`` without it; until both pipes
        end."""
        pipes = [self.big_r, self.shared_r]
        while pipes:
            readable, _, _ = select.select(pipes, [], [])
            fd = next(fd for fd in pipes if fd in readable)
            try:
                token = os.read(fd, _INDEX)
            except BlockingIOError:  # another process took it first
                continue
            if not token:
                pipes.remove(fd)
                continue
            index = int.from_bytes(token, "little")
            send.send(("take", index))
            try:
                done = self.cutter(self.tasks[index], self.output)
            except BaseException as exc:  # the parent raises it, as a pool would
                send.send(("raise", index, _picklable(exc)))
                return 1
            data = done.utf8()
            if data:
                with open(os.path.join(self.folder, str(index)), "wb") as f:
                    f.write(data)
            bare = replace(done, text="", encoded=None)
            send.send(("done", index, bare, len(data), done.encoded is not None))
        return 0

    def results(self) -> Iterator[Done]:
        total = len(self.tasks)
        while self.written < total:
            self._feed()
            self._receive(block=False)
            if self.written in self.ready:
                yield self.ready.pop(self.written)
                self.written += 1
                continue
            index = self._take(self.shared_r)
            if index is not None:
                self.ready[index] = self.cutter(self.tasks[index], self.output)
                continue
            self._receive(block=True)

    def _feed(self) -> None:
        end = min(len(self.tasks), self.written + self.ahead)
        while self.put < end:
            self._put(self.put)
            self.put += 1

    def _put(self, index: int) -> None:
        big = _size(self.tasks[index]) > PARENT_MAX_BYTES
        os.write(self.big_w if big else self.shared_w, index.to_bytes(_INDEX, "little"))

    def _take(self, fd: int) -> int | None:
        try:
            token = os.read(fd, _INDEX)
        except BlockingIOError:
            return None
        return int.from_bytes(token, "little")

    def _receive(self, *, block: bool) -> None:
        """Every message the workers sent (with ``block``, wait for one first)."""
        from multiprocessing.connection import wait

        for readable in wait(list(self.workers), timeout=None if block else 0):
            worker = self.workers[cast("Connection", readable)]
            while True:
                try:
                    message: tuple[Any, ...] = worker.results.recv()
                except EOFError:
                    self._died(worker)
                    break
                if message[0] == "take":
                    worker.held.append(message[1])
                elif message[0] == "raise":
                    raise message[2]
                else:
                    self._done(worker, *message[1:])
                if not worker.results.poll():
                    break

    def _done(self, worker: _Worker, index: int, done: Done, length: int, encoded: bool) -> None:
        worker.held.remove(index)
        data = b""
        if length:
            path = os.path.join(self.folder, str(index))
            with open(path, "rb") as f:
                data = f.read()
            os.unlink(path)
        if index >= self.written and index not in self.ready:  # else cut twice after a death
            # the cutter's Done again, with its text or its bytes
            self.ready[index] = (
                replace(done, encoded=data) if encoded else replace(done, text=data.decode())
            )

    def _died(self, worker: _Worker) -> None:
        """A worker ended before the run: the file it held is cut again alone, and a new
        worker takes its place. A worker killed after taking an index but before saying
        so leaves that index nowhere: every index not in a pipe, held or done counts as
        lost too (a live worker that was about to say so cuts it a second time, alike)."""
        del self.workers[worker.results]
        worker.results.close()
        os.waitpid(worker.pid, 0)
        queued = [(fd, index) for fd in (self.big_r, self.shared_r) for index in self._drain(fd)]
        from multiprocessing.connection import wait

        from .pool import cut_alone

        if self.workers:  # the others' "take" of what they read just now
            wait([w.results for w in self.workers.values()], timeout=0.05)
            self._receive(block=False)
        known = {*self.ready, *(i for w in self.workers.values() for i in w.held)}
        known.update(index for _fd, index in queued)
        for fd, index in queued:
            os.write(
                self.big_w if fd == self.big_r else self.shared_w, index.to_bytes(_INDEX, "little")
            )
        for index in range(self.written, self.put):
            if index not in known:
                self.ready[index] = cut_alone(self.cutter, (self.tasks[index], self.output), {})
        if self.written < len(self.tasks):
            self.fork()

    def _drain(self, fd: int) -> list[int]:
        taken = []
        while (index := self._take(fd)) is not None:
            taken.append(index)
        return taken

    def close(self) -> None:
        early = self.written < len(self.tasks)  # stopped early: the workers' work is moot
        for fd in (self.shared_w, self.big_w):
            os.close(fd)  # the workers' pipes end: each leaves after its file
        for worker in self.workers.values():
            worker.results.close()
            with contextlib.suppress(ChildProcessError, ProcessLookupError):
                if early:
                    os.kill(worker.pid, signal.SIGKILL)
                os.waitpid(worker.pid, 0)
        self.workers.clear()
        for fd in (self.shared_r, self.big_r):
            os.close(fd)
        shutil.rmtree(self.folder, ignore_errors=True)


def _size(task: Task) -> int:
    """A task's bytes (a file that cannot be stat'ed counts as big: a worker reports it)."""
    if task.data is not None:
        return len(task.data)
    try:
        return os.stat(os.path.join(task.root, task.path)).st_size
    except OSError:
        return PARENT_MAX_BYTES + 1


def _picklable(exc: BaseException) -> BaseException:
    import pickle

    try:
        pickle.dumps(exc)
    except Exception:
        return RuntimeError(repr(exc))
    return exc
