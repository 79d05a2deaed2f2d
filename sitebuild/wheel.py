"""The chunker_py wheel, built by its declared build backend (flit_core, from
pyproject.toml's [build-system]) through the PEP 517 hook pip would call: METADATA with
Requires-Dist for every runtime dependency, the console script, and chunker_py/_data/
(the token data, written by the build before). flit_core comes as a pinned, hash-checked
wheel that the build imports from the zip; nothing is installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from sitebuild.paths import BUILD_REQUIREMENTS, PYPROJECT, ROOT
from sitebuild.pypi import build_pins, canonical_name, fetch_wheel

# 1980-01-01, the earliest date a zip holds: every member gets it, so the same sources give
# the same wheel bytes (and the site's content hash stays put).
SOURCE_DATE_EPOCH = "315532800"

# Runs in a fresh interpreter with flit_core's wheel on sys.path and the repository as its
# working directory, as a PEP 517 frontend does; prints the wheel's file name.
HOOK = "import sys; from flit_core import buildapi; print(buildapi.build_wheel(sys.argv[1]))"


def satisfies(version: str, specifiers: str) -> bool:
    """Whether a release number meets comma-separated ``>=``/``<``/``==``-style bounds."""
    operators = {
        ">=": tuple.__ge__, "<=": tuple.__le__, ">": tuple.__gt__, "<": tuple.__lt__,
        "==": tuple.__eq__, "!=": tuple.__ne__,
    }  # fmt: skip
    release = tuple(int(part) for part in version.split("."))
    for specifier in filter(None, (s.strip() for s in specifiers.split(","))):
        operator = re.match(r"[<>=!]=?", specifier)
        if operator is None or operator.group() not in operators:
            raise SystemExit(f"pyproject.toml: cannot read the build requirement {specifier!r}")
        bound = tuple(int(part) for part in specifier[operator.end() :].strip().split("."))
        if not operators[operator.group()](release, bound):
            return False
    return True


def backend_wheel() -> Path:
    """flit_core's wheel at the version requirements-build.txt pins, which must satisfy
    pyproject.toml's [build-system]."""
    system = tomllib.loads(PYPROJECT.read_text("utf-8"))["build-system"]
    named = [re.fullmatch(r"\s*([A-Za-z0-9._-]+)\s*(.*)", r) for r in system["requires"]]
    bounds = [m.group(2) for m in named if m and canonical_name(m.group(1)) == "flit-core"]
    if system["build-backend"] != "flit_core.buildapi" or len(bounds) != 1:
        raise SystemExit("pyproject.toml: the build backend must be flit_core.buildapi")
    pin = build_pins().get("flit-core")
    if pin is None:
        raise SystemExit(f"{BUILD_REQUIREMENTS.name}: pin flit_core (the build backend)")
    if not satisfies(pin.version, bounds[0]):
        raise SystemExit(f"pyproject.toml wants flit_core{bounds[0]}; {pin.version} is pinned")
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return fetch_wheel("flit_core", pin.version, python)


def build_wheel() -> tuple[str, bytes]:
    """The py3-none-any wheel of chunker_py: its file name and bytes, byte-reproducible."""
    backend = backend_wheel()
    env = {**os.environ, "PYTHONPATH": str(backend), "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [sys.executable, "-c", HOOK, out],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"flit_core could not build the wheel:\n{done.stderr[-4000:]}")
        name = done.stdout.strip().splitlines()[-1]
        return name, (Path(out) / name).read_bytes()
