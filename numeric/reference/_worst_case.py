"""The worst case over unit q, k of RoPE's relative identity with computed rotations (ROPE-RELATIVE-MATRIX,
ROPE-DOT-PROPERTY-003, ROPE-PREFIX-REPHASE): one definition for the precision limits and the audit.

Per pair i, a computed rotation at position p is the scaled rotation of Ẑᵢ(p) = ĉ + i·ŝ (its computed cos and
sin), the exact one that of zᵢ(p) = e^(i·p·θᵢ). Write Ẑᵢ(p) = zᵢ(p)·ρᵢ(p)·e^(i·εᵢ(p)) (ρ the modulus, ε the angle
error). The block of R̂(m)ᵀR̂(n) − R(n − m) is the scaled rotation of conj(Ẑ(m))Ẑ(n) − e^(i(n−m)θ), whose spectral
norm is its modulus |ρ(m)ρ(n)e^(i(ε(n) − ε(m))) − 1| ≤ |ρ(m)ρ(n) − 1| + 2|sin((ε(n) − ε(m))/2)|. R̂(m)ᵀR̂(n) is
block diagonal, so sup over unit q, k of |qᵀ(R̂(m)ᵀR̂(n) − R(n − m))k| is the largest block norm, and over every
m, n in a set of positions P it is at most

    maxᵢ [ max(ρ̄ᵢ² − 1, 1 − ρ̲ᵢ²) + 2·sin(min(ε̄ᵢ − ε̲ᵢ, π)/2) ]

(bars: largest and smallest over P), exact when every |Ẑ| = 1. This is the rotation part of the score error with
exact arithmetic applied to the computed rotations; the rounding of applying them and of the dot product is
added by the caller from the error model.
"""

from __future__ import annotations

import math

import numpy as np

from ._angles import DoubleDouble

__all__ = [
    "angle_errors",
    "per_pair_bound",
    "phase_statistics",
    "worst_case_from_statistics",
    "worst_case_relative_error",
]


def angle_errors(cos_hat: np.ndarray, sin_hat: np.ndarray, exact_angles: DoubleDouble | np.ndarray) -> np.ndarray:
    """ε = arg(Ẑ·e^(−iφ)) for exact angles φ (double-double: the trailing limb is subtracted after the product)."""
    if isinstance(exact_angles, DoubleDouble):
        high, low = exact_angles.hi, exact_angles.lo
    else:
        high, low = np.asarray(exact_angles, dtype=np.float64), 0.0
    cos_exact, sin_exact = np.cos(high), np.sin(high)
    shape = cos_exact.shape
    if not (np.shape(cos_hat) == np.shape(sin_hat) == shape and np.shape(low) in ((), shape)):
        return np.arctan2(sin_hat * cos_exact - cos_hat * sin_exact, cos_hat * cos_exact + sin_hat * sin_exact) - low
    # The same roundings in place (each product rounded, then the sum; a scan reads millions of angles).
    real = cos_hat * cos_exact
    product = sin_hat * sin_exact
    real += product
    imag = np.multiply(sin_hat, cos_exact, out=cos_exact)
    imag -= np.multiply(cos_hat, sin_exact, out=product)
    errors = np.arctan2(imag, real, out=real)
    errors -= low
    return errors


def phase_statistics(
    cos_hat: np.ndarray, sin_hat: np.ndarray, exact_angles: DoubleDouble | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per pair, over the positions (rows): the largest and smallest angle error ε and modulus ρ of Ẑ.

    **Arguments:**

    - `cos_hat`, `sin_hat`: float64 arrays `(positions, pairs)`, the computed cos and sin converted exactly.
    - `exact_angles`: the exact angles p·θᵢ (mod 2π), same shape: a `DoubleDouble` from `angles_mod_2pi` or a
      float64 array when its own error is negligible against the computed one.

    **Returns:**

    `(ε_max, ε_min, ρ_max, ρ_min)`, each of shape `(pairs,)`.
    """
    errors = angle_errors(np.asarray(cos_hat, np.float64), np.asarray(sin_hat, np.float64), exact_angles)
    modulus = np.hypot(cos_hat, sin_hat)
    return errors.max(axis=0), errors.min(axis=0), modulus.max(axis=0), modulus.min(axis=0)


def worst_case_from_statistics(
    statistics: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], *, factors: int = 2
) -> float:
    """The worst-case bound of the module docstring from per-pair statistics.

    **Arguments:**

    - `statistics`: `(ε_max, ε_min, ρ_max, ρ_min)` per pair over the positions considered.
    - `factors`: how many computed rotations meet in the score: 2 for ⟨R̂(m)q, R̂(n)k⟩, 3 for a cached key
      re-phased by R̂(Δ) (⟨R̂(m+Δ)q, R̂(Δ)R̂(n)k⟩: the phase error ε(Δ) + ε(n) − ε(m+Δ)).

    **Returns:**

    The bound as a float (at most 2 + the modulus part).
    """
    return float(np.max(per_pair_bound(statistics, factors=factors), initial=0.0))


def per_pair_bound(
    statistics: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], *, factors: int = 2
) -> np.ndarray:
    """The bracket of the module docstring per pair (elementwise): `worst_case_from_statistics` before its max.

    **Arguments:**

    - `statistics`: `(ε_max, ε_min, ρ_max, ρ_min)`, arrays of one shape (e.g. `(pairs,)`, or
      `(positions, pairs)` for running extremes up to each position).
    - `factors`: 2 or 3 (see `worst_case_from_statistics`).

    **Returns:**

    `max(ρ̄^f − 1, 1 − ρ̲^f) + 2·sin(min(spread, π)/2)`, same shape.
    """
    eps_max, eps_min, rho_max, rho_min = (np.asarray(s, dtype=np.float64) for s in statistics)
    if factors == 2:
        spread = eps_max - eps_min
    elif factors == 3:
        spread = np.maximum(np.abs(2 * eps_max - eps_min), np.abs(2 * eps_min - eps_max))
    else:
        raise ValueError(f"factors must be 2 or 3, got {factors}")
    modulus = np.maximum(rho_max**factors - 1, 1 - rho_min**factors)
    return modulus + 2 * np.sin(np.minimum(spread, math.pi) / 2)


def worst_case_relative_error(
    cos_hat: np.ndarray, sin_hat: np.ndarray, exact_angles: DoubleDouble | np.ndarray, *, factors: int = 2
) -> float:
    """sup over unit q, k and over every pair of positions given of |qᵀ(R̂(m)ᵀR̂(n) − R(n − m))k| (bound of the
    module docstring), for rotations built from computed cos and sin.

    **Arguments:**

    - `cos_hat`, `sin_hat`: float64 arrays `(positions, pairs)`: an implementation's cos and sin (or its
      rotation's entries) at every position of interest, converted exactly to float64.
    - `exact_angles`: the exact angles p·θᵢ mod 2π, same shape (`ropecheck.numeric.reference.angles_mod_2pi`).
    - `factors`: 2 for the relative identity, 3 for KV re-phasing (see `worst_case_from_statistics`).

    **Returns:**

    The worst-case relative score error (relative to ‖q‖·‖k‖) from the rotations alone.
    """
    return worst_case_from_statistics(phase_statistics(cos_hat, sin_hat, exact_angles), factors=factors)
