"""The core suite passes inside real Pyodide (the page's runtime), not only in CPython."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.subprocess


def test_core_suite_passes_inside_pyodide() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "pyodide" / "run.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=900,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    assert "on emscripten" in output  # it really ran in Pyodide
    passed = re.search(r"(\d+) passed", output)
    assert passed and int(passed.group(1)) >= 100, output[-2000:]
    assert " failed" not in output
