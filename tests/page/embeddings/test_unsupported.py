"""Bad input case 33 (docs/decisions.md): a browser without what the model's runtime needs
(WebAssembly SIMD, Web Workers) gets Semantic and Hybrid retrieval disabled, with the reason on
the page; the rest works (the Evidence check's BM25 figures among it)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from ..conftest import App

# Runs before the page's scripts: the browser as one without WebAssembly SIMD (the page's
# own runtime, Pyodide, needs no SIMD).
WITHOUT_SIMD = "WebAssembly.validate = () => false;"


def test_without_simd_semantic_and_hybrid_are_disabled_with_the_reason(
    new_app: Callable[..., App],
) -> None:
    app = new_app()
    app.page.add_init_script(script=WITHOUT_SIMD)
    app.open().wait_ready()
    box = app.page.locator("#embedding")
    expect(box).to_have_attribute("data-state", "unsupported")
    expect(box).to_be_visible()
    status = app.page.locator("#embedding-status")
    expect(status).to_contain_text("Semantic and Hybrid retrieval are unavailable")
    expect(status).to_contain_text("WebAssembly SIMD")
    for value in ("dense", "hybrid"):
        choices = app.page.locator(
            f'#retrieval option[value="{value}"], input[name="retrieval"][value="{value}"]'
        )
        for n in range(choices.count()):
            expect(choices.nth(n)).to_be_disabled()
    # the rest works: the sample's questions get their BM25 figures
    expect(app.page.locator("#app")).to_have_attribute("data-evidence", "ready")
    expect(app.page.locator("#evidence-recall")).not_to_have_text("—")
    assert not [url for url in app.requests if "onnxruntime-web-" in url or "/model/" in url]


def test_without_workers_the_model_is_unavailable_with_the_reason(
    new_app: Callable[..., App],
) -> None:
    """PyScript itself needs the Worker class, so a browser without workers never starts
    the page; the client's own check is tested here, with workers taken away after boot."""
    app = new_app()
    app.open().wait_ready()
    reason = app.page.evaluate(
        "() => { delete window.Worker; return chunkInspectorEmbed.support(); }"
    )
    assert "Web Workers" in reason


def test_a_browser_with_it_shows_nothing_until_semantic_is_chosen(
    new_app: Callable[..., App],
) -> None:
    """The planted fault's counterpart: with SIMD and workers the note stays hidden."""
    app = new_app()
    app.open().wait_ready()
    expect(app.page.locator("#embedding")).to_be_hidden()
    assert app.page.evaluate("() => chunkInspectorEmbed.support()") == ""
