"""Certified (worst-case) precision limits: the largest position M such that for every unit q, k and every
positions up to M, the relative score error of RoPE's relative identity (or of a re-phased cached key) stays
within the budget (ROPE-RELATIVE-MATRIX, ROPE-DOT-PROPERTY-003, ROPE-PREFIX-REPHASE).

The worst case splits in two (d = 128, base 10000):

- **the rotations**: sup over unit q, k of |qᵀ(R̂(m)ᵀR̂(n) − R(n − m))k|, from the cos and sin the dtype actually
  computes at *every* position 0 … M (the ledger's `rotation(m·θ)` compiled and run in the dtype, against the
  fast reference's exact angles), through `numeric.reference.worst_case_relative_error`'s per-pair bound. It is
  non-decreasing in M (running extremes), so the scan stops at the first position that breaks the budget. Each
  chunk of positions is first judged at its last position (its extremes merged with those before it); only a chunk
  whose last position is not clearly within the budget is read position by position. The per-chunk extremes are
  computed once per dtype and kept, shared by the modes and summation orders that scan the same cos and sin.
- **the arithmetic** of applying R̂ to unit q, k and of the score (pairwise accumulation in the dtype), bounded
  by the error model: two products and an addition per coordinate (γ₂), the dot product γ_(1+⌈log₂ d⌉), and η.

Beyond `SCAN_LIMIT` positions the scan is not affordable; the limit is then bisected on the model's bound
(monotone in M: `tolerances.largest_position_within`) and labelled so.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import sympy as sp

from ..reference import angles_mod_2pi, inverse_frequencies, tolerances
from ..reference._worst_case import angle_errors, per_pair_bound
from ._inputs import store_in
from ._jax import run_jax_in_batches
from ._program import Program, compile_program
from ._typical import DIMENSION

__all__ = ["SCAN_LIMIT", "SUMMATIONS", "arithmetic_bound", "worst_case_limit"]

#: Positions scanned one by one at most; beyond, the model's monotone bound is bisected.
SCAN_LIMIT = 2**20
_CHUNK = 2**13
#: Per pair: the largest and smallest angle error ε and modulus ρ (`numeric.reference._worst_case`).
_Statistics = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_m, _theta = sp.Symbol("m", integer=True), sp.Symbol("theta", positive=True)


@functools.cache
def _rotation_program() -> Program:
    """cos and sin of m·θ from the ledger's rotation block (ROPE-PAIR-FORMULA), each compiled on its own."""
    from ropecheck.proofs.engine._formulas import rotation

    block = rotation(_m * _theta)
    return compile_program([block[0, 0], block[1, 0]])


@functools.cache
def _frequencies() -> tuple[np.ndarray, Any]:
    reference = inverse_frequencies(DIMENSION)
    return reference.hi.copy(), reference


def computed_cos_sin(positions: np.ndarray, dtype: str, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of every RoPE angle as a pipeline computes them, shape `(positions, d/2)`, in float64.

    **Arguments:**

    - `positions`: integer positions.
    - `dtype`: the dtype under study.
    - `mode`: `angles_in_dtype` (positions, θ, angle and cos/sin in the dtype) or `positions_in_dtype`
      (positions stored in the dtype, the rest in float64).

    **Returns:**

    `(cos, sin)`.
    """
    thetas, _ = _frequencies()
    compute_in = dtype if mode == "angles_in_dtype" else "float64"
    # Rounded before the grid is spread out (elementwise, so the same values at a 64th of the conversions).
    grid_m = np.repeat(store_in(np.asarray(positions, dtype=np.float64), dtype), thetas.size)
    grid_theta = np.tile(store_in(thetas, compute_in), len(positions))
    inputs = {_m: grid_m, _theta: grid_theta}
    cos, sin = run_jax_in_batches(_rotation_program(), inputs, compute_in)
    shape = (len(positions), thetas.size)
    return cos.real.reshape(shape), sin.real.reshape(shape)


#: How the score's d products may be summed: `pairwise` (depth 1 + ⌈log₂ d⌉, as `run_jax` and XLA's CPU reduction
#: accumulate) or `any` (γ_d, the bound every summation order meets: issue 23, point 4).
SUMMATIONS = ("pairwise", "any")


def arithmetic_bound(dtype: str, rho: float, rotations: int, summation: str = "pairwise") -> float:
    """The model's bound on applying `rotations` computed rotations (moduli ≤ ρ) to unit q, k and on the score,
    all in the dtype, relative to ‖q‖·‖k‖.

    **Arguments:**

    - `dtype`: the arithmetic dtype.
    - `rho`: the largest |Ẑ| = √(ĉ² + ŝ²) seen.
    - `rotations`: 2 (q and k rotated once) or 3 (the key rotated twice: cached, then re-phased).
    - `summation`: one of `SUMMATIONS`: the dot product accumulated pairwise (γ_(1+⌈log₂ d⌉)) or in any order (γ_d).

    **Returns:**

    The bound as a float (`inf` when the model guarantees nothing).
    """
    if summation not in SUMMATIONS:
        raise ValueError(f"summation must be one of {SUMMATIONS}, got {summation!r}")
    d = DIMENSION
    eta = tolerances.underflow_error(dtype)
    per_rotation = tolerances.gamma(2, dtype) * rho * math.sqrt(2)
    offset = math.sqrt(d) * 3 * eta
    error_q = per_rotation + offset
    error_k = per_rotation + offset
    if rotations == 3:
        error_k = error_k * rho + per_rotation * (rho + error_k) + offset
    norm_k = rho ** (rotations - 1)
    depth = 1 + math.ceil(math.log2(d)) if summation == "pairwise" else d
    score = tolerances.gamma(depth, dtype) * (rho + error_q) * (norm_k + error_k) + (2 * d - 1) * eta
    return float(rho * error_k + error_q * norm_k + error_q * error_k + score)


def _block_bisected(dtype: str, budget: float) -> int:
    """The model's largest Δ for a block of keys cached at n ≤ Δ moved by Δ (key at n = Δ, query at 2Δ: the bound's
    worst case, `rephased_score_bound`)."""
    thetas, _ = _frequencies()
    return tolerances.largest_integer_where(
        lambda shift: tolerances.rephased_score_bound(1.0, 1.0, shift, shift, thetas, dtype) <= budget
    )


def _bisected(dtype: str, mode: str, budget: float) -> int:
    thetas, _ = _frequencies()
    if mode == "positions_in_dtype":
        return min(tolerances.exact_integer_limit(dtype), tolerances.largest_position_within(budget, thetas, "float64"))
    if mode == "rephase":
        return tolerances.largest_integer_where(
            lambda shift: tolerances.rephased_score_bound(1.0, 1.0, 0, shift, thetas, dtype) <= budget
        )
    return tolerances.largest_position_within(budget, thetas, dtype)


@functools.lru_cache(maxsize=2)
def _chunk_errors(dtype: str, cos_sin_mode: str, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """The angle error ε and the modulus ρ of every computed rotation at positions `start` … `stop` − 1 (rows), per
    pair (columns): the dtype's cos and sin (`computed_cos_sin`) against the fast reference's exact angles. Kept for
    the last chunks asked, read-only: a chunk where the budget may break is read again position by position."""
    _, reference = _frequencies()
    positions = np.arange(start, stop)
    cos, sin = computed_cos_sin(positions, dtype, cos_sin_mode)
    errors = angle_errors(cos, sin, angles_mod_2pi(positions.astype(np.int64), reference))
    modulus = np.hypot(cos, sin)
    errors.flags.writeable = modulus.flags.writeable = False
    return errors, modulus


@functools.lru_cache(maxsize=4096)
def _chunk_extremes(dtype: str, cos_sin_mode: str, start: int, stop: int) -> _Statistics:
    """`(ε_max, ε_min, ρ_max, ρ_min)` per pair over the positions `start` … `stop` − 1 of `_chunk_errors`: a few
    hundred floats per chunk, shared by every mode, factor count and summation that scans these rotations (the
    angles_in_dtype and rephase scans of a dtype read the same cos and sin)."""
    errors, modulus = _chunk_errors(dtype, cos_sin_mode, start, stop)
    extremes = (errors.max(axis=0), errors.min(axis=0), modulus.max(axis=0), modulus.min(axis=0))
    for extreme in extremes:
        extreme.flags.writeable = False
    return extremes


def _merged(chunk: _Statistics, previous: _Statistics | None) -> _Statistics:
    """Running extremes: a chunk's (per row, or over the chunk) merged with those of every position before it."""
    if previous is None:
        return chunk
    return (
        np.maximum(chunk[0], previous[0]),
        np.minimum(chunk[1], previous[1]),
        np.maximum(chunk[2], previous[2]),
        np.minimum(chunk[3], previous[3]),
    )


def _rotation_by_row(
    errors: np.ndarray, modulus: np.ndarray, previous: _Statistics | None, factors: int
) -> tuple[np.ndarray, np.ndarray, _Statistics]:
    """Per position of a block of rows: the worst-case rotation error over every position up to it (running
    extremes, merged with `previous`), the largest modulus so far, and the running extremes after the block."""
    prefix = _merged(
        (
            np.maximum.accumulate(errors, axis=0),
            np.minimum.accumulate(errors, axis=0),
            np.maximum.accumulate(modulus, axis=0),
            np.minimum.accumulate(modulus, axis=0),
        ),
        previous,
    )
    after = (prefix[0][-1], prefix[1][-1], prefix[2][-1], prefix[3][-1])
    return per_pair_bound(prefix, factors=factors).max(axis=1), prefix[2].max(axis=1), after


def _mode_parameters(mode: str, dtype: str) -> tuple[int, int, str]:
    """A mode's rotation factors (3 for re-phasing: R̂(Δ)R̂(n) against R(n + Δ)), the positions its scan reaches past
    the limit (re-phasing: keys at n ≤ 37), and the dtype its arithmetic runs in."""
    factors, reach = (3, 37) if mode == "rephase" else (2, 0)
    return factors, reach, "float64" if mode == "positions_in_dtype" else dtype


#: A chunk is read position by position unless its last position is within the budget by this relative margin
#: (far above the few ulps by which a rounded evaluation of the monotone bound could fail to be monotone).
_MARGIN = 2.0**-30
#: Rows of a chunk read together position by position.
_ROWS = 2**10


def _first_broken(
    dtype: str,
    cos_sin_mode: str,
    start: int,
    stop: int,
    previous: _Statistics | None,
    mode: str,
    budget: float,
    summation: str,
) -> dict[str, Any] | None:
    """The first position of a chunk where the rotation and arithmetic bounds together break the budget, as
    `worst_case_limit` reports it (None when every position of the chunk is within)."""
    factors, reach, arithmetic_dtype = _mode_parameters(mode, dtype)
    errors, modulus = _chunk_errors(dtype, cos_sin_mode, start, stop)
    for offset in range(0, stop - start, _ROWS):  # in blocks of rows: the budget often breaks early in the chunk
        rows = slice(offset, offset + _ROWS)
        rotation, rho, previous = _rotation_by_row(errors[rows], modulus[rows], previous, factors)
        unique = np.unique(rho)
        arithmetic = np.array([arithmetic_bound(arithmetic_dtype, float(r), factors, summation) for r in unique])
        arithmetic = arithmetic[np.searchsorted(unique, rho)]
        broken = np.nonzero((rotation + arithmetic > budget) | ~np.isfinite(arithmetic))[0]
        if broken.size:
            break
    else:
        return None
    index = int(broken[0])
    position = start + offset + index
    found = {
        "limit": max(position - reach - 1, -1),
        "method": "scanned every position",
        "rotation_error": float(rotation[index]),
        "arithmetic_error": float(arithmetic[index]),
    }
    if mode == "rephase":  # every position ≤ P enters the running bound: P = first broken − 1
        found["every_key_limit"] = max(position - 1, -1) // 2 if position else -1
    return found


def worst_case_limit(
    dtype: str, mode: str, budget: float, *, scan_limit: int = SCAN_LIMIT, summation: str = "pairwise"
) -> dict[str, Any]:
    """The certified largest position (or shift, for `rephase`) within the budget, for every unit q, k.

    **Arguments:**

    - `dtype`: float16, bfloat16, float32 or float64.
    - `mode`: `angles_in_dtype`, `positions_in_dtype` or `rephase` (`limit`: a key cached at n ≤ 37, re-phased
      by a shift Δ, scored against a query at m + Δ with m ≤ 37, positions 0 … Δ + 37 enter; `every_key_limit`:
      every key n ≤ Δ).
    - `budget`: the relative score-error budget.
    - `scan_limit`: positions scanned at most before falling back to the model's bound.
    - `summation`: the score's summation order the scan's arithmetic bound assumes (`SUMMATIONS`); the bisected
      fallback uses the model's γ_d, which holds in any order.

    **Returns:**

    `{"limit": M (−1 when even position 0 breaks the budget), "method": "scanned every position" |
    "bisected on the model bound", "rotation_error", "arithmetic_error"}` (the two parts at the first position
    that breaks the budget when scanned, else at the last position scanned). For `rephase` also
    `"every_key_limit"` (issue 23, point 1): the largest Δ such that **every** key cached at any n ≤ Δ, re-phased
    by Δ and scored against a query at any position ≤ n + Δ, stays within the budget. The running bound at
    position P covers every key, shift and query position ≤ P, so when scanned it is ⌊P/2⌋ with P the last
    position within; when bisected, the model's bound at key n = Δ, query 2Δ.
    """
    factors, reach, arithmetic_dtype = _mode_parameters(mode, dtype)
    cos_sin_mode = "positions_in_dtype" if mode == "positions_in_dtype" else "angles_in_dtype"
    if mode == "positions_in_dtype" and tolerances.exact_integer_limit(dtype) > scan_limit:
        scan_limit = 0  # exact positions below the limit: nothing to scan that the model does not already give
    stats: _Statistics | None = None
    last = {"rotation_error": 0.0, "arithmetic_error": 0.0}
    end = scan_limit + reach + 1 if scan_limit else 0
    for start in range(0, end, _CHUNK):
        stop = min(start + _CHUNK, end)
        after = _merged(_chunk_extremes(dtype, cos_sin_mode, start, stop), stats)
        # The bound is non-decreasing in the position (running extremes): when the chunk's last position is
        # within the budget (with a margin), so is every position of the chunk; else read it position by position.
        rotation_end = float(per_pair_bound(after, factors=factors).max())
        arithmetic_end = arithmetic_bound(arithmetic_dtype, float(after[2].max()), factors, summation)
        total = rotation_end + arithmetic_end
        if not (math.isfinite(total) and total <= budget * (1 - _MARGIN)):
            found = _first_broken(dtype, cos_sin_mode, start, stop, stats, mode, budget, summation)
            if found is not None:
                return found
        stats = after
        last = {"rotation_error": rotation_end, "arithmetic_error": arithmetic_end}
    found = {"limit": _bisected(dtype, mode, budget), "method": "bisected on the model bound", **last}
    if mode == "rephase":
        found["every_key_limit"] = _block_bisected(dtype, budget)
    return found
