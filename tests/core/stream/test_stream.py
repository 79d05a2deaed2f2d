"""Streamed documents (as FluentChunker streams a TextReader): one fixed buffer, absolute
offsets, seams.

The in-memory path is the reference: a document within one buffer must give its records
field for field; a longer one must give, per segment, that segment's in-memory chunks at
absolute positions, which are checked here against positions computed afresh from the
whole text.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from chunker_py import (
    Chunk,
    ChunkerError,
    DocumentError,
    ResultError,
    SettingError,
    Settings,
    analyse,
    decode_document,
    to_csv,
    to_jsonl,
)
from chunker_py.io.records import record
from chunker_py.io.stream import (
    DEFAULT_BUFFER_SIZE,
    iter_chunks,
    iter_records,
    iter_segments,
    write_records,
)
from tests.core.conftest import any_text, settings_strategy, texts

STREAMED = ("recursive", "fixed", "sentence", "token-window")
LONE = re.compile("[\ud800-\udfff]")
BREAK = re.compile(r"\r\n|\r|\n")


class Reads:
    """A file object whose reads return at most the next of ``sizes`` (cycled) units, as
    pipes and sockets do: reads end inside CR LF, UTF-8 sequences and surrogate pairs."""

    def __init__(self, data: str | bytes, sizes: list[int]) -> None:
        self._data, self._sizes, self._at, self._turn = data, sizes or [1 << 30], 0, 0

    def read(self, n: int) -> str | bytes:
        size = min(n, self._sizes[self._turn % len(self._sizes)])
        self._turn += 1
        out = self._data[self._at : self._at + size]
        self._at += len(out)
        return out


def in_memory(text: str, settings: Settings) -> list[dict[str, Any]]:
    result = analyse(text, settings, max_chunks=None, max_code_points=None)
    if result.error is not None:
        raise result.error
    return [record(chunk, result) for chunk in result.chunks]


def where(text: str, position: int) -> tuple[int, int, int]:
    """UTF-16 offset, line and column of ``position``, from the README's definitions
    (CR LF, CR and LF end lines), computed from the whole text."""
    ends = [m.end() for m in BREAK.finditer(text) if m.end() <= position]
    utf16 = len(text[:position].encode("utf-16-le", "surrogatepass")) // 2
    return utf16, len(ends) + 1, position - (ends[-1] if ends else 0) + 1


sources = st.sampled_from(["text", "bytes"])
read_sizes = st.lists(st.integers(1, 7), max_size=4)


@hsettings(max_examples=120)
@given(any_text, settings_strategy(modes=STREAMED), st.integers(0, 3), sources, read_sizes)
@example("a\r\n\r\nb", Settings(chunk_size=3, chunk_overlap=1), 0, "bytes", [1])
@example("ab\ud83d", Settings(mode="fixed", chunk_size=2, chunk_overlap=0), 0, "text", [1])
@example("x\ufeff😀\r", Settings(mode="sentence", chunk_size=1, chunk_overlap=0), 0, "bytes", [])
def test_a_document_within_one_buffer_gives_the_in_memory_records(
    text: str, settings: Settings, spare: int, kind: str, sizes: list[int]
) -> None:
    """Field for field, a document of up to ``buffer_size`` code points (exactly that
    many included) from text and UTF-8 byte streams read in small pieces."""
    data: str | bytes = text
    buffer_size = max(16, len(text) + spare)
    name = "The file"
    try:
        if kind == "bytes":  # the CLI's in-memory path: decode the file, then split
            if LONE.search(text):
                return  # no UTF-8 holds a lone surrogate
            data = text.encode()
            text = decode_document(data, name="The file", max_bytes=None, max_code_points=None)
        expected = in_memory(text, settings)
    except ChunkerError as error:
        with pytest.raises(type(error), match=re.escape(error.message)):
            list(iter_records(Reads(data, sizes), settings, buffer_size=buffer_size, name=name))
        return
    assert list(iter_records(Reads(data, sizes), settings, buffer_size=buffer_size)) == expected


long_atoms = ["word", " ", "\r\n", "😀", ". ", "Ab", "\n\n"]
long_texts = st.lists(st.sampled_from(long_atoms), max_size=120)


@hsettings(max_examples=80)
@given(
    st.one_of(long_texts.map("".join), texts, st.text(max_size=120)),
    settings_strategy(modes=STREAMED, max_size=12),
    st.integers(16, 40),
    read_sizes,
)
@example("ab\r\n" * 10, Settings(mode="fixed", chunk_size=5, chunk_overlap=2), 16, [])
@example(
    "x" * 15 + "\ud83d\ude00" * 5, Settings(mode="fixed", chunk_size=4, chunk_overlap=0), 16, [1]
)
def test_at_seams_chunks_restart_and_offsets_stay_absolute(
    text: str, settings: Settings, buffer_size: int, sizes: list[int]
) -> None:
    """Over many buffers: segments are the text in order, each at most a buffer; no seam
    inside CR LF or a surrogate pair; no chunk across a seam; each segment's chunks are its
    in-memory chunks (first overlap 0) at the positions the whole text gives them."""
    segments = list(iter_segments(Reads(text, sizes), settings, buffer_size=buffer_size))
    assert "".join(s.text for s in segments) == text
    seams = [s.position.code_points for s in segments[1:]]
    for segment in segments:
        assert 0 < len(segment.text) <= buffer_size
        at = segment.position.code_points
        assert (segment.position.utf16, segment.position.line, segment.position.column) == where(
            text, at
        )
    for seam in seams:
        assert text[seam - 1 : seam + 1] != "\r\n"
        assert not ("\ud800" <= text[seam - 1] <= "\udbff" and "\udc00" <= text[seam] <= "\udfff")
    expected: list[dict[str, Any]] = []
    for segment in segments:
        result = analyse(segment.text, settings, max_chunks=None, max_code_points=None)
        expected += [] if result.error else [record(c, result) for c in result.chunks]
    try:
        got = list(iter_records(Reads(text, sizes), settings, buffer_size=buffer_size))
    except ResultError:
        assert not expected
        return
    assert len(got) == len(expected)
    for index, (rec, local) in enumerate(zip(got, expected, strict=True)):
        start, end = rec["start"], rec["end"]
        assert rec["index"] == index and rec["text"] == text[start:end] == local["text"]
        assert not any(start < seam < end for seam in seams)
        segment = bisect_right(seams, start)
        if index == 0 or bisect_right(seams, got[index - 1]["start"]) < segment:
            assert rec["overlap"] == 0  # the first chunk after a seam
        assert (rec["start_utf16"], rec["start_line"], rec["start_column"]) == where(text, start)
        _utf16, line, column = where(text, end - 1)
        assert (rec["end_utf16"], rec["end_line"], rec["end_column"]) == (
            where(text, end)[0],
            line,
            column,
        )
        same = {k: v for k, v in rec.items() if k not in OFFSETS}
        assert same == {k: v for k, v in local.items() if k not in OFFSETS}


OFFSETS = {"id", "index", "start", "end", "start_utf16", "end_utf16"} | {
    f"{edge}_{part}" for edge in ("start", "end") for part in ("line", "column")
}


def test_fixed_windows_restart_after_the_last_whitespace_of_a_full_buffer() -> None:
    """Worked by hand: buffer 16 over "one two three four five six"; the first buffer
    "one two three fo" is cut after its last space (14), the rest is the second segment;
    windows of 8 advancing by 5 start afresh there with overlap 0."""
    settings = Settings(mode="fixed", chunk_size=8, chunk_overlap=3)
    got = [
        (c.text, c.start, c.end, c.overlap)
        for c in iter_chunks(io.StringIO("one two three four five six"), settings, buffer_size=16)
    ]
    assert got == [
        ("one two", 0, 7, 0),
        ("wo three", 5, 13, 2),
        ("ree", 10, 13, 3),
        ("four fiv", 14, 22, 0),
        ("five six", 19, 27, 3),
    ]


@pytest.mark.parametrize(
    ("mode", "text", "seam"),
    [
        # the last sentence of a full buffer is carried: its end is not known yet
        ("sentence", "One two. Three four. Five six seven", 9),
        # one sentence in the buffer: cut after its last whitespace, words whole
        ("sentence", "one two three four five six", 14),
        # the first separator found ("\n\n") at its last occurrence
        ("recursive", "ab\n\ncd\n\nef gh\nij kl mn", 6),
        # no paragraph break: the last line break
        ("recursive", "ab cd\nef gh ij kl mn op", 5),
        # no whitespace at all: cut hard at the buffer's end
        ("fixed", "abcdefghijklmnopqrstu", 16),
        ("token-window", "abcdefghijklm opqrstu", 14),
    ],
)
def test_seam_per_mode(mode: str, text: str, seam: int) -> None:
    segments = list(iter_segments(io.StringIO(text), Settings(mode=mode), buffer_size=16))
    assert segments[1].position.code_points == seam


def test_a_seam_at_a_buffer_end_between_cr_and_lf_moves_before_the_cr() -> None:
    """The buffer ends with CR and the stream goes on with LF: one line break, so the
    seam goes before the CR and line numbers count it once."""
    text = "x" * 15 + "\r\nnext line"
    settings = Settings(mode="fixed", chunk_size=4, chunk_overlap=0)
    segments = list(iter_segments(io.StringIO(text, newline=""), settings, buffer_size=16))
    assert segments[1].position.code_points == 15
    chunks = list(iter_chunks(io.StringIO(text, newline=""), settings, buffer_size=16))
    assert [(c.text, c.start, c.start_line, c.start_column) for c in chunks[-3:]] == [
        ("ne", 17, 2, 1),  # the window "\r\nne", trimmed
        ("xt l", 19, 2, 3),
        ("ine", 23, 2, 7),
    ]


def test_markdown_structure_is_refused_with_a_reason() -> None:
    with pytest.raises(SettingError, match="Markdown structure cannot be streamed") as caught:
        next(iter_records(io.StringIO("# A\n\ntext"), Settings(mode="markdown")))
    assert caught.value.field == "mode"


def test_a_bad_buffer_size_is_refused() -> None:
    with pytest.raises(SettingError, match="Buffer size"):
        next(iter_segments(io.StringIO("text"), Settings(), buffer_size=8))


class Endless:
    """An endless generated text stream that counts what has been read from it."""

    def __init__(self) -> None:
        self.read_so_far = 0

    def read(self, n: int) -> str:
        self.read_so_far += n
        return ("Lorem ipsum dolor sit amet. " * (n // 28 + 1))[:n]


def test_records_come_as_they_are_cut() -> None:
    """The first records arrive after reading about one buffer, not the stream."""
    stream = Endless()
    records = iter_records(stream, Settings(chunk_size=50, chunk_overlap=10), buffer_size=4096)
    first = next(records)
    assert first["start"] == 0 and first["text"].startswith("Lorem")
    assert stream.read_so_far <= 2 * 4096


def lines(c: Chunk) -> tuple[int, int, int, int]:
    return c.start_line, c.start_column, c.end_line, c.end_column


class Spaces:
    """A generated stream: ``head``, then ``spaces`` spaces, then ``tail``, with no copy
    of the filler per read beyond one block."""

    def __init__(self, head: str, spaces: int, tail: str, block: int) -> None:
        self._parts = [head, spaces, tail]
        self._block = " " * block

    def read(self, n: int) -> str:
        while self._parts:
            part = self._parts[0]
            if isinstance(part, str):
                out, rest = part[:n], part[n:]
                if rest:
                    self._parts[0] = rest
                else:
                    self._parts.pop(0)
                if out:
                    return out
                continue
            take = min(n, part, len(self._block))
            if take == part:
                self._parts.pop(0)
            else:
                self._parts[0] = part - take
            return self._block if take == len(self._block) else self._block[:take]
        return ""


def test_offsets_beyond_two_to_the_31_code_points() -> None:
    """A generated stream of 8,193 full default buffers, then a tail: the tail's offsets,
    UTF-16 offsets (one emoji before it), lines and columns are exact past 2**31."""
    block = DEFAULT_BUFFER_SIZE
    head = "😀 start\r\n"  # 9 code points, 10 UTF-16 units, one line break
    tail = "naïve 😀 end\r\nlast line"  # 22 code points, an emoji, a line break
    at = 8_193 * block  # every buffer ends with a space: the tail starts a segment here
    assert at > 2**31
    settings = Settings(mode="fixed", chunk_size=10_000, chunk_overlap=0)
    stream = Spaces(head, at - len(head), tail, block)
    got = [
        (c.index, c.text, c.start, c.end, c.start_utf16, c.end_utf16, *lines(c))
        for c in iter_chunks(stream, settings)
    ]
    assert got == [
        (0, "😀 start", 0, 7, 0, 8, 1, 1, 1, 7),
        (1, tail, at, at + 22, at + 1, at + 24, 2, at - 9 + 1, 3, 9),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"abc \xf0\x9f\x98", r"invalid UTF-8 at byte 4\)"),  # ends inside a sequence
        (b"ok " * 40_000 + b"\xc3(", r"invalid UTF-8 at byte 120,000\)"),  # across reads
        (b"a\x00b", "is not a UTF-8 text file"),
        (b"\xff\xfea\x00", "is not a UTF-8 text file"),
        (b"", "is empty; choose a file with text in it"),
    ],
    ids=["ends-inside-a-sequence", "invalid-after-reads", "nul", "utf-16-bom", "empty"],
)
def test_bad_byte_streams_are_refused_with_the_byte_offset(data: bytes, message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        list(iter_records(Reads(data, [5, 3]), Settings(), name="The file big.txt"))


def test_a_byte_stream_read_a_byte_at_a_time_decodes_sequences_and_drops_the_bom() -> None:
    text = "Grüße 😀\r\n" * 50
    data = ("\ufeff" + text).encode()
    settings = Settings(chunk_size=30, chunk_overlap=5)
    assert list(iter_records(Reads(data, [1]), settings)) == in_memory(text, settings)


def test_a_stream_ending_inside_a_surrogate_pair_or_a_crlf() -> None:
    """The high half with no low half after it, or a CR with no LF, at the very end."""
    settings = Settings(mode="fixed", chunk_size=3, chunk_overlap=1)
    for text in ("ab c\ud83d", "ab\r\ncd\r"):
        assert list(iter_records(Reads(text, [1, 2]), settings, buffer_size=16)) == in_memory(
            text, settings
        )
        # and over several buffers: every chunk is still the text at its offsets
        for chunk in iter_chunks(Reads(text * 9, [3]), settings, buffer_size=16):
            assert (text * 9)[chunk.start : chunk.end] == chunk.text


def test_default_buffer_is_seed_002s() -> None:
    assert DEFAULT_BUFFER_SIZE == 262_144


@pytest.mark.parametrize("mode", STREAMED)
def test_written_jsonl_and_csv_equal_the_in_memory_downloads(mode: str) -> None:
    """Byte for byte: what ``write_records`` writes for a document within one buffer is
    ``to_jsonl``/``to_csv`` of the in-memory result (CSV with its spreadsheet guard)."""
    text = '=SUM(A1) Grüße 😀, "quoted"\r\n\r\n- item. Next one!\n' * 12
    settings = Settings(mode=mode, chunk_size=25, chunk_overlap=5, source_name="notes.txt")
    result = analyse(text, settings, max_chunks=None, max_code_points=None)
    for fmt, expected in (
        ("jsonl", to_jsonl(result)),
        ("csv", to_csv(result, spreadsheet_safe=True)),
    ):
        out = io.BytesIO()
        write_records(io.BytesIO(text.encode()), settings, out, format=fmt, spreadsheet_safe=True)
        assert out.getvalue().decode() == expected


def test_metadata_goes_before_source_and_settings() -> None:
    text = "One. Two."
    settings = Settings(chunk_size=5, chunk_overlap=0)
    expected = []
    for rec in in_memory(text, settings):
        last = {key: rec.pop(key) for key in ("source", "settings")}
        expected.append({**rec, "metadata": {"run": "7"}, **last})
    got = list(iter_records(io.StringIO(text), settings, metadata={"run": "7"}))
    assert got == expected
    assert [list(r)[-3:] for r in got] == [["metadata", "source", "settings"]] * len(got)
