"""The numeric checks of the sinusoidal kind: precision sweep, SPE-DOT-RELATIVE and SPE-SHIFT-ROTATION transferred.

- **precision** (per dtype): every row of positions 0…N−1 against the reference in double-double
  (`ropecheck.numeric._encoding_reference.sinusoidal_table`) in the target's own pairing, orientation, scale and offset,
  under the policy bound `angle_bound` (angles in float32, float64 for float64 tables).
- **certified position**: with e_p = PE_target(p)/g − PE(p) measured, SPE-DOT-RELATIVE
  (⟨PE(p), PE(q)⟩ = Σᵢ cos ωᵢ(p − q)) transfers with |error| ≤ 2·‖PE‖·E + E², ‖PE‖ = √(d/2), E = max ‖e_p‖₂ over
  p ≤ M; relative to the largest value d/2 this must stay within the budget.
- **relative**: the target's own Gram entries ⟨T(p), T(q)⟩/g² compared between (p, q) and (p + δ, q + δ), within
  twice the transferred bound of a conforming table plus the float64 accumulation.
- **shift**: T(p + Δ) against the seed's matrix [[cos ωᵢΔ, sin ωᵢΔ], [−sin ωᵢΔ, cos ωᵢΔ]] applied to each pair as
  stored, with the target's own measured ωᵢ, so that only the claim's structure is tested, not the spectrum.
"""

from __future__ import annotations

import math

import numpy as np
from ropecheck.numeric.audit.properties.sinusoidal_structure import Structure, angle_bound, expected_table, pairs_of
from ropecheck.numeric.reference import tolerances

__all__ = ["certified_position", "gram_shift_check", "precision_sweep", "shift_check"]

_CHUNK = 4096


def precision_sweep(
    table_for: object, positions: np.ndarray, structure: Structure, d: int, base: float, scheme: str, offset: int,
    dtype: str,
) -> dict[str, object]:
    """Compare every row with the reference; returns errors, bounds, first failure and per-row error norms.

    `table_for(positions)` returns the target's float64 rows.
    """
    worst_ratio, first_bad, worst_error, worst_bound = 0.0, -1, 0.0, 0.0
    row_error = np.zeros(positions.size)
    omegas = None
    for start in range(0, positions.size, _CHUNK):
        chunk = positions[start: start + _CHUNK]
        rows = table_for(chunk)  # type: ignore[operator]
        wanted = expected_table(chunk, structure, d, base, scheme, offset)
        if omegas is None:
            from ropecheck.numeric._encoding_reference import sinusoidal_frequencies

            omegas = sinusoidal_frequencies(d, base, scheme).hi
        bound = angle_bound(chunk + offset, omegas, dtype, base, scheme) * structure.scale
        bound = np.repeat(bound, 2, axis=1) if structure.layout == "interleaved" else np.concatenate([bound, bound], 1)
        error = np.abs(rows - wanted)
        error = np.where(np.isnan(error), np.inf, error)
        ratio = error / bound
        row_error[start: start + chunk.size] = np.sqrt(np.sum((error / structure.scale) ** 2, axis=1))
        bad_rows = np.flatnonzero(np.max(ratio, axis=1) > 1)
        if bad_rows.size and first_bad < 0:
            first_bad = int(chunk[bad_rows[0]])
        index = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        if ratio[index] > worst_ratio:
            worst_ratio, worst_error, worst_bound = float(ratio[index]), float(error[index]), float(bound[index])
    return {
        "ratio": worst_ratio, "first_bad": first_bad, "max_error": worst_error, "bound": worst_bound,
        "row_error": row_error,
    }


def transferred_bound(row_error_max: float, d: int) -> float:
    """Relative bound on ⟨PE(p), PE(q)⟩ (divided by its largest value d/2) for rows off by at most E in 2-norm."""
    norm = math.sqrt(d / 2)
    return (2 * norm * row_error_max + row_error_max**2) / (d / 2)


def certified_position(row_error: np.ndarray, positions: np.ndarray, d: int, budget: float) -> int:
    """The largest audited position M with the SPE-DOT-RELATIVE transfer bound ≤ budget (−1: none)."""
    running = np.maximum.accumulate(row_error)
    within = np.flatnonzero([transferred_bound(float(e), d) + _dot_rounding(d) <= budget for e in running])
    if not within.size:
        return -1
    # `running` is monotone, so the positions within budget are a prefix.
    return int(positions[within[-1]])


def _dot_rounding(d: int) -> float:
    """The auditor's own float64 dot product of two rows (relative to d/2)."""
    return float(tolerances.dot_product_bound(d, d, "float64")) / (d / 2)


def gram_shift_check(
    table_for: object, positions: np.ndarray, shifts: np.ndarray, structure: Structure, d: int, base: float,
    dtype: str, omegas: np.ndarray, scheme: str = "standard",
) -> tuple[float, float, float, tuple[int, int, int]]:
    """max |⟨T(p+δ), T(q+δ)⟩ − ⟨T(p), T(q)⟩|/g² over p, q in `positions` and δ in `shifts`.

    **Returns:**

    `(ratio, error, bound, (p, q, δ) of the worst case)`; the bound is twice the transferred bound of a
    conforming table at the largest position involved, plus the float64 accumulation.
    """
    base_rows = table_for(positions) / structure.scale  # type: ignore[operator]
    gram = base_rows @ base_rows.T
    worst = (0.0, 0.0, 0.0, (0, 0, 0))
    for delta in shifts:
        shifted = table_for(positions + delta) / structure.scale  # type: ignore[operator]
        gram_shifted = shifted @ shifted.T
        top = int(positions.max() + delta)
        entry = float(np.max(angle_bound(np.array([top]), omegas, dtype, base, scheme)))
        row_bound = entry * math.sqrt(d)
        bound = 2 * (2 * math.sqrt(d / 2) * row_bound + row_bound**2) + 2 * float(
            tolerances.dot_product_bound(d, d, "float64"))
        difference = np.abs(gram_shifted - gram)
        index = np.unravel_index(int(np.argmax(difference)), difference.shape)
        ratio = float(difference[index]) / bound
        if ratio > worst[0] or not np.isfinite(ratio):
            worst = (ratio, float(difference[index]), bound,
                     (int(positions[index[0]]), int(positions[index[1]]), int(delta)))
    return worst


def shift_check(
    table_for: object, positions: np.ndarray, shifts: np.ndarray, structure: Structure, omegas_measured: np.ndarray,
    omegas_bound: np.ndarray, base: float, dtype: str, d: int, scheme: str = "standard",
) -> tuple[float, float, float, tuple[int, int], bool]:
    """Check T(p + Δ) = M(ωΔ)·T(p) pair by pair with the seed's matrix on the pairs as stored.

    **Returns:**

    `(ratio, error, bound, (p, Δ) of the worst case, backwards)`; `backwards` is True when the seed's matrix
    moves the table to p − Δ instead (pairs stored (cos, sin): the shift is the transpose).
    """
    rows = table_for(positions) / structure.scale  # type: ignore[operator]
    first, second = pairs_of(rows, structure.layout)
    worst = (0.0, 0.0, 0.0, (0, 0), False)
    for delta in shifts:
        target = table_for(positions + delta) / structure.scale  # type: ignore[operator]
        back = table_for(np.maximum(positions - delta, 0)) / structure.scale  # type: ignore[operator]
        angle = omegas_measured * delta
        c, s = np.cos(angle), np.sin(angle)
        moved_first, moved_second = c * first + s * second, -s * first + c * second
        want_first, want_second = pairs_of(target, structure.layout)
        error = np.maximum(np.abs(moved_first - want_first), np.abs(moved_second - want_second))
        entry = angle_bound(positions + delta, omegas_bound, dtype, base, scheme)
        # Two table rows off by β each, and the rotation angle off by Δ·|ω̂ − ω| (√2·that on a unit pair).
        bound = 2 * 2 * entry + 2 * math.sqrt(2) * delta * _frequency_uncertainty(entry) + 8 * 2.0**-53
        ratio = error / bound
        index = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        if ratio[index] > worst[0]:
            back_first, back_second = pairs_of(back, structure.layout)
            valid = positions - delta >= 0
            backwards = bool(valid.any()) and bool(np.all(
                np.maximum(np.abs(moved_first - back_first), np.abs(moved_second - back_second))[valid]
                <= bound[valid]))
            worst = (float(ratio[index]), float(error[index]), float(bound[index]),
                     (int(positions[index[0]]), int(delta)), backwards)
    return worst


def _frequency_uncertainty(entry: np.ndarray) -> np.ndarray:
    """|ω̂ − ω| after doubling up to p = 1024: the angle bound at the largest read position over 1024, twice."""
    return 2 * math.sqrt(2) * np.max(entry, axis=0, keepdims=True) / 1024 * 4
