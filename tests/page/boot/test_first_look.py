"""The first look: the sample's result drawn at build time, shown before
Python is ready on a default start, replaced by the live result; never on another start.

The runtime is held (pyodide.asm.wasm answered only when the test says) to look at the
page before Python can run. The equality test records each first-look panel's text as the
live page first draws it: readiness, summary and records when #app first turns "ready"
(the first update draws them in one go), the chunk map when the live page first redraws
it (at once, or as the first step after the paint). Later steps (token counts, damage)
change them further and are not part of the first look.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Route, expect

from chunker_py import Settings, analyse

from ..conftest import SAMPLE, App

PANELS = ("readiness", "summary-panel", "chunk-map-panel", "records-panel")

# Before any page script: each first-look panel's text in the template and as the live
# page first draws it (see the module's docstring), and whether the first look was shown.
RECORD_LIVE = """(() => {
  window.__look = { live: {} };
  document.addEventListener('DOMContentLoaded', () => {
    const app = document.getElementById('app');
    const template = document.getElementById('first-look');
    const ids = [...template.content.children].map((panel) => panel.id);
    window.__look.template = Object.fromEntries(
      [...template.content.children].map((panel) => [panel.id, panel.textContent]));
    window.__look.shown = app.dataset.firstLook ?? null;
    const take = (id) => { window.__look.live[id] = document.getElementById(id).textContent; };
    let mapRedrawn = false;
    const map = new MutationObserver(() => {
      mapRedrawn = true;
      if (window.__look.ready) { take('chunk-map-panel'); map.disconnect(); }
    });
    map.observe(document.getElementById('chunk-map'), { childList: true });
    new MutationObserver(() => {
      if (app.dataset.state !== 'ready' || window.__look.ready) return;
      window.__look.ready = true;
      for (const id of ids) if (id !== 'chunk-map-panel') take(id);
      if (mapRedrawn) { take('chunk-map-panel'); map.disconnect(); }
      window.__look.markAtReady = app.dataset.firstLook ?? null;
    }).observe(app, { attributes: true, attributeFilter: ['data-state'] });
  });
})();"""


def hold_runtime(app: App) -> list[Route]:
    """Hold every request for pyodide.asm.wasm until the test continues it."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    app.page.context.route(re.compile(r"pyodide\.asm\.wasm$"), hold)
    return held


def release(held: list[Route], app: App) -> None:
    app.page.wait_for_function("() => true")  # let the held request be routed first
    for route in held:
        route.continue_()
    app.page.context.unroute(re.compile(r"pyodide\.asm\.wasm$"))


def text(app: App, selector: str) -> str:
    return (app.page.text_content(selector) or "").strip()


def test_the_first_look_is_the_live_first_result(new_app: Any) -> None:
    app = new_app()
    app.page.add_init_script(script=RECORD_LIVE)
    app.open().wait_ready()
    app.page.wait_for_function(
        "() => window.__look.live['chunk-map-panel'] !== undefined", timeout=60_000
    )
    look = app.page.evaluate("() => window.__look")
    assert look["shown"] == "starting"
    assert sorted(look["template"]) == sorted(PANELS)
    for panel in PANELS:
        assert look["live"][panel] == look["template"][panel], panel
    # the live result replaced it: the mark is gone from the first live result on
    assert look["markAtReady"] is None
    assert app.page.get_attribute("#app", "data-first-look") is None
    # and the chunk map and records hold the sample's chunks (not just equal to each other)
    expected = analyse(SAMPLE, Settings())
    assert text(app, "#figure-chunks") == str(expected.count)
    rows = app.page.locator("#records-body tr")
    assert rows.count() == expected.count


def test_the_first_look_shows_before_python_and_an_edit_withdraws_it(new_app: Any) -> None:
    app = new_app()
    held = hold_runtime(app)
    app.open()
    app.page.wait_for_selector('#app[data-first-look="starting"]', state="attached")
    assert app.state() == "loading"
    expected = analyse(SAMPLE, Settings())
    assert text(app, "#figure-chunks") == str(expected.count)
    assert app.page.locator("#chunk-map .map-chunk").count() == expected.count
    assert app.page.locator("#records-body tr").count() == expected.count
    assert "starting…" in app.page.evaluate(
        "() => getComputedStyle(document.querySelector('#summary-heading'), '::after').content"
    )
    # an edit before Python is ready: the empty panels again, at once
    app.source.press("Control+End")
    app.source.type("!")
    app.page.wait_for_selector("#app:not([data-first-look])", state="attached")
    assert text(app, "#figure-chunks") == "—"
    assert app.page.locator("#records-body tr").count() == 0
    assert app.page.locator("#chunk-map-panel").is_hidden()
    release(held, app)
    app.wait_ready()
    edited = analyse(SAMPLE + "!", Settings())
    assert text(app, "#figure-chunks") == str(edited.count)
    assert app.source.input_value() == SAMPLE + "!"


def test_a_settings_link_shows_no_first_look(new_app: Any) -> None:
    app = new_app()
    held = hold_runtime(app)
    app.open("#v=1&mode=recursive&size=120&overlap=0&edges=trim")
    app.page.wait_for_selector("#first-look", state="attached")
    app.page.wait_for_function("() => document.readyState === 'complete'")
    assert app.page.get_attribute("#app", "data-first-look") is None
    assert text(app, "#figure-chunks") == "—"
    assert text(app, "#readiness-status") == "Waiting for the runtime"
    assert app.page.locator("#records-body tr").count() == 0
    assert app.page.locator("#chunk-map-panel").is_hidden()
    release(held, app)
    app.wait_ready()
    count = analyse(SAMPLE, Settings(chunk_size=120, chunk_overlap=0)).count
    assert text(app, "#figure-chunks") == str(count)


# As the browser restores an edited control on a reload or a return (while it parses the
# page, before any script runs): the chunk size holds 120, not the HTML's 300.
RESTORE_SIZE = """(() => {
  new MutationObserver((records, observer) => {
    const size = document.getElementById('chunk-size');
    if (size) { size.value = '120'; observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
})();"""


def test_a_setting_the_browser_restored_shows_no_first_look(new_app: Any) -> None:
    app = new_app()
    app.page.add_init_script(script=RESTORE_SIZE)
    held = hold_runtime(app)
    app.open()
    app.page.wait_for_function("() => document.readyState === 'complete'")
    assert app.control("Chunk size").input_value() == "120"
    assert app.page.get_attribute("#app", "data-first-look") is None
    assert text(app, "#figure-chunks") == "—"
    assert app.page.locator("#records-body tr").count() == 0
    release(held, app)
    app.wait_ready()
    count = analyse(SAMPLE, Settings(chunk_size=120)).count
    assert text(app, "#figure-chunks") == str(count)


def test_the_first_look_never_says_ready_while_the_page_starts(new_app: Any) -> None:
    """The first look's readiness is the sample's, drawn at build time: while the runtime
    loads it does not say "Ready" beside the start-up progress, it says what it is."""
    app = new_app()
    held = hold_runtime(app)
    app.open()
    app.page.wait_for_selector('#app[data-first-look="starting"]', state="attached")
    readiness = app.page.get_by_role("region", name="Chunk readiness")
    assert "Ready" not in readiness.inner_text()
    said = app.page.evaluate(
        "() => getComputedStyle(document.querySelector('#readiness-message'), '::before').content"
    )
    assert "drawn when the page was built" in said
    release(held, app)
    app.wait_ready()
    expect(app.readiness_status()).to_have_text("Ready")


def test_a_text_pasted_while_the_page_starts_is_not_called_the_sample(new_app: Any) -> None:
    """Pasting before start-up ends: once ready, the text is not labelled "Sample
    document" and the sample's questions are not asked of it."""
    app = new_app()
    held = hold_runtime(app)
    app.open()
    app.page.wait_for_selector('#app[data-first-look="starting"]', state="attached")
    app.source.fill("My own notes about the garden. Water daily.")
    release(held, app)
    app.wait_ready()
    expect(app.page.get_by_text("Sample document: replace it with yours")).to_be_hidden()
    app.page.wait_for_selector('#app[data-evidence="ready"]', timeout=30_000)
    expect(app.page.locator("#evidence-list > li")).to_have_count(0)
