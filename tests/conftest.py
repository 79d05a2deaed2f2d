"""The built site and in-process servers, shared by tests/build and the browser tests.

    site       the static site, built once per session into a temporary folder
    serve_dir  serve any folder in-process (port 0), with a thread-safe request log;
               `serve_dir(root, csp=None)` serves it without the policy header
    server     the built site, served with its Content-Security-Policy
    copy_site  a fresh copy of the built site, to break on purpose

The build itself is imported only when a fixture runs: the core tests (which also run
inside Pyodide) load this file too and need none of it.
"""

from __future__ import annotations

import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sitebuild.policy import CSP

if TYPE_CHECKING:
    from sitebuild.site import Site


# A test module (or a test package, in its __init__.py) that needs CPython says so with
# this line; inside Pyodide it is not even imported (its references may not exist there),
# and tests/pyodide/run.py also deselects the marker.
CPYTHON_ONLY = "pytestmark = pytest.mark.cpython_only"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if sys.platform != "emscripten":
        return None
    marked = collection_path / "__init__.py" if collection_path.is_dir() else collection_path
    if marked.suffix == ".py" and marked.is_file() and CPYTHON_ONLY in marked.read_text("utf-8"):
        return True
    return None


@contextmanager
def tokenizers_kept() -> Iterator[None]:
    """Tokenizers added meanwhile (a loaded tokenizer.json) are gone afterwards: the
    registry is process-wide."""
    from chunker_py import tokenizers as registry

    live = (registry.TOKENIZERS, registry._CACHE, registry._FILES)
    saved = [dict(table) for table in live]
    try:
        yield
    finally:
        for table, copy in zip(live, saved, strict=True):
            table.clear()
            table.update(copy)


@pytest.fixture(autouse=True)
def _embedder_is_left_as_found() -> Iterator[None]:
    """The installed embedder is process-wide: a test (or a command line run in-process)
    that leaves another one behind would change what later tests compute."""
    from chunker_py.embedding.supply import current_embedder, use_embedder

    before = current_embedder()
    yield
    after = use_embedder(before)
    if after is not before:
        pytest.fail(f"the test left {after!r} installed as the embedder")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Server:
    """A running static server and what it was asked for."""

    url: str  # "http://127.0.0.1:PORT/" (or the `host` it was started on)
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
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The site, built once, away from ./dist so a running `build.py serve` is untouched."""
    from sitebuild.site import build

    return build(tmp_path_factory.mktemp("site") / "dist")


@pytest.fixture(scope="session")
def serve_dir() -> Iterator[Callable[..., Server]]:
    """Serve any folder in-process; every server started is stopped at session end."""
    from sitebuild.serve import make_server

    running = []

    def start(root: Path, *, csp: str | None = CSP, host: str = "127.0.0.1") -> Server:
        server = Server(url="", root=root)
        httpd = make_server(root, 0, log=server.record, host=host, csp=csp)
        server.url = f"http://{host}:{httpd.server_address[1]}/"
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        running.append(httpd)
        return server

    yield start
    for httpd in running:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def server(site: Site, serve_dir: Callable[..., Server]) -> Server:
    return serve_dir(site.root)


@pytest.fixture(scope="session")
def copy_site(site: Site, tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """A fresh copy of the built site, to break on purpose."""

    def copy() -> Path:
        target = tmp_path_factory.mktemp("site-copy") / "dist"
        shutil.copytree(site.root, target)
        return target

    return copy
