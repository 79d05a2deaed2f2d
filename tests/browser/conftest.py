"""Browser fixtures: the built site, an in-process server, headless Debian Chromium.

    site      the static site, built once per session into a temporary folder
    server    that site on 127.0.0.1 (port 0), with a thread-safe log of every request
    browser   Playwright driving /usr/bin/chromium (never a downloaded browser)
    page      a fresh context and page that records request URLs, console messages and
              uncaught errors; `page.open()` then `page.wait_ready()` boots the app

Browser tests read state from `#app[data-state]` (loading | busy | ready | error) and
never sleep.
"""

from __future__ import annotations

import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (build.py lives at the repository root)

CHROMIUM = build.CHROMIUM
CHROMIUM_ARGS = build.CHROMIUM_ARGS
BOOT_TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Server:
    """A running static server and what it was asked for."""

    url: str  # "http://127.0.0.1:PORT/"
    root: Path
    _log: list[Request] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
        with self._lock:
            self._log.append(Request(method, path, headers, body))

    @property
    def requests(self) -> list[Request]:
        with self._lock:
            return list(self._log)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> build.Site:
    """The site, built once, away from ./dist so a running `build.py serve` is untouched."""
    return build.build(tmp_path_factory.mktemp("site") / "dist")


@pytest.fixture(scope="session")
def serve_dir() -> Iterator[Callable[[Path], Server]]:
    """Serve any folder in-process; every server started is stopped at session end."""
    running = []

    def start(root: Path) -> Server:
        server = Server(url="", root=root)
        httpd = build.make_server(root, 0, log=server.record)
        server.url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        running.append(httpd)
        return server

    yield start
    for httpd in running:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def server(site: build.Site, serve_dir: Callable[[Path], Server]) -> Server:
    return serve_dir(site.root)


@pytest.fixture(scope="session")
def copy_site(site: build.Site, tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """A fresh copy of the built site, to break on purpose."""

    def copy() -> Path:
        target = tmp_path_factory.mktemp("site-copy") / "dist"
        shutil.copytree(site.root, target)
        return target

    return copy


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


@dataclass
class RecordedPage:
    """A page plus everything it asked for and said. Use `.page` for Playwright calls."""

    page: Page
    base_url: str
    requests: list[str] = field(default_factory=list)
    console: list[ConsoleMessage] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def open(self, path: str = "") -> Page:
        self.page.goto(self.base_url + path)
        return self.page

    def state(self) -> str | None:
        return self.page.get_attribute("#app", "data-state")

    def wait_settled(self, timeout: float = BOOT_TIMEOUT_MS) -> str:
        """Wait until the boot ends either way; return the final data-state."""
        self.page.wait_for_selector(
            '#app[data-state="ready"], #app[data-state="error"]', timeout=timeout
        )
        return self.state() or ""

    def wait_ready(self, timeout: float = BOOT_TIMEOUT_MS) -> Page:
        """Wait for #app[data-state=ready]; fail at once, with the page's message, on error."""
        if self.wait_settled(timeout) == "error":
            pytest.fail(f"page reached data-state=error: {self.page.text_content('#boot-status')}")
        return self.page

    def console_errors(self) -> list[str]:
        return [m.text for m in self.console if m.type == "error"] + self.page_errors

    def foreign_requests(self) -> list[str]:
        """Requests that left the server's origin (data: URLs never leave the page)."""
        return [url for url in self.requests if not url.startswith((self.base_url, "data:"))]


def open_recorded_page(browser: Browser, base_url: str) -> tuple[RecordedPage, Callable[[], None]]:
    context = browser.new_context()
    recorded = RecordedPage(page=context.new_page(), base_url=base_url)
    recorded.page.on("request", lambda request: recorded.requests.append(request.url))
    recorded.page.on("console", lambda message: recorded.console.append(message))
    recorded.page.on("pageerror", lambda error: recorded.page_errors.append(str(error)))
    return recorded, context.close


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[RecordedPage]:
    recorded, close = open_recorded_page(browser, server.url)
    yield recorded
    close()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[[str], RecordedPage]]:
    """Open recorded pages on any server (e.g. one serving a broken copy of the site)."""
    closers = []

    def open_at(base_url: str) -> RecordedPage:
        recorded, close = open_recorded_page(browser, base_url)
        closers.append(close)
        return recorded

    yield open_at
    for close in closers:
        close()


@pytest.fixture(scope="module")
def booted(browser: Browser, server: Server) -> Iterator[RecordedPage]:
    """One cold boot of the page, shared by a module's checks that only read it."""
    recorded, close = open_recorded_page(browser, server.url)
    recorded.open()
    recorded.wait_ready()
    yield recorded
    close()


# ---------------------------------------------------------------- issue 4: privacy,
# bad input, accessibility and resilience tests share these (appended; nothing above
# changed).

READY = '#app[data-state="ready"]'

# Records every Content-Security-Policy violation into window.__cspViolations. Added with
# add_init_script, so it runs before any page script and is not itself subject to the CSP.
CSP_LISTENER = """(() => {
  window.__cspViolations = [];
  addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push({
      directive: event.effectiveDirective,
      blocked: event.blockedURI,
      source: event.sourceFile,
      sample: event.sample,
    });
  }, true);
})();"""


@dataclass
class WatchedPage(RecordedPage):
    """A RecordedPage that also records dialogs (and dismisses them) and CSP violations."""

    dialogs: list[str] = field(default_factory=list)

    def violations(self) -> list[dict[str, str]]:
        return self.page.evaluate("() => window.__cspViolations || null")

    def settle(self, timeout: float = 30_000) -> Page:
        """After an edit (which sets data-state=busy at once): wait for its result."""
        self.page.wait_for_selector(READY, timeout=timeout)
        return self.page

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


def open_watched_page(
    browser: Browser, base_url: str, **context_options: object
) -> tuple[WatchedPage, Callable[[], None]]:
    """Like open_recorded_page, plus the CSP listener, dialog recording and context options
    (e.g. permissions=["clipboard-read", "clipboard-write"])."""
    context = browser.new_context(**context_options)  # type: ignore[arg-type]
    context.add_init_script(script=CSP_LISTENER)
    watched = WatchedPage(page=context.new_page(), base_url=base_url)
    watched.page.on("request", lambda request: watched.requests.append(request.url))
    watched.page.on("console", lambda message: watched.console.append(message))
    watched.page.on("pageerror", lambda error: watched.page_errors.append(str(error)))

    def on_dialog(dialog: object) -> None:
        watched.dialogs.append(f"{dialog.type}: {dialog.message}")  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    watched.page.on("dialog", on_dialog)
    return watched, context.close


@pytest.fixture(scope="module")
def watched(browser: Browser, server: Server) -> Iterator[WatchedPage]:
    """One booted page per module, with CSP and dialog watching, for edits that restore
    what they change."""
    page, close = open_watched_page(browser, server.url)
    page.open()
    page.wait_ready()
    yield page
    close()
