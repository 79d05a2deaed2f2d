"""The Evidence check panel, driven through its labels: questions from a
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

from chunker_py.pipeline.analysis import comparison_sizes

from ..conftest import ROOT, SAMPLE, App

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
    fresh.page.wait_for_selector('#app[data-evidence-comparison="ready"]', timeout=60_000)
    rows = fresh.page.locator("#compare-body > tr")
    expect(rows).to_have_count(8)  # seven splitters and Semantic mode
    # their evidence figures are the comparison's Evidence columns, not a second table
    expect(fresh.page.locator("#evidence-compare-body")).to_have_count(0)
    kept = rows.filter(has_text="Sentence").locator("td.ev-col").first
    expect(kept).to_have_text("5 of 5")
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


def import_questions(app: App, name: str, data: str) -> None:
    app.page.get_by_label("Import questions").set_input_files(
        files=[{"name": name, "mimeType": "application/jsonl", "buffer": data.encode()}]
    )


def question_line(question: str, content: str, corpus_id: str | None = None) -> str:
    start = max(SAMPLE.find(content), 0)
    ref = {"content": content, "start_index": start, "end_index": start + len(content)}
    return json.dumps({"question": question, "references": [ref], "corpus_id": corpus_id}) + "\n"


def skipped(app: App) -> list[str]:
    return (
        app.page.get_by_role("list", name="Questions skipped")
        .get_by_role("listitem")
        .all_inner_texts()
    )


def test_import_keeps_every_anchorable_question_and_lists_the_skipped(fresh: App) -> None:
    """Bad input 25-26: an empty question and an excerpt found nowhere are listed with
    their lines and reasons; the question that fits is imported beside the ones here; a
    file that is not a questions file is refused whole."""
    good = question_line("Are laptops backed up?", "Backups do not cover laptops")
    data = (
        good
        + '{"question": "", "references": []}\n'
        + question_line("Vouchers?", "Voucher codes expire")
    )
    import_questions(fresh, "bad.jsonl", data)
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(4)
    assert "Are laptops backed up?" in items(fresh)[3]
    status = fresh.page.locator("#evidence-status")
    expect(status).to_contain_text("Imported 1 question from bad.jsonl; 2 skipped")
    lines = skipped(fresh)
    assert len(lines) == 2
    assert "bad.jsonl, line 2" in lines[0] and "the question is empty" in lines[0]
    assert "bad.jsonl, line 3" in lines[1] and "is not in the text" in lines[1]

    import_questions(fresh, "notes.csv", "Just some notes\n")
    expect(status).to_contain_text("not a questions file")
    expect(status).to_contain_text("were kept")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(4)


def test_a_corpus_id_naming_another_document_is_skipped(fresh: App) -> None:
    """Bad input 25: with policy.md loaded, a question of corpus_id "finance" is listed
    as naming no loaded document; one of corpus_id "policy" is imported."""
    fresh.settle(lambda: fresh.browse("policy.md", (SAMPLE + "\nEnd.\n").encode()))
    data = question_line("Ours?", "Backups do not cover laptops", "policy") + question_line(
        "Theirs?", "Backups do not cover laptops", "finance"
    )
    import_questions(fresh, "q.jsonl", data)
    expect(fresh.page.locator("#evidence-status")).to_contain_text("1 skipped")
    assert any("Ours?" in item for item in items(fresh))
    (line,) = skipped(fresh)
    assert "q.jsonl, line 2" in line and 'corpus_id "finance" names no loaded document' in line


def test_a_cut_excerpt_follows_the_chunk_size(fresh: App) -> None:
    refund = fresh.page.locator("#evidence-list > li").nth(1)
    expect(refund.locator("li").nth(1)).to_have_attribute("data-kept", "whole")
    fresh.fill("Requested overlap", "0")
    fresh.fill("Chunk size", "150")
    evidence_ready(fresh)
    exception = refund.locator("li").nth(1)
    expect(exception).to_have_attribute("data-kept", "cut")
    expect(exception).to_contain_text("cut: spread over chunks #12, #13")
    exception.click(position={"x": 4, "y": 4})  # its words are no button: nothing happens
    # each chunk holding the excerpt is a link to its record row and the chunk map
    exception.get_by_role("button", name="Show chunk #13 in the records").click()
    selected = fresh.page.locator("#records-body tr.selected")
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-index", "13")
    expect(selected.locator("td").first).to_have_text("13")
    expect(fresh.page.locator(".map-chunk.selected")).to_have_attribute("data-index", "13")
    fresh.fill("Chunk size", "300")
    evidence_ready(fresh)
    expect(refund.locator("li").nth(1)).to_have_attribute("data-kept", "whole")


def test_choose_a_comparison_row_by_its_evidence_figures(fresh: App) -> None:
    fresh.page.get_by_role("radio", name="Evidence", exact=True).check()
    row = fresh.page.locator("#compare-body > tr").filter(has_text="Sentence")
    expect(row.locator("td.ev-col").first).to_have_text("5 of 5")
    fresh.settle(lambda: fresh.press("Use Sentence settings"))
    assert fresh.page.get_by_role("radio", name="Sentence", exact=True).is_checked()
    evidence_ready(fresh)
    expect(fresh.page.locator("#compare-body > tr.current").locator("th")).to_contain_text(
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


def map_marks(app: App) -> dict[str, object]:
    """What the chunk map shows of the evidence: the underlined ranges' text (the CSS
    highlight the page paints), and each chunk's named questions and handle name."""
    return app.page.evaluate(
        """() => {
            const highlight = CSS.highlights.get('ci-evidence');
            const underlined = highlight ? [...highlight].map((r) => r.toString()) : [];
            const chunks = {};
            for (const node of document.querySelectorAll('#chunk-map .map-chunk[data-evidence]'))
                chunks[node.dataset.index] = [node.dataset.evidence,
                                              node.firstChild.getAttribute('aria-label')];
            return {underlined, chunks};
        }"""
    )


def records_evidence(app: App) -> dict[int, str]:
    cells = (
        app.region("Chunk records")
        .locator("tbody tr")
        .evaluate_all(
            "rows => rows.map(r => [r.dataset.index,"
            " r.querySelector('.evidence-cell').textContent])"
        )
    )
    return {int(i): words for i, words in cells if words}


def test_evidence_is_marked_in_the_chunk_map_and_the_records(fresh: App) -> None:
    """Each excerpt underlined over the chunks (its exact text), each chunk holding evidence
    named by its questions in the map and in its record row, the records' download still
    equal to the command line's with questions present."""
    expected = [
        json.loads(x)
        for x in cli(
            "static/sample.txt", "--questions", str(QUESTIONS), "--format", "evidence"
        ).splitlines()
    ]
    holders: dict[int, list[int]] = {}
    contents = set()
    for number_, q in enumerate(expected, 1):
        for x in q["excerpts"]:
            contents.add(SAMPLE[x["start"] : x["end"]])
            for chunk in x["chunks"]:
                if number_ not in holders.setdefault(chunk, []):
                    holders[chunk].append(number_)
    words = {
        i: ("question " if len(qs) == 1 else "questions ") + ", ".join(map(str, qs))
        for i, qs in holders.items()
    }
    fresh.page.get_by_role("heading", name="Chunk map").scroll_into_view_if_needed()
    fresh.page.wait_for_function(
        "n => document.querySelectorAll('#chunk-map .map-chunk[data-evidence]').length === n",
        arg=len(words),
        timeout=30_000,
    )
    marks = map_marks(fresh)
    assert sorted(marks["underlined"]) == sorted(contents)  # type: ignore[call-overload]
    chunks = marks["chunks"]
    assert {int(i): w for i, (w, _label) in chunks.items()} == words  # type: ignore[attr-defined]
    assert all(
        label.endswith(f"holds evidence of {w}")
        for w, label in chunks.values()  # type: ignore[attr-defined]
    )
    assert records_evidence(fresh) == words
    expect(
        fresh.region("Chunk records").get_by_role("columnheader", name="Evidence")
    ).to_be_visible()
    _name, records = fresh.download("Download JSONL")
    assert records == cli("static/sample.txt")
    # a smaller size: the marks follow the new chunks
    fresh.fill("Chunk size", "150")
    evidence_ready(fresh)
    small = [
        json.loads(x)
        for x in cli(
            "static/sample.txt", "--questions", str(QUESTIONS), "--format", "evidence",
            "--size", "150",
        ).splitlines()
    ]  # fmt: skip
    held = {c for q in small for x in q["excerpts"] for c in x["chunks"]}
    fresh.page.wait_for_function(
        "n => document.querySelectorAll('#chunk-map .map-chunk[data-evidence]').length === n",
        arg=len(held),
        timeout=30_000,
    )
    assert set(records_evidence(fresh)) == held
    fresh.press("Clear questions")
    evidence_ready(fresh)
    fresh.page.wait_for_function(
        "() => !document.querySelector('#chunk-map .map-chunk[data-evidence]')"
        " && CSS.highlights.get('ci-evidence').size === 0",
        timeout=30_000,
    )
    assert records_evidence(fresh) == {}


def test_a_question_from_a_selection_in_the_chunk_map(fresh: App) -> None:
    """Text selected in the chunk map (across a chunk boundary) is added as evidence with
    its code-point offsets; a click ending a selection does not jump to a record."""
    fresh.press("Clear questions")
    fresh.control("Question").fill("What is kept for how long?")
    passage = "Backups do not cover laptops"
    start = SAMPLE.index(passage)
    fresh.page.get_by_role("heading", name="Chunk map").scroll_into_view_if_needed()
    fresh.page.wait_for_selector("#chunk-map .map-chunk", timeout=30_000)
    # select it in the map as a mouse would: a range over the map's own text nodes
    fresh.page.evaluate(
        """([a, b]) => {
            const root = document.getElementById('chunk-map');
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            const at = (offset) => {
                let seen = 0;
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    if (seen + n.data.length >= offset) return [n, offset - seen];
                    seen += n.data.length;
                }
            };
            const range = document.createRange();
            range.setStart(...at(a));
            walker.currentNode = root;
            range.setEnd(...at(b));
            const selection = document.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
        }""",
        [start, start + len(passage)],
    )
    fresh.page.wait_for_function("() => ciChunkMap.selectedIn() === 'map'")
    fresh.press("Add selection as evidence")
    expect(fresh.page.locator("#evidence-draft > li")).to_have_count(1)
    expect(fresh.page.locator("#evidence-draft > li")).to_contain_text(f"at {start:,} to")
    fresh.press("Add question")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(1)
    _name, figures = fresh.download("Download figures (JSONL)")
    (line,) = [json.loads(x) for x in figures.splitlines()]
    assert (line["excerpts"][0]["start"], line["excerpts"][0]["end"]) == (
        start,
        start + len(passage),
    )


def test_the_splitter_comparison_shows_the_evidence_columns(fresh: App) -> None:
    """Columns: Evidence swaps the comparison's damage columns for the evidence figures of
    each row, equal to ``--format compare``'s ``evidence`` objects (so are the Evidence by
    splitter rows, with IoU at k); the table still fits its panel at 1,400 px; Use applies
    the row chosen by them."""
    fresh.page.set_viewport_size({"width": 1400, "height": 900})
    rows = [
        json.loads(x)
        for x in cli(
            "static/sample.txt", "--questions", str(QUESTIONS), "--format", "compare",
            "--size", "150", "--overlap", "0",
        ).splitlines()
    ]  # fmt: skip
    fresh.fill("Requested overlap", "0")
    fresh.fill("Chunk size", "150")
    evidence_ready(fresh)
    table = fresh.region("Splitter comparison table, scrollable")
    kept = table.get_by_role("columnheader", name="Kept whole")
    expect(kept).to_be_hidden()
    fresh.page.get_by_role("radio", name="Evidence", exact=True).check()
    expect(kept).to_be_visible()
    expect(table.get_by_role("columnheader", name="Code blocks cut")).to_be_hidden()
    fresh.page.wait_for_function(
        "() => ![...document.querySelectorAll('#compare-body td.ev-col')]"
        ".some((td) => td.textContent === '…')",
        timeout=30_000,
    )
    shown = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td.ev-col')].map(c => c.innerText))"
    )
    # Semantic mode's row waits for the embedding model in the page (it is loaded only when
    # Semantic mode or dense retrieval is chosen); the command line has the model
    (waiting,) = [i for i, row in enumerate(rows) if row["settings"]["mode"] == "semantic"]
    assert shown.pop(waiting) == ["—"] * 7
    rows.pop(waiting)
    expected = []
    for row in rows:
        e = row["evidence"]
        r = e["retrieval"]
        expected.append(
            [
                f"{e['kept_whole']} of {e['excerpts']}",
                f"{e['one_chunk']} of {e['questions'] - e['unmatched']}",
                f"{e['chunks_to_read']:.1f}",
                f"{e['precision_omega']:.3f}",
                f"{r['recall']:.3f}",
                f"{r['iou']:.3f}",
                f"{r['tokens']:.1f}",
            ]
        )
    assert shown == expected
    sizes = table.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert sizes[0] <= sizes[1], sizes
    # the row keeping the most evidence whole at this size: Markdown structure (5 of 5)
    best = max(rows, key=lambda r: r["evidence"]["kept_whole"])  # the first of the best
    label = {"markdown": "Markdown structure", "sentence": "Sentence"}
    assert best["settings"]["mode"] in label
    name = label[best["settings"]["mode"]]
    fresh.settle(lambda: table.get_by_role("button", name=f"Use {name} settings").click())
    assert fresh.page.get_by_role("radio", name=name, exact=True).is_checked()
    evidence_ready(fresh)
    expect(table.locator("tr.current th")).to_have_text(f"{name} (current)")
    expect(table.locator("tr.current td.ev-col").first).to_have_text("5 of 5")


def test_the_size_trade_offs_chart_says_the_evidence_kept_whole_per_size(fresh: App) -> None:
    """Under each bar and in the chart's description: the excerpts kept whole at that size,
    as ``--format summary --size S`` counts them; gone with Clear questions."""
    sizes = comparison_sizes(300, 50)
    expected = []
    for size in sizes:
        (summary,) = [
            json.loads(x)
            for x in cli(
                "static/sample.txt", "--questions", str(QUESTIONS), "--format", "summary",
                "--size", str(size),
            ).splitlines()
        ]  # fmt: skip
        e = summary["evidence"]
        expected.append(f"size {size:,}: {e['kept_whole']} of {e['excerpts']}")
    fresh.page.wait_for_selector('#app[data-comparison="ready"]', timeout=30_000)
    description = fresh.page.locator("#tradeoff-text")
    expect(description).to_contain_text("Evidence kept whole: " + "; ".join(expected) + ".")
    bars = fresh.page.locator("#tradeoff-chart .bartext").all_text_contents()
    assert len(bars) == len(sizes)
    kept = [x.split(": ")[1] for x in expected]
    assert all(
        b.endswith(f"{k.replace(' of ', '/')} ✓") for b, k in zip(bars, kept, strict=True)
    ), bars
    fresh.press("Clear questions")
    expect(description).not_to_contain_text("Evidence kept whole")
    bars = fresh.page.locator("#tradeoff-chart .bartext").all_text_contents()
    assert not any("✓" in b for b in bars), bars


def test_an_edit_never_offers_the_previous_texts_figures(fresh: App, tmp_path: Path) -> None:
    """From the task that shows a new text's result until its evidence is found, "Download
    figures (JSONL)" is disabled (the old figures are not this text's); then it offers the
    new text's figures, equal to the command line's."""
    fresh.page.evaluate(
        """() => {
            const app = document.getElementById("app");
            const button = document.getElementById("evidence-download");
            window.__evidenceSeen = [];
            new MutationObserver(() => window.__evidenceSeen.push(
                [app.dataset.evidence, button.disabled]
            )).observe(app, {attributes: true, attributeFilter: ["data-evidence"]});
        }"""
    )
    edited = "Note. " + SAMPLE  # every offset after it moves: the old figures are not these
    fresh.fill("Source text", edited)
    evidence_ready(fresh)
    seen = fresh.page.evaluate("() => window.__evidenceSeen")
    assert ["pending", True] in seen
    assert ["pending", False] not in seen
    assert seen[-1] == ["ready", False]
    _name, figures = fresh.download("Download figures (JSONL)")
    text = tmp_path / "edited.txt"
    text.write_bytes(edited.encode("utf-8"))
    questions = tmp_path / "questions.csv"
    questions.write_bytes(fresh.download("Export CSV")[1])  # carried to the edited text
    assert figures == cli(str(text), "--questions", str(questions), "--format", "evidence")


def test_the_samples_questions_leave_with_the_sample(fresh: App) -> None:
    """Bad input 31: pasting over the whole sample takes its three questions away (no
    "0 of 3", nothing in the figures download); an edit is not a replacement."""
    fresh.type("Source text", " More.", clear=False)
    evidence_ready(fresh)
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(3)  # an edit keeps them
    fresh.fill("Source text", "Gardening notes. Water the roses daily.")
    evidence_ready(fresh)
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(0)
    expect(fresh.page.locator("#evidence-questions")).to_have_text("—")
    ask = fresh.page.get_by_role("group", name="Questions of the previous document")
    expect(ask).to_be_hidden()


def test_a_replaced_document_asks_before_discarding_your_questions(fresh: App) -> None:
    """Bad input 31: your own question whose evidence the new text lacks is kept, flagged,
    until you choose; Discard these questions removes it, a question the new text still
    holds stays."""
    held = question_line("Laptops?", "Backups do not cover laptops")
    gone = question_line("Refund rule?", SAMPLE.split("\n")[0][:20])
    import_questions(fresh, "mine.jsonl", held + gone)
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(5)
    fresh.settle(lambda: fresh.browse("other.md", b"Backups do not cover laptops. Nothing else.\n"))
    evidence_ready(fresh)
    ask = fresh.page.get_by_role("group", name="Questions of the previous document")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Refund rule?")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(2)
    ask.get_by_role("button", name="Discard these questions").click()
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(1)
    assert "Laptops?" in items(fresh)[0]
    expect(ask).to_be_hidden()


def test_clear_questions_can_be_undone(fresh: App) -> None:
    """Clear questions, like Clear text, can be taken back: the questions return."""
    fresh.press("Clear questions")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(0)
    fresh.press("Undo Clear questions")
    expect(fresh.page.locator("#evidence-list > li")).to_have_count(3)
    expect(fresh.page.get_by_role("button", name="Undo Clear questions")).to_be_hidden()
