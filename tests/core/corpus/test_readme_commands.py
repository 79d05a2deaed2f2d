"""Every command line the documentation shows (README.md and docs/) runs as written, and
`pip install .` into a fresh virtual environment gives a working `chunker-py` without any
test dependency."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.token_references import TOKENIZER_JSON
from tests.documentation import everything, page

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTATION = everything()
pytestmark = pytest.mark.subprocess

NOTES = "# Notes\n\nReset password. Keep backup codes.\n\nA second paragraph, longer. " * 5
FILES = {
    "notes.md": NOTES,
    "notes.txt": NOTES.replace("#", ""),
    "docs/readme.md": "# Readme\n\nInstall it. Run it.\n",
    "docs/guide/intro.md": "---\ntitle: Intro\n---\n# Intro\n\nRead this first.\n",
    "docs/data/table.txt": "alpha beta gamma\n" * 20,
    "docs/drafts/wip.md": "Not yet.\n",
    "list.txt": "notes.md\ndocs/guide\n",
}


def blocks(language: str, text: str = DOCUMENTATION) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S)


def shell_lines(text: str) -> list[str]:
    return list(dict.fromkeys(line for block in blocks("sh", text) for line in block.splitlines()))


def commands(*, installing: bool) -> list[str]:
    """The documentation's shell lines that run the command line, each distinct line once
    in the order shown: with ``installing`` those of the README's install block (pip and
    chunker-py; the optional extras other pages install, such as the embedding model's,
    are not downloaded here), else the ``python -m chunker_py`` lines of every page."""
    install = [
        line
        for line in shell_lines(page("README.md"))
        if line.startswith(("pip install", "chunker-py"))
    ]
    if installing:
        return install
    return [
        line
        for line in shell_lines(DOCUMENTATION)
        if "python -m chunker_py" in line and line not in install
    ]


def workdir(root: Path) -> Path:
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "README.md", root / "README.md")
    (root / "static").symlink_to(ROOT / "static")  # the sample and its questions
    (root / "tests").symlink_to(ROOT / "tests")  # the user guide and its questions
    # "your own model's tokenizer.json": the BERT one the build extracts for the tests
    assert TOKENIZER_JSON.is_file(), "run `python build.py` to extract the reference"
    shutil.copy(TOKENIZER_JSON, root / "tokenizer.json")
    (rules,) = [b for b in blocks("toml") if "[[rule]]" in b]
    (root / "rules.toml").write_text(rules, encoding="utf-8")
    return root


def shell(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", "set -o pipefail; " + line],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_the_readme_shows_the_commands_this_test_runs() -> None:
    assert len(commands(installing=False)) >= 15
    install = commands(installing=True)
    assert install[0] == "pip install ." or install[0].startswith("pip install .  ")
    assert any(line.startswith("chunker-py") for line in install)


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    here = workdir(tmp_path / "work")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env["PYTHONPATH"] = str(ROOT)
    for line in commands(installing=False):
        done = shell(line, here, env)
        assert done.returncode == 0, (line, done.stderr)
        assert done.stderr == "", (line, done.stderr)
        redirected = re.search(r"> (\S+)", line)
        written = (here / redirected.group(1)).read_text() if redirected else done.stdout
        assert written.strip(), line


def test_pip_install_in_a_fresh_environment_gives_a_working_command(tmp_path: Path) -> None:
    """The README's install block, run in a copy of what git tracks (a fresh clone, token
    data included, nothing the build wrote) with a fresh virtual environment first on PATH;
    then a missing dependency is one line, not a traceback."""
    checkout = workdir(tmp_path / "checkout")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    tracked = (
        subprocess.run(
            ["git", "ls-files", "-z", "chunker_py"], cwd=ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, checkout / name)
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for line in commands(installing=True):
        done = shell(line, checkout, env)
        assert done.returncode == 0, (line, done.stderr)
    python = str(env_dir / "bin" / "python")
    outside = tmp_path / "elsewhere"  # not the checkout: the installed package is used
    outside.mkdir()
    shutil.copy(checkout / "notes.md", outside / "notes.md")
    probe = (
        "import chunker_py, importlib.util as u; "
        "print(chunker_py.__file__, u.find_spec('hypothesis'))"
    )
    where = subprocess.run([python, "-c", probe], cwd=outside, env=env, capture_output=True,
                           text=True, check=True)  # fmt: skip
    assert str(env_dir) in where.stdout and where.stdout.endswith("None\n")
    summary = shell("chunker-py notes.md --format summary", outside, env)
    assert summary.returncode == 0 and '"tokens":{"smallest"' in summary.stdout
    module = shell(
        "python -m chunker_py notes.md --size-unit tokens --size 20 --overlap 0", outside, env
    )
    assert module.returncode == 0 and module.stdout.count("\n") > 1
    subprocess.run([python, "-m", "pip", "uninstall", "-q", "-y", "markdown-it-py"], env=env,
                   check=True, capture_output=True)  # fmt: skip
    missing = shell("chunker-py notes.md", outside, env)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.count("\n") == 1 and "markdown_it" in missing.stderr
    assert "Traceback" not in missing.stderr
