"""Cutting a corpus: one function per file, run in order on any ``concurrent.futures``
executor (issue 22; the streamed and cluster runs of issue 23 call the same function).

``cut(task, output)`` reads one file, splits it and renders its whole output (JSONL, CSV,
a summary line or comparison lines) in one go, or says why the file was refused: a file
is written whole or not at all. ``cut_corpus(tasks, output, executor)`` runs ``cut`` for
every task, a bounded number ahead of the writer, and yields the results in the tasks'
order as soon as each is done, so memory stays flat in the number of files. ``Tally``
adds up the figures of the corpus lines of ``--format summary`` and ``compare``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..config.settings import Settings
from ..engine.errors import ChunkerError, DocumentError, ResultError, SettingError
from ..engine.limits import MAX_CHUNKS, MAX_CODE_POINTS, MAX_IMPORT_BYTES
from ..pipeline.analysis import Analysis, analyse
from ..pipeline.compare import compare
from ..text.documents import decode_document
from ..text.front_matter import front_matter
from .records import json_line, to_csv, to_jsonl

if TYPE_CHECKING:  # the Evidence check loads only for a run that asks questions
    from ..measures.evidence import Evidence, Question

FORMATS = ("jsonl", "csv", "summary", "compare", "evidence")
MARKDOWN_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class Task:
    """One file to cut: where to read it (``data`` instead, for standard input), how to
    name it in messages, its settings (with its source name), run-level metadata
    (``None``: records carry no ``metadata`` object), the Evidence check's questions about
    it (``None``: no check) and, when every question must fit this file (it is the run's
    only one), the questions file's name for the message that refuses a misfit."""

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
class Figures:
    """What a corpus line adds up, for one file (and one comparison row)."""

    key: str
    label: str
    chunks: int
    over_limit: bool
    max_tokens: int | None
    damage: Mapping[str, int] | None
    evidence: Evidence | None = None


@dataclass(frozen=True)
class Done:
    """One file's outcome: its whole ``text`` output, or the ``error`` it was refused for
    (then ``text`` is empty); ``size`` is the bytes read. From ``cut_encoded`` the output
    is ``encoded`` in UTF-8 instead (``text`` empty)."""

    name: str
    text: str
    size: int
    error: str | None = None
    figures: tuple[Figures, ...] = ()
    encoded: bytes | None = None

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
        if task.questions is not None and task.questions_must_fit is not None:
            _check_questions(text, task.questions, task.questions_must_fit)
        metadata = None if task.metadata is None else _metadata(task, text, len(data))
        rendered, figures = _render(text, task.settings, output, metadata, task.questions)
    except (DocumentError, ResultError, SettingError) as exc:
        return Done(name, "", len(data or b""), exc.message)
    except OSError as exc:
        return Done(name, "", 0, f"Cannot read {task.path}: {exc.strerror}.")
    return Done(name, rendered, len(data), None, figures)


def cut_encoded(task: Task, output: Output) -> Done:
    """``cut``, its output handed back in UTF-8 (``Done.encoded``): in a worker process,
    so the process writing the output neither decodes the pickled text nor encodes it
    again (that process's time is the part of a ``--jobs`` run that does not shrink)."""
    done = cut(task, output)
    return replace(done, text="", encoded=done.text.encode("utf-8"))


def _check_questions(text: str, questions: tuple[Question, ...], name: str) -> None:
    """A question that does not fit the run's only file is an error of the questions
    file, not of the document: the run stops (status 2), it does not skip the file."""
    from .questions import check_against

    try:
        check_against(text, questions, name=name)
    except DocumentError as exc:
        raise ChunkerError(exc.message, field="questions") from None


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


def _render(
    text: str,
    settings: Settings,
    output: Output,
    metadata: Mapping[str, Any] | None,
    questions: tuple[Question, ...] | None,
) -> tuple[str, tuple[Figures, ...]]:
    if output.format == "compare":
        return _compare_lines(text, settings, output, questions)
    if questions is not None or output.format == "evidence":
        from ..measures.evidence import evidence_of
    analysis = analyse(
        text,
        settings,
        max_chunks=output.max_chunks,
        max_code_points=output.max_code_points,
        with_tradeoffs=output.format == "summary",
    )
    if analysis.error is not None:
        raise analysis.error
    if output.format == "csv":
        return to_csv(analysis, spreadsheet_safe=output.spreadsheet_safe), ()
    if output.format == "evidence":
        found = evidence_of(analysis, questions or ())
        assert found is not None
        source = settings.source_name or None
        return "".join(json_line(r.as_json(source)) + "\n" for r in found.results), ()
    if output.format == "summary":
        summary = summary_record(analysis)
        found = None if questions is None else evidence_of(analysis, questions)
        if questions is not None:
            summary["evidence"] = found.summary() if found else None
        if metadata is not None:
            summary["metadata"] = metadata
        return json_line(summary) + "\n", (_figures("", "", analysis, found),)
    return to_jsonl(analysis, metadata), ()


def summary_record(analysis: Analysis) -> dict[str, Any]:
    """The ``--format summary`` object of one document."""
    s = analysis.summary
    assert s is not None
    return {
        "source": analysis.settings.source_name or None,
        "chunks": s.chunks,
        "repeated": s.repeated,
        "omitted": s.omitted,
        "smallest": s.smallest,
        "average": s.average,
        "average_display": s.average_display,
        "largest": s.largest,
        "tokens": analysis.token_summary.as_json() if analysis.token_summary else None,
        "warnings": list(analysis.warnings),
        "tradeoffs": [{"size": t.size, "count": t.count} for t in analysis.tradeoffs],
        "damage": analysis.damage.figures() if analysis.damage else None,
        "settings": analysis.settings.record_settings(),
    }


def _figures(key: str, label: str, analysis: Analysis, found: Evidence | None) -> Figures:
    damage = analysis.damage
    tokens = analysis.token_summary
    return Figures(
        key,
        label,
        analysis.count,
        False,
        tokens.largest if tokens else None,
        damage.figures() if damage else None,
        found,
    )


def _compare_lines(
    text: str, settings: Settings, output: Output, questions: tuple[Question, ...] | None
) -> tuple[str, tuple[Figures, ...]]:
    """One JSON line per comparison row; a row's own errors (over the chunk limit, nothing
    retained) are reported in the row, not raised."""
    rows = compare(
        text, settings, max_chunks=output.max_chunks, max_code_points=output.max_code_points
    )
    if questions is not None:
        from ..measures.evidence import evidence_of

    source = settings.source_name or None
    lines = []
    figures = []
    for row in rows:
        out = {"source": source, **row.as_json()}
        found = None
        if questions is not None:
            found = evidence_of(row.analysis, questions) if row.analysis else None
            out["evidence"] = found.summary() if found else None
        lines.append(json_line(out) + "\n")
        damage = row.damage.figures() if row.damage else None
        figures.append(
            Figures(row.key, row.label, row.count, row.over_limit, row.max_tokens, damage, found)
        )
    return "".join(lines), tuple(figures)


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
    worker; elsewhere the platform's default (spawn on macOS and Windows)."""
    if sys.platform.startswith("linux"):
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    return ProcessPoolExecutor(workers)


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
        with ProcessPoolExecutor(1) as alone:
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


@dataclass
class Tally:
    """The corpus lines: per comparison row (or the one summary row), totals over files."""

    files: int = 0
    skipped: int = 0
    bytes: int = 0
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, done: Done) -> None:
        if done.error is not None:
            self.skipped += 1
            return
        self.files += 1
        self.bytes += done.size
        for f in done.figures:
            row = self.rows.setdefault(
                f.key,
                {"label": f.label, "chunks": 0, "measured": 0, "over_limit": 0,
                 "max_tokens": None, "damage": None, "files_without_damage": 0,
                 "evidence": None},
            )  # fmt: skip
            row["chunks"] += f.chunks
            row["over_limit"] += f.over_limit
            if f.max_tokens is not None:
                row["max_tokens"] = max(row["max_tokens"] or 0, f.max_tokens)
            if f.evidence is not None:  # every file's questions, as one question set
                known: Evidence | None = row["evidence"]
                results = known.results if known else ()
                row["evidence"] = replace(f.evidence, results=results + f.evidence.results)
            if f.damage is None:
                row["files_without_damage"] += 1
                continue
            row["measured"] += f.chunks
            totals = row["damage"] or dict.fromkeys(f.damage, 0)
            for key, value in f.damage.items():
                totals[key] = totals.get(key, 0) + value
            row["damage"] = totals

    def summary_line(self) -> dict[str, Any]:
        """``--format summary``'s corpus line."""
        row = self.rows.get("", {})
        damage = row.get("damage")
        return {
            "corpus": True,
            "files": self.files,
            "skipped": self.skipped,
            "bytes": self.bytes,
            "chunks": row.get("chunks", 0),
            "max_tokens": row.get("max_tokens"),
            "ends_mid_sentence_pct": _pct(damage, row.get("measured", 0)),
            "damage": damage,
            **_evidence(row.get("evidence")),
        }

    def compare_lines(self) -> list[dict[str, Any]]:
        """``--format compare``'s corpus lines, one per comparison row."""
        out = []
        for key, row in self.rows.items():
            damage = row["damage"] or {}
            out.append(
                {
                    "corpus": True,
                    "row": row["label"],
                    "key": key,
                    "files": self.files,
                    "skipped": self.skipped,
                    "chunks": row["chunks"],
                    "files_over_limit": row["over_limit"],
                    "max_tokens": row["max_tokens"],
                    "code_blocks_cut": damage.get("code_blocks_cut"),
                    "tables_cut": damage.get("tables_cut"),
                    "ends_mid_sentence": damage.get("ends_mid_sentence"),
                    "ends_mid_sentence_pct": _pct(row["damage"], row["measured"]),
                    "mid_word_edges": damage.get("mid_word_edges"),
                    "split_grapheme_edges": damage.get("split_grapheme_edges"),
                    "over_size": damage.get("over_size"),
                    "files_without_figures": row["files_without_damage"],
                    **_evidence(row["evidence"]),
                }
            )
        return out


def _evidence(found: Evidence | None) -> dict[str, Any]:
    """The corpus line's ``evidence``: the check over every file's questions at once."""
    return {} if found is None else {"evidence": found.summary()}


def _pct(damage: Mapping[str, int] | None, chunks: int) -> float | None:
    """Chunks ending mid-sentence in % of the chunks measured (the files with damage
    figures), to one decimal place as the comparison rounds it."""
    if not damage or not chunks:
        return None
    return round(100 * damage["ends_mid_sentence"] / chunks, 1)
