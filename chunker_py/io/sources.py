"""Which files a corpus run reads, and the source name of each.

Files are taken as given; folders are walked recursively (symbolic links followed, each real
folder once, so a link loop ends), keeping the files their ``include`` globs match and no
``exclude`` glob does; names starting with ``.`` are skipped. A folder's files come in
sorted order of their path relative to the folder, which is their source name; when two
folders give the same relative path, both are named by the folder as given plus that path.

Globs: ``*`` and ``?`` match within one path component, ``**`` any number of components,
``[...]`` a character class. A glob without ``/`` is matched against the file name, one
with ``/`` against the whole relative path.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.errors import SettingError

DEFAULT_INCLUDE = ("*.md", "*.markdown", "*.txt")
STDIN = "-"


@dataclass(frozen=True)
class SourceFile:
    """One document of a run: ``path`` to read (``-``: standard input), ``name`` its source
    name, ``match`` the path that rules' and filters' globs see, ``size`` in bytes when
    known, and ``error`` when the walk already found it unreadable."""

    path: str
    name: str
    match: str
    size: int | None = None
    error: str | None = None


@lru_cache(maxsize=256)
def glob_pattern(glob: str) -> re.Pattern[str]:
    """The regular expression of ``glob`` (see the module docstring)."""
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and "]" in glob[i + 2 :]:
            end = glob.index("]", i + 2)
            body = glob[i + 1 : end]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z", re.DOTALL)


def matches(glob: str, path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) matches ``glob``."""
    target = path if "/" in glob else path.rsplit("/", 1)[-1]
    return glob_pattern(glob).match(target) is not None


def read_list(data: bytes, name: str) -> list[str]:
    """The paths of a ``--files-from`` list: one per line, blank lines ignored."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise SettingError(f"The list {name} is not UTF-8 text.", field="files_from") from None
    return [line for line in text.splitlines() if line.strip()]


def collect(
    paths: Sequence[str],
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    single_name: str = "",
) -> list[SourceFile]:
    """The sources of ``paths`` (files, folders, ``-``), in order, with unique names.

    One file given alone (no folder) keeps ``single_name`` (the ``--source-name``, by
    default none), so its records equal the page's download; several files are named by
    their paths as given.
    """
    include = tuple(include) or DEFAULT_INCLUDE
    found: list[tuple[SourceFile, str | None]] = []  # the source, and the folder it came from
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            found.extend((s, path) for s in _walk(path, include, exclude))
        else:
            found.append((_given(path), None))
    if len(found) == 1 and found[0][1] is None:
        only = found[0][0]
        return [SourceFile(only.path, single_name, only.match, only.size, only.error)]
    if single_name:
        raise SettingError(
            "Source name names one document; with several, each is named by its path.",
            field="source_name",
        )
    return _unique(found)


def _given(path: str) -> SourceFile:
    if path == STDIN:
        return SourceFile(STDIN, STDIN, STDIN)
    shown = path.replace(os.sep, "/")
    try:
        size: int | None = os.stat(path).st_size
    except OSError:
        size = None  # reported when it is read
    return SourceFile(path, shown, shown, size)


def _unique(found: Iterable[tuple[SourceFile, str | None]]) -> list[SourceFile]:
    found = list(found)
    counts = Counter(s.name for s, _folder in found)
    out = []
    for source, folder in found:
        if counts[source.name] > 1 and folder is not None:
            name = _joined(folder, source.name)
            source = SourceFile(source.path, name, source.match, source.size, source.error)
        out.append(source)
    again = Counter(s.name for s in out)
    twice = sorted(name for name, n in again.items() if n > 1)
    if twice:
        raise SettingError(
            f"The file {twice[0]} is given twice; give each file or folder once.",
            field="files",
        )
    return out


def _joined(folder: str, relative: str) -> str:
    return (folder.replace(os.sep, "/").rstrip("/") or "/") + "/" + relative


def _walk(folder: str, include: Sequence[str], exclude: Sequence[str]) -> list[SourceFile]:
    """The folder's kept files, sorted by relative path; each real folder visited once,
    under the first of its names in sorted order."""
    seen: set[tuple[int, int]] = set()
    out: list[SourceFile] = []
    stack = [(folder, "")]
    while stack:
        where, prefix = stack.pop()
        try:
            info = os.stat(where)
            key = (info.st_dev, info.st_ino)
            if key in seen:
                continue  # a link back to a folder already walked (a loop or a second name)
            seen.add(key)
            entries = sorted(os.scandir(where), key=lambda e: e.name)
        except OSError as exc:
            name = prefix.rstrip("/") or "."
            message = f"Cannot read the folder {_joined(folder, name)}: {exc.strerror}."
            out.append(SourceFile(where, name, name, None, message))
            continue
        folders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relative = prefix + entry.name
            if _is_dir(entry):
                folders.append((entry.path, relative + "/"))
            elif _kept(relative, include, exclude):
                out.append(_file(entry, relative))
        stack.extend(reversed(folders))  # depth first in sorted order: the first name wins
    return sorted(out, key=lambda s: s.name)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _file(entry: os.DirEntry[str], relative: str) -> SourceFile:
    try:
        size: int | None = entry.stat().st_size
    except OSError:
        size = None  # a broken link: reported when it is read
    return SourceFile(entry.path, relative, relative, size)


def _kept(relative: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    return any(matches(g, relative) for g in include) and not any(
        matches(g, relative) for g in exclude
    )
