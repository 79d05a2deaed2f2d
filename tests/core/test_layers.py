"""The import contracts (pyproject.toml's [tool.importlinter], run by `python build.py test`
as lint-imports) hold on the package and catch each kind of import they forbid, planted in a
copy: an upward import, one mode importing another, the settings importing a mode."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"], cwd=folder, capture_output=True, text=True, check=False
    )


def copy_of_package(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "chunker_py",
        tmp_path / "chunker_py",
        ignore=shutil.ignore_patterns("__pycache__", "_data"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


@pytest.mark.subprocess
def test_an_upward_import_a_mode_importing_another_or_config_importing_a_mode_breaks_a_contract(
    tmp_path: Path,
) -> None:
    copy = copy_of_package(tmp_path)
    clean = lint_imports(copy)
    assert clean.returncode == 0, clean.stdout
    limits = copy / "chunker_py" / "engine" / "limits.py"
    limits.write_text(limits.read_text("utf-8") + "\nfrom ..pipeline import analysis\n", "utf-8")
    fixed = copy / "chunker_py" / "modes" / "fixed.py"
    fixed.write_text(fixed.read_text("utf-8") + "\nfrom . import recursive\n", "utf-8")
    settings = copy / "chunker_py" / "config" / "settings.py"
    settings.write_text(
        settings.read_text("utf-8") + "\nfrom ..modes.recursive import Options\n", "utf-8"
    )
    broken = lint_imports(copy)
    assert broken.returncode != 0
    assert "Contracts: 0 kept, 3 broken." in broken.stdout
    assert "chunker_py.engine.limits -> chunker_py.pipeline" in broken.stdout
    assert "chunker_py.modes.fixed -> chunker_py.modes.recursive" in broken.stdout
    assert "chunker_py.config.settings -> chunker_py.modes.recursive" in broken.stdout


@pytest.mark.subprocess
def test_the_settings_importing_a_mode_alone_breaks_only_the_config_contract(
    tmp_path: Path,
) -> None:
    copy = copy_of_package(tmp_path)
    settings = copy / "chunker_py" / "config" / "settings.py"
    settings.write_text(settings.read_text("utf-8") + "\nfrom ..modes import recursive\n", "utf-8")
    broken = lint_imports(copy)
    assert broken.returncode != 0
    assert "Contracts: 2 kept, 1 broken." in broken.stdout
    assert "chunker_py.config.settings -> chunker_py.modes.recursive" in broken.stdout
