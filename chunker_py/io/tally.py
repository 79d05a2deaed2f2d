"""The corpus lines of ``--format summary`` and ``compare``: figures added up over the
files, per comparison row (``Tally``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..measures.model_window import KEY, PIECES_KEY

WINDOW_KEYS = (KEY, PIECES_KEY)

if TYPE_CHECKING:
    from ..measures.evidence import Evidence
    from .corpus import Done
    from .render import FileFigures


@dataclass
class Tally:
    """The corpus lines: per comparison row (or the one summary row), totals over files."""

    files: int = 0
    skipped: int = 0
    bytes: int = 0
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, done: Done) -> None:
        if done.error is not None:
            self.skipped += 1
            return
        self.files += 1
        self.bytes += done.size
        for f in done.figures:
            row = self.rows.setdefault(
                f.key,
                {"label": f.label, "chunks": 0, "measured": 0, "over_limit": 0,
                 "max_tokens": None, "damage": None, "files_without_damage": 0,
                 "evidence": None},
            )  # fmt: skip
            row["chunks"] += f.chunks
            row["over_limit"] += f.over_limit
            if f.max_tokens is not None:
                row["max_tokens"] = max(row["max_tokens"] or 0, f.max_tokens)
            if f.evidence is not None:  # every file's questions, as one question set
                known: Evidence | None = row["evidence"]
                results = known.results if known else ()
                row["evidence"] = replace(f.evidence, results=results + f.evidence.results)
            if f.damage is None:
                row["files_without_damage"] += 1
                continue
            row["measured"] += f.chunks
            totals = row["damage"] or dict.fromkeys(f.damage, 0)
            for key, value in f.damage.items():
                totals[key] = totals.get(key, 0) + value
            row["damage"] = totals

    def summary_line(self) -> dict[str, Any]:
        """``--format summary``'s corpus line."""
        row = self.rows.get("", {})
        damage = row.get("damage")
        return {
            "corpus": True,
            "files": self.files,
            "skipped": self.skipped,
            "bytes": self.bytes,
            "chunks": row.get("chunks", 0),
            "max_tokens": row.get("max_tokens"),
            "ends_mid_sentence_pct": _pct(damage, row.get("measured", 0)),
            "damage": damage,
            **_evidence(row.get("evidence")),
        }

    def compare_lines(self) -> list[dict[str, Any]]:
        """``--format compare``'s corpus lines, one per comparison row."""
        out = []
        for key, row in self.rows.items():
            damage = row["damage"] or {}
            out.append(
                {
                    "corpus": True,
                    "row": row["label"],
                    "key": key,
                    "files": self.files,
                    "skipped": self.skipped,
                    "chunks": row["chunks"],
                    "files_over_limit": row["over_limit"],
                    "max_tokens": row["max_tokens"],
                    "code_blocks_cut": damage.get("code_blocks_cut"),
                    "tables_cut": damage.get("tables_cut"),
                    "ends_mid_sentence": damage.get("ends_mid_sentence"),
                    "ends_mid_sentence_pct": _pct(row["damage"], row["measured"]),
                    "mid_word_edges": damage.get("mid_word_edges"),
                    "split_grapheme_edges": damage.get("split_grapheme_edges"),
                    "over_size": damage.get("over_size"),
                    # with dense or hybrid retrieval: the embedding model's window
                    **{k: damage[k] for k in WINDOW_KEYS if k in damage},
                    "files_without_figures": row["files_without_damage"],
                    **_evidence(row["evidence"]),
                }
            )
        return out


def set_compare_lines(files: Sequence[tuple[int, Sequence[FileFigures]]]) -> list[dict[str, Any]]:
    """``--format compare``'s corpus lines for files already compared: each file's size
    in bytes and its rows' figures (``render.row_figures``), in order (the page's
    comparison over its documents)."""
    from .corpus import Done

    tally = Tally()
    for size, figures in files:
        tally.add(Done("", "", size, None, tuple(figures)))
    return tally.compare_lines()


def _evidence(found: Evidence | None) -> dict[str, Any]:
    """The corpus line's ``evidence``: the check over every file's questions at once."""
    return {} if found is None else {"evidence": found.summary()}


def _pct(damage: Mapping[str, int] | None, chunks: int) -> float | None:
    """Chunks ending mid-sentence in % of the chunks measured (the files with damage
    figures), to one decimal place as the comparison rounds it."""
    if not damage or not chunks:
        return None
    return round(100 * damage["ends_mid_sentence"] / chunks, 1)
