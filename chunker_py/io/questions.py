"""Questions files of the Evidence check: read and write Chroma's format (docs/decisions.md
"Evidence check", bad input 25-27).

Three shapes of the same objects ``{"question", "references", "corpus_id"}``, where
``references`` is a list of ``{"content", "start_index", "end_index"}`` (code points,
end-exclusive) and ``corpus_id`` is optional:

- CSV, as ``chunking_evaluation`` writes it with pandas: header
  ``question,references,corpus_id``, ``references`` a JSON list in one cell;
- JSON: a list of the objects;
- JSONL: one object a line.

The shape is read from the content (``[`` starts JSON, ``{`` JSONL, anything else must be
the CSV header), never from the file name. A file that is not such a file (not UTF-8, no
``question`` or ``references`` column, broken CSV or JSON, a lone surrogate) is refused
whole. ``import_questions`` imports every question that can be anchored and lists each one
skipped with its line and reason; ``read_questions`` refuses the file at the first such
question. Every message names the line (and the question).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from ..engine.errors import DocumentError
from ..engine.fields import LONE_SURROGATE
from ..engine.limits import MAX_EXCERPTS, MAX_QUESTION_LENGTH, MAX_QUESTIONS, MAX_QUESTIONS_BYTES
from ..measures.evidence import Excerpt, Placed, Question, anchor
from ..text.documents import decode_document
from .records import json_line

HEADER = ("question", "references", "corpus_id")
_CSV_FIELD = re.compile(r'"((?:[^"]+|"")*)"|([^,"\r\n]*)')
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class _Skip(DocumentError):
    """A problem of one question: the question is skipped, the file still read."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message, field="questions")
        self.line = line


def _fail(name: str, line: int, problem: str, question: str | None = None) -> _Skip:
    about = f' (question "{_short(question)}")' if question else ""
    return _Skip(f"{name}, line {line:,}{about}: {problem}", line)


@dataclass(frozen=True)
class Skipped:
    """A question not imported: the line it starts on and the message saying why."""

    line: int
    message: str


@dataclass
class Imported:
    """What ``import_questions`` made of a file: the questions imported (excerpts placed in
    the text), those skipped, and notes on excerpts found away from their offsets."""

    questions: list[Question] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_questions(
    data: bytes | str,
    *,
    name: str = "The questions file",
    max_questions: int | None = MAX_QUESTIONS,
    max_bytes: int | None = MAX_QUESTIONS_BYTES,
) -> list[Question]:
    """The questions in a CSV, JSON or JSONL file; raises ``DocumentError`` naming the line
    of the first problem."""
    questions = []
    for line, question in _parsed(data, name, max_bytes):
        if isinstance(question, _Skip):
            raise question
        questions.append(question)
        if max_questions is not None and len(questions) > max_questions:
            raise DocumentError(
                f"{name} holds more than {max_questions:,} questions (line {line:,} is the "
                f"{len(questions):,}th); the limit is {max_questions:,} per document.",
                field="questions",
            )
    if not questions:
        raise DocumentError(f"{name} holds no questions.", field="questions")
    return questions


def import_questions(
    data: bytes | str,
    *,
    name: str = "The questions file",
    text: str | None = None,
    documents: Collection[str] | None = None,
    present: int = 0,
    max_questions: int | None = MAX_QUESTIONS,
    max_bytes: int | None = MAX_QUESTIONS_BYTES,
    part: tuple[int, int] | None = None,
    elsewhere: Collection[str] = (),
) -> Imported:
    """Every question of the file that can be anchored; each other one skipped with its
    line and reason (Bad input 25-26): a malformed question or reference, a
    ``corpus_id`` naming none of ``documents`` (the loaded documents' names; None: not
    checked; ``elsewhere``: the names of the other documents loaded, which the reason
    names), excerpts that do not fit ``text`` (None: not checked), or more than
    ``max_questions`` with the ``present`` ones. Raises ``DocumentError`` only for a file
    that is not a questions file.

    ``part`` is where ``text`` lies in the file the questions were written for, when it is
    a part of it (code points ``[start, end)``, a file loaded in parts): a question whose
    excerpts all lie in it is imported with offsets in the part; one whose excerpts lie
    elsewhere, or across the part's edge, is skipped with that reason."""
    done = Imported()
    for line, question in _parsed(data, name, max_bytes):
        if isinstance(question, _Skip):
            done.skipped.append(Skipped(line, question.message))
            continue
        corpus = question.corpus_id
        if documents is not None and corpus is not None and corpus not in documents:
            problem = f'corpus_id "{_short(corpus)}" names no loaded document.'
            if corpus in elsewhere:
                problem = (
                    f'corpus_id "{_short(corpus)}" names another loaded document, not the '
                    "one shown: show it, then import its questions."
                )
            done.skipped.append(Skipped(line, _fail(name, line, problem, question.text).message))
            continue
        if part is not None:
            moved = in_part(question, *part)
            if isinstance(moved, str):
                done.skipped.append(Skipped(line, _fail(name, line, moved, question.text).message))
                continue
            question = moved
        notes: list[str] = []
        if text is not None:
            fitting, misfits = fit_questions(text, [question], name=name, notes=notes)
            if misfits:
                done.skipped += misfits
                continue
            question = fitting[0]
        if max_questions is not None and present + len(done.questions) >= max_questions:
            problem = (
                f"the limit is {max_questions:,} questions per document "
                f"({present + len(done.questions):,} are already there)."
            )
            done.skipped.append(Skipped(line, _fail(name, line, problem, question.text).message))
            continue
        done.questions.append(question)
        done.notes += notes
    return done


def in_part(question: Question, start: int, end: int) -> Question | str:
    """``question`` with its excerpts' offsets in the part ``[start, end)`` of its file,
    or why it cannot be: its evidence lies in another part, or across this part's edge."""
    inside = [start <= e.start and e.end <= end for e in question.excerpts]
    if all(inside):
        return replace(
            question,
            excerpts=tuple(replace(e, start=e.start - start, end=e.end - start)
                           for e in question.excerpts),
        )  # fmt: skip
    where = f"this part holds code points {start:,}-{end:,} of the file"
    if any(inside) or any(e.start < end and start < e.end for e in question.excerpts):
        return f"its evidence lies partly outside this part ({where})."
    return f"its evidence is in another part of the file ({where})."


def _parsed(
    data: bytes | str, name: str, max_bytes: int | None
) -> Iterator[tuple[int, Question | _Skip]]:
    """Each question of the file, or the problem it is skipped for, with its line; raises
    ``DocumentError`` when the file is not a questions file."""
    text = _decode(data, name, max_bytes)
    start = len(text) - len(text.lstrip())
    if not text.strip():
        raise DocumentError(f"{name} is empty; it holds no questions.", field="questions")
    first = text[start]
    if first == "[":
        rows = _json_rows(text, start, name)
    elif first == "{":
        rows = _jsonl_rows(text, name)
    else:
        rows = _csv_rows(text, name)
    for line, row in rows:
        if isinstance(row, _Skip):
            yield line, row
            continue
        try:
            yield line, _question(row, line, name)
        except _Skip as skip:
            yield line, skip


def _decode(data: bytes | str, name: str, max_bytes: int | None) -> str:
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
    elif data:  # as a document is: strict UTF-8, BOM dropped, within the byte limit
        text = decode_document(
            data, name=name, max_bytes=max_bytes, max_code_points=None,
            kind="text (CSV, JSON or JSONL)", field="questions",
        )  # fmt: skip
    else:
        text = ""
    bad = LONE_SURROGATE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise _fail(name, line, f"a lone surrogate (U+{ord(bad.group()):04X}) cannot be read.")
    return text


def _line_at(text: str, position: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, position)) + 1


def _json_rows(text: str, start: int, name: str) -> Iterator[tuple[int, Any]]:
    """The elements of a JSON list, each with the line it starts on."""
    decoder = json.JSONDecoder()
    position = start + 1
    line = _line_at(text, position)
    expect_value = True
    while True:
        skipped = _skip_space(text, position)
        line += len(_LINE_BREAK.findall(text, position, skipped))
        position = skipped
        if position >= len(text):
            raise _fail(name, line, "the JSON list is not closed with ].")
        char = text[position]
        if char == "]" and (expect_value is False or text[start + 1 : position].strip() == ""):
            if text[position + 1 :].strip():
                raise _fail(name, line, "text follows the JSON list's closing ].")
            return
        if not expect_value:
            if char != ",":
                raise _fail(name, line, "not valid JSON: expected , or ] between the objects.")
            position += 1
            expect_value = True
            continue
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as exc:
            raise _fail(
                name, exc.lineno, f"not valid JSON ({exc.msg}, column {exc.colno})."
            ) from None
        yield line, value
        line += len(_LINE_BREAK.findall(text, position, end))
        position = end
        expect_value = False


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _jsonl_rows(text: str, name: str) -> Iterator[tuple[int, Any]]:
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise _fail(
                name, number, f"not a JSON object on one line ({exc.msg}, column {exc.colno})."
            ) from None


def _csv_records(text: str, name: str) -> Iterator[tuple[int, list[str]]]:
    """RFC 4180 records with the line each starts on (quoted cells may hold line breaks)."""
    position, line = 0, 1
    while position < len(text):
        start_line = line
        cells = []
        while True:
            match = _CSV_FIELD.match(text, position)
            assert match is not None  # the pattern matches the empty string
            if match.group(1) is not None:
                cell = match.group(1)
                line += len(_LINE_BREAK.findall(cell))
                cells.append(cell.replace('""', '"'))
            else:
                cells.append(match.group(2))
            position = match.end()
            if position >= len(text):
                break
            char = text[position]
            if char == ",":
                position += 1
                continue
            if char in "\r\n":
                position += 2 if text.startswith("\r\n", position) else 1
                line += 1
                break
            problem = (
                "a quoted CSV cell is not closed"
                if text[position] == '"' and match.group(1) is None and not match.group(2)
                else 'a CSV cell has a " that is not doubled or the cell is not quoted'
            )
            raise _fail(name, start_line, problem + ".")
        if cells != [""]:
            yield start_line, cells


def _csv_rows(text: str, name: str) -> Iterator[tuple[int, dict[str, Any] | _Skip]]:
    """The rows as objects; a row that cannot be one is its problem (the row is skipped)."""
    records = _csv_records(text, name)
    first = next(records, None)
    header = [c.strip() for c in first[1]] if first else []
    missing = [key for key in ("question", "references") if key not in header]
    if missing:
        raise DocumentError(
            f"{name} is not a questions file: line 1 must be the CSV header "
            "question,references,corpus_id (as chunking_evaluation writes it), or the file "
            f"a JSON list or JSON lines of such objects (no {' or '.join(missing)} column).",
            field="questions",
        )
    for line, cells in records:
        if len(cells) != len(header):
            problem = f"the row has {len(cells)} cells; the header names {len(header)}."
            yield line, _fail(name, line, problem)
            continue
        row: dict[str, Any] = dict(zip(header, cells, strict=True))
        refs = row["references"]
        try:
            row["references"] = json.loads(refs)
        except json.JSONDecodeError as exc:
            problem = f"references must be a JSON list ({exc.msg}, column {exc.colno})."
            yield line, _fail(name, line, problem, row.get("question"))
            continue
        if row.get("corpus_id") == "":
            row["corpus_id"] = None
        yield line, row


def _question(row: Any, line: int, name: str) -> Question:
    if not isinstance(row, dict):
        raise _fail(name, line, "expected an object with question and references.")
    text = row.get("question")
    if "question" not in row or "references" not in row:
        missing = " and ".join(k for k in ("question", "references") if k not in row)
        raise _fail(name, line, f"the object has no {missing}.")
    if not isinstance(text, str):
        raise _fail(name, line, "question must be text.")
    _no_surrogate(text, "the question", line, name)
    if not text.strip():
        raise _fail(name, line, "the question is empty; write the question or remove the row.")
    if len(text) > MAX_QUESTION_LENGTH:
        raise _fail(
            name,
            line,
            f"the question has {len(text):,} code points; the limit is {MAX_QUESTION_LENGTH:,}.",
            text,
        )
    refs = row["references"]
    if isinstance(refs, str):  # a CSV cell turned into JSON as is
        try:
            refs = json.loads(refs)
        except json.JSONDecodeError:
            raise _fail(name, line, "references must be a JSON list.", text) from None
    if not isinstance(refs, list) or not refs:
        raise _fail(name, line, "references must be a list of 1 or more excerpts.", text)
    if len(refs) > MAX_EXCERPTS:
        raise _fail(
            name,
            line,
            f"the question has {len(refs):,} excerpts; the limit is {MAX_EXCERPTS:,}.",
            text,
        )
    corpus = row.get("corpus_id")
    if corpus is not None and not isinstance(corpus, str):
        raise _fail(name, line, "corpus_id must be text (a file path, name or stem).", text)
    if corpus is not None:
        _no_surrogate(corpus, "corpus_id", line, name)
    excerpts = tuple(_excerpt(ref, n, line, name, text) for n, ref in enumerate(refs, 1))
    return Question(text, excerpts, corpus or None, line)


def _excerpt(ref: Any, n: int, line: int, name: str, question: str) -> Excerpt:
    shape = 'each reference must be {"content": text, "start_index": N, "end_index": N}'
    if not isinstance(ref, dict) or not {"content", "start_index", "end_index"} <= ref.keys():
        raise _fail(name, line, f"reference {n}: {shape}.", question)
    content = ref["content"]
    start, end = _whole(ref["start_index"]), _whole(ref["end_index"])
    if not isinstance(content, str) or start is None or end is None:
        raise _fail(name, line, f"reference {n}: {shape}.", question)
    if not content:
        raise _fail(name, line, f"reference {n}: the excerpt's content is empty.", question)
    _no_surrogate(content, f"reference {n}'s content", line, name)
    if not 0 <= start < end:
        raise _fail(
            name,
            line,
            f"reference {n}: start_index {start:,} and end_index {end:,} must satisfy "
            "0 ≤ start_index < end_index.",
            question,
        )
    return Excerpt(content, start, end)


def _no_surrogate(value: str, what: str, line: int, name: str) -> None:
    """A lone surrogate (a JSON escape such as \\ud800) can match no UTF-8 text."""
    bad = LONE_SURROGATE.search(value)
    if bad:  # the whole file is refused, as a document holding one is
        raise DocumentError(
            f"{name}, line {line:,}: {what} contains a lone surrogate "
            f"(U+{ord(bad.group()):04X}) at code point {bad.start():,}; no UTF-8 text holds one.",
            field="questions",
        )


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def check_against(
    text: str, questions: Sequence[Question], *, name: str = "The questions file"
) -> list[str]:
    """Refuse questions whose excerpts do not fit ``text`` (offsets past its end, content
    found nowhere), naming the line; return notes on excerpts found elsewhere than at their
    offsets (located by content, the occurrence nearest their start)."""
    notes = []
    for number, q in enumerate(questions, 1):
        where = q.line or number
        for n, (e, p) in enumerate(zip(q.excerpts, anchor(text, q), strict=True), 1):
            if e.end > len(text):
                raise _fail(
                    name,
                    where,
                    f"reference {n}: end_index {e.end:,} lies outside the text "
                    f"({len(text):,} code points); is this the file's document?",
                    q.text,
                )
            if not p.found:
                raise _fail(
                    name,
                    where,
                    f'reference {n}: its content ("{_short(e.content)}") is not in the text.',
                    q.text,
                )
            if p.moved:
                notes.append(
                    f"{name}, line {where:,}: reference {n}'s content is at {p.start:,} to "
                    f"{p.end:,}, not at its offsets {e.start:,} to {e.end:,}; it is used there."
                )
    return notes


def fit_questions(
    text: str,
    questions: Sequence[Question],
    *,
    name: str = "The questions file",
    notes: list[str] | None = None,
) -> tuple[list[Question], list[Skipped]]:
    """The questions whose excerpts fit ``text``, placed in it, and those that do not
    (offsets past its end, content found nowhere), each with its line and reason; notes on
    excerpts found away from their offsets go to ``notes``."""
    fitting, misfits = [], []
    for question in questions:
        try:
            found = check_against(text, [question], name=name)
        except _Skip as skip:
            misfits.append(Skipped(question.line, skip.message))
            continue
        if notes is not None:
            notes += found
        fitting += placed_questions([question], text)
    return fitting, misfits


# -- writing


def _objects(questions: Sequence[Question]) -> list[dict[str, Any]]:
    return [
        {
            "question": q.text,
            "references": [
                {"content": e.content, "start_index": e.start, "end_index": e.end}
                for e in q.excerpts
            ],
            "corpus_id": q.corpus_id,
        }
        for q in questions
    ]


def placed_questions(questions: Sequence[Question], text: str) -> list[Question]:
    """``questions`` with each found excerpt at its place in ``text`` (as exported)."""
    out = []
    for q in questions:
        placed: tuple[Placed, ...] = anchor(text, q)
        excerpts = tuple(Excerpt(p.content, p.start, p.end) for p in placed)
        out.append(Question(q.text, excerpts, q.corpus_id, q.line))
    return out


def _csv_cell(text: str) -> str:
    if re.search('[",\r\n]', text):
        return '"' + text.replace('"', '""') + '"'
    return text


def questions_to_csv(questions: Sequence[Question]) -> str:
    """Chroma's CSV: ``references`` as ``json.dumps`` writes it (what pandas stores)."""
    rows = [",".join(HEADER)]
    for obj in _objects(questions):
        refs = json.dumps(obj["references"])
        rows.append(",".join(_csv_cell(c) for c in (obj["question"], refs, obj["corpus_id"] or "")))
    return "\r\n".join(rows) + "\r\n"


def questions_to_json(questions: Sequence[Question]) -> str:
    return json.dumps(_objects(questions), ensure_ascii=False, indent=2) + "\n"


def questions_to_jsonl(questions: Sequence[Question]) -> str:
    return "".join(json_line(obj) + "\n" for obj in _objects(questions))


def questions_for(
    questions: Sequence[Question], path: str, source_name: str = ""
) -> list[Question]:
    """The questions about the file at ``path`` (``-``: standard input): those without a
    ``corpus_id``, and those whose ``corpus_id`` is its path, file name or file name without
    extension (or the source name)."""
    names = {source_name} - {""}
    if path != "-":
        pure = PurePath(path)
        names |= {path, pure.name, pure.stem, str(pure)}
    return [q for q in questions if q.corpus_id is None or q.corpus_id in names]


def distribute(
    questions: Sequence[Question], paths: Sequence[str]
) -> tuple[dict[str, list[Question]], list[str]]:
    """Questions over a set of documents: each document's questions (``questions_for``:
    a question without ``corpus_id`` belongs to every document), keyed by path, and the
    ``corpus_id`` values that name none of them, in first-seen order (listed, never
    dropped silently)."""
    by_path = {path: questions_for(questions, path) for path in paths}
    named = {q.corpus_id for qs in by_path.values() for q in qs}
    unmatched: list[str] = []
    for q in questions:
        if q.corpus_id is not None and q.corpus_id not in named and q.corpus_id not in unmatched:
            unmatched.append(q.corpus_id)
    return by_path, unmatched
