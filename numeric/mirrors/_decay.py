"""Decay, numerically: RoFormer's relative upper bound per dtype, the Abel bound on drawn h, and the long-range
behaviour of the sum of cosines (claims ROPE-DECAY-BOUND, ROPE-DECAY-BOUND-MONOTONE, ROPE-DECAY-MONOTONE,
ROPE-DECAY-TO-ZERO, SPE-DOT-AVERAGES-OUT, SPE-DOT-NONMONOTONE).

Every formula is the ledger's own (`ropecheck.proofs.engine._formulas.roformer_relative_bound`, `cosine_sum`, the
Abel
instance
and the witnesses of `ropecheck.proofs.claims._claims_decay` / `_claims_sinusoidal`), compiled by
`ropecheck.numeric.mirrors`.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import sympy as sp

from ..reference import tolerances
from ..reference.tolerances import DTYPES
from ._bounds import run_bounds
from ._inputs import store_in
from ._jax import SMALL_BATCH, run_jax, run_jax_in_batches
from ._mpmath import run_mpmath
from ._program import Program, compile_program

__all__ = [
    "DIMENSION",
    "abel_bound_check",
    "bound_trend",
    "certify_cosine_sum",
    "cosine_sum_statistics",
    "curve_check",
    "decay_table",
    "roformer_bound_curve",
    "trend_of",
]

DIMENSION = 128
BASE = 10000
#: RoFormer Fig. 2 plots relative distances 0 … 256.
FIGURE_DISTANCES = 257
#: ROPE-DECAY-BOUND-MONOTONE's trend reading compares the blocks [2ᵏ, 2ᵏ⁺¹), k = 0 … 7 (Decay128Trend.v).
TREND_BLOCKS = 8
_distance = sp.Symbol("Delta", integer=True)


@functools.cache
def _thetas() -> tuple[sp.Expr, ...]:
    from ropecheck.proofs.engine._formulas import rope_frequencies

    return tuple(rope_frequencies(DIMENSION, BASE))


@functools.cache
def _bound_program() -> Program:
    from ropecheck.proofs.engine._formulas import roformer_relative_bound

    return compile_program([roformer_relative_bound(_distance, list(_thetas()))])


@functools.cache
def _cosine_program() -> Program:
    from ropecheck.proofs.engine._formulas import cosine_sum

    return compile_program([cosine_sum(_distance, list(_thetas()))])


def _float_thetas() -> np.ndarray:
    return np.array([float(t) for t in _thetas()])


@functools.cache
def _mpmath_curve(count: int) -> tuple[float, ...]:
    distances = {_distance: np.arange(count, dtype=np.float64)}
    return tuple(float(v) for v in run_mpmath(_bound_program(), distances)[0])


@functools.cache
def _curve_bounds(fmt: str, count: int) -> tuple[float, ...]:
    """The model's bound on B(Δ) computed in the format, node by node over the ledger's own program (sums
    accumulated pairwise in the dtype, as `run_jax` computes them)."""
    distances = {_distance: store_in(np.arange(count, dtype=np.float64), fmt)}
    ((_, bounds),) = run_bounds(_bound_program(), distances, fmt)
    return tuple(float(b) for b in bounds)


def curve_check(values: np.ndarray | list[float], fmt: str) -> tolerances.Check:
    """A computed decay curve B̂(0 … n − 1) against mpmath, case by case within the model's bound.

    **Arguments:**

    - `values`: the curve to check (a dtype's computation, or a wrong curve in the meta-tests).
    - `fmt`: the dtype whose bounds apply.

    **Returns:**

    A `tolerances.Check` (`ok` iff every |B̂(Δ) − B(Δ)| is within its bound).
    """
    values = np.asarray(values, dtype=np.float64)
    exact = np.array(_mpmath_curve(values.size))
    return tolerances.Check.from_cases(np.abs(values - exact), np.array(_curve_bounds(fmt, values.size)))


def roformer_bound_curve(fmt: str, count: int = FIGURE_DISTANCES) -> dict[str, Any]:
    """RoFormer's relative upper bound B(Δ) = (2/d)·Σⱼ|Sⱼ(Δ)| for d = 128, base 10000, Δ = 0 … count − 1.

    **Arguments:**

    - `fmt`: a dtype (the whole formula evaluated in it) or `"mpmath"`.
    - `count`: how many distances (257 as in RoFormer Fig. 2).

    **Returns:**

    `{"values": [...], "max_deviation", "bound", "ratio", "within", "largest_bound", "quantity_range",
    "vacuous"}`: the deviation from mpmath (50 digits) and the model's bound (`run_bounds` over the ledger's
    program) at the distance with the largest deviation/bound ratio; `largest_bound` against the quantity's
    range [0, (d + 2)/4]: where a bound is as wide as the range (`vacuous`, from the distance `vacuous_from` on)
    the format cannot certify the curve at all, and the report says so (for mpmath: values only, deviation 0).
    """
    exact = np.array(_mpmath_curve(count))
    if fmt == "mpmath":
        return {"values": exact.tolist(), "max_deviation": 0.0, "bound": 0.0, "ratio": 0.0, "within": True}
    distances = store_in(np.arange(count, dtype=np.float64), fmt)
    values = run_jax_in_batches(_bound_program(), {_distance: distances}, fmt, SMALL_BATCH)[0].real
    check = curve_check(values, fmt)
    bounds = np.array(_curve_bounds(fmt, count))
    largest_bound = float(bounds.max())
    quantity_range = float(exact.max())
    vacuous = np.nonzero(bounds >= quantity_range)[0]
    return {
        "values": values.tolist(),
        "max_deviation": float(np.abs(values - exact).max()),
        "bound": check.bound,
        "ratio": check.ratio,
        "within": check.ok,
        "largest_bound": largest_bound,
        "quantity_range": quantity_range,
        "vacuous": largest_bound >= quantity_range,
        "vacuous_from": int(vacuous[0]) if vacuous.size else None,
    }


def trend_of(values: np.ndarray | list[float], bounds: np.ndarray | list[float], blocks: int) -> dict[str, Any]:
    """ROPE-DECAY-BOUND-MONOTONE's trend reading on a curve B̂(0 …) whose values are each within `bounds` of B.

    **Arguments:**

    - `values`, `bounds`: B̂(Δ) and its error bound for Δ = 0 … 2^blocks − 1 at least.
    - `blocks`: how many blocks [2ᵏ, 2ᵏ⁺¹), k < `blocks`, the reading covers.

    **Returns:**

    `{"maxima", "argmax", "below_zero", "decreasing", "holds"}`: the block maxima of B̂ and where they are;
    `below_zero` — every B̂(Δ) + bound < B̂(0) − bound for 1 ≤ Δ < 2^blocks; `decreasing[k]` — block k + 1's
    largest B̂ + bound is below block k's largest B̂ − bound (so the true maxima decrease too); `holds` — all of it,
    as certified in this format (False where a bound is too wide to tell, as well as where the trend fails).
    """
    values, bounds = np.asarray(values, dtype=np.float64), np.asarray(bounds, dtype=np.float64)
    spans = [(2**k, 2 ** (k + 1)) for k in range(blocks)]
    lower = [float(np.max(values[a:b] - bounds[a:b])) for a, b in spans]
    upper = [float(np.max(values[a:b] + bounds[a:b])) for a, b in spans]
    end = spans[-1][1]
    below_zero = bool(np.all(values[1:end] + bounds[1:end] < values[0] - bounds[0]))
    decreasing = [upper[k + 1] < lower[k] for k in range(blocks - 1)]
    return {
        "maxima": [float(np.max(values[a:b])) for a, b in spans],
        "argmax": [int(a + np.argmax(values[a:b])) for a, b in spans],
        "below_zero": below_zero,
        "decreasing": decreasing,
        "holds": below_zero and all(decreasing),
    }


def bound_trend(fmt: str, blocks: int = TREND_BLOCKS) -> dict[str, Any]:
    """ROPE-DECAY-BOUND-MONOTONE's trend reading (d = 128, base 10000) evaluated in a format: the ledger's program
    for B over Δ = 0 … 2^blocks − 1, each value with the model's bound (`roformer_bound_curve`), through `trend_of`.

    **Arguments:**

    - `fmt`: a dtype or `"mpmath"` (50 digits, bound 0).
    - `blocks`: 8 is the ledger's statement (k = 0 … 7); 9 adds the block [256, 512), where B's maximum rises.

    **Returns:** `trend_of`'s dictionary, plus `format`.
    """
    count = max(2**blocks, FIGURE_DISTANCES)  # the figure's curve when it covers the blocks (shared caches)
    if fmt == "mpmath":
        values, bounds = np.array(_mpmath_curve(count)), np.zeros(count)
    else:
        values = np.array(roformer_bound_curve(fmt, count)["values"])
        bounds = np.array(_curve_bounds(fmt, count))
    return {"format": fmt, **trend_of(values, bounds, blocks)}


@functools.cache
def _abel_programs() -> tuple[Program, tuple[sp.Symbol, ...]]:
    from ropecheck.proofs.claims._claims_decay import _abel_instance

    instance = _abel_instance(DIMENSION // 2)
    weights = tuple(
        sorted(instance.lhs.free_symbols - {sp.Symbol("Delta", integer=True)}, key=lambda s: int(str(s)[1:]))
    )
    return compile_program([instance.lhs]), weights


def abel_bound_check(weights: np.ndarray, distance: int, fmt: str) -> tolerances.Check:
    """The Abel bound |Σᵢ hᵢe^{iΔθᵢ}| ≤ maxᵢ|hᵢ₊₁ − hᵢ|·Σⱼ|Sⱼ| (h_{d/2} = 0), computed in a format.

    The left side is the ledger's Abel instance (d = 128), the sum Σ|Sⱼ| is (d/2)·`roformer_relative_bound`.
    Both sides are computed in the format; the check passes when lhs ≤ rhs + slack, where the slack is the
    rounding bound of both sides from the model, so `observed` = lhs − rhs and `bound` = slack.

    **Arguments:**

    - `weights`: the d/2 = 64 complex hᵢ (already representable in the format).
    - `distance`: Δ.
    - `fmt`: a dtype or `"mpmath"`.

    **Returns:**

    A `tolerances.Check` (`ok` when the inequality holds up to rounding).
    """
    program, symbols = _abel_programs()
    inputs: dict[sp.Symbol, np.ndarray] = {s: np.array([complex(w)]) for s, w in zip(symbols, weights, strict=True)}
    inputs[_distance] = np.array([float(distance)])
    inputs = {s: store_in(v, fmt) for s, v in inputs.items()}
    sum_inputs = {_distance: inputs[_distance]}
    ((lhs_exact, lhs_error),) = run_bounds(program, inputs, fmt)
    ((sums_exact, sums_error),) = run_bounds(_bound_program(), sum_inputs, fmt)
    scale = DIMENSION / 2
    if fmt == "mpmath":
        lhs = float(abs(run_mpmath(program, inputs)[0][0]))
        sums = scale * float(run_mpmath(_bound_program(), sum_inputs)[0][0].real)
    else:
        lhs = float(np.abs(run_jax(program, inputs, fmt)[0][0]))
        sums = scale * float(run_jax(_bound_program(), sum_inputs, fmt)[0][0].real)
    extended = np.append(np.asarray(weights, dtype=np.complex128), 0)
    differences = store_in(np.diff(extended), fmt)
    largest = float(np.max(np.abs(differences)))
    u = tolerances.unit_roundoff(fmt) if fmt != "mpmath" else tolerances.mpmath_tolerance(50)
    largest_error = 4 * u * largest  # the difference rounds once, its modulus γ₃
    sums_bound = scale * float(sums_error[0])
    exact_sums = scale * float(sums_exact[0].real)
    perturbed = (largest + largest_error) * (exact_sums + sums_bound)
    rhs_error = perturbed - largest * exact_sums + u * perturbed
    rhs = largest * sums
    slack = float(lhs_error[0]) + rhs_error + 4 * u * float(np.abs(lhs_exact[0]))  # |·| of the complex lhs
    return tolerances.Check(observed=lhs - rhs, bound=slack)


def _statement_nodes(claim_id: str) -> list[Any]:
    """Every node of a claim's statement tree (parts, steps, base/step, refutations), breadth first, so the
    lookups below survive a reshaped tree."""
    from ropecheck.proofs import get_claim

    pending, nodes = [get_claim(claim_id).statement], []
    while pending:
        node = pending.pop(0)
        nodes.append(node)
        for field in ("parts", "steps"):
            pending += list(getattr(node, field, None) or [])
        for field in ("base", "step", "against"):
            child = getattr(node, field, None)
            if child is not None and not isinstance(child, sp.Basic):
                pending.append(child)
    return nodes


@functools.cache
def _averaging_constant() -> float:
    """C = Σᵢ 1/sin(ωᵢ/2) from the witnesses of SPE-DOT-AVERAGES-OUT: |running mean of N terms| ≤ C/N."""
    witnesses = [
        node.expr
        for node in _statement_nodes("SPE-DOT-AVERAGES-OUT")
        if hasattr(node, "point") and isinstance(getattr(node, "expr", None), sp.sin)
    ]
    if len(witnesses) != DIMENSION // 2:
        raise LookupError(f"SPE-DOT-AVERAGES-OUT: expected {DIMENSION // 2} sine witnesses, found {len(witnesses)}")
    return float(sum(1 / sp.N(w, 30) for w in witnesses))


@functools.cache
def _window_program() -> Program:
    """cos²Δ + cos²(Δ+1) + cos²(Δ+2): the closed-form step of ROPE-DECAY-TO-ZERO's refutation."""
    window = sum((sp.cos(_distance + k) ** 2 for k in range(3)), sp.Integer(0))
    for node in _statement_nodes("ROPE-DECAY-TO-ZERO"):
        if getattr(node, "lhs", None) == window:
            return compile_program([node.lhs])
    raise LookupError("ROPE-DECAY-TO-ZERO: no identity on cos²Δ + cos²(Δ+1) + cos²(Δ+2)")


def cosine_sum_statistics(max_distance: int = 10**6, chunk: int = 2**18, far_window: int = 4096) -> dict[str, Any]:
    """The sinusoidal dot product f(Δ) = Σᵢcos(ωᵢΔ) (d = 128, base 10000) over Δ = 0 … max_distance − 1, float64.

    Reports, at N = 10³, 10⁴, … up to `max_distance`: the running mean (1/N)Σ_{Δ<N} f(Δ) against the proved
    bound C/N (SPE-DOT-AVERAGES-OUT), the running mean square, and the largest |f| in the far window
    [max(N − `far_window`, N/2), N) (the score keeps returning high: ROPE-DECAY-TO-ZERO); and over all Δ the smallest
    window sum cos²Δ + cos²(Δ+1) + cos²(Δ+2) against the certified 3/4. The largest far value is certified by
    mpmath at 50 digits within the float64 bound.

    **Arguments:**

    - `max_distance`: the sweep length (≥ 10⁶ for the ledger table).
    - `chunk`: distances evaluated at once.
    - `far_window`: the width of the far window.

    **Returns:**

    A JSON-ready dict.
    """
    cosine, window = _cosine_program(), _window_program()
    checkpoints = sorted({10**k for k in range(3, 10) if 10**k <= max_distance} | {max_distance})
    total = total_square = 0.0
    smallest_window = math.inf
    rows: list[dict[str, Any]] = []
    far_best: tuple[float, int, float] = (-math.inf, 0, math.nan)  # (|f|, Δ, f): chosen by size, kept with its sign
    start = 0
    checkpoint_index = 0
    while start < max_distance:
        stop = min(start + chunk, max_distance, checkpoints[checkpoint_index])
        distances = np.arange(start, stop, dtype=np.float64)
        values = run_jax_in_batches(cosine, {_distance: distances}, "float64")[0].real
        windows = run_jax_in_batches(window, {sp.Symbol("Delta", integer=True): distances}, "float64")[0].real
        smallest_window = min(smallest_window, float(windows.min()))
        total += float(np.sum(values))
        total_square += float(np.sum(values * values))
        target = checkpoints[checkpoint_index]
        in_far = distances >= max(target - far_window, target // 2)
        if np.any(in_far):
            index = int(np.argmax(np.abs(values) * in_far))
            far_best = max(far_best, (float(abs(values[index])), int(distances[index]), float(values[index])))
        start = stop
        if stop == target:
            rows.append(
                {
                    "N": target,
                    "running_mean": total / target,
                    "mean_bound": _averaging_constant() / target,
                    "mean_square": total_square / target,
                    "largest_far": far_best[0],
                    "largest_far_at": far_best[1],
                    "largest_far_value": far_best[2],
                }
            )
            far_best = (-math.inf, 0, math.nan)
            checkpoint_index += 1
    certified = certify_cosine_sum(rows[-1]["largest_far_at"], rows[-1]["largest_far_value"])
    return {
        "d": DIMENSION,
        "base": BASE,
        "checkpoints": rows,
        "smallest_window_sum": smallest_window,
        "window_sum_lower_bound": 0.75,
        "certified_far_value": certified,
    }


def certify_cosine_sum(distance: int, value: float) -> dict[str, Any]:
    """A computed f(Δ) = Σᵢcos(ωᵢΔ) against mpmath (50 digits), signed: the error is |f_mpmath − f̂|, never
    ||f_mpmath| − |f̂||, so a value with the wrong sign fails (issue 23, point 6).

    **Arguments:**

    - `distance`: Δ.
    - `value`: the float64 value to certify, with its sign.

    **Returns:**

    `{"distance", "float64", "mpmath", "error", "bound", "within"}` (`within` iff error ≤ the float64 bound).
    """
    point = {_distance: np.array([float(distance)])}
    program = _cosine_program()
    exact = float(run_mpmath(program, point)[0][0].real)
    ((_, bound),) = run_bounds(program, point, "float64")
    error = abs(exact - value) if math.isfinite(value) else math.inf
    return {
        "distance": distance,
        "float64": value,
        "mpmath": exact,
        "error": error,
        "bound": float(bound[0]),
        "within": error <= float(bound[0]),
    }


def decay_table(max_distance: int = 10**6) -> dict[str, Any]:
    """The decay table of the ledger JSON.

    **Returns:**

    `{"roformer_bound": {"d", "base", "distances", "mpmath": [...], "<dtype>": {values, max_deviation, bound,
    ratio, within}}, "cosine_sum": cosine_sum_statistics(max_distance)}`.
    """
    curves: dict[str, Any] = {"d": DIMENSION, "base": BASE, "distances": list(range(FIGURE_DISTANCES))}
    curves["mpmath"] = roformer_bound_curve("mpmath")["values"]
    for dtype in DTYPES:
        curves[dtype] = roformer_bound_curve(dtype)
    return {"roformer_bound": curves, "cosine_sum": cosine_sum_statistics(max_distance)}
