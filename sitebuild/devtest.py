"""`python build.py test`: install the test tools, build, lint, run pytest."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from sitebuild.paths import CHROMIUM, NODE_MODULES, ROOT, TEST_REQUIREMENTS
from sitebuild.shell import log, run
from sitebuild.site import build

# What ruff checks and formats; mypy reads its own list (pyproject.toml [tool.mypy]).
LINTED = ["chunker_py", "app", "build.py", "sitebuild", "tests", "bench", "tools"]
# The JavaScript programs that are not bundled by anyone: node --check parses each.
NODE_PROGRAMS = ["sitebuild", "static", "bench", "tests/pyodide"]


def install_test_tools() -> None:
    run([sys.executable, "-m", "pip", "install", "--quiet", "-r", str(TEST_REQUIREMENTS)])
    missing = [] if Path(CHROMIUM).exists() else ["chromium"]
    if shutil.which("npm") is None:
        missing.append("npm")  # build() runs npm ci
    if missing:
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", *missing])


def python_files(paths: Iterable[str]) -> list[str]:
    """Those of `paths` that exist and hold Python."""
    present = []
    for name in paths:
        path = ROOT / name
        if path.is_file() or (path.is_dir() and any(path.rglob("*.py"))):
            present.append(name)
    return present


def node_programs(folders: Iterable[str]) -> list[str]:
    """Our own .js and .mjs files in `folders`, relative to the root."""
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".js", ".mjs") and "vendor" not in path.relative_to(ROOT).parts:
                found.append(path.relative_to(ROOT).as_posix())
    return found


def lint() -> list[str]:
    """Run ruff (lint and format check), mypy, lint-imports, node --check and ESLint;
    return the names of those that failed (output stays visible)."""
    failed = []
    targets = python_files(LINTED)
    if run([sys.executable, "-m", "ruff", "check", *targets], check=False):
        failed.append("ruff check")
    if run([sys.executable, "-m", "ruff", "format", "--check", *targets], check=False):
        failed.append("ruff format --check (run `python -m ruff format` to fix)")
    if run([sys.executable, "-m", "mypy"], check=False):
        failed.append("mypy")
    # chunker_py's layers (pyproject.toml [tool.importlinter]); the script sits beside python
    if run([str(Path(sys.executable).with_name("lint-imports"))], check=False):
        failed.append("lint-imports (chunker_py's layers, pyproject.toml)")
    broken = [p for p in node_programs(NODE_PROGRAMS) if run(["node", "--check", p], check=False)]
    if broken:
        failed.append("node --check " + " ".join(broken))
    # ESLint from node_modules (package-lock.json), its rules in eslint.config.mjs
    if run(
        [str(NODE_MODULES / ".bin" / "eslint"), *NODE_PROGRAMS, "eslint.config.mjs"], check=False
    ):
        failed.append("eslint (eslint.config.mjs)")
    return failed


def test(pytest_args: list[str]) -> int:
    install_test_tools()
    build()
    failed = lint()
    code = run([sys.executable, "-m", "pytest", *pytest_args], check=False)
    if failed:
        log("FAILED: " + ", ".join(failed) + " (see output above)")
    return code or (1 if failed else 0)
