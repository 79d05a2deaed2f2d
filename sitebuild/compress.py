"""Compression as a good static host does it: which files are worth compressing, gzip and
brotli bodies, and the precompressed copies (x.js.gz, x.js.br) the build writes beside the
originals for hosts that serve them (nginx gzip_static/brotli_static, Caddy precompressed,
Netlify and the like compress on their own).

Brotli needs the `brotli` package (requirements-test.txt installs it; `pip install
brotli`); without it the build writes only .gz files and the server sends only gzip.
Compressed copies are kept in .cache/compressed/ by content hash: brotli at quality 11
takes seconds for the 9.6 MB wasm, so only a changed file is compressed again.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
from types import ModuleType

from sitebuild.paths import CACHE
from sitebuild.shell import log

# Text and wasm compress well; zips, wheels, images and the .bin.gz snapshot do not.
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt", ".py", ".md")
MIN_SIZE = 1024  # below this a compressed body saves nothing worth a header
COMPRESSED_CACHE = CACHE / "compressed"


def _brotli() -> ModuleType | None:
    try:
        import brotli  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    return brotli  # type: ignore[no-any-return]


BROTLI = _brotli()


def compressible(path: Path) -> bool:
    return path.suffix in COMPRESSIBLE


def gzip_bytes(data: bytes, level: int = 9) -> bytes:
    return gzip.compress(data, compresslevel=level, mtime=0)  # mtime=0: reproducible


def brotli_bytes(data: bytes, quality: int = 11, lgwin: int = 22) -> bytes:
    assert BROTLI is not None
    return bytes(BROTLI.compress(data, quality=quality, lgwin=lgwin))


def encodings() -> list[str]:
    """The content codings this build writes and the server sends, best first."""
    return (["br"] if BROTLI is not None else []) + ["gzip"]


def _cached(data: bytes, coding: str) -> bytes:
    key = COMPRESSED_CACHE / f"{hashlib.sha256(data).hexdigest()}.{coding}"
    if key.is_file():
        return key.read_bytes()
    body = brotli_bytes(data) if coding == "br" else gzip_bytes(data)
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_bytes(body)
    return body


SUFFIX = {"br": ".br", "gzip": ".gz"}


def precompress(root: Path) -> int:
    """Write x.br and x.gz beside every compressible file under `root` that they make
    smaller; return how many copies were written."""
    if BROTLI is None:
        log("brotli is not installed (pip install brotli): writing .gz copies only")
    written = 0
    for path in sorted(root.rglob("*")):
        if not path.is_file() or not compressible(path) or path.stat().st_size < MIN_SIZE:
            continue
        data = path.read_bytes()
        for coding in encodings():
            body = _cached(data, coding)
            if len(body) < len(data):
                path.with_name(path.name + SUFFIX[coding]).write_bytes(body)
                written += 1
    return written
