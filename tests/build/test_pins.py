"""Every file the build downloads from PyPI is pinned by sha256 in requirements-build.txt,
in the format pip --require-hashes reads, and a file whose digest differs stops the build."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sitebuild import pypi, tokendata
from sitebuild.npm import pyodide_lock
from sitebuild.pypi import Pin, build_pins, fetch_wheel, parse_pins, pin_for, runtime_requirements


def fake_wheel(folder: Path, name: str, version: str) -> Path:
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", "x = 1\n")
    return path


def test_everything_the_build_fetches_is_pinned_at_the_version_it_asks_for() -> None:
    lock = pyodide_lock()["packages"]
    wanted = [
        *runtime_requirements(),
        ("micropip", lock["micropip"]["version"]),
        tokendata.RANK_PACKAGE,
        tokendata.VOCAB_PACKAGE,
    ]
    for name, version in wanted:
        assert pin_for(name, version).version == version
    assert "flit-core" in build_pins()
    # nothing pinned that the build does not use (a stale pin would go unreviewed)
    used = {pypi.canonical_name(name) for name, _ in wanted} | {"flit-core"}
    assert set(build_pins()) == used


def test_the_pins_file_reads_as_pip_reads_it() -> None:
    pins = parse_pins("a-b==1.0 \\\n    --hash=sha256:" + "0" * 64 + "  # why\n\n# note\n")
    assert pins == {"a-b": Pin("a-b", "1.0", ("0" * 64,))}
    assert pins["a-b"].requirement() == "a-b==1.0 --hash=sha256:" + "0" * 64
    for unpinned in ["a-b>=1.0 --hash=sha256:" + "0" * 64, "a-b==1.0", "a==1 --hash=md5:00"]:
        with pytest.raises(SystemExit, match="must read"):
            parse_pins(unpinned)


def test_a_version_the_file_does_not_pin_fails_the_build() -> None:
    with pytest.raises(SystemExit, match=r"pins 4\.3\.0"):
        pin_for("markdown-it-py", "4.2.0")
    with pytest.raises(SystemExit, match="not pinned"):
        pin_for("left-pad", "1.0")


def test_a_cached_wheel_whose_digest_differs_from_the_pin_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if the registry served another file under the same name and version."""
    wheel = fake_wheel(tmp_path, "mdurl", "0.1.2")
    pinned = Pin("mdurl", "0.1.2", (hashlib.sha256(wheel.read_bytes()).hexdigest(),))
    monkeypatch.setattr(pypi, "build_pins", lambda: {"mdurl": pinned})
    assert fetch_wheel("mdurl", "0.1.2", "3.13", cache=tmp_path) == wheel
    other = tmp_path / "other"
    other.mkdir()
    changed = fake_wheel(other, "mdurl", "0.1.2")
    changed.write_bytes(changed.read_bytes() + b"\0")
    with pytest.raises(SystemExit, match="the package changed"):
        fetch_wheel("mdurl", "0.1.2", "3.13", cache=other)


@pytest.mark.subprocess
def test_pip_itself_refuses_a_wheel_whose_digest_is_not_the_pinned_one(tmp_path: Path) -> None:
    """The pins are what `pip download --require-hashes` checks (offline: the cached wheel)."""
    name, version = runtime_requirements()[-1]
    wheel = fetch_wheel(name, version, f"{sys.version_info[0]}.{sys.version_info[1]}")
    pin = pin_for(name, version)

    def pip_download(requirement: str) -> subprocess.CompletedProcess[str]:
        requirements = tmp_path / "requirements.txt"
        requirements.write_text(requirement + "\n", "utf-8")
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-index"]
        command += ["--disable-pip-version-check", "--find-links", str(wheel.parent)]
        command += ["--require-hashes", "-r", str(requirements), "-d", str(tmp_path / "out")]
        return subprocess.run(command, capture_output=True, text=True)

    assert pip_download(pin.requirement()).returncode == 0
    wrong = Pin(pin.name, pin.version, ("0" * 64,)).requirement()
    refused = pip_download(wrong)
    assert refused.returncode != 0 and "HASHES" in refused.stderr.upper()
