"""The page's Python as zips: chunker_py, its pure-Python dependencies (unpacked from their
pinned wheels) and the app's modules, as they unpack into the interpreter's working
directory (on sys.path): one request, no micropip, no index lookup."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from pathlib import Path

from sitebuild.paths import APP, PACKAGE
from sitebuild.pypi import fetch_wheel, runtime_requirements


def reproducible_zip(members: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of (name, data) pairs with fixed dates and modes, so equal input gives equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def package_sources(package_dir: Path = PACKAGE) -> list[Path]:
    """Every .py file of the package and its _data/ files, sorted, skipping caches."""
    data = package_dir / "_data"
    return sorted(
        path
        for path in package_dir.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or path.is_relative_to(data))
    )


def dependency_members(python_version: str) -> dict[str, bytes]:
    """The files of chunker_py's pure-Python dependencies as they unpack; each wheel's
    .dist-info (with its licence) travels with it."""
    members: dict[str, bytes] = {}
    for name, version in runtime_requirements():
        with zipfile.ZipFile(fetch_wheel(name, version, python_version)) as wheel:
            for member in sorted(wheel.namelist()):
                if not member.endswith("/"):
                    members[member] = wheel.read(member)
    return members


def python_bundle(python_version: str) -> bytes:
    """Every Python file the page imports except app/main.py, as one zip: the runtime
    dependencies (see dependency_members), chunker_py and the app's panel modules."""
    members = dependency_members(python_version)
    for path in package_sources():
        members[path.relative_to(PACKAGE.parent).as_posix()] = path.read_bytes()
    for path in app_modules():
        members[path.name] = path.read_bytes()
    return reproducible_zip(sorted(members.items()))


def app_modules() -> list[Path]:
    """The app's modules, which the page imports; app/main.py is the script PyScript runs."""
    return [path for path in sorted(APP.glob("*.py")) if path.name != "main.py"]


def top_level_names(members: Iterable[str]) -> list[str]:
    """The importable top-level names among zip member names: packages (with
    __init__.py) and modules."""
    names = set()
    for member in members:
        parts = member.split("/")
        if len(parts) == 1 and member.endswith(".py"):
            names.add(member[:-3])
        elif len(parts) == 2 and parts[1] == "__init__.py":
            names.add(parts[0])
    return sorted(names)


def top_level_modules(bundle: bytes) -> list[str]:
    """The importable top-level names in a zip."""
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        return top_level_names(archive.namelist())
