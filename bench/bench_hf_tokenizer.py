"""tokenizer.json benchmark: chunker_py's pure-Python reader against HF tokenizers (Rust).

Per family (the small tokenizers the tests train, and the real all-MiniLM-L6-v2 file):
the load (reading the JSON and building the model), the cold count of a 20 000-code-point
document (nothing cached), the warm recount after a one-character edit (the page's
keystroke: pieces cached, the text new), and counts per second over 1 000-code-point
chunks, cold. `tokenizers` does the same work in the same run (``encode`` without special
tokens); ratios are ours / tokenizers. For the real BERT file, the built-in `wordpiece`
(same counts) is measured too; ratio file / built-in.

    python bench/bench_hf_tokenizer.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_tokens import document, median_ms  # noqa: E402
from chunker_py.tokenizers import get_tokenizer  # noqa: E402
from chunker_py.tokenizers.hf import load_tokenizer_json  # noqa: E402
from tests.core.tokenizers.test_hf_tokenizer import FAMILIES, trained  # noqa: E402
from tests.core.token_references import TOKENIZER_JSON  # noqa: E402


def emptied(tokenizer: object) -> None:
    """Forget every cached count and piece (the data stays loaded)."""
    counts = tokenizer._counts  # type: ignore[attr-defined]
    tokenizer._counts = type(counts)(counts.capacity)  # type: ignore[attr-defined]
    for owner in (tokenizer, getattr(tokenizer, "model", None)):
        for cache in ("_cache", "_pieces", "_words"):
            if owner is not None and isinstance(getattr(owner, cache, None), dict):
                getattr(owner, cache).clear()


def figures(data: str, reference, ours_factory: Callable[[], object]) -> dict[str, float]:
    import tokenizers

    text = document("english", 10_000) + document("mixed", 10_000)
    chunks = [text[i : i + 1000] for i in range(0, len(text), 1000)]
    out: dict[str, float] = {}
    out["load"] = median_ms(ours_factory, 3)
    out["load ref"] = median_ms(lambda: tokenizers.Tokenizer.from_str(data), 3)
    ours = ours_factory()

    def cold() -> None:
        emptied(ours)
        ours.count(text)  # type: ignore[attr-defined]

    out["cold 20k"] = median_ms(cold, 5)
    out["cold 20k ref"] = median_ms(lambda: reference.encode(text, add_special_tokens=False), 5)
    ours.count(text)  # type: ignore[attr-defined]
    edits = iter(range(10**9))

    def warm_edit() -> None:
        position = (next(edits) * 7919) % len(text)
        ours.count(text[:position] + "x" + text[position + 1 :])  # type: ignore[attr-defined]

    out["warm edit"] = median_ms(warm_edit, 5)

    def chunk_counts() -> None:
        emptied(ours)
        for chunk in chunks:
            ours.count(chunk)  # type: ignore[attr-defined]

    out["chunks/s"] = len(chunks) / (median_ms(chunk_counts, 5) / 1000)
    out["chunks/s ref"] = len(chunks) / (
        median_ms(lambda: [reference.encode(c, add_special_tokens=False) for c in chunks], 5) / 1000
    )
    return out


def report(name: str, f: dict[str, float]) -> None:
    load_ratio = f["load"] / f["load ref"]
    cold_ratio = f["cold 20k"] / f["cold 20k ref"]
    print(
        f"{name}:\n"
        f"  load {f['load']:.0f} ms (tokenizers {f['load ref']:.1f} ms, x{load_ratio:.1f})\n"
        f"  20k cold {f['cold 20k']:.1f} ms (tokenizers {f['cold 20k ref']:.2f} ms, "
        f"x{cold_ratio:.1f}); warm edit {f['warm edit']:.2f} ms "
        f"(x{f['warm edit'] / f['cold 20k ref']:.1f} tokenizers' full encode)\n"
        f"  1k chunks cold: {f['chunks/s']:.0f} counts/s (tokenizers {f['chunks/s ref']:.0f}/s, "
        f"x{f['chunks/s ref'] / f['chunks/s']:.1f} slower)"
    )


def main() -> int:
    import tokenizers

    print(f"CPython {sys.version.split()[0]}, tokenizers {tokenizers.__version__}")
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
    text = document("english", 10_000) + document("mixed", 10_000)

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
