"""The development server behaves like a good static host (docs/hosting-and-offline.md): caching by
content address, gzip and brotli for compressible types, precompressed copies beside the
originals for hosts that serve them. No browser: raw HTTP, bodies decoded here."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from email.message import Message

import brotli
import pytest

IMMUTABLE = "public, max-age=31536000, immutable"


def get(url: str, accept: str | None = None) -> tuple[int, Message, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept} if accept else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def decode(coding: str | None, body: bytes) -> bytes:
    if coding == "gzip":
        return gzip.decompress(body)
    if coding == "br":
        return brotli.decompress(body)
    assert coding is None, coding
    return body


@pytest.mark.parametrize("page", ["", "index.html", "sw.js"])
def test_the_page_and_its_worker_are_revalidated_on_every_use(server, page: str) -> None:
    status, headers, _ = get(server.url + page)
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"


def test_content_addressed_files_are_immutable_errors_are_not(server, site) -> None:
    _, headers, _ = get(f"{server.url}{site.build}/boot.js")
    assert headers["Cache-Control"] == IMMUTABLE
    status, headers, _ = get(f"{server.url}{site.build}/no-such-file.js")
    assert status == 404
    assert headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("accept", ["gzip", "br", "gzip, deflate, br, zstd", "br;q=0, gzip"])
@pytest.mark.parametrize("name", ["index.html", "{build}/boot.js", "{pyodide}/pyodide.asm.wasm"])
def test_compressible_files_are_sent_compressed_as_accepted(server, site, accept, name) -> None:
    name = name.format(build=site.build, pyodide=site.vendored.pyodide.rsplit("/", 1)[0])
    status, headers, body = get(server.url + name, accept)
    assert status == 200
    expected = "br" if "br" in accept and "br;q=0" not in accept else "gzip"
    assert headers["Content-Encoding"] == expected
    assert "Accept-Encoding" in headers["Vary"]
    assert int(headers["Content-Length"]) == len(body)
    original = (site.root / name).read_bytes()
    assert decode(headers["Content-Encoding"], body) == original
    assert len(body) < len(original)


def test_without_accept_encoding_and_for_zips_the_bytes_are_sent_as_they_are(server, site) -> None:
    _, headers, body = get(f"{server.url}{site.build}/boot.js")
    assert headers["Content-Encoding"] is None
    assert body == (site.root / site.build / "boot.js").read_bytes()
    _, headers, body = get(f"{server.url}{site.build}/app.zip", "gzip, br")
    assert headers["Content-Encoding"] is None
    assert body == (site.root / site.build / "app.zip").read_bytes()
    _, headers, body = get(server.url + site.snapshot, "gzip, br")
    assert headers["Content-Encoding"] is None  # already gzip: inflated by snapshot.js
    assert body == (site.root / site.snapshot).read_bytes()
    # its brotli copy too: decoded by snapshot.js, never by the browser
    _, headers, body = get(server.url + site.snapshot_brotli, "gzip, br")
    assert headers["Content-Encoding"] is None
    assert body == (site.root / site.snapshot_brotli).read_bytes()


def test_a_stale_precompressed_copy_is_never_sent(serve_dir, copy_site) -> None:
    """A file changed after the build (as the tests' planted faults do) is compressed
    afresh; the older .gz/.br beside it is not served."""
    root = copy_site()
    script = next((root / "static").glob("build-*/boot.js"))
    changed = script.read_bytes() + b"\n// changed after the build\n"
    script.write_bytes(changed)
    local = serve_dir(root)
    for accept in ("gzip", "br"):
        _, headers, body = get(local.url + script.relative_to(root).as_posix(), accept)
        assert decode(headers["Content-Encoding"], body) == changed


def test_the_build_writes_gzip_and_brotli_copies_beside_compressible_files(site) -> None:
    originals = [p for p in site.root.rglob("*") if p.is_file() and p.suffix not in (".gz", ".br")]
    compressible = {".html", ".js", ".mjs", ".css", ".json", ".wasm"}
    checked = 0
    for path in originals:
        gz, br = path.with_name(path.name + ".gz"), path.with_name(path.name + ".br")
        if path.suffix in compressible and path.stat().st_size >= 4096:
            assert gzip.decompress(gz.read_bytes()) == path.read_bytes(), gz
            assert brotli.decompress(br.read_bytes()) == path.read_bytes(), br
            checked += 1
        if path.suffix in (".zip", ".whl"):
            assert not gz.exists() and not br.exists(), path
    assert checked >= 10
    wasm = next(site.root.rglob("pyodide.asm.wasm"))
    assert (wasm.with_name(wasm.name + ".br")).stat().st_size < wasm.stat().st_size / 3
