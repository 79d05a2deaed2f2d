"""Streamed documents (as FluentChunker streams a TextReader): one fixed buffer.

A document larger than memory is read forward once through a buffer of ``buffer_size``
code points (262,144 by default). Each full buffer is cut at a **seam** and the part
before it, a *segment*, is split by the same in-memory path as any document
(``analyse``); the part after it stays in the buffer and the buffer is filled up again.
So:

- a chunk never spans a seam, and overlap resets there (a segment's first chunk has
  ``overlap`` 0), as at a descent seam of the in-memory splitters;
- offsets (code points and UTF-16), line and column numbers and record indices are
  absolute, counted across the whole stream (Python ints: far beyond 2**31);
- a document that fits one buffer is one segment: its chunks and records equal the
  in-memory path's field for field;
- where a seam falls, per mode (words are not cut when a whitespace is in the buffer):

  ============  =============================================================
  Fixed size,   after the buffer's last whitespace; a buffer without one is
  Token window  cut hard at its end
  Recursive     at the last occurrence of the first separator the buffer holds
                (a paragraph still open when the buffer fills is cut at its last
                line, then space...); the empty separator, or none found: as
                Fixed size
  Sentence      at the start of the buffer's last sentence (it cannot be known
                complete before the next one starts); a buffer holding one
                sentence: as Fixed size (the sentence is then longer than any
                chunk and cut into windows without overlap)
  Markdown      refused: sections and blocks need the whole document's parse
  ============  =============================================================

- a seam never falls between CR and LF (one line break for the line numbers) nor
  inside a surrogate pair.

Memory stays flat: the buffer, one segment's chunks and their facts (sentences, the
damage parse), whatever the stream's length. Damage is measured per segment (a seam is a
segment's end). Byte streams are read as strict UTF-8 (a leading BOM dropped, as for
imported files; a sequence cut by a read is completed by the next); text streams as they
come (open files with ``newline=""``, or offsets count translated line breaks).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import IO, Any

from ..config.settings import Settings
from ..engine.errors import DocumentError, ResultError, SettingError
from ..engine.fields import read_whole
from ..modes.recursive import separators
from ..pipeline.analysis import Analysis, analyse
from ..pipeline.checks import result_error
from ..pipeline.results import Chunk
from ..text.sentences import sentence_spans
from .corpus import Output, Task
from .corpus import _metadata as file_metadata
from .records import CSV_HEADER, csv_row, json_line, record, record_id

DEFAULT_BUFFER_SIZE = 262_144  # code points
MIN_BUFFER_SIZE = 16
MAX_BUFFER_SIZE = 1 << 30

# Chunk and record fields that are positions in the stream (the rest stays as cut).
OFFSET_KEYS = (
    "start",
    "end",
    "start_utf16",
    "end_utf16",
    "start_line",
    "start_column",
    "end_line",
    "end_column",
)
_READ_BYTES = 1 << 16  # a byte stream is read in blocks of at most this many bytes
_WHITESPACE = re.compile(r"\s")  # = str.isspace(), as edge trimming


@dataclass(frozen=True)
class Position:
    """An absolute position in a stream: code points and UTF-16 units before it, and its
    1-based line and column (CR LF, CR and LF end lines, as in records)."""

    code_points: int = 0
    utf16: int = 0
    line: int = 1
    column: int = 1

    def after(self, text: str) -> Position:
        """The position right after ``text``, read from here (``text`` must not end
        inside a CR LF: seams never do)."""
        length = len(text)
        utf16 = length if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2
        breaks = 0
        if "\n" in text or "\r" in text:  # one fast scan each, mostly
            breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        if breaks:
            last = max(text.rfind("\n"), text.rfind("\r"))
            line, column = self.line + breaks, length - last
        else:
            line, column = self.line, self.column + length
        return Position(self.code_points + length, self.utf16 + utf16, line, column)


@dataclass(frozen=True)
class Segment:
    """The text between two seams and where it starts in the stream."""

    text: str
    position: Position


def check_buffer_size(value: object) -> int:
    """The buffer size in code points: a whole number from 16 to 2**30."""
    return read_whole(value, "buffer_size", "Buffer size", MIN_BUFFER_SIZE, MAX_BUFFER_SIZE)


def check_streamable(settings: Settings) -> None:
    """Refuse settings whose mode cannot be streamed (Markdown structure)."""
    if settings.mode_info.stream_seam is None:
        raise SettingError(
            f"{settings.mode_info.label} cannot be streamed: its sections and blocks need "
            "the whole document's parse. Split the document in memory (without streaming), "
            "or stream it with Recursive and the Markdown preset.",
            field="mode",
        )


def iter_segments(
    source: IO[Any],
    settings: Settings,
    *,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
) -> Iterator[Segment]:
    """The stream's segments in order (see the module's docstring); ``source`` is a text
    or binary file object (anything with ``read(n)``). ``name`` starts error messages."""
    check_streamable(settings)
    buffer_size = check_buffer_size(buffer_size)
    find_seam = _SEAMS[settings.mode_info.stream_seam]
    reader = _Reader(source, name)
    position = Position()
    buffer = ""
    while True:
        buffer = reader.fill(buffer, buffer_size)
        following = reader.peek()
        if not following:
            if buffer:
                yield Segment(buffer, position)
            return
        seam = _off_pairs(buffer, find_seam(buffer, settings), following)
        segment, buffer = buffer[:seam], buffer[seam:]
        yield Segment(segment, position)
        position = position.after(segment)


def iter_analyses(
    source: IO[Any],
    settings: Settings,
    *,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
) -> Iterator[tuple[Analysis, Position]]:
    """Each segment's in-memory result (no limits) and where the segment starts; a
    segment that trims to nothing is left out. An empty stream, or one that trims to
    nothing, raises ``ResultError`` after the last segment, as ``analyse`` refuses such a
    text."""
    text = produced = False
    for segment in iter_segments(source, settings, buffer_size=buffer_size, name=name):
        text = True
        analysis = analyse(
            segment.text, settings, max_chunks=None, max_code_points=None, with_tradeoffs=False
        )
        if analysis.error is None:
            produced = True
            yield analysis, segment.position
    if not produced:
        error = result_error("x" if text else "", 0, None)
        assert error is not None
        raise error


def iter_chunks(
    source: IO[Any],
    settings: Settings,
    *,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
) -> Iterator[Chunk]:
    """The stream's chunks with absolute offsets, indices and line numbers, each yielded
    as its segment is cut (token counts and damage are in ``iter_records``)."""
    index = 0
    for analysis, position in iter_analyses(source, settings, buffer_size=buffer_size, name=name):
        for chunk in analysis.chunks:
            yield absolute(chunk, position, index)
            index += 1


def iter_records(
    source: IO[Any],
    settings: Settings,
    *,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
    metadata: Mapping[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """The stream's JSONL records (``chunker_py.io.records.record``'s keys), absolute, in order;
    ``metadata`` (when given) is each record's ``metadata`` object, before ``source``."""
    for records in segment_records(
        source, settings, buffer_size=buffer_size, name=name, metadata=metadata
    ):
        yield from records


def segment_records(
    source: IO[Any],
    settings: Settings,
    *,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
    metadata: Mapping[str, Any] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """``iter_records``' records a segment at a time, as each segment is cut."""
    index = 0
    for analysis, position in iter_analyses(source, settings, buffer_size=buffer_size, name=name):
        records = records_at(analysis, position, index, metadata)
        index += len(records)
        yield records


def records_at(
    analysis: Analysis,
    position: Position,
    index: int,
    metadata: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """A segment's records (its ``analysis``) as the stream numbers and places them: the
    segment starts at ``position``, its first chunk is the stream's chunk ``index``."""
    records = []
    for chunk in analysis.chunks:
        out = record(chunk, analysis)
        moved = absolute(chunk, position, index)
        out["id"] = record_id(analysis.settings.source_name, index)
        out["index"] = index
        for key in OFFSET_KEYS:
            out[key] = getattr(moved, key)
        if metadata is not None:
            last = {key: out.pop(key) for key in ("source", "settings")}
            out["metadata"] = metadata
            out.update(last)
        records.append(out)
        index += 1
    return records


def lines_of(
    records: list[dict[str, Any]],
    settings: Settings,
    format: str = "jsonl",
    *,
    spreadsheet_safe: bool = False,
) -> str:
    """Records as JSONL or as CSV rows (no header), as ``record_lines`` writes them."""
    if format == "jsonl":
        return "".join(json_line(rec) + "\n" for rec in records)
    name_cell = (settings.source_name,) if settings.source_name else ()
    return "".join(
        csv_row(tuple(rec[key] for key in CSV_HEADER) + name_cell, safe=spreadsheet_safe)
        for rec in records
    )


def csv_header(settings: Settings) -> str:
    """The CSV header row ``record_lines`` starts with (``source`` when the records name
    one)."""
    return csv_row(CSV_HEADER + (("source",) if settings.source_name else ()))


def record_lines(
    source: IO[Any],
    settings: Settings,
    *,
    format: str = "jsonl",
    spreadsheet_safe: bool = False,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
    metadata: Mapping[str, Any] | None = None,
) -> Iterator[str]:
    """The stream's records as JSONL or CSV text (what ``to_jsonl``/``to_csv`` write for
    a document within one buffer), a segment's records at a time as it is cut."""
    if format not in ("jsonl", "csv"):
        raise SettingError("Streaming writes records: jsonl or csv.", field="format")
    check_streamable(settings)
    if format == "csv":
        yield csv_header(settings)
    for records in segment_records(
        source, settings, buffer_size=buffer_size, name=name, metadata=metadata
    ):
        yield lines_of(records, settings, format, spreadsheet_safe=spreadsheet_safe)


def write_records(
    source: IO[Any],
    settings: Settings,
    out: IO[bytes],
    *,
    format: str = "jsonl",
    spreadsheet_safe: bool = False,
    buffer_size: int = DEFAULT_BUFFER_SIZE,
    name: str = "The stream",
) -> None:
    """Write the stream's records to ``out`` as UTF-8 JSONL (or CSV) as they are cut."""
    for text in record_lines(
        source,
        settings,
        format=format,
        spreadsheet_safe=spreadsheet_safe,
        buffer_size=buffer_size,
        name=name,
    ):
        out.write(text.encode("utf-8"))


def check_stream_run(settings: Settings, format: str, buffer_size: object) -> int:
    """``--stream``'s own checks, before anything is written: the format, the mode of the
    command line's settings and the buffer size (returned)."""
    if format not in ("jsonl", "csv"):
        raise SettingError(
            f"--stream writes records (jsonl or csv), not {format}: the summary and "
            "comparisons need the whole document.",
            field="format",
        )
    check_streamable(settings)
    return check_buffer_size(buffer_size)


def stream_files(
    tasks: Iterable[Task],
    output: Output,
    write: Callable[[str], None],
    report: Callable[[str], None],
    buffer_size: int,
) -> int:
    """``--stream``: each file streamed here, one after another, its records passed to
    ``write`` as they are cut; a file that cannot be read or cut is passed to ``report``
    (after the records before the point where it failed). Returns how many were."""
    refused = 0
    for task in tasks:
        try:
            opened = _open(task)
            metadata = None if task.metadata is None else _file_metadata(task, buffer_size)
        except OSError as exc:
            refused += 1
            report(f"Cannot read {task.path}: {exc.strerror}. Skipped.")
            continue
        written = False
        with opened as source:  # a failed write (a closed pipe) is the run's, not the file's
            try:
                for text in record_lines(
                    source,
                    task.settings,
                    format=output.format,
                    spreadsheet_safe=output.spreadsheet_safe,
                    buffer_size=buffer_size,
                    name=task.display or f"The file {task.path}",
                    metadata=metadata,
                ):
                    write(text)
                    written = True
            except (DocumentError, ResultError, SettingError) as exc:
                refused += 1
                before = " (its records before that point were written)" if written else ""
                report(f"{exc.message}{before} Skipped.")
    return refused


def _open(task: Task) -> AbstractContextManager[IO[bytes]]:
    """The file to stream (standard input is left open)."""
    if task.path == "-" and task.data is None:
        return nullcontext(sys.stdin.buffer)
    if task.data is not None:
        return io.BytesIO(task.data)
    return open(os.path.join(task.root, task.path), "rb")


def _file_metadata(task: Task, buffer_size: int) -> dict[str, Any]:
    """The record's metadata as a whole file's (``corpus``): front matter from the first
    buffer, the size in bytes; standard input has neither path nor size."""
    if task.path == "-":
        out = file_metadata(replace(task, data=b""), "", 0)
        out.pop("size", None)
        return out
    path = os.path.join(task.root, task.path)
    with open(path, "rb") as f:
        head = f.read(buffer_size).decode("utf-8", "ignore").removeprefix("\ufeff")
    return file_metadata(task, head, os.path.getsize(path))


def absolute(chunk: Chunk, at: Position, index: int) -> Chunk:
    """A segment's chunk with the stream's positions (the segment starts ``at``) and the
    stream's chunk index."""
    return replace(
        chunk,
        index=index,
        start=chunk.start + at.code_points,
        end=chunk.end + at.code_points,
        start_utf16=chunk.start_utf16 + at.utf16,
        end_utf16=chunk.end_utf16 + at.utf16,
        start_line=chunk.start_line + at.line - 1,
        start_column=chunk.start_column + (at.column - 1 if chunk.start_line == 1 else 0),
        end_line=chunk.end_line + at.line - 1,
        end_column=chunk.end_column + (at.column - 1 if chunk.end_line == 1 else 0),
    )


# -- seams: where a full buffer is cut, per mode --------------------------------------


def after_last_space(buffer: str, _settings: Settings | None = None) -> int:
    """Right after the buffer's last whitespace, or its end when it has none."""
    # most buffers have a whitespace near their end: the last 256 code points are searched
    # first (any window gives the same answer, the last whitespace)
    # mutation: equivalent 256 -> 257 — any window finds the same last whitespace
    for reach in (256, len(buffer)):
        found = _WHITESPACE.search(buffer[-reach:][::-1])
        if found is not None:
            return len(buffer) - found.start()
    return len(buffer)


def _recursive_seam(buffer: str, settings: Settings) -> int:
    for separator in separators(settings.options()):
        if separator.text == "":
            break
        if separator.regex is None:
            found = buffer.rfind(separator.text, 1)
        else:
            found = max((m.start() for m in separator.regex.finditer(buffer, 1)), default=-1)
        if found > 0:
            return found
    return after_last_space(buffer)


def _sentence_seam(buffer: str, settings: Settings) -> int:
    sentences = sentence_spans(
        buffer,
        abbreviations=settings.get("abbreviations"),
        language=settings.get("sentence_language"),
    )
    if len(sentences) >= 2:
        return sentences[-1][0]
    return after_last_space(buffer)


_SEAMS: dict[str | None, Callable[[str, Settings], int]] = {  # a mode's ``stream_seam``
    "space": after_last_space,
    "separator": _recursive_seam,
    "sentence": _sentence_seam,
}


def _off_pairs(buffer: str, seam: int, following: str) -> int:
    """``seam`` moved off the middle of a CR LF or a surrogate pair (``following`` is the
    code point after the buffer): forward inside the buffer, back at its end."""
    after = buffer[seam] if seam < len(buffer) else following
    before = buffer[seam - 1]
    if (before == "\r" and after == "\n") or (
        "\ud800" <= before <= "\udbff" and "\udc00" <= after <= "\udfff"
    ):
        return seam + 1 if seam < len(buffer) else seam - 1
    return seam


# -- reading ------------------------------------------------------------------------------


class _Reader:
    """Code points from a text or a UTF-8 byte stream, with one code point of look-ahead
    (to know whether a full buffer is the end)."""

    def __init__(self, source: IO[Any], name: str) -> None:
        self._source = source
        self._name = name
        self._pending = ""  # decoded, not yet handed out
        self._bytes: bool | None = None  # known at the first read
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._offset = 0  # bytes read so far
        self._at_start = True  # no code point decoded yet (a BOM may come)
        self._ended = False

    def fill(self, buffer: str, size: int) -> str:
        """``buffer`` filled up to ``size`` code points, or to the end of the stream."""
        parts = [buffer] if buffer else []  # one read alone is joined without a copy
        have = len(buffer)
        while have < size:
            piece = self._read(size - have)
            if not piece:
                break
            parts.append(piece)
            have += len(piece)
        return "".join(parts)

    def peek(self) -> str:
        """The next code point, kept for the next read; empty at the end."""
        if not self._pending:
            self._pending = self._read(1)
        return self._pending[:1]

    def _read(self, wanted: int) -> str:
        if self._pending:
            out, self._pending = self._pending[:wanted], self._pending[wanted:]
            return out
        while not self._ended:
            data = self._source.read(wanted if self._bytes is False else min(wanted, _READ_BYTES))
            if self._bytes is None:
                self._bytes = isinstance(data, bytes | bytearray)
                if self._bytes and bytes(data[:2]) in (b"\xff\xfe", b"\xfe\xff"):
                    raise self._not_text()
            if not self._bytes:
                if not data:
                    self._ended = True
                return str(data)
            text = self._decode(bytes(data))
            if text:
                if len(text) > wanted:
                    text, self._pending = text[:wanted], text[wanted:]
                return text
        return ""

    def _decode(self, data: bytes) -> str:
        if b"\x00" in data:
            raise self._not_text()
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            at = self._offset - pending + exc.start
            raise self._not_text(f" (invalid UTF-8 at byte {at:,})") from None
        self._offset += len(data)
        if not data:
            self._ended = True
            if self._offset == 0:
                raise DocumentError(
                    f"{self._name} is empty; choose a file with text in it.", field="file"
                )
        if text and self._at_start:
            self._at_start = False
            text = text.removeprefix("\ufeff")
        return text

    def _not_text(self, detail: str = "") -> DocumentError:
        return DocumentError(
            f"{self._name} is not a UTF-8 text file; save it as UTF-8 text (TXT or Markdown) "
            f"and import it again.{detail}",
            field="file",
        )
