"""The npm runtime (Pyodide, @pyscript/core, Plotly), installed by ``npm ci`` from
package-lock.json, whose integrity hashes npm checks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from sitebuild.paths import NODE_MODULES, PACKAGE_LOCK, ROOT
from sitebuild.shell import log


def locked_npm_versions(lock_path: Path = PACKAGE_LOCK) -> dict[str, str]:
    """Map each package path in package-lock.json (node_modules/...) to its version."""
    packages = json.loads(lock_path.read_text("utf-8"))["packages"]
    return {path: entry["version"] for path, entry in packages.items() if path}


def node_modules_is_current() -> bool:
    """True when every package of the lock is installed at the locked version."""
    for path, version in locked_npm_versions().items():
        manifest = ROOT / path / "package.json"
        if not manifest.is_file():
            return False
        if json.loads(manifest.read_text("utf-8")).get("version") != version:
            return False
    return True


def ensure_node_modules() -> None:
    if NODE_MODULES.is_dir() and node_modules_is_current():
        return
    log("node_modules is missing or differs from package-lock.json: running npm ci")
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT, check=True
    )


def npm_package(name: str) -> tuple[Path, str]:
    """The installed folder and version of a direct dependency, checked against the lock."""
    folder = NODE_MODULES / name
    version = json.loads((folder / "package.json").read_text("utf-8"))["version"]
    locked = locked_npm_versions()[f"node_modules/{name}"]
    if version != locked:
        raise SystemExit(f"{name} {version} is installed but the lock pins {locked}")
    return folder, version


def pyodide_lock() -> dict[str, Any]:
    """The vendored Pyodide's pyodide-lock.json (its packages and its Python)."""
    source, _version = npm_package("pyodide")
    lock: dict[str, Any] = json.loads((source / "pyodide-lock.json").read_text("utf-8"))
    return lock


def pyodide_python_version() -> str:
    """The Python version (major.minor) of the vendored Pyodide."""
    return ".".join(pyodide_lock()["info"]["python"].split(".")[:2])
