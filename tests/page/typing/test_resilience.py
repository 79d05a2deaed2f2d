"""bad input 23 and 24: the page survives its own bugs and fast users.

- Rapid typing (40 characters, no delay between keys; and fast edits of Chunk size) ends
  with panels that match the final input, computed by chunker_py in the test process.
- An unexpected Python exception (injected by monkeypatching a panel function inside the
  page's own Pyodide, see App.python in conftest.py) shows a short bug line under Chunk
  readiness, offers nothing stale for export, and the next edit works again.

A failed runtime load (bad input 22) is covered by test_boot.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse

from ..conftest import SAMPLE, App

# they provoke console errors on purpose (refused requests, broken files, planted bugs)
pytestmark = pytest.mark.page_errors_expected

BASE = "Reset password. Keep backup codes.\n\nBackup codes work once each."
TYPED = " Store them offline; support can reset 2FA"  # 40+ characters
assert len(TYPED) >= 40

INJECT = """
import sys
_panel = sys.modules["summary"].Figures
_original = _panel.show

def _fail_once(*args, **kwargs):
    _panel.show = _original
    raise RuntimeError("injected failure for the resilience test")

_panel.show = _fail_once
"""
RESTORE = """
import sys
_panel = sys.modules["summary"].Figures
if getattr(_panel.show, "__name__", "") == "_fail_once":
    _panel.show = _original
_panel.show.__name__
"""


def expected_table(text: str, settings: Settings) -> list[list[str]]:
    """The records table as the page shows it: plain integers, then the text."""
    result = analyse(text, settings)
    assert result.error is None
    return [
        [str(c.index), str(c.start), str(c.end), str(c.length), str(c.overlap), c.text]
        for c in result.chunks
    ]


def small_chunks(app: App, text: str = BASE) -> Settings:
    app.configure(text, size=18, overlap=4)
    return Settings(chunk_size=18, chunk_overlap=4)


def test_rapid_typing_ends_with_panels_for_the_final_text(app: App) -> None:
    """Bad input case 24."""
    settings = small_chunks(app)
    app.source.click()
    app.page.keyboard.press("ControlOrMeta+End")
    app.settle(lambda: app.page.keyboard.type(TYPED, delay=0))
    final = BASE + TYPED
    assert app.value("Source text") == final
    assert app.records() == expected_table(final, settings)
    summary = analyse(final, settings).summary
    assert summary is not None
    expect(app.figure("Chunks")).to_have_text(f"{summary.chunks:,}")
    expect(app.figure("Repeated")).to_have_text(f"{summary.repeated:,}")
    assert app.preview() == [c.text for c in analyse(final, settings).chunks]


def test_rapid_setting_edits_end_with_the_final_settings(app: App) -> None:
    """Bad input case 24."""
    small_chunks(app, BASE + TYPED)
    size = app.control("Chunk size")

    def keys() -> None:
        size.click()
        app.page.keyboard.press("ControlOrMeta+A")
        app.page.keyboard.type("2573", delay=0)  # 2, 25, 257, 2573: only the last counts
        app.page.keyboard.press("Backspace")  # 257

    app.settle(keys)
    assert app.value("Chunk size") == "257"
    expected = expected_table(BASE + TYPED, Settings(chunk_size=257, chunk_overlap=4))
    assert app.records() == expected
    assert "size=257&overlap=4" in app.page.evaluate("() => location.hash")


EVIDENCE = "Backup codes work once each."
QUESTION = json.dumps(
    {
        "question": "How often does a backup code work?",
        "references": [
            {
                "content": EVIDENCE,
                "start_index": BASE.index(EVIDENCE),
                "end_index": BASE.index(EVIDENCE) + len(EVIDENCE),
            }
        ],
        "corpus_id": None,
    }
)


def break_once(app: App, *, with_a_question: bool = False) -> Iterator[Settings]:
    """Small chunks over BASE (with one question of its own if asked: replacing the sample
    takes the sample's questions with it); the next update raises once (a bug in the
    Summary panel) while " changed" is typed. Yields with the bug line shown; restores the
    panel after."""
    settings = small_chunks(app)
    if with_a_question:
        app.page.get_by_label("Import questions").set_input_files(
            files=[
                {"name": "q.jsonl", "mimeType": "application/jsonl", "buffer": QUESTION.encode()}
            ]
        )
        expect(app.page.locator("#evidence-list > li")).to_have_count(1)
    app.python(INJECT)
    try:
        app.settle(lambda: app.source.fill(BASE + " changed"), expect_state="error")
        yield settings
    finally:
        app.python(RESTORE)


@pytest.fixture
def broken_once(app: App) -> Iterator[Settings]:
    yield from break_once(app)


@pytest.fixture
def broken_once_with_a_question(app: App) -> Iterator[Settings]:
    yield from break_once(app, with_a_question=True)


def test_unexpected_python_exception_shows_a_short_bug_line(
    app: App, broken_once: Settings
) -> None:
    """Bad input case 23."""
    expect(app.readiness_status()).to_have_text("Something went wrong")
    message = app.readiness_message().text_content() or ""
    assert message.startswith("Bug: RuntimeError: injected failure for the resilience test.")
    assert "\n" not in message and len(message) < 300  # a short line, not a traceback
    assert app.value("Source text") == BASE + " changed"  # the user's text is kept


def test_after_a_bug_no_stale_result_is_shown_or_offered(app: App, broken_once: Settings) -> None:
    """Bad input case 23.

    The panels belonged to the previous text: none may still show or export it."""
    assert app.exports_enabled() == {
        "Download JSONL": False,
        "Download CSV": False,
        "Copy JSONL": False,
        "Copy CSV": False,
    }
    assert app.records() == []
    assert app.preview() == []
    assert app.figure("Chunks").text_content() == "—"


def test_the_next_edit_after_a_bug_works_again(app: App, broken_once: Settings) -> None:
    """Bad input case 23."""
    app.fill("Source text", BASE + " two")
    expect(app.readiness_status()).to_have_text("Ready")
    assert app.records() == expected_table(BASE + " two", broken_once)
    assert all(app.exports_enabled().values())
    assert app.page_errors == []


def test_the_drivers_settle_fails_when_an_action_fires_no_recompute(app: App) -> None:
    """Positive control for every settle() above: an edit that fires nothing must not
    pass as settled (the page is ready before and after, and would fool a naive wait)."""
    small_chunks(app)
    with pytest.raises(pytest.fail.Exception, match="no busy -> ready"):
        app.settle(lambda: None, timeout=2_000)
    show_whitespace = app.page.get_by_role("checkbox", name="Show whitespace")
    try:  # a view option: it redraws the preview and recomputes nothing
        with pytest.raises(pytest.fail.Exception, match="no busy -> ready"):
            app.settle(show_whitespace.check, timeout=2_000)
    finally:
        show_whitespace.uncheck()


def test_after_a_bug_nothing_draws_the_previous_result_again(
    app: App, broken_once_with_a_question: Settings
) -> None:
    """Bad input case 23. What the page does for the previous result after the bug (the
    Evidence check found again: Clear questions; Show damaged chunks only switched on and
    off) draws it in no panel: the records, the preview and the chunk map stay empty.
    Before, the records were drawn again from the previous result's view."""
    assert app.records() == []
    app.press("Clear questions")
    expect(app.page.locator("#evidence-status")).to_contain_text("All questions cleared")
    assert app.records() == []
    damaged_only = app.page.get_by_label("Show damaged chunks only")
    damaged_only.check()
    damaged_only.uncheck()
    assert app.records() == []
    assert app.preview() == []
    expect(app.page.locator("#chunk-map .map-chunk")).to_have_count(0)
    assert app.page.locator("#chunk-map-panel").is_hidden()


# everything the page computes after the paint for a result, evidence included, is shown
ALL_SHOWN = (
    '#app[data-damage="ready"][data-chart="ready"][data-comparison="ready"]'
    '[data-evidence="ready"][data-evidence-comparison="ready"]'
)
TOKEN_TERMS = ("Smallest tokens", "Average tokens", "Largest tokens", "Total tokens")


def evidence_figures(app: App) -> dict[str, str]:
    """The Evidence check's figures by their visible terms."""
    figures = app.page.get_by_label("Evidence figures of this result")
    terms = figures.locator("dt").all_text_contents()
    values = figures.locator("dd:not(.figure-def)").all_text_contents()  # not the definitions
    return dict(zip(terms, values, strict=True))


def comparison_rows(app: App) -> list[str]:
    return (
        app.region("Splitter comparison").get_by_role("table").locator("tbody tr").all_inner_texts()
    )


def test_after_a_bug_no_panel_shows_the_previous_results_figures(
    new_app: Callable[..., App],
) -> None:
    """Bad input case 23. The sample with its questions, every figure found; then a bug
    in the next edit's result: the Damage figures, the token figures, the Splitter
    comparison, the Size trade-offs and the Evidence check (its figures, each question's
    verdict, its table by splitter) show none of the previous result's figures. Before,
    all of them but the chart kept the sample's."""
    app = new_app()
    app.open().wait_ready()
    app.page.wait_for_selector(ALL_SHOWN, timeout=30_000)
    damage = app.figures("Damage")
    assert damage["Code blocks cut"] != "—" and damage["Ends mid-sentence"] != "—"
    assert all(app.figure(term).text_content() not in ("—", "…") for term in TOKEN_TERMS)
    assert len(comparison_rows(app)) >= 5
    assert evidence_figures(app)["Questions checked"] != "—"
    expect(app.page.locator("#compare-body td.ev-col").first).not_to_have_text("…")
    expect(app.page.locator("#tradeoff-text")).to_contain_text("Damage: size ")

    app.python(INJECT)
    try:
        app.settle(lambda: app.source.fill(SAMPLE + " changed"), expect_state="error")
    finally:
        app.python(RESTORE)
    expect(app.readiness_status()).to_have_text("Something went wrong")
    verdicts = app.page.locator("#evidence-list > li > p.hint").all_text_contents()
    assert verdicts  # the questions stay, checked against nothing
    shown = {
        "damage": set(app.figures("Damage").values()),
        "tokens": {app.figure(term).text_content() for term in TOKEN_TERMS},
        "comparison": (comparison_rows(app), app.page.locator("#compare-status").text_content()),
        "trade-offs": app.page.locator("#tradeoff-text").text_content(),
        "evidence": set(evidence_figures(app).values()),
        "verdicts": set(verdicts),
    }
    none = "No comparison: see Chunk readiness."
    assert shown == {
        "damage": {"—"},
        "tokens": {"—"},
        "comparison": ([], none),
        "trade-offs": none,
        "evidence": {"—"},
        "verdicts": {"No chunks to check (see Chunk readiness)."},
    }
    # and none of the previous result's work after the paint comes back later
    app.page.wait_for_timeout(1_000)
    assert comparison_rows(app) == [] and set(app.figures("Damage").values()) == {"—"}
