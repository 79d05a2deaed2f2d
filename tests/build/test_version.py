"""The version is written once, as ``chunker_py.__version__``: pyproject.toml declares it
dynamic (flit_core reads it from the package) and the page's package.json and its lock
carry the same string."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import chunker_py

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_reads_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]


def test_package_json_and_its_lock_carry_the_packages_version() -> None:
    package = json.loads((ROOT / "package.json").read_text("utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text("utf-8"))
    versions = {package["version"], lock["version"], lock["packages"][""]["version"]}
    assert versions == {chunker_py.__version__}
