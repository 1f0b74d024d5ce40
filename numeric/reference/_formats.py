"""Formats, unit roundoff, γ_n, the underflow term and library accuracy: the base of the error model
(`ropecheck.numeric.reference.tolerances` re-exports it; the model is described there)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import library_accuracy
from ._library import implementation_units

DTYPES = ("float16", "bfloat16", "float32", "float64")

#: The fast reference's target: |angles_mod_2pi − exact p·θ mod 2π| (validated against mpmath in the tests).
REFERENCE_ANGLE_ABS_ERROR = 1e-25
#: The float64 cos/sin of `reference_cos_sin`: NumPy's cos/sin of the leading limb (measured, `library_accuracy`),
#: plus one rounding of the first-order correction by the trailing limb.
REFERENCE_COS_SIN_ABS_ERROR = (library_accuracy.numpy_float64_trig_units() + 1) * 2.0**-53
#: Digits of an mpmath working precision that a comparison does not trust (cancellation, conversions).
MPMATH_GUARD_DIGITS = 10


@dataclasses.dataclass(frozen=True)
class _Format:
    unit_roundoff: float
    exact_integer_limit: int
    largest_finite: float
    smallest_subnormal: float
    smallest_normal: float


_FORMATS = {
    "float16": _Format(2.0**-11, 2**11, 65504.0, 2.0**-24, 2.0**-14),
    "bfloat16": _Format(2.0**-8, 2**8, (2 - 2.0**-7) * 2.0**127, 2.0**-133, 2.0**-126),
    "float32": _Format(2.0**-24, 2**24, (2 - 2.0**-23) * 2.0**127, 2.0**-149, 2.0**-126),
    "float64": _Format(2.0**-53, 2**53, (2 - 2.0**-52) * 2.0**1023, 2.0**-1074, 2.0**-1022),
}

FloatOrArray = float | np.ndarray


def _name(dtype: Any) -> str:
    return np.dtype(dtype).name if not isinstance(dtype, str) else dtype


def _format(dtype: Any) -> _Format:
    name = _name(dtype)
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
    error = np.asarray(error)
    if error.size and 0.0 <= error.min() and error.max() <= 2.0:  # the usual case: nothing to cap (NaN fails both)
        return error
    return np.where(np.isinf(error), np.inf, np.minimum(error, 2.0))


def _infinite_where_undefined(bound: np.ndarray) -> np.ndarray:
    """0·inf arises where an overflowed (infinite) error meets a zero weight; NaN results overflow too, so the
    bound is infinite there."""
    bound = np.asarray(bound)
    if not np.isnan(bound).any():  # the usual case: the bound as it is, without a copy
        return bound
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
    """η: the absolute error of one operation whose exact result (or an input) lies below the smallest normal
    number, the additive term of the model `fl(a ∘ b) = (a ∘ b)(1 + δ) + η`.

    Flush-to-zero aware: where this backend flushes subnormals to zero (XLA on CPU does for bfloat16, float32
    and float64; measured in `library_accuracy`), such a result or input may become 0, so η is the smallest
    normal number and applies to additions too. With gradual underflow (float16) η is half the smallest
    subnormal (products and quotients only; additions are exact there, but the bound charges it anyway).

    **Arguments:**

    - `dtype`: one of `DTYPES`.

    **Returns:**

    η as a float.
    """
    information = _format(dtype)
    if library_accuracy.flushes_subnormals(_name(dtype)):
        return information.smallest_normal
    return information.smallest_subnormal / 2


def smallest_normal(dtype: Any) -> float:
    """The smallest positive normal number of the dtype (2⁻¹⁴, 2⁻¹²⁶, 2⁻¹²⁶, 2⁻¹⁰²²).

    **Arguments:**

    - `dtype`: one of `DTYPES`.

    **Returns:**

    The value as a float.
    """
    return _format(dtype).smallest_normal


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
    γ_(n−1)·Σ|tᵢ|. A partial sum below the smallest normal number is flushed to zero where the backend flushes
    subnormals, so each addition also carries η (`underflow_error`).

    **Arguments:**

    - `abs_terms_sum`: Σ|tᵢ| (a float or an array of such sums).
    - `n_terms`: n.
    - `dtype`: the dtype the sum is carried out in.

    **Returns:**

    The bound, a float or an array shaped like `abs_terms_sum`.
    """
    additions = max(n_terms - 1, 0)
    terms = np.asarray(abs_terms_sum, dtype=np.float64)
    return _as_result(
        gamma(additions, dtype) * terms + additions * (1 + gamma(additions, dtype)) * underflow_error(dtype)
    )


def dot_product_bound(abs_terms_sum: FloatOrArray, n_terms: int, dtype: Any) -> FloatOrArray:
    """Bound on |fl(xᵀy) − xᵀy| for x, y held exactly in the dtype (Higham §3.1).

    n products and n − 1 additions: γ_n·Σ|xᵢ·yᵢ|, plus (2n − 1)·η (each slightly grown by later roundings) for
    products and partial sums that underflow or are flushed to zero. Valid for any
    summation order and for hardware that accumulates in a wider format (it only rounds less).

    **Arguments:**

    - `abs_terms_sum`: Σ|xᵢ·yᵢ| (≤ ‖x‖·‖y‖ by Cauchy–Schwarz when only norms are known).
    - `n_terms`: the length n of the vectors (d for a RoPE score).
    - `dtype`: the dtype of the products and the accumulation.

    **Returns:**

    The bound, a float or an array shaped like `abs_terms_sum`.
    """
    terms = np.asarray(abs_terms_sum, dtype=np.float64)
    flushes = max(2 * n_terms - 1, 0) * (1 + gamma(n_terms, dtype)) * underflow_error(dtype)
    return _as_result(gamma(n_terms, dtype) * terms + flushes)


def trigonometric_error(dtype: Any, argument_error: FloatOrArray = 0.0) -> FloatOrArray:
    """Absolute error of one computed cos or sin in the dtype, its argument off by `argument_error`.

    |cos′| and |sin′| are at most 1, so an argument error passes through unchanged; the evaluation adds
    `implementation_units("cos/sin", dtype)`·u: the larger of this backend's measured allowance and
    `IMPLEMENTATION_ERROR_UNITS` (any library within one ulp), because the RoPE bounds built on this rule also
    serve the audit, which bounds implementations whose libraries it cannot measure. Capped at 2, the largest
    possible difference of two values in
    [−1, 1], unless the argument overflowed (infinite `argument_error`): cos/sin are then NaN and the bound
    stays infinite.

    **Arguments:**

    - `dtype`: the dtype cos/sin are evaluated (and rounded) in.
    - `argument_error`: bound on |computed argument − exact argument|, e.g. from `angle_error_bound`.

    **Returns:**

    The bound, a float or an array shaped like `argument_error`.
    """
    units = implementation_units("cos/sin", _name(dtype))
    error = np.asarray(argument_error, dtype=np.float64) + units * unit_roundoff(dtype)
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
