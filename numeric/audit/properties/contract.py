"""Contract: output of x's shape and dtype, finite, input left unmodified, a repeated call identical."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit.function.calls import BadOutput, CallFailed, to_float64
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.ideal import (
    bound_ratio,
    framework_copy,
    largest,
    round_to,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "contract"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-KV-CACHE-REUSE",)

CONTRACT_LENGTH = 64


def check_contract(ctx: AuditContext, dtype: str) -> bool:
    """Shape, dtype, finite, input left unmodified, same output on a repeated call. Returns usability."""
    caller = ctx.session.caller(dtype)
    reason = caller.supports(dtype)
    if reason:
        ctx.dtype_info[dtype] = {"status": "unsupported", "reason": reason}
        return False
    length = min(CONTRACT_LENGTH, ctx.n)
    x = round_to(ctx.rng.normal(size=(2, length, ctx.d)), dtype)
    positions = np.arange(length)
    framework_x = caller.to_framework(x, dtype)
    before = framework_copy(framework_x)
    try:
        raw = caller.call_raw(framework_x, caller.positions(positions))

        y = to_float64(raw, x.shape)
    except BadOutput as error:
        ctx.dtype_info[dtype] = {"status": "contract failed", "reason": error.reason}
        ctx.add(
            "contract",
            False,
            f"{error.reason[0].upper()}{error.reason[1:]}.",
            fix="return an array of x's shape and dtype",
            dtype=dtype,
        )
        return False
    except CallFailed as error:
        ctx.dtype_info[dtype] = {"status": "unsupported", "reason": f"the target raised {error.reason}"}
        return False
    problems = []
    out_dtype = str(getattr(raw, "dtype", "")).removeprefix("torch.")
    if out_dtype != dtype:
        problems.append(f"returns {out_dtype or type(raw).__name__} for {dtype} input")
    if not np.all(np.isfinite(y)):
        bad = np.argwhere(~np.isfinite(y))[0]
        problems.append(f"non-finite output (first at position {int(positions[bad[-2]])}, coordinate {bad[-1]})")
    after = framework_copy(framework_x)
    if not np.array_equal(before, after, equal_nan=True):
        problems.append("modifies its input x in place")
    y_again, _ = caller.call(x, positions, dtype)
    _, bound = ctx.loose_bound(x, positions, dtype)
    repeat_gap = np.abs(y_again - y)
    if np.any(bound_ratio(repeat_gap, bound) > 1) or (np.isnan(y) != np.isnan(y_again)).any():
        problems.append(
            f"a repeated call with the same input returns a different output (by {largest(repeat_gap):.3g})"
        )
    ok = not problems
    detail = (
        f"output of x's shape and dtype, finite, input unmodified, repeated call identical"
        f"{' (bitwise)' if np.array_equal(y, y_again, equal_nan=True) else ''}."
        if ok
        else "; ".join(problems).capitalize() + "."
    )
    ctx.add("contract", ok, detail, fix=_contract_fix(problems, dtype), dtype=dtype)
    ctx.dtype_info[dtype] = {"status": "supported", "output_dtype": out_dtype}
    ctx.contract_outputs[dtype] = (x, positions, y)
    return True


def _contract_fix(problems: list[str], dtype: str) -> str:
    """The fix for the first contract problem found."""
    fixes = {
        "returns": f"return x's dtype ({dtype}): cast the result back with .to(x.dtype) / .astype(x.dtype)",
        "non-finite": "keep every output finite (check the positions' dtype range and divisions)",
        "modifies": "do not write into x: compute the rotation into a new array",
        "a repeated": "make the output a function of (x, positions) only: no random or carried-over state",
    }
    first = problems[0] if problems else ""
    return next(
        (fix for key, fix in fixes.items() if first.startswith(key)), "return x rotated, of x's shape and dtype"
    )
