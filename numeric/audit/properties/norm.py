"""Norm: M(m) is orthogonal (up to g) at every position, so ‖M(m)x‖ = g·‖x‖ (ROPE-NORM-PRESERVING).

Bound: entries off by at most β give |‖col‖² − g²| and |col₁·col₂| ≤ 2√2·g·β + 2β² (`policy.orthogonality_bound`).
"""

from __future__ import annotations

from typing import Any

from numeric.audit.context import AuditContext
from numeric.audit.ideal import (
    Ideal,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "norm"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-NORM-PRESERVING", "ROPE-COMPLEX-IS-ROTATION")


def check_norm(ctx: AuditContext, ideal: Ideal, dtype: str, s: dict[str, Any]) -> None:
    """The norm finding of one dtype from the sweep's orthogonality record `s["norm_worst"]`, `s["norm_first"]`
    (the sweep measures ‖col‖² − g² and col₁·col₂ of every pair's block against `policy.orthogonality_bound`)."""
    norm_ratio, norm_error, norm_bound, norm_where = s["norm_worst"]
    g = ideal.attention_factor
    if norm_ratio <= 1:
        target = "orthogonal" if g == 1 else f"orthogonal up to the attention factor {g:.6g}"
        detail = f"M(m) is {target} at every position (‖M(m)x‖ = {'g·' if g != 1 else ''}‖x‖)."
        position = norm_where
    else:
        position = s["norm_first"]
        detail = (
            f"M(m) is not orthogonal from position {position} on: column norms or their dot product off by"
            f" {norm_error:.3g} (bound {norm_bound:.3g}); norms are not preserved."
        )
    ctx.add("norm", norm_ratio <= 1, detail, dtype=dtype, max_error=norm_error, bound=norm_bound, position=position)
