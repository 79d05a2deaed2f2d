"""`build.py mutate --sample`: the sites it draws from the code (running the mutants takes
minutes, so that is `python build.py mutate`'s job, not a test's)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sitebuild import mutate
from sitebuild.mutate import (
    RELATED,
    TIMED_OUT,
    SiteMutant,
    excluded_sites,
    first_failure,
    flip,
    mutation_sites,
    related_tests,
    sample_sites,
)
from sitebuild.paths import PACKAGE

SOURCE = '''TABLE = (1, 2, 3)


def bound(a, b):
    """a < b in a docstring is no site"""
    return a < b and b - 1 == 0  # nor is this: x > y
'''


def write_package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(SOURCE)
    return package


def test_sites_are_the_operators_and_integers_inside_functions_only(tmp_path: Path) -> None:
    sites = mutation_sites(write_package(tmp_path))
    assert [(s.line, s.original, s.mutated) for s in sites] == [
        (6, "<", "<="),
        (6, "-", "+"),
        (6, "1", "0"),
        (6, "==", "!="),
        (6, "0", "1"),
    ]


def test_a_flip_changes_exactly_that_token(tmp_path: Path) -> None:
    site = SiteMutant("pkg/__init__.py", 6, 13, "<", "<=")
    flipped = flip(SOURCE, site)
    assert flipped.splitlines()[5] == "    return a <= b and b - 1 == 0  # nor is this: x > y"
    assert flipped.replace("a <= b", "a < b") == SOURCE


def test_the_draw_is_repeatable_and_follows_the_seed() -> None:
    every = mutation_sites(PACKAGE)
    first = sample_sites(PACKAGE, 16, 0, every)
    assert len(first) == 16 and first == sample_sites(PACKAGE, 16, 0, every)
    assert first != sample_sites(PACKAGE, 16, 1, every)
    assert set(first) <= set(every)
    # shuffled, not in file order: a run cut short is still drawn from the whole package
    assert first != sorted(first, key=lambda s: (s.path, s.line, s.column))


MARKED = """def bound(a, b):
    # mutation: equivalent < -> <= — a == b never reaches here
    if a < b < 9:
        return a - 1  # mutation: equivalent 1 -> 0 — a trailing marker
    # mutation: equivalent - -> +@2 — only the second minus
    return a - b - 2
"""


def test_a_site_marked_equivalent_is_never_drawn(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(MARKED)
    drawn = {(s.line, s.column, s.original) for s in mutation_sites(package)}
    everything = {(s.line, s.column, s.original) for s in mutation_sites(package, False)}
    assert everything - drawn == {(3, 9, "<"), (3, 13, "<"), (4, 19, "1"), (6, 17, "-")}
    assert (4, 17, "-") in drawn and (6, 13, "-") in drawn and (6, 19, "2") in drawn
    assert excluded_sites(package) == 4
    # and a draw of every site leaves them out
    assert set(sample_sites(package, len(everything), 0, mutation_sites(package))) == set(
        mutation_sites(package)
    )


def test_every_folder_of_the_package_has_existing_related_tests_its_own_first() -> None:
    tests = PACKAGE.parent / "tests" / "core"
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(RELATED)
    for folder in folders:
        site = SiteMutant(f"chunker_py/{folder}/x.py", 1, 0, "+", "-")
        chosen = related_tests(site)
        assert all((PACKAGE.parent / name).is_dir() for name in chosen), chosen
        if (tests / folder).is_dir():
            assert chosen[0] == f"tests/core/{folder}"
    top = SiteMutant("chunker_py/__main__.py", 1, 0, "+", "-")
    assert related_tests(top) == ["tests/core"]


def test_tests_that_never_end_count_as_timed_out_and_failures_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mutant that makes a loop endless must not stall the run (seed 2604 hung on a
    binary search whose bound no longer moved)."""
    (tmp_path / "test_endless.py").write_text(
        "def test_endless():\n    while True:\n        pass\n"
    )
    (tmp_path / "test_fails.py").write_text("def test_fails():\n    assert 1 == 2\n")
    (tmp_path / "test_passes.py").write_text("def test_passes():\n    assert 1 == 1\n")
    monkeypatch.setattr(mutate, "MUTANT_TIMEOUT_S", 5)
    assert first_failure(tmp_path, ["test_endless.py"]) == TIMED_OUT
    # silent for too long: a hang, long before the run's whole time is up
    monkeypatch.setattr(mutate, "MUTANT_TIMEOUT_S", 600)
    monkeypatch.setattr(mutate, "MUTANT_QUIET_S", 5)
    began = time.monotonic()
    assert first_failure(tmp_path, ["test_endless.py"]) == TIMED_OUT
    assert time.monotonic() - began < 300
    monkeypatch.setattr(mutate, "MUTANT_QUIET_S", 600)  # pytest's start on a busy machine
    assert first_failure(tmp_path, ["test_fails.py"]) == "test_fails.py::test_fails"
    assert first_failure(tmp_path, ["test_passes.py"]) is None


def test_the_readmes_count_of_excluded_sites_is_the_codes() -> None:
    """docs/architecture.md's "N of about M sites are excluded" says what the sampler finds
    in chunker_py now: N sites marked equivalent, exactly (a marker added or removed without
    the page following fails here), of M sites in all, within 10 % (every change to the
    code moves M a little; a page off by more is out of date)."""
    import re

    readme = (PACKAGE.parent / "docs" / "architecture.md").read_text("utf-8")
    said = re.findall(
        r"(\d[\d,]*) of about (\d[\d,]*) sites are excluded", " ".join(readme.split())
    )
    assert len(said) == 1, said
    excluded, total = (int(n.replace(",", "")) for n in said[0])
    everything = mutation_sites(PACKAGE, False)
    now = f"{excluded_sites(PACKAGE):,} of about {len(everything):,} sites are excluded"
    assert excluded == excluded_sites(PACKAGE), f"docs/architecture.md: {now}"
    assert abs(total - len(everything)) <= len(everything) / 10, f"docs/architecture.md: {now}"
    assert excluded == len(everything) - len(mutation_sites(PACKAGE))
