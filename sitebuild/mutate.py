"""`python build.py mutate`: plant each known bug in a copy of chunker_py and show that the
core tests fail (not part of `test`). ``--sample N --seed S`` plants N one-token mutants at
sites drawn from the code itself instead (seeded, so a run can be repeated) and lists the
survivors.

A sampled mutant runs only the core tests of the folders that exercise its module
(``RELATED``), its own folder first, so a run of 16 takes minutes on two cores, not an
hour; a kill counts only when the test that failed passes again without the mutant. A
survivor has survived those tests (the full core tests may still kill it)."""

from __future__ import annotations

import ast
import functools
import io
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitebuild.bundle import package_sources
from sitebuild.paths import ROOT, TEST_REQUIREMENTS, TOKEN_REFERENCE
from sitebuild.shell import log, run
from sitebuild.tokendata import ensure_token_data


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
        "offset + bisect_left(self._positions, offset)",
        "offset + bisect_right(self._positions, offset)",
    ),
    # survivors of a sampled run, killed since
    Mutant(
        "an abbreviation of exactly the maximum length refused",
        "len(item) > MAX_ABBREVIATION_LENGTH",
        "len(item) >= MAX_ABBREVIATION_LENGTH",
    ),
    Mutant(
        "the last chunk's end judged as if another chunk followed",
        "len(spans) - 1",
        "len(spans) + 1",
    ),
    Mutant(
        "an empty (all-space) Markdown block kept as a block",
        '        if start >= end:\n            continue\n        if kind == "heading":',
        '        if start > end:\n            continue\n        if kind == "heading":',
    ),
)

# The core tests, without subprocesses (the CLI and the Pyodide run import the package
# from elsewhere and take minutes); -x: one failure is enough to call a mutant killed.
MUTATION_PYTEST = ["-m", "pytest", "tests/core", "-x", "-q", "-p", "no:cacheprovider"]
MUTATION_PYTEST += ["-m", "not subprocess"]
# what the copy leaves out: the core tests never read it (tests/page and tests/build
# are not core tests)
MUTATION_SKIP = [".git", "node_modules", "dist", "dist.tmp", ".cache", "vendor", "page"]
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


# Sampled mutants (--sample N): one token flipped at a site drawn from the code itself.
# A comparison becomes its neighbour (off-by-one at a bound), + and - swap, and a small
# integer changes (0 -> 1, 1 -> 0, n -> n + 1). Only sites inside functions are drawn, so
# generated tables (module-level literals) and constants' definitions are left alone.
FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-", "-": "+"}


@dataclass(frozen=True)
class SiteMutant:
    """``original`` (one token) at ``line``/``column`` of ``path`` becomes ``mutated``."""

    path: str  # relative to the package's parent, e.g. chunker_py/engine/merge.py
    line: int  # 1-based
    column: int  # 0-based, in code points of that line
    original: str
    mutated: str

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}:{self.column + 1}  {self.original} -> {self.mutated}"


def flipped(kind: int, text: str) -> str | None:
    if kind == tokenize.OP:
        return FLIPS.get(text)
    if kind == tokenize.NUMBER and text.isdigit():
        return {"0": "1", "1": "0"}.get(text, str(int(text) + 1))
    return None


def function_lines(source: str) -> set[int]:
    """The lines inside any function's body."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
            lines.update(range(node.body[0].lineno, node.end_lineno + 1))
    return lines


# A site shown to be equivalent (the flip cannot change what the package does) says so in a
# comment, on its own line or in the comment lines right above it:
#     # mutation: equivalent 256 -> 257 — any window finds the same last whitespace
# names the flip ("<original> -> <mutated>"; "@2" after it picks the 2nd such token of the
# line), then why. The sampler never draws a marked site, so a run measures what is left.
EQUIVALENT = re.compile(r"#\s*mutation: equivalent (\S+) -> (\S+?)(?:@(\d+))?(?:\s|$)")


def equivalent_flips(source: str) -> set[tuple[int, str, str, int]]:
    """(line, original, mutated, nth) of each flip marked equivalent; nth 0: every such
    token of the line."""
    lines = source.splitlines()
    marked: set[tuple[int, str, str, int]] = set()
    pending: list[tuple[str, str, int]] = []
    for number, line in enumerate(lines, start=1):
        found = [(m[1], m[2], int(m[3] or 0)) for m in EQUIVALENT.finditer(line)]
        if line.lstrip().startswith("#"):
            pending += found
            continue
        marked.update((number, *flip) for flip in pending + found)
        pending = []
    return marked


def mutation_sites(package: Path, skip_equivalent: bool = True) -> list[SiteMutant]:
    """Every site a sampled mutant may flip, in file and line order, less those marked
    equivalent (unless ``skip_equivalent`` is False)."""
    sites = []
    for path in package_sources(package):
        if path.suffix != ".py":
            continue
        source = path.read_text("utf-8")
        inside = function_lines(source)
        if not inside:  # e.g. a generated table: nothing to draw, and slow to tokenize
            continue
        name = path.relative_to(package.parent).as_posix()
        marked = equivalent_flips(source) if skip_equivalent else set()
        seen: dict[tuple[int, str], int] = {}
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            mutated = flipped(token.type, token.string)
            line = token.start[0]
            if mutated is None or line not in inside:
                continue
            nth = seen[line, token.string] = seen.get((line, token.string), 0) + 1
            if {(line, token.string, mutated, 0), (line, token.string, mutated, nth)} & marked:
                continue
            sites.append(SiteMutant(name, *token.start, token.string, mutated))
    return sites


def excluded_sites(package: Path) -> int:
    """How many sites the equivalence markers keep out of the draw."""
    return len(mutation_sites(package, skip_equivalent=False)) - len(mutation_sites(package))


def sample_sites(package: Path, count: int, seed: int, sites: list[SiteMutant]) -> list[SiteMutant]:
    """``count`` of ``sites`` (mutation_sites(package)) drawn with ``seed`` (the same code
    and seed give the same sites) whose flip still compiles, in the draw's (shuffled)
    order, so a run cut short is still a fair sample of the whole package."""
    rng = random.Random(seed)
    chosen: list[SiteMutant] = []
    for site in rng.sample(sites, len(sites)):
        if len(chosen) == count:
            break
        original = (package.parent / site.path).read_text("utf-8")
        try:
            compile(flip(original, site), site.path, "exec", dont_inherit=True)
        except SyntaxError:
            continue
        chosen.append(site)
    return chosen


def flip(source: str, site: SiteMutant) -> str:
    lines = source.splitlines(keepends=True)
    line = lines[site.line - 1]
    end = site.column + len(site.original)
    if line[site.column : end] != site.original:
        raise SystemExit(f"{site.name}: the code changed under the mutant")
    lines[site.line - 1] = line[: site.column] + site.mutated + line[end:]
    return "".join(lines)


def apply_site(package: Path, site: SiteMutant) -> tuple[Path, str]:
    path = package.parent / site.path
    text = path.read_text("utf-8")
    path.write_text(flip(text, site), "utf-8")
    return path, text


def core_tests_pass(copy: Path) -> bool:
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)  # no example carried over
    done = subprocess.run(
        [sys.executable, *MUTATION_PYTEST], cwd=copy, capture_output=True, text=True
    )
    return done.returncode == 0


# The test folders of tests/core that exercise each folder of chunker_py, the folder's own
# first (modes' tests drive the engine, text and sizing through whole splits; the records'
# and the comparison's tests drive the pipeline).
RELATED: dict[str, tuple[str, ...]] = {
    "engine": ("engine", "modes", "pipeline"),
    "text": ("text", "sentences", "modes", "measures", "corpus"),  # corpus: front matter
    "tokenizers": ("tokenizers",),
    "sizing": ("modes", "pipeline", "tokenizers"),
    "modes": ("modes", "config"),
    "config": ("config", "modes"),
    "measures": ("measures", "evidence", "pipeline"),
    "pipeline": ("pipeline", "io", "measures", "modes"),
    "io": ("io", "corpus", "stream", "evidence", "cluster"),
    "embedding": ("embedding", "semantic", "evidence"),
}


def related_tests(site: SiteMutant) -> list[str]:
    """The test folders a mutant at ``site`` runs (all of tests/core for an unknown folder)."""
    folder = site.path.split("/")[1] if site.path.count("/") > 1 else ""
    return [f"tests/core/{name}" for name in RELATED.get(folder, ())] or ["tests/core"]


# A mutant can make a loop endless (e.g. a binary search whose bound no longer moves): its
# tests never end, which counts as killed once they have run this long (the slowest
# related folders take about 5 minutes on a loaded two-core machine), or once pytest has
# printed nothing for MUTANT_QUIET_S (-q prints a dot a test; no test of tests/core takes
# a minute on a loaded machine, so a silent one is a hang, found in minutes, not 20).
MUTANT_TIMEOUT_S = 20 * 60
MUTANT_QUIET_S = 4 * 60
TIMED_OUT = "(timed out)"


def watched(command: list[str], cwd: Path) -> tuple[int | None, str]:
    """Run ``command``; its exit status (None once it ran over MUTANT_TIMEOUT_S or printed
    nothing for MUTANT_QUIET_S, then it is killed) and its output, stderr included."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each dot as it is printed
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert process.stdout is not None
    output = bytearray()
    began = heard = time.monotonic()
    while True:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        now = time.monotonic()
        if ready:
            chunk = os.read(process.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            output += chunk
            heard = now
        elif now - heard > MUTANT_QUIET_S or now - began > MUTANT_TIMEOUT_S:
            process.kill()
            process.wait()
            process.stdout.close()
            return None, output.decode("utf-8", "replace")
    status = process.wait()
    process.stdout.close()
    return status, output.decode("utf-8", "replace")


def first_failure(copy: Path, tests: list[str]) -> str | None:
    """The id of the first of ``tests`` that fails in ``copy`` (-x), None if all pass, or
    TIMED_OUT when they run too long (see MUTANT_QUIET_S)."""
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)  # no example carried over
    command = [sys.executable, *MUTATION_PYTEST[:2], *tests, *MUTATION_PYTEST[3:], "-rfE"]
    status, output = watched(command, copy)
    if status is None:
        return TIMED_OUT
    if status == 0:
        return None
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" ", 1)[1].split(" - ")[0]
    return "(pytest: " + (output.strip().splitlines() or ["no output"])[-1] + ")"


def sampled_run(copy: Path, sites: list[SiteMutant]) -> list[str]:
    """Plant each of ``sites`` in ``copy`` in turn and run its related tests; return the
    survivors' names. Raises SystemExit when a killing test fails without the mutant too."""
    survivors = []
    for site in sites:
        began = time.monotonic()
        path, text = apply_site(copy / "chunker_py", site)
        try:
            failed = first_failure(copy, related_tests(site))
        finally:
            path.write_text(text, "utf-8")
        took = f"[{time.monotonic() - began:.0f} s]"
        if failed is None:
            survivors.append(site.name)
            print(f"SURVIVED  {site.name}  {took}", flush=True)
            continue
        if failed == TIMED_OUT:
            print(f"killed    {site.name}  (timed out: a hang) {took}", flush=True)
            continue
        if failed.startswith("(") or first_failure(copy, [failed]) is not None:
            raise SystemExit(f"{failed} fails without any mutant too: fix it first")
        print(f"killed    {site.name}  by {failed}  {took}", flush=True)
    return survivors


def repository_copy(folder: Path) -> Path:
    """The repository without what the core tests never read (they do read README.md,
    docs/, tests/data and static/sample.txt), plus the token tests' reference tokenizer, which
    the build extracts into .cache."""
    shutil.copytree(ROOT, folder, ignore=shutil.ignore_patterns(*MUTATION_SKIP), dirs_exist_ok=True)
    if TOKEN_REFERENCE.is_dir():
        shutil.copytree(TOKEN_REFERENCE, folder / TOKEN_REFERENCE.relative_to(ROOT))
    return folder


def mutate(names: list[str], sample: int = 0, seed: int = 0) -> int:
    """Plant each mutant in a temporary copy; a mutant is killed when a core test fails.
    With ``sample``, the mutants are that many sites drawn from the code with ``seed``
    (instead of MUTANTS); the survivors are listed at the end."""
    # what the core tests need on a fresh clone: the test tools and the reference
    # tokenizer.json that the build extracts into .cache (both kept when already there)
    run([sys.executable, "-m", "pip", "install", "--quiet", "-r", str(TEST_REQUIREMENTS)])
    ensure_token_data()
    with tempfile.TemporaryDirectory(prefix="chunker-mutants-") as folder:
        copy = repository_copy(Path(folder))
        package = copy / "chunker_py"
        planted: list[tuple[str, Callable[[], tuple[Path, str]]]]
        if sample:
            every = mutation_sites(package)
            sites = sample_sites(package, sample, seed, every)
            excluded = excluded_sites(package)
            log(f"{len(sites)} of {len(every)} sites, seed {seed} ({excluded} marked equivalent)")
            if names:  # e.g. one survivor again: mutate --sample 16 --seed 17 engine/index.py:102
                sites = [s for s in sites if any(n in s.name for n in names)]
            return report(len(sites), sampled_run(copy, sites))
        chosen = [m for m in MUTANTS if not names or any(n in m.name for n in names)]
        for mutant in chosen:  # every snippet is checked before anything runs
            path, text = apply_mutant(package, mutant)
            path.write_text(text, "utf-8")
        planted = [(m.name, functools.partial(apply_mutant, package, m)) for m in chosen]
        log("unmutated core tests in the copy (they must pass for a kill to mean anything)")
        if not core_tests_pass(copy):
            raise SystemExit("the core tests fail without any mutant: fix them first")
        survivors = []
        for name, plant in planted:
            path, text = plant()
            try:
                survived = core_tests_pass(copy)
            finally:
                path.write_text(text, "utf-8")
            if survived:
                survivors.append(name)
            print(f"{'SURVIVED' if survived else 'killed  '}  {name}", flush=True)
    return report(len(planted), survivors)


def report(planted: int, survivors: list[str]) -> int:
    killed = planted - len(survivors)
    print(f"kill rate: {killed}/{planted} ({killed / max(planted, 1):.0%})")
    for name in survivors:
        print(f"survivor: {name}")
    return 0 if not survivors else 1
