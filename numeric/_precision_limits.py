"""Precision limits: the largest position at which RoPE's proved identities still hold to a score-error budget.

ROPE-DOT-PROPERTY-003 / ROPE-RELATIVE-MATRIX prove ⟨R_m q, R_n k⟩ = qᵀR(n−m)k exactly; ROPE-PREFIX-REPHASE proves
that a cached key re-phased by R(Δ) scores as if it had been rotated at its new position. In a dtype both drift
as positions grow. For d = 128, base 10000, this module measures (and predicts from the error model) the
largest position where the relative score error |ŝ − qᵀR(n−m)k| / (‖q‖·‖k‖) stays within a budget:

- `angles_in_dtype`: positions, frequencies, angles, cos/sin, rotations and the score all in the dtype;
- `positions_in_dtype`: positions stored in the dtype (rounded), everything else in float64;
- `rephase`: a key cached at a small position, re-phased by a shift Δ in the dtype, scored against a query at
  its new position, all in the dtype; the limit is on Δ.

The per-block score is the ledger's own statement (the generic-block lemma of ROPE-DOT-PROPERTY-003, the
score part of ROPE-PREFIX-REPHASE), evaluated pair by pair (blockwise rule) and summed over the 64 pairs.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from . import tolerances
from ._mirrors import DTYPES, Program, compile_program, run_jax, store_in
from .tolerances import largest_integer_where, rephased_score_bound

__all__ = ["BUDGET", "largest_position", "position_grid", "precision_limits_table"]

#: The default score-error budget, relative to ‖q‖·‖k‖.
BUDGET = 1e-3
DIMENSION = 128
_SAMPLES = 4
_OFFSETS = (1, 5, 37)


@functools.cache
def _thetas() -> np.ndarray:
    from proofs._formulas import rope_frequencies

    return np.array([float(t) for t in rope_frequencies(DIMENSION)])


@functools.cache
def _score_program(kind: str) -> tuple[Program, dict[str, sp.Symbol]]:
    """The per-pair score of the ledger: `relative` (ROPE-DOT-PROPERTY-003, generic block) or `rephase`
    (ROPE-PREFIX-REPHASE, re-phased key)."""
    from proofs import get_claim

    if kind == "relative":
        identity = get_claim("ROPE-DOT-PROPERTY-003").statement.steps[0]
    else:
        identity = get_claim("ROPE-PREFIX-REPHASE").statement.parts[1]
    program = compile_program([identity.lhs])
    return program, {str(s): s for s in program.symbols}


def position_grid(dtype: str) -> np.ndarray:
    """Positions 2ᵏ and 3·2ᵏ⁻¹ from 1 up to the dtype's largest finite value (2⁵³ at most)."""
    top = min(tolerances.largest_finite(dtype), 2.0**53)
    powers = [2.0**k for k in range(0, 54) if 2.0**k <= top]
    grid = sorted({p for p in powers} | {1.5 * p for p in powers if 1.5 * p <= top} | {0.0})
    return np.array(grid)


def _vectors(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((_SAMPLES, DIMENSION))
    k = rng.standard_normal((_SAMPLES, DIMENSION))
    return q, k


def _scores(
    kind: str, m: np.ndarray, n: np.ndarray, shift: np.ndarray, q: np.ndarray, k: np.ndarray, dtype: str
) -> np.ndarray:
    """Scores for every (case, sample): the per-pair program over all pairs, summed over pairs in the dtype.

    Shapes: `m`, `n`, `shift` (cases,), `q`, `k` (samples, d); returns (cases, samples).
    """
    program, symbols = _score_program(kind)
    cases, pairs = m.size, DIMENSION // 2
    thetas = store_in(_thetas(), dtype)

    def tile(values: np.ndarray) -> np.ndarray:  # (cases,) → (cases, samples, pairs), flattened
        return np.broadcast_to(values[:, None, None], (cases, _SAMPLES, pairs)).reshape(-1)

    def pair_part(vectors: np.ndarray, which: int) -> np.ndarray:
        part = store_in(vectors.reshape(_SAMPLES, pairs, 2)[:, :, which], dtype)
        return np.broadcast_to(part[None], (cases, _SAMPLES, pairs)).reshape(-1)

    inputs = {
        symbols["theta"]: np.broadcast_to(thetas[None, None, :], (cases, _SAMPLES, pairs)).reshape(-1),
        symbols["q1"]: pair_part(q, 0),
        symbols["q2"]: pair_part(q, 1),
        symbols["k1"]: pair_part(k, 0),
        symbols["k2"]: pair_part(k, 1),
        symbols["m"]: tile(m),
        symbols["n"]: tile(n),
    }
    if "delta" in symbols:
        inputs[symbols["delta"]] = tile(shift)
    per_pair = run_jax(program, inputs, dtype)[0].real.reshape(cases, _SAMPLES, pairs)
    import jax.numpy as jnp

    from ._mirrors import _JAX_DTYPES

    summed = jnp.sum(jnp.asarray(per_pair).astype(_JAX_DTYPES[dtype]), axis=-1)
    return np.asarray(summed.astype(jnp.float64))


def _relative_errors(kind: str, dtype: str, mode: str, grid: np.ndarray, seed: int = 0) -> np.ndarray:
    """Max over samples and offsets of the relative score error at each grid position."""
    q, k = _vectors(seed)
    norms = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    worst = np.zeros(grid.size)
    for offset in _OFFSETS:
        if kind == "relative":
            m, n, shift = grid, grid + offset, np.zeros(grid.size)
            exact_m, exact_n = np.zeros(grid.size), np.full(grid.size, float(offset))
        else:
            m, n, shift = np.full(grid.size, float(offset)), np.zeros(grid.size), grid
            exact_m, exact_n = np.full(grid.size, float(offset)), np.zeros(grid.size)
        exact = _scores("relative", exact_m, exact_n, np.zeros(grid.size), q, k, "float64")
        if mode == "positions_in_dtype":
            computed = _scores(kind, store_in(m, dtype), store_in(n, dtype), store_in(shift, dtype), q, k, "float64")
        else:
            computed = _scores(kind, m, n, shift, q, k, dtype)
        with np.errstate(invalid="ignore"):
            error = np.abs(computed - exact) / norms[None, :]
        worst = np.maximum(worst, np.where(np.isfinite(error), error, np.inf).max(axis=1))
    return worst


def largest_position(errors: np.ndarray, grid: np.ndarray, budget: float) -> float:
    """The largest grid position M such that every grid position ≤ M is within the budget (−1 if none)."""
    failing = np.nonzero(errors > budget)[0]
    if failing.size == 0:
        return float(grid[-1])
    return float(grid[failing[0] - 1]) if failing[0] > 0 else -1.0


def _predicted_rephase(dtype: str, budget: float) -> int:
    thetas = _thetas()
    return largest_integer_where(lambda shift: rephased_score_bound(1.0, 1.0, 0, shift, thetas, dtype) <= budget)


def precision_limits_table(budget: float = BUDGET) -> dict[str, Any]:
    """The precision-limits table of the ledger JSON.

    **Arguments:**

    - `budget`: the relative score-error budget.

    **Returns:**

    `{"budget", "d", "base", "offsets", "<dtype>": {"angles_in_dtype": {"measured", "predicted"},
    "positions_in_dtype": {"measured", "predicted"}, "rephase": {"measured", "predicted"}}}`: largest positions
    (largest shifts for `rephase`); `measured` on the grid 2ᵏ, 3·2ᵏ⁻¹ (d = 128, 4 random q, k pairs, offsets
    n − m ∈ {1, 5, 37}), `predicted` from the error model (`tolerances.largest_position_within`,
    `rephased_score_bound`). A measured limit above the predicted one is expected (the model bounds the worst
    case); below it would be a model defect.
    """
    thetas = _thetas()
    table: dict[str, Any] = {"budget": budget, "d": DIMENSION, "base": 10000, "offsets": list(_OFFSETS)}
    for dtype in DTYPES:
        grid = position_grid(dtype)
        row: dict[str, Any] = {}
        errors = _relative_errors("relative", dtype, "angles_in_dtype", grid)
        row["angles_in_dtype"] = {
            "measured": largest_position(errors, grid, budget),
            "predicted": tolerances.largest_position_within(budget, thetas, dtype),
        }
        errors = _relative_errors("relative", dtype, "positions_in_dtype", grid)
        row["positions_in_dtype"] = {
            "measured": largest_position(errors, grid, budget),
            # Once positions round, m and m + offset can land on one value: an angle error of a whole θ₀ = 1.
            "predicted": min(
                tolerances.exact_integer_limit(dtype) - max(_OFFSETS),
                tolerances.largest_position_within(budget, thetas, "float64"),
            ),
        }
        errors = _relative_errors("rephase", dtype, "angles_in_dtype", grid)
        row["rephase"] = {
            "measured": largest_position(errors, grid, budget),
            "predicted": _predicted_rephase(dtype, budget),
        }
        table[dtype] = row
    return table
