"""Corpus benchmark: JSONL throughput of Recursive 300/50 on a folder of real and
generated text, against LangChain's ``split_text`` on the same files, in the same run.

Prints, as medians of interleaved rounds:
- LangChain ``RecursiveCharacterTextSplitter(300, 50).split_text`` over every file (read +
  split, one process): the reference;
- chunker_py's per-file function (``io.corpus.cut``, JSONL with offsets, tokens and damage)
  over the same files in this process, and its ratio to the reference;
- the command line with ``--jobs 1`` and ``--jobs 2`` (stdout to /dev/null), the speed-up
  of 2 over 1, and peak resident memory for the corpus and for twice as many files;
- with tiktoken installed, ``--jobs 1 --tiktoken`` too (the same output), and a second
  reference: ``split_text`` with each chunk's tokens counted by tiktoken (what LangChain
  needs for one of the figures a record carries), with both ratios.

- the start-up alone (the command line on one 14-byte file), and the speed-up it leaves
  possible on two cores;
- with ``--baseline TREE`` (another checkout, e.g. ``git worktree add /tmp/old main``), that
  tree's command line with ``--jobs 1`` and ``--jobs 2`` in the same rounds, and the ratios
  of this tree's CPU and wall time to its.

The command line loads its modules from a bytecode cache in a folder of the run, as an
installed copy does (``--no-bytecode``: compiled in every run, as a checkout run with
PYTHONDONTWRITEBYTECODE=1 does).

    python bench/bench_corpus.py [--quick] [--files N] [--rounds R] [--unique] [--no-bytecode]
                                 [--baseline TREE]
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langchain_text_splitters import RecursiveCharacterTextSplitter  # noqa: E402

from chunker_py import Settings  # noqa: E402
from chunker_py.io.corpus import Output, Task, cut  # noqa: E402

logging.disable(logging.WARNING)

REAL = [
    ROOT / "bench" / "data" / "README-6f5a5e5.md",
    ROOT / "CHANGELOG.md",
    ROOT / "static" / "sample.txt",
    *sorted((ROOT / "tests" / "data").glob("*.md")),
    *sorted((ROOT / "tests" / "data").glob("*.txt")),
    *sorted((ROOT / "docs").glob("*.md")),
]


def write_corpus(folder: Path, files: int, size: int, seed: int = 0, unique: bool = False) -> int:
    """``files`` documents: the real ones as they are, then generated ones of about
    ``size`` code points, made of shuffled real paragraphs (``unique``: each with its words
    shuffled too, so chunks, and their token counts, do not repeat). Returns the bytes
    written."""
    rng = random.Random(seed)
    real = [p for p in REAL if p.is_file()]
    paragraphs = [
        p for path in real for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()
    ]
    total = 0
    for n in range(files):
        if n < len(real):
            data = real[n].read_bytes()
            name = f"real/{n:03d}-{real[n].name}"
        else:
            parts: list[str] = []
            while sum(map(len, parts)) < size:
                paragraph = rng.choice(paragraphs)
                if unique:
                    words = paragraph.split(" ")
                    rng.shuffle(words)
                    paragraph = " ".join(words)
                parts.append(paragraph)
            data = "\n\n".join(parts).encode()
            name = f"generated/{n // 10:02d}/doc{n:04d}.md"
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        total += len(data)
    return total


def corpus_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def langchain(files: list[Path]) -> int:
    splitter = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50)
    return sum(len(splitter.split_text(p.read_text(encoding="utf-8"))) for p in files)


def langchain_tokens(files: list[Path], count: Callable[[str], int]) -> int:
    """``split_text``, then each chunk's tokens counted by ``count`` (tiktoken's, native,
    cl100k_base, no cache): the least LangChain does to give its chunks one figure our
    records carry (no offsets, no damage, no JSON)."""
    splitter = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50)
    return sum(
        count(chunk) for p in files for chunk in splitter.split_text(p.read_text(encoding="utf-8"))
    )


def ours(files: list[Path]) -> int:
    output = Output("jsonl", lifted=True)
    settings = Settings(chunk_size=300, chunk_overlap=50)
    total = 0
    for p in files:
        done = cut(Task(str(p), settings.replace(source_name=p.name)), output)
        assert done.error is None, done.error
        total += done.text.count("\n")
    return total


def timed(fn: object, *args: object) -> tuple[float, float]:
    """Wall and CPU seconds of ``fn(*args)`` in this process."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.perf_counter() - t0, time.process_time() - c0


# How the command line's modules load: from bytecode cached in a folder of the run (as an
# installed package loads them: pip compiles them at install), unless --no-bytecode asks
# for a fresh compile of every module in each run (PYTHONDONTWRITEBYTECODE set and no
# cache: about 0.2 s of CPU per run on this machine, all of it before any file is cut).
ENV: dict[str, str] = {}


def cli_env(cache: Path | None, root: Path = ROOT) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def cli(
    folder: Path, jobs: int, *extra: str, root: Path = ROOT, env: dict[str, str] | None = None
) -> tuple[float, float, int]:
    """Wall time, CPU time (all its processes) and peak resident memory (KB, the largest
    process) of one CLI run (of the tree at ``root``)."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t0 = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(time.perf_counter() - t0, use.ru_utime + use.ru_stime, use.ru_maxrss)\n"
    )
    command = [sys.executable, "-m", "chunker_py", str(folder), "--no-limits", "--quiet"]
    command += ["--size", "300", "--overlap", "50", "--jobs", str(jobs), *extra]
    done = subprocess.run(
        [sys.executable, "-c", probe, *command],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env=ENV if env is None else env,
    )
    seconds, cpu, rss = done.stdout.split()
    return float(seconds), float(cpu), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small corpus, 2 rounds")
    parser.add_argument("--files", type=int, default=80)
    parser.add_argument("--size", type=int, default=60_000, help="generated file size")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--unique", action="store_true", help="shuffle each generated paragraph's words too"
    )
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="the command line compiles its modules in every run (no bytecode cache)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="TREE",
        help="another checkout whose command line runs in the same rounds (old vs new)",
    )
    args = parser.parse_args()
    files, size, rounds = args.files, args.size, args.rounds
    if args.quick:
        files, size, rounds = 30, 20_000, 2
    with tempfile.TemporaryDirectory() as tmp:
        folder, double = Path(tmp) / "corpus", Path(tmp) / "double"
        total = write_corpus(folder, files, size, unique=args.unique)
        write_corpus(double, 2 * files, size, unique=args.unique)
        tiny = Path(tmp) / "tiny"
        tiny.mkdir()
        (tiny / "one.md").write_text("One sentence.\n", encoding="utf-8")
        ENV.update(cli_env(None if args.no_bytecode else Path(tmp) / "bytecode"))
        cli(tiny, 1)  # writes the bytecode cache (unless --no-bytecode)
        base = args.baseline.resolve() if args.baseline else None
        base_env = {}
        if base is not None:
            base_env = cli_env(None if args.no_bytecode else Path(tmp) / "base-bytecode", base)
            cli(tiny, 1, root=base, env=base_env)
        paths = corpus_files(folder)
        print(
            f"corpus: {len(paths)} files, {total / 1e6:.1f} MB ({os.cpu_count()} cores, "
            f"load average at the start {os.getloadavg()[0]:.1f})"
        )
        chunks = ours(paths)  # warm: token data loaded, code compiled
        assert langchain(paths) > 0
        native = importlib.util.find_spec("tiktoken") is not None  # --tiktoken's rows
        sides: tuple[tuple[str, Callable[[list[Path]], int]], ...] = (
            ("lc", langchain),
            ("ours", ours),
        )
        if native:
            from chunker_py.tokenizers.native import NativeBpeTokenizer

            counted = partial(langchain_tokens, count=NativeBpeTokenizer("cl100k_base")._count)
            assert counted(paths) > 0
            sides += (("lct", counted),)
        keys = ("lc", "ours", "j1", "j2", "start", *(("j1t", "lct") if native else ()))
        keys += ("b1", "b2") if base is not None else ()
        wall: dict[str, list[float]] = {k: [] for k in keys}
        cpu: dict[str, list[float]] = {k: [] for k in wall}
        rss: dict[str, int] = {}
        for _ in range(rounds):  # interleaved, so a busy machine slows every side alike
            for key, fn in sides:
                seconds, used = timed(fn, paths)
                wall[key].append(seconds)
                cpu[key].append(used)
            for jobs in (1, 2):
                seconds, used, peak = cli(folder, jobs)
                wall[f"j{jobs}"].append(seconds)
                cpu[f"j{jobs}"].append(used)
                rss[f"j{jobs}"] = max(rss.get(f"j{jobs}", 0), peak)
                if base is not None:  # the baseline tree right after, under the same load
                    seconds, used, _peak = cli(folder, jobs, root=base, env=base_env)
                    wall[f"b{jobs}"].append(seconds)
                    cpu[f"b{jobs}"].append(used)
            seconds, used, _peak = cli(tiny, 1)  # start-up: one 14-byte file
            wall["start"].append(seconds)
            cpu["start"].append(used)
            if native:
                seconds, used, _peak = cli(folder, 1, "--tiktoken")
                wall["j1t"].append(seconds)
                cpu["j1t"].append(used)
        rss["double"] = cli(double, 1)[2]
        w = {k: statistics.median(v) for k, v in wall.items()}
        c = {k: statistics.median(v) for k, v in cpu.items()}
        mb = total / 1e6
        print(f"chunks: {chunks:,} (Recursive 300/50, JSONL with offsets, tokens, damage)")
        print(f"{'':<40} {'wall':>8} {'CPU':>8} {'MB/s of CPU':>12}")
        for label, key in (
            ("LangChain split_text (1 process)", "lc"),
            ("split_text + tiktoken counts (1 process)", "lct"),
            ("chunker_py io.corpus.cut (1 process)", "ours"),
            ("python -m chunker_py --jobs 1", "j1"),
            ("python -m chunker_py --jobs 2", "j2"),
            ("python -m chunker_py --jobs 1 --tiktoken", "j1t"),
            ("start-up: --jobs 1 on one 14-byte file", "start"),
            ("baseline tree --jobs 1", "b1"),
            ("baseline tree --jobs 2", "b2"),
        ):
            if key not in c:
                continue
            rate = f"{mb / c[key]:12.2f}" if key != "start" else f"{'':>12}"
            print(f"{label:<40} {w[key]:7.2f}s {c[key]:7.2f}s {rate}")
        print(f"ours / LangChain, CPU per core:   {c['ours'] / c['lc']:.2f}x")
        print(f"--jobs 1 / LangChain, CPU:        {c['j1'] / c['lc']:.2f}x")
        if native:
            print(f"--tiktoken / LangChain, CPU:      {c['j1t'] / c['lc']:.2f}x")
            print(f"split_text + tiktoken counts / split_text, CPU: {c['lct'] / c['lc']:.2f}x "
                  f"(--jobs 1 / it: {c['j1'] / c['lct']:.2f}x)")  # fmt: skip
        print(f"--jobs 2 over --jobs 1, wall:     {w['j1'] / w['j2']:.2f}x speed-up "
              f"(CPU {c['j2'] / c['j1']:.2f}x; needs 2 idle cores to mean anything)")  # fmt: skip
        # Amdahl, in CPU (a one-process run's wall time on an idle core): the start-up
        # runs once whatever --jobs is, the rest could halve
        bound = c["j1"] / (c["start"] + (c["j1"] - c["start"]) / 2)
        loaded = "compiled each run" if args.no_bytecode else "from bytecode"
        print(
            f"  (start-up {c['start']:.2f}s of --jobs 1's {c['j1']:.2f}s CPU: at most "
            f"{bound:.2f}x on 2 idle cores; modules {loaded})"
        )
        if base is not None:
            print(f"baseline: {base}")
            print(f"--jobs 1 / LangChain, CPU, baseline: {c['b1'] / c['lc']:.2f}x")
            print(f"--jobs 2 over --jobs 1, wall, baseline: {w['b1'] / w['b2']:.2f}x "
                  f"(CPU {c['b2'] / c['b1']:.2f}x)")  # fmt: skip
            print(f"this tree / baseline, CPU: --jobs 1 {c['j1'] / c['b1']:.3f}x, "
                  f"--jobs 2 {c['j2'] / c['b2']:.3f}x")  # fmt: skip
            # per round: j1 and b1 ran back to back, so their ratio shares that round's load
            paired = [n / b for n, b in zip(wall["j1"], wall["j2"], strict=True)]
            paired_base = [n / b for n, b in zip(wall["b1"], wall["b2"], strict=True)]
            print("--jobs 2 speed-up per round, this tree: "
                  + " ".join(f"{x:.2f}" for x in paired)
                  + "; baseline: " + " ".join(f"{x:.2f}" for x in paired_base))  # fmt: skip
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        print(
            f"peak RSS --jobs 1: {rss['j1'] / 1024:.0f} MB for {len(paths)} files, "
            f"{rss['double'] / 1024:.0f} MB for {2 * len(paths)}; --jobs 2 largest process "
            f"{rss['j2'] / 1024:.0f} MB"
        )


if __name__ == "__main__":
    main()
