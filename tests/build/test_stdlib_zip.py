"""The page's standard library: stdlib.zip holds what the page imports, each file
with the bytes of Pyodide's python_stdlib.zip, and app/boot_finders.py's FullStdlibOnDemand
finds every other module in the whole zip, fetching it once, only for a module that is
there."""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import pytest

from sitebuild.npm import npm_package
from sitebuild.snapshot import FULL_STDLIB, module_name, trimmed_stdlib

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "app"))
from boot_finders import FullStdlibOnDemand  # type: ignore[import-not-found]


def full_zip() -> zipfile.ZipFile:
    return zipfile.ZipFile(npm_package("pyodide")[0] / FULL_STDLIB)


def test_the_trimmed_zip_holds_the_recorded_files_with_their_bytes_and_names_the_rest() -> None:
    members = ["json/__init__.py", "json/decoder.py", "re/__init__.py", "textwrap.py"]
    data, rest = trimmed_stdlib(members)
    with zipfile.ZipFile(io.BytesIO(data)) as trimmed, full_zip() as full:
        assert sorted(trimmed.namelist()) == sorted(members)
        for name in members:
            assert trimmed.read(name) == full.read(name)
        every = {m for n in full.namelist() if (m := module_name(n))}
    assert "json" not in rest and "json.decoder" not in rest and "textwrap" not in rest
    assert "json.encoder" in rest and "colorsys" in rest
    assert set(rest) == every - {"json", "json.decoder", "re", "textwrap"}


def test_a_member_the_zip_lacks_fails_the_build() -> None:
    with pytest.raises(SystemExit, match=r"no_such_module\.py"):
        trimmed_stdlib(["no_such_module.py"])


def test_the_finder_fetches_the_whole_zip_once_and_only_for_its_modules(tmp_path: Path) -> None:
    trimmed = str(tmp_path / "python3.zip")
    full = tmp_path / "full.zip"
    with zipfile.ZipFile(full, "w") as archive:
        archive.writestr("lonely_mod.py", "VALUE = 42\n")
        archive.writestr("pkg_in_trimmed/sub.py", "VALUE = 7\n")
    fetched: list[str] = []

    def fetch() -> str:
        fetched.append("full")
        return str(full)

    finder = FullStdlibOnDemand(trimmed, ["lonely_mod", "pkg_in_trimmed.sub"], fetch)
    assert finder.find_spec("not_in_any_stdlib") is None
    assert finder.find_spec("pkg_in_trimmed.sub", ["/home/pyodide/pkg_in_trimmed"]) is None
    assert fetched == []
    spec = finder.find_spec("lonely_mod")
    assert spec is not None and spec.origin == f"{full}/lonely_mod.py"
    sub = finder.find_spec("pkg_in_trimmed.sub", [f"{trimmed}/pkg_in_trimmed"])
    assert sub is not None and sub.origin == f"{full}/pkg_in_trimmed/sub.py"
    assert fetched == ["full"]
    assert finder.misses == ["lonely_mod", "pkg_in_trimmed.sub"]


def test_stdlib_zip_holds_every_codec_the_page_names(site) -> None:
    """Long tasks: a codec is imported on first use, by no import statement, so the
    recording missed ``utf-16-le`` and ``utf-32-le`` (named in ``.encode`` calls) and the
    first emoji pasted fetched the whole standard library, synchronously, in the edit's
    task. Every codec named in chunker_py's and the page's code, and each one
    ``json.detect_encoding`` can name, must be in stdlib.zip."""
    from encodings import normalize_encoding
    from encodings.aliases import aliases

    from sitebuild.snapshot_imports import JSON_CODECS, codec_names

    root = Path(__file__).resolve().parents[2]
    named = set(JSON_CODECS)
    for folder in ("chunker_py", "app"):
        for path in (root / folder).rglob("*.py"):
            named |= codec_names(path.read_text("utf-8"))
    assert {"utf-16-le", "utf-32-le"} <= named  # what the emoji path uses
    with zipfile.ZipFile(io.BytesIO((site.root / site.build / "stdlib.zip").read_bytes())) as z:
        members = set(z.namelist())
    modules = {n: aliases.get(normalize_encoding(n).lower(), normalize_encoding(n).lower())
               for n in named}  # fmt: skip
    absent = {n: m for n, m in modules.items() if f"encodings/{m}.py" not in members}
    assert absent == {}
