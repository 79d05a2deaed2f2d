"""The Dask path against local processes on the same corpus, same run.

Two generated corpora of the same bytes (real documents' paragraphs, shuffled): few large
files and ten times as many small ones. Each is cut by ``python -m chunker_py DIR`` (in
this process, output discarded) with ``--jobs 2`` (local processes) and with ``--dask``
on a ``LocalCluster`` of two single-thread worker processes, the runs interleaved; the
best of ``--rounds`` wall times is kept. Prints seconds and the ratio Dask / local per
corpus, and the Dask overhead per file (the difference over the file count): an overhead
per file, not per chunk, grows with the file count at equal bytes.

    python bench/bench_dask.py [--mb 4] [--files 24] [--rounds 2]
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_stream import generate  # noqa: E402
from distributed import LocalCluster  # noqa: E402

from chunker_py.io.cli import execute  # noqa: E402


def corpus(folder: Path, megabytes: int, files: int) -> Path:
    """``files`` files making ``megabytes`` MB together."""
    folder.mkdir(parents=True)
    whole = folder.parent / f"{folder.name}.all"
    generate(whole, megabytes)
    data = whole.read_bytes().decode("utf-8")
    whole.unlink()
    step = len(data) // files
    for i in range(files):
        (folder / f"doc{i:04}.txt").write_text(data[i * step : (i + 1) * step], encoding="utf-8")
    return folder


def timed(argv: list[str]) -> float:
    sink: list[str] = []
    started = time.perf_counter()
    status = execute(argv, lambda text: None, sink.append)
    seconds = time.perf_counter() - started
    assert status == 0, sink
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=4, help="each corpus's size (default 4)")
    parser.add_argument("--files", type=int, default=24, help="large files (default 24)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each case (default 2)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench_dask_"))
    counts = (args.files, args.files * 10)
    try:
        folders = {n: corpus(scratch / f"files{n}", args.mb, n) for n in counts}
        with LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as cluster:
            best: dict[tuple[int, str], float] = {}
            for _round in range(args.rounds):
                for n, folder in folders.items():
                    base = [str(folder), "--quiet", "--no-limits"]
                    for label, extra in (
                        ("local", ["--jobs", "2"]),
                        ("dask", ["--dask", cluster.scheduler_address]),
                    ):
                        seconds = timed(base + extra)
                        key = (n, label)
                        best[key] = min(best.get(key, seconds), seconds)
    finally:
        shutil.rmtree(scratch)
    print(f"Recursive 300/50, {args.mb} MB a corpus, best of {args.rounds}, wall time")
    for n in counts:
        local, dask = best[(n, "local")], best[(n, "dask")]
        print(
            f"{n:>5} files: --jobs 2 {local:6.2f} s  --dask (LocalCluster 2x1) {dask:6.2f} s  "
            f"dask / local {dask / local:.2f}x  overhead {(dask - local) / n * 1000:6.1f} ms a file"
        )


if __name__ == "__main__":
    main()
