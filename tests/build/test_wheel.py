"""The chunker_py wheel: built by flit_core, reproducible, declaring its dependencies and
carrying the token data, and working when pip installs it into a fresh virtual
environment (offline: the dependencies' pinned wheels from .cache/)."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import chunker_py
from sitebuild.paths import PYPROJECT, ROOT, TOKEN_DATA
from sitebuild.pypi import fetch_wheel, runtime_requirements
from sitebuild.wheel import build_wheel, satisfies

SAMPLE = ROOT / "static" / "sample.txt"


@pytest.fixture(scope="module")
def wheel() -> tuple[str, bytes]:
    return build_wheel()


def metadata(wheel_bytes: bytes) -> dict[str, list[str]]:
    """The METADATA headers of a wheel, each name with all its values."""
    with zipfile.ZipFile(io.BytesIO(wheel_bytes)) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(name).decode("utf-8"))
    headers: dict[str, list[str]] = {}
    for key, value in message.items():
        headers.setdefault(key, []).append(value)
    return headers


def test_chunker_py_wheel_record_matches_its_contents(site) -> None:
    with zipfile.ZipFile(site.root / site.wheel) as wheel:
        record_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(wheel.read(record_name).decode())))
        assert {row[0] for row in rows} == set(wheel.namelist())
        for name, digest, size in rows:
            if name == record_name:
                continue
            data = wheel.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode()
            assert int(size) == len(data)


def test_wheel_is_reproducible_so_the_build_hash_is_stable(wheel) -> None:
    assert build_wheel() == wheel


def test_the_site_publishes_the_wheel_flit_core_builds(site, wheel) -> None:
    name, data = wheel
    assert site.wheel.endswith(f"/wheels/{name}")
    assert (site.root / site.wheel).read_bytes() == data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        generator = archive.read(name.split("-py3")[0] + ".dist-info/WHEEL").decode()
    assert "Generator: flit " in generator


def test_wheel_declares_every_runtime_dependency_of_pyproject(wheel) -> None:
    """Without Requires-Dist, pip would install a chunker_py without markdown-it-py."""
    headers = metadata(wheel[1])
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    required = [r for r in headers["Requires-Dist"] if "extra ==" not in r]
    assert sorted(required) == sorted(project["dependencies"])
    optional = [r.split(";")[0].strip() for r in headers["Requires-Dist"] if "extra ==" in r]
    assert sorted(optional) == sorted(r for group in extras.values() for r in group)
    assert sorted(headers.get("Provides-Extra", [])) == sorted(extras)
    assert headers["Name"] == [project["name"]] and headers["Version"] == [chunker_py.__version__]
    assert headers["License-Expression"] == ["MIT"]
    assert headers["Requires-Python"] == [project["requires-python"]]


def test_wheel_carries_the_token_data_and_every_module(wheel) -> None:
    with zipfile.ZipFile(io.BytesIO(wheel[1])) as archive:
        names = set(archive.namelist())
        data = {n: archive.read(n) for n in names if n.startswith("chunker_py/_data/")}
    on_disk = {
        path.relative_to(ROOT).as_posix(): path.read_bytes()
        for path in TOKEN_DATA.iterdir()
        if path.is_file()
    }
    assert data == on_disk and any(name.endswith(".ranks") for name in data)
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "chunker_py").rglob("*.py")}
    assert modules <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.mark.parametrize(
    ("version", "bounds", "expected"),
    [
        ("3.12.0", ">=3.12,<4", True),
        ("3.11.9", ">=3.12,<4", False),
        ("4.0", ">=3.12,<4", False),
        ("3.12.0", "==3.12.0", True),
        ("3.12.1", "", True),
    ],
)
def test_the_pinned_backend_must_satisfy_build_system_requires(
    version: str, bounds: str, expected: bool
) -> None:
    assert satisfies(version, bounds) is expected


@pytest.mark.subprocess
def test_wheel_installs_into_a_fresh_venv_and_its_cli_splits_like_the_repository(
    wheel, tmp_path: Path
) -> None:
    """pip resolves the declared dependencies from the pinned wheels alone (--no-index),
    and the installed CLI (module and console script) prints what the repository's prints."""
    name, data = wheel
    links = tmp_path / "wheels"
    links.mkdir()
    (links / name).write_bytes(data)
    for dependency, version in runtime_requirements():
        source = fetch_wheel(dependency, version, f"{sys.version_info[0]}.{sys.version_info[1]}")
        (links / source.name).write_bytes(source.read_bytes())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    install += ["--no-index", "--find-links", str(links), "--disable-pip-version-check"]
    subprocess.run([*install, "chunker_py"], check=True, cwd=tmp_path)

    document = tmp_path / "notes.md"
    document.write_bytes(SAMPLE.read_bytes())
    args = [str(document), "--mode", "markdown", "--size", "200", "--tokenizer", "o200k_base"]
    installed = subprocess.run(
        [str(python), "-m", "chunker_py", *args], cwd=tmp_path, capture_output=True, check=True
    )
    script = subprocess.run(
        [str(venv / "bin" / "chunker-py"), *args], cwd=tmp_path, capture_output=True, check=True
    )
    here = subprocess.run(
        [sys.executable, "-m", "chunker_py", *args], cwd=ROOT, capture_output=True, check=True
    )
    assert installed.stdout == here.stdout == script.stdout
    assert installed.stdout.count(b'"tokens":') > 1  # counted with the packaged rank file
    where = subprocess.run(
        [str(python), "-c", "import chunker_py, markdown_it; print(chunker_py.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(venv)  # not the repository's copy
