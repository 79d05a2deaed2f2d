"""The committed token data is exactly what the hash-pinned packages give."""

from __future__ import annotations

import subprocess

from sitebuild.paths import ROOT, TOKEN_DATA
from sitebuild.tokendata import token_data_files


def committed_token_data() -> dict[str, bytes]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", str(TOKEN_DATA.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    names = sorted(name.decode().rsplit("/", 1)[-1] for name in listed if name)
    committed = {}
    for name in names:
        show = ["git", "show", f"HEAD:{TOKEN_DATA.relative_to(ROOT).as_posix()}/{name}"]
        committed[name] = subprocess.run(show, cwd=ROOT, capture_output=True, check=True).stdout
    return committed


def test_committed_token_data_equals_what_the_pinned_packages_give() -> None:
    expected = token_data_files()
    committed = committed_token_data()
    assert sorted(committed) == sorted(expected)
    changed = [name for name, data in expected.items() if committed[name] != data]
    assert changed == []
