"""Every tolerance in ropecheck, derived from one floating-point error model.

No other module may hold an ad-hoc tolerance constant: a check asks this module for the bound that fits the
computation it mirrors, and reports observed error, bound and their ratio (`Check`). A ratio far below 1 in every
case means the bound is loose for that computation; the reports say so rather than tightening by hand.

## The model

**Formats.** Each dtype rounds to nearest with unit roundoff u (half the spacing of the numbers just above 1):

| dtype | u | integers exact up to | largest finite |
| --- | --- | --- | --- |
| float16 | 2⁻¹¹ | 2048 | 65504 |
| bfloat16 | 2⁻⁸ | 256 | ≈ 3.39·10³⁸ |
| float32 | 2⁻²⁴ | 2²⁴ | ≈ 3.40·10³⁸ |
| float64 | 2⁻⁵³ | 2⁵³ | ≈ 1.80·10³⁰⁸ |

**One operation** (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §2.2):
fl(a ∘ b) = (a ∘ b)(1 + δ) + η with |δ| ≤ u and |η| ≤ half the smallest subnormal (η only for products and
quotients; additions are exact in the subnormal range). Results beyond the largest finite number overflow; every
bound then becomes `inf` (no claim is made).

**Chains of operations.** n roundings compound to at most γ_n = n·u/(1 − n·u) (Higham Lemma 3.1), so
recursive summation of n terms is off by at most γ_(n−1)·Σ|terms| and a dot product of length n by at most
γ_n·Σ|xᵢ·yᵢ| (Higham §3.1, any summation order). γ_n is infinite once n·u ≥ 1 (a bfloat16 sum of 256 terms
already carries no guarantee).

**Elementary functions.** cos, sin and exp are taken to be within `TRIGONOMETRIC_ERROR_UNITS` (resp.
`EXPONENTIAL_ERROR_UNITS`) units u of the exact value: absolute for cos and sin (values in [−1, 1]), relative
for exp. Two units cover any implementation that is within one ulp; NumPy and XLA on CPU measure at about one
unit for float32/float64 and at half a unit for float16/bfloat16 (evaluated in float32, then rounded once).

**RoPE angles.** An angle formed in dtype T as fl(fl(m)·fl(θ)) is off by about u_T·|m·θ|: one rounding for
the product, one for θ itself, and one more for the position m once it exceeds T's exact-integer limit (2049
is already 2048 in float16). An angle error Δφ moves cos and sin by at most Δφ each, so a 2×2 rotation of a pair
(x₁, x₂) is off per coordinate by (|x₁| + |x₂|)·(Δφ + cos/sin error + cast of cos/sin to the data dtype), plus
the multiply-add, γ₂ in the data dtype.

**Ground truth.** mpmath at ≥ 50 digits, or the fast reference (`numeric._reference`) within
`REFERENCE_ANGLE_ABS_ERROR` of it; mpmath checks themselves use `mpmath_tolerance(dps)`, which follows the
working precision.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "DTYPES",
    "EXPONENTIAL_ERROR_UNITS",
    "FORMATS",
    "MPMATH_DPS",
    "MPMATH_GUARD_DIGITS",
    "REFERENCE_ANGLE_ABS_ERROR",
    "REFERENCE_COS_SIN_ABS_ERROR",
    "TRIGONOMETRIC_ERROR_UNITS",
    "Check",
    "add_error",
    "angle_error_bound",
    "dot_product_bound",
    "exact_integer_limit",
    "exp_error",
    "expression_bound",
    "format_gamma",
    "format_unit_roundoff",
    "gamma",
    "largest_finite",
    "largest_integer_where",
    "largest_position_within",
    "modulus_error",
    "mpmath_tolerance",
    "mul_error",
    "partial_sums_modulus_bound",
    "power_error",
    "reciprocal_error",
    "relative_score_bound",
    "rephased_score_bound",
    "rotation_output_bound",
    "sine_error",
    "softmax_row_bound",
    "sqrt_error",
    "summation_bound",
    "trig_error",
    "trigonometric_error",
    "underflow_error",
    "unit_roundoff",
]

DTYPES = ("float16", "bfloat16", "float32", "float64")

#: Absolute error of one cos or sin evaluation, in units u of the dtype it is evaluated in.
TRIGONOMETRIC_ERROR_UNITS = 2
#: Relative error of one exp evaluation, in units u of the dtype it is evaluated in.
EXPONENTIAL_ERROR_UNITS = 2
#: The fast reference's target: |angles_mod_2pi − exact p·θ mod 2π| (validated against mpmath in the tests).
REFERENCE_ANGLE_ABS_ERROR = 1e-25
#: The float64 cos/sin of `reference_cos_sin`: the library's cos/sin of the leading limb, plus one rounding of
#: the first-order correction by the trailing limb.
REFERENCE_COS_SIN_ABS_ERROR = (TRIGONOMETRIC_ERROR_UNITS + 1) * 2.0**-53
#: Digits of an mpmath working precision that a comparison does not trust (cancellation, conversions).
MPMATH_GUARD_DIGITS = 10


@dataclasses.dataclass(frozen=True)
class _Format:
    unit_roundoff: float
    exact_integer_limit: int
    largest_finite: float
    smallest_subnormal: float


_FORMATS = {
    "float16": _Format(2.0**-11, 2**11, 65504.0, 2.0**-24),
    "bfloat16": _Format(2.0**-8, 2**8, (2 - 2.0**-7) * 2.0**127, 2.0**-133),
    "float32": _Format(2.0**-24, 2**24, (2 - 2.0**-23) * 2.0**127, 2.0**-149),
    "float64": _Format(2.0**-53, 2**53, (2 - 2.0**-52) * 2.0**1023, 2.0**-1074),
}

FloatOrArray = float | np.ndarray


def _format(dtype: Any) -> _Format:
    name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
    try:
        return _FORMATS[name]
    except KeyError:
        raise ValueError(f"no error model for dtype {dtype!r}; known: {', '.join(DTYPES)}") from None


def _as_result(value: np.ndarray) -> FloatOrArray:
    """Plain float for scalar inputs, an array otherwise."""
    return float(value) if np.ndim(value) == 0 else value


def _cap_value_error(error: np.ndarray) -> np.ndarray:
    """Cap an error of a value in [−1, 1] at 2, except that an infinite (overflowed) error stays infinite: an
    angle that overflowed turns cos/sin into NaN, about which nothing can be said."""
    return np.where(np.isinf(error), np.inf, np.minimum(error, 2.0))


def _infinite_where_undefined(bound: np.ndarray) -> np.ndarray:
    """0·inf arises where an overflowed (infinite) error meets a zero weight; NaN results overflow too, so the
    bound is infinite there."""
    return np.where(np.isnan(bound), np.inf, bound)


def unit_roundoff(dtype: Any) -> float:
    """The unit roundoff u of a dtype: the largest relative error of one rounding to nearest.

    **Arguments:**

    - `dtype`: one of `DTYPES`, or a NumPy/ml_dtypes dtype with that name.

    **Returns:**

    u as a float (2⁻¹¹, 2⁻⁸, 2⁻²⁴ or 2⁻⁵³).
    """
    return _format(dtype).unit_roundoff


def exact_integer_limit(dtype: Any) -> int:
    """The largest N such that every integer in [−N, N] is exact in the dtype (2048, 256, 2²⁴, 2⁵³).

    Positions beyond it are rounded before any angle is formed; 65504 (float16's largest finite value)
    happens to be exact, 2049 is not.

    **Arguments:**

    - `dtype`: one of `DTYPES`.

    **Returns:**

    N as an int.
    """
    return _format(dtype).exact_integer_limit


def largest_finite(dtype: Any) -> float:
    """The largest finite value of the dtype (65504 for float16); beyond it values overflow to inf.

    **Arguments:**

    - `dtype`: one of `DTYPES`.

    **Returns:**

    The value as a float.
    """
    return _format(dtype).largest_finite


def underflow_error(dtype: Any) -> float:
    """η: the absolute error of one product or quotient that lands in the subnormal range (half the smallest
    subnormal), the additive term of the model `fl(a·b) = a·b(1 + δ) + η`.

    **Arguments:**

    - `dtype`: one of `DTYPES`.

    **Returns:**

    η as a float.
    """
    return _format(dtype).smallest_subnormal / 2


def gamma(n: int, dtype: Any) -> float:
    """Higham's γ_n = n·u/(1 − n·u): the relative error of n compounded roundings.

    **Arguments:**

    - `n`: the number of roundings (n ≥ 0).
    - `dtype`: one of `DTYPES`.

    **Returns:**

    γ_n, or `inf` when n·u ≥ 1 (the model then guarantees nothing).
    """
    if n < 0:
        raise ValueError(f"the number of roundings must be non-negative, got {n}")
    product = n * unit_roundoff(dtype)
    return math.inf if product >= 1 else product / (1 - product)


def summation_bound(abs_terms_sum: FloatOrArray, n_terms: int, dtype: Any) -> FloatOrArray:
    """Bound on |computed Σ tᵢ − exact Σ tᵢ| for n terms already held exactly in the dtype.

    Recursive (or pairwise, or any other order of) summation makes n − 1 roundings on the path of every term:
    γ_(n−1)·Σ|tᵢ|. Additions cannot underflow inexactly, so there is no η term.

    **Arguments:**

    - `abs_terms_sum`: Σ|tᵢ| (a float or an array of such sums).
    - `n_terms`: n.
    - `dtype`: the dtype the sum is carried out in.

    **Returns:**

    The bound, a float or an array shaped like `abs_terms_sum`.
    """
    return _as_result(gamma(max(n_terms - 1, 0), dtype) * np.asarray(abs_terms_sum, dtype=np.float64))


def dot_product_bound(abs_terms_sum: FloatOrArray, n_terms: int, dtype: Any) -> FloatOrArray:
    """Bound on |fl(xᵀy) − xᵀy| for x, y held exactly in the dtype (Higham §3.1).

    n products and n − 1 additions: γ_n·Σ|xᵢ·yᵢ|, plus n·η for products that underflow. Valid for any
    summation order and for hardware that accumulates in a wider format (it only rounds less).

    **Arguments:**

    - `abs_terms_sum`: Σ|xᵢ·yᵢ| (≤ ‖x‖·‖y‖ by Cauchy–Schwarz when only norms are known).
    - `n_terms`: the length n of the vectors (d for a RoPE score).
    - `dtype`: the dtype of the products and the accumulation.

    **Returns:**

    The bound, a float or an array shaped like `abs_terms_sum`.
    """
    terms = np.asarray(abs_terms_sum, dtype=np.float64)
    return _as_result(gamma(n_terms, dtype) * terms + n_terms * underflow_error(dtype))


def trigonometric_error(dtype: Any, argument_error: FloatOrArray = 0.0) -> FloatOrArray:
    """Absolute error of one computed cos or sin in the dtype, its argument off by `argument_error`.

    |cos′| and |sin′| are at most 1, so an argument error passes through unchanged; the evaluation adds
    `TRIGONOMETRIC_ERROR_UNITS`·u. Capped at 2, the largest possible difference of two values in [−1, 1], unless
    the argument overflowed (infinite `argument_error`): cos/sin are then NaN and the bound stays infinite.

    **Arguments:**

    - `dtype`: the dtype cos/sin are evaluated (and rounded) in.
    - `argument_error`: bound on |computed argument − exact argument|, e.g. from `angle_error_bound`.

    **Returns:**

    The bound, a float or an array shaped like `argument_error`.
    """
    error = np.asarray(argument_error, dtype=np.float64) + TRIGONOMETRIC_ERROR_UNITS * unit_roundoff(dtype)
    return _as_result(_cap_value_error(error))


def expression_bound(
    abs_terms_sum: float,
    n_operations: int,
    dtype: Any,
    *,
    trig_weight: float = 0.0,
    trig_value_error: float | None = None,
    trig_factors: int = 2,
) -> float:
    """Bound on a short expression evaluated in the dtype, e.g. one side of a trig identity's mirror.

    The expression is a sum of monomials c·v₁⋯v_k in cos/sin values vⱼ ∈ [−1, 1] (and exact inputs). Two error
    sources:

    - each computed vⱼ is off by at most ε (`trig_value_error`); a monomial with k ≤ `trig_factors` such
      factors moves by at most |c|·((1 + ε)ᵏ − 1) ≤ |c|·k·ε·(1 + ε)^(k−1), summed into
      `trig_weight`·ε·(1 + ε)^(k−1) with `trig_weight` = Σ |c|·k over the monomials;
    - the `n_operations` roundings of the arithmetic, γ_n·Σ|terms| with the terms taken at their perturbed size.

    Example: the mirror of cos²a + sin²a − 1 in float16 has terms of total size ≤ 2 + 1 = 3, 4 operations
    (two squares, two additions) and `trig_weight` = 2 + 2.

    **Arguments:**

    - `abs_terms_sum`: Σ|monomials| at the exact values (an upper bound is fine).
    - `n_operations`: the arithmetic operations on the longest path (a safe count: all of them).
    - `dtype`: the dtype of the arithmetic.
    - `trig_weight`: Σ |coefficient|·(number of cos/sin factors) over the monomials; 0 when there are none.
    - `trig_value_error`: ε; default `trigonometric_error(dtype)` (exact arguments).
    - `trig_factors`: the largest number of cos/sin factors in one monomial.

    **Returns:**

    The bound on |computed − exact|.
    """
    epsilon = trigonometric_error(dtype) if trig_value_error is None else trig_value_error
    propagated = trig_weight * epsilon * (1 + epsilon) ** max(trig_factors - 1, 0)
    arithmetic = gamma(n_operations, dtype) * (abs_terms_sum + propagated)
    return float(propagated + arithmetic)


def angle_error_bound(
    position: FloatOrArray,
    theta: FloatOrArray,
    dtype: Any,
    *,
    angle_dtype: Any | None = None,
    theta_error_units: float = 1.0,
) -> FloatOrArray:
    """Bound on |fl(fl(m)·fl(θ)) − m·θ| for a RoPE angle formed in the angle dtype.

    Modelled: the frequency carries a relative error of `theta_error_units`·u (1 = correctly rounded; pass
    more when the implementation computes base^(−2i/d) through exp/log in that dtype), the position one
    rounding u when |m| exceeds the exact-integer limit, and the product one rounding. Hence
    γ_j·|m·θ| (1 + its own γ) with j ∈ {1, 2}, plus the underflow of θ (scaled by |m|) and of the product.
    Positions or angles beyond the largest finite value give `inf`.

    **Arguments:**

    - `position`: the position m (int, float or array).
    - `theta`: the exact inverse frequency θ (float or array; broadcast against `position`).
    - `dtype`: the dtype the angle is formed in, unless `angle_dtype` says otherwise.
    - `angle_dtype`: the dtype the angle is formed in, when it differs from the data dtype.
    - `theta_error_units`: relative error of the implementation's θ, in units u of the angle dtype.

    **Returns:**

    The bound, a float or a broadcast array.
    """
    angle_format = _format(angle_dtype if angle_dtype is not None else dtype)
    u = angle_format.unit_roundoff
    magnitude_position = np.abs(np.asarray(position, dtype=np.float64))
    magnitude_theta = np.abs(np.asarray(theta, dtype=np.float64))
    position_rounded = magnitude_position > angle_format.exact_integer_limit
    roundings = 1 + position_rounded.astype(np.float64)
    relative = roundings * u / (1 - roundings * u)
    relative = relative + theta_error_units * u * (1 + relative)
    eta = angle_format.smallest_subnormal / 2
    bound = relative * magnitude_position * magnitude_theta + (1 + 2 * u) * magnitude_position * eta + eta
    overflow = (magnitude_position > angle_format.largest_finite) | (
        magnitude_position * magnitude_theta * (1 + relative) > angle_format.largest_finite
    )
    return _as_result(np.where(overflow, np.inf, bound))


def _rotation_coefficients(
    position: FloatOrArray, theta: FloatOrArray, dtype: Any, angle_dtype: Any | None
) -> tuple[np.ndarray, float]:
    """(a, b) with |computed − exact| ≤ a·(|x₁| + |x₂|) + b per output coordinate of a 2×2 RoPE rotation."""
    angle_dtype = dtype if angle_dtype is None else angle_dtype
    angle_error = np.asarray(angle_error_bound(position, theta, angle_dtype), dtype=np.float64)
    cast = unit_roundoff(dtype) if unit_roundoff(dtype) > unit_roundoff(angle_dtype) else 0.0
    cos_sin_error = _cap_value_error(np.asarray(trigonometric_error(angle_dtype, angle_error)) + cast)
    slope = cos_sin_error + gamma(2, dtype) * (1 + cos_sin_error)
    return slope, 3 * underflow_error(dtype)


def rotation_output_bound(
    x_abs_pair_sum: FloatOrArray,
    position: FloatOrArray,
    theta: FloatOrArray,
    dtype: Any,
    *,
    angle_dtype: Any | None = None,
) -> FloatOrArray:
    """Bound on |RoPE output − exact rotation| per coordinate of one pair, computed in the data dtype.

    The output x₁·cos φ − x₂·sin φ (or x₁·sin φ + x₂·cos φ) is modelled as: the angle formed in `angle_dtype`
    (`angle_error_bound`), cos/sin evaluated there (`trigonometric_error`), rounded to the data dtype when that
    is coarser (one more u), then two products and one addition in the data dtype (γ₂ on the perturbed terms)
    and the underflow of the products. The exact value is the rotation of the same (exactly held) x by m·θ.

    **Arguments:**

    - `x_abs_pair_sum`: |x₁| + |x₂| for the pair (float or array).
    - `position`: the position m.
    - `theta`: the exact inverse frequency of the pair.
    - `dtype`: the data dtype (inputs, products, output).
    - `angle_dtype`: the dtype of the angle and of cos/sin; default the data dtype.

    **Returns:**

    The bound, a float or a broadcast array.
    """
    slope, offset = _rotation_coefficients(position, theta, dtype, angle_dtype)
    with np.errstate(invalid="ignore"):
        bound = slope * np.asarray(x_abs_pair_sum, dtype=np.float64) + offset
    return _as_result(_infinite_where_undefined(bound))


def relative_score_bound(
    q_norm: float,
    k_norm: float,
    m: int,
    n: int,
    thetas: Sequence[float] | np.ndarray,
    dtype: Any,
    angle_dtype: Any | None = None,
    *,
    accumulation_dtype: Any | None = None,
) -> float:
    """Bound on |⟨R̂_m q, R̂_n k⟩ − qᵀR(n−m)k| when both rotations and the score are computed in finite precision.

    ROPE-RELATIVE-MATRIX proves R(m)ᵀR(n) = R(n−m) exactly; this bounds how far a computed score drifts from it.
    Per pair, `rotation_output_bound` gives |error| ≤ aᵢ·(|x₁| + |x₂|) + b per coordinate, so the rotated
    vector is off by E ≤ 2·maxᵢ aᵢ·‖x‖ + √d·b in the 2-norm. The score then carries
    ‖q‖·E_k + E_q·‖k‖ + E_q·E_k from the rotations and the dot product's γ_d·(‖q‖ + E_q)(‖k‖ + E_k) + d·η
    (Cauchy–Schwarz for Σ|qᵢkᵢ|).

    **Arguments:**

    - `q_norm`, `k_norm`: ‖q‖₂ and ‖k‖₂.
    - `m`, `n`: the query and key positions.
    - `thetas`: the d/2 exact inverse frequencies.
    - `dtype`: the data dtype of q, k and the rotated vectors.
    - `angle_dtype`: the dtype the angles and cos/sin are formed in; default the data dtype.
    - `accumulation_dtype`: the dtype the dot product accumulates in; default the data dtype.

    **Returns:**

    The bound as a float (`inf` when the model guarantees nothing).
    """
    thetas = np.asarray(thetas, dtype=np.float64)
    d = 2 * thetas.size

    def rotated_error(norm: float, position: int) -> float:
        slope, offset = _rotation_coefficients(position, thetas, dtype, angle_dtype)
        return float(2 * np.max(slope, initial=0.0) * norm + math.sqrt(d) * offset)

    error_q, error_k = rotated_error(q_norm, m), rotated_error(k_norm, n)
    rotation_part = q_norm * error_k + error_q * k_norm + error_q * error_k
    accumulation = dtype if accumulation_dtype is None else accumulation_dtype
    score_part = dot_product_bound((q_norm + error_q) * (k_norm + error_k), d, accumulation)
    return float(_infinite_where_undefined(np.float64(rotation_part + score_part)))


def largest_position_within(
    budget_relative: float,
    thetas: Sequence[float] | np.ndarray,
    dtype_angle: Any,
    *,
    dtype: Any | None = None,
    accumulation_dtype: Any | None = None,
) -> int:
    """The largest position M such that the predicted relative score error stays within the budget.

    Evaluates `relative_score_bound` for unit vectors with both positions at M (the bound grows with each
    position, so every pair of positions in [0, M] is covered) and searches the largest M ≤ 2⁵³ with
    bound ≤ `budget_relative`. The bound is non-decreasing in M, so the search is a bisection.

    **Arguments:**

    - `budget_relative`: the tolerated |score error| / (‖q‖·‖k‖).
    - `thetas`: the d/2 exact inverse frequencies.
    - `dtype_angle`: the dtype the angles and cos/sin are formed in.
    - `dtype`: the data dtype of q, k and the rotated vectors; default `dtype_angle`.
    - `accumulation_dtype`: the dtype the score accumulates in; default the data dtype.

    **Returns:**

    M as an int, or −1 when even position 0 exceeds the budget (the dot product alone is too coarse).
    """
    data_dtype = dtype_angle if dtype is None else dtype

    def within(position: int) -> bool:
        bound = relative_score_bound(
            1.0, 1.0, position, position, thetas, data_dtype, dtype_angle, accumulation_dtype=accumulation_dtype
        )
        return bound <= budget_relative

    return largest_integer_where(within)


def softmax_row_bound(logit_spread: float, n_terms: int, dtype: Any) -> float:
    """Relative bound on each entry of a softmax row computed in the dtype (max-subtracted form).

    yⱼ = exp(xⱼ − max x) / Σₖ exp(xₖ − max x). Modelled: the subtraction rounds by u·|xⱼ − max| ≤ u·spread, which
    exp turns into a factor e^(±u·spread); exp adds `EXPONENTIAL_ERROR_UNITS`·u; the positive terms sum with
    γ_(n−1) relative error; the division rounds once. So |ŷⱼ/yⱼ − 1| ≤ (1 + e₁)(1 + u)/(1 − e₂) − 1 with
    e₁ = (1 + c·u)·e^(u·spread) − 1 and e₂ = e₁ + γ_(n−1)(1 + e₁). Entries that underflow are outside the model
    (their absolute error is at most the smallest normal number).

    **Arguments:**

    - `logit_spread`: max x − min x over the row.
    - `n_terms`: the row length.
    - `dtype`: the dtype of the whole computation.

    **Returns:**

    The relative bound (`inf` when the model guarantees nothing).
    """
    u = unit_roundoff(dtype)
    numerator = math.expm1(u * logit_spread) + EXPONENTIAL_ERROR_UNITS * u * math.exp(u * logit_spread)
    denominator = numerator + gamma(max(n_terms - 1, 0), dtype) * (1 + numerator)
    if denominator >= 1:
        return math.inf
    return (1 + numerator) * (1 + u) / (1 - denominator) - 1


def partial_sums_modulus_bound(
    distance: int,
    thetas: Sequence[float] | np.ndarray,
    dtype: Any,
    *,
    angle_dtype: Any | None = None,
) -> float:
    """Bound on the computed Σⱼ |Sⱼ|, Sⱼ = Σ_(k<j) e^(i·r·θₖ), j = 1…d/2: RoFormer's long-term decay factor.

    RoFormer (§3.4.3) bounds |Σᵢ hᵢ e^(i r θᵢ)| by maxᵢ|hᵢ₊₁ − hᵢ|·Σⱼ|Sⱼ|. Modelled, for relative distance r:
    each term's cos and sin are off by εₖ = `trigonometric_error` of the angle r·θₖ formed in `angle_dtype`
    (plus a cast to the data dtype); the component sums of Sⱼ by Eⱼ = Σ_(k<j) εₖ + γ_(j−1)·Σ_(k<j)(1 + εₖ); the
    modulus by √2·Eⱼ plus γ₃ for squaring, adding and the square root (|Sⱼ| ≤ j); the outer sum by γ_(N−1).

    **Arguments:**

    - `distance`: the relative distance r = m − n.
    - `thetas`: the d/2 exact inverse frequencies θ₀…θ_(N−1).
    - `dtype`: the data dtype of the sums.
    - `angle_dtype`: the dtype the angles and cos/sin are formed in; default the data dtype.

    **Returns:**

    The bound on |computed Σⱼ|Sⱼ| − exact Σⱼ|Sⱼ||.
    """
    thetas = np.asarray(thetas, dtype=np.float64)
    count = thetas.size
    angle_dtype = dtype if angle_dtype is None else angle_dtype
    cast = unit_roundoff(dtype) if unit_roundoff(dtype) > unit_roundoff(angle_dtype) else 0.0
    angle_error = np.asarray(angle_error_bound(distance, thetas, angle_dtype), dtype=np.float64)
    term_error = _cap_value_error(np.asarray(trigonometric_error(angle_dtype, angle_error)) + cast)
    lengths = np.arange(1, count + 1)
    accumulated = np.cumsum(term_error)
    roundings = np.array([gamma(int(j) - 1, dtype) for j in lengths])
    with np.errstate(invalid="ignore"):
        component_error = _infinite_where_undefined(accumulated + roundings * (lengths + accumulated))
        modulus_error = math.sqrt(2) * component_error
        modulus_error = modulus_error + gamma(3, dtype) * (lengths + modulus_error)
        total = np.sum(modulus_error) + gamma(max(count - 1, 0), dtype) * np.sum(lengths + modulus_error)
    return float(_infinite_where_undefined(total))


def mpmath_tolerance(dps: int) -> float:
    """Relative tolerance for a comparison carried out with mpmath at `dps` decimal digits.

    Follows the working precision: 10^(`MPMATH_GUARD_DIGITS` − dps), i.e. the last ten digits are not trusted
    (cancellation in the residual, decimal/binary conversions).

    **Arguments:**

    - `dps`: the mpmath working precision in decimal digits (> `MPMATH_GUARD_DIGITS`).

    **Returns:**

    The tolerance as a float (1e−40 at 50 digits).
    """
    if dps <= MPMATH_GUARD_DIGITS:
        raise ValueError(f"mpmath checks need more than {MPMATH_GUARD_DIGITS} digits, got {dps}")
    return 10.0 ** (MPMATH_GUARD_DIGITS - dps)


@dataclasses.dataclass(frozen=True)
class Check:
    """One numeric check: the observed error against the model's bound.

    **Fields:**

    - `observed`: the largest error observed (for a batch, the error of the case closest to its bound).
    - `bound`: the bound that case is held to.
    - `cases`: how many cases the check covered.
    """

    observed: float
    bound: float
    cases: int = 1

    @property
    def ratio(self) -> float:
        """observed / bound: above 1 fails; far below 1 in every case means the bound is loose."""
        if self.bound == 0:
            return 0.0 if self.observed == 0 else math.inf
        return self.observed / self.bound

    @property
    def ok(self) -> bool:
        """Whether the observed error is within the bound."""
        return self.observed <= self.bound

    @classmethod
    def from_cases(cls, errors: np.ndarray | Sequence[float], bounds: np.ndarray | Sequence[float]) -> Check:
        """Summarise a batch by its worst case (largest error/bound ratio), so `ok` holds iff every case is in.

        **Arguments:**

        - `errors`: observed errors, one per case.
        - `bounds`: the bound of each case (broadcast against `errors`).

        **Returns:**

        A `Check` with that case's error and bound and `cases` = the number of cases.
        """
        errors_array, bounds_array = np.broadcast_arrays(
            np.asarray(errors, dtype=np.float64), np.asarray(bounds, dtype=np.float64)
        )
        if errors_array.size == 0:
            return cls(observed=0.0, bound=0.0, cases=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(bounds_array > 0, errors_array / bounds_array, np.where(errors_array > 0, np.inf, 0.0))
        worst = int(np.argmax(ratios))
        flat_errors, flat_bounds = errors_array.reshape(-1), bounds_array.reshape(-1)
        return cls(observed=float(flat_errors[worst]), bound=float(flat_bounds[worst]), cases=int(errors_array.size))

    def to_json(self) -> dict[str, float | int]:
        """The check for a report: `{"max_error", "bound", "ratio", "cases"}` (non-finite values stay floats)."""
        return {"max_error": self.observed, "bound": self.bound, "ratio": self.ratio, "cases": self.cases}


# ------------------------------------------------------------------------- node rules for the mirrors
# Error-model rules applied to one node of an expression tree (numeric._mirrors runs them bottom-up over a
# SymPy statement): given each operand's exact value and a bound on its computed error, bound the computed
# result. Complex arithmetic follows Higham Lemma 3.5 (product √2·γ₂, quotient √2·γ₄, sum u per component).
# "mpmath" is a format too: an evaluation at MPMATH_DPS digits modelled with u = mpmath_tolerance(MPMATH_DPS).

MPMATH_DPS = 50
FORMATS = (*DTYPES, "mpmath")


def format_unit_roundoff(fmt: str) -> float:
    """u of a dtype, or `mpmath_tolerance(MPMATH_DPS)` for `"mpmath"`.

    **Arguments:**

    - `fmt`: one of `FORMATS`.

    **Returns:**

    The unit roundoff as a float.
    """
    if fmt == "mpmath":
        return mpmath_tolerance(MPMATH_DPS)
    return unit_roundoff(fmt)


def format_gamma(n: int, fmt: str) -> float:
    """γ_n for the format (`gamma` for dtypes; the same formula with the mpmath u otherwise)."""
    if fmt != "mpmath":
        return gamma(n, fmt)
    product = n * format_unit_roundoff(fmt)
    return math.inf if product >= 1 else product / (1 - product)


def _finite_or_inf(values: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(values), np.inf, values)


def add_error(magnitudes: list[np.ndarray], errors: list[np.ndarray], fmt: str) -> np.ndarray:
    """Σ eᵢ + γ_(k−1)·Σ(|vᵢ| + eᵢ): k computed summands, any summation order."""
    total_error = sum(errors, np.zeros_like(magnitudes[0]))
    size = sum((m + e for m, e in zip(magnitudes, errors, strict=True)), np.zeros_like(magnitudes[0]))
    with np.errstate(invalid="ignore"):
        return _finite_or_inf(total_error + format_gamma(len(magnitudes) - 1, fmt) * size)


def _product_propagation(magnitudes: list[np.ndarray], errors: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(Π(|vᵢ| + eᵢ) − Π|vᵢ|, Π(|vᵢ| + eᵢ)), the first without cancellation (expm1 of a sum of log1p)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        exact = np.ones_like(magnitudes[0])
        perturbed = np.ones_like(magnitudes[0])
        log_growth = np.zeros_like(magnitudes[0])
        for m, e in zip(magnitudes, errors, strict=True):
            exact = exact * m
            perturbed = perturbed * (m + e)
            log_growth = log_growth + np.log1p(np.where(m > 0, e / np.where(m > 0, m, 1), 0.0))
        growth = np.where(exact > 0, exact * np.expm1(log_growth), perturbed)
    return _finite_or_inf(growth), _finite_or_inf(perturbed)


def mul_error(
    magnitudes: list[np.ndarray], errors: list[np.ndarray], fmt: str, *, complex_result: bool, exact_factors: int = 0
) -> np.ndarray:
    """Propagated error of a k-fold product plus its k − 1 − `exact_factors` roundings (√2·γ₂ each if complex).

    `exact_factors` counts factors ±1, whose products do not round.
    """
    growth, perturbed = _product_propagation(magnitudes, errors)
    per_product = math.sqrt(2) * format_gamma(2, fmt) if complex_result else format_unit_roundoff(fmt)
    count = max(len(magnitudes) - 1 - exact_factors, 0)
    compounded = math.inf if count * per_product >= 1 else count * per_product / (1 - count * per_product)
    with np.errstate(invalid="ignore", over="ignore"):
        return _finite_or_inf(growth + compounded * perturbed)


def power_error(
    magnitude: np.ndarray, error: np.ndarray, exponent: int, fmt: str, *, complex_result: bool
) -> np.ndarray:
    """xⁿ for an integer n ≥ 1 computed by n − 1 multiplications (any association)."""
    return mul_error([magnitude] * exponent, [error] * exponent, fmt, complex_result=complex_result)


def reciprocal_error(magnitude: np.ndarray, error: np.ndarray, fmt: str, *, complex_result: bool) -> np.ndarray:
    """1/y: |1/ŷ − 1/y| ≤ e/(|y|(|y| − e)) plus one rounding (γ₃ for the complex reciprocal); inf if e ≥ |y|."""
    rounding = format_gamma(3, fmt) if complex_result else format_unit_roundoff(fmt)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        room = magnitude - error
        bound = error / (magnitude * room) + rounding / room
        return _finite_or_inf(np.where(room > 0, bound, np.inf))


def sqrt_error(magnitude: np.ndarray, error: np.ndarray, fmt: str) -> np.ndarray:
    """√x for x ≥ 0: |√x̂ − √x| ≤ min(e/√x, √e), plus one rounding of the result."""
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(magnitude)
        propagated = np.where(root > 0, np.minimum(error / np.where(root > 0, root, 1), np.sqrt(error)), np.sqrt(error))
        return _finite_or_inf(propagated + format_unit_roundoff(fmt) * np.sqrt(magnitude + error))


def exp_error(real_part: np.ndarray, error: np.ndarray, fmt: str, *, complex_argument: bool) -> np.ndarray:
    """exp(z): |e^ẑ − e^z| ≤ e^(Re z)·expm1(e), plus the evaluation error at the perturbed size.

    Real: `EXPONENTIAL_ERROR_UNITS`·u relative. Complex, as e^a·(cos b, sin b): each component within
    e^a·((X + 1)·u + T·u), the modulus within √2 times that.
    """
    u = format_unit_roundoff(fmt)
    x_units, t_units = EXPONENTIAL_ERROR_UNITS, TRIGONOMETRIC_ERROR_UNITS
    evaluation = math.sqrt(2) * (x_units + t_units + 1) * u * (1 + 4 * u) if complex_argument else x_units * u
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.exp(real_part)
        return _finite_or_inf(size * np.expm1(error) + evaluation * size * np.exp(error))


def trig_error(error: np.ndarray, fmt: str) -> np.ndarray:
    """cos or sin of a real argument off by e: e + `TRIGONOMETRIC_ERROR_UNITS`·u, capped at 2 (inf stays inf)."""
    bound = error + TRIGONOMETRIC_ERROR_UNITS * format_unit_roundoff(fmt)
    return np.where(np.isinf(bound) | np.isnan(bound), np.inf, np.minimum(bound, 2.0))


def sine_error(argument: np.ndarray, error: np.ndarray, fmt: str) -> np.ndarray:
    """sin of a real argument off by e, with a relative rule for small arguments.

    For |x| + e ≤ 1 no range reduction happens and sin is within `TRIGONOMETRIC_ERROR_UNITS`·u *relative*
    (plus the underflow η for results in the subnormal range): e + T·u·(|sin x| + e) + η. Elsewhere the absolute
    rule of `trig_error`. Without it a witness such as sin(ω/2) > 0 for ω = 10000^(−126/128) could never be
    certified in float16, although float16 holds it to a few units.
    """
    absolute = trig_error(error, fmt)
    eta = 0.0 if fmt == "mpmath" else underflow_error(fmt)
    units = TRIGONOMETRIC_ERROR_UNITS * format_unit_roundoff(fmt)
    with np.errstate(invalid="ignore"):
        relative = error + units * (np.abs(np.sin(argument)) + error) + eta
        small = np.abs(argument) + error <= 1
    return np.where(small, np.minimum(relative, absolute), absolute)


def modulus_error(magnitude: np.ndarray, error: np.ndarray, fmt: str, *, complex_argument: bool) -> np.ndarray:
    """|z|: exact for reals; for complex z as √(re² + im²): e + γ₃·(|z| + e)."""
    if not complex_argument:
        return error
    return _finite_or_inf(error + format_gamma(3, fmt) * (magnitude + error))


def rephased_score_bound(
    q_norm: float, k_norm: float, position: int, shift: int, thetas: np.ndarray, dtype: str
) -> float:
    """Bound on |⟨R̂(m+Δ)q, R̂(Δ)(R̂(n)k)⟩ − qᵀR(n−m)k| for a cached key re-phased by Δ (ROPE-PREFIX-REPHASE).

    The key is rotated twice: at its old position n and by the shift Δ. Per pair each rotation is off by at most
    aᵢ·(|x₁| + |x₂|) + b per coordinate (`rotation_output_bound`), so in the 2-norm the twice-rotated
    key is off by E_k ≤ 2·max a(n)·‖k‖ + 2·max a(Δ)·(‖k‖ + E₁) + 2√d·b, and the query, rotated once at m + Δ
    (taken equal to n + Δ, the worst case for a block moved as a whole), by E_q ≤ 2·max a(m+Δ)·‖q‖ + √d·b. The
    score then follows `relative_score_bound`: ‖q‖E_k + E_q‖k‖ + E_qE_k + γ_d(‖q‖ + E_q)(‖k‖ + E_k).

    **Arguments:**

    - `q_norm`, `k_norm`: ‖q‖₂, ‖k‖₂.
    - `position`: the key's old position n (the query sits at n + Δ after the move).
    - `shift`: Δ.
    - `thetas`: the d/2 exact inverse frequencies.
    - `dtype`: the dtype of the angles, cos/sin, rotations and score.

    **Returns:**

    The bound as a float (`inf` when the model guarantees nothing).
    """
    thetas = np.asarray(thetas, dtype=np.float64)
    d = 2 * thetas.size

    def slope_and_offset(at: int) -> tuple[float, float]:
        offset = float(rotation_output_bound(0.0, at, thetas, dtype).max())
        slope = float(rotation_output_bound(1.0, at, thetas, dtype).max()) - offset
        return slope, offset

    slope_n, offset = slope_and_offset(position)
    slope_shift, _ = slope_and_offset(shift)
    slope_query, _ = slope_and_offset(position + shift)
    first = 2 * slope_n * k_norm + math.sqrt(d) * offset
    error_k = first + 2 * slope_shift * (k_norm + first) + math.sqrt(d) * offset
    error_q = 2 * slope_query * q_norm + math.sqrt(d) * offset
    rotation_part = q_norm * error_k + error_q * k_norm + error_q * error_k
    score_part = dot_product_bound((q_norm + error_q) * (k_norm + error_k), d, dtype)
    total = rotation_part + score_part
    return math.inf if not math.isfinite(total) else float(total)


def largest_integer_where(within: Callable[[int], bool], top: int = 2**53) -> int:
    """The largest M in [0, `top`] with `within(M)`, for a predicate that holds up to some M and fails beyond.

    **Arguments:**

    - `within`: the monotone predicate (e.g. a bound within a budget at position M).
    - `top`: the largest M considered.

    **Returns:**

    M, or −1 when `within(0)` already fails.
    """
    if not within(0):
        return -1
    low, high = 0, top
    if within(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if within(middle) else (low, middle)
    return low
