"""Norm: M(m) is orthogonal (up to g) at every position, so ‖M(m)x‖ = g·‖x‖ (ROPE-NORM-PRESERVING).

Bound: entries off by at most β give |‖col‖² − g²| and |col₁·col₂| ≤ 2√2·g·β + 2β² (`policy.orthogonality_bound`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import block_angles, entry_bound
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
)

__all__ = ["CLAIMS", "NAME", "check_norm", "measure_gain"]

NAME = "norm"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-NORM-PRESERVING", "ROPE-COMPLEX-IS-ROTATION")


def check_norm(ctx: AuditContext, ideal: Ideal, dtype: str, s: dict[str, Any]) -> None:
    if ideal.gain is not None:
        return  # the root cause was reported by `measure_gain`; the sweep was judged against the measured gain
    """The norm finding of one dtype from the sweep's orthogonality record `s["norm_worst"]`, `s["norm_first"]`
    (the sweep measures ‖col‖² − g² and col₁·col₂ of every pair's block against `policy.orthogonality_bound`)."""
    norm_ratio, norm_error, norm_bound, norm_where = s["norm_worst"]
    g = ideal.attention_factor
    precision = ctx.precision_class.get(dtype)
    if precision is not None and not precision.is_policy and s["class_norm_worst"].get(precision.name, 0.0) <= 1:
        norm_ratio = min(norm_ratio, 1.0)  # within the bound of the target's precision class (see precision)
    if not np.isfinite(norm_error):
        ctx.add(
            "norm",
            True,
            f"see precision: outputs are not finite from position {s['norm_first']} on, so norms cannot be compared.",
            status="explained",
            explained_by="precision",
            dtype=dtype,
            position=s["norm_first"],
        )
        return
    if norm_ratio <= 1:
        target = "orthogonal" if g == 1 else f"orthogonal up to the attention factor {g:.6g}"
        detail = f"M(m) is {target} at every position (‖M(m)x‖ = {'g·' if g != 1 else ''}‖x‖)"
        if norm_where == 0 and norm_error == 0.0:
            detail += (
                ": every entry of every block is within the policy bound β of g·R(m), which gives"
                " |‖col‖² − g²|, |col₁·col₂| ≤ 2√2·g·β + 2β²"
            )
            norm_error = norm_bound = None
        detail += "."
        position = norm_where
    else:
        position = s["norm_first"]
        detail = (
            f"M(m) is not orthogonal from position {position} on: column norms or their dot product off by"
            f" {norm_error:.3g} (bound {norm_bound:.3g}); norms are not preserved."
        )
    ctx.add("norm", norm_ratio <= 1, detail, dtype=dtype, max_error=norm_error, bound=norm_bound, position=position)


def measure_gain(ctx: AuditContext, ideal: Ideal, matrices: np.ndarray, positions: np.ndarray, dtype: str) -> Ideal:
    """Detect a rotation scaled by a constant ρ ≠ g (a missing, doubled or unexpected attention factor): the root
    cause is reported here, once, and the ideal takes ρ so later properties are judged against it.

    ρ is the scale √(c² + s²) of every pair's block at positions 0…32 (`block_angles`); it is a root cause when
    all of them agree on one ρ (within the per-entry bound) and ρ differs from g by more than that bound.

    **Returns:**

    The ideal (with `gain` ρ when the target's gain is constant and not g).
    """
    if ideal.pairs.size == 0:
        return ideal
    _, rho = block_angles(matrices, ideal.pairs)
    g = ideal.attention_factor
    beta = float(entry_bound(positions[-1:], dtype, ideal.theta_units, g)[0])
    measured = float(np.median(rho))
    if not np.isfinite(measured) or abs(measured - g) <= 2 * beta or float(np.abs(rho - measured).max()) > 2 * beta:
        return ideal
    if ideal.scaling is not None and ideal.scaling.attention_factor() != 1.0:
        cause = f"the cos/sin carry {measured:.6g}, not the attention factor g = {g:.6g} of {ideal.scaling.spec()}"
        fix = (
            f"multiply cos and sin by g = {g:.6g}; or, if g is applied in the softmax scale instead, declare"
            f" attn=softmax in the scaling ({ideal.scaling.kind}:…,attn=softmax)"
        )
    else:
        cause = f"every 2×2 block is scaled by {measured:.6g} (expected {g:.6g}): M(m) is not a rotation"
        fix = "do not scale cos and sin: each block must be [[cos, −sin], [sin, cos]]"
    ctx.add(
        "norm",
        False,
        f"Norms are scaled by a constant: {cause}.",
        fix=fix,
        max_error=abs(measured - g),
        bound=2 * beta,
    )
    ctx.gain_measured = measured
    return dataclasses.replace(ideal, gain=measured)
