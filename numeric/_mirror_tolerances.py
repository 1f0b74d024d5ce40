"""Error-model pieces the mirrors need beyond `numeric.tolerances`, derived only from its primitives.

Every function here is a rule of the model in `numeric.tolerances` (Higham-style forward error analysis with
unit roundoff u, γ_n = n·u/(1 − n·u), cos/sin within `TRIGONOMETRIC_ERROR_UNITS`·u absolute, exp within
`EXPONENTIAL_ERROR_UNITS`·u relative), applied to one node of an expression tree: given the exact value of each
operand and a bound on how far the computed operand is from it, bound the computed result. Running the rules
bottom-up over a SymPy expression bounds the whole expression evaluated in a dtype (`numeric._mirrors`).

Two formats beyond the four dtypes:

- `"mpmath"`: an mpmath evaluation at `MPMATH_DPS` digits, modelled with u = `mpmath_tolerance(MPMATH_DPS)`
  (the working precision minus the guard digits), so mpmath residuals are held to ≈ 1e−40 relative to the size
  of the terms.

Complex arithmetic (Higham Lemma 3.5): a complex product is off by at most √2·γ₂ relative, a complex quotient by
√2·γ₄; a complex sum by u (each component rounds on its own).

Candidates to fold into `numeric.tolerances`: `format_unit_roundoff`, `format_gamma`, the node rules
(`add_error`, `mul_error`, `power_error`, `reciprocal_error`, `sqrt_error`, `exp_error`, `trig_error`,
`sine_error`, `modulus_error`), `largest_integer_where` (the bisection of
`tolerances.largest_position_within`, for any monotone predicate), the exact-integer rule in
`numeric._mirrors.run_bounds`, and `rephased_score_bound`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from . import tolerances

MPMATH_DPS = 50
FORMATS = (*tolerances.DTYPES, "mpmath")

__all__ = [
    "FORMATS",
    "MPMATH_DPS",
    "add_error",
    "exp_error",
    "format_gamma",
    "format_unit_roundoff",
    "largest_integer_where",
    "modulus_error",
    "mul_error",
    "power_error",
    "reciprocal_error",
    "rephased_score_bound",
    "sine_error",
    "sqrt_error",
    "trig_error",
]


def format_unit_roundoff(fmt: str) -> float:
    """u of a dtype, or `mpmath_tolerance(MPMATH_DPS)` for `"mpmath"`.

    **Arguments:**

    - `fmt`: one of `FORMATS`.

    **Returns:**

    The unit roundoff as a float.
    """
    if fmt == "mpmath":
        return tolerances.mpmath_tolerance(MPMATH_DPS)
    return tolerances.unit_roundoff(fmt)


def format_gamma(n: int, fmt: str) -> float:
    """γ_n for the format (`tolerances.gamma` for dtypes; the same formula with the mpmath u otherwise)."""
    if fmt != "mpmath":
        return tolerances.gamma(n, fmt)
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
    x_units, t_units = tolerances.EXPONENTIAL_ERROR_UNITS, tolerances.TRIGONOMETRIC_ERROR_UNITS
    evaluation = math.sqrt(2) * (x_units + t_units + 1) * u * (1 + 4 * u) if complex_argument else x_units * u
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.exp(real_part)
        return _finite_or_inf(size * np.expm1(error) + evaluation * size * np.exp(error))


def trig_error(error: np.ndarray, fmt: str) -> np.ndarray:
    """cos or sin of a real argument off by e: e + `TRIGONOMETRIC_ERROR_UNITS`·u, capped at 2 (inf stays inf)."""
    bound = error + tolerances.TRIGONOMETRIC_ERROR_UNITS * format_unit_roundoff(fmt)
    return np.where(np.isinf(bound) | np.isnan(bound), np.inf, np.minimum(bound, 2.0))


def sine_error(argument: np.ndarray, error: np.ndarray, fmt: str) -> np.ndarray:
    """sin of a real argument off by e, with a relative rule for small arguments.

    For |x| + e ≤ 1 no range reduction happens and sin is within `TRIGONOMETRIC_ERROR_UNITS`·u *relative*
    (plus the underflow η for results in the subnormal range): e + T·u·(|sin x| + e) + η. Elsewhere the absolute
    rule of `trig_error`. Without it a witness such as sin(ω/2) > 0 for ω = 10000^(−126/128) could never be
    certified in float16, although float16 holds it to a few units.
    """
    absolute = trig_error(error, fmt)
    eta = 0.0 if fmt == "mpmath" else tolerances.underflow_error(fmt)
    units = tolerances.TRIGONOMETRIC_ERROR_UNITS * format_unit_roundoff(fmt)
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
    aᵢ·(|x₁| + |x₂|) + b per coordinate (`tolerances.rotation_output_bound`), so in the 2-norm the twice-rotated
    key is off by E_k ≤ 2·max a(n)·‖k‖ + 2·max a(Δ)·(‖k‖ + E₁) + 2√d·b, and the query, rotated once at m + Δ
    (taken equal to n + Δ, the worst case for a block moved as a whole), by E_q ≤ 2·max a(m+Δ)·‖q‖ + √d·b. The
    score then follows `tolerances.relative_score_bound`: ‖q‖E_k + E_q‖k‖ + E_qE_k + γ_d(‖q‖ + E_q)(‖k‖ + E_k).

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
        offset = float(tolerances.rotation_output_bound(0.0, at, thetas, dtype).max())
        slope = float(tolerances.rotation_output_bound(1.0, at, thetas, dtype).max()) - offset
        return slope, offset

    slope_n, offset = slope_and_offset(position)
    slope_shift, _ = slope_and_offset(shift)
    slope_query, _ = slope_and_offset(position + shift)
    first = 2 * slope_n * k_norm + math.sqrt(d) * offset
    error_k = first + 2 * slope_shift * (k_norm + first) + math.sqrt(d) * offset
    error_q = 2 * slope_query * q_norm + math.sqrt(d) * offset
    rotation_part = q_norm * error_k + error_q * k_norm + error_q * error_k
    score_part = tolerances.dot_product_bound((q_norm + error_q) * (k_norm + error_k), d, dtype)
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
