"""Where things are: the repository's folders and files that the build, the tests and the
benchmarks share. Every other module takes its paths from here."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PACKAGE = ROOT / "chunker_py"  # the core, bundled into the page and built into the wheel
APP = ROOT / "app"  # the page's Python (PyScript); app/main.py is the script it runs
STATIC = ROOT / "static"  # the page's own static files (static/vendor/ is generated)
INDEX_TEMPLATE = ROOT / "index.html"
PYPROJECT = ROOT / "pyproject.toml"
PACKAGE_LOCK = ROOT / "package-lock.json"
# Every file the build downloads from PyPI, pinned by version and sha256 (pip's
# --require-hashes format); see sitebuild/pypi.py.
BUILD_REQUIREMENTS = ROOT / "requirements-build.txt"
TEST_REQUIREMENTS = ROOT / "requirements-test.txt"

DIST = ROOT / "dist"  # what `python build.py` writes: the static site
CACHE = ROOT / ".cache"  # downloads and the snapshots made, kept between builds
NODE_MODULES = ROOT / "node_modules"

# The tokenizers' data (chunker_py's tokenizers read it), written by the build from the
# pinned registry packages; not in git. Its stamp lives in .cache so the data folder holds
# only what the package ships.
TOKEN_DATA = PACKAGE / "_data"
TOKEN_DATA_STAMP = CACHE / "token-data.json"
# The tests' reference tokenizer (all-MiniLM-L6-v2's tokenizer.json), never packaged.
TOKEN_REFERENCE = CACHE / "token-reference"

# Debian's chromium, driven by Playwright from PyPI in the tests and benchmarks (never a
# downloaded browser). Without the networking flags it keeps calling hosts it cannot reach.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
