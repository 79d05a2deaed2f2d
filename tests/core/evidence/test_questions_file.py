"""Questions files in Chroma's format (CSV ``question,references,corpus_id``, and the same
objects as JSON and JSONL): reading, writing back, and bad input (cases 25-27), each
refused with a message naming the line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py import DocumentError
from chunker_py.io.questions import (
    check_against,
    questions_to_csv,
    questions_to_json,
    questions_to_jsonl,
    read_questions,
)
from chunker_py.measures.evidence import Excerpt, Question

TEXT = "Refunds take 14 days. Gift cards are never refunded."
# as chunking_evaluation writes it: pandas to_csv(index=False) of json.dumps(references)
CHROMA_CSV = (
    "question,references,corpus_id\n"
    '"How long, and when not?","[{""content"": ""Refunds take 14 days."", ""start_index"": 0, '
    '""end_index"": 21}, {""content"": ""Gift cards are never refunded."", ""start_index"": 22,'
    ' ""end_index"": 52}]",policy.md\n'
    'Are gift cards refunded?,"[{""content"": ""Gift cards are never refunded."", '
    '""start_index"": 22, ""end_index"": 52}]",\n'
)


def test_reads_chromas_csv() -> None:
    first, second = read_questions(CHROMA_CSV)
    assert first.text == "How long, and when not?"
    assert first.excerpts == (
        Excerpt("Refunds take 14 days.", 0, 21),
        Excerpt("Gift cards are never refunded.", 22, 52),
    )
    assert first.corpus_id == "policy.md" and second.corpus_id is None
    assert (first.line, second.line) == (2, 3)
    assert check_against(TEXT, [first, second]) == []


def test_the_three_shapes_round_trip() -> None:
    questions = read_questions(CHROMA_CSV)
    for write in (questions_to_csv, questions_to_json, questions_to_jsonl):
        again = read_questions(write(questions))
        assert [(q.text, q.excerpts, q.corpus_id) for q in again] == [
            (q.text, q.excerpts, q.corpus_id) for q in questions
        ]


def test_csv_references_are_written_as_json_dumps_writes_them() -> None:
    csv = questions_to_csv(read_questions(CHROMA_CSV))
    header, row, *_ = csv.split("\r\n")
    assert header == "question,references,corpus_id"
    cell = row.split(',"', 1)[1].rsplit('",', 1)[0].replace('""', '"')
    assert cell == json.dumps(
        [
            {"content": "Refunds take 14 days.", "start_index": 0, "end_index": 21},
            {"content": "Gift cards are never refunded.", "start_index": 22, "end_index": 52},
        ]
    )


TRICKY = st.text(
    st.characters(exclude_categories=["Cs"]) | st.sampled_from(['"', ",", "\n", "\r", "\u2028"]),
    min_size=1,
    max_size=30,
).filter(lambda s: s.strip() != "")


@settings(max_examples=60)
@given(st.lists(st.tuples(TRICKY, TRICKY, st.none() | TRICKY), min_size=1, max_size=4))
def test_any_text_round_trips_in_every_shape(rows) -> None:  # type: ignore[no-untyped-def]
    questions = [Question(t, (Excerpt(c, 3, 3 + len(c)),), cid) for t, c, cid in rows]
    for write in (questions_to_csv, questions_to_json, questions_to_jsonl):
        again = read_questions(write(questions))
        assert [(q.text, q.excerpts, q.corpus_id) for q in again] == [
            (q.text, q.excerpts, q.corpus_id) for q in questions
        ]


def refused(data: str | bytes, text: str | None = None) -> str:
    with pytest.raises(DocumentError) as info:
        questions = read_questions(data)
        if text is not None:
            check_against(text, questions)
    return info.value.message


def jsonl(*objects: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objects)


GOOD = {"question": "q?", "references": [{"content": "Gift", "start_index": 22, "end_index": 26}]}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", ["not a UTF-8 text file"]),
        (b"q\xff", ["invalid UTF-8 at byte 1"]),
        ("", ["empty"]),
        ("Just some notes\nabout refunds\n", ["not a questions file", "line 1"]),
        ("question,corpus_id\nq?,a\n", ["no references column"]),
        ("question,references\nq?,not json\n", ["line 2", "references must be a JSON list"]),
        ('question,references\n"q?,"[]"\n', ["line 2"]),
        ("question,references\nq?,[],x\n", ["line 2", "3 cells"]),
        ('[{"question": "q?"', ["line 1", "not valid JSON"]),
        ('[\n\n{"question": "q?", "references": []}\n]', ["line 3", "1 or more excerpts"]),
        (jsonl(GOOD, {"references": []}), ["line 2", "no question"]),
        (jsonl(GOOD, "text"), ["line 2", "expected an object"]),
        (jsonl(GOOD) + "{not json}\n", ["line 2", "not a JSON object"]),
        (jsonl({**GOOD, "question": "  "}), ["line 1", "the question is empty"]),
        (jsonl({**GOOD, "question": "x" * 1001}), ["line 1", "1,001 code points", "1,000"]),
        (jsonl({**GOOD, "references": [GOOD["references"][0]] * 21}), ["21 excerpts", "20"]),
        (jsonl({**GOOD, "references": [{"content": "Gift"}]}), ["reference 1", "start_index"]),
        (
            jsonl({**GOOD, "references": [{"content": "", "start_index": 0, "end_index": 1}]}),
            ["reference 1", "content is empty"],
        ),
        (
            jsonl({**GOOD, "references": [{"content": "G", "start_index": 5, "end_index": 5}]}),
            ["start_index 5 and end_index 5", "0 ≤ start_index < end_index"],
        ),
        (
            jsonl({**GOOD, "references": [{"content": "G", "start_index": "0", "end_index": 1}]}),
            ["reference 1"],
        ),
        (jsonl({**GOOD, "corpus_id": 7}), ["corpus_id must be text"]),
        ('[{"question": "q\\ud800?", "references": []}]', ["line 1", "lone surrogate (U+D800)"]),
        (jsonl(*[GOOD] * 201), ["more than 200 questions", "line 201"]),
    ],
)
def test_bad_files_are_refused_naming_the_line(data: str | bytes, words: list[str]) -> None:
    """Bad input 25-27."""
    message = refused(data)
    for word in words:
        assert word in message, message


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ({"content": "Gift", "start_index": 22, "end_index": 80}, ["end_index 80 lies outside"]),
        ({"content": "Voucher", "start_index": 0, "end_index": 7}, ['"Voucher") is not in']),
    ],
)
def test_excerpts_that_do_not_fit_the_text_are_refused(ref: dict, words: list[str]) -> None:
    """Bad input 25: offsets outside the text, content matching nowhere."""
    message = refused(jsonl(GOOD, {**GOOD, "question": "Which?", "references": [ref]}), TEXT)
    assert "line 2" in message and 'question "Which?"' in message
    for word in words:
        assert word in message, message


def test_content_not_at_its_offsets_is_located_and_noted() -> None:
    questions = read_questions(jsonl({**GOOD, "references": [
        {"content": "Gift", "start_index": 0, "end_index": 4}]}))  # fmt: skip
    (note,) = check_against(TEXT, questions)
    assert "line 1" in note and "22 to 26" in note and "0 to 4" in note


def test_html_looking_questions_are_plain_text() -> None:
    """Bad input 27: read as text, nothing interpreted."""
    (q,) = read_questions(jsonl({**GOOD, "question": "<script>alert(1)</script>?"}))
    assert q.text == "<script>alert(1)</script>?"


def test_the_user_guides_questions_fit_it_exactly() -> None:
    """tests/data/user_guide-questions.csv: twelve questions written for the user guide
    (the closing note's real document), every excerpt at its offsets."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "data"
    questions = read_questions((data / "user_guide-questions.csv").read_bytes())
    text = (data / "user_guide.txt").read_text(encoding="utf-8")
    assert len(questions) == 12 and all(q.corpus_id == "user_guide" for q in questions)
    assert check_against(text, questions) == []
