"""Relative: scores depend on n − m only, ⟨f(q, m), f(k, n)⟩ = ⟨f(q, m + s), f(k, n + s)⟩ (ROPE-RELATIVE-MATRIX)."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    bound_ratio,
    round_to,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "relative"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = (
    "ROPE-RELATIVE-MATRIX",
    "ROPE-QK-RELATIVE",
    "ROPE-KV-CACHE-REUSE",
    "ROPE-DOT-PROPERTY-003",
    "ROPE-SHIFT-INVARIANCE-003",
)


def check_relative(ctx: AuditContext, ideal: Ideal, dtype: str) -> None:
    """Scores depend on n − m only: ⟨f(q, m), f(k, n)⟩ = ⟨f(q, m + s), f(k, n + s)⟩ (ROPE-RELATIVE-MATRIX)."""
    last = ctx.finite_n(dtype) - 1
    starts = sorted({p for p in (0, 1, 5, 100, 1000, 3000, last // 2) if p < ctx.n})
    shifts = sorted({s for s in (1, 13, 1024, last // 2) if 0 < s})
    pairs = []
    for m in starts:
        for n in starts:
            for shift in shifts:
                if max(m, n) + shift <= last:
                    pairs.append((m, n, shift))
    # Far apart: |m − n| up to the audited context (a term in m + n that grows with |m − n| shows only there).
    for shift in shifts:
        far = last - shift
        if far > 0:
            pairs.extend([(0, far, shift), (far, 0, shift)])
    pairs = list(dict.fromkeys(pairs))
    if not pairs:
        ctx.add("relative", True, "Too few positions to compare shifted scores.", dtype=dtype)
        return
    positions = np.array(sorted({p for m, n, s in pairs for p in (m, n, m + s, n + s)}), dtype=np.int64)
    index = {int(p): i for i, p in enumerate(positions)}
    q = round_to(ctx.rng.normal(size=ctx.d), dtype)
    k = round_to(ctx.rng.normal(size=ctx.d), dtype)
    probes = np.stack([np.broadcast_to(q, (positions.size, ctx.d)), np.broadcast_to(k, (positions.size, ctx.d))])
    y = ctx.call(dtype, probes, positions, "relative")
    if y is None:
        return
    _, bound_q = ideal.expected(probes[0], positions, dtype)
    _, bound_k = ideal.expected(probes[1], positions, dtype)
    error_q, error_k = np.linalg.norm(bound_q, axis=-1), np.linalg.norm(bound_k, axis=-1)
    scores = y[0] @ y[1].T
    g = ideal.attention_factor
    q_norm, k_norm = float(np.linalg.norm(q)), float(np.linalg.norm(k))
    first = np.array([(index[m], index[n]) for m, n, _ in pairs])
    second = np.array([(index[m + s], index[n + s]) for m, n, s in pairs])
    gap = np.abs(scores[first[:, 0], first[:, 1]] - scores[second[:, 0], second[:, 1]])
    bound = policy.score_bound(q_norm, k_norm, error_q[first[:, 0]], error_k[first[:, 1]], ctx.d, g)
    bound = bound + policy.score_bound(q_norm, k_norm, error_q[second[:, 0]], error_k[second[:, 1]], ctx.d, g)
    ratio = bound_ratio(gap, bound)
    worst = int(np.argmax(ratio))
    ok = bool(ratio[worst] <= 1)
    m, n, shift = pairs[worst]
    if ok:
        detail = (
            f"⟨f(q, m), f(k, n)⟩ depends on n − m only: {len(pairs)} score pairs (shifts up to {max(shifts)},"
            f" |n − m| up to {max(abs(m - n) for m, n, _ in pairs)}) agree within the bound."
        )
    else:
        detail = (
            f"Scores are not shift-invariant: ⟨f(q, {m}), f(k, {n})⟩ ="
            f" {scores[first[worst, 0], first[worst, 1]]:.6g}"
            f" but ⟨f(q, {m + shift}), f(k, {n + shift})⟩ = {scores[second[worst, 0], second[worst, 1]]:.6g}"
            f" (bound {bound[worst]:.3g}); R(m)ᵀR(n) = R(n − m) does not hold, so cached keys cannot be reused."
        )
    ctx.add(
        "relative",
        ok,
        detail,
        fix="rotate position p by exactly p·θᵢ so that R(m)ᵀR(n) = R(n − m)",
        dtype=dtype,
        max_error=gap[worst],
        bound=bound[worst],
        position=max(m, n) + shift,
    )
