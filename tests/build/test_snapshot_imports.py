"""The snapshot's Python side (sitebuild/snapshot_imports.py) in CPython, and its contract
with static/interpreter.js: the same names on both sides, and a key that follows the
programs that make the snapshot."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

from sitebuild import snapshot
from sitebuild.bundle import reproducible_zip
from sitebuild.paths import STATIC
from sitebuild.snapshot_imports import import_tree
from sitebuild.snapshot_site import lines_only, slim_code

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "app"))
from boot_finders import UnpackOnDemand  # type: ignore[import-not-found]

INTERPRETER = (STATIC / "interpreter.js").read_text("utf-8")
IMPORTS = snapshot.IMPORTS.read_text("utf-8")


@pytest.mark.parametrize(
    "name", ["_chunk_inspector_snapshot", "chunkInspectorUnpack", "_chunk_inspector_precompiled"]
)
def test_both_sides_of_the_contract_spell_the_same_names(name: str) -> None:
    assert name in INTERPRETER and name in IMPORTS
    assert re.search(rf"sys\.{name}|globalThis\.{name}", INTERPRETER)


def test_the_page_reads_the_key_the_snapshot_leaves_in_sys() -> None:
    assert "getattr(sys, '_chunk_inspector_snapshot', '')" in INTERPRETER
    assert 'setattr(sys, "_chunk_inspector_snapshot", config["key"])' in IMPORTS


def fake_page(monkeypatch: pytest.MonkeyPatch, **globals_: object) -> None:
    """A `js` module standing for the page's globalThis."""
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(**globals_))


def test_the_first_lazy_import_asks_the_page_to_unpack_once_and_the_finder_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    fake_page(monkeypatch, chunkInspectorUnpack=lambda: calls.append("unpack"))
    finder = UnpackOnDemand(["pkg.lazy"])
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    assert finder.find_spec("pkg.other") is None
    assert calls == [] and finder in sys.meta_path
    assert finder.find_spec("pkg.lazy") is None  # the usual finders find it, unpacked
    assert calls == ["unpack"] and finder not in sys.meta_path


def test_without_the_pages_function_the_finder_only_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_page(monkeypatch)
    finder = UnpackOnDemand(["pkg.lazy"])
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    assert finder.find_spec("pkg.lazy") is None
    assert finder not in sys.meta_path


def test_import_tree_imports_submodules_but_not_lazy_ones_or_main(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "snaptree"
    (package / "inner").mkdir(parents=True)
    for name in ("__init__.py", "eager.py", "lazy.py", "__main__.py", "inner/__init__.py"):
        (package / name).write_text("")
    (package / "inner" / "broken.py").write_text("raise ImportError('needs the page')\n")
    # a lazy package (markdown_it.cli): neither it nor its submodules are imported
    (package / "later").mkdir()
    (package / "later" / "__init__.py").write_text("")
    (package / "later" / "parse.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    imported: list[str] = []
    skipped: list[str] = []
    try:
        lazy = ["snaptree.lazy", "snaptree.later", "snaptree.later.parse"]
        assert import_tree("snaptree", lazy, imported, skipped)
        assert sorted(imported) == ["snaptree", "snaptree.eager", "snaptree.inner"]
        assert skipped == ["snaptree.inner.broken (ImportError: needs the page)"]
        assert "snaptree.lazy" not in sys.modules and "snaptree.__main__" not in sys.modules
        assert "snaptree.later" not in sys.modules
        assert not import_tree("no_such_module_here", [], imported, skipped)
    finally:
        for name in [n for n in sys.modules if n == "snaptree" or n.startswith("snaptree.")]:
            del sys.modules[name]


def test_the_key_follows_the_snapshot_programs_and_the_lazy_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing snapshot_imports.py, snapshot_maker.mjs, snapshot_site.py or the lazy list
    makes another snapshot (an old one would hold the old recipe's state)."""
    bundle = reproducible_zip([("chunker_py/__init__.py", b"")])
    key = snapshot.snapshot_key(bundle, ["chunker_py"], ["chunker_py"])
    for attribute in ("IMPORTS", "MAKER", "SITE"):
        edited = tmp_path / f"{attribute}.txt"
        edited.write_text(getattr(snapshot, attribute).read_text("utf-8") + "\n")
        with monkeypatch.context() as patch:
            patch.setattr(snapshot, attribute, edited)
            assert snapshot.snapshot_key(bundle, ["chunker_py"], ["chunker_py"]) != key
    monkeypatch.setattr(snapshot, "SNAPSHOT_LAZY", snapshot.SNAPSHOT_LAZY[1:])
    assert snapshot.snapshot_key(bundle, ["chunker_py"], ["chunker_py"]) != key


LOCATED = """
def spread(a, b):
    total = (a.first
             + b.second) * 3
    if total > 10:
        return [x for x in range(total)
                if x % 2]
    try:
        return {"k": a.value, "v": b.value}[total]
    except KeyError:
        raise ValueError(f"no {total}") from None
"""


def code_objects(code: types.CodeType) -> list[types.CodeType]:
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return [code, *[inner for c in nested for inner in code_objects(c)]]


def merged_lines(code: types.CodeType) -> list[tuple[int, int, int | None]]:
    """``co_lines()`` with adjacent ranges of one line joined (as 3.14's co_lines does)."""
    ranges: list[tuple[int, int, int | None]] = []
    for start, end, line in code.co_lines():
        if ranges and ranges[-1][2] == line and ranges[-1][1] == start:
            start = ranges.pop()[0]
        ranges.append((start, end, line))
    return ranges


def test_lines_only_keeps_every_instruction_s_line_and_drops_the_columns() -> None:
    """First visit's bytes: the snapshot's code objects keep their lines (tracebacks name file, line
    and function) without column ranges (~200 KB of the brotli copy)."""
    for source in (LOCATED, Path(snapshot.__file__).read_text("utf-8")):
        for code in code_objects(compile(source, "located.py", "exec")):
            slim = code.replace(co_linetable=lines_only(code.co_linetable))
            assert [p[0] for p in slim.co_positions()] == [p[0] for p in code.co_positions()]
            assert merged_lines(slim) == merged_lines(code)
            assert {p[2:] for p in slim.co_positions()} <= {(None, None)}
            assert len(slim.co_linetable) <= len(code.co_linetable)


def test_slim_code_rewrites_nested_code_and_keeps_what_runs() -> None:
    """What the maker's sitecustomize (sitebuild/snapshot_site.py) does to each module
    compiled while the snapshot is made, before it runs."""
    space: dict[str, object] = {}
    exec(slim_code(compile(LOCATED, "located.py", "exec")), space)
    spread = space["spread"]
    assert isinstance(spread, types.FunctionType)
    first = types.SimpleNamespace(first=4, value=1)
    assert spread(first, types.SimpleNamespace(second=0, value=2)) == [1, 3, 5, 7, 9, 11]
    # a traceback keeps its lines (pytest counts them from 0, as splitlines does)
    with pytest.raises(ValueError, match="no 3") as raised:
        spread(types.SimpleNamespace(first=0, value=1), types.SimpleNamespace(second=1, value=2))
    assert raised.traceback[-1].lineno == LOCATED.splitlines().index(
        '        raise ValueError(f"no {total}") from None'
    )
    comprehension = [c for c in spread.__code__.co_consts if isinstance(c, types.CodeType)]
    for code in [spread.__code__, *comprehension]:
        assert {p[2:] for p in code.co_positions()} <= {(None, None)}
