"""The build's voice and hands: a log line on stderr, a command run at the root, and a
Node program run on a JSON recipe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from sitebuild.paths import ROOT


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(command: list[str], check: bool = True) -> int:
    log("$ " + " ".join(command))
    return subprocess.run(command, cwd=ROOT, check=check).returncode


def run_node(program: Path, recipe: dict[str, Any], folder: Path, what: str) -> Any:
    """Run the Node `program` on `recipe` (written as recipe.json into `folder`) and return
    the JSON it prints; when it fails, the build stops naming `what`, with Node's last words."""
    recipe_path = folder / "recipe.json"
    recipe_path.write_text(json.dumps(recipe), "utf-8")
    result = subprocess.run(
        ["node", str(program), str(recipe_path)], cwd=ROOT, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise SystemExit(f"{what} failed:\n{result.stderr[-4000:]}")
    return json.loads(result.stdout)
