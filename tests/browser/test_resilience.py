"""Issue 4, section 5 (BAD-INPUT 23 and 24): the page survives its own bugs and fast users.

- Rapid typing (40 characters, no delay between keys; and fast edits of Chunk size) ends
  with panels that match the final input, computed by chunker_py in the test process.
- An unexpected Python exception (injected by monkeypatching a panel function inside the
  page's own Pyodide, see WatchedPage.python in conftest.py) shows a short bug line under
  Chunk readiness, and the next edit works again.

A failed runtime load (BAD-INPUT 22) is covered by test_boot.py.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from chunker_py import Settings, analyse, to_jsonl

from .conftest import WatchedPage

BASE = "Reset password. Keep backup codes.\n\nBackup codes work once each."
TYPED = " Store them offline; support can reset 2FA"  # 40+ characters
assert len(TYPED) >= 40

INJECT = """
import sys
_panel = sys.modules["summary"]
_original = _panel.show

def _fail_once(*args, **kwargs):
    _panel.show = _original
    raise RuntimeError("injected failure for the resilience test")

_panel.show = _fail_once
"""
RESTORE = """
import sys
_panel = sys.modules["summary"]
if getattr(_panel.show, "__name__", "") == "_fail_once":
    _panel.show = _original
_panel.show.__name__
"""


def table(w: WatchedPage) -> list[list[str]]:
    return w.page.evaluate(
        """() => [...document.querySelectorAll('#records-body tr')].map(
            (tr) => [...tr.children].filter((td) => !td.classList.contains("damage-cell"))
                .map((td) => td.textContent))"""
    )


def expected_table(text: str, settings: Settings) -> list[list[str]]:
    result = analyse(text, settings)
    assert result.error is None
    return [
        [f"{c.index:,}", f"{c.start:,}", f"{c.end:,}", f"{c.length:,}", f"{c.overlap:,}", c.text]
        for c in result.chunks
    ]


def set_small_chunks(w: WatchedPage) -> Settings:
    for field, value in (("#chunk-overlap", "4"), ("#chunk-size", "18")):
        w.page.fill(field, value)
        w.settle()
    return Settings(chunk_size=18, chunk_overlap=4)


def test_24_rapid_typing_ends_with_panels_for_the_final_text(watched) -> None:
    p = watched.page
    settings = set_small_chunks(watched)
    p.fill("#source-text", BASE)
    watched.settle()
    p.focus("#source-text")
    p.keyboard.press("End")
    p.keyboard.press("Control+End")
    p.keyboard.type(TYPED, delay=0)
    watched.settle()
    final = BASE + TYPED
    assert p.input_value("#source-text") == final
    assert table(watched) == expected_table(final, settings)
    summary = analyse(final, settings).summary
    assert summary is not None
    expect(p.locator("#figure-chunks")).to_have_text(f"{summary.chunks:,}")
    expect(p.locator("#figure-repeated")).to_have_text(f"{summary.repeated:,}")
    titles = p.locator("#preview-list .chunk-title").count()
    assert titles == summary.chunks


def test_24_rapid_setting_edits_end_with_the_final_settings(watched) -> None:
    p = watched.page
    set_small_chunks(watched)
    p.fill("#source-text", BASE + TYPED)
    watched.settle()
    p.focus("#chunk-size")
    p.keyboard.press("Control+A")
    p.keyboard.type("2573", delay=0)  # 2, 25, 257, 2573: only the last may be shown
    p.keyboard.press("Backspace")  # 257
    watched.settle()
    assert p.input_value("#chunk-size") == "257"
    assert table(watched) == expected_table(BASE + TYPED, Settings(chunk_size=257, chunk_overlap=4))
    assert "size=257&overlap=4" in p.evaluate("() => location.hash")


def break_the_next_update(watched, text: str) -> Settings:
    """Small chunks over BASE, then make the next update raise once while ``text`` is typed;
    leaves the page showing the bug line (restoring the panel is the caller's `finally`)."""
    p = watched.page
    settings = set_small_chunks(watched)
    p.fill("#source-text", BASE)
    watched.settle()
    watched.python(INJECT)
    p.fill("#source-text", text)
    p.wait_for_selector('#app[data-state="error"], #app[data-state="ready"]')
    expect(p.locator("#readiness-status")).to_have_text("Something went wrong")
    return settings


def test_23_unexpected_python_exception_shows_a_bug_line_and_the_next_edit_works(
    watched,
) -> None:
    p = watched.page
    try:
        settings = break_the_next_update(watched, BASE + " one")
        message = p.text_content("#readiness-message") or ""
        assert message.startswith("Bug: RuntimeError: injected failure for the resilience test.")
        assert "\n" not in message and len(message) < 300  # a short line, not a traceback
        assert p.input_value("#source-text") == BASE + " one"  # the user's text is kept
    finally:
        assert watched.python(RESTORE) == "show"

    # The next edit works again.
    p.fill("#source-text", BASE + " two")
    watched.settle()
    expect(p.locator("#readiness-status")).to_have_text("Ready")
    assert table(watched) == expected_table(BASE + " two", settings)
    assert watched.page_errors == []


def test_23_after_a_bug_no_stale_records_are_offered_for_download(watched, tmp_path) -> None:
    """While the bug line is shown, the panels belong to an earlier text: exporting them
    would silently hand out a result that is not the current text's."""
    p = watched.page
    try:
        settings = break_the_next_update(watched, BASE + " changed")
        if p.is_enabled("#download-jsonl"):
            with p.expect_download() as info:
                p.click("#download-jsonl")
            target = tmp_path / "after-bug.jsonl"
            info.value.save_as(target)
            offered = target.read_bytes().decode("utf-8")
            current = to_jsonl(analyse(BASE + " changed", settings))
            assert offered == current, (
                "after a bug, Download JSONL still exports the previous text's records: "
                + json.dumps(offered.splitlines()[:1])
            )
    finally:
        watched.python(RESTORE)
        p.fill("#source-text", BASE)
        watched.settle()
