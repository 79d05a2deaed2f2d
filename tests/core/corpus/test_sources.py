"""Which files a corpus run reads and what each is named: folder walks, globs,
symbolic-link loops, unreadable entries, duplicate names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chunker_py import SettingError
from chunker_py.io.sources import collect, matches, read_list


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.md", "a.md", True),
        ("*.md", "deep/er/a.md", True),  # no "/": the file name
        ("*.md", "a.md.txt", False),
        ("drafts/*", "drafts/a.md", True),
        ("drafts/*", "drafts/x/a.md", False),  # * stays in one component
        ("drafts/**", "drafts/x/a.md", True),
        ("**/drafts/*.md", "drafts/a.md", True),  # **/ also matches no folder
        ("**/drafts/*.md", "a/b/drafts/c.md", True),
        ("**/drafts/*.md", "a/undrafts/c.md", False),
        ("?.txt", "a.txt", True),
        ("?.txt", "ab.txt", False),
        ("[ab].txt", "b.txt", True),
        ("[!ab].txt", "b.txt", False),
        ("a+b(1).md", "a+b(1).md", True),  # regex characters are literal
        ("READ*.md", "readme.md", False),  # case-sensitive, like the file system
    ],
)
def test_globs(glob: str, path: str, expected: bool) -> None:
    assert matches(glob, path) is expected


def test_a_nested_folder_is_walked_in_sorted_order_of_relative_paths(tmp_path: Path) -> None:
    root = tree(
        tmp_path / "docs",
        {
            "b.md": b"b",
            "a/z.txt": b"z",
            "a/b/c.md": b"c",
            "a.md": b"a",
            "image.png": b"\x89PNG",  # not included by default
            ".hidden/x.md": b"x",  # hidden folders are skipped
            ".x.md": b"x",
        },
    )
    names = [s.name for s in collect([str(root)])]
    assert names == ["a.md", "a/b/c.md", "a/z.txt", "b.md"]
    assert [s.name for s in collect([str(root)], include=["*.png"])] == ["image.png"]
    kept = collect([str(root)], exclude=["a/**"])
    assert [s.name for s in kept] == ["a.md", "b.md"]
    sizes = {s.name: s.size for s in collect([str(root)])}
    assert sizes["a/b/c.md"] == 1


def test_a_symlink_loop_ends_and_each_real_folder_is_walked_once(tmp_path: Path) -> None:
    root = tree(tmp_path / "docs", {"a/one.md": b"1", "b/two.md": b"2"})
    os.symlink("..", root / "a" / "up")  # a loop back to docs
    os.symlink(root / "b", root / "c")  # a second name for b
    os.symlink(root / "b" / "two.md", root / "a" / "linked.md")  # a linked file is read
    names = [s.name for s in collect([str(root)])]
    assert names == ["a/linked.md", "a/one.md", "b/two.md"]


def test_a_broken_link_is_listed_and_fails_when_read(tmp_path: Path) -> None:
    """An entry that cannot be read is not dropped silently: it reaches the run, which
    reports it (tests/core/corpus/test_corpus_cli.py)."""
    root = tree(tmp_path / "docs", {"a.md": b"a"})
    os.symlink(root / "gone.md", root / "broken.md")
    sources = collect([str(root)])
    assert [(s.name, s.size) for s in sources] == [("a.md", 1), ("broken.md", None)]


def test_an_unreadable_folder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Permission bits do not stop root, so the folder's listing is made to fail.)"""
    root = tree(tmp_path / "docs", {"a.md": b"a", "locked/b.md": b"b"})
    listing = os.scandir

    def scandir(path: str) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    sources = collect([str(root)])
    assert [s.name for s in sources] == ["a.md", "locked"]
    assert sources[1].error == f"Cannot read the folder {root}/locked: Permission denied."


def test_duplicate_names_in_different_folders_stay_unique(tmp_path: Path) -> None:
    one = tree(tmp_path / "one", {"guide/a.md": b"1", "b.md": b"1"})
    two = tree(tmp_path / "two", {"guide/a.md": b"2"})
    names = [s.name for s in collect([str(one), str(two)])]
    assert names == ["b.md", f"{one}/guide/a.md", f"{two}/guide/a.md"]  # only those that clash
    # within one folder, the same file name in two folders is two relative paths
    assert [s.name for s in collect([str(one)])] == ["b.md", "guide/a.md"]


def test_names_one_file_several_files_and_stdin(tmp_path: Path) -> None:
    a = tree(tmp_path, {"a.md": b"a", "b.md": b"b"}) / "a.md"
    b = tmp_path / "b.md"
    assert [s.name for s in collect([str(a)])] == [""]  # the page's download: no source name
    assert [s.name for s in collect([str(a)], single_name="notes")] == ["notes"]
    assert [s.name for s in collect([str(a), str(b)])] == [str(a), str(b)]
    assert [s.name for s in collect([str(a), "-"])] == [str(a), "-"]
    with pytest.raises(SettingError, match="one document"):
        collect([str(a), str(b)], single_name="notes")
    with pytest.raises(SettingError, match="given twice"):
        collect([str(a), str(a)])


def test_a_files_from_list_skips_blank_lines_and_refuses_non_utf8() -> None:
    assert read_list(b"\xef\xbb\xbfa.md\n\n  \nsub dir/b.md\r\n", "list") == [
        "a.md",
        "sub dir/b.md",
    ]
    with pytest.raises(SettingError, match="not UTF-8"):
        read_list(b"caf\xe9", "list")
