"""Offline use: the service worker dist/sw.js and the list of files it keeps.

The worker (static/sw.js, filled in here) caches exactly the files the build wrote, under
one cache named by the build's offline id, and serves them when the network is gone; a
new build writes a new sw.js (its manifest and id differ), which the browser installs
and which then drops the previous build's cache. The id is a hash of every file of the
site with index.html's own ``data-offline-id`` left empty, so the page knows which build
it is and can tell whether the active worker holds it (static/offline.js).

The embedding model and its runtime (static/model/, static/vendor/onnxruntime-web-*/) are
kept *on demand*: never downloaded at install, so a first visit costs none of their bytes;
the page downloads and checks them when Semantic or Hybrid retrieval is first chosen
(static/embed_client.js), stores them in the build's cache, and the worker serves them from
there from then on (offline too). The manifest gives their SHA-256, by which a later build
carries over the copies the previous one stored.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path

from sitebuild.paths import STATIC

WORKER = "sw.js"  # at the site's root, so its scope is the whole site
WORKER_TEMPLATE = STATIC / WORKER
CACHE_PREFIX = "chunk-inspector-"
# Precompressed copies (sitebuild/compress.py) are for hosts, never for the worker.
PRECOMPRESSED = (".gz", ".br")
_ID_SLOT = re.compile(rb'data-offline-id="[^"]*"')
# The snapshot's brotli copy (sitebuild/snapshot.py) is for first visits: keeping it too
# would download 4.8 MB more for the copy the worker already keeps.
SNAPSHOT_BROTLI = re.compile(r"(^|/)snapshot-[^/]*\.bin\.br$")
# The embedding model (sitebuild/model.py, 45 MB) and its runtime (onnxruntime-web's module
# and wasm): fetched only when Semantic or Hybrid retrieval is first chosen
# (static/embed_client.js).
ON_DEMAND = re.compile(r"^static/(model/|vendor/onnxruntime-web-[^/]+/)")


def on_demand(name: str) -> bool:
    """Whether the page downloads this file only when it needs it (the worker keeps it
    once the page has checked and stored it, never at install)."""
    return ON_DEMAND.match(name) is not None


def site_files(root: Path) -> list[str]:
    """Every file of the site the worker keeps, relative to the root, sorted: all but the
    worker itself and the precompressed copies beside the originals (the files kept on
    demand among them: ``write_offline`` lists those apart)."""
    names = []
    for path in root.rglob("*"):
        name = path.relative_to(root).as_posix()
        if not path.is_file() or name == WORKER:
            continue
        if name.endswith(PRECOMPRESSED) and path.with_suffix("").is_file():
            continue  # x.js.gz beside x.js (the snapshot's own .bin.gz has no original)
        if SNAPSHOT_BROTLI.search(name):
            continue  # the worker keeps the snapshot from its .bin.gz, inflated (static/sw.js)
        names.append(name)
    return sorted(names)


def offline_id(root: Path, names: list[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        data = (root / name).read_bytes()
        if name == "index.html":
            data = _ID_SLOT.sub(b'data-offline-id=""', data)
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).hexdigest().encode() + b"\n")
    return digest.hexdigest()[:16]


def worker_script(template: bytes, manifest: Mapping[str, object]) -> bytes:
    marker = b"/* build.py fills this in */ {}"
    if template.count(marker) != 1:
        raise SystemExit(f"static/{WORKER}: expected one '/* build.py fills this in */ {{}}'")
    return template.replace(marker, json.dumps(manifest, sort_keys=True).encode())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_offline(root: Path) -> str:
    """Write root/sw.js for the site in `root` and put the offline id into its index.html
    (``data-offline-id="…"``); return the id. Run after every other file is written."""
    index = root / "index.html"
    page = index.read_bytes()
    if len(_ID_SLOT.findall(page)) != 1:
        raise SystemExit('index.html: expected one data-offline-id="" (static/offline.js)')
    names = site_files(root)
    build_id = offline_id(root, names)
    index.write_bytes(_ID_SLOT.sub(f'data-offline-id="{build_id}"'.encode(), page))
    manifest = {
        "id": build_id,
        "cache": CACHE_PREFIX + build_id,
        "files": [name for name in names if not on_demand(name)],
        "on_demand": {name: sha256_of(root / name) for name in names if on_demand(name)},
    }
    (root / WORKER).write_bytes(worker_script(WORKER_TEMPLATE.read_bytes(), manifest))
    return build_id
