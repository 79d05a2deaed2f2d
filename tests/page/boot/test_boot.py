"""The page boots from its own files alone, and says which file failed when one is missing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from chunker_py import Settings
from chunker_py.config.links import settings_to_fragment
from chunker_py.pipeline.analysis import tradeoffs

from ..conftest import SAMPLE

# they provoke console errors on purpose (refused requests, broken files, planted bugs)
pytestmark = pytest.mark.page_errors_expected


def test_page_boots_to_ready_with_every_other_origin_unreachable(new_app) -> None:
    """Offline apart from its own server: every request to any other origin is aborted
    (and recorded), and the page still boots with chunker_py installed."""
    app = new_app()
    elsewhere: list[str] = []

    def refuse(route: Route) -> None:
        elsewhere.append(route.request.url)
        route.abort("internetdisconnected")

    app.page.context.route(lambda url: not url.startswith(app.base_url), refuse)
    app.open().wait_ready()
    import chunker_py

    assert app.page.text_content("#core-version") == f"chunker_py {chunker_py.__version__}"
    assert app.page.is_hidden("#boot-status")
    assert elsewhere == [], "the page tried to reach another origin"
    assert app.console_errors() == []


def test_every_request_goes_to_the_pages_own_origin(app) -> None:
    assert app.requests, "the page made no requests at all"
    assert app.foreign_requests() == []


def test_runtime_comes_from_the_vendored_files_with_no_wheel_at_start_up(app, server, site) -> None:
    # What the page itself fetched (its resource timing), not the server's log: after the
    # first result the service worker stores every file of the build, wheels included.
    served = set(
        app.page.evaluate(
            "() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        )
    )
    assert served <= {request.path for request in server.requests}
    pyodide_dir = "/" + site.vendored.pyodide.rsplit("/", 1)[0]
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json"):
        assert f"{pyodide_dir}/{name}" in served
    # the standard library is the page's own stdlib.zip (what it imports), not the whole one
    assert f"/{site.build}/stdlib.zip" in served
    assert f"{pyodide_dir}/python_stdlib.zip" not in served
    # app.zip (the tokenizers) is fetched too, but only after the first result
    app.page.wait_for_function(
        "() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/app.zip'))"
    )
    first_result, asked = app.page.evaluate(
        "() => [performance.getEntriesByName('ci:app-started')[0].startTime,"
        " performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app.zip'))"
        ".startTime]"
    )
    assert asked >= first_result
    # micropip and the chunker_py wheel stay off the start-up path (the snapshot and
    # app.zip hold the page's Python; lib.zip is only for a boot without the snapshot)
    assert not [p for p in served if p.endswith(".whl")]
    assert f"/{site.build}/lib.zip" not in served


def test_micropip_still_loads_on_demand_from_the_vendored_wheel(new_app) -> None:
    page = new_app().open().wait_ready()
    version = page.python(
        "import pyodide_js\n"
        "await pyodide_js.loadPackage('micropip')\n"
        "import micropip\n"
        "micropip.__version__"
    )
    assert isinstance(version, str) and version
    assert page.foreign_requests() == []


def test_console_shows_no_errors(app) -> None:
    assert app.console_errors() == []


def test_the_pages_own_chart_draws_a_bar_per_size_under_the_policy(app) -> None:
    """The vendored Plotly, loaded by the page itself, draws the Size trade-offs chart of
    the sample under the page's CSP: one bar per comparison size, no violation."""
    expected = tradeoffs(SAMPLE, Settings())
    chart = app.page.get_by_role("img", name="Bar chart: chunk counts at nearby chunk sizes")
    bars = chart.locator(".bars .point")
    expect(bars).to_have_count(len(expected))
    ticks = chart.locator(".xtick text").all_text_contents()
    assert ticks == [f"{t.size:,}" + (" (current)" if t.size == 300 else "") for t in expected]
    # each bar's count, then (once the sample's questions are checked) a line "3/5 ✓" (the
    # excerpts kept whole) beneath it: Plotly draws each line of a label as its own tspan
    counts = chart.locator(".bartext").evaluate_all(
        "(labels) => labels.map((label) => "
        "(label.querySelector('tspan.line') || label).textContent)"
    )
    assert counts == [f"{t.count:,}" for t in expected]
    assert app.violations() == []
    assert app.console_errors() == []


@pytest.mark.parametrize(
    "victim",
    [
        "static/vendor/pyodide-*/pyodide.asm.wasm",
        "static/build-*/app.zip",
        "static/build-*/interpreter.js",
    ],
)
def test_missing_vendored_file_shows_error_naming_it(
    victim: str, copy_site, serve_dir, new_app
) -> None:
    broken = copy_site()
    (missing,) = broken.glob(victim)
    missing.unlink()
    # app.zip (the tokenizers) is needed before the first result only when it counts
    # tokens: a settings link that says so (without one it is fetched after the result)
    tokens = Settings(size_unit="tokens", tokenizer="o200k_base")
    link = settings_to_fragment(tokens) if victim.endswith("app.zip") else ""
    recorded = new_app(serve_dir(broken).url).open(link)
    assert recorded.wait_settled() == "error"
    message = recorded.page.text_content("#boot-status") or ""
    assert missing.relative_to(broken).as_posix() in message
    assert recorded.page.is_visible("#boot-status")
    assert recorded.page.get_attribute("#boot-status", "role") == "alert"


def test_python_exception_at_startup_shows_error_naming_the_script(
    site, copy_site, serve_dir, new_app
) -> None:
    broken = copy_site()
    (broken / site.build / "app" / "main.py").write_text('raise RuntimeError("boom at start")\n')
    recorded = new_app(serve_dir(broken).url).open()
    assert recorded.wait_settled() == "error"
    message = recorded.page.text_content("#boot-status") or ""
    assert f"{site.build}/app/main.py" in message
    assert "RuntimeError: boom at start" in message
