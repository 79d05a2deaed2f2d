"""The Evidence check panel, driven through its labels (issue 19): questions from a
selection or a pasted excerpt, import and export, a cut excerpt following the size, the
evidence figures of the comparison rows, and the page's figures equal to the CLI's."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, SAMPLE, App

pytestmark = pytest.mark.browser
QUESTIONS = ROOT / "static" / "sample-questions.csv"
READY = '#app[data-evidence="ready"][data-evidence-comparison="ready"]'


def cli(*args: str) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        capture_output=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return done.stdout


def evidence_ready(app: App) -> None:
    app.page.wait_for_selector(READY, timeout=30_000)


def select_in_source(app: App, text: str) -> None:
    """Select `text` in Source text (its first occurrence), as a person would with the mouse."""
    start = SAMPLE.index(text)
    app.source.evaluate(
        "(el, [a, b]) => { el.focus(); el.setSelectionRange(a, b); }",
        [start, start + len(text)],
    )


@pytest.fixture
def fresh(new_app: Callable[..., App]) -> App:
    app = new_app()
    app.open().wait_ready()
    evidence_ready(app)
    return app


def items(app: App) -> list[str]:
    return app.page.locator("#evidence-list > li").all_inner_texts()


def test_the_sample_questions_figures_equal_the_command_line(fresh: App) -> None:
    assert len(items(fresh)) == 3
    name, data = fresh.download("Download figures (JSONL)")
    assert name == "evidence.jsonl"
    expected = cli("static/sample.txt", "--questions", str(QUESTIONS), "--format", "evidence")
    assert data == expected
    rows = fresh.page.locator("#evidence-compare-body > tr")
    expect(rows).to_have_count(7)
    assert "BM25" in fresh.page.locator("#evidence-bm25").inner_text()


def test_a_question_from_a_selection_and_its_export(fresh: App, tmp_path: Path) -> None:
    fresh.press("Clear questions")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(0)
    fresh.control("Question").fill("When are invoices due?")
    select_in_source(fresh, "Invoices are issued on the first working day of each month")
    fresh.press("Add selection as evidence")
    expect(fresh.page.locator("#evidence-draft > li")).to_have_count(1)
    fresh.press("Add question")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(1)
    (item,) = items(fresh)
    assert "When are invoices due?" in item and "kept whole in chunk" in item
    name, exported = fresh.download("Export CSV")
    assert name == "questions.csv"
    saved = tmp_path / "questions.csv"
    saved.write_bytes(exported)
    _name, figures = fresh.download("Download figures (JSONL)")
    assert figures == cli("static/sample.txt", "--questions", str(saved), "--format", "evidence")
    (line,) = [json.loads(x) for x in figures.splitlines()]
    start = SAMPLE.index("Invoices are issued")
    assert line["excerpts"][0]["start"] == start


def test_a_pasted_excerpt_with_several_matches_lets_the_user_pick(fresh: App) -> None:
    fresh.press("Clear questions")
    fresh.control("Question").fill("Which exceptions are there?")
    fresh.control("Excerpt").fill("Exception:")
    fresh.press("Find excerpt")
    matches = fresh.control("Matches")
    expect(matches).to_be_visible()
    assert matches.locator("option").count() == 2
    matches.select_option(index=1)
    fresh.press("Use this match")
    fresh.press("Add question")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(1)
    _name, figures = fresh.download("Download figures (JSONL)")
    (line,) = [json.loads(x) for x in figures.splitlines()]
    assert line["excerpts"][0]["start"] == SAMPLE.rindex("Exception:")
    fresh.control("Excerpt").fill("Exception: none at all")
    fresh.press("Find excerpt")
    expect(fresh.page.locator("#evidence-status")).to_contain_text("is not in the text")


def test_import_a_questions_file_and_refuse_a_bad_one(fresh: App) -> None:
    """BAD-INPUT.md 25: the message names the line; the questions already here stay."""
    start = SAMPLE.index("Backups do not cover laptops")
    good = json.dumps({"question": "Are laptops backed up?", "references": [
        {"content": "Backups do not cover laptops", "start_index": start,
         "end_index": start + 28}]}) + "\n"  # fmt: skip
    fresh.page.get_by_label("Import questions").set_input_files(
        files=[{"name": "q.jsonl", "mimeType": "application/jsonl", "buffer": good.encode()}]
    )
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(4)
    assert "Are laptops backed up?" in items(fresh)[3]
    bad = good + '{"question": "", "references": []}\n'
    fresh.page.get_by_label("Import questions").set_input_files(
        files=[{"name": "bad.jsonl", "mimeType": "application/jsonl", "buffer": bad.encode()}]
    )
    status = fresh.page.locator("#evidence-status")
    expect(status).to_contain_text("bad.jsonl, line 2")
    expect(status).to_contain_text("were kept")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(4)


def test_a_cut_excerpt_follows_the_chunk_size(fresh: App) -> None:
    refund = fresh.page.locator("#evidence-list > li").nth(1)
    expect(refund.locator("li").nth(1)).to_have_attribute("data-kept", "whole")
    fresh.fill("Requested overlap", "0")
    fresh.fill("Chunk size", "150")
    evidence_ready(fresh)
    exception = refund.locator("li").nth(1)
    expect(exception).to_have_attribute("data-kept", "cut")
    expect(exception).to_contain_text("cut: spread over chunks 12, 13")
    fresh.fill("Chunk size", "300")
    evidence_ready(fresh)
    expect(refund.locator("li").nth(1)).to_have_attribute("data-kept", "whole")


def test_choose_a_comparison_row_by_its_evidence_figures(fresh: App) -> None:
    row = fresh.page.locator("#evidence-compare-body > tr").filter(has_text="Sentence")
    expect(row.locator("td").first).to_have_text("5 of 5")
    fresh.settle(lambda: fresh.press("Use Sentence (by its evidence figures)"))
    assert fresh.page.get_by_role("radio", name="Sentence", exact=True).is_checked()
    evidence_ready(fresh)
    expect(fresh.page.locator("#evidence-compare-body > tr.current").locator("th")).to_contain_text(
        "Sentence (current)"
    )


def test_chunks_retrieved_travels_in_the_link_but_no_question_does(fresh: App) -> None:
    fresh.control("Question").fill("Linkmarker question never in links?")
    fresh.fill("Chunks retrieved", "3")
    evidence_ready(fresh)
    link = fresh.page.evaluate("() => location.hash")
    assert "k=3" in link and "Linkmarker" not in link and "Snapshots" not in link
    expect(fresh.page.locator("#evidence-k")).to_have_text("3")
    _name, figures = fresh.download("Download figures (JSONL)")
    assert all(json.loads(x)["retrieval"]["k"] == 3 for x in figures.splitlines())
