"""LangChain's thresholds in pure Python equal numpy's bit for bit (mean and sigma by numpy's
pairwise summation, its linear percentile, its gradient), on distances of the product's
four-decimal grid and on arbitrary floats, at the lengths where numpy's summation changes
its blocking (8, 128, 256)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py.embedding import thresholds

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.cpython_only  # the reference is numpy

grid = st.integers(0, 20_000).map(lambda k: round(k / 10_000, 4))
floats = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)
lengths = st.sampled_from([1, 2, 3, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 600])


@st.composite
def distance_lists(draw: st.DrawFn) -> list[float]:
    n = draw(st.one_of(lengths, st.integers(1, 40)))
    return draw(st.lists(st.one_of(grid, floats) if draw(st.booleans()) else grid,
                         min_size=n, max_size=n))  # fmt: skip


amount = st.one_of(st.sampled_from([0.0, 25.0, 50.0, 75.0, 95.0, 99.9, 100.0]),
                   st.floats(0, 100, allow_nan=False))  # fmt: skip


@given(values=distance_lists(), q=amount)
@example(values=[0.1] * 3, q=95.0)
def test_mean_std_and_percentile_are_numpys(values: list[float], q: float) -> None:
    a = np.array(values)
    assert thresholds.numpy_mean(values) == float(np.mean(a))
    assert thresholds.numpy_std(values) == float(np.std(a))
    assert thresholds.numpy_percentile(values, q) == float(np.percentile(a, q))


@given(values=distance_lists())
def test_gradient_is_numpys(values: list[float]) -> None:
    if len(values) < 2:
        return
    expected = np.gradient(values, range(0, len(values)))
    assert thresholds.numpy_gradient(values) == [float(x) for x in expected]


@given(values=distance_lists(), kind=st.sampled_from(sorted(thresholds.BREAKPOINT_TYPES)),
       q=st.floats(0, 5, allow_nan=False))  # fmt: skip
def test_thresholds_are_langchains_formulas(values: list[float], kind: str, q: float) -> None:
    if kind == "gradient" and len(values) < 2:
        return
    a = np.array(values)
    limit, _compared = thresholds.threshold(values, kind, q)
    expected = {
        "percentile": lambda: np.percentile(a, q),
        "standard-deviation": lambda: np.mean(a) + q * np.std(a),
        "interquartile": lambda: np.mean(a) + q * (np.subtract(*np.percentile(a, [75, 25]))),
        "gradient": lambda: np.percentile(np.gradient(a, range(0, len(a))), q),
    }[kind]()
    assert limit == float(expected)
