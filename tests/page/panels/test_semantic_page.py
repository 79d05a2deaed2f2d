"""Semantic mode in the page: before the model's vectors, Chunk readiness says it waits
and the Splitter comparison shows the other modes' rows; with vectors (a stand-in embedder
installed in the page's Python, the hashed bag of words of the core tests, since this test
does not load the model), the records equal the command line's with the same embedder and
the distance curve under the chunk map shows the profile's breakpoints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chunker_py import analyse
from chunker_py.config.links import settings_from_fragment
from chunker_py.embedding.supply import use_embedder
from tests.core.hashed_embedder import HashedEmbedder

from ..conftest import App

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")
STAND_IN = (ROOT / "tests" / "core" / "hashed_embedder.py").read_text("utf-8")
INSTALL = (
    STAND_IN
    + "\nfrom chunker_py.embedding.supply import use_embedder\nuse_embedder(HashedEmbedder())\n"
)


def comparison_rows(app: App) -> list[str]:
    table = app.region("Splitter comparison").get_by_role("table")
    return table.locator("tbody tr").all_inner_texts()


def test_before_the_model_the_page_says_it_waits_and_compares_the_other_modes(app: App) -> None:
    # no vector will come: the model's vectors are not handed to the core
    app.python("from chunker_py.embedding.supply import use_embedder\nuse_embedder(None)")
    app.settle(lambda: app.choose("Semantic"))
    expect(app.readiness_message()).to_contain_text("waiting for the embedding model")
    app.page.wait_for_selector('#app[data-comparison="ready"]', timeout=60_000)
    rows = comparison_rows(app)
    assert len(rows) == 8
    # the Semantic row has no figures yet; every other row has its own
    assert rows[-1].startswith("Semantic") and rows[-1].count("—") >= 8
    assert all(row.count("—") < 3 for row in rows[:-1])
    expect(app.page.locator("#semantic-curve")).to_be_hidden()
    assert app.console_errors() == []
    app.choose("Recursive")


def test_with_vectors_the_records_are_the_command_lines_and_the_curve_is_drawn(
    app: App,
) -> None:
    app.python(INSTALL)
    try:
        app.settle(lambda: app.choose("Semantic"))
        fragment = app.page.evaluate("() => location.hash")
        settings, notes = settings_from_fragment(fragment)
        assert notes == [] and settings.mode == "semantic"
        _name, data = app.download("Download JSONL")
        previous = use_embedder(HashedEmbedder())
        try:
            expected = analyse(SAMPLE, settings)
        finally:
            use_embedder(previous)
        got = [json.loads(line) for line in data.decode("utf-8").splitlines()]
        assert [(r["start"], r["end"]) for r in got] == [(c.start, c.end) for c in expected.chunks]
        curve = app.page.locator("#semantic-curve")
        expect(curve).to_be_visible()
        expect(curve.locator(".scatterlayer .trace")).to_have_count(3)
        assert app.console_errors() == []
    finally:
        app.python("from chunker_py.embedding.supply import use_embedder\nuse_embedder(None)")
        app.settle(lambda: app.choose("Recursive"))
