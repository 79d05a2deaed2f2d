"""Questions over a set of documents: a question's corpus_id names its document by path,
file name or file name without extension; ids naming no document are listed."""

from __future__ import annotations

import pathlib

import pytest

from chunker_py.io.questions import distribute, read_questions
from chunker_py.measures.evidence import Question


def question(text: str, corpus_id: str | None) -> Question:
    return Question(text, (), corpus_id)


def test_corpus_id_names_a_document_by_path_name_or_stem() -> None:
    asked = [
        question("by stem", "finance"),
        question("by name", "pubmed.md"),
        question("by path", "corpora/chatlogs.md"),
        question("about every document", None),
        question("unknown", "wikitexts"),
        question("unknown again", "wikitexts"),
        question("another unknown", "finance.txt"),
    ]
    paths = ["corpora/finance.md", "corpora/pubmed.md", "corpora/chatlogs.md"]
    by_path, unmatched = distribute(asked, paths)
    assert [q.text for q in by_path["corpora/finance.md"]] == ["by stem", "about every document"]
    assert [q.text for q in by_path["corpora/pubmed.md"]] == ["by name", "about every document"]
    assert [q.text for q in by_path["corpora/chatlogs.md"]] == ["by path", "about every document"]
    assert unmatched == ["wikitexts", "finance.txt"]


def test_chromas_questions_file_distributes_every_question() -> None:
    """Chroma's evaluation set: 472 questions over five documents, corpus_id = file stem."""
    root = pathlib.Path("/work/chroma-eval/data")
    if not root.exists():
        pytest.skip("Chroma's evaluation set is not on this machine")
    asked = read_questions(
        (root / "questions_df.csv").read_bytes(), max_questions=None, max_bytes=None
    )
    paths = sorted(str(p) for p in (root / "corpora").glob("*.md"))
    by_path, unmatched = distribute(asked, paths)
    assert unmatched == []
    assert sum(len(qs) for qs in by_path.values()) == len(asked) == 472
