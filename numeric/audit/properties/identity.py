"""Identity: position 0 leaves x unchanged (up to the attention factor g)."""

from __future__ import annotations

import dataclasses

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    block_angles,
    entry_bound,
    estimate_frequencies,
    extract_matrices,
)
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
)

__all__ = ["CLAIMS", "NAME", "check_identity", "measure_offset"]

NAME = "identity"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-RELATIVE-MATRIX")


def measure_offset(ctx: AuditContext, ideal: Ideal, matrices: np.ndarray, positions: np.ndarray, dtype: str) -> Ideal:
    """Detect a position offset δ (position p rotated as p + δ, e.g. an off-by-one): the root cause is reported
    here, once, and the ideal takes δ so later properties are judged against it.

    The angles φᵢ(p) of positions 0…32 are fitted with slope and intercept (`estimate_frequencies`); δ is the
    intercept over the slope of the fastest pair, rounded, and is accepted only when every pair's intercept
    agrees with δ·θ̂ᵢ and position 0 is not the identity.

    **Returns:**

    The ideal (with `offset` δ when one was found).
    """
    if ideal.pairs.size == 0 or positions.size < 4:
        return ideal
    phi, _ = block_angles(matrices, ideal.pairs)
    phi = ideal.sign * phi
    zero = np.abs(phi[0])
    beta = entry_bound(np.zeros(1, dtype=np.int64), dtype, ideal.theta_units, ideal.attention_factor)[0]
    tolerance = policy.angle_tolerance(np.array(beta), ideal.attention_factor)
    if float(zero.max()) <= float(tolerance):
        return ideal
    slopes = estimate_frequencies(phi[1:], positions[1:])
    fastest = int(np.argmax(np.abs(slopes)))
    if not abs(slopes[fastest]) > 1e-6:
        return ideal
    offset = round(float(phi[0, fastest] / slopes[fastest]))
    predicted = np.angle(np.exp(1j * (offset * slopes - phi[0])))
    if offset == 0 or float(np.abs(predicted).max()) > 1e-3:
        return ideal
    shifted = dataclasses.replace(ideal, offset=offset)
    ctx.position_offset = offset
    sign = "+" if offset > 0 else "−"
    ctx.add(
        "identity",
        False,
        f"Position 0 is not the identity: it is rotated by {offset}·θᵢ in every pair — positions are offset by"
        f" {sign}{abs(offset)} (position p is rotated as p {sign} {abs(offset)}).",
        fix=f"rotate position p by p·θᵢ: remove the {sign}{abs(offset)} from the positions (or the angle table index)",
        dtype=dtype,
        max_error=float(zero.max()),
        bound=float(tolerance),
        position=0,
    )
    return shifted


def check_identity(ctx: AuditContext, ideal: Ideal, matrix: np.ndarray | None, dtype: str) -> None:
    """M(0) = g·I (pass-through coordinates: 1), within the per-entry bound at the dtype's precision class."""
    if matrix is None:
        matrix = extract_matrices(ctx.session.caller(dtype), np.arange(1), dtype, ctx.d)
    expected = ideal.attention_factor * np.eye(ctx.d)
    expected[ideal.passthrough, ideal.passthrough] = 1.0
    beta = entry_bound(
        np.zeros(1, dtype=np.int64),
        dtype,
        ideal.theta_units,
        ideal.attention_factor,
        precision=ideal.classes.get(dtype),
    )[0]
    error = np.abs(matrix[0] - expected)
    worst = float(error.max())
    ok = worst <= beta
    if ok:
        detail = "Position 0 leaves x unchanged" + (
            f" (up to the attention factor {ideal.attention_factor:.6g})." if ideal.attention_factor != 1 else "."
        )
    else:
        row, column = np.unravel_index(int(np.argmax(error)), error.shape)
        detail = (
            f"Position 0 is not the identity: M(0)[{row}, {column}] = {matrix[0][row, column]:.6g}, expected "
            f"{expected[row, column]:.6g}."
        )
    ctx.add(
        "identity",
        ok,
        detail,
        fix="make position 0 return x unchanged (cos 1, sin 0, no extra factor)",
        dtype=dtype,
        max_error=worst,
        bound=beta,
        position=0,
    )
