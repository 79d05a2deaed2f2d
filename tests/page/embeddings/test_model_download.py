"""The embedding model's download in the page (static/embed_client.js, embed_worker.js): never
on a first visit, from the page's own origin only, with progress in bytes, checked (length
and SHA-256) before it is used or kept, kept for offline use once loaded, and the vectors
the worker makes are the model's (batched and padded, the same as one text at a time).

These tests serve a small stand-in model with the real one's contract (stand_in_model.py),
so they test the plumbing, not the model; test_semantic_figures.py tests the real one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ..boot.test_offline import wait_saved
from ..conftest import BOOT_TIMEOUT_MS, CACHED, App
from .conftest import LOAD_TIMEOUT_MS, embed, load_model
from .conftest import RecordingHost as Host
from .stand_in_model import MODEL_FILE, reference, stand_in_model

ON_DEMAND = ("static/model/", "/onnxruntime-web-")


def own(host: Host, url: str) -> bool:
    """A request of the page's own origin (data: URLs and its blob: URLs never leave it)."""
    return url.startswith((host.url, "data:", f"blob:{host.url}"))


def on_demand_requests(app: App) -> list[str]:
    return [url for url in app.requests if any(part in url for part in ON_DEMAND)]


def test_a_first_visit_neither_downloads_nor_precaches_the_model_or_its_runtime(
    apps: Callable[..., App], hosts: Callable[..., Host], model_site: Callable[..., Path]
) -> None:
    host = hosts(model_site())
    app = apps(host.url)
    app.open().wait_ready()
    wait_saved(app)  # the service worker has stored the build
    assert on_demand_requests(app) == []
    served = [path for path in host.paths if any(part in path for part in ON_DEMAND)]
    assert served == []  # nor did the service worker's install ask for them
    cached = [url for urls in app.page.evaluate(CACHED).values() for url in urls]
    assert not [url for url in cached if any(part in url for part in ON_DEMAND)]


def test_the_model_comes_from_the_page_origin_only_with_progress_in_bytes(
    apps: Callable[..., App], hosts: Callable[..., Host], model_site: Callable[..., Path]
) -> None:
    host = hosts(model_site())
    app = apps(host.url)
    app.page.context.set_default_timeout(LOAD_TIMEOUT_MS)
    off_origin: list[str] = []
    app.page.context.on("request", lambda r: None if own(host, r.url) else off_origin.append(r.url))
    app.open().wait_ready()
    loaded = load_model(app)
    assert loaded["ok"], loaded
    asked = on_demand_requests(app)
    assert any(url.endswith(f"static/model/{MODEL_FILE}") for url in asked), asked
    assert any(url.endswith(".wasm") and "onnxruntime-web-" in url for url in asked), asked
    assert [url for url in app.requests if not own(host, url)] == []
    assert off_origin == []
    progress = loaded["progress"]
    assert progress, "no progress was reported"
    totals = {total for _loaded, total in progress}
    runtime = sum(
        p.stat().st_size
        for p in (host.root / "static" / "vendor").glob("onnxruntime-web-*/*")
        if p.suffix in (".mjs", ".wasm")
    )
    model = (host.root / "static" / "model" / MODEL_FILE).stat().st_size
    assert totals == {runtime + model}
    assert [done for done, _total in progress] == sorted(done for done, _total in progress)
    assert progress[-1][0] == runtime + model
    assert loaded["ready"]["bytes"] == runtime + model


def test_the_vectors_are_the_models_one_text_at_a_time_or_batched_and_padded(
    apps: Callable[..., App], hosts: Callable[..., Host], model_site: Callable[..., Path]
) -> None:
    host = hosts(model_site())
    app = apps(host.url)
    app.page.context.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    assert load_model(app)["ok"]
    rng = np.random.default_rng(7)
    ids = [[101, *rng.integers(999, 30000, n).tolist(), 102] for n in (0, 3, 40, 254, 9, 3)]
    vectors = embed(app, ids)
    for asked, got in zip(ids, vectors, strict=True):
        assert np.abs(np.array(got, dtype=np.float32) - reference(asked)).max() < 1e-5


@pytest.mark.page_errors_expected  # the damaged download is logged as a warning, not an error
@pytest.mark.parametrize("damage", ["flipped", "truncated", "longer", "missing"])
def test_a_damaged_model_is_refused_never_kept_and_a_retry_starts_clean(
    damage: str,
    apps: Callable[..., App],
    hosts: Callable[..., Host],
    model_site: Callable[..., Path],
) -> None:
    """Bad input case 32 (docs/decisions.md): a download that is damaged (a byte changed, cut
    short, too long) or refused (HTTP 404) is named with what went wrong; nothing of it is
    cached; once the file is right again, a retry in the same page loads it."""
    root = model_site()
    model = root / "static" / "model" / MODEL_FILE
    good = model.read_bytes()
    bad = {
        "flipped": good[:1000] + bytes([good[1000] ^ 1]) + good[1001:],
        "truncated": good[: len(good) // 2],
        "longer": good + b"\0",
        "missing": None,
    }[damage]
    if bad is None:
        model.unlink()
    else:
        model.write_bytes(bad)
    host = hosts(root)
    app = apps(host.url)
    app.page.context.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    failed = load_model(app)
    assert not failed["ok"]
    assert failed["error"]["file"] == MODEL_FILE
    expected = {
        "flipped": "SHA-256 differs",
        "truncated": "bytes arrived",
        "longer": "longer than",
        "missing": "HTTP 404",
    }[damage]
    assert expected in failed["error"]["reason"], failed["error"]
    cached = [url for urls in app.page.evaluate(CACHED).values() for url in urls]
    assert not [url for url in cached if url.endswith(MODEL_FILE)], cached

    model.write_bytes(good)
    again = load_model(app)
    assert again["ok"], again
    assert not again["ready"]["fromCache"]
    assert embed(app, [[101, 2023, 102]])


def test_once_loaded_the_model_works_offline(
    apps: Callable[..., App], hosts: Callable[..., Host], model_site: Callable[..., Path]
) -> None:
    host = hosts(model_site())
    app = apps(host.url)
    app.page.context.set_default_timeout(LOAD_TIMEOUT_MS)
    app.open().wait_ready()
    wait_saved(app)
    assert load_model(app)["ok"]
    online = embed(app, [[101, 2023, 2003, 102]])

    host.stop()
    app.page.reload()
    app.wait_ready(BOOT_TIMEOUT_MS)
    assert app.page.evaluate("() => !!navigator.serviceWorker.controller")
    offline = load_model(app)
    assert offline["ok"], offline
    assert offline["ready"]["fromCache"]
    assert embed(app, [[101, 2023, 2003, 102]]) == online


def test_the_stand_in_is_what_the_manifest_says(model_site: Callable[..., Path]) -> None:
    """The fixture itself: the manifest names the file written, its size and SHA-256."""
    root = model_site()
    manifest = json.loads((root / "static" / "model" / "manifest.json").read_text("utf-8"))
    (entry,) = manifest["files"]
    assert (
        entry["bytes"]
        == len(stand_in_model())
        == (root / "static/model" / MODEL_FILE).stat().st_size
    )
