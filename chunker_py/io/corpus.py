"""Cutting a corpus: one function per file, run in order on any ``concurrent.futures``
executor (the streamed and cluster runs call the same function).

``cut(task, output)`` reads one file, splits it and renders its whole output (JSONL, CSV,
a summary line or comparison lines; ``render``) in one go, or says why the file was
refused: a file is written whole or not at all. ``cut_corpus(tasks, output, executor)``
runs ``cut`` for every task, a bounded number ahead of the writer, and yields the results
in the tasks' order as soon as each is done, so memory stays flat in the number of files.
Beside it: ``fork_pool.cut_beside`` (``--jobs N`` on Linux), ``collector`` (cycle
collection during a run) and ``tally.Tally`` (the corpus lines of ``--format summary``
and ``compare``).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..config.settings import Settings
from ..engine.errors import DocumentError, ResultError, SettingError
from ..engine.limits import MAX_CHUNKS, MAX_CODE_POINTS, MAX_IMPORT_BYTES
from ..text.documents import decode_document
from ..text.front_matter import front_matter
from .render import FileFigures, _render

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from ..measures.evidence import Question

FORMATS = ("jsonl", "csv", "summary", "compare", "evidence")
MARKDOWN_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class Task:
    """One file to cut: where to read it (``data`` instead, for standard input), how to
    name it in messages, its settings (with its source name), run-level metadata
    (``None``: records carry no ``metadata`` object), the Evidence check's questions about
    it (``None``: no check) and, when every question must fit this file (it is the run's
    only one), the questions file's name for the message that lists a misfit."""

    path: str
    settings: Settings
    display: str = ""
    metadata: Mapping[str, Any] | None = None
    data: bytes | None = None
    questions: tuple[Question, ...] | None = None
    questions_must_fit: str | None = None
    root: str = ""  # the folder a relative ``path`` is read from ("": the working one)


@dataclass(frozen=True)
class Output:
    """How every file of the run is written."""

    format: str = "jsonl"
    lifted: bool = False  # --no-limits
    spreadsheet_safe: bool = False
    embeddings: bool = False  # --embeddings: each JSONL record carries its chunk's vector

    @property
    def max_bytes(self) -> int | None:
        return None if self.lifted else MAX_IMPORT_BYTES

    @property
    def max_code_points(self) -> int | None:
        return None if self.lifted else MAX_CODE_POINTS

    @property
    def max_chunks(self) -> int | None:
        return None if self.lifted else MAX_CHUNKS


@dataclass(frozen=True)
class Done:
    """One file's outcome: its whole ``text`` output, or the ``error`` it was refused for
    (then ``text`` is empty); ``size`` is the bytes read. From ``cut_encoded`` the output
    is ``encoded`` in UTF-8 instead (``text`` empty)."""

    name: str
    text: str
    size: int
    error: str | None = None
    figures: tuple[FileFigures, ...] = ()
    encoded: bytes | None = None
    # the questions not checked (they do not fit the run's only file), one message each
    skipped_questions: tuple[str, ...] = ()

    def utf8(self) -> bytes:
        """The output in UTF-8."""
        return self.text.encode("utf-8") if self.encoded is None else self.encoded


def cut(task: Task, output: Output) -> Done:
    """Read, split and render one file. A file that cannot be read, decoded or split
    within the limits is refused with its message; any other error is raised (a missing
    tokenizer's data or dependency concerns the whole run)."""
    name = task.settings.source_name
    data = task.data
    try:
        if data is None:
            data = _read(os.path.join(task.root, task.path))
        text = decode_document(
            data,
            name=task.display or f"The file {task.path}",
            max_bytes=output.max_bytes,
            max_code_points=output.max_code_points,
        )
        questions = task.questions
        skipped: tuple[str, ...] = ()
        if questions is not None and task.questions_must_fit is not None:
            questions, skipped = _fitting_questions(text, questions, task.questions_must_fit)
        metadata = None if task.metadata is None else _metadata(task, text, len(data))
        rendered, figures = _render(text, task.settings, output, metadata, questions)
    except (DocumentError, ResultError, SettingError) as exc:
        return Done(name, "", len(data or b""), exc.message)
    except OSError as exc:
        return Done(name, "", 0, f"Cannot read {task.path}: {exc.strerror}.")
    return Done(name, rendered, len(data), None, figures, skipped_questions=skipped)


def cut_encoded(task: Task, output: Output) -> Done:
    """``cut``, its output handed back in UTF-8 (``Done.encoded``): in a worker process,
    so the process writing the output neither decodes the pickled text nor encodes it
    again (that process's time is the part of a ``--jobs`` run that does not shrink)."""
    done = cut(task, output)
    return replace(done, text="", encoded=done.text.encode("utf-8"))


def _fitting_questions(
    text: str, questions: tuple[Question, ...], name: str
) -> tuple[tuple[Question, ...], tuple[str, ...]]:
    """The questions that fit the run's only file, and a message for each one skipped
    (offsets outside the text, content found nowhere; Bad input 25)."""
    from .questions import fit_questions

    fitting, misfits = fit_questions(text, questions, name=name)
    return tuple(fitting), tuple(f"{m.message} Skipped." for m in misfits)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _metadata(task: Task, text: str, size: int) -> dict[str, Any]:
    """Run-level metadata, then the document's (its front matter, its path and size):
    the document wins on a key collision."""
    assert task.metadata is not None
    out = dict(task.metadata)
    if task.path.lower().endswith(MARKDOWN_SUFFIXES):
        out.update(front_matter(text))
    if task.data is None:
        out["path"] = task.path
    out["size"] = size
    return out


def cut_corpus(
    tasks: Iterable[Task],
    output: Output,
    executor: Executor | None = None,
    *,
    ahead: int = 8,
    cutter: Callable[[Task, Output], Done] = cut,
) -> Iterator[Done]:
    """``cutter(task, output)`` for every task, results in the tasks' order, each yielded
    as soon as it and all before it are done. Without an executor the files are cut here,
    one after another; with one, at most ``ahead`` files are submitted beyond the one
    being waited for (so a slow writer or a huge corpus never piles results up)."""
    if executor is None:
        for task in tasks:
            yield cutter(task, output)
        return
    pending: deque[Future[Done]] = deque()
    remaining = iter(tasks)
    for task in remaining:
        pending.append(executor.submit(cutter, task, output))
        if len(pending) > ahead:
            break
    while pending:
        done = pending.popleft().result()
        following = next(remaining, None)
        if following is not None:
            pending.append(executor.submit(cutter, following, output))
        yield done


def __getattr__(name: str) -> Any:
    """``LocalPool`` (``--jobs`` off Linux) from ``.pool``, imported on first use: its
    ``concurrent.futures`` is no part of a run's start-up on Linux."""
    if name == "LocalPool":
        from .pool import LocalPool

        return LocalPool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
