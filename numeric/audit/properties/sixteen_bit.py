"""Which quantity of a RoPE is held in a 16-bit dtype, read from the angles the target applies (precision's
root cause named from what is measured, not from a fixed class).

Each pair's applied angle φᵢ(p) is recovered from M(p) at positions a 16-bit dtype cannot hold exactly. Every
hypothesis predicts it: positions rounded (p′ = r(p)), θ rounded (θ′ = r(θ), or its reciprocal 1/θ — the
"timescale" — rounded), the angle rounded (φ′ = r(p′·θ′)), and each combination; the one that matches at every
(pair, position) within the recovery error, with the fewest rounded quantities, is the measurement. When the
angles are right yet precision failed, the cos/sin table (or the output) is the 16-bit quantity: which one is
read from whether the outputs of a random vector are exactly 16-bit numbers.
"""

from __future__ import annotations

import itertools

import numpy as np
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import extract_matrices
from ropecheck.numeric.audit.function.ideal import Ideal, round_to
from ropecheck.numeric.reference import tolerances

__all__ = ["measured_sixteen_bit"]

_SIXTEEN = ("bfloat16", "float16")
#: Positions no 16-bit dtype holds exactly (odd, above 256 for bfloat16 and above 2048 for float16).
_PROBES = (259, 301, 517, 1001, 2049, 2051, 3001, 4097, 6001, 12289)
_QUANTITIES = ("positions", "θ", "timescale 1/θ", "the angles")


def _wrap(angle: np.ndarray) -> np.ndarray:
    return np.angle(np.exp(1j * angle))


def _prediction(chosen: tuple[str, ...], positions: np.ndarray, theta: np.ndarray, dtype: str) -> np.ndarray:
    p = round_to(positions, dtype) if "positions" in chosen else positions.astype(np.float64)
    t = theta
    if "θ" in chosen:
        t = round_to(theta, dtype)
    elif "timescale 1/θ" in chosen:
        t = 1.0 / round_to(1.0 / theta, dtype)
    angle = p[:, None] * t[None, :]
    return round_to(angle, dtype) if "the angles" in chosen else angle


def measured_sixteen_bit(ctx: AuditContext, ideal: Ideal, dtype: str) -> tuple[str, str] | None:
    """The 16-bit quantities the target's angles show, and the fix for them.

    **Arguments:**

    - `ctx`: the audit context (calls the target in `dtype`).
    - `ideal`: the reference the precision property judged against (pairs, θ, direction).
    - `dtype`: the audited dtype whose precision failed.

    **Returns:**

    `(what, fix)`, e.g. `("positions held in bfloat16", "hold positions in float32 …")`, or None when no
    hypothesis fits (the class name stands) or no position probes the difference.
    """
    positions = np.array([p for p in _PROBES if p < ctx.finite_n(dtype)], dtype=np.int64)
    if positions.size == 0 or ideal.pairs.size == 0:
        return None
    try:
        matrices = extract_matrices(ctx.session.caller(dtype), positions, dtype, ctx.d)
    except Exception:  # a probe the target raises on: the class name stands
        return None
    a, b = ideal.pairs[:, 0], ideal.pairs[:, 1]
    _, _, frequencies = ideal.cos_sin(positions)
    theta = np.asarray(frequencies.hi, dtype=np.float64)
    theta = (theta[0] if theta.ndim > 1 else theta)[: a.size]
    sign = float(np.sign(ideal.sign)) or 1.0
    applied = np.arctan2(sign * matrices[:, b, a], matrices[:, a, a])
    # Recovery error: each entry carries the output dtype's rounding and the table's (when it is 16-bit).
    tolerance = 8 * tolerances.unit_roundoff("bfloat16" if dtype == "bfloat16" else "float16")
    best: tuple[float, int, str, tuple[str, ...]] | None = None
    for sixteen in _SIXTEEN:
        for size in range(0, 4):
            for chosen in itertools.combinations(_QUANTITIES, size):
                if "θ" in chosen and "timescale 1/θ" in chosen:
                    continue
                residual = float(np.max(np.abs(_wrap(applied - _prediction(chosen, positions, theta, sixteen)))))
                if residual <= tolerance and (best is None or (size, residual) < (best[1], best[0])):
                    best = (residual, size, sixteen, chosen)
    if best is None:
        return None
    _, _, sixteen, chosen = best
    if not chosen:
        return _table_or_output(ctx, positions, dtype)
    names = [name for name in chosen if name != "the angles"]
    what = " and ".join(names) + f" held in {sixteen}" if names else ""
    if "the angles" in chosen:
        what += ("; " if what else "") + f"the angles p·θ formed in {sixteen}"
    fix = (f"hold {' and '.join(names) or 'positions and θ'} in float32 and form the angles p·θ in float32; cast only"
           " cos/sin to x's dtype at the end")
    return f"{what} (measured from the applied angles at positions {positions[0]}…{positions[-1]})", fix


def _table_or_output(ctx: AuditContext, positions: np.ndarray, dtype: str) -> tuple[str, str] | None:
    """Angles right, precision failed: the cos/sin table or the output is held in a 16-bit dtype."""
    if dtype in _SIXTEEN:
        return None  # a 16-bit output is the policy's own for a 16-bit audit
    x = round_to(ctx.rng.normal(size=(1, positions.size, ctx.d)), dtype)
    try:
        y, _ = ctx.session.caller(dtype).call(x, positions, dtype)
    except Exception:
        return None
    for sixteen in _SIXTEEN:
        if np.array_equal(round_to(y, sixteen), y):
            return (f"the output rounded to {sixteen} (every output value is a {sixteen} number; the angles are"
                    f" right)", f"return the rotation in {dtype}: do not round it to {sixteen}")
    return (f"the cos/sin table held in a 16-bit dtype (the angles are right, the {dtype} outputs carry 16-bit"
            " error)", "keep cos and sin in float32 until they multiply x, or cast them to x's dtype, not below it")
