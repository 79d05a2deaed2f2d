"""An independent reference of Chroma's chunking_evaluation scores, for the tests.

Written from ``chunking_evaluation/evaluation_framework/base_evaluation.py``
(``_full_precision_score`` and ``_scores_from_dataset_and_retrievals``, with its
``union_ranges``, ``intersect_two_ranges`` and ``difference``), one question at a time and
without pandas. ``touching`` keeps Chroma's rule that a chunk ending where an excerpt starts
(an empty intersection) holds it; docs/decisions.md drops that, so the tests compare with
``touching=False`` and check that both agree where no chunk merely touches an excerpt.
"""

from __future__ import annotations

Range = tuple[int, int]


def sum_of_ranges(ranges: list[Range]) -> int:
    return sum(end - start for start, end in ranges)


def union_ranges(ranges: list[Range]) -> list[Range]:
    if not ranges:
        return []
    ordered = sorted(ranges, key=lambda x: x[0])
    merged = [ordered[0]]
    for start, end in ordered[1:]:
        last_start, last_end = merged[-1]
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged


def intersect_two_ranges(a: Range, b: Range, touching: bool) -> Range | None:
    start, end = max(a[0], b[0]), min(a[1], b[1])
    if start < end or (touching and start == end):
        return (start, end)
    return None


def difference(ranges: list[Range], target: Range) -> list[Range]:
    result = []
    t_start, t_end = target
    for start, end in ranges:
        if end < t_start or start > t_end:
            result.append((start, end))
        elif start < t_start and end > t_end:
            result.append((start, t_start))
            result.append((t_end, end))
        elif start < t_start:
            result.append((start, t_start))
        elif end > t_end:
            result.append((t_end, end))
    return result


def precision_omega(chunks: list[Range], refs: list[Range], touching: bool = False) -> float:
    """``_full_precision_score``'s ioc score for one question."""
    numerator: list[Range] = []
    denominator_chunks: list[Range] = []
    unused = list(refs)
    for chunk in chunks:
        for ref in refs:
            inter = intersect_two_ranges(chunk, ref, touching)
            if inter is not None:
                unused = difference(unused, inter)
                numerator = union_ranges([inter, *numerator])
                denominator_chunks = union_ranges([chunk, *denominator_chunks])
    denominator = union_ranges(denominator_chunks + unused)
    if numerator:
        return sum_of_ranges(numerator) / sum_of_ranges(denominator)
    return 0


def retrieval_scores(
    retrieved: list[Range], refs: list[Range], touching: bool = False
) -> tuple[float, float, float]:
    """``_scores_from_dataset_and_retrievals``'s (iou, recall, precision) for one question,
    ``retrieved`` being ``metadatas[:k]``."""
    numerator: list[Range] = []
    unused = list(refs)
    for chunk in retrieved:
        for ref in refs:
            inter = intersect_two_ranges(chunk, ref, touching)
            if inter is not None:
                unused = difference(unused, inter)
                numerator = union_ranges([inter, *numerator])
    value = sum_of_ranges(numerator) if numerator else 0
    recall = value / sum_of_ranges(refs)
    precision_den = sum_of_ranges(retrieved)
    return value / (precision_den + sum_of_ranges(unused)), recall, value / precision_den
