"""Tokenizer benchmark: chunker_py's pure-Python tokenizers against CPython tiktoken.

Per encoding: the data file's bytes (raw and deflated, as in the wheel), the cold load
(first use in a fresh interpreter: rank file or vocabulary, tables, compiled pattern), and
the cost of counting a 20 000-code-point document cold (no piece cached), warm after a
one-character edit (the page's keystroke: pieces cached, the text itself new), and as 20
chunks of 1 000 code points of which one changed. tiktoken (Rust) does the same work in the
same run; ratios are ours / tiktoken (how many times slower).

    python bench/bench_tokens.py             CPython, with tiktoken for the ratios
    python bench/bench_tokens.py --pyodide   the same figures inside Pyodide under Node
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NAMES = ["cl100k_base", "o200k_base", "wordpiece", "words"]
DATA = {
    "cl100k_base": "cl100k_base.ranks",
    "o200k_base": "o200k_base.ranks",
    "wordpiece": "wordpiece_vocab.txt",
}
MIXED = (
    "日本語のテキストを分割します。ภาษาไทยไม่มีการเว้นวรรค नमस्ते दुनिया। "
    "مَرْحَبًا بِكُمْ 👩\u200d💻 Ünïcödé CAFÉ\r\n    return x\r\n"
)


def document(kind: str, code_points: int = 20_000) -> str:
    sample = (
        (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
        if kind == "english"
        else MIXED
    )
    return (sample * (code_points // len(sample) + 1))[:code_points]


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def cold_load_ms(name: str) -> float:
    """First use in a fresh interpreter (this one, when called from a new process)."""
    from chunker_py.tokenizers import get_tokenizer

    started = time.perf_counter()
    get_tokenizer(name).count("x")
    return (time.perf_counter() - started) * 1000


def fresh_copy(name: str) -> object:
    """The loaded tokenizer with its caches emptied (data stays loaded)."""
    from chunker_py.tokenizers import get_tokenizer

    tokenizer = get_tokenizer(name)
    tokenizer.count("x")
    tokenizer._counts = type(tokenizer._counts)(4096)
    for cache in ("_pieces", "_words"):
        if hasattr(tokenizer, cache):
            setattr(tokenizer, cache, {})
    return tokenizer


def recount_ms(name: str, text: str, repeat: int = 7) -> dict[str, float]:
    from chunker_py.tokenizers import get_tokenizer

    def cold() -> None:
        fresh_copy(name).count(text)  # type: ignore[attr-defined]

    tokenizer = get_tokenizer(name)
    tokenizer.count(text)
    edits = iter(range(10**9))

    def warm_edit() -> None:
        position = next(edits) % len(text)
        tokenizer.count(text[:position] + "x" + text[position + 1 :])

    chunks = [text[i : i + 1000] for i in range(0, len(text), 1000)]
    for chunk in chunks:
        tokenizer.count(chunk)

    def chunk_edit() -> None:
        changed = next(edits) % len(chunks)
        for index, chunk in enumerate(chunks):
            tokenizer.count(chunk if index != changed else chunk[:-1] + "y")

    return {
        "cold": median_ms(cold, repeat),
        "warm edit": median_ms(warm_edit, repeat),
        "chunks, one changed": median_ms(chunk_edit, repeat),
    }


def measure_ours() -> dict[str, dict[str, object]]:
    results: dict[str, dict[str, object]] = {}
    for name in NAMES:
        results[name] = {
            kind: recount_ms(name, document(kind)) for kind in ("english", "mixed scripts")
        }
    return results


def data_bytes() -> dict[str, tuple[int, int]]:
    folder = ROOT / "chunker_py" / "_data"
    out = {}
    for name, file_name in DATA.items():
        raw = (folder / file_name).read_bytes()
        out[name] = (len(raw), len(zlib.compress(raw, 6)))
    return out


def cold_loads(python: list[str]) -> dict[str, float]:
    """Each encoding's first use, each in a new process; median of 3."""
    code = "import sys, bench.bench_tokens as b; print(b.cold_load_ms(sys.argv[1]))"
    out = {}
    for name in NAMES:
        command = [*python, "-c", code, name]
        runs = [
            float(subprocess.run(command, cwd=ROOT, capture_output=True, text=True).stdout)
            for _ in range(3)
        ]
        out[name] = statistics.median(runs)
    return out


def tiktoken_figures() -> dict[str, dict[str, float]]:
    import tiktoken

    from tests.core.token_references import tiktoken_encoding

    out: dict[str, dict[str, float]] = {}
    for name in ("cl100k_base", "o200k_base"):
        encoding = tiktoken_encoding(name)
        started = time.perf_counter()
        rebuilt = tiktoken.Encoding(
            name=f"{name}-copy",
            pat_str=encoding._pat_str,
            mergeable_ranks=encoding._mergeable_ranks,
            special_tokens=encoding._special_tokens,
        )
        rebuilt.encode_ordinary("x")
        load = (time.perf_counter() - started) * 1000
        out[name] = {"load (ranks already in memory)": load}
        for kind in ("english", "mixed scripts"):
            text = document(kind)
            out[name][kind] = median_ms(partial(encoding.encode_ordinary, text), 7)
    return out


def report_cpython() -> None:
    ours = measure_ours()
    loads = cold_loads([sys.executable])
    reference = tiktoken_figures()
    sizes = data_bytes()
    print("CPython", sys.version.split()[0])
    for name in NAMES:
        size = sizes.get(name)
        size_text = f"{size[0]:,} B raw, {size[1]:,} B deflated" if size else "no data file"
        print(f"\n{name}: {size_text}; cold load {loads[name]:.0f} ms")
        for kind, figures in ours[name].items():
            assert isinstance(figures, dict)
            line = ", ".join(f"{k} {v:.2f} ms" for k, v in figures.items())
            if name in reference:
                ratio = figures["warm edit"] / reference[name][kind]
                line += f"; tiktoken {reference[name][kind]:.2f} ms (warm edit x{ratio:.1f})"
            print(f"  20k {kind}: {line}")
    for name, figures in reference.items():
        print(f"tiktoken {name} construction: {figures['load (ranks already in memory)']:.0f} ms")


# Runs bench_tokens.py itself inside Node's Pyodide (the vendored npm package).
NODE_RUNNER = ROOT / "bench" / "bench_tokens_runner.mjs"


def report_pyodide() -> None:
    done = subprocess.run(
        ["node", str(NODE_RUNNER), str(ROOT)], capture_output=True, text=True, check=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print("Pyodide under Node (cold loads: first use, in one interpreter, in NAMES order)")
    for name in NAMES:
        print(f"\n{name}: cold load {figures['loads'][name]:.0f} ms")
        for kind, values in figures["recount"][name].items():
            print(f"  20k {kind}: " + ", ".join(f"{k} {v:.2f} ms" for k, v in values.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyodide", action="store_true")
    args = parser.parse_args()
    if args.pyodide:
        report_pyodide()
    else:
        report_cpython()
    return 0


if __name__ == "__main__":
    sys.exit(main())
