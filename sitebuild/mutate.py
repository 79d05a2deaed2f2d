"""`python build.py mutate`: plant each known bug in a copy of chunker_py and show that the
core tests fail (not part of `test`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild.bundle import package_sources
from sitebuild.paths import ROOT, TOKEN_REFERENCE
from sitebuild.shell import log


@dataclass(frozen=True)
class Mutant:
    """A deliberate bug: ``original`` (found exactly once in chunker_py/*.py) becomes
    ``mutated``. Snippets are short so an unrelated edit of the module leaves them valid;
    when one no longer matches, `mutate` stops and says which, so it gets updated."""

    name: str
    original: str
    mutated: str


MUTANTS = (
    Mutant(
        "merge off by one (a chunk may take one code point more than the size)",
        "bisect_right(cum, cum[first] + size,",
        "bisect_right(cum, cum[first] + size + 1,",
    ),
    Mutant(
        "no trimming of merged chunks",
        "        if self.trim:\n            text = self._text\n",
        "        if False:\n            text = self._text\n",
    ),
    Mutant(
        "overlap ignored when the merge drops pieces",
        "floor = max(cum[last] - overlap,",
        "floor = max(cum[last],",
    ),
    Mutant(
        "overlap ignored by fixed windows",
        "advance = size - overlap\n        for a in range(",
        "advance = size\n        for a in range(",
    ),
    Mutant(
        "prefix cache of records rebuilt from 0 (and appended)",
        "build_chunks(self.text, self.spans, len(prefix), stop)",
        "build_chunks(self.text, self.spans, 0, stop)",
    ),
    Mutant(
        "piece cache keyed without the overlap (chunks replayed from another overlap)",
        "key = (text[start:end], tuple(seps), size, overlap, sizer.name,",
        "key = (text[start:end], tuple(seps), size, sizer.name,",
    ),
    Mutant(
        "UTF-16 offset off by one on astral characters",
        "position + bisect_right(self._astral, position - 1)",
        "position + bisect_right(self._astral, position)",
    ),
)

# The core tests, without subprocesses (the CLI and the Pyodide run import the package
# from elsewhere and take minutes); -x: one failure is enough to call a mutant killed.
MUTATION_PYTEST = ["-m", "pytest", "tests/core", "-x", "-q", "-p", "no:cacheprovider"]
MUTATION_PYTEST += ["-m", "not subprocess"]
# what the copy leaves out: the core tests never read it (tests/browser and tests/build
# are not core tests)
MUTATION_SKIP = [".git", "node_modules", "dist", "dist.tmp", ".cache", "vendor", "browser"]
MUTATION_SKIP += ["build", "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache"]
MUTATION_SKIP += [".mypy_cache"]


def apply_mutant(package: Path, mutant: Mutant) -> tuple[Path, str]:
    """Write ``mutant`` into the copy at ``package``; return the file and its original text."""
    hits = [
        (path, text)
        for path in package_sources(package)
        if path.suffix == ".py" and (text := path.read_text("utf-8")).count(mutant.original)
    ]
    total = sum(text.count(mutant.original) for _path, text in hits)
    if total != 1:
        raise SystemExit(
            f"mutant {mutant.name!r} no longer applies: {mutant.original!r} occurs {total} "
            "times in chunker_py (it must occur once); update MUTANTS in sitebuild/mutate.py"
        )
    path, text = hits[0]
    path.write_text(text.replace(mutant.original, mutant.mutated), "utf-8")
    return path, text


def core_tests_pass(copy: Path) -> bool:
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)  # no example carried over
    done = subprocess.run(
        [sys.executable, *MUTATION_PYTEST], cwd=copy, capture_output=True, text=True
    )
    return done.returncode == 0


def mutate(names: list[str]) -> int:
    """Plant each mutant in a temporary copy; a mutant is killed when a core test fails."""
    chosen = [m for m in MUTANTS if not names or any(n in m.name for n in names)]
    with tempfile.TemporaryDirectory(prefix="chunker-mutants-") as folder:
        copy = Path(folder)
        # the repository without what the core tests never read (they do read README.md,
        # tests/data and static/sample.txt)
        skip = shutil.ignore_patterns(*MUTATION_SKIP)
        shutil.copytree(ROOT, copy, ignore=skip, dirs_exist_ok=True)
        # ... and the token tests' reference tokenizer, which `build` extracts into .cache
        if TOKEN_REFERENCE.is_dir():
            shutil.copytree(TOKEN_REFERENCE, copy / TOKEN_REFERENCE.relative_to(ROOT))
        for mutant in chosen:  # every snippet is checked before anything runs
            path, text = apply_mutant(copy / "chunker_py", mutant)
            path.write_text(text, "utf-8")
        log("unmutated core tests in the copy (they must pass for a kill to mean anything)")
        if not core_tests_pass(copy):
            raise SystemExit("the core tests fail without any mutant: fix them first")
        killed = 0
        for mutant in chosen:
            path, text = apply_mutant(copy / "chunker_py", mutant)
            try:
                survived = core_tests_pass(copy)
            finally:
                path.write_text(text, "utf-8")
            killed += not survived
            print(f"{'SURVIVED' if survived else 'killed  '}  {mutant.name}", flush=True)
    print(f"kill rate: {killed}/{len(chosen)} ({killed / max(len(chosen), 1):.0%})")
    return 0 if killed == len(chosen) else 1
