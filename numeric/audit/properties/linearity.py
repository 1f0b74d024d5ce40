"""Linearity: f(x + z) = f(x) + f(z) and f(2x) = 2·f(x) within the policy bound."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    bound_ratio,
    largest,
    round_to,
    sample_positions,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "linearity"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-COMPLEX-IS-ROTATION")


def check_linearity(ctx: AuditContext, ideal: Ideal, dtype: str) -> None:
    """f(x + z) = f(x) + f(z) (disjoint supports, so x + z is exact) and f(2x) = 2f(x)."""
    n = ctx.finite_n(dtype)
    length = min(16, n)
    positions = np.concatenate([np.arange(length // 2), sample_positions(n, length // 2)[: length // 2]])
    positions = np.unique(positions)
    even = np.zeros(ctx.d)
    even[::2] = 1.0
    x = round_to(ctx.rng.normal(size=(positions.size, ctx.d)) * even, dtype)
    z = round_to(ctx.rng.normal(size=(positions.size, ctx.d)) * (1 - even), dtype)
    probes = np.stack([x, z, x + z, 2 * x])
    y = ctx.call(dtype, probes, positions, "linearity")
    if y is None:
        return
    _, bound_x = ideal.expected(x, positions, dtype)
    _, bound_z = ideal.expected(z, positions, dtype)
    _, bound_sum = ideal.expected(x + z, positions, dtype)
    additivity = np.abs(y[2] - y[0] - y[1])
    homogeneity = np.abs(y[3] - 2 * y[0])
    ratio_add = bound_ratio(additivity, bound_x + bound_z + bound_sum)
    ratio_hom = bound_ratio(homogeneity, 4 * bound_x)
    worst_add, worst_hom = float(ratio_add.max()), float(ratio_hom.max())
    ok = worst_add <= 1 and worst_hom <= 1
    if ok:
        detail = "f(x + z) = f(x) + f(z) and f(2x) = 2·f(x) within rounding."
        error, bound = largest(additivity), float(np.max(bound_x + bound_z + bound_sum))
        position = None
    elif worst_hom > worst_add:
        row = int(np.unravel_index(int(np.argmax(ratio_hom)), ratio_hom.shape)[0])
        detail = (
            f"Not linear in x: f(2x) ≠ 2·f(x) (off by {largest(homogeneity[row]):.3g}) at position {positions[row]}."
        )
        error, bound, position = largest(homogeneity), float(np.max(4 * bound_x)), int(positions[row])
    else:
        row = int(np.unravel_index(int(np.argmax(ratio_add)), ratio_add.shape)[0])
        detail = (
            f"Not linear in x: f(x + z) ≠ f(x) + f(z) (off by {largest(additivity[row]):.3g})"
            f" at position {positions[row]}."
        )
        error, bound, position = largest(additivity), float(np.max(bound_x + bound_z + bound_sum)), int(positions[row])
    ctx.add(
        "linearity",
        ok,
        detail,
        fix="apply only the rotation: no normalisation, clipping or other function of x (RoPE is linear in x)",
        dtype=dtype,
        max_error=error,
        bound=bound,
        position=position,
    )
