"""The sweep panel ("Which splitter, which size?"), driven through its labels: the verdict
names the top configuration, a Pareto point applies its settings (its Use button and a
click on its chart point), and "Download sweep" equals the CLI's ``--format sweep``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from ..conftest import ROOT, App

pytestmark = pytest.mark.browser
QUESTIONS = ROOT / "static" / "sample-questions.csv"
SWEPT = '#app[data-sweep="ready"]'


def cli_sweep(*args: str) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", str(ROOT / "static" / "sample.txt"),
         "--questions", str(QUESTIONS), "--format", "sweep", *args],
        capture_output=True, cwd=ROOT, check=True, timeout=300,
    )  # fmt: skip
    return done.stdout


@pytest.fixture
def swept(new_app: Callable[..., App]) -> App:
    app = new_app()
    app.open().wait_ready()
    app.page.wait_for_selector(SWEPT, timeout=120_000)
    return app


def test_download_sweep_equals_the_cli_byte_for_byte(swept: App) -> None:
    name, data = swept.download("Download sweep")
    assert name == "document-sweep.jsonl"
    assert data == cli_sweep()


def test_the_verdict_names_the_top_configuration(swept: App) -> None:
    last = json.loads(cli_sweep().splitlines()[-1])
    top = last["ranking"][0]
    assert swept.page.get_attribute("#sweep-panel", "data-top") == top
    verdicts = swept.page.locator("#sweep-verdicts > li")
    expect(verdicts).to_have_count(3)
    assert verdicts.all_inner_texts() == last["verdicts"]
    lines = [json.loads(x) for x in cli_sweep().splitlines()[:-1]]
    name = next(x["name"] for x in lines if x["configuration"] == top)
    assert verdicts.first.inner_text().startswith(name + ": ")
    expect(swept.page.locator("#sweep-objective")).to_contain_text(
        "evidence recall within 1,000 tokens"
    )


def _a_front_point_not_current(app: App) -> dict:
    front = app.page.get_attribute("#sweep-panel", "data-pareto").split()
    lines = {x["configuration"]: x for x in map(json.loads, cli_sweep().splitlines()[:-1])}
    current = app.value("Chunk size")
    return next(
        lines[k] for k in front
        if str(lines[k]["chunk_size"]) != current or lines[k]["settings"]["mode"] != "recursive"
    )  # fmt: skip


def test_use_on_a_pareto_point_applies_its_settings(swept: App) -> None:
    point = _a_front_point_not_current(swept)
    button = swept.page.get_by_role("button", name=f"Use {point['name']}", exact=True)
    swept.settle(button.click)
    assert swept.value("Chunk size") == str(point["chunk_size"])
    swept.page.wait_for_selector(SWEPT, timeout=120_000)


def test_a_click_on_a_chart_point_applies_its_settings(swept: App) -> None:
    swept.page.wait_for_selector('html[data-plotly="loaded"]', timeout=60_000)
    point = _a_front_point_not_current(swept)
    swept.settle(
        lambda: swept.page.evaluate(
            """(link) => document.getElementById("sweep-chart")
                .emit("plotly_click", {points: [{customdata: link}]})""",
            point["link"],
        )
    )
    assert swept.value("Chunk size") == str(point["chunk_size"])


def _column(app: App, index: int) -> list[float]:
    cells = app.page.locator(f"#compare-body > tr > :nth-child({index})").all_inner_texts()
    return [float(c.split()[0].replace(",", "").rstrip("%")) for c in cells]


def test_a_comparison_column_sorts_by_click_and_by_keyboard(swept: App) -> None:
    swept.page.wait_for_selector('#app[data-comparison="ready"]', timeout=60_000)
    header = swept.page.get_by_role("button", name="Chunks", exact=True)
    header.click()
    chunks = _column(swept, 2)
    assert chunks == sorted(chunks) and len(chunks) == 8  # seven splitters and Semantic
    th = swept.page.locator("#compare-table thead th").nth(1)
    expect(th).to_have_attribute("aria-sort", "ascending")
    header.focus()
    swept.page.keyboard.press("Enter")
    expect(th).to_have_attribute("aria-sort", "descending")
    chunks = _column(swept, 2)
    assert chunks == sorted(chunks, reverse=True)


def test_every_evidence_column_marks_its_best_value(swept: App) -> None:
    swept.page.wait_for_selector('#app[data-evidence-comparison="ready"]', timeout=60_000)
    swept.page.get_by_role("radio", name="Evidence", exact=True).check()
    rows = swept.page.locator("#compare-body > tr")
    for column in range(7):
        cells = [rows.nth(i).locator("td.ev-col").nth(column) for i in range(rows.count())]
        marked = [c for c in cells if "best" in (c.get_attribute("class") or "").split()]
        assert marked, [c.inner_text() for c in cells]


@pytest.mark.parametrize(("choice", "objective"), [("Fewest tokens embedded", "tokens"),
                                                   ("IoU within the budget", "iou")])  # fmt: skip
def test_rank_by_ranks_as_the_cli_objective_does(swept: App, choice: str, objective: str) -> None:
    swept.select("Rank by", choice)
    expected = cli_sweep("--objective", objective)
    last = json.loads(expected.splitlines()[-1])
    expect(swept.page.locator("#sweep-panel")).to_have_attribute("data-top", last["ranking"][0])
    expect(swept.page.locator("#sweep-objective")).to_contain_text(last["objective"]["label"])
    assert swept.page.locator("#sweep-verdicts > li").all_inner_texts() == last["verdicts"]
    _name, data = swept.download("Download sweep")
    assert data == expected
    swept.select("Rank by", "Recall within the budget")
    _name, data = swept.download("Download sweep")
    assert data == cli_sweep()
