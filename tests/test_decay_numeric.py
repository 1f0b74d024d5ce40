"""Decay, numerically: RoFormer's relative bound per dtype (d = 128, Δ = 0…256), the Abel bound on hypothesis-drawn
complex h in each dtype, and the long-range sum of cosines (ROPE-DECAY-TO-ZERO, SPE-DOT-AVERAGES-OUT)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ropecheck.numeric.mirrors import store_in
from ropecheck.numeric.mirrors._decay import (
    abel_bound_check,
    bound_trend,
    certify_cosine_sum,
    cosine_sum_statistics,
    curve_check,
    roformer_bound_curve,
    trend_of,
)

from ._tiers import examples

_WIDTH = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_roformer_bound_curve_within_model_in_each_dtype(dtype: str) -> None:
    curve = roformer_bound_curve(dtype)
    assert len(curve["values"]) == 257
    assert curve["within"], curve["ratio"]
    assert curve["max_deviation"] <= curve["bound"]


def test_roformer_bound_curve_matches_the_ledger_values() -> None:
    values = roformer_bound_curve("mpmath")["values"]
    assert values[0] == pytest.approx(130 / 4, abs=1e-12)  # B(0) = (d + 2)/4, the value the trend stays below
    assert values[19] > values[18]  # the certified non-monotone step
    assert max(values) == values[0]


def test_roformer_bound_meta_fails_when_the_curve_is_shifted() -> None:
    """The deviation check must notice a wrong curve: the float32 values one distance off."""
    exact = np.array(roformer_bound_curve("mpmath")["values"])
    shifted = np.array(roformer_bound_curve("float32")["values"])[1:]
    assert np.max(np.abs(shifted - exact[:-1])) > 100 * roformer_bound_curve("float32")["bound"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_roformer_bound_check_rejects_wrong_curves(dtype: str) -> None:
    """Issue 15: in bfloat16 the old bound (24–54, above the quantity's largest value 32.5) let a constant curve,
    an off-by-one Δ and a 0.9-scaled curve pass. Each must fail the per-distance check in every dtype."""
    values = np.array(roformer_bound_curve(dtype)["values"])
    assert curve_check(values, dtype).ok
    wrong = {
        "constant": np.full(values.size, values.mean()),
        "off-by-one distance": np.append(values[1:], values[-1]),
        "scaled by 0.9": 0.9 * values,
    }
    passed = [label for label, curve in wrong.items() if curve_check(curve, dtype).ok]
    assert not passed, passed


def test_bound_trend_holds_in_mpmath_with_the_ledger_numbers() -> None:
    """ROPE-DECAY-BOUND-MONOTONE's trend reading (Decay128Trend.v), numerically: the block maxima of the claim's
    reading and the distances where they fall (the kernel's witnesses for k < 7)."""
    trend = bound_trend("mpmath")
    assert trend["holds"] and trend["below_zero"], trend
    assert trend["argmax"] == [1, 2, 4, 8, 16, 32, 69, 183]
    assert trend["maxima"] == pytest.approx([31.538, 28.956, 22.604, 19.817, 15.775, 13.384, 11.872, 10.720], abs=1e-3)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_bound_trend_certified_in_float32_and_float64_only(dtype: str) -> None:
    """float32 and float64 certify every comparison within the model's bound; float16's bound (angles up to 255 rad
    formed in float16) is wider than the gaps from block 5 on, bfloat16's from block 0 on: not certifiable there."""
    trend = bound_trend(dtype)
    assert trend["holds"] is (dtype in ("float32", "float64")), trend
    if dtype == "float16":
        assert trend["decreasing"] == [True] * 5 + [False] * 2


def test_bound_trend_check_fails_on_wrong_curves() -> None:
    exact = np.array(roformer_bound_curve("mpmath")["values"])
    zero = np.zeros(exact.size)
    assert trend_of(exact, zero, 8)["holds"]
    raised = exact.copy()
    raised[183] += 1.2  # block 7's maximum above block 6's (11.87)
    assert trend_of(raised, zero, 8)["decreasing"] == [True] * 6 + [False]
    spike = exact.copy()
    spike[100] = exact[0]  # B(100) = B(0): not below distance 0
    assert not trend_of(spike, zero, 8)["below_zero"]
    assert not trend_of(exact, np.full(exact.size, 0.6), 8)["holds"]  # a bound wider than the 6 → 7 gap / 2


@pytest.mark.deep
def test_bound_trend_fails_on_the_block_after_the_figure() -> None:
    """Through k = 8 the reading fails: the block [256, 512) peaks at B(378) ≈ 11.19 > 10.72."""
    trend = bound_trend("mpmath", 9)
    assert trend["decreasing"] == [True] * 7 + [False] and trend["argmax"][8] == 378


def test_vacuous_bounds_are_reported() -> None:
    """Where the bound reaches the quantity's range the report says so (bfloat16 from Δ ≈ 188 on: angles of up to
    256 rad formed in bfloat16 are off by up to a radian); float32 and float16 stay far below the range."""
    bfloat16 = roformer_bound_curve("bfloat16")
    assert bfloat16["quantity_range"] == pytest.approx(32.5)
    assert bfloat16["vacuous"] and 100 < bfloat16["vacuous_from"] < 257
    for dtype in ("float16", "float32", "float64"):
        curve = roformer_bound_curve(dtype)
        assert not curve["vacuous"] and curve["largest_bound"] < curve["quantity_range"] / 4, curve["largest_bound"]


def _complex_weights(dtype: str) -> st.SearchStrategy[np.ndarray]:
    part = st.floats(-4, 4, width=_WIDTH[dtype], allow_subnormal=False, allow_nan=False, allow_infinity=False)
    return st.lists(st.tuples(part, part), min_size=64, max_size=64).map(
        lambda pairs: store_in(np.array([complex(a, b) for a, b in pairs]), dtype)
    )


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "mpmath"])
# each example evaluates a 64-term Abel sum and Σ|S_j| in the dtype: 4 drawn (and the pinned equal weights) in the
# default tier, 8 with --deep; test_abel_check_measures_lhs_minus_rhs pins the check failing on a wrong bound.
@settings(max_examples=examples(4, 8))
@given(data=st.data())
@example(data=None)
def test_abel_bound_holds_on_drawn_weights(dtype: str, data: st.DataObject | None) -> None:
    if data is None:  # pinned: all weights equal (the bound is then |h|·Σ|S_j|·… at its tightest), Δ = 256
        weights, distance = np.full(64, 1.0 + 0j), 256
    else:
        weights = data.draw(_complex_weights("float64" if dtype == "mpmath" else dtype))
        distance = data.draw(st.sampled_from([0, 1, 256, 257]) | st.integers(0, 2048))
    check = abel_bound_check(weights, distance, dtype)
    assert check.ok, check


def test_abel_check_measures_lhs_minus_rhs() -> None:
    """Equal weights at Δ = 0: |Σ hᵢ| = 64 and the bound is max|hᵢ₊₁ − hᵢ|·Σⱼ j = 1·2080 (h₆₄ = 0); a check that
    reports anything else (or that would pass 64 ≤ 0, the bound without the h_{d/2} = 0 term) is wrong."""
    check = abel_bound_check(np.full(64, 1.0 + 0j), 0, "float64")
    assert check.observed == pytest.approx(64 - 2080, abs=1e-9)
    assert check.ok
    assert not (64 - 0 <= check.bound)  # dropping the h_{d/2} = 0 term would make the rhs 0: the check must fail


def test_cosine_sum_running_mean_within_the_proved_bound() -> None:
    stats = cosine_sum_statistics(2**16)
    for row in stats["checkpoints"]:
        assert abs(row["running_mean"]) <= row["mean_bound"]
    assert stats["smallest_window_sum"] >= stats["window_sum_lower_bound"]
    assert stats["certified_far_value"]["within"]
    # The score keeps returning high: far out it is still a sizeable fraction of its peak 64.
    assert stats["checkpoints"][-1]["largest_far"] > 8


@pytest.mark.deep
def test_cosine_sum_out_to_a_million() -> None:
    stats = cosine_sum_statistics(10**6)
    assert stats["checkpoints"][-1]["N"] == 10**6
    for row in stats["checkpoints"]:
        assert abs(row["running_mean"]) <= row["mean_bound"]
    assert stats["smallest_window_sum"] >= stats["window_sum_lower_bound"]
    assert stats["certified_far_value"]["within"]
    assert stats["checkpoints"][-1]["largest_far"] > 8


def test_far_value_certification_is_sign_aware() -> None:
    """Issue 23, point 6: the far value was certified as ||f_mpmath| − |f̂||, so f̂ = +17.501 passed beside
    f_mpmath = −17.501. The check keeps the sign: the value passes, its negation fails."""
    stats = cosine_sum_statistics(2**12)
    last = stats["checkpoints"][-1]
    value, distance = last["largest_far_value"], last["largest_far_at"]
    assert abs(value) == last["largest_far"]
    assert certify_cosine_sum(distance, value)["within"]
    flipped = certify_cosine_sum(distance, -value)
    assert not flipped["within"] and flipped["error"] == pytest.approx(2 * abs(value), rel=1e-12)
    assert not certify_cosine_sum(distance, float("nan"))["within"]
