"""The Evidence check on the command line: ``--questions``, ``--top-k``, the ``evidence``
object of summary and compare rows, ``--format evidence``, several files (run as a real
process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunker_py import Settings, analyse
from chunker_py.io.questions import read_questions
from chunker_py.measures.evidence import evidence_of

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "static" / "sample.txt"
QUESTIONS = ROOT / "static" / "sample-questions.csv"
pytestmark = pytest.mark.subprocess


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=120,
        text=True,
        encoding="utf-8",
    )


def lines(done: subprocess.CompletedProcess[str]) -> list[dict]:
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_sample_questions_ask_about_a_rule_and_its_exception() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    questions = read_questions(QUESTIONS.read_bytes())
    assert 2 <= len(questions) <= 3
    assert any(len(q.excerpts) == 2 and q.excerpts[1].content.startswith("Exception:")
               for q in questions)  # fmt: skip
    for q in questions:
        for e in q.excerpts:
            assert text[e.start : e.end] == e.content


def test_evidence_lines_follow_the_size() -> None:
    """At 300 the refund rule and its exception share a chunk; at 150 the exception is cut
    (it runs into the next chunk) and no chunk answers the question alone."""
    wide = lines(cli(str(SAMPLE), "--questions", str(QUESTIONS), "--format", "evidence"))
    narrow = lines(
        cli(
            str(SAMPLE),
            "--questions",
            str(QUESTIONS),
            "--format",
            "evidence",
            "--size",
            "150",
            "--overlap",
            "0",
        )
    )
    assert [x["question"] for x in wide] == [q.text for q in read_questions(QUESTIONS.read_bytes())]
    refund = 1
    assert [e["kept_whole"] for e in wide[refund]["excerpts"]] == [True, True]
    assert wide[refund]["one_chunk"] is True and wide[refund]["chunks_to_read"] == 1
    assert [e["kept_whole"] for e in narrow[refund]["excerpts"]] == [True, False]
    assert narrow[refund]["one_chunk"] is False
    assert len(narrow[refund]["excerpts"][1]["chunks"]) == 2


def test_cli_figures_equal_the_library() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    questions = read_questions(QUESTIONS.read_bytes())
    analysis = analyse(text, Settings(chunk_size=200, chunk_overlap=20, top_k=3))
    found = evidence_of(analysis, questions)
    assert found is not None
    args = (str(SAMPLE), "--questions", str(QUESTIONS), "--size", "200", "--overlap", "20")
    (summary,) = lines(cli(*args, "--top-k", "3", "--format", "summary"))
    assert summary["evidence"] == found.summary()
    assert summary["evidence"]["retrieval"]["k"] == 3
    per_question = lines(cli(*args, "--link", "#k=3", "--format", "evidence"))
    assert per_question == [r.as_json(None) for r in found.results]
    assert all(len(x["retrieval"]["chunks"]) == 3 for x in per_question)


def test_every_compare_row_carries_evidence() -> None:
    rows = lines(cli(str(SAMPLE), "--questions", str(QUESTIONS), "--format", "compare"))
    (summary,) = lines(cli(str(SAMPLE), "--questions", str(QUESTIONS), "--format", "summary"))
    assert len(rows) == 8 and all(row["evidence"]["questions"] == 3 for row in rows)
    (current,) = [row for row in rows if row["current"]]
    assert current["evidence"] == summary["evidence"]
    plain = lines(cli(str(SAMPLE), "--format", "compare"))
    assert all("evidence" not in row for row in plain)


def test_format_evidence_needs_questions() -> None:
    done = cli(str(SAMPLE), "--format", "evidence")
    assert done.returncode == 2 and done.stdout == "" and "--questions" in done.stderr


def test_a_bad_question_is_skipped_on_stderr_with_status_1(tmp_path: Path) -> None:
    """Bad input 26: the empty question is listed; the others are checked."""
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"question": "ok?", "references": [{"content": "Snapshots", '
                   '"start_index": 645, "end_index": 654}]}\n{"question": ""}\n')  # fmt: skip
    done = cli(str(SAMPLE), "--questions", str(bad), "--format", "evidence")
    assert done.returncode == 1
    assert [json.loads(line)["question"] for line in done.stdout.splitlines()] == ["ok?"]
    (message,) = done.stderr.splitlines()
    assert "line 2" in message and str(bad) in message and message.endswith("Skipped.")


def test_a_file_that_is_not_a_questions_file_exits_2(tmp_path: Path) -> None:
    """Bad input 25: no question or references column: refused whole, nothing cut."""
    bad = tmp_path / "q.csv"
    bad.write_text("Just some notes\n")
    done = cli(str(SAMPLE), "--questions", str(bad), "--format", "summary")
    assert done.returncode == 2 and done.stdout == ""
    assert "not a questions file" in done.stderr and str(bad) in done.stderr


def test_one_file_skips_the_questions_it_does_not_hold(tmp_path: Path) -> None:
    """Bad input 25: offsets outside the text, content matching nowhere and a corpus_id
    naming no input file are listed on stderr with their lines (status 1); the question
    that fits is checked."""
    text = SAMPLE.read_text(encoding="utf-8")
    fits = read_questions(QUESTIONS.read_bytes())[0]
    good = {
        "question": fits.text,
        "references": [
            {"content": e.content, "start_index": e.start, "end_index": e.end}
            for e in fits.excerpts
        ],
    }
    rows = [
        good,
        {"question": "far?", "references": [{"content": "x", "start_index": len(text) + 5,
                                              "end_index": len(text) + 6}]},
        {"question": "q?", "references": [{"content": "Voucher codes", "start_index": 0,
                                           "end_index": 13}]},
        {**good, "question": "elsewhere?", "corpus_id": "finance"},
    ]  # fmt: skip
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = cli(str(SAMPLE), "--questions", str(questions), "--format", "evidence")
    assert done.returncode == 1
    assert [json.loads(line)["question"] for line in done.stdout.splitlines()] == [fits.text]
    # unknown corpus_ids are found before the file is read, misfits while it is cut
    messages = sorted(done.stderr.splitlines(), key=lambda m: m.split(", line ")[1])
    assert [m.split(":")[1].split(" (")[0] for m in messages] == [
        f" The questions file {questions}, line 2",
        f" The questions file {questions}, line 3",
        f" The questions file {questions}, line 4",
    ]
    assert "lies outside the text" in messages[0]
    assert "is not in the text" in messages[1]
    assert 'corpus_id "finance" names no loaded document' in messages[2]


def test_corpus_id_names_the_file(tmp_path: Path) -> None:
    a, b = tmp_path / "alpha.md", tmp_path / "beta.txt"
    a.write_text("Alpha holds the rule. Nothing else here.")
    b.write_text("Beta holds the exception. More words.")

    def q(text: str, content: str, start: int, corpus: str | None) -> str:
        ref = {"content": content, "start_index": start, "end_index": start + len(content)}
        return json.dumps({"question": text, "references": [ref], "corpus_id": corpus}) + "\n"

    questions = tmp_path / "q.jsonl"
    questions.write_text(
        q("by stem", "the rule", 12, "alpha")
        + q("by file name", "the exception", 11, "beta.txt")
        + q("by path", "Nothing else", 22, str(a))
        + q("anywhere", "holds", 6, None)
        + q("elsewhere", "zzz", 0, "gamma")
        + q("only in beta", "More words", 26, None)
    )
    done = cli(str(a), str(b), "--questions", str(questions), "--format", "evidence")
    assert done.returncode == 1  # "gamma" names no input file: listed
    (message,) = done.stderr.splitlines()
    assert "line 5" in message and 'corpus_id "gamma" names no loaded document' in message
    out = [json.loads(line) for line in done.stdout.splitlines()]
    asked = [(x["source"], x["question"], x["matched"]) for x in out]
    assert asked == [
        (str(a), "by stem", True),
        (str(a), "by path", True),
        (str(a), "anywhere", True),
        (str(a), "only in beta", False),  # several files: unmatched there, not an error
        (str(b), "by file name", True),
        (str(b), "anywhere", True),
        (str(b), "only in beta", True),
    ]
