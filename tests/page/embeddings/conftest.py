"""A copy of the site serving the stand-in model (stand_in_model.py), on a host that can be
stopped (offline), and the calls into static/embed_client.js the tests make."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from sitebuild.offline import write_offline

from ..boot.test_offline import Host
from ..conftest import App, launch_app
from .stand_in_model import install

# onnxruntime-web's wasm (14 MB) and the model, on a busy machine
LOAD_TIMEOUT_MS = 180_000

# Loads the model through the page's own client; the progress heard, and the result or the
# failure ({file, reason}).
LOAD = """async () => {
  const progress = [];
  try {
    const ready = await chunkInspectorEmbed.load((loaded, total) => progress.push([loaded, total]));
    return { ok: true, ready, progress };
  } catch (error) {
    return { ok: false, error, progress };
  }
}"""

# Embeds id lists; the vectors in the order asked, as plain arrays.
EMBED = """(ids) => new Promise((resolve, reject) => {
  const out = new Array(ids.length);
  chunkInspectorEmbed.embed(
    JSON.stringify(ids),
    (indexes, data) => indexes.forEach((i, row) => {
      out[i] = Array.from(data.subarray(row * 384, (row + 1) * 384));
    }),
    () => resolve(out),
    reject,
  );
})"""


@pytest.fixture
def model_site(copy_site: Callable[[], Path]) -> Callable[..., Path]:
    """A copy of the site with the stand-in model (or the bytes given) and its manifest,
    and the service worker written again for it."""

    def make(model: bytes | None = None) -> Path:
        root = copy_site()
        install(root, model)
        write_offline(root)
        return root

    return make


class RecordingHost(Host):
    """test_offline.py's stoppable host, which also records the paths it was asked for."""

    def __init__(self, root: Path, port: int = 0) -> None:
        self.paths: list[str] = []
        super().__init__(root, port, log=lambda _m, path, _h, _b: self.paths.append(path))


@pytest.fixture
def hosts() -> Iterator[Callable[..., RecordingHost]]:
    started: list[RecordingHost] = []

    def start(root: Path, port: int = 0) -> RecordingHost:
        host = RecordingHost(root, port)
        started.append(host)
        return host

    yield start
    for host in started:
        host.stop()


@pytest.fixture
def apps(browser: Browser) -> Iterator[Callable[..., App]]:
    opened: list[App] = []

    def open_app(url: str, **options: Any) -> App:
        app = launch_app(browser, url, **options)
        opened.append(app)
        return app

    yield open_app
    for app in opened:
        app.page.context.close()


def load_model(app: App) -> dict[str, Any]:
    result: dict[str, Any] = app.page.evaluate(LOAD)
    return result


def embed(app: App, ids: list[list[int]]) -> list[list[float]]:
    vectors: list[list[float]] = app.page.evaluate(EMBED, ids)
    return vectors
