"""Run the core tests inside Pyodide (Node): ``python tests/pyodide/run.py [pytest args]``.

Installs pure-Python wheels of pytest, Hypothesis, the runtime dependencies and wcwidth (the
grapheme tests' reference) for Pyodide's Python into ``.cache/pyodide-site`` (once), then
starts ``run_core_tests.mjs``. LangChain (which needs compiled extensions), the reference
tokenizers (tiktoken, HF tokenizers), the reference sentence segmenters (pySBD, sentencex),
the table generators and subprocess-based tests are left out (marked ``cpython_only`` or
``subprocess``): they run in CPython. The tokenizers' data files are read from
chunker_py/_data/ in the mounted repository, so build them first (``python build.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / ".cache" / "pyodide-site"
PACKAGES = ("pytest", "hypothesis", "markdown-it-py", "mdurl", "wcwidth")
DEFAULT_ARGS = [
    "tests/core",
    "-p",
    "no:cacheprovider",
    "-m",
    "not subprocess and not cpython_only",  # files marked cpython_only are not collected
    "-q",
]


def pyodide_python() -> str:
    lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    major, minor, *_ = lock["info"]["python"].split(".")
    return f"{major}.{minor}"


def pinned(*names: str) -> list[str]:
    """The same versions as CPython's test run: the pins in requirements-test.txt."""
    lines = (ROOT / "requirements-test.txt").read_text().splitlines()
    pins = dict(line.split("==", 1) for line in lines if "==" in line and line[0] != "#")
    return [f"{name}=={pins[name]}" for name in names]


def ensure_site() -> None:
    marker = SITE / ".complete"
    wanted = " ".join(pinned(*PACKAGES))
    if marker.exists() and marker.read_text() == wanted:
        return
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--upgrade", "--target", str(SITE), "--python-version", pyodide_python(),
            "--only-binary=:all:", "--implementation", "py", "--abi", "none",
            "--platform", "any", *pinned(*PACKAGES),
        ],
        check=True,
    )  # fmt: skip
    marker.write_text(wanted)


def main(argv: list[str]) -> int:
    ensure_site()
    args = argv or DEFAULT_ARGS
    node = ["node", str(Path(__file__).with_name("run_core_tests.mjs")), str(ROOT), str(SITE)]
    return subprocess.run([*node, *args], cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
