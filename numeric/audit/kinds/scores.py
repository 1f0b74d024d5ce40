"""`--kind scores`: certify a position-aware attention score `scores(q, k, q_positions, k_positions)`.

q has shape `(Lq, d)`, k `(Lk, d)`, positions are integers; the result is `(..., Lq, Lk)` (leading axes of size
one are dropped), in q's dtype or float32 for 16-bit inputs. Properties, in evaluation order:

- `contract`: shape, dtype, finite, inputs left unmodified.
- `relative`: shifting every position by δ leaves the scores unchanged within the dtype's bound
  (RPE-SHIFT-INVARIANCE; ROPE-QK-RELATIVE at the score level).
- `linearity`: scores(a·q₁ + b·q₂) − scores(0) = a·(…q₁…) + b·(…q₂…) (an additive bias is reported, not failed).
- `clipping`: for Shaw-style tables, the distance beyond which the score stops changing, both sides alike and equal
  to `--clip` when declared.
- `cache`: a query's scores against cached keys do not depend on the call (one query, all queries, more keys),
  up to a constant per row: ROPE-KV-CACHE-REUSE and the refutation of RPE-KV-CACHE-IMPOSSIBLE, transferred.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import AuditError, BadOutput, CallFailed
from ropecheck.numeric.audit.function.policy import DEFAULT_SCORE_BUDGET
from ropecheck.numeric.audit.kinds._calls import KindSession, call_float64, resolve_target
from ropecheck.numeric.audit.kinds._common import check_dtypes, modifies_arguments, precision_order, sentence
from ropecheck.numeric.audit.kinds._report import FindingLog, KindReport, make_report
from ropecheck.numeric.audit.properties.scores import CLAIMS, PROPERTIES, ScoresProperties

__all__ = ["CLAIMS", "PROPERTIES", "audit_scores"]

DEFAULT_MAX_POSITION = 4096


def audit_scores(
    target: Any,
    *,
    clip: int | None = None,
    head_dim: int | None = None,
    max_position: int = DEFAULT_MAX_POSITION,
    dtypes: Any = ("float32", "bfloat16", "float16", "float64"),
    framework: str = "auto",
    timeout: float = 30.0,
    budget: float = DEFAULT_SCORE_BUDGET,
    name: str | None = None,
    **ignored: Any,
) -> KindReport:
    """Audit an attention score function (see the module docstring for the properties).

    **Arguments:**

    - `target`: `scores(q, k, q_positions, k_positions)`, a TARGET string or a built-in adapter name.
    - `clip`: the declared Shaw clipping distance k (None: detected and reported).
    - `head_dim`: d of q and k (default 64).
    - `max_position`: positions up to N − 1 are used for the shifts.
    - `dtypes`, `framework`, `timeout`, `budget`, `name`: as for the other kinds.

    **Returns:**

    A `KindReport`. **Raises:** `AuditError` for bad options or a target that cannot be loaded or called.
    """
    if clip is not None and (not isinstance(clip, int) or isinstance(clip, bool) or not 0 <= clip <= 60):
        raise AuditError(f"--clip must be an integer in 0…60, got {clip!r}")
    if not isinstance(max_position, int) or max_position < 260:
        raise AuditError(f"--max-position must be an integer of at least 260 for --kind scores, got {max_position}")
    d = head_dim or 64
    if d <= 0 or d % 2:
        raise AuditError(f"--head-dim must be a positive even number, got {d}")
    wanted = check_dtypes(dtypes)
    loaded = resolve_target(target, name, "scores")
    probe = ((np.zeros((2, d)), "float32"), (np.zeros((3, d)), "float32"), np.arange(2), np.arange(3))
    session = KindSession(loaded, framework, timeout, None, probe)
    options = {"clip": clip, "head_dim": d, "max_position": max_position, "dtypes": list(wanted), "budget": budget}
    log = FindingLog(CLAIMS)
    runner = ScoresProperties(options, log)
    dtype_info: dict[str, dict[str, Any]] = {}
    usable: list[str] = []
    for dtype in wanted:
        caller = session.caller(dtype)
        reason = caller.supports(dtype)
        if reason:
            dtype_info[dtype] = {"status": "unsupported", "reason": reason}
            continue
        dtype_info[dtype] = _contract(caller, dtype, d, log)
        if dtype_info[dtype]["status"] == "supported":
            usable.append(dtype)
            runner.add_dtype(dtype, caller)
    if not usable and not log.findings:
        reasons = "; ".join(sorted({info.get("reason", "") for info in dtype_info.values()}))
        raise AuditError(f"the target cannot be called in any requested dtype: {reasons}")
    if usable:
        runner.run(sorted(usable, key=precision_order))
    return make_report("scores", loaded.name, session.framework, PROPERTIES, options, runner.detected, dtype_info,
                       log, {}, session.target_seconds(), head_dim=d)


def _contract(caller: Any, dtype: str, d: int, log: FindingLog) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(5, d)), rng.normal(size=(7, d))
    probe = ((q, dtype), (k, dtype), np.arange(3, 8), np.arange(7))
    try:
        out, out_dtype = call_float64(caller, probe, None)
    except BadOutput as error:
        log.add("contract", False, f"{error.reason[0].upper()}{error.reason[1:]}.", dtype=dtype,
                fix="Return the scores as an array (..., Lq, Lk)")
        return {"status": "contract failed", "reason": error.reason}
    except CallFailed as error:
        return {"status": "unsupported", "reason": f"the target raised {error.reason}"}
    problems = []
    if out.shape[-2:] != (5, 7) or out.size != 35:
        problems.append(f"returns shape {out.shape} for 5 queries and 7 keys (expected (..., 5, 7))")
    if out_dtype not in (dtype, "float32" if dtype in ("float16", "bfloat16") else dtype):
        problems.append(f"returns {out_dtype} for {dtype} inputs")
    if not np.all(np.isfinite(out)):
        problems.append("non-finite scores")
    if modifies_arguments(caller, probe):
        problems.append("modifies its arguments in place")
    ok = not problems
    log.add("contract", ok, f"returns (5, 7) {out_dtype} scores, finite; arguments left unmodified." if ok else
            sentence("; ".join(problems)) + ".", dtype=dtype,
            fix="Return finite (..., Lq, Lk) scores in q's dtype (or float32 for 16-bit inputs)")
    if not ok:
        return {"status": "contract failed", "reason": "; ".join(problems)}
    return {"status": "supported", "output_dtype": out_dtype}
