"""The layout the documentation draws is the repository's: README.md's tree and
docs/architecture.md's trees name every top-level folder git tracks (and every folder of
chunker_py/), and nothing that is not there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.documentation import page

ROOT = Path(__file__).resolve().parents[2]


def tracked() -> list[str]:
    done = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    )
    return [name for name in done.stdout.decode().split("\0") if name]


def tree_names(text: str, heading: str) -> list[str]:
    """The first column of the first fenced block under ``heading``."""
    section = ("\n" + text).split(f"\n{heading}\n", 1)[1]
    block = re.search(r"^```\n(.*?)^```", section, flags=re.M | re.S)
    assert block is not None, heading
    return [line.split()[0] for line in block.group(1).splitlines() if line[:1].strip()]


def test_the_readmes_tree_is_the_top_level_of_the_repository() -> None:
    names = tree_names(page("README.md"), "## Layout")
    folders = {name.split("/")[0] + "/" for name in tracked() if "/" in name}
    folders = {name for name in folders if not name.startswith(".")}
    assert {name for name in names if name.endswith("/")} == folders
    for name in names:
        assert (ROOT / name).exists(), name


def test_the_architecture_trees_name_the_folders_there_are() -> None:
    text = page("docs/architecture.md")
    top = tree_names(text, "# Architecture")
    assert top == tree_names(page("README.md"), "## Layout")
    section = text.split("\n## The core: chunker_py\n", 1)[1]
    block = re.search(r"^```\n(.*?)^```", section, flags=re.M | re.S)
    assert block is not None
    rows = [line for line in block.group(1).splitlines() if re.match(r"  \S", line)]
    inner = {line.split()[0] for line in rows}
    parts = [name.split("/") for name in tracked() if name.startswith("chunker_py/")]
    folders = {part[1] + "/" for part in parts if len(part) > 2 and part[1] != "_data"}
    assert {name for name in inner if name.endswith("/")} == folders
