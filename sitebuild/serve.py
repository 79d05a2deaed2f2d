"""The development server: dist/ with exact MIME types, no-cache and the page's CSP. The
tests and benchmarks serve their builds with it too (port 0 picks a free port)."""

from __future__ import annotations

import http.server
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitebuild.paths import DIST
from sitebuild.policy import CSP
from sitebuild.shell import log
from sitebuild.site import build

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    "": "application/octet-stream",
}

RequestLog = Callable[[str, str, dict[str, str], bytes], None]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with exact MIME types, no-cache and the page's CSP; quiet by default."""

    extensions_map = MIME_TYPES
    # Keep-alive, as any real static host does; every response carries a Content-Length.
    protocol_version = "HTTP/1.1"
    request_log: RequestLog | None = None
    csp: str | None = CSP  # None only in the privacy tests that observe the page unguarded

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        if self.csp is not None:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def _record(self, body: bytes = b"") -> None:
        if self.request_log is not None:
            self.request_log(self.command, self.path, dict(self.headers.items()), body)

    def do_GET(self) -> None:
        self._record()
        super().do_GET()

    def do_HEAD(self) -> None:
        self._record()
        super().do_HEAD()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._record(self.rfile.read(length) if length else b"")
        self.send_error(405, "This is a static site")

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("BUILD_PY_VERBOSE"):
            super().log_message(format, *args)


def make_server(
    root: Path = DIST,
    port: int = 8000,
    log: RequestLog | None = None,
    host: str = "127.0.0.1",
    csp: str | None = CSP,
) -> http.server.ThreadingHTTPServer:
    """A threaded server for `root`; port 0 picks a free one (see server.server_address).
    ``csp=None`` sends no policy header (index.html still carries its <meta> policy)."""
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {"request_log": staticmethod(log) if log else None, "csp": csp},
    )

    def factory(*args: Any, **kwargs: Any) -> SiteHandler:
        bound: SiteHandler = handler(*args, directory=str(root), **kwargs)
        return bound

    server = http.server.ThreadingHTTPServer((host, port), factory)
    server.daemon_threads = True
    return server


def serve(port: int) -> None:
    build()
    server = make_server(DIST, port)
    host, real_port = server.server_address[:2]
    log(f"serving dist/ at http://{host!s}:{real_port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
