"""Command-line front: ``python -m chunker_py [FILE ...|-] [options]``.

Exit status 0 on success; 2 for invalid settings or input, with the message on stderr and
nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..config.links import settings_from_fragment
from ..config.settings import FIELDS, Settings, parse_settings
from ..engine.errors import ChunkerError
from ..engine.fields import Field
from ..engine.limits import (
    MAX_CHUNKS,
    MAX_CODE_POINTS,
    MAX_IMPORT_BYTES,
    MAX_QUESTIONS,
    MAX_QUESTIONS_BYTES,
)
from ..measures.evidence import Question, evidence_of
from ..modes.registry import MODES
from ..pipeline.analysis import Analysis, analyse
from ..pipeline.compare import compare
from ..text.documents import decode_document
from .questions import check_against, questions_for, read_questions
from .records import json_line, to_csv, to_jsonl


def _parser() -> argparse.ArgumentParser:
    modes = "; ".join(f"{name}: {mode.help}" for name, mode in MODES.items())
    p = argparse.ArgumentParser(
        prog="python -m chunker_py",
        description="Split UTF-8 text into retrieval chunks with exact source offsets.",
        epilog=f"Modes — {modes}",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; - or none: stdin")
    for field in FIELDS.values():
        _add_flag(p, field)
    p.add_argument(
        "--format",
        choices=("jsonl", "csv", "summary", "compare", "evidence"),
        default="jsonl",
        help="jsonl records (default), csv, a summary object, compare: one JSON object "
        "per splitter row (Recursive generic and Markdown preset, Markdown structure, "
        "Sentence, Fixed, Fixed with overlap, Token window) on the same text and size, or "
        "evidence: one JSON object per question of --questions",
    )
    p.add_argument(
        "--questions",
        metavar="FILE",
        help="Evidence check: questions and their excerpts (Chroma's CSV "
        "question,references,corpus_id, or the same objects as JSON / JSONL); adds an "
        "evidence object to summary and compare; a question's corpus_id names its file "
        "(path, file name or stem), none: every file",
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
    return parse_settings(raw)


def _summary(analysis: Analysis) -> dict[str, Any]:
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


def _compare_lines(
    text: str, settings: Settings, lifted: bool, questions: list[Question] | None
) -> str:
    """One JSON line per comparison row; a row's own errors (over the chunk limit, nothing
    retained) are reported in the row, not raised."""
    rows = compare(text, settings, max_chunks=None if lifted else MAX_CHUNKS)
    source = settings.source_name or None
    lines = []
    for row in rows:
        out = {"source": source, **row.as_json()}
        if questions is not None:
            found = evidence_of(row.analysis, questions) if row.analysis else None
            out["evidence"] = found.summary() if found else None
        lines.append(json_line(out) + "\n")
    return "".join(lines)


def _questions(args: argparse.Namespace, lifted: bool) -> list[Question] | None:
    if args.questions is None:
        if args.format == "evidence":
            raise ChunkerError(
                "--format evidence needs --questions FILE (the questions and their excerpts).",
                field="questions",
            )
        return None
    return read_questions(
        _read(args.questions),
        name=f"The questions file {args.questions}",
        max_questions=None if lifted else MAX_QUESTIONS,
        max_bytes=None if lifted else MAX_QUESTIONS_BYTES,
    )


def run(argv: Sequence[str] | None = None) -> str:
    """Return the whole output for ``argv``; raise ``ChunkerError`` on bad settings or input."""
    args = _parser().parse_args(argv)
    settings = _settings(args)
    lifted = args.no_limits
    files = args.files or ["-"]
    asked = _questions(args, lifted)
    outputs = []
    for path in files:
        data = sys.stdin.buffer.read() if path == "-" else _read(path)
        name = "Standard input" if path == "-" else f"The file {path}"
        text = decode_document(
            data,
            name=name,
            max_bytes=None if lifted else MAX_IMPORT_BYTES,
            max_code_points=None if lifted else MAX_CODE_POINTS,
        )
        per_file = settings
        if len(files) > 1 and not settings.source_name:
            per_file = settings.replace(source_name=path)  # keeps record ids unique
        questions = None
        if asked is not None:
            questions = questions_for(asked, path, settings.source_name)
            if len(files) == 1:  # every question is about this file: a misfit is an error
                check_against(text, questions, name=f"The questions file {args.questions}")
        if args.format == "compare":
            outputs.append(_compare_lines(text, per_file, lifted, questions))
            continue
        analysis = analyse(
            text,
            per_file,
            max_chunks=None if lifted else MAX_CHUNKS,
            max_code_points=None if lifted else MAX_CODE_POINTS,
            with_tradeoffs=args.format == "summary",
        )
        if analysis.error is not None:
            raise analysis.error
        if args.format == "jsonl":
            outputs.append(to_jsonl(analysis))
        elif args.format == "csv":
            outputs.append(to_csv(analysis, spreadsheet_safe=args.spreadsheet_safe))
        elif args.format == "evidence":
            found = evidence_of(analysis, questions or [])
            source = per_file.source_name or None
            assert found is not None
            outputs.append("".join(json_line(r.as_json(source)) + "\n" for r in found.results))
        else:
            summary = _summary(analysis)
            if questions is not None:
                found = evidence_of(analysis, questions)
                summary["evidence"] = found.summary() if found else None
            outputs.append(json_line(summary) + "\n")
    return "".join(outputs)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise ChunkerError(f"Cannot read {path}: {exc.strerror}.", field="file") from None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        output = run(argv)
    except ChunkerError as exc:
        print(f"chunker_py: {exc.message}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(output.encode("utf-8"))
    sys.stdout.flush()
    return 0
