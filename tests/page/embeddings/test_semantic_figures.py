"""Semantic and Hybrid retrieval in the Evidence check, chosen as a person chooses them: the
model is downloaded from the page's own origin with its progress shown, the ranked figures
show as pending and then follow, equal to the command line's (``--retrieval dense`` /
``hybrid``) on a real document with its questions; a damaged model says so and BM25 keeps
working; an edit embeds only the chunks whose text changed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ..conftest import ROOT, App
from .conftest import LOAD_TIMEOUT_MS
from .conftest import RecordingHost as Host
from .stand_in_model import MODEL_FILE

pytestmark = pytest.mark.browser
DOCUMENT = ROOT / "tests" / "data" / "user_guide.txt"
QUESTIONS = ROOT / "tests" / "data" / "user_guide-questions.csv"
METHOD_VALUE = {"Semantic": "dense", "Hybrid": "hybrid", "Lexical": "bm25"}


def cli(*args: str) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        capture_output=True,
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    return done.stdout


def choose_retrieval(app: App, method: str) -> None:
    """Choose Lexical, Semantic or Hybrid under Retrieval (a select or radio buttons)."""
    value = METHOD_VALUE[method]
    if app.page.locator("select#retrieval").count():
        app.select("Retrieval", value=value)
    else:
        app.choose(
            app.page.locator(f'input[name="retrieval"][value="{value}"]').evaluate(
                "(el) => el.labels[0].textContent.trim()"
            )
        )


def semantic_state(app: App, state: str, timeout: float = LOAD_TIMEOUT_MS) -> None:
    app.page.wait_for_selector(f'#app[data-semantic="{state}"]', state="attached", timeout=timeout)


def load_document(app: App) -> None:
    """The user guide and its questions alone: an import adds to the questions already
    in the panel (the sample's), so they are cleared first, as the command line reads
    only the file's."""
    app.browse(DOCUMENT.name, DOCUMENT.read_bytes())
    app.page.get_by_role("button", name="Clear questions").click()
    expect(app.page.locator("#evidence-list > li")).to_have_count(0)
    app.page.get_by_label("Import questions").set_input_files(str(QUESTIONS))
    expect(app.page.locator("#evidence-status")).to_contain_text("Imported")
    expected = len(QUESTIONS.read_text("utf-8").splitlines()) - 1
    expect(app.page.locator("#evidence-list > li")).to_have_count(expected)
    app.page.wait_for_selector('#app[data-evidence="ready"]', state="attached", timeout=60_000)


@pytest.mark.parametrize("method", ["Semantic", "Hybrid"])
def test_the_figures_equal_the_command_line_on_a_real_document(
    method: str, new_app: Callable[..., App]
) -> None:
    app = new_app()
    app.page.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    load_document(app)
    choose_retrieval(app, method)
    semantic_state(app, "ready")
    name, data = app.download("Download figures (JSONL)")
    assert name == "evidence.jsonl"
    expected = cli(
        str(DOCUMENT.relative_to(ROOT)),
        "--questions",
        str(QUESTIONS.relative_to(ROOT)),
        "--format",
        "evidence",
        "--retrieval",
        METHOD_VALUE[method],
    )
    assert data == expected
    assert method in app.page.locator("#evidence-method").inner_text()


def test_choosing_semantic_downloads_the_model_with_progress_then_the_figures_follow(
    model_site: Callable[..., Path], hosts: Callable[..., Host], apps: Callable[..., App]
) -> None:
    """The stand-in model (its figures are not the real model's): the download from the
    page's own origin, its progress in bytes, the ranked figures pending, then shown; an
    edit then embeds only the chunk whose text changed."""
    host = hosts(model_site())
    app = apps(host.url)
    app.page.set_default_timeout(LOAD_TIMEOUT_MS)
    off_origin: list[str] = []
    app.page.context.on(
        "request",
        lambda r: (
            None
            if r.url.startswith((host.url, "data:", f"blob:{host.url}"))
            else off_origin.append(r.url)
        ),
    )
    app.open().wait_ready()
    app.page.wait_for_selector('#app[data-evidence="ready"]', state="attached")
    choose_retrieval(app, "Semantic")
    box = app.page.locator("#embedding")
    expect(box).to_be_visible()
    expect(app.page.locator("#evidence-recall")).to_have_text("pending…")
    app.page.wait_for_function(
        "() => Number(document.getElementById('embedding').dataset.loaded) > 0"
    )
    semantic_state(app, "ready")
    total = int(box.get_attribute("data-total") or 0)
    assert int(box.get_attribute("data-loaded") or 0) == total > 0
    assert app.page.locator("#evidence-recall").inner_text() not in ("pending…", "—")
    assert any(path.endswith(f"/static/model/{MODEL_FILE}") for path in host.paths)
    assert off_origin == []

    # an edit (a "!" at the end of a line) changes a few chunks of each splitting: what the
    # page embeds then is exactly the texts it now needs and did not before
    text = settled(app)
    before = int(box.get_attribute("data-embedded") or 0)
    assert before == len(texts_the_page_embeds(text))
    app.source.press("End")
    app.source.type("!")
    edited = settled(app)
    assert len(edited) == len(text) + 1 and edited.count("!") == text.count("!") + 1
    new = texts_the_page_embeds(edited) - texts_the_page_embeds(text)
    assert 0 < len(new) < before  # not everything again
    assert int(box.get_attribute("data-embedded") or 0) - before == len(new)


SAMPLE_QUESTIONS = ROOT / "static" / "sample-questions.csv"


def settled(app: App) -> str:
    """Wait until every figure the model's vectors feed is shown (the Evidence check, the
    comparison with its Semantic row, the sweep) and nothing is being embedded; the text."""
    semantic_state(app, "ready")
    app.page.wait_for_function(
        """() => {
          const app = document.getElementById('app').dataset;
          const box = document.getElementById('embedding').dataset;
          const semantic = [...document.querySelectorAll('#compare-body tr')]
            .find(r => r.querySelector('th').textContent.startsWith('Semantic'));
          return app.sweep === 'ready' && app.evidenceComparison === 'ready'
            && box.pending === '0' && semantic && semantic.cells[3].textContent !== '—';
        }"""
    )
    return str(app.page.evaluate("() => document.getElementById('source-text').value"))


def texts_the_page_embeds(text: str) -> set[str]:
    """Every text the page has the stand-in model embed for ``text`` with Semantic
    retrieval at the default settings and the sample's questions: the Evidence check of
    each comparison row (the current one's included), the Semantic row's sentence windows,
    and the sweep's configurations; found by the core with the stand-in's reference."""
    from chunker_py import Settings, compare
    from chunker_py.embedding.supply import use_embedder
    from chunker_py.embedding.wordpieces import encode
    from chunker_py.io.questions import read_questions
    from chunker_py.measures.evidence import anchor, evidence_of
    from chunker_py.pipeline.sweep import Document, sweep

    from .stand_in_model import reference

    asked: set[str] = set()

    class StandIn:
        def embed(self, texts: list[str]) -> list[tuple[float, ...]]:
            asked.update(texts)
            return [tuple(float(x) for x in reference(list(encode(t)))) for t in texts]

    questions = tuple(read_questions(SAMPLE_QUESTIONS.read_bytes()))
    assert all(p.found for q in questions for p in anchor(text, q))
    settings = Settings(retrieval="dense")
    previous = use_embedder(StandIn())
    try:
        for row in compare(text, settings):
            if row.analysis is not None:
                evidence_of(row.analysis, questions)
        sweep([Document(None, text, questions)], settings)
    finally:
        use_embedder(previous)
    return asked


@pytest.mark.page_errors_expected  # the damaged download is logged as a warning
def test_a_damaged_model_says_so_and_lexical_retrieval_keeps_working(
    model_site: Callable[..., Path], hosts: Callable[..., Host], apps: Callable[..., App]
) -> None:
    """Bad input case 32 (docs/decisions.md), as the user sees it: the note names the file and what
    to do; the ranked figures say unavailable; back on Lexical, BM25's figures are there; Retry,
    with the file right again, loads it."""
    root = model_site()
    model = root / "static" / "model" / MODEL_FILE
    good = model.read_bytes()
    model.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    host = hosts(root)
    app = apps(host.url)
    app.page.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    app.page.wait_for_selector('#app[data-evidence="ready"]', state="attached")
    bm25 = app.page.locator("#evidence-recall").inner_text()
    choose_retrieval(app, "Semantic")
    semantic_state(app, "unavailable")
    status = app.page.locator("#embedding-status")
    expect(status).to_contain_text(MODEL_FILE)
    expect(status).to_contain_text("SHA-256")
    expect(status).to_contain_text("Retry")
    expect(app.page.locator("#evidence-recall")).to_have_text("unavailable")
    choose_retrieval(app, "Lexical")
    expect(app.page.locator("#evidence-recall")).to_have_text(bm25)

    model.write_bytes(good)
    choose_retrieval(app, "Semantic")
    app.press("Retry")
    semantic_state(app, "ready")
    expect(app.page.locator("#embedding")).to_have_attribute("data-state", "ready")


def test_once_the_model_is_chosen_the_comparisons_semantic_row_gets_its_figures(
    model_site: Callable[..., Path], hosts: Callable[..., Host], apps: Callable[..., App]
) -> None:
    """Before the model is chosen the Semantic row waits ("—", nothing downloaded for it);
    with Semantic retrieval chosen the model loads, the row's windows are embedded and the
    row gets its figures: the chunk count that Semantic mode, chosen with its Use button,
    then gives."""
    host = hosts(model_site())
    app = apps(host.url)
    app.page.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    app.page.wait_for_selector('#app[data-comparison="ready"]', state="attached")
    semantic = app.page.locator("#compare-body tr").filter(
        has=app.page.locator("th", has_text="Semantic")
    )
    cells = "row => Array.from(row.cells, c => c.textContent)"
    assert semantic.evaluate(cells)[3] == "—"
    assert not any(path.endswith(f"/static/model/{MODEL_FILE}") for path in host.paths)
    choose_retrieval(app, "Semantic")
    semantic_state(app, "ready")
    app.page.wait_for_function(
        """() => {
          const row = [...document.querySelectorAll('#compare-body tr')]
            .find(r => r.querySelector('th').textContent.startsWith('Semantic'));
          return row && row.cells[3].textContent !== '—';
        }"""
    )
    count = int(semantic.evaluate(cells)[1].replace(",", ""))
    assert count > 0
    app.page.get_by_role("button", name="Use Semantic settings").click()
    expect(app.page.get_by_role("radio", name="Semantic", exact=True)).to_be_checked()
    expect(app.figure("Chunks")).to_have_text(f"{count:,}")
