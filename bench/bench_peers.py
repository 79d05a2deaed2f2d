"""Chunking libraries side by side: chunk_py's library against the peers an ingestion
pipeline would pick, on the same corpora, in the same run.

The job, for every library: cut each document of a corpus into chunks of at most 256
cl100k_base tokens (no overlap) and give each chunk its code-point offsets and its token
count. Measured: the CPU time (``time.process_time``) of that call alone, in a fresh process
per run, after the imports and the tokenizer tables are loaded and warmed on an unrelated
text (Python's own licence). Printed: the median over ``--runs`` runs (rounds interleave
the libraries, so a busy machine slows them alike), the chunk count, and ours divided by
each peer.

    chunker_py   analyse(text, Settings(chunk_size=256, chunk_overlap=0, size_unit="tokens"),
                 with_tradeoffs=False), then each span's offsets and ``.tokens``
    chonkie      Chonkie's RecursiveChunker(tokenizer=<tiktoken cl100k_base>, chunk_size=256):
                 its chunks carry offsets and token counts
    semchunk     semchunk.chunkerify(<tiktoken cl100k_base>, 256)(text, offsets=True), then
                 tiktoken counts each chunk
    text-splitter
                 semantic_text_splitter.TextSplitter.from_tiktoken_model("gpt-4", 256)
                 .chunk_indices(text) (Rust, its own cl100k_base), then tiktoken counts
    langchain    RecursiveCharacterTextSplitter.from_tiktoken_encoder("cl100k_base", 256, 0)
                 .split_text(text), offsets found as its add_start_index finds them, then
                 tiktoken counts

tiktoken reads cl100k_base from chunker_py's own rank file, written once into a cache
folder of the run in tiktoken's format (tiktoken checks OpenAI's sha256 of it), so the
benchmark runs offline. The peers are benchmark-only dependencies, pinned in
bench/requirements-peers.txt; a library that is not installed is skipped and named.

With ``--cli``, the command line too, on the same files and settings with every figure
its JSONL records carry (offsets, lines, tokens, damage, sentences): ``python -m
chunker_py --size-unit tokens --size 256 --overlap 0 --no-limits --jobs N`` (output to
/dev/null), with ``--jobs 1`` and ``--jobs 2``: the CPU of all its processes (start-up
included; the start-up alone is measured on a one-line file), its wall time, and the
speed-up of two jobs over one.

Corpora: each argument is a folder (its ``*.md`` and ``*.txt`` files) or a file; the
repository's own Markdown (every tracked ``*.md``) is always added as one more corpus
(``--no-repository``: left out).

    python bench/bench_peers.py /work/chroma-eval/data/corpora [--runs 5] [--cli]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZE = 256
ENCODING = "cl100k_base"

Cut = Callable[[str], tuple[list[tuple[int, int]], list[int]]]


# -- the workers: each builds its library's cut of one document ------------------------------


def chunker_py_cut() -> Cut:
    sys.path.insert(0, str(ROOT))
    from chunker_py import Settings, analyse

    settings = Settings(chunk_size=SIZE, chunk_overlap=0, size_unit="tokens", tokenizer=ENCODING)

    def cut(text: str) -> tuple[list[tuple[int, int]], list[int]]:
        result = analyse(
            text, settings, max_chunks=None, max_code_points=None, with_tradeoffs=False
        )
        return [(s.start, s.end) for s in result.spans], list(result.tokens)

    return cut


def _encoding() -> Any:
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def chonkie_cut() -> Cut:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=_encoding(), chunk_size=SIZE)

    def cut(text: str) -> tuple[list[tuple[int, int]], list[int]]:
        chunks = chunker.chunk(text)
        return [(c.start_index, c.end_index) for c in chunks], [c.token_count for c in chunks]

    return cut


def semchunk_cut() -> Cut:
    import semchunk

    encoding = _encoding()
    chunker = semchunk.chunkerify(encoding, SIZE)
    count = encoding.encode_ordinary

    def cut(text: str) -> tuple[list[tuple[int, int]], list[int]]:
        chunks, offsets = chunker(text, offsets=True)
        return list(offsets), [len(count(chunk)) for chunk in chunks]

    return cut


def text_splitter_cut() -> Cut:
    from semantic_text_splitter import TextSplitter

    splitter = TextSplitter.from_tiktoken_model("gpt-4", SIZE)  # cl100k_base
    count = _encoding().encode_ordinary

    def cut(text: str) -> tuple[list[tuple[int, int]], list[int]]:
        found = splitter.chunk_indices(text)
        return (
            [(start, start + len(chunk)) for start, chunk in found],
            [len(count(chunk)) for _start, chunk in found],
        )

    return cut


def langchain_cut() -> Cut:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=ENCODING, chunk_size=SIZE, chunk_overlap=0
    )
    count = _encoding().encode_ordinary

    def cut(text: str) -> tuple[list[tuple[int, int]], list[int]]:
        offsets, tokens = [], []
        index = 0
        for chunk in splitter.split_text(text):
            start = text.find(chunk, index)  # as TextSplitter.create_documents' start index
            offsets.append((start, start + len(chunk)))
            tokens.append(len(count(chunk)))
            index = start + 1
        return offsets, tokens

    return cut


LIBRARIES: dict[str, tuple[str, Callable[[], Cut]]] = {
    "chunker_py": ("chunker_py analyse + .tokens", chunker_py_cut),
    "chonkie": ("Chonkie RecursiveChunker", chonkie_cut),
    "semchunk": ("semchunk + tiktoken counts", semchunk_cut),
    "text-splitter": ("text-splitter (Rust) + tiktoken counts", text_splitter_cut),
    "langchain": ("LangChain from_tiktoken_encoder + tiktoken counts", langchain_cut),
}
PACKAGES = {
    "chonkie": "chonkie",
    "semchunk": "semchunk",
    "text-splitter": "semantic_text_splitter",
    "langchain": "langchain_text_splitters",
}


def warm_text() -> str:
    """Unrelated prose to warm every library's tables and caches on: Python's licence."""
    licence = Path(os.__file__).parent / "LICENSE.txt"
    if licence.is_file():
        return licence.read_text(encoding="utf-8")
    return Path(argparse.__file__).read_text(encoding="utf-8")


def worker(library: str, files: list[str]) -> None:
    """One run: build, warm, cut every file, print the figures as one JSON line."""
    texts = [Path(f).read_text(encoding="utf-8") for f in files]
    cut = LIBRARIES[library][1]()
    cut(warm_text())
    begin = time.process_time()
    results = [cut(text) for text in texts]
    cpu = time.process_time() - begin
    chunks = sum(len(offsets) for offsets, _tokens in results)
    bad = sum(
        1
        for text, (offsets, _tokens) in zip(texts, results, strict=True)
        for start, end in offsets
        if not 0 <= start < end <= len(text)
    )
    tokens = [t for _offsets, counts in results for t in counts]
    print(
        json.dumps(
            {
                "cpu": cpu,
                "chunks": chunks,
                "bad_offsets": bad,
                "largest": max(tokens),
                "over_size": sum(t > SIZE for t in tokens),
            }
        )
    )


# -- the driver ------------------------------------------------------------------------------


def tiktoken_cache(folder: Path) -> Path:
    """A tiktoken cache folder holding cl100k_base's rank file, made from chunker_py's.

    tiktoken keeps a downloaded rank file under the sha1 of its address and checks its
    sha256 when it reads it; both come from ``tiktoken_ext.openai_public``, asked for
    cl100k_base with its loader replaced by one that only notes them."""
    sys.path.insert(0, str(ROOT))
    from tiktoken_ext import openai_public

    from chunker_py.tokenizers.data import decode_ranks, read_data

    asked: dict[str, str] = {}

    def note(blobpath: str, expected_hash: str) -> dict[bytes, int]:
        asked.update(address=blobpath, digest=expected_hash)
        return {}

    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = note
    try:
        getattr(openai_public, ENCODING)()
    finally:
        openai_public.load_tiktoken_bpe = original
    ranks = decode_ranks(read_data(f"{ENCODING}.ranks", ENCODING))
    lines = sorted(ranks.items(), key=lambda item: item[1])
    data = b"".join(base64.b64encode(token) + b" %d\n" % rank for token, rank in lines)
    if hashlib.sha256(data).hexdigest() != asked["digest"]:
        raise SystemExit("chunker_py's cl100k_base ranks are not OpenAI's rank file")
    (folder / hashlib.sha1(asked["address"].encode()).hexdigest()).write_bytes(data)
    return folder


def corpus_files(argument: str) -> list[str]:
    path = Path(argument)
    if path.is_dir():
        return sorted(str(p) for p in path.iterdir() if p.suffix in (".md", ".txt"))
    return [str(path)]


def repository_markdown() -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.md"], capture_output=True, text=True, check=True
    ).stdout.split()
    return [str(ROOT / name) for name in listed if (ROOT / name).is_file()]


def installed(library: str) -> bool:
    if library not in PACKAGES:
        return True
    check = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({PACKAGES[library]!r}) is None)"  # noqa: E501
    return subprocess.run([sys.executable, "-c", check], check=False).returncode == 0


def run(library: str, files: list[str], env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", library, *files],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{library} failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


CLI_PROBE = (
    "import resource, subprocess, sys, time\n"
    "t0 = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
    "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(time.perf_counter() - t0, use.ru_utime + use.ru_stime)\n"
)


def run_cli(files: list[str], jobs: int, env: dict[str, str]) -> dict[str, Any]:
    """Wall and CPU seconds (all its processes) of one command line run."""
    command = [sys.executable, "-m", "chunker_py", *files, "--no-limits", "--quiet"]
    command += ["--size-unit", "tokens", "--size", str(SIZE), "--overlap", "0"]
    command += ["--tokenizer", ENCODING, "--jobs", str(jobs)]
    done = subprocess.run(
        [sys.executable, "-c", CLI_PROBE, *command],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    wall, cpu = map(float, done.stdout.split())
    return {"wall": wall, "cpu": cpu}


def report_cli(
    figures: dict[str, list[dict[str, Any]]], cli: dict[str, list[dict[str, Any]]]
) -> None:
    library = statistics.median(r["cpu"] for r in figures["chunker_py"])
    start = statistics.median(r["cpu"] for r in cli["start-up"])
    print("\n| command line (JSONL, every figure) | CPU (median) | CPU - start-up "
          "| / library call | wall (median) |")  # fmt: skip
    print("|---|---|---|---|---|")
    for key, runs in cli.items():
        cpu = statistics.median(r["cpu"] for r in runs)
        wall = statistics.median(r["wall"] for r in runs)
        net = cpu - start if key != "start-up" else cpu
        print(f"| {key} | {cpu:.3f} s | {net:.3f} s | {net / library:.2f} | {wall:.3f} s |")
    one = [r["wall"] for r in cli["--jobs 1"]]
    two = [r["wall"] for r in cli["--jobs 2"]]
    speedups = sorted(a / b for a, b in zip(one, two, strict=True))
    print(f"\n--jobs 2 over --jobs 1 (wall, per round): median "
          f"{statistics.median(speedups):.2f}x, {speedups[0]:.2f}-{speedups[-1]:.2f}x")  # fmt: skip


def report(name: str, files: list[str], figures: dict[str, list[dict[str, Any]]]) -> None:
    code_points = sum(len(Path(f).read_text(encoding="utf-8")) for f in files)
    print(f"\n## {name}: {len(files)} files, {code_points:,} code points")
    ours = statistics.median(r["cpu"] for r in figures["chunker_py"])
    print("| library | CPU (median) | runs | chunks | largest | ours / it |")
    print("|---|---|---|---|---|---|")
    for library, runs in figures.items():
        cpus = sorted(r["cpu"] for r in runs)
        median = statistics.median(cpus)
        last = runs[-1]
        flags = f" ({last['bad_offsets']} bad offsets)" if last["bad_offsets"] else ""
        print(
            f"| {LIBRARIES[library][0]} | {median:.3f} s | {cpus[0]:.3f}-{cpus[-1]:.3f} "
            f"| {last['chunks']:,}{flags} | {last['largest']} | {ours / median:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", help="folders (their *.md, *.txt) or files")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per library")
    parser.add_argument("--no-repository", action="store_true", help="leave out the repo's .md")
    parser.add_argument("--only", nargs="+", choices=list(LIBRARIES), help="these libraries")
    parser.add_argument("--cli", action="store_true", help="the command line too, jobs 1 and 2")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.corpora)
        return
    corpora = [(c, corpus_files(c)) for c in args.corpora]
    if not args.no_repository:
        corpora.append(("the repository's Markdown", repository_markdown()))
    libraries = [lib for lib in (args.only or LIBRARIES) if installed(lib)]
    missing = [lib for lib in (args.only or LIBRARIES) if lib not in libraries]
    if missing:
        wanted = "pip install -r bench/requirements-peers.txt"
        print(f"not installed, skipped: {', '.join(missing)} ({wanted})")
    if "chunker_py" not in libraries:
        libraries.insert(0, "chunker_py")
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, TIKTOKEN_CACHE_DIR=str(tiktoken_cache(Path(folder))))
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        python = sys.version.split()[0]
        print(f"{when}, load {os.getloadavg()[0]:.2f}, Python {python}, {args.runs} runs")
        one_line = Path(folder) / "one-line.txt"
        one_line.write_text("A short text.\n", encoding="utf-8")
        for name, files in corpora:
            figures: dict[str, list[dict[str, Any]]] = {lib: [] for lib in libraries}
            cli: dict[str, list[dict[str, Any]]] = {"start-up": [], "--jobs 1": [], "--jobs 2": []}
            for round_ in range(args.runs):
                order = libraries[round_ % len(libraries) :] + libraries[: round_ % len(libraries)]
                for library in order:
                    figures[library].append(run(library, files, env))
                if args.cli:
                    cli["start-up"].append(run_cli([str(one_line)], 1, env))
                    cli["--jobs 1"].append(run_cli(files, 1, env))
                    cli["--jobs 2"].append(run_cli(files, 2, env))
            report(name, files, figures)
            if args.cli:
                report_cli(figures, cli)
        print(f"\nload at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
