"""Bounds for RoPE computations: the angle m·θ formed in a dtype, one pair's rotation, the relative score, a
re-phased cached key, the decay factor's partial sums, softmax rows (`ropecheck.numeric.reference.tolerances` re-exports
them; the model is described there)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._formats import (
    FloatOrArray,
    _as_result,
    _cap_value_error,
    _format,
    _infinite_where_undefined,
    dot_product_bound,
    gamma,
    largest_finite,
    largest_integer_where,
    trigonometric_error,
    underflow_error,
    unit_roundoff,
)
from ._library import implementation_units


def angle_relative_error(
    dtype: Any, position_rounded: FloatOrArray = False, *, theta_error_units: float = 1.0
) -> FloatOrArray:
    """The relative part of `angle_error_bound`: γ_j + c·u·(1 + γ_j), j = 1 (the product) or 2 (the position
    rounded too), c = `theta_error_units` (the frequency's own error). Certified per dtype by the Gappa scripts
    of `ropecheck.numeric.reference.gappa`.

    **Arguments:**

    - `dtype`: the dtype the angle is formed in.
    - `position_rounded`: whether |m| exceeds the exact-integer limit (bool or boolean array).
    - `theta_error_units`: relative error of θ in units u (1 = correctly rounded).

    **Returns:**

    The relative bound, a float or an array shaped like `position_rounded`.
    """
    u = unit_roundoff(dtype)
    roundings = 1 + np.asarray(position_rounded, dtype=np.float64)
    relative = roundings * u / (1 - roundings * u)
    return _as_result(relative + theta_error_units * u * (1 + relative))


_FLOAT64_EVALUATION_ALLOWANCE = 1 + 6 * 2.0**-53
"""The float64 evaluation of a sum of nonnegative products a·b·c + d·e·f + g rounds at most 4 times on any path
(γ₄ ≤ 4u·(1 + 4u)), and the scaling by this factor once more: multiplying by 1 + 6u makes the computed value an
upper bound of the exact expression (issue 36)."""


def _float64_magnitude_above(value: FloatOrArray) -> np.ndarray:
    """|value| as float64, never below the exact magnitude: a Python or NumPy integer beyond 2⁵³ rounds to nearest
    when converted (2⁵⁴ + 1 → 2⁵⁴), so a magnitude the conversion rounded down is moved one float64 step up (issue
    36); an exactly converted one is kept, so that m = 2⁵³ stays "held exactly"."""
    raw = np.asarray(value)
    magnitude = np.abs(raw.astype(np.float64))
    if raw.dtype.kind not in "iuO" or not np.any(magnitude >= 2.0**53):
        return magnitude
    exact = np.abs(raw.astype(object))  # Python ints: their comparison with a float is exact
    below = np.vectorize(lambda converted, wanted: float(converted) < int(wanted), otypes=[bool])
    rounded_down = below(magnitude, exact)
    return np.where(rounded_down, np.nextafter(magnitude, np.inf), magnitude)


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
    magnitude_position = _float64_magnitude_above(position)
    magnitude_theta = np.abs(np.asarray(theta, dtype=np.float64))
    position_rounded = magnitude_position > angle_format.exact_integer_limit
    relative = angle_relative_error(
        angle_dtype if angle_dtype is not None else dtype, position_rounded, theta_error_units=theta_error_units
    )
    eta = underflow_error(angle_dtype if angle_dtype is not None else dtype)
    bound = relative * magnitude_position * magnitude_theta + (1 + 2 * u) * magnitude_position * eta + eta
    bound = bound * _FLOAT64_EVALUATION_ALLOWANCE
    largest_position = np.max(magnitude_position, initial=0.0)
    # Rounding is monotone, so the largest |m|, |θ| and relative error bound every element's product: when even
    # theirs stays finite in the angle dtype, no element overflows (NaN fails the test and takes the full check).
    if largest_position <= angle_format.largest_finite and (
        largest_position * np.max(magnitude_theta, initial=0.0) * (1 + np.max(relative, initial=0.0))
        <= angle_format.largest_finite
    ):
        return _as_result(bound)
    overflow = (magnitude_position > angle_format.largest_finite) | (
        magnitude_position * magnitude_theta * (1 + relative) > angle_format.largest_finite
    )
    return _as_result(np.where(overflow, np.inf, bound))


def cos_sin_cast_error(dtype: Any, angle_dtype: Any) -> float:
    """Absolute error of casting a cos/sin value in [−1, 1] from the angle dtype to a coarser data dtype.

    One rounding to nearest of a value of magnitude at most 1: at most u of the data dtype (certified per
    16-bit dtype from float32 by the Gappa scripts `cast_absolute_<dtype>.g`); 0 when the data dtype is not
    coarser (no cast, or an exact widening).

    **Arguments:**

    - `dtype`: the data dtype cos/sin are cast to.
    - `angle_dtype`: the dtype cos/sin are computed in.

    **Returns:**

    u of `dtype`, or 0.
    """
    return unit_roundoff(dtype) if unit_roundoff(dtype) > unit_roundoff(angle_dtype) else 0.0


def _rotation_coefficients(
    position: FloatOrArray, theta: FloatOrArray, dtype: Any, angle_dtype: Any | None
) -> tuple[np.ndarray, float]:
    """(a, b) with |computed − exact| ≤ a·(|x₁| + |x₂|) + b per output coordinate of a 2×2 RoPE rotation."""
    angle_dtype = dtype if angle_dtype is None else angle_dtype
    angle_error = np.asarray(angle_error_bound(position, theta, angle_dtype), dtype=np.float64)
    cast = cos_sin_cast_error(dtype, angle_dtype)
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
    Either product may be fused into the final rounding (an FMA, as `jax.jit` contracts it on CPU): the same
    bound holds (`RotationPointwise.v`, `rotation_coordinate_fused`).

    The theorem behind it is over the reals, without overflow: where (|x₁| + |x₂|)·(1 + a) + b, a bound on every
    intermediate and on the output, exceeds the dtype's largest finite value, a result may round to ±inf and
    the bound is `inf` (float16 at x = (65504, 65504)).

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
    weight = np.asarray(x_abs_pair_sum, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        bound = slope * weight + offset
        # As in `angle_error_bound`: the largest weight and slope (both ≥ 0) bound every element's value.
        if (
            np.min(weight, initial=0.0) >= 0
            and np.min(slope, initial=0.0) >= 0
            and np.max(weight, initial=0.0) * (1 + np.max(slope, initial=0.0)) + offset <= largest_finite(dtype)
        ):
            return _as_result(_infinite_where_undefined(bound))
        overflow = weight * (1 + slope) + offset > largest_finite(dtype)
    return _as_result(_infinite_where_undefined(np.where(overflow, np.inf, bound)))


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
    exp turns into a factor e^(±u·spread); exp adds X·u (`implementation_units`: measured here, at least one ulp); the
    positive terms sum with γ_(n−1) relative error; the division rounds once. So
    |ŷⱼ/yⱼ − 1| ≤ (1 + e₁)(1 + u)/(1 − e₂) − 1 with e₁ = (1 + c·u)·e^(u·spread) − 1
    and e₂ = e₁ + γ_(n−1)(1 + e₁). Entries that underflow are outside the model
    (their absolute error is at most the smallest normal number).

    **Arguments:**

    - `logit_spread`: max x − min x over the row.
    - `n_terms`: the row length.
    - `dtype`: the dtype of the whole computation.

    **Returns:**

    The relative bound (`inf` when the model guarantees nothing).
    """
    u = unit_roundoff(dtype)
    exp_units = implementation_units("exp", dtype if isinstance(dtype, str) else np.dtype(dtype).name)
    numerator = math.expm1(u * logit_spread) + exp_units * u * math.exp(u * logit_spread)
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
    cast = cos_sin_cast_error(dtype, angle_dtype)
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
