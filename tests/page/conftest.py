"""Browser fixtures and the one page driver every browser test uses.

    site, serve_dir, server, copy_site   from tests/conftest.py (the build's fixtures)
    browser    Playwright driving /usr/bin/chromium (never a downloaded browser)
    new_app    open an `App` on any server, with any context options (e.g. bypass_csp)
    app        one booted `App` per test module, on `server`

`App` acts as a person does, through visible labels and roles: type into a field named by
its label, choose a radio or an option by its label, press a button by its name, drop or
browse a file, open a share link; and reads what a person reads: a summary figure by its
term, the records table, the preview, the readiness panel, downloads and the clipboard.
It also records every request, console message, uncaught error, dialog and CSP violation.
A test during which any open `App` logs a console error or an uncaught page error fails
(`no_page_errors`), unless it is marked `page_errors_expected` (it provokes them).

Waiting: the page sets `#app[data-state]` to "busy" when an edit schedules a recompute and
to "ready" (or "error" after a bug) when the panels show its result. An init script logs
every value written there, so `App.settle(action)` waits for the page to go busy *after*
the action and then settle; an action that fires nothing times out instead of passing. The
driver knows which actions recompute: edits of controls in the "Document and settings"
region do, when they change a value; the result panels' own options (Show whitespace,
Spreadsheet-safe CSV) do not.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Dialog,
    Locator,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from chunker_py import MODES, Settings  # noqa: E402
from chunker_py.config.settings import DEFAULT_SEPARATORS, EDGES  # noqa: E402
from sitebuild.paths import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.conftest import Server  # noqa: E402  (re-exported for the browser tests)

BOOT_TIMEOUT_MS = 60_000

# Every browser cache of the page and the URLs it holds: {cache name: [url, ...]}.
CACHED = """async () => {
    const out = {};
    for (const name of await caches.keys()) {
        out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
    }
    return out;
}"""
SETTLE_TIMEOUT_MS = 30_000
CLIPBOARD = ["clipboard-read", "clipboard-write"]
SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")
SETTINGS_REGION = "Document and settings"
# The visible label of each mode and edges value (radio buttons), from the core.
MODE_LABELS = {name: mode.label for name, mode in MODES.items()}
EDGE_LABELS = dict(EDGES)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (build.py test does)")
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    yield browser
    browser.close()


# Runs before any page script (add_init_script), outside the page's CSP:
# - every CSP violation goes to window.__cspViolations;
# - every value written to #app[data-state] goes to window.__ciStates, in order. A
#   MutationObserver record's oldValue is the value the previous write left, so a "busy"
#   overwritten before the observer ran is still logged.
WATCH_SCRIPT = """(() => {
  window.__cspViolations = [];
  addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push({
      directive: event.effectiveDirective,
      blocked: event.blockedURI,
      source: event.sourceFile,
      sample: event.sample,
    });
  }, true);
  window.__ciStates = [];
  const watch = () => {
    const app = document.getElementById('app');
    if (!app) return false;
    new MutationObserver((records) => {
      records.forEach((record, i) => {
        const next = records[i + 1];
        window.__ciStates.push(next ? next.oldValue : app.dataset.state);
      });
    }).observe(app, { attributes: true, attributeFilter: ['data-state'],
                      attributeOldValue: true });
    return true;
  };
  if (!watch()) document.addEventListener('DOMContentLoaded', watch, { once: true });
})();"""

# True once the page went busy after the first `since` writes and its last write settled.
SETTLED_SINCE = """(since) => {
  const log = (window.__ciStates || []).slice(since);
  const last = log[log.length - 1];
  return log.includes('busy') && (last === 'ready' || last === 'error');
}"""

DROP_FILES = """async (area, files) => {
    const transfer = new DataTransfer();
    for (const f of files) {
        const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    for (const type of ['dragenter', 'dragover', 'drop']) {
        area.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true,
                                                 cancelable: true }));
    }
}"""

# The clipboard's text once it differs from `old` (the page writes it asynchronously).
CLIPBOARD_CHANGED = """async (old) => {
    for (let i = 0; i < 400; i++) {
        const text = await navigator.clipboard.readText();
        if (text !== old) return text;
        await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the clipboard did not change within 10 s');
}"""

# A folder cannot be put in a DataTransfer from a test: the drop event is faked with an
# item whose webkitGetAsEntry() says isDirectory, which is all the page reads.
DROP_FOLDER = """(area) => {
    const event = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: {
        items: [{ webkitGetAsEntry: () => ({ isDirectory: true, name: 'folder' }) }],
        files: { length: 0, item: () => null },
    } });
    area.dispatchEvent(event);
}"""


@dataclass
class App:
    """The page as a person uses it, plus everything it asked for and said."""

    page: Page
    base_url: str
    requests: list[str] = field(default_factory=list)
    console: list[ConsoleMessage] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def watch(self) -> App:
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: self.console.append(message))
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        self.page.on("dialog", self._dialog)
        return self

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    # ------------------------------------------------------------ loading and waiting

    def open(self, path: str = "") -> App:
        """Navigate to the site (plus `path`, e.g. a "#..." share link); does not wait."""
        self.page.goto(self.base_url + path)
        return self

    def state(self) -> str | None:
        return self.page.get_attribute("#app", "data-state")

    def wait_settled(self, timeout: float = BOOT_TIMEOUT_MS) -> str:
        """Wait until the boot ends either way; return the final data-state."""
        self.page.wait_for_selector(
            '#app[data-state="ready"], #app[data-state="error"]', timeout=timeout
        )
        return self.state() or ""

    def wait_ready(self, timeout: float = BOOT_TIMEOUT_MS) -> App:
        """Wait for the booted page; fail at once, with the page's message, on error."""
        if self.wait_settled(timeout) == "error":
            pytest.fail(f"page reached data-state=error: {self.page.text_content('#boot-status')}")
        return self

    def settle(
        self,
        action: Callable[[], Any],
        *,
        expect_state: str = "ready",
        timeout: float = SETTLE_TIMEOUT_MS,
    ) -> None:
        """Run `action`, which must cause a recompute; wait until the page went busy after
        it and then showed the result. An action that fires nothing fails here."""
        since = self.page.evaluate("() => window.__ciStates.length")
        action()
        try:
            self.page.wait_for_function(SETTLED_SINCE, arg=since, timeout=timeout)
        except Exception as error:
            log = self.page.evaluate("(n) => window.__ciStates.slice(n)", since)
            pytest.fail(f"no busy -> ready after the action (data-state writes: {log}): {error}")
        state = self.state()
        assert state == expect_state, (
            f"data-state={state}: {self.readiness_message().text_content()}"
        )
        # work scheduled after the paint (the trade-off chart, the sizes histogram, damage)
        self.page.wait_for_selector(
            '#app:not([data-damage="pending"]):not([data-chart="pending"])', timeout=timeout
        )

    # ------------------------------------------------------------ finding controls

    def control(self, label: str) -> Locator:
        """The control named `label` (its <label>, aria-label or legend-less text)."""
        return self.page.get_by_label(label, exact=True)

    @property
    def source(self) -> Locator:
        return self.control("Source text")

    def recomputes(self, control: Locator) -> bool:
        """Edits of the document and settings recompute; the result panels' options don't."""
        return control.evaluate(
            "(el, name) => [...document.querySelectorAll('section')].some((s) =>"
            " s.contains(el) && s.getAttribute('aria-labelledby') &&"
            " document.getElementById(s.getAttribute('aria-labelledby'))"
            ".textContent.trim() === name)",
            SETTINGS_REGION,
        )

    def reveal(self, control: Locator) -> None:
        """Open the collapsed group (e.g. Advanced) holding `control`, as a person would."""
        if control.is_visible():
            return
        summary = control.evaluate(
            "(el) => { const d = el.closest('details'); return d && !d.open ?"
            " d.querySelector('summary').textContent.trim() : null; }"
        )
        if summary:
            self.page.get_by_text(summary, exact=True).click()
        expect(control).to_be_visible()

    def open_group(self, summary: str) -> None:
        """Open a collapsed <details> group by its summary text, if it is closed."""
        group = self.page.locator("details").filter(has=self.page.get_by_text(summary, exact=True))
        if group.get_attribute("open") is None:
            self.page.get_by_text(summary, exact=True).click()

    def close_group(self, summary: str) -> None:
        group = self.page.locator("details").filter(has=self.page.get_by_text(summary, exact=True))
        if group.get_attribute("open") is not None:
            self.page.get_by_text(summary, exact=True).click()

    def _edit(self, control: Locator, edit: Callable[[], Any], changes: bool) -> None:
        if changes and self.recomputes(control):
            self.settle(edit)
        else:
            edit()

    # ------------------------------------------------------------ acting

    def fill(self, label: str, value: str) -> None:
        """Set the field named `label` to `value` in one input event (a paste). Nothing
        happens, and nothing is waited for, when it already holds `value`."""
        control = self.control(label)
        self.reveal(control)
        self._edit(control, lambda: control.fill(value), control.input_value() != value)

    def type(self, label: str, text: str, *, clear: bool = True) -> None:
        """Type `text` key by key into the field named `label` (after selecting what it
        holds, so the keys replace it). Number fields drop keys they refuse, as for a
        person; waits for the result of the last key when the value changed."""
        control = self.control(label)
        self.reveal(control)
        before = control.input_value()

        def keys() -> None:
            control.click()
            if clear:
                self.page.keyboard.press("ControlOrMeta+A")
                if text == "":
                    self.page.keyboard.press("Backspace")
            else:
                self.page.keyboard.press("ControlOrMeta+End")  # append, wherever clicked
            control.press_sequentially(text)

        if not self.recomputes(control):
            keys()
            return
        since = self.page.evaluate("() => window.__ciStates.length")
        keys()
        if control.input_value() != before or self.page.evaluate(
            "(n) => window.__ciStates.length > n", since
        ):
            # the value changed (or an input event fired): its recompute must complete
            self.page.wait_for_function(SETTLED_SINCE, arg=since, timeout=SETTLE_TIMEOUT_MS)

    def set_exact(self, label: str, value: str) -> None:
        """Put `value` into the field exactly, as no keyboard can (a lone surrogate), and
        fire one input event. For strings a clipboard paste could hold but typing not."""
        control = self.control(label)
        self.reveal(control)
        self.settle(
            lambda: control.evaluate(
                "(el, value) => { el.value = value;"
                " el.dispatchEvent(new Event('input', { bubbles: true })); }",
                value,
            )
        )

    def choose(self, label: str) -> None:
        """Check the radio button named `label`."""
        radio = self.page.get_by_role("radio", name=label, exact=True)
        self.reveal(radio)
        self._edit(radio, radio.check, not radio.is_checked())

    def select(self, label: str, option: str | None = None, *, value: str | None = None) -> None:
        """Choose, in the select named `label`, the option with visible text `option` (or
        the option whose value is `value`)."""
        control = self.control(label)
        self.reveal(control)
        if value is not None:
            changes = control.input_value() != value
            self._edit(control, lambda: control.select_option(value=value), changes)
            return
        current = control.evaluate("(el) => el.selectedOptions[0]?.textContent.trim() ?? null")
        self._edit(control, lambda: control.select_option(label=option), current != option)

    def set_checked(self, label: str, checked: bool = True) -> None:
        """Tick or clear the checkbox named `label`."""
        box = self.page.get_by_role("checkbox", name=label, exact=True)
        self.reveal(box)
        self._edit(box, lambda: box.set_checked(checked), box.is_checked() != checked)

    def press(self, button: str) -> None:
        """Click the button named `button` (no wait: use settle() if it recomputes)."""
        self.page.get_by_role("button", name=button, exact=True).click()

    def browse(self, name: str, data: bytes, mime: str = "text/plain") -> None:
        """Choose a file with Browse TXT/MD. Does not wait: a refused file recomputes
        nothing, so wrap accepted imports in settle()."""
        self.page.get_by_label("Browse TXT/MD").set_input_files(
            files=[{"name": name, "mimeType": mime, "buffer": data}]
        )

    def browse_files(self, files: list[tuple[str, bytes]]) -> None:
        """Choose several files at once with Browse TXT/MD (no wait, as for browse)."""
        self.page.get_by_label("Browse TXT/MD").set_input_files(
            files=[{"name": name, "mimeType": "text/plain", "buffer": data} for name, data in files]
        )

    def documents(self) -> list[str]:
        """The document list, one line per document: name · size · chunks."""
        return self.region("Documents").get_by_role("button").all_text_contents()

    def refused_files(self) -> list[str]:
        """The files the last import refused, each with its reason."""
        return (
            self.page.get_by_role("list", name="Files refused")
            .get_by_role("listitem")
            .all_text_contents()
        )

    def drop(self, files: list[tuple[str, bytes] | tuple[str, bytes, str]]) -> None:
        """Drop files, each (name, data[, MIME type]), on Source text (no wait, as for
        browse)."""
        payload = [
            {
                "name": f[0],
                "type": f[2] if len(f) > 2 else "text/plain",  # type: ignore[misc]
                "b64": base64.b64encode(f[1]).decode(),
            }
            for f in files
        ]
        self.source.evaluate(DROP_FILES, payload)

    def drop_folder(self) -> None:
        self.source.evaluate(DROP_FOLDER)

    def download(self, button: str) -> tuple[str, bytes]:
        """Press a download button; return the suggested file name and the exact bytes."""
        with self.page.expect_download() as info:
            self.press(button)
        download = info.value
        return download.suggested_filename, Path(download.path()).read_bytes()

    def copy(self, button: str) -> str:
        """Press a copy button ("Copy X"), wait for "X copied to the clipboard." and for
        the clipboard to change, and return the clipboard's text."""
        sentinel = "(clipboard before the copy)"
        self.page.evaluate("(text) => navigator.clipboard.writeText(text)", sentinel)
        self.press(button)
        what = button.removeprefix("Copy ")
        what = what[0].upper() + what[1:]
        expect(self.page.locator("#export-status")).to_have_text(f"{what} copied to the clipboard.")
        return self.page.evaluate(CLIPBOARD_CHANGED, sentinel)

    def open_link(self, fragment: str) -> None:
        """Edit the address bar's fragment to a share link on this page (hashchange)."""
        assert fragment.startswith("#")
        if self.page.evaluate("() => location.hash") == fragment:
            return
        self.settle(lambda: self.page.evaluate("(hash) => { location.hash = hash; }", fragment))

    def configure(
        self,
        text: str | None = None,
        *,
        mode: str = "recursive",
        size: int = 300,
        overlap: int = 50,
        edges: str = "trim",
        separators: tuple[str, ...] = DEFAULT_SEPARATORS,
        name: str = "",
    ) -> Settings:
        """Bring text and every setting to the given values (mode and edges as the core
        names them); returns the same settings as chunker_py's Settings."""
        if text is not None:
            self.fill("Source text", text)
        self.choose(MODE_LABELS[mode])
        current = self.control("Chunk size").input_value()
        if current.isdigit() and overlap >= int(current):
            self.fill("Chunk size", str(size))  # grow first so the overlap fits
        self.fill("Requested overlap", str(overlap))
        self.fill("Chunk size", str(size))
        self.choose(EDGE_LABELS[edges])
        try:
            shown = json.loads(self.value("Separators"))
        except ValueError:
            shown = None
        if shown != list(separators) and mode == "recursive":  # shown for Recursive only
            self.fill("Separators", json.dumps(list(separators)))
        self.fill("Source name", name)
        expect(self.page.locator("#app")).to_have_attribute("data-state", "ready")
        return Settings(
            mode=mode,
            chunk_size=size,
            chunk_overlap=overlap,
            edges=edges,
            separators=tuple(separators),
            source_name=name,
        )

    # ------------------------------------------------------------ reading

    def value(self, label: str) -> str:
        return self.control(label).input_value()

    def checked(self, label: str) -> bool:
        return self.page.get_by_label(label, exact=True).is_checked()

    def region(self, name: str) -> Locator:
        return self.page.get_by_role("region", name=name, exact=True)

    def readiness_status(self) -> Locator:
        return self.region("Chunk readiness").locator("#readiness-status")

    def readiness_message(self) -> Locator:
        return self.region("Chunk readiness").locator("#readiness-message")

    def notes(self) -> list[str]:
        return self.region("Chunk readiness").locator("#readiness-notes li").all_text_contents()

    def source_status(self) -> Locator:
        return self.page.locator("#source-status")

    def figure(self, term: str) -> Locator:
        """The summary figure shown under the visible term `term`."""
        # `has` is matched inside each item, so it is written from the page, not the region
        term_element = self.page.locator("dt").get_by_text(term, exact=True)
        return self.region("Summary").locator("dl > div").filter(has=term_element).locator("dd")

    def figures(self, group: str | None = None) -> dict[str, str]:
        """Summary figures by term: the main group, or the one under the heading `group`
        (e.g. "Damage")."""
        return self.region("Summary").evaluate(
            """(region, group) => {
                const named = (list) => {
                    const id = list.getAttribute('aria-labelledby');
                    return id ? document.getElementById(id).textContent.trim() : null;
                };
                const list = [...region.querySelectorAll('dl')].find((l) => named(l) === group);
                return Object.fromEntries([...list.querySelectorAll(':scope > div')].map(
                    (item) => [item.querySelector('dt').textContent,
                               item.querySelector('dd').textContent]));
            }""",
            group,
        )

    def records(self) -> list[list[str]]:
        """The Chunk records table's body, cell texts row by row: the guide's columns (the
        damage words and the token counts, filled in after the paint, are read by
        ``damage_words`` and ``token_counts``; the Evidence cells are left out)."""
        return (
            self.region("Chunk records")
            .get_by_role("table")
            .locator("tbody tr")
            .evaluate_all(
                "rows => rows.map(r => [...r.cells].filter(c => !c.classList.contains("
                "'damage-cell') && !c.classList.contains('evidence-cell') && "
                "!c.classList.contains('tokens-cell')).map(c => c.textContent))"
            )
        )

    def token_counts(self) -> list[str]:
        """The Tokens column of the Chunk records table."""
        return (
            self.region("Chunk records")
            .get_by_role("table")
            .locator("tbody td.tokens-cell")
            .all_text_contents()
        )

    def preview(self) -> list[str]:
        """The Overlap preview's chunk texts (exactly the text, whitespace symbols or not)."""
        return self.region("Overlap preview").locator(".chunk-text").all_text_contents()

    def exports_enabled(self) -> dict[str, bool]:
        export = self.region("Export")
        return {
            name: export.get_by_role("button", name=name, exact=True).is_enabled()
            for name in ("Download JSONL", "Download CSV", "Copy JSONL", "Copy CSV")
        }

    def python(self, code: str) -> object:
        """Run `code` in the page's own Pyodide (the interpreter app/main.py runs in).

        PyScript's `whenDefined("py")` resolves with the main-thread interpreter; core.js
        is imported by the same URL as the page's <script>, so it is the same module
        instance. Returns the last expression's value (JsProxy results converted).
        """
        return self.page.evaluate(
            """async (code) => {
                const core = await import(document.getElementById('pyscript-core').src);
                const { interpreter } = await core.whenDefined('py');
                const result = await interpreter.runPythonAsync(code);
                return result && typeof result.toJs === 'function' ? result.toJs() : result;
            }""",
            code,
        )

    def violations(self) -> list[dict[str, str]]:
        return self.page.evaluate("() => window.__cspViolations || null")

    def console_errors(self) -> list[str]:
        return [m.text for m in self.console if m.type == "error"] + self.page_errors

    def foreign_requests(self) -> list[str]:
        """Requests that left the server's origin (data: URLs and this origin's blob: URLs
        never leave the page)."""
        origin = self.base_url.rstrip("/")
        return [
            url
            for url in self.requests
            if not url.startswith((self.base_url, "data:", f"blob:{origin}/"))
        ]


OPEN_APPS: list[App] = []  # every App launched, for no_page_errors


def launch_app(browser: Browser, base_url: str, **context_options: Any) -> App:
    """A new context (clipboard allowed unless overridden) and page, watched; not opened.
    The tests' servers listen on 127.0.0.1, which snapshot.js takes for a fast link without
    measuring it; a test of the link probe serves on 127.0.0.2 (see test_first_visit.py)."""
    context_options.setdefault("permissions", CLIPBOARD)
    context = browser.new_context(**context_options)
    context.add_init_script(script=WATCH_SCRIPT)
    app = App(page=context.new_page(), base_url=base_url).watch()
    OPEN_APPS.append(app)
    return app


def _errors_logged(app: App) -> tuple[int, int]:
    return len([m for m in app.console if m.type == "error"]), len(app.page_errors)


@pytest.fixture(autouse=True)
def no_page_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test if any App logged a console error or an uncaught error during it."""
    before = {id(app): _errors_logged(app) for app in OPEN_APPS}
    yield
    if request.node.get_closest_marker("page_errors_expected"):
        return
    seen = []
    for app in OPEN_APPS:
        console, page = before.get(id(app), (0, 0))
        errors = [m.text for m in app.console if m.type == "error"]
        seen += errors[console:] + app.page_errors[page:]
    if seen:
        pytest.fail(f"the page logged errors during the test: {seen}")


@pytest.fixture
def new_app(browser: Browser, server: Server) -> Iterator[Callable[..., App]]:
    """Open Apps on any server (default: `server`); every context is closed afterwards."""
    opened: list[App] = []

    def open_app(base_url: str | None = None, **context_options: Any) -> App:
        app = launch_app(browser, base_url or server.url, **context_options)
        opened.append(app)
        return app

    yield open_app
    for app in opened:
        app.page.context.close()


@pytest.fixture(scope="module")
def app(browser: Browser, server: Server) -> Iterator[App]:
    """One cold boot of the page, shared by a module's checks (each sets what it needs)."""
    booted = launch_app(browser, server.url)
    booted.open().wait_ready()
    yield booted
    booted.page.context.close()
