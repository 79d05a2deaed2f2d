"""What the start-up snapshot holds, prepared inside Node's Pyodide before it is saved.

sitebuild/snapshot_maker.mjs runs this file's source in Pyodide's ``__main__`` and then
calls ``prepare_snapshot``, whose return value (a JSON report) it prints (its definitions
are deleted from ``__main__`` before the heap is saved; what they installed stays).
Nothing runs on import: ruff, mypy and the tests read it as an ordinary module. It runs in
the Pyodide the page uses, never in the page itself: the page inherits the state it leaves
behind.

It imports every top-level module of the page's Python bundle and all of their submodules
(``__main__`` modules would run a CLI, and the modules and packages in ``config["lazy"]``
are left for later). Those in ``config["required"]`` must import
completely; the others (modules that need the page, submodules that need an optional
dependency) are skipped and reported.

The contract with static/interpreter.js, the page's side of the snapshot (each name below
is spelt the same there):

- ``sys._chunk_inspector_snapshot``: the key the snapshot was made for. interpreter.js reads
  it right after the restore and boots normally ("stale") unless it equals its own
  ``BUILD.key``, which build.py wrote into it from the same key.
- ``UnpackOnDemand`` (app/boot_finders.py) on ``sys.meta_path``: a page booted from the
  snapshot may leave app.zip (the ``config["lazy"]`` modules and the data files they read)
  packed. interpreter.js then defines ``globalThis.chunkInspectorUnpack`` (only when
  ``BUILD.appOnDemand``); the first import of a lazy module calls it once, after taking
  this finder off ``sys.meta_path``. The function deletes itself, unpacks app.zip into the working
  directory (``config["home"]``, /home/pyodide, where the page unpacks everything) and has
  the path finders forget their listings; then the usual finders find the module. Without
  that function (app.zip unpacked at once) the finder only removes itself. A normal boot
  installs the same finders (interpreter.js, after unpacking lib.zip).
- ``FullStdlibOnDemand`` (app/boot_finders.py) at the end of ``sys.meta_path``: the whole
  standard library for a module the page's stdlib.zip left out.
- ``sys._chunk_inspector_precompiled``: the paths whose code PyScript's package was served
  from the code compiled here (see ``install_code_cache``); the tests read it.

What the page never reads is left out of the heap (the snapshot is the largest
download of a first visit): every module imported since Python started, Pyodide's own and
the page's, was compiled without its functions' docstrings and without the column ranges
of its code's locations (sitebuild/snapshot_site.py, the maker's ``sitecustomize``;
tracebacks keep their files, lines and names, and lose only the ``^^^^`` markers under the
failing expression); ``prepare_snapshot`` stops that, drops every module's and class's
docstring (``drop_docstrings``) and this program's own names in ``__main__``
(``forget_program``) with the garbage they leave.
"""

from __future__ import annotations

import ast
import codecs
import contextlib
import functools
import gc
import importlib
import importlib._bootstrap_external as external
import json
import os
import pkgutil
import sys
from collections.abc import Callable, Iterable
from types import CodeType, ModuleType
from typing import Any


def import_tree(name: str, lazy: Iterable[str], imported: list[str], skipped: list[str]) -> bool:
    """Import ``name`` and every submodule not in ``lazy`` (a lazy package: none of its
    submodules either); False if ``name`` itself failed."""
    try:
        module = importlib.import_module(name)
    except Exception as error:
        skipped.append(f"{name} ({type(error).__name__}: {error})")
        return False
    imported.append(name)
    later = set(lazy)

    # (pkgutil.walk_packages would import a lazy package to walk it)
    def walk(package: ModuleType) -> None:
        for info in pkgutil.iter_modules(getattr(package, "__path__", []), package.__name__ + "."):
            if info.name.rsplit(".", 1)[-1] == "__main__" or info.name in later:
                continue
            try:
                submodule = importlib.import_module(info.name)
            except Exception as error:
                skipped.append(f"{info.name} ({type(error).__name__}: {error})")
                continue
            imported.append(info.name)
            if info.ispkg:
                walk(submodule)

    walk(module)
    return True


def install_code_cache(sources: dict[str, str]) -> list[str]:
    """Code objects, compiled now, for modules the page compiles after restoring: PyScript's
    own package, which PyScript writes to the file system and imports once it has its
    interpreter. The loader takes one only for the same path and the very same source
    bytes, so another PyScript's package just compiles as usual. Returns (and keeps
    filling) the list of paths it served."""
    cache: dict[str, tuple[bytes, CodeType]] = {}
    for path, text in sources.items():
        data = text.encode()
        cache[path] = (data, compile(data, path, "exec", dont_inherit=True))
    served: list[str] = []
    compile_source: Callable[..., CodeType] = external.SourceLoader.source_to_code

    def source_to_code(self: Any, data: bytes, path: str, *, _optimize: int = -1) -> CodeType:
        known = cache.get(path)
        if known is not None and known[0] == data and _optimize == -1:
            served.append(path)
            return known[1]
        return compile_source(self, data, path, _optimize=_optimize)

    setattr(external.SourceLoader, "source_to_code", source_to_code)  # noqa: B010
    return served


def prepare_snapshot(config_json: str, sources_json: str) -> str:
    """Import the bundle, cache PyScript's compiled package, install the lazy unpacker and
    leave the key in ``sys``; stop compiling slim (``stop_slim_compiles``), drop the
    docstrings left and forget this program's names in ``__main__`` (all but
    ``config["main"]``, the names Pyodide's ``__main__`` had before it ran). Return the
    import report as JSON, with what was slimmed."""
    config = json.loads(config_json)
    imported: list[str] = []
    skipped: list[str] = []
    for name in config["modules"]:
        before = len(skipped)
        complete = import_tree(name, config["lazy"], imported, skipped)
        if name in config["required"] and (not complete or len(skipped) > before):
            raise RuntimeError(f"snapshot: {name} must import completely: {skipped[before:]}")
    slimmed = stop_slim_compiles()
    # a lazy module imported by one the snapshot holds would be in app.zip, which a normal
    # boot then fetches at once (synchronously, before the first result)
    held_lazy = [name for name in config["lazy"] if name in sys.modules]
    if held_lazy:
        raise RuntimeError(f"snapshot: lazy modules imported at start-up: {held_lazy}")
    setattr(sys, "_chunk_inspector_precompiled", install_code_cache(json.loads(sources_json)))  # noqa: B010
    finders = importlib.import_module(config["finders"])  # app/boot_finders.py
    finders.install(config["lazy"], config["stdlib_rest"])
    setattr(sys, "_chunk_inspector_snapshot", config["key"])  # noqa: B010
    dumps = json.dumps  # (forget_program deletes this program's names, json too)
    slimmed["docstrings"] = drop_docstrings()
    slimmed["main_names"] = len(forget_program(config["main"]))
    return dumps({"imported": imported, "skipped": skipped, "slimmed": slimmed})


def stop_slim_compiles() -> dict[str, int]:
    """Stop the maker's ``sitecustomize`` (sitebuild/snapshot_site.py, which has compiled
    every module slim since Python started) and remove it, module and file; return what it
    slimmed."""
    site = sys.modules.pop("sitecustomize", None)
    if site is None or not hasattr(site, "stop"):
        raise RuntimeError("snapshot: the maker's sitecustomize did not run")
    slimmed: dict[str, int] = site.stop()
    path = str(site.__file__)
    os.remove(path)
    finder = sys.path_importer_cache.get(os.path.dirname(path))
    if finder is not None and hasattr(finder, "invalidate_caches"):
        finder.invalidate_caches()  # its listing named the file
    return slimmed


# what holds a docstring besides code objects and classes: its __doc__ is set to None
DOC_HOLDERS = (ModuleType, property, staticmethod, classmethod, functools.cached_property)


def drop_docstrings() -> int:
    """Set to None the ``__doc__`` of every module, class (but C types that refuse) and
    property in the heap (nothing in app/, chunker_py/ or their dependencies reads one);
    a function's is its code's first constant (sitebuild/snapshot_site.py). Returns how
    many."""
    dropped = 0
    for thing in gc.get_objects():
        if isinstance(thing, type):
            if isinstance(thing.__dict__.get("__doc__"), str):
                with contextlib.suppress(TypeError, AttributeError):
                    type.__setattr__(thing, "__doc__", None)
                    dropped += 1
        elif isinstance(thing, DOC_HOLDERS):
            with contextlib.suppress(TypeError, AttributeError):
                if isinstance(thing.__doc__, str):
                    thing.__doc__ = None
                    dropped += 1
    return dropped


def forget_program(kept: Iterable[str]) -> list[str]:
    """Delete from ``__main__`` every name but ``kept``: this program's definitions and
    imports, and the maker's inputs (the sources' JSON), which the page never reads and
    would otherwise find in its ``__main__`` on the snapshot path only. Then collect the
    garbage and clear the type attribute cache (refilled on use after the restore).
    Returns the names deleted."""
    space = sys.modules["__main__"].__dict__
    names = sorted(set(space) - set(kept))
    collect, clear_type_cache = gc.collect, sys._clear_type_cache
    for name in names:
        del space[name]
    collect()
    clear_type_cache()
    return names


def imported_names(source: str) -> set[str]:
    """Every absolute module an ``import`` or ``from … import`` in ``source`` names, at any
    depth (imports inside functions too), with ``from x import y`` also giving ``x.y``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


# what ``json.detect_encoding`` can name (chunker_py reads a tokenizer.json in any of them)
JSON_CODECS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-be", "utf-16-le", "utf-32", "utf-32-be",
               "utf-32-le")  # fmt: skip
CODEC_CALLS = {"encode", "decode", "lookup", "getincrementaldecoder", "getincrementalencoder"}


def codec_names(source: str) -> set[str]:
    """Every codec named by a string literal in a ``.encode(...)``, ``.decode(...)`` or
    ``codecs`` look-up call in ``source``. A codec is imported (``encodings.utf_16_le`` ...)
    on its first use, by no import statement: before this, the first emoji pasted
    imported two and fetched the whole standard library in the edit's task."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CODEC_CALLS
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def record_stdlib(config_json: str, sources_json: str) -> str:
    """What the page imports from the standard library's zip, as JSON: the zip's path and
    its member names. Imports what the snapshot imports, then the lazy modules the page
    may import later (all ``config["lazy"]`` but ``config["cli_only"]``), then every module
    named by an import statement in the bundle's page modules and in PyScript's package
    (imports inside functions run only later, in the page); a name that does not import
    is passed over (an optional dependency, a JS module). Then every codec those sources
    name (``codec_names``) and those ``json.detect_encoding`` can name."""
    config = json.loads(config_json)
    cli_only = set(config["cli_only"])
    for name in config["modules"]:
        import_tree(name, cli_only, [], [])
    sources = list(json.loads(sources_json).values())
    for folder, _dirs, files in os.walk(config["home"]):
        for file in files:
            path = os.path.join(folder, file)
            module = path[len(config["home"]) + 1 : -3].replace("/", ".")
            if file.endswith(".py") and module not in cli_only:
                with open(path, encoding="utf-8") as handle:
                    sources.append(handle.read())
    for source in sources:
        for name in sorted(imported_names(source)):
            if name.split(".", 1)[0] in cli_only:
                continue
            # a JS module, an optional dependency, a name that is no module
            with contextlib.suppress(BaseException):
                importlib.import_module(name)
        for codec in sorted(codec_names(source)):
            with contextlib.suppress(LookupError):  # a method of another name (str.lookup)
                codecs.lookup(codec)
    for codec in JSON_CODECS:
        codecs.lookup(codec)
    # what importlib.resources imports when a package's data files are read (the token
    # data), from a folder and from a zip
    from importlib import resources

    for name in [*config["modules"], "json"]:
        with contextlib.suppress(Exception):
            for item in resources.files(name).iterdir():
                item.is_file()
    zip_path = next(p for p in sys.path if p.startswith("/lib/python") and p.endswith(".zip"))
    members = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(zip_path + "/"):
            members.add(origin[len(zip_path) + 1 :])
    return json.dumps({"zip": zip_path, "members": sorted(members)})
