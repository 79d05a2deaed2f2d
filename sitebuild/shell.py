"""The build's voice and hands: a log line on stderr, and a command run at the root."""

from __future__ import annotations

import subprocess
import sys

from sitebuild.paths import ROOT


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(command: list[str], check: bool = True) -> int:
    log("$ " + " ".join(command))
    return subprocess.run(command, cwd=ROOT, check=check).returncode
