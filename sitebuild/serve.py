"""The development server: dist/ as a good static host sends it, with the page's CSP. The
tests and benchmarks serve their builds with it too (port 0 picks a free port).

What it sends (and what any host of dist/ should send; docs/hosting-and-offline.md):
- exact MIME types (application/wasm for the wasm, text/javascript for modules);
- `Cache-Control: public, max-age=31536000, immutable` for everything under static/
  (content-addressed: static/build-<hash>/, static/vendor/<package>-<version>/) and
  `no-cache` for the rest (index.html, sw.js), so a new build is seen at once;
- brotli or gzip, as the request accepts, for compressible types (sitebuild/compress.py),
  from the precompressed copy beside the file when it is not older than the file, else
  compressed on the fly; `Vary: Accept-Encoding` on those.
"""

from __future__ import annotations

import email.utils
import http.server
import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitebuild.compress import (
    BROTLI,
    MIN_SIZE,
    SUFFIX,
    brotli_bytes,
    compressible,
    encodings,
    gzip_bytes,
)
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

IMMUTABLE = "public, max-age=31536000, immutable"


def cache_control(url_path: str, status: int) -> str:
    """Content-addressed files (under static/) may be kept a year without asking again;
    index.html, sw.js and every error response are checked on each use."""
    if status == 200 and url_path.split("?", 1)[0].startswith("/static/"):
        return IMMUTABLE
    return "no-cache"


def accepted(header: str) -> list[str]:
    """The codings an Accept-Encoding header allows (q=0 refuses one)."""
    allowed = []
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if params.strip().replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        allowed.append(name.strip().lower())
    return allowed


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with exact MIME types, no-cache and the page's CSP; quiet by default."""

    extensions_map = MIME_TYPES
    # Keep-alive, as any real static host does; every response carries a Content-Length.
    protocol_version = "HTTP/1.1"
    request_log: RequestLog | None = None
    csp: str | None = CSP  # None only in the privacy tests that observe the page unguarded
    _status = 0
    _vary = False

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", cache_control(self.path, self._status))
        if self._vary:
            self.send_header("Vary", "Accept-Encoding")
        if self.csp is not None:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def _encoded(self, path: Path) -> tuple[str, bytes] | None:
        """(coding, body) for a compressible file the request accepts compressed."""
        if not compressible(path) or path.stat().st_size < MIN_SIZE:
            return None
        self._vary = True
        allowed = accepted(self.headers.get("Accept-Encoding", ""))
        for coding in encodings():
            if coding not in allowed:
                continue
            beside = path.with_name(path.name + SUFFIX[coding])
            if beside.is_file() and beside.stat().st_mtime >= path.stat().st_mtime:
                return coding, beside.read_bytes()
            data = path.read_bytes()
            fast = brotli_bytes(data, 5) if coding == "br" and BROTLI else gzip_bytes(data, 6)
            return coding, fast
        return None

    def send_head(self) -> Any:
        self._vary = False
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        encoded = self._encoded(path) if path.is_file() else None
        if encoded is None:
            return super().send_head()
        coding, body = encoded
        modified = int(path.stat().st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                unchanged = email.utils.parsedate_to_datetime(since).timestamp() >= modified
            except (TypeError, ValueError):
                unchanged = False
            if unchanged:
                self.send_response(304)
                self.end_headers()
                return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(modified))
        self.end_headers()
        return io.BytesIO(body)

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
