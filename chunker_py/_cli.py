"""Command-line front: ``python -m chunker_py [FILE ...|-] [options]``.

Exit status 0 on success; 2 for invalid settings or input, with the message on stderr and
nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ._analysis import MAX_CHUNKS, MAX_CODE_POINTS, Analysis, analyse
from ._document import MAX_IMPORT_BYTES, decode_document
from ._errors import ChunkerError
from ._links import settings_from_fragment
from ._modes import MODES
from ._records import json_line, to_csv, to_jsonl
from ._settings import EDGES, MAX_CHUNK_SIZE, Settings, parse_separators, parse_whole


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m chunker_py",
        description="Split UTF-8 text into retrieval chunks with exact source offsets.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; - or none: stdin")
    p.add_argument("--mode", choices=list(MODES), help="recursive (default) or fixed")
    p.add_argument("--size", help="chunk size in code points (1-10000, default 300)")
    p.add_argument("--overlap", help="requested overlap in code points (default 50)")
    p.add_argument("--edges", choices=list(EDGES), help="trim (default) or preserve")
    p.add_argument("--separators", metavar="JSON_LIST", help='e.g. ["\\n\\n", "\\n", " ", ""]')
    p.add_argument("--source-name", metavar="NAME", help="labels the records (default: none)")
    p.add_argument("--format", choices=("jsonl", "csv", "summary"), default="jsonl")
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


def _settings(args: argparse.Namespace) -> Settings:
    base = Settings()
    if args.link is not None:
        base, notes = settings_from_fragment(args.link)
        if notes:
            raise ChunkerError(" ".join(notes), field="link")
    size = base.chunk_size
    if args.size is not None:
        size = parse_whole(args.size, "chunk_size", 1, MAX_CHUNK_SIZE)
    overlap = base.chunk_overlap if args.overlap is None else args.overlap
    changes: dict[str, Any] = {
        "chunk_size": size,
        "chunk_overlap": parse_whole(overlap, "chunk_overlap", 0, size - 1),
    }
    if args.mode is not None:
        changes["mode"] = args.mode
    if args.edges is not None:
        changes["edges"] = args.edges
    if args.separators is not None:
        changes["separators"] = parse_separators(args.separators)
    if args.source_name is not None:
        changes["source_name"] = args.source_name
    return replace(base, **changes)


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
        "warnings": list(analysis.warnings),
        "tradeoffs": [{"size": t.size, "count": t.count} for t in analysis.tradeoffs],
        "settings": analysis.settings.record_settings(),
    }


def run(argv: Sequence[str] | None = None) -> str:
    """Return the whole output for ``argv``; raise ``ChunkerError`` on bad settings or input."""
    args = _parser().parse_args(argv)
    settings = _settings(args)
    lifted = args.no_limits
    files = args.files or ["-"]
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
            per_file = replace(settings, source_name=path)  # keeps record ids unique
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
        else:
            outputs.append(json_line(_summary(analysis)) + "\n")
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
