"""tokenizer.json benchmark: chunker_py's pure-Python reader against HF tokenizers (Rust).

Per family (the small tokenizers the tests train, and the real all-MiniLM-L6-v2 file):
the load (reading the JSON and building the model), the cold count of a 20 000-code-point
document (nothing cached), the warm recount after a one-character edit (the page's
keystroke: pieces and blocks cached, the text new) against the budget, the built-in
cl100k_base's and wordpiece's recount after the same keystrokes in the same run, and
counts per second over 1 000-code-point chunks, cold; with --pyodide also the longest
step of the stepped load (what typing waits for at most while a file loads).
`tokenizers` does the same work in the same run (``encode`` without special tokens);
ratios are ours / tokenizers. For the real BERT file, the built-in `wordpiece`
(same counts) is measured too; ratio file / built-in.

    python bench/bench_hf_tokenizer.py             CPython, with tokenizers for the ratios
    python bench/bench_hf_tokenizer.py --pyodide   our counts inside Pyodide under Node, with
                                                   tokenizers and our CPython path in the
                                                   same run (plus a 17 MB Unigram and an
                                                   18 MB byte-level BPE file)
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_tokens import document, median_ms  # noqa: E402
from chunker_py.tokenizers import get_tokenizer  # noqa: E402
from chunker_py.tokenizers.hf import load_tokenizer_json  # noqa: E402
from chunker_py.tokenizers.hf.tokenizer import load_in_steps  # noqa: E402

NODE_RUNNER = ROOT / "bench" / "bench_hf_runner.mjs"


def emptied(tokenizer: object) -> None:
    """Forget every cached count, block and piece (the data stays loaded)."""
    for lru in ("_counts", "_blocks"):
        counts = getattr(tokenizer, lru, None)
        if counts is not None:
            setattr(tokenizer, lru, type(counts)(counts.capacity))
    for owner in (tokenizer, getattr(tokenizer, "model", None)):
        for cache in ("_cache", "_pieces", "_words"):
            if owner is not None and isinstance(getattr(owner, cache, None), dict):
                getattr(owner, cache).clear()


def bench_text() -> str:
    return document("english", 10_000) + document("mixed", 10_000)


SPACED = (
    "Сегодня утром мы прочитали длинный документ о погоде в горах и решили идти дальше "  # noqa: RUF001
    "Σήμερα το πρωί διαβάσαμε ένα μεγάλο κείμενο για τον καιρό στα βουνά και συνεχίσαμε"  # noqa: RUF001
)
SPACED_WORDS = SPACED.split()


def spaced_text(code_points: int = 20_000) -> str:
    """A Cyrillic and Greek document (spaces between words, no ASCII), words shuffled."""
    words: list[str] = []
    k = 0
    while sum(map(len, words)) + len(words) < code_points:
        k += 1
        words.append(SPACED_WORDS[(k * 7919) % len(SPACED_WORDS)])
        if k % 13 == 0:
            words[-1] += "."
    return " ".join(words)[:code_points]


UNSPACED = (
    "今日は天気がいいので、公園に行きました。そこで友達に会って、一緒に昼ご飯を食べました！"  # noqa: RUF001
    "我们今天去公园散步，然后在湖边吃了午饭。天气很好，大家都很开心？"  # noqa: RUF001
    "東京の地下鉄は便利ですが、朝はとても混んでいます。"
)
UNSPACED_SENTENCES = [s for s in re.split(r"(?<=[。！？])", UNSPACED) if s]  # noqa: RUF001


def unspaced_text(code_points: int = 20_000) -> str:
    """A Japanese and Chinese document (no spaces at all), sentences shuffled."""
    out: list[str] = []
    k = 0
    while sum(map(len, out)) < code_points:
        k += 1
        out.append(UNSPACED_SENTENCES[(k * 7919) % len(UNSPACED_SENTENCES)])
    return "".join(out)[:code_points]


def our_figures(load: Callable[[], object], load_repeat: int = 3) -> dict[str, float]:
    """Load, cold 20k count, warm edit, cold 1k-chunk counts per second (no tokenizers:
    this also runs inside Pyodide)."""
    text = bench_text()
    chunks = [text[i : i + 1000] for i in range(0, len(text), 1000)]
    out: dict[str, float] = {"load": median_ms(load, load_repeat)}
    ours = load()

    def cold() -> None:
        emptied(ours)
        ours.count(text)  # type: ignore[attr-defined]

    out["cold 20k"] = median_ms(cold, 5)
    out["warm edit"] = warm_edit_ms(ours)
    out["warm spaced"] = warm_edit_ms(ours, spaced_text())
    out["warm cjk"] = warm_edit_ms(ours, unspaced_text())

    def chunk_counts() -> None:
        emptied(ours)
        for chunk in chunks:
            ours.count(chunk)  # type: ignore[attr-defined]

    out["chunks/s"] = len(chunks) / (median_ms(chunk_counts, 5) / 1000)
    return out


def warm_edit_ms(tokenizer: object, text: str = "") -> float:
    """The page's keystroke: the 20k document (``bench_text`` by default) counted, then 9
    one-character edits at the same positions for every tokenizer (median)."""
    text = text or bench_text()
    emptied(tokenizer)  # the same keystrokes may have been counted by an earlier call
    tokenizer.count(text)  # type: ignore[attr-defined]
    edits = iter(range(10**9))

    def warm_edit() -> None:
        position = (next(edits) * 7919) % len(text)
        tokenizer.count(text[:position] + "x" + text[position + 1 :])  # type: ignore[attr-defined]

    return median_ms(warm_edit, 9)


BUDGET = ("cl100k_base", "wordpiece")  # today's token figures: the built-ins' recount


def budget_ms() -> dict[str, float]:
    """The built-in tokenizers' recount after the same keystrokes (the budget)."""
    out = {name: warm_edit_ms(get_tokenizer(name)) for name in BUDGET}
    for name in BUDGET:
        out[f"{name} spaced"] = warm_edit_ms(get_tokenizer(name), spaced_text())
        out[f"{name} cjk"] = warm_edit_ms(get_tokenizer(name), unspaced_text())
    return out


def budget_line(budget: dict[str, float], digits: int) -> str:
    return ", ".join(
        f"{n} {budget[n]:.{digits}f} ms (Cyrillic/Greek {budget[n + ' spaced']:.{digits}f} ms, "
        f"CJK {budget[n + ' cjk']:.{digits}f} ms)"
        for n in BUDGET
    )


def longest_step_ms(data: bytes | str) -> float:
    """The longest stretch between two yields of the stepped load (the page's slices are
    these steps, so typing waits at most this long), with the collector as the page has
    it (app/inspector.py: frozen and disabled once the page has started; with it enabled,
    CPython's full collections add 25-75 ms pauses to a few steps of an 18 MB load)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        steps = load_in_steps(data, "x")
        longest = 0.0
        last = time.perf_counter()
        while True:
            try:
                next(steps)
            except StopIteration:
                break
            now = time.perf_counter()
            longest, last = max(longest, now - last), now
        return max(longest, time.perf_counter() - last) * 1000
    finally:
        gc.enable()
        gc.unfreeze()


def reference_figures(data: str, reference, load_repeat: int = 3) -> dict[str, float]:
    import tokenizers

    text = bench_text()
    chunks = [text[i : i + 1000] for i in range(0, len(text), 1000)]
    return {
        "load ref": median_ms(lambda: tokenizers.Tokenizer.from_str(data), load_repeat),
        "cold 20k ref": median_ms(lambda: reference.encode(text, add_special_tokens=False), 5),
        "chunks/s ref": len(chunks)
        / (
            median_ms(lambda: [reference.encode(c, add_special_tokens=False) for c in chunks], 5)
            / 1000
        ),
    }


def figures(data: str, reference, ours_factory: Callable[[], object]) -> dict[str, float]:
    cl100k = get_tokenizer("cl100k_base")
    budget = {
        "budget": warm_edit_ms(cl100k),
        "budget spaced": warm_edit_ms(cl100k, spaced_text()),
        "budget cjk": warm_edit_ms(cl100k, unspaced_text()),
    }
    return {**our_figures(ours_factory), **reference_figures(data, reference), **budget}


def report(name: str, f: dict[str, float]) -> None:
    load_ratio = f["load"] / f["load ref"]
    cold_ratio = f["cold 20k"] / f["cold 20k ref"]
    print(
        f"{name}:\n"
        f"  load {f['load']:.0f} ms (tokenizers {f['load ref']:.1f} ms, x{load_ratio:.1f})\n"
        f"  20k cold {f['cold 20k']:.1f} ms (tokenizers {f['cold 20k ref']:.2f} ms, "
        f"x{cold_ratio:.1f}); warm edit {f['warm edit']:.2f} ms "
        f"(x{f['warm edit'] / f['cold 20k ref']:.1f} tokenizers' full encode, "
        f"x{f['warm edit'] / f['budget']:.2f} cl100k_base's recount); Cyrillic/Greek warm "
        f"edit {f['warm spaced']:.2f} ms (x{f['warm spaced'] / f['budget spaced']:.2f} "
        f"cl100k_base's); CJK warm edit {f['warm cjk']:.2f} ms "
        f"(x{f['warm cjk'] / f['budget cjk']:.2f} cl100k_base's)\n"
        f"  1k chunks cold: {f['chunks/s']:.0f} counts/s (tokenizers {f['chunks/s ref']:.0f}/s, "
        f"x{f['chunks/s ref'] / f['chunks/s']:.1f} slower)"
    )


def pyodide_figures(folder: str) -> dict[str, dict[str, float]]:
    """Inside Pyodide: our figures for every tokenizer.json in ``folder``."""
    out = {}
    for path in sorted(Path(folder).glob("*.json")):
        data = path.read_bytes()
        repeat = 1 if len(data) > 5_000_000 else 3
        out[path.stem] = our_figures(lambda d=data: load_tokenizer_json(d, "x"), repeat)
        out[path.stem]["longest step"] = longest_step_ms(data)
    return {"budget": budget_ms(), **out}


def large_bpe_file(merges: int = 200_000) -> bytes:
    """A byte-level BPE tokenizer.json of Llama 3's scale (200 k merges, ~10 MB)."""
    from chunker_py.tokenizers.hf.pre_tokenizers import bytes_to_chars

    tokens = bytes_to_chars()
    vocab = {token: i for i, token in enumerate(tokens)}
    pairs: list[list[str]] = []
    k = 0
    while len(pairs) < merges:
        k += 1
        left, right = tokens[k * 7919 % len(tokens)], tokens[(k * 104729 + 1) % len(tokens)]
        joined = left + right
        if len(joined) > 12 or joined in vocab:
            continue
        vocab[joined] = len(tokens)
        tokens.append(joined)
        pairs.append([left, right])
    spec = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "vocab": vocab,
                  "merges": pairs, "ignore_merges": True},
    }  # fmt: skip
    return json.dumps(spec, indent=2, ensure_ascii=False).encode("utf-8")


def reference_files() -> dict[str, tuple[str, object]]:
    """Every benchmarked tokenizer.json: {name: (its text, the tokenizers reference)}."""
    import tokenizers

    from tests.core.token_references import TOKENIZER_JSON
    from tests.core.tokenizers.test_hf_tokenizer import FAMILIES, trained
    from tests.page.input.test_tokenizer_file import large_unigram_file

    files = {}
    for family in FAMILIES:
        reference, _ = trained(family)
        files[family] = (reference.to_str(), reference)
    for name, data in (
        ("all-MiniLM-L6-v2 (0.5 MB)", TOKENIZER_JSON.read_text("utf-8")),
        ("Unigram 250 k pieces (17 MB)", large_unigram_file().decode("utf-8")),
        ("byte-level BPE 200 k merges (18 MB)", large_bpe_file().decode("utf-8")),
    ):
        reference = tokenizers.Tokenizer.from_str(data)
        reference.no_padding()
        reference.no_truncation()
        files[name] = (data, reference)
    return files


def main_pyodide() -> int:
    import tokenizers

    files = reference_files()
    with tempfile.TemporaryDirectory() as folder:
        stems = {}
        for i, (name, (data, _)) in enumerate(files.items()):
            stems[f"{i:02d}"] = name
            Path(folder, f"{i:02d}.json").write_text(data, "utf-8")
        run = subprocess.run(
            ["node", str(NODE_RUNNER), str(ROOT), folder],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        pyodide = json.loads(run.stdout.strip().splitlines()[-1])
    print(
        f"Pyodide {pyodide.pop('version')} under Node vs CPython {sys.version.split()[0]} "
        f"(our reader, and tokenizers {tokenizers.__version__}), same run; ratios are "
        "Pyodide / the other"
    )
    budget, cpython_budget = pyodide.pop("budget"), budget_ms()
    print(
        "Recount budget (the built-ins' warm edit, same keystrokes): Pyodide "
        + budget_line(budget, 1)
        + "; CPython "
        + budget_line(cpython_budget, 2)
    )
    print(
        "| file | load: Pyodide / CPython ours / tokenizers (ms) | longest load step: Pyodide / "
        "CPython (ms) | 20k cold: Pyodide ms (x CPython ours, x tokenizers) | warm edit: "
        "Pyodide / CPython ms (x cl100k_base's, same run) | Cyrillic/Greek warm edit: Pyodide / "
        "CPython ms (x cl100k_base's) | CJK warm edit: Pyodide / CPython ms (x cl100k_base's) | "
        "1k chunks: Pyodide counts/s "
        "(CPython ours, tokenizers) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for stem, name in stems.items():
        data, reference = files[name]
        repeat = 1 if len(data) > 5_000_000 else 3
        ours = our_figures(lambda d=data: load_tokenizer_json(d, "x"), repeat)
        ref = reference_figures(data, reference, repeat)
        p = pyodide[stem]
        print(
            f"| {name} | {p['load']:.0f} / {ours['load']:.0f} / {ref['load ref']:.0f} | "
            f"{p['longest step']:.0f} / {longest_step_ms(data):.0f} | "
            f"{p['cold 20k']:.0f} (x{p['cold 20k'] / ours['cold 20k']:.1f}, "
            f"x{p['cold 20k'] / ref['cold 20k ref']:.1f}) | {p['warm edit']:.1f} / "
            f"{ours['warm edit']:.2f} (x{p['warm edit'] / budget['cl100k_base']:.2f}, "
            f"x{ours['warm edit'] / cpython_budget['cl100k_base']:.2f}) | "
            f"{p['warm spaced']:.1f} / {ours['warm spaced']:.2f} "
            f"(x{p['warm spaced'] / budget['cl100k_base spaced']:.2f}, "
            f"x{ours['warm spaced'] / cpython_budget['cl100k_base spaced']:.2f}) | "
            f"{p['warm cjk']:.1f} / {ours['warm cjk']:.2f} "
            f"(x{p['warm cjk'] / budget['cl100k_base cjk']:.2f}, "
            f"x{ours['warm cjk'] / cpython_budget['cl100k_base cjk']:.2f}) | "
            f"{p['chunks/s']:.0f} "
            f"({ours['chunks/s']:.0f}, {ref['chunks/s ref']:.0f}) |"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--pyodide",
        action="store_true",
        help="our counts inside Pyodide under Node, against tokenizers and our CPython path",
    )
    if parser.parse_args().pyodide:
        return main_pyodide()
    import tokenizers

    from tests.core.token_references import TOKENIZER_JSON
    from tests.core.tokenizers.test_hf_tokenizer import FAMILIES, trained

    print(f"CPython {sys.version.split()[0]}, tokenizers {tokenizers.__version__}")
    budget = budget_ms()
    print("Recount budget (the built-ins' warm edit, same keystrokes): " + budget_line(budget, 2))
    for family in FAMILIES:
        reference, _ = trained(family)
        data = reference.to_str()
        report(family, figures(data, reference, lambda d=data: load_tokenizer_json(d, "x")))
    data = TOKENIZER_JSON.read_text("utf-8")
    reference = tokenizers.Tokenizer.from_str(data)
    reference.no_padding()
    reference.no_truncation()
    real = figures(data, reference, lambda: load_tokenizer_json(data, "bert"))
    report(f"all-MiniLM-L6-v2 tokenizer.json ({len(data) / 1e6:.1f} MB)", real)
    built_in = get_tokenizer("wordpiece")
    text = bench_text()

    def cold() -> None:
        emptied(built_in)
        built_in.count(text)

    cold_ms = median_ms(cold, 5)
    print(
        f"  built-in wordpiece 20k cold {cold_ms:.1f} ms: the file's reader is "
        f"x{real['cold 20k'] / cold_ms:.2f} the built-in's time"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
