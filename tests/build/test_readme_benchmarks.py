"""Every benchmark command the documentation shows (README.md and docs/) names a script
that exists and flags that the script accepts (a benchmark itself takes minutes, so its
run is not part of the tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.documentation import everything

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTATION = everything()
COMMAND = re.compile(r"python (bench/[\w-]+\.py)((?: --[\w-]+)*)")


def readme_benchmark_commands() -> list[tuple[str, list[str]]]:
    found = {(script, tuple(flags.split())) for script, flags in COMMAND.findall(DOCUMENTATION)}
    return [(script, list(flags)) for script, flags in sorted(found)]


def test_the_readme_shows_benchmark_commands() -> None:
    scripts = {script for script, _ in readme_benchmark_commands()}
    assert {"bench/bench_core.py", "bench/bench_page.py", "bench/bench_evidence.py"} <= scripts


@pytest.mark.parametrize(("script", "flags"), readme_benchmark_commands())
def test_a_readme_benchmark_command_names_a_script_and_flags_it_accepts(
    script: str, flags: list[str]
) -> None:
    path = ROOT / script
    assert path.is_file(), script
    compile(path.read_text(encoding="utf-8"), script, "exec")
    if not flags:
        return
    done = subprocess.run(
        [sys.executable, script, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    missing = [flag for flag in flags if not re.search(rf"{re.escape(flag)}\b", done.stdout)]
    assert missing == []
