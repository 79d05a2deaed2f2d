"""Importing questions is not all or nothing (Bad input 25-26): every question that can
be anchored is imported; each one skipped is listed with its line and reason; a file that
is not a questions file is still refused whole."""

from __future__ import annotations

import json

import pytest

from chunker_py import DocumentError
from chunker_py.io.questions import import_questions

TEXT = "Refunds take 14 days. Gift cards are never refunded."
GOOD = {"question": "q?", "references": [{"content": "Gift", "start_index": 22, "end_index": 26}]}
REF = GOOD["references"][0]


def jsonl(*objects: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objects)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"references": []}, ["no question"]),
        ("text", ["expected an object"]),
        ({**GOOD, "question": "  "}, ["the question is empty"]),
        ({**GOOD, "question": "x" * 1001}, ["1,001 code points", "1,000"]),
        ({**GOOD, "references": [REF] * 21}, ["21 excerpts", "20"]),
        ({**GOOD, "references": []}, ["1 or more excerpts"]),
        ({**GOOD, "references": [{"content": "Gift"}]}, ["reference 1", "start_index"]),
        (
            {**GOOD, "references": [{"content": "G", "start_index": 5, "end_index": 5}]},
            ["0 ≤ start_index < end_index"],
        ),
        ({**GOOD, "corpus_id": 7}, ["corpus_id must be text"]),
        (
            {**GOOD, "references": [{"content": "Gift", "start_index": 22, "end_index": 80}]},
            ["end_index 80 lies outside the text (52 code points)"],
        ),
        (
            {**GOOD, "references": [{"content": "Voucher", "start_index": 0, "end_index": 7}]},
            ['"Voucher") is not in the text'],
        ),
        ({**GOOD, "corpus_id": "finance"}, ['corpus_id "finance" names no loaded document']),
    ],
)
def test_one_bad_question_is_skipped_and_listed_the_others_imported(
    bad: object, words: list[str]
) -> None:
    """Bad input 25-26: the question on line 2 is skipped with its reason."""
    first, last = {**GOOD, "question": "First?"}, {**GOOD, "question": "Last?"}
    done = import_questions(
        jsonl(first, bad, last), name="q.jsonl", text=TEXT, documents={"policy", "policy.md"}
    )
    assert [q.text for q in done.questions] == ["First?", "Last?"]
    assert [q.line for q in done.questions] == [1, 3]
    (skipped,) = done.skipped
    assert skipped.line == 2
    assert skipped.message.startswith("q.jsonl, line 2")
    for word in words:
        assert word in skipped.message, skipped.message


def test_questions_over_the_limit_are_listed_not_dropped() -> None:
    """Bad input 26: beyond 200 questions a document, the excess is listed."""
    done = import_questions(jsonl(*[GOOD] * 203), name="q.jsonl", text=TEXT, present=1)
    assert len(done.questions) == 199
    assert [s.line for s in done.skipped] == [200, 201, 202, 203]
    assert "limit is 200 questions per document" in done.skipped[0].message


def test_a_corpus_id_is_checked_only_against_named_documents() -> None:
    """A pasted text has no name: its questions are anchored by their excerpts alone."""
    done = import_questions(jsonl({**GOOD, "corpus_id": "finance"}), name="q.jsonl", text=TEXT)
    assert len(done.questions) == 1 and done.skipped == []


def test_content_found_elsewhere_is_imported_with_a_note() -> None:
    moved = {**GOOD, "references": [{"content": "Gift", "start_index": 0, "end_index": 4}]}
    done = import_questions(jsonl(moved), name="q.jsonl", text=TEXT)
    (note,) = done.notes
    assert "line 1" in note and "22 to 26" in note
    assert (done.questions[0].excerpts[0].start, done.skipped) == (22, [])


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("Just some notes\nabout refunds\n", ["not a questions file"]),
        ("question,corpus_id\nq?,a\n", ["no references column"]),
        ('[{"question": "q?"', ["line 1", "not valid JSON"]),
        (jsonl(GOOD) + "{not json}\n", ["line 2", "not a JSON object"]),
        ('[{"question": "q\\ud800?", "references": []}]', ["lone surrogate (U+D800)"]),
        ("", ["empty"]),
    ],
)
def test_a_file_that_is_not_a_questions_file_is_refused_whole(data: str, words: list[str]) -> None:
    """Bad input 25 and 27: not CSV/JSON/JSONL, no question or references column."""
    with pytest.raises(DocumentError) as info:
        import_questions(data, name="q.jsonl", text=TEXT)
    for word in words:
        assert word in info.value.message, info.value.message


def test_a_file_of_only_skipped_questions_imports_none_and_lists_each() -> None:
    bad = {**GOOD, "references": [{"content": "Voucher", "start_index": 0, "end_index": 7}]}
    done = import_questions(jsonl(bad, bad), name="q.jsonl", text=TEXT)
    assert done.questions == [] and [s.line for s in done.skipped] == [1, 2]


def test_questions_for_a_part_of_their_file_keep_those_whose_evidence_it_holds() -> None:
    """A file loaded in parts: the questions written for the whole file are imported for
    the part shown when all their evidence lies in it, at offsets in the part, and skipped
    with the reason otherwise (another part, or across this part's edge): the offsets of
    Chroma's chunking_evaluation questions are the file's."""
    from chunker_py.config.settings import Settings
    from chunker_py.io.parts import cut_parts

    whole = "".join(f"Sentence number {n} of the file. " for n in range(2_000))
    parts = cut_parts(whole, Settings())
    assert len(parts) == 4
    second = parts[1]
    start = second.position.code_points
    end = start + len(second.text)

    def asked(question: str, *spans: tuple[int, int]) -> dict[str, object]:
        refs = [{"content": whole[s:e], "start_index": s, "end_index": e} for s, e in spans]
        return {"question": question, "references": refs, "corpus_id": "book"}

    inside = (start + 100, start + 140)
    data = jsonl(
        asked("in the part", inside, (end - 30, end)),
        asked("in the first part", (10, 40)),
        asked("across the edge", (end - 10, end + 10)),
        asked("one here, one there", inside, (end + 500, end + 520)),
    )
    done = import_questions(
        data, text=second.text, documents={"book", "book.txt"}, part=(start, end)
    )
    assert [q.text for q in done.questions] == ["in the part"]
    placed = done.questions[0].excerpts
    assert [(e.start, e.end) for e in placed] == [
        (100, 140),
        (len(second.text) - 30, len(second.text)),
    ]
    assert all(second.text[e.start : e.end] == e.content for e in placed)
    reasons = [s.message for s in done.skipped]
    where = f"this part holds code points {start:,}-{end:,} of the file"
    assert f"its evidence is in another part of the file ({where})" in reasons[0]
    assert f"its evidence lies partly outside this part ({where})" in reasons[1]
    assert f"its evidence lies partly outside this part ({where})" in reasons[2]
    assert [s.line for s in done.skipped] == [2, 3, 4]


def test_a_question_for_another_loaded_document_says_so() -> None:
    """The page's document list: a question whose corpus_id names a document loaded but
    not shown is skipped with that reason, not as naming no document."""
    data = jsonl({**GOOD, "corpus_id": "pubmed"}, {**GOOD, "corpus_id": "nowhere"})
    done = import_questions(data, text=TEXT, documents={"finance"}, elsewhere={"pubmed"})
    assert done.questions == []
    first, second = (s.message for s in done.skipped)
    assert 'corpus_id "pubmed" names another loaded document, not the one shown' in first
    assert 'corpus_id "nowhere" names no loaded document.' in second
