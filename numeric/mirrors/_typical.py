"""The typical-case precision measurement: the ledger's per-pair score (ROPE-DOT-PROPERTY-003's generic block,
ROPE-PREFIX-REPHASE's score part) evaluated in a dtype for a few Gaussian q, k on the grid 2ᵏ, 3·2ᵏ⁻¹, summed over
the pairs pairwise in the dtype. Labelled *typical* wherever it is published: it depends on the seed and the grid;
the certified limits are the worst case of `ropecheck.numeric.mirrors._worst_case_scan`.
"""

from __future__ import annotations

import functools
from typing import Any

import jax.numpy as jnp
import numpy as np
import sympy as sp

from ..reference import tolerances
from ._inputs import store_in
from ._jax import BATCH, JAX_DTYPES, SMALL_BATCH, pairwise_sum, run_jax_in_batches, x64_enabled
from ._program import Program, compile_program

__all__ = [
    "DIMENSION",
    "largest_position",
    "ledger_identity",
    "position_grid",
    "sum_in_dtype",
    "typical_relative_errors",
]

DIMENSION = 128
_SAMPLES = 4
#: Cases per JAX batch: the cases of a typical run are padded to a multiple of this, so each operation of the score
#: program compiles for one shape per dtype whatever the grid's length (33 positions for float16, 108 for the rest).
_CASES = BATCH // (_SAMPLES * DIMENSION // 2)
OFFSETS = (1, 5, 37)
_OFFSETS = OFFSETS


def ledger_identity(claim_id: str, symbol_names: set[str]) -> Any:
    """The first identity in a claim's statement tree whose lhs has exactly these free symbols (by name); the
    search walks parts, steps, base/step and refutations, so it survives a reshaped statement tree."""
    from ropecheck.proofs import get_claim

    pending = [get_claim(claim_id).statement]
    while pending:
        node = pending.pop(0)
        lhs = getattr(node, "lhs", None)
        if lhs is not None and {str(s) for s in sp.sympify(lhs).free_symbols} == symbol_names:
            return node
        for field in ("parts", "steps"):
            pending += list(getattr(node, field, None) or [])
        for field in ("base", "step", "against"):
            child = getattr(node, field, None)
            if child is not None and not isinstance(child, sp.Basic):
                pending.append(child)
    raise LookupError(f"{claim_id}: no identity in {sorted(symbol_names)}")


def sum_in_dtype(values: np.ndarray, dtype: str) -> np.ndarray:
    """Σ over the last axis, accumulated pairwise in the dtype itself (every partial sum rounded to it), as a
    16-bit accumulator would; `jnp.sum` would accumulate float16/bfloat16 in float32."""
    rows = values.reshape(-1, values.shape[-1])
    # Rows padded with zeros to a multiple of `SMALL_BATCH` (one shape for the additions, as for the short curves).
    padded = np.pad(rows, ((0, -rows.shape[0] % SMALL_BATCH), (0, 0)))
    with x64_enabled():
        columns = [jnp.asarray(padded[:, i]).astype(JAX_DTYPES[dtype]) for i in range(values.shape[-1])]
        total = pairwise_sum(columns, lambda a, b: a + b)
        return np.asarray(total.astype(jnp.float64))[: rows.shape[0]].reshape(values.shape[:-1])


@functools.cache
def _thetas() -> np.ndarray:
    from ropecheck.proofs.engine._formulas import rope_frequencies

    return np.array([float(t) for t in rope_frequencies(DIMENSION)])


@functools.cache
def _score_program(kind: str) -> tuple[Program, dict[str, sp.Symbol]]:
    """The per-pair score of the ledger: `relative` (ROPE-DOT-PROPERTY-003, generic block) or `rephase`
    (ROPE-PREFIX-REPHASE, re-phased key)."""
    claim_id, wanted = (
        ("ROPE-DOT-PROPERTY-003", {"q1", "q2", "k1", "k2", "m", "n", "theta"})
        if kind == "relative"
        else ("ROPE-PREFIX-REPHASE", {"q1", "q2", "k1", "k2", "m", "n", "theta", "delta"})
    )
    identity = ledger_identity(claim_id, wanted)
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
    per_pair = run_jax_in_batches(program, inputs, dtype)[0].real.reshape(cases, _SAMPLES, pairs)
    return sum_in_dtype(per_pair, dtype)


@functools.lru_cache(maxsize=256)
def _scores_of(kind: str, m: bytes, n: bytes, shift: bytes, seed: int, dtype: str) -> np.ndarray:
    """`_scores` for the vectors of `seed`, keyed by the exact bytes of the float64 positions: the exact scores (the
    same for every mode of a grid) and float64's two pipelines (the same computation) are evaluated once. The cases
    are padded with position 0 to a multiple of `_CASES` (one shape per dtype; each case is evaluated on its own)."""
    q, k = _vectors(seed)
    positions = [np.frombuffer(values, dtype=np.float64) for values in (m, n, shift)]
    cases = positions[0].size
    padding = -cases % _CASES
    scores = _scores(kind, *(np.pad(values, (0, padding)) for values in positions), q, k, dtype)[:cases]
    scores.flags.writeable = False
    return scores


def _shared_scores(kind: str, m: np.ndarray, n: np.ndarray, shift: np.ndarray, seed: int, dtype: str) -> np.ndarray:
    def key(values: np.ndarray) -> bytes:
        return np.ascontiguousarray(values, dtype=np.float64).tobytes()

    return _scores_of(kind, key(m), key(n), key(shift), seed, dtype)


def typical_relative_errors(kind: str, dtype: str, mode: str, grid: np.ndarray, seed: int = 0) -> np.ndarray:
    """Max over samples and offsets of the relative score error at each grid position (typical case: 4 Gaussian
    q, k drawn with `seed`, offsets n − m ∈ {1, 5, 37})."""
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
        exact = _shared_scores("relative", exact_m, exact_n, np.zeros(grid.size), seed, "float64")
        if mode == "positions_in_dtype":
            stored = (store_in(m, dtype), store_in(n, dtype), store_in(shift, dtype))
            computed = _shared_scores(kind, *stored, seed, "float64")
        else:
            computed = _shared_scores(kind, m, n, shift, seed, dtype)
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
