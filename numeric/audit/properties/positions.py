"""Positions: shuffled, offset, repeated and non-contiguous positions give the plain call's rows."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    sweep_probes,
)
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    bound_ratio,
    largest,
    round_to,
    structure_of,
)
from ropecheck.numeric.audit.function.session import SEED

__all__ = ["CLAIMS", "NAME"]

NAME = "positions"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-KV-CACHE-REUSE", "ROPE-PREFIX-REPHASE")


def check_positions(ctx: AuditContext, ideal: Ideal, dtype: str) -> None:
    """Shuffled, offset, repeated and non-contiguous positions give the rows of the plain call 0…max."""
    n = ctx.finite_n(dtype)
    length = min(64, n)
    rng = np.random.default_rng(SEED + 1)
    variants = {
        "shuffled": rng.permutation(length),
        "offset": np.arange(length) + min(1000, n - length),
        "repeated": np.repeat(np.arange(0, length, 4), 4)[:length][::-1].copy(),
        "non-contiguous": np.arange(length) * max(1, min(7, (n - 1) // max(length - 1, 1))) + 3,
    }
    variants = {name: np.clip(p, 0, n - 1) for name, p in variants.items()}
    probes, _ = sweep_probes(ctx.d, structure_of(ideal))
    failures = []
    worst_error, worst_bound = 0.0, 0.0
    for name, variant in variants.items():
        canonical = np.arange(int(variant.max()) + 1)
        x_variant = round_to(np.broadcast_to(probes[:2, np.newaxis, :], (2, variant.size, ctx.d)), dtype)
        x_canonical = round_to(np.broadcast_to(probes[:2, np.newaxis, :], (2, canonical.size, ctx.d)), dtype)
        y_variant = ctx.call(dtype, np.ascontiguousarray(x_variant), variant, "positions")
        y_canonical = ctx.call(dtype, np.ascontiguousarray(x_canonical), canonical, "positions")
        if y_variant is None or y_canonical is None:
            return
        _, bound = ideal.expected(x_variant, variant, dtype)
        gap = np.abs(y_variant - y_canonical[:, variant])
        ratio = bound_ratio(gap, 2 * bound)
        if ratio.max() > 1:
            row = int(np.unravel_index(int(np.argmax(ratio)), ratio.shape)[1])
            failures.append(
                f"{name} positions: row {row} (position {int(variant[row])}) differs from the plain call's row"
                f" for that position by {largest(gap[:, row]):.3g}"
            )
        worst_error = max(worst_error, largest(gap))
        worst_bound = max(worst_bound, float(np.max(2 * bound)))
    ok = not failures
    detail = (
        "Shuffled, offset, repeated and non-contiguous positions are honoured."
        if ok
        else "The positions argument is not honoured: " + "; ".join(failures) + "."
    )
    ctx.add(
        "positions",
        ok,
        detail,
        fix="index cos/sin by the positions argument (not by arange(L) or a running offset)",
        dtype=dtype,
        max_error=worst_error,
        bound=worst_bound,
    )


# -- the sweep: precision, norm, certified ----------------------------------------------------------------
