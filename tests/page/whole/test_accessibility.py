"""Anyone can use it.

axe-core (the npm devDependency, injected from node_modules by the test) on the loaded page
and on a page showing an error: no violation of serious or critical impact. Keyboard: every
control is reached with Tab and works from the keyboard, focus is visible, the readiness
message is announced, and the overlap preview does not rely on colour alone.

axe is injected with page.evaluate (a DevTools evaluation, outside the page's CSP):
`page.add_script_tag(content=...)` adds an inline <script>, which the page's policy
(script-src 'self', no 'unsafe-inline') refuses, as the first test shows. The page's own
CSP therefore stays on for the audit; no bypass_csp is needed.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from ..conftest import ROOT, App

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TEXT = (
    "Reset password. Keep backup codes.\n\n"
    "Backup codes work once each. Store them somewhere safe and offline.\n\n"
    "Support can reset two-factor access after checking your identity."
)


@pytest.fixture(scope="module")
def a11y(app: App) -> App:
    defaults(app)
    return app


def run_axe(w: App) -> list[dict[str, object]]:
    if not w.page.evaluate("() => typeof window.axe === 'object'"):
        w.page.evaluate(Path(AXE).read_text("utf-8") + "\n;undefined")
    return w.page.evaluate(
        """async () => {
            const results = await axe.run(document, {
                resultTypes: ['violations'],
            });
            return results.violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                .map((v) => ({
                    id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.map((n) => n.target.join(' ') + ' :: ' + n.failureSummary),
                }));
        }"""
    )


def describe(violations: list[dict[str, object]]) -> str:
    return "\n".join(
        f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])  # type: ignore[arg-type]
        for v in violations
    )


@pytest.mark.page_errors_expected  # Chromium logs the refused script
def test_page_csp_refuses_an_injected_inline_script(a11y) -> None:
    before = len(a11y.violations())
    # Playwright may report the refused script as an error; either way it must not run.
    with contextlib.suppress(PlaywrightError):
        a11y.page.add_script_tag(content="window.__inlineRan = true;")
    assert a11y.page.evaluate("() => window.__inlineRan === undefined")
    refused = a11y.violations()[before:]
    assert any(v["directive"].startswith("script-src") for v in refused), refused


def test_axe_finds_no_serious_or_critical_violation_on_the_loaded_page(a11y: App) -> None:
    defaults(a11y)
    expect(a11y.readiness_status()).to_have_text("Ready")
    a11y.open_group("Advanced")  # audit the Advanced fields too
    try:
        violations = run_axe(a11y)
    finally:
        a11y.close_group("Advanced")
    assert violations == [], describe(violations)


def test_axe_finds_no_serious_or_critical_violation_with_an_error_shown(a11y: App) -> None:
    defaults(a11y)
    a11y.fill("Chunk size", "0")
    try:
        expect(a11y.readiness_status()).to_have_text("Check inputs")
        assert a11y.control("Chunk size").get_attribute("aria-invalid") == "true"
        violations = run_axe(a11y)
    finally:
        a11y.fill("Chunk size", "300")
    assert violations == [], describe(violations)


# ---------------------------------------------------------------- keyboard

FOCUS_INFO = """() => {
    const element = document.activeElement;
    return element ? (element.id || element.tagName.toLowerCase()) : null;
}"""


def defaults(w: App) -> None:
    """The module's text with default settings, Ready (tests may leave other states)."""
    w.configure(TEXT)
    w.close_group("Advanced")
    expect(w.readiness_status()).to_have_text("Ready")


def start_at_top(w: App) -> None:
    """Move the sequential focus starting point to the page heading (as a click there does)."""
    w.page.click("h1")
    assert w.page.evaluate(FOCUS_INFO) == "body"


def tab_through(w: App, limit: int = 80) -> list[str]:
    """Press Tab from the top of the page until focus leaves the document or loops."""
    p = w.page
    start_at_top(w)
    seen: list[str] = []
    for _ in range(limit):
        p.keyboard.press("Tab")
        focused = p.evaluate(FOCUS_INFO)
        if focused in (None, "body") or (seen and focused == seen[0]):
            break
        seen.append(focused)
    return seen


def test_every_control_is_reached_with_tab(a11y) -> None:
    defaults(a11y)
    a11y.open_group("Advanced")
    try:
        order = tab_through(a11y)
    finally:
        a11y.close_group("Advanced")
    expected = [
        "source-text",
        "browse",
        "clear-text",
        "mode-recursive",  # a radio group is one Tab stop; arrows move within it
        "chunk-size",
        "chunk-size-slider",
        "chunk-overlap",
        "chunk-overlap-slider",
        "edges-trim",
        "group-tokens",
        "size-unit-code-points",
        "tokenizer",
        "group-options",
        "preset",
        "group-advanced",
        "separators",
        "separators-reset",
        "source-name",
        "download-jsonl",
        "download-csv",
        "copy-jsonl",
        "copy-csv",
        "copy-link",
        "spreadsheet-safe",
        "show-whitespace",
    ]
    missing = [control for control in expected if control not in order]
    assert missing == [], f"not reached with Tab: {missing}; order was {order}"
    assert [c for c in order if c in expected] == expected, order


def focus_by_tab(w: App, target: str, limit: int = 80) -> None:
    start_at_top(w)
    for _ in range(limit):
        w.page.keyboard.press("Tab")
        if w.page.evaluate(FOCUS_INFO) == target:
            return
    pytest.fail(f"#{target} was not reached with Tab")


def test_radios_work_with_arrow_keys_and_space(a11y: App) -> None:
    p = a11y.page
    defaults(a11y)
    focus_by_tab(a11y, "mode-recursive")
    a11y.settle(lambda: p.keyboard.press("ArrowDown"))
    assert a11y.checked("Fixed size")
    assert "mode=fixed" in p.evaluate("() => location.hash")
    a11y.settle(lambda: p.keyboard.press("ArrowUp"))
    assert a11y.checked("Recursive")
    # Space checks a focused, unchecked radio.
    p.get_by_role("radio", name="Preserve edge whitespace").focus()
    a11y.settle(lambda: p.keyboard.press("Space"))
    assert a11y.checked("Preserve edge whitespace")
    p.get_by_role("radio", name="Trim edge whitespace").focus()
    a11y.settle(lambda: p.keyboard.press("Space"))
    assert a11y.checked("Trim edge whitespace")


def test_number_fields_take_typed_values(a11y: App) -> None:
    p = a11y.page

    def select_and_type(text: str) -> None:
        p.keyboard.press("ControlOrMeta+A")
        p.keyboard.type(text)

    defaults(a11y)
    focus_by_tab(a11y, "chunk-overlap")
    a11y.settle(lambda: select_and_type("10"))
    focus_by_tab(a11y, "chunk-size")
    a11y.settle(lambda: select_and_type("40"))
    assert a11y.value("Chunk size") == "40"
    assert a11y.value("Chunk size slider") == "40"
    assert "size=40&overlap=10" in p.evaluate("() => location.hash")
    expect(a11y.readiness_status()).to_have_text("Ready")
    assert int(a11y.figure("Chunks").text_content() or 0) > 1
    defaults(a11y)


def test_checkboxes_toggle_with_space(a11y: App) -> None:
    p = a11y.page
    defaults(a11y)
    focus_by_tab(a11y, "spreadsheet-safe")
    p.keyboard.press("Space")  # an export option: nothing is recomputed
    assert a11y.checked("Spreadsheet-safe CSV")
    p.keyboard.press("Space")
    assert not a11y.checked("Spreadsheet-safe CSV")


def test_buttons_work_with_enter(a11y) -> None:
    p = a11y.page
    defaults(a11y)
    focus_by_tab(a11y, "copy-link")
    p.keyboard.press("Enter")
    expect(a11y.region("Export")).to_contain_text("Settings link copied to the clipboard.")
    focus_by_tab(a11y, "download-jsonl")
    with p.expect_download() as info:
        p.keyboard.press("Enter")
    assert info.value.suggested_filename.endswith(".jsonl")


def test_browse_opens_the_file_chooser_from_the_keyboard(a11y) -> None:
    """Space on the focused Browse input opens the file chooser.

    Playwright intercepts file choosers only once a "filechooser" listener exists, and it
    turns interception on asynchronously: `expect_file_chooser` around the key press alone
    raced it (on a busy machine the key won, the native chooser opened unseen and the wait
    timed out). A listener registered first, then a round trip to the page, make sure the
    interception is on before the key is pressed; the wait itself is generous.
    """
    p = a11y.page
    defaults(a11y)

    def ignore(_chooser: object) -> None:
        pass

    p.on("filechooser", ignore)
    try:
        p.evaluate("() => document.readyState")  # interception is on once this returns
        focus_by_tab(a11y, "browse")
        with p.expect_file_chooser(timeout=60_000) as chooser:
            p.keyboard.press("Space")
        assert chooser.value.element.get_attribute("id") == "browse"
    finally:
        p.remove_listener("filechooser", ignore)


def test_advanced_opens_with_enter(a11y: App) -> None:
    p = a11y.page
    defaults(a11y)
    separators = a11y.control("Separators")
    expect(separators).to_be_hidden()
    focus_by_tab(a11y, "group-advanced")
    p.keyboard.press("Enter")
    expect(separators).to_be_visible()
    p.keyboard.press("Enter")
    expect(separators).to_be_hidden()


OUTLINE = """(selector) => {
    const style = getComputedStyle(document.querySelector(selector));
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
}"""


@pytest.mark.parametrize(
    ("focused", "indicator"),
    [
        ("source-text", "#source-text"),
        ("browse", "label[for=browse]"),  # the input is visually hidden; its label shows focus
        ("mode-recursive", "#mode-recursive"),
        ("chunk-size", "#chunk-size"),
        ("chunk-size-slider", "#chunk-size-slider"),
        ("group-advanced", "details.advanced > summary"),
        ("copy-link", "#copy-link"),
        ("spreadsheet-safe", "#spreadsheet-safe"),
    ],
)
def test_focus_is_visible(a11y, focused: str, indicator: str) -> None:
    defaults(a11y)
    focus_by_tab(a11y, focused)
    assert a11y.page.evaluate("() => document.activeElement.matches(':focus-visible')")
    outline = a11y.page.evaluate(OUTLINE, indicator)
    assert outline["style"] != "none" and outline["width"] > 0, outline


def test_readiness_message_is_announced(a11y) -> None:
    region = a11y.page.evaluate(
        """() => {
            const message = document.getElementById('readiness-message');
            const status = document.getElementById('readiness-status');
            const live = message.closest('[role=status], [aria-live]');
            return live && live.contains(status)
                ? { role: live.getAttribute('role'), live: live.getAttribute('aria-live') }
                : null;
        }"""
    )
    assert region is not None
    assert region["role"] == "status" or region["live"] in ("polite", "assertive")


def test_overlap_preview_does_not_rely_on_colour_alone(a11y: App) -> None:
    a11y.configure(TEXT, mode="fixed", size=60, overlap=20)
    try:
        mark = a11y.region("Overlap preview").get_by_role("list").locator("mark").first
        expect(mark).to_be_visible()
        cue = mark.evaluate(
            """(mark) => {
                const style = getComputedStyle(mark);
                return {
                    decoration: style.textDecorationLine,
                    border: style.borderBottomStyle,
                    title: mark.title,
                    tag: mark.tagName,
                };
            }"""
        )
    finally:
        defaults(a11y)
    assert cue["tag"] == "MARK"  # exposed as a highlight to assistive technology
    assert cue["decoration"] != "none" or cue["border"] != "none", cue
    assert cue["title"], "no text explanation of the highlight"
