"""Chunk records as JSONL and CSV (docs/decisions.md "Records")."""

from __future__ import annotations

import io
import json
import re
import struct
from collections.abc import Iterable, Sequence
from typing import Any

from ..embedding import MODEL_NAME
from ..measures.damage import ChunkDamage
from ..pipeline.analysis import Analysis
from ..pipeline.location import located
from ..pipeline.results import Chunk

CSV_HEADER = ("index", "start", "end", "length", "tokens", "overlap", "text")
# Characters a line-splitting reader (str.splitlines, JavaScript) may break on, and lone
# surrogates, which no UTF-8 file can hold: written as \u escapes so every record stays
# one line and reads back exactly.
_JSON_UNSAFE = re.compile("[\x85\u2028\u2029\ud800-\udfff]")
# json.dumps(ensure_ascii=False)'s string encoder (the C one when present)
_encode_string = json.encoder.encode_basestring
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def record_id(source_name: str, index: int) -> str:
    return f"{source_name or 'document'}#{index}"


def record(chunk: Chunk, analysis: Analysis, used: dict[str, Any] | None = None) -> dict[str, Any]:
    """One JSONL record, keys in the order of docs/decisions.md "Records"; then the keys
    the mode sets, then ``damage``; ``source`` and ``settings`` stay last. ``used`` is
    ``analysis.settings.record_settings()`` when the caller already has it."""
    settings = analysis.settings
    out = _head(chunk, analysis)
    out["source"] = settings.source_name or None
    out["settings"] = settings.record_settings() if used is None else used
    return out


def _head(chunk: Chunk, analysis: Analysis) -> dict[str, Any]:
    """A record's keys before ``source`` and ``settings``."""
    settings = analysis.settings
    out: dict[str, Any] = {
        "id": record_id(settings.source_name, chunk.index),
        "index": chunk.index,
        "text": chunk.text,
        "start": chunk.start,
        "end": chunk.end,
        "start_utf16": chunk.start_utf16,
        "end_utf16": chunk.end_utf16,
        "length": chunk.length,
        "tokens": analysis.tokens[chunk.index],
        "overlap": chunk.overlap,
        "start_line": chunk.start_line,
        "start_column": chunk.start_column,
        "end_line": chunk.end_line,
        "end_column": chunk.end_column,
    }
    for key in settings.mode_info.record_keys:
        out[key] = getattr(chunk, key)
    damage = analysis.damage
    if damage is not None:
        out["damage"] = damage.chunks[chunk.index].record()
    return out


def to_jsonl_with_model(
    analysis: Analysis,
    metadata: Any = None,
    unseen: Sequence[int] | None = None,
    vectors: Sequence[Sequence[float] | None] | None = None,
) -> str:
    """``to_jsonl``'s records with what the embedding model adds: ``damage`` gains
    ``beyond_model_window`` (the chunk's word pieces the model does not see) when
    ``unseen`` is given; ``embedding`` (the chunk's 384 numbers, each the shortest decimal
    that reads back as the same float32) and ``settings.embedding_model`` when ``vectors``
    are."""
    used = analysis.settings.record_settings()
    if vectors is not None:
        used["embedding_model"] = MODEL_NAME
    tail: dict[str, Any] = {} if metadata is None else {"metadata": metadata}
    tail["source"] = analysis.settings.source_name or None
    tail["settings"] = used
    shared = "," + json_line(tail)[1:] + "\n"
    lines = []
    for chunk in analysis.chunks:
        out = _head(chunk, analysis)
        if unseen is not None:
            out["damage"] = {**out.get("damage", {}), "beyond_model_window": unseen[chunk.index]}
        line = json_line(out)[:-1]
        if vectors is not None:
            vector = vectors[chunk.index]  # None: an empty chunk, never embedded
            numbers = "null" if vector is None else "[" + ",".join(map(float32_text, vector)) + "]"
            line += ',"embedding":' + numbers
        lines.append(line + shared)
    return "".join(lines)


def float32_text(value: float) -> str:
    """The shortest decimal that reads back as the same float32 as ``value``."""
    for digits in range(6, 10):
        text = f"{value:.{digits}g}"
        if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
            return text
    return repr(value)


def json_line(value: Any) -> str:
    """Compact JSON on one line, readable back exactly (see ``_JSON_UNSAFE``)."""
    return _escape_unsafe(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def to_jsonl(analysis: Analysis, metadata: Any = None) -> str:
    """One JSON object per chunk, each line ending in ``\\n``; ``metadata`` (when not
    None) placed before ``source`` and ``settings``.

    The same bytes as ``json_line`` of each whole ``record`` (tests/core/io/
    test_records.py), for a fraction of the work: the tail the records share
    (``metadata``, ``source``, ``settings``) is encoded once, and each record's head is
    written from a template whose strings go through ``json``'s own escaper (the C one
    ``json.dumps`` uses) and whose numbers and booleans are written as ``json.dumps``
    writes them, straight from the spans (``located``: no ``Chunk`` objects); the few
    damage objects a document has are encoded once each. What may split a line is
    escaped as ``json_line`` does: in the id and the mode's keys as they are written, and
    in the whole output at the end only when the source text holds such a character
    (chunk text is the source's; keys and numbers cannot hold one, escaped text none)."""
    settings = analysis.settings
    tail: dict[str, Any] = {} if metadata is None else {"metadata": metadata}
    tail["source"] = settings.source_name or None
    tail["settings"] = settings.record_settings()
    shared = "," + json_line(tail)[1:] + "\n"
    string = _encode_string
    head = _escape_unsafe('{"id":' + string(record_id(settings.source_name, 0))[:-2])  # no '0"'
    extra = settings.mode_info.record_keys
    tokens = analysis.tokens
    damage = analysis.damage
    damage_json: dict[ChunkDamage, str] = {}
    lines = []
    for i, start, end, s16, e16, length, overlap, sl, sc, el, ec, text, _w, meta in located(
        analysis.text, analysis.spans
    ):
        line = (
            f'{head}{i}","index":{i},"text":{string(text)},'
            f'"start":{start},"end":{end},"start_utf16":{s16},'
            f'"end_utf16":{e16},"length":{length},"tokens":{tokens[i]},'
            f'"overlap":{overlap},"start_line":{sl},'
            f'"start_column":{sc},"end_line":{el},'
            f'"end_column":{ec}'
        )
        for key in extra:
            value = getattr(meta, key) if meta else ""
            line += f',"{key}":{_escape_unsafe(_encode_value(value))}'
        if damage is not None:
            found = damage.chunks[i]
            encoded = damage_json.get(found)
            if encoded is None:
                encoded = damage_json[found] = ',"damage":' + _encode_value(found.record())
            line += encoded
        lines.append(line + shared)
    out = "".join(lines)
    return _escape_unsafe(out) if line_unsafe(analysis.text) else out


def line_unsafe(text: str) -> bool:
    """Whether ``_JSON_UNSAFE`` matches in ``text``, found without a regex scan (on a
    non-ASCII text the scan took ~7 % of the JSONL writer's time): an ASCII text
    holds none; else one of the three line separators, or a lone surrogate, which is
    exactly what a strict UTF-8 encoding refuses."""
    if text.isascii():
        return False
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _escape_unsafe(text: str) -> str:
    if not line_unsafe(text):
        return text
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _encode_value(value: Any) -> str:
    """``json.dumps`` of a string, number, boolean or object, compact, not yet escaped
    for line splitters."""
    if isinstance(value, str):
        return _encode_string(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _formula_safe(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_row(cells: Iterable[object], *, safe: bool = False) -> str:
    """One RFC 4180 row ending in CR LF (``csv.writer`` quotes a cell holding " , CR or
    LF and doubles its quotes); ``safe``: formula-like cells get a ``'`` first."""
    import csv  # here: only CSV output needs it

    texts = [str(cell) for cell in cells]
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(
        [_formula_safe(t) for t in texts] if safe else texts
    )
    return out.getvalue()


def to_csv(analysis: Analysis, *, spreadsheet_safe: bool = False) -> str:
    """RFC 4180 CSV with code-point offsets.

    Exact by default. ``spreadsheet_safe`` prefixes ``'`` to text cells that start with
    ``= + - @``, TAB or CR so spreadsheets do not run them as formulas; those cells then
    no longer equal ``source[start:end]``.
    """
    name = analysis.settings.source_name
    headings = "heading_path" in analysis.settings.mode_info.record_keys
    header = CSV_HEADER + (("heading_path",) if headings else ()) + (("source",) if name else ())
    rows = [csv_row(header)]
    for c in analysis.chunks:
        tokens = analysis.tokens[c.index]
        cells: tuple[object, ...] = (c.index, c.start, c.end, c.length, tokens, c.overlap, c.text)
        cells += (c.heading_path,) if headings else ()
        rows.append(csv_row(cells + ((name,) if name else ()), safe=spreadsheet_safe))
    return "".join(rows)


def download_name(source_name: str, extension: str) -> str:
    """A safe file name for downloads: letters, digits, ``._-`` only, never hidden."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", source_name).strip("._-")[:80]
    return f"{stem or 'chunks'}.{extension}"
