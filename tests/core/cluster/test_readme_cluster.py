"""The documentation's Dask examples run as written: the LocalCluster script, and the
remote-scheduler one with ``DASK_SCHEDULER_ADDRESS`` naming a running scheduler; both
print the records of ``--jobs 1``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import LocalCluster

from chunker_py.io.cli import execute
from tests.documentation import everything

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTATION = everything()
NOTES = "# Notes\n\nReset password. Keep backup codes.\n\nA second paragraph, longer. " * 5

pytestmark = pytest.mark.subprocess


def dask_blocks() -> list[str]:
    blocks = re.findall(r"^```python\n(.*?)^```", DOCUMENTATION, flags=re.M | re.S)
    return [block for block in blocks if '"--dask"' in block]


def local_records(*argv: str) -> str:
    written: list[str] = []
    assert execute([*argv, "--jobs", "1", "--quiet"], written.append, written.append) == 0
    return "".join(written)


def run_block(block: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", block],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_readme_dask_examples_print_the_records_of_jobs_1(
    cluster: LocalCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    for name in ("notes.md", "notes.txt", "docs/a.md", "docs/b.txt"):
        (tmp_path / name).write_text(NOTES + name)
    monkeypatch.chdir(tmp_path)
    on_this_machine, on_a_cluster = dask_blocks()
    assert "LocalCluster" in on_this_machine and "DASK_SCHEDULER_ADDRESS" in on_a_cluster
    expected = local_records("notes.md", "notes.txt")
    assert run_block(on_this_machine, tmp_path) == expected
    address = cluster.scheduler_address
    expected = local_records("docs")
    assert run_block(on_a_cluster, tmp_path, DASK_SCHEDULER_ADDRESS=address) == expected
