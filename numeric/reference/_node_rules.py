"""Node rules: the error model applied to one node of an expression tree (`numeric.mirrors` runs them bottom-up
over a SymPy statement). Given each operand's exact value and a bound on its computed error, each rule bounds
the computed result.

Complex arithmetic follows Higham Lemma 3.5 (product √2·γ₂, quotient √2·γ₄, sum u per component). Every rule
carries the underflow term η = `flush_error(fmt)` for each rounding it models (XLA on CPU flushes subnormal
results and inputs to zero in bfloat16, float32 and float64, so an operation whose exact result is tiny may
return 0); library calls (cos, sin, exp, sqrt) are charged their measured accuracy (`library_error_units`).
"mpmath" is a format too: an evaluation at MPMATH_DPS digits modelled with u = mpmath_tolerance(MPMATH_DPS)
and no underflow.
"""

from __future__ import annotations

import math

import numpy as np

from ._formats import (
    DTYPES,
    gamma,
    mpmath_tolerance,
    underflow_error,
    unit_roundoff,
)
from ._library import library_error_units, trigonometric_units

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


def flush_error(fmt: str) -> float:
    """η of the format: `underflow_error` for dtypes (flush-to-zero aware), 0 for mpmath (no underflow at the
    magnitudes mirrors use).

    **Arguments:**

    - `fmt`: one of `FORMATS`.

    **Returns:**

    η as a float.
    """
    return 0.0 if fmt == "mpmath" else underflow_error(fmt)


def input_error(values: np.ndarray, fmt: str) -> np.ndarray:
    """The error of an input held exactly in the format: 0, except that a subnormal input reads as 0 where the
    backend flushes subnormals (|x| < η means x is subnormal; then the error is |x|).

    **Arguments:**

    - `values`: the inputs (real or complex), exact in the format.
    - `fmt`: one of `FORMATS`.

    **Returns:**

    The per-input error bound.
    """
    eta = flush_error(fmt)
    parts = np.abs(np.real(values)) * (np.abs(np.real(values)) < eta) + np.abs(np.imag(values)) * (
        np.abs(np.imag(values)) < eta
    )
    return parts.astype(np.float64)


def add_error(magnitudes: list[np.ndarray], errors: list[np.ndarray], fmt: str) -> np.ndarray:
    """A sum of k computed summands accumulated pairwise in the format (the mirrors' order, a tree of depth
    ⌈log₂ k⌉): Σ eᵢ + γ_⌈log₂ k⌉·Σ(|vᵢ| + eᵢ), plus (k − 1)·η(1 + γ) for partial sums flushed to zero (√2 of it
    per complex sum)."""
    total_error = sum(errors, np.zeros_like(magnitudes[0]))
    size = sum((m + e for m, e in zip(magnitudes, errors, strict=True)), np.zeros_like(magnitudes[0]))
    additions = len(magnitudes) - 1
    depth = math.ceil(math.log2(len(magnitudes))) if additions > 0 else 0
    flushes = math.sqrt(2) * additions * (1 + format_gamma(depth, fmt)) * flush_error(fmt)
    with np.errstate(invalid="ignore"):
        return _finite_or_inf(total_error + format_gamma(depth, fmt) * size + flushes)


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

    `exact_factors` counts factors ±1, whose products do not round. Underflow: the product is formed left to
    right, so the η of step j (the partial product v₁⋯vⱼ flushed) is multiplied by the later factors:
    η·Σⱼ Π_(i>j)(|vᵢ| + eᵢ), times 3√2 for a complex product (two products and a sum per component).
    """
    growth, perturbed = _product_propagation(magnitudes, errors)
    per_product = math.sqrt(2) * format_gamma(2, fmt) if complex_result else format_unit_roundoff(fmt)
    count = max(len(magnitudes) - 1 - exact_factors, 0)
    compounded = math.inf if count * per_product >= 1 else count * per_product / (1 - count * per_product)
    eta = flush_error(fmt) * (3 * math.sqrt(2) if complex_result else 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        later = np.ones_like(magnitudes[0])
        flushes = np.zeros_like(magnitudes[0])
        for m, e in zip(reversed(magnitudes[1:]), reversed(errors[1:]), strict=True):
            flushes = flushes + later
            later = later * (m + e)
        flushes = eta * flushes * (1 + compounded)
        return _finite_or_inf(growth + compounded * perturbed + flushes)


def power_error(
    magnitude: np.ndarray, error: np.ndarray, exponent: int, fmt: str, *, complex_result: bool
) -> np.ndarray:
    """xⁿ for an integer n ≥ 1 computed by n − 1 multiplications (any association)."""
    return mul_error([magnitude] * exponent, [error] * exponent, fmt, complex_result=complex_result)


def reciprocal_error(magnitude: np.ndarray, error: np.ndarray, fmt: str, *, complex_result: bool) -> np.ndarray:
    """1/y: |1/ŷ − 1/y| ≤ e/(|y|(|y| − e)) plus one rounding (γ₃ for the complex reciprocal) and η; inf if
    e ≥ |y|, and for a complex y whose |y|² (formed first) could flush to zero."""
    rounding = format_gamma(3, fmt) if complex_result else format_unit_roundoff(fmt)
    eta = flush_error(fmt)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        room = magnitude - error
        bound = error / (magnitude * room) + rounding / room + 2 * eta
        defined = room > 0
        if complex_result:
            defined &= room * room > 4 * eta
        return _finite_or_inf(np.where(defined, bound, np.inf))


def sqrt_error(magnitude: np.ndarray, error: np.ndarray, fmt: str) -> np.ndarray:
    """√x for x ≥ 0: |√x̂ − √x| ≤ min(e/√x, √e), plus the measured evaluation error (relative) and η."""
    units = library_error_units("sqrt", fmt)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(magnitude)
        propagated = np.where(root > 0, np.minimum(error / np.where(root > 0, root, 1), np.sqrt(error)), np.sqrt(error))
        evaluation = units * format_unit_roundoff(fmt) * np.sqrt(magnitude + error)
        return _finite_or_inf(propagated + evaluation + flush_error(fmt))


def exp_error(real_part: np.ndarray, error: np.ndarray, fmt: str, *, complex_argument: bool) -> np.ndarray:
    """exp(z): |e^ẑ − e^z| ≤ e^(Re z)·expm1(e), plus the evaluation error at the perturbed size.

    Real: X·u relative, X the measured exp allowance (`library_error_units("exp", fmt)`). Complex, as
    e^a·(cos b, sin b): each component within e^a·((X + 1)·u + T·u) (T the measured cos/sin allowance), the
    modulus within √2 times that. Plus η per rounding (a result below the smallest normal may flush to 0).
    """
    u = format_unit_roundoff(fmt)
    x_units, t_units = library_error_units("exp", fmt), trigonometric_units(fmt)
    evaluation = math.sqrt(2) * (x_units + t_units + 1) * u * (1 + 4 * u) if complex_argument else x_units * u
    eta = flush_error(fmt) * (3 * math.sqrt(2) if complex_argument else 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.exp(real_part)
        return _finite_or_inf(size * np.expm1(error) + evaluation * size * np.exp(error) + eta)


def trig_error(error: np.ndarray, fmt: str) -> np.ndarray:
    """cos or sin of a real argument off by e: e + T·u + η (T the measured allowance, `trigonometric_units`),
    capped at 2 (inf stays inf)."""
    bound = error + trigonometric_units(fmt) * format_unit_roundoff(fmt) + flush_error(fmt)
    return np.where(np.isinf(bound) | np.isnan(bound), np.inf, np.minimum(bound, 2.0))


def sine_error(argument: np.ndarray, error: np.ndarray, fmt: str) -> np.ndarray:
    """sin of a real argument off by e, with a relative rule for small arguments.

    For |x| + e ≤ 1, sin is within S·u *relative* (S the measured `sin_small` allowance), plus the underflow η
    for results below the smallest normal: e + S·u·(|sin x| + e) + η. Elsewhere the absolute
    rule of `trig_error`. Without it a witness such as sin(ω/2) > 0 for ω = 10000^(−126/128) could never be
    certified in float16, although float16 holds it to a few units.
    """
    absolute = trig_error(error, fmt)
    eta = flush_error(fmt)
    units = library_error_units("sin_small", fmt) * format_unit_roundoff(fmt)
    with np.errstate(invalid="ignore"):
        relative = error + units * (np.abs(np.sin(argument)) + error) + eta
        small = np.abs(argument) + error <= 1
    return np.where(small, np.minimum(relative, absolute), absolute)


def modulus_error(magnitude: np.ndarray, error: np.ndarray, fmt: str, *, complex_argument: bool) -> np.ndarray:
    """|z|: exact for reals; for complex z as √(re² + im²): e + γ₃·(|z| + e) (two squares and a sum, then √ at
    its measured accuracy), plus √(3η) for squares and the sum flushed to zero before the root."""
    if not complex_argument:
        return error
    rounding = format_gamma(2, fmt) + library_error_units("sqrt", fmt) * format_unit_roundoff(fmt)
    rounding = rounding * (1 + format_gamma(2, fmt))
    return _finite_or_inf(error + rounding * (magnitude + error) + math.sqrt(3 * flush_error(fmt)))
