"""Streamed documents: peak memory and throughput against the in-memory path, same run.

Writes generated text files (real documents' paragraphs — the user guide and three
READMEs — shuffled with a fixed seed, so no two buffers are alike), then cuts each in a
fresh child process, JSONL records to /dev/null, and reads the child's peak resident
memory (``ru_maxrss``):

- **stream**: ``chunker_py.io.stream.record_lines`` over the file opened in binary;
- **in memory**: the whole file decoded (``decode_document``), ``analyse`` and
  ``to_jsonl`` without limits, as ``python -m chunker_py --no-limits`` does.

Prints wall and CPU seconds (CPU time holds on a busy machine), MB/s of CPU time, peak MB
and the ratios: stream / in-memory throughput on the same file, and
the stream's peak at 100 MB (and 1 GB with ``--gigabyte``) over its peak on the small
file (flat = close to 1). Settings: Recursive 300/50 (the CLI's defaults).

    python bench/bench_stream.py [--gigabyte] [--small-mb 8] [--mb 100] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOURCES = (
    ROOT / "tests" / "data" / "user_guide.txt",
    ROOT / "bench" / "data" / "README-6f5a5e5.md",
    ROOT / "tests" / "data" / "markdown-it-py-README.md",
    ROOT / "tests" / "data" / "annotated-types-README.md",
)


def generate(path: Path, megabytes: int, seed: int = 23) -> None:
    """``megabytes`` MB of UTF-8: the sources' paragraphs in a seeded random order."""
    paragraphs = [
        p for source in SOURCES for p in source.read_text(encoding="utf-8").split("\n\n") if p
    ]
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    written = 0
    with path.open("wb") as out:
        while written < target:
            rng.shuffle(paragraphs)
            block = ("\n\n".join(paragraphs) + "\n\n").encode("utf-8")
            block = block[: target - written]
            out.write(block.decode("utf-8", "ignore").encode("utf-8"))  # whole code points
            written += len(block)


def child(kind: str, path: str) -> None:
    """Run one case in this process and print its figures as JSON."""
    from chunker_py import Settings, analyse, decode_document, to_jsonl
    from chunker_py.io.stream import record_lines

    settings = Settings()
    before = resource.getrusage(resource.RUSAGE_SELF)
    cpu_before = before.ru_utime + before.ru_stime  # the imports are not the run
    started = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        if kind == "stream":
            records = 0
            with open(path, "rb") as source:
                for text in record_lines(source, settings):  # as write_records, counted
                    sink.write(text.encode("utf-8"))
                    records += text.count("\n")  # one a record: JSON escapes line breaks
        else:
            data = Path(path).read_bytes()
            text = decode_document(data, max_bytes=None, max_code_points=None)
            del data
            result = analyse(text, settings, max_chunks=None, max_code_points=None)
            sink.write(to_jsonl(result).encode("utf-8"))
            records = result.count
    seconds = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    peak_mb = usage.ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb, "records": records}))


def run_case(kind: str, path: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(out.stdout)
    figures["mb"] = path.stat().st_size / 1_000_000
    return figures


def row(label: str, f: dict[str, float]) -> str:
    return (
        f"{label:<20} {f['mb']:>7.1f} MB {f['seconds']:>7.1f} s wall {f['cpu']:>7.1f} s CPU "
        f"{f['mb'] / f['cpu']:>6.2f} MB/s CPU  peak {f['peak_mb']:>6.1f} MB "
        f"{int(f['records']):>9,} records"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--small-mb", type=int, default=8, help="both paths (default 8)")
    parser.add_argument("--mb", type=int, default=100, help="stream only (default 100)")
    parser.add_argument("--gigabyte", action="store_true", help="also stream 1,000 MB")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench_stream_"))
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [args.small_mb, args.mb] + ([1000] if args.gigabyte else [])
    files = {}
    for mb in sizes:
        files[mb] = folder / f"generated-{mb}mb.txt"
        if not files[mb].exists():
            generate(files[mb], mb)
    try:
        small = files[args.small_mb]
        memory = run_case("memory", small)
        streamed = {mb: run_case("stream", path) for mb, path in files.items()}
    finally:
        if args.keep is None:
            for path in files.values():
                path.unlink()
            folder.rmdir()
    print("Recursive 300/50, JSONL to /dev/null, buffer 262,144 code points")
    print(row(f"in memory, {args.small_mb} MB", memory))
    for mb, figures in streamed.items():
        print(row(f"stream, {mb} MB", figures))
    base = streamed[args.small_mb]
    speed = (base["mb"] / base["cpu"]) / (memory["mb"] / memory["cpu"])
    print(f"throughput (CPU time) stream / in memory ({args.small_mb} MB): {speed:.2f}x")
    ratio = memory["peak_mb"] / base["peak_mb"]
    print(f"peak in memory / stream ({args.small_mb} MB): {ratio:.1f}x")
    for mb in sizes[1:]:
        flat = streamed[mb]["peak_mb"] / base["peak_mb"]
        print(f"stream peak {mb} MB / {args.small_mb} MB: {flat:.2f} (flat = 1.00)")


if __name__ == "__main__":
    main()
