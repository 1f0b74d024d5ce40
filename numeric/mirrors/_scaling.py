"""The context-extension literature's numbers in every format (claims of `proofs/claims/_claims_scaling.py`).

Each quantity is the SymPy formula of `ropecheck.proofs.claims._scaling_formulas` (never restated), evaluated by
`sympy.lambdify` in JAX per dtype (inputs rounded into the dtype, every operation rounded in it) and in mpmath at
`MPMATH_DPS` digits (the ground truth). The error model: |computed − exact| ≤ γ_k·scale, k = 2 roundings per operation
(one for the operation, one for a library function within an ulp — `library_accuracy` measures cos/log/exp/pow on this
backend), scale = Σ|terms| of a top-level sum (else |value|) times the condition of a power's exponent. Then the
claim's own conclusion (a threshold, a rise, an agreement set) is recomputed in each format beside the
kernel-checked one: where a dtype's rounding changes the conclusion it is reported, never hidden.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import mpmath
import numpy as np
import sympy as sp

from ..reference import tolerances
from ..reference.tolerances import DTYPES, MPMATH_DPS
from ._jax import x64_enabled

__all__ = [
    "SCALING_MIRRORED",
    "evaluate_formula",
    "pi_b_minimum",
    "scaling_evidence",
    "xpos_fp16_limits",
    "yarn_gammas",
]

_JAX_DTYPES = {"float16": jnp.float16, "bfloat16": jnp.bfloat16, "float32": jnp.float32, "float64": jnp.float64}


def _formulas() -> Any:
    from ropecheck.proofs.claims import _scaling_formulas

    return _scaling_formulas


def evaluate_formula(expr: sp.Expr, inputs: dict[sp.Symbol, Sequence[float]], fmt: str) -> np.ndarray:
    """`expr` at every case of `inputs` in `fmt` (`mpmath`: 50 digits, returned as float64).

    **Arguments:**

    - `expr`: a formula of `_scaling_formulas`.
    - `inputs`: symbol → values (one batch length).
    - `fmt`: a dtype of `DTYPES` or `mpmath`.

    **Returns:** float64 values (inf/nan where the dtype leaves its range).
    """
    symbols = sorted(expr.free_symbols, key=lambda x: x.name)
    values = [np.asarray(inputs[x], dtype=np.float64) for x in symbols]
    cases = list(zip(*values, strict=True)) if values else [()]
    if fmt == "mpmath":
        function = sp.lambdify(symbols, expr, modules="mpmath")
        with mpmath.workdps(MPMATH_DPS):
            return np.array([float(function(*(mpmath.mpf(float(v)) for v in case))) for case in cases])
    function = sp.lambdify(symbols, expr, modules="jax")
    with x64_enabled(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an input beyond the dtype's range becomes inf, reported
        dtype = _JAX_DTYPES[fmt]
        result = function(*(jnp.asarray(v, dtype=dtype) for v in values)) if values else jnp.asarray([function()])
        return np.asarray(jnp.asarray(result, dtype=jnp.float64) if fmt != "float64" else result, dtype=np.float64)


def _operations(expr: sp.Expr) -> int:
    return int(sp.count_ops(expr, visual=False)) + 1


def _scale(expr: sp.Expr, inputs: dict[sp.Symbol, Sequence[float]], condition: float) -> np.ndarray:
    terms = expr.args if isinstance(expr, sp.Add) else (expr,)
    total = sum(np.abs(evaluate_formula(sp.sympify(t), inputs, "mpmath")) for t in terms)
    return np.asarray(total, dtype=np.float64) * condition


def _check(
    expr: sp.Expr,
    inputs: dict[sp.Symbol, Sequence[float]],
    fmt: str,
    condition: float = 1.0,
    known: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, tolerances.Check]:
    exact, scale = known if known is not None else (evaluate_formula(expr, inputs, "mpmath"), None)
    if fmt == "mpmath":
        return exact, tolerances.Check(0.0, 0.0, len(exact))
    computed = evaluate_formula(expr, inputs, fmt)
    scale = scale if scale is not None else _scale(expr, inputs, condition)
    bound = tolerances.gamma(2 * _operations(expr), fmt) * scale
    # an input beyond the format's range (10⁶ in float16) is no case of the error model: reported as out of range
    largest = tolerances.largest_finite(fmt)
    fits = np.ones(len(exact), dtype=bool)
    for values in inputs.values():
        fits &= np.abs(np.asarray(values, dtype=np.float64)) <= largest
    computed = np.where(fits, computed, np.nan)
    return computed, tolerances.Check.from_cases(
        np.abs(computed - exact)[fits], np.broadcast_to(bound, fits.shape)[fits]
    )


# ------------------------------------------------------------------------------------------------ per claim
def _scalar(claim_id: str, expr: sp.Expr, inputs: dict[sp.Symbol, Sequence[float]], expected: Any) -> dict:
    out: dict[str, Any] = {}
    known = (evaluate_formula(expr, inputs, "mpmath"), _scale(expr, inputs, 1.0))  # the truth, once for all formats
    for fmt in (*DTYPES, "mpmath"):
        values, check = _check(expr, inputs, fmt, known=known)
        out[fmt] = {"values": values.tolist(), **check.to_json(), "conclusion": expected(values)}
    return out


def yarn_gammas(fmt: str, pairs: int = 64, rope_base: float = 10000.0, length: float = 4096.0) -> dict[str, Any]:
    """YaRN's paper γ(r(i)) and the code's 1 − ramp(i) in `fmt` (YARN-RAMP-CODE at Llama 2's sizes, s = 16).

    **Returns:** `{"lo", "hi", "paper", "code", "agree"}`: the code's band edges as computed in `fmt`, both γ per pair
    and the pairs where they agree (to 1e-12 in mpmath/float64, to the format's γ bound otherwise).
    """
    f = _formulas()
    index = np.arange(pairs, dtype=np.float64)
    inputs = {
        f.pair: index,
        f.half: np.full(pairs, pairs),
        f.base: np.full(pairs, rope_base),
        f.length: np.full(pairs, length),
    }
    ratio = evaluate_formula(f.wavelength_ratio(), inputs, fmt)
    edges = {f.half: [pairs], f.base: [rope_base], f.length: [length]}
    low = max(0, math.floor(evaluate_formula(f.correction_dim(sp.Integer(32)), edges, fmt)[0]))
    high = min(2 * pairs - 1, math.ceil(evaluate_formula(f.correction_dim(sp.Integer(1)), edges, fmt)[0]))
    paper = np.clip((ratio - 1) / 31, 0, 1)
    code = 1 - np.clip((index - low) / (high - low), 0, 1)
    slack = 1e-12 if fmt in ("mpmath", "float64") else 64 * tolerances.unit_roundoff(fmt)
    agree = [int(i) for i in np.flatnonzero(np.abs(paper - code) <= slack)]
    return {"lo": low, "hi": high, "paper": paper.tolist(), "code": code.tolist(), "agree": agree}


def xpos_fp16_limits(fmt: str, limit: int | None = None) -> dict[str, int]:
    """The largest integer p whose query scale (2/7)^(p/512) stays ≥ the format's smallest normal, and whose key scale
    (2/7)^(−p/512) stays finite and ≤ its largest value, computed in `fmt` (XPOS-FP16-RANGE; exact in Coq for float16:
    3966 and 4532)."""
    f = _formulas()
    position = sp.Symbol("p")
    limit = limit if limit is not None else (5000 if fmt in ("float16", "mpmath") else 40000)
    positions = np.arange(limit + 1, dtype=np.float64)
    query = evaluate_formula(f.xpos_scale(position), {position: positions}, fmt)
    key = evaluate_formula(f.xpos_scale(-position), {position: positions}, fmt)
    target = "float16" if fmt == "mpmath" else fmt
    normal, largest = tolerances.smallest_normal(target), tolerances.largest_finite(target)
    return {
        "normal_until": int(np.flatnonzero(query >= normal).max()),
        "finite_until": int(np.flatnonzero(np.isfinite(key) & (key <= largest)).max()),
    }


def nope_first_collision(fmt: str, tokens: int = 1500) -> int | None:
    """The first token t whose read-out 1/(t+1), computed in `fmt`, equals token t+1's (None: all distinct up to
    `tokens`; NOPE-POSITION-READOUT — exact arithmetic never collides, proved in Coq)."""
    f = _formulas()
    token = sp.Symbol("t")
    values = evaluate_formula(f.nope_readout(token), {token: np.arange(tokens, dtype=np.float64)}, fmt)
    same = np.flatnonzero(values[:-1] == values[1:])
    return int(same[0]) if same.size else None


MEN_WINDOWS = {
    "integer": ((310000.0, 12218, 12226, 1), (640000.0, 27680, 27688, 1)),
    "real": ((310000.0, 12222.5, 12222.7, 0.01), (640000.0, 22465.45, 22465.65, 0.01)),
}
"""Reading → (base, first m, last m, step) per Table 2 entry: the windows around the sign changes MEN-TABLE2-D128
decides at d = 128: at integer m (the last positive and first negative integers) and at real m on a grid of
hundredths (Eq. 10's reading)."""


def men_first_negative(fmt: str, reading: str = "real") -> list[float | None]:
    """Per window of `MEN_WINDOWS[reading]`, the first grid point m whose B_{m,θ} = ½·2Σcos(mθᵢ) (d = 128)
    computed in `fmt` is negative (None: none in the window).

    **Arguments:** `fmt`: a dtype or `"mpmath"`; `reading`: `"real"` (m on a grid of hundredths) or `"integer"`.

    **Returns:** one m per Table 2 entry (16k, 32k). Coq (MEN-TABLE2-D128's correction): B(12222.63) < 0 and
    B(22465.55) < 0 (real), B(12223) < 0 and B(27685) < 0 (integer); one step earlier is B > 0 (its perturbations).
    """
    f = _formulas()
    found: list[float | None] = []
    for rope_base, first, last, step in MEN_WINDOWS[reading]:
        thetas = [f.frequency(sp.Integer(i), sp.Integer(64), sp.Float(rope_base)) for i in range(64)]
        positions = np.round(np.arange(round((last - first) / step) + 1) * step + first, 2)
        values = evaluate_formula(f.all_ones_score(thetas), {f.distance: positions}, fmt)
        negative = np.flatnonzero(values < 0)
        found.append(float(positions[negative[0]]) if negative.size else None)
    return found


PI_B_POSITIONS = 4096
"""PI-B-EXCEEDS-D's range: integer s ∈ [0, 4096), the positions of PI's plot (App. C.2)."""


@functools.cache
def pi_b_minimum(fmt: str) -> dict[str, Any]:
    """PI-B-EXCEEDS-D in `fmt`: B(s) = Σ_{k<64}|A_{k+1}(s)| (d = 128, c = 10⁴) for s < `PI_B_POSITIONS`, i.e. 64 × the
    ledger's program for RoFormer's relative bound (`_decay.roformer_bound_curve`, never restated), each value with
    the model's bound.

    **Arguments:** `fmt`: a dtype or `"mpmath"` (50 digits, bound 0).

    **Returns:** `{"minimum", "argmin", "certified_minimum", "conclusion", "ratio_minimum", "max_error", "bound",
    "ratio", "within"}`: the smallest B̂ and where; `certified_minimum` = min(B̂ − bound), so `conclusion` (B > d = 128
    at every s, as certified in this format) is False where the bound is too wide to tell as well as where B ≤ d;
    `ratio_minimum` = 16·min B̂/Σθ², the extrapolation bound over the interpolation bound that holds (Coq: > 564,
    and < 2·294.73 at s = 3643).
    """
    from ._decay import DIMENSION, _curve_bounds, _thetas, roformer_bound_curve

    half = DIMENSION // 2
    curve = roformer_bound_curve(fmt, PI_B_POSITIONS)
    values = half * np.asarray(curve["values"], dtype=np.float64)
    bounds = np.zeros_like(values) if fmt == "mpmath" else half * np.array(_curve_bounds(fmt, PI_B_POSITIONS))
    squares = float(evaluate_formula(_formulas().pi_midpoint_tight_bound(list(_thetas())), {}, "mpmath")[0]) * 8
    lowest = int(np.argmin(values))
    return {
        "minimum": float(values[lowest]),
        "argmin": lowest,
        "certified_minimum": float(np.min(values - bounds)),
        "conclusion": bool(np.min(values - bounds) > DIMENSION),
        "ratio_minimum": 16 * float(values[lowest]) / squares,
        "max_error": half * curve["max_deviation"],
        "bound": half * curve["bound"],
        "ratio": curve["ratio"],
        "within": curve["within"],
    }


QWEN_RATIOS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.5, 8.0, 16.0)
"""Length ratios l′/L at which QWEN-DYNAMIC-NTK's α is mirrored (powers of 2 included: the ceiling's edges)."""


def qwen_alphas(fmt: str) -> dict[str, Any]:
    """Qwen-1's α = max(2^⌈log₂x + 1⌉ − 1, 1) per ratio of `QWEN_RATIOS`, log₂ evaluated in `fmt`, and whether
    every α beyond L lies in the proved band [2x − 1, 4x − 1) above the paper's max(1, x)."""
    f = _formulas()
    ratio = sp.Symbol("x", positive=True)
    context = evaluate_formula(f.qwen_context_value(ratio), {ratio: QWEN_RATIOS}, fmt)
    alphas = [max(2.0 ** math.ceil(v) - 1, 1.0) for v in context]
    inside = all(2 * x - 1 <= a < 4 * x - 1 and a > x for x, a in zip(QWEN_RATIOS, alphas, strict=True) if x > 1)
    return {"alphas": alphas, "conclusion": inside}


@functools.cache
def scaling_evidence(claim_id: str) -> dict[str, Any]:
    """The claim's numbers per format: values, error against mpmath within the model's bound, and its conclusion.

    **Arguments:** `claim_id`: one of `SCALING_MIRRORED`.

    **Returns:** `{format: {"values", "max_error", "bound", "ratio", "cases", "conclusion"}}` (or the claim's own
    table for YARN-RAMP-CODE and XPOS-FP16-RANGE).
    """
    f = _formulas()
    if claim_id == "YARN-TEMPERATURE":
        return _scalar(claim_id, f.mscale() ** 2, {f.s: [16.0, 32.0], f.mu: [1.0, 1.0]}, lambda v: 1.631 < v[0] < 1.632)
    if claim_id == "DEEPSEEK-V2-MSCALE":
        return _scalar(claim_id, f.mscale() ** 2, {f.s: [40.0], f.mu: [0.707]}, lambda v: 1.589 < v[0] < 1.590)
    if claim_id == "DEEPSEEK-V3-MSCALE":
        return _scalar(claim_id, f.mscale() ** 2, {f.s: [40.0], f.mu: [1.0]}, lambda v: 1.873 < v[0] < 1.874)
    if claim_id == "LONGROPE-ATTENTION-SCALE":
        exact = math.sqrt(17 / 12)
        return _scalar(
            claim_id, f.longrope_factor(), {f.s: [32.0], f.length: [4096.0]}, lambda v: abs(v[0] - exact) < 1e-3
        )
    if claim_id == "CRITICAL-DIMENSION-LIU":
        bases = [10000.0, 500000.0, 1000000.0]
        inputs = {f.half: [64] * 3, f.base: bases, f.length: [4096.0] * 3}
        return _scalar(
            claim_id,
            f.correction_dim(sp.Integer(1)),
            inputs,
            lambda v: [2 * math.ceil(x) if math.isfinite(x) else None for x in v],
        )
    if claim_id == "XIONG-SCORE-DECAY":
        thetas = [f.frequency(sp.Integer(i), sp.Integer(64), sp.Integer(10000)) for i in range(64)]
        return _scalar(claim_id, f.all_ones_score(thetas), {f.distance: [11.0, 12.0]}, lambda v: bool(v[1] > v[0]))
    if claim_id == "PI-INTERPOLATION-BOUND":
        thetas = [f.frequency(sp.Integer(i), sp.Integer(64), sp.Integer(10000)) for i in range(64)]
        bound = float(f.pi_midpoint_bound(128, sp.Integer(10000)))
        tight = float(f.pi_midpoint_tight_bound(thetas))  # the proved correction: the error stays below it
        return _scalar(claim_id, f.pi_midpoint_error(thetas), {}, lambda v: bool(bound < v[0] <= tight))
    if claim_id == "NTK-OUT-OF-BOUND":
        index = list(range(1, 63))
        inputs = {f.pair: index, f.half: [64] * 62, f.base: [10000.0] * 62, f.s: [4.0] * 62}
        plain = evaluate_formula(f.frequency(), inputs, "mpmath")
        return _scalar(claim_id, f.ntk_frequency(), inputs, lambda v: int(np.sum((v > plain / 4) & (v < plain))))
    if claim_id == "YARN-RAMP-CODE":
        return {fmt: yarn_gammas(fmt) for fmt in (*DTYPES, "mpmath")}
    if claim_id == "NOPE-POSITION-READOUT":
        return {fmt: {"first_collision": nope_first_collision(fmt)} for fmt in (*DTYPES, "mpmath")}
    if claim_id == "MEN-TABLE2-D128":
        return {
            fmt: {reading: men_first_negative(fmt, reading) for reading in MEN_WINDOWS} for fmt in (*DTYPES, "mpmath")
        }
    if claim_id == "QWEN-DYNAMIC-NTK":
        return {fmt: qwen_alphas(fmt) for fmt in (*DTYPES, "mpmath")}
    if claim_id in ("PI-B-EXCEEDS-D", "PI-EXTRAPOLATION-RATIO"):
        return {fmt: pi_b_minimum(fmt) for fmt in (*DTYPES, "mpmath")}
    if claim_id == "XPOS-FP16-RANGE":
        return {fmt: xpos_fp16_limits(fmt) for fmt in (*DTYPES, "mpmath")}
    raise KeyError(f"{claim_id} has no numeric mirror (exact algebra or a list identity: not numerically tested)")


SCALING_MIRRORED = (
    "YARN-TEMPERATURE",
    "DEEPSEEK-V2-MSCALE",
    "DEEPSEEK-V3-MSCALE",
    "LONGROPE-ATTENTION-SCALE",
    "CRITICAL-DIMENSION-LIU",
    "XIONG-SCORE-DECAY",
    "PI-INTERPOLATION-BOUND",
    "NTK-OUT-OF-BOUND",
    "YARN-RAMP-CODE",
    "XPOS-FP16-RANGE",
    "NOPE-POSITION-READOUT",
    "QWEN-DYNAMIC-NTK",
    "MEN-TABLE2-D128",
    "PI-B-EXCEEDS-D",
    "PI-EXTRAPOLATION-RATIO",
)
"""The claims with numbers; the others are exact algebra, list or bucket identities (not numerically tested)."""
