"""`--kind bias`: certify an additive relative position bias `bias(q_positions, k_positions) -> (H, Lq, Lk)`.

The target takes integer query and key positions (NumPy, torch or JAX) and returns the logit bias of every
head. `--scheme t5:buckets=32,max_distance=128,bidirectional=true|false` or `--scheme alibi` says what it should
be (detected when not given: a bias linear in k − q on the past side is ALiBi, anything else T5 with its defaults).
Properties, in evaluation order (the first failure is the root cause):

- `contract`: an array `(H, Lq, Lk)`, finite (−inf allowed for future keys, a causal mask), the dtype asked for,
  positions left unmodified.
- `relative`: RPE-SHIFT-INVARIANCE transferred: shifted and non-contiguous positions give f(k − q), up to a
  constant per query row (which softmax ignores).
- `sign`: ALiBi penalises distant past keys (m > 0); T5 buckets follow k − q (memory minus query position).
- `buckets` (T5): the bucket function against Raffel et al.: exact region, log buckets, clamp, bidirectional split.
- `slopes` (ALiBi): Press et al.'s slopes (geometric 2^(−8/n), the closest-power-of-two rule otherwise).
- `cache`: a decoding step's row (one query at t over keys 0…t) equals that row of the full matrix: the bias comes
  from positions alone, so cached keys stay valid (the refutation of RPE-KV-CACHE-IMPOSSIBLE, transferred).
- `precision` (per dtype): the bias at every distance up to max_position − 1 within rounding of the reference.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import AuditError, BadOutput, CallFailed
from ropecheck.numeric.audit.function.policy import DEFAULT_SCORE_BUDGET
from ropecheck.numeric.audit.function.table_length import find_table_length, note_table, short_table_message
from ropecheck.numeric.audit.kinds._calls import KindSession, call_float64, resolve_target
from ropecheck.numeric.audit.kinds._common import (
    check_dtypes,
    contract_each_dtype,
    modifies_arguments,
    precision_order,
    sentence,
)
from ropecheck.numeric.audit.kinds._report import FindingLog, KindReport, make_report
from ropecheck.numeric.audit.properties.bias import CLAIMS, PROPERTIES, BiasProperties

__all__ = ["CLAIMS", "PROPERTIES", "audit_bias", "parse_scheme"]

DEFAULT_MAX_POSITION = 4096
_T5_KEYS = {"buckets": int, "max_distance": int, "bidirectional": bool}


def parse_scheme(spec: str | dict[str, Any] | None) -> dict[str, Any] | None:
    """Read `t5[:buckets=N,max_distance=D,bidirectional=true|false]` or `alibi` (nothing is evaluated).

    **Returns:**

    None (detect), `{"name": "alibi"}`, or `{"name": "t5", "buckets": N, "max_distance": D, "bidirectional": b}`.
    """
    if spec is None or isinstance(spec, dict):
        return spec
    text = spec.strip().lower()
    if text == "alibi":
        return {"name": "alibi"}
    name, _, rest = text.partition(":")
    if name != "t5":
        raise AuditError(f"--scheme must be t5[:buckets=N,max_distance=D,bidirectional=true|false] or alibi, "
                         f"got {spec!r}")
    scheme: dict[str, Any] = {"name": "t5", "buckets": 32, "max_distance": 128, "bidirectional": True}
    for part in filter(None, (item.strip() for item in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals or key not in _T5_KEYS:
            raise AuditError(f"--scheme t5: unknown setting {part!r} (known: {', '.join(_T5_KEYS)})")
        if _T5_KEYS[key] is bool:
            if value not in ("true", "false"):
                raise AuditError(f"--scheme t5: {key} must be true or false, got {value!r}")
            scheme[key] = value == "true"
        else:
            if not re.fullmatch(r"[0-9]{1,7}", value):
                raise AuditError(f"--scheme t5: {key} must be a positive integer, got {value!r}")
            scheme[key] = int(value)
    per_direction = scheme["buckets"] // 2 if scheme["bidirectional"] else scheme["buckets"]
    if per_direction < 2 or scheme["max_distance"] <= per_direction // 2:
        raise AuditError("--scheme t5: need at least 2 buckets per direction and max_distance above the exact region")
    return scheme


def audit_bias(
    target: Any,
    *,
    scheme: str | dict[str, Any] | None = None,
    max_position: int = DEFAULT_MAX_POSITION,
    dtypes: Any = ("float32", "bfloat16", "float16", "float64"),
    framework: str = "auto",
    timeout: float = 30.0,
    budget: float = DEFAULT_SCORE_BUDGET,
    name: str | None = None,
    accept_short_table: bool = False,
    **ignored: Any,
) -> KindReport:
    """Audit a relative position bias (see the module docstring for the properties).

    **Arguments:**

    - `target`: `bias(q_positions, k_positions) -> (H, Lq, Lk)`, a TARGET string or a built-in adapter name.
    - `scheme`: `"t5:buckets=32,max_distance=128,bidirectional=true"`, `"alibi"`, or None (detect).
    - `max_position`: positions (and distances) 0…N−1 are audited.
    - `dtypes`: the dtypes to audit where the target lets the audit choose (a `dtype` keyword, an adapter).
    - `framework`, `timeout`, `budget`, `name`: as for the other kinds.
    - `accept_short_table`: a precomputed bias table shorter than `max_position` is audited on its positions and
      accepted; by default it fails `contract` ("the table holds N positions; the model needs M").

    **Returns:**

    A `KindReport`. **Raises:** `AuditError` for bad options or a target that cannot be loaded or called.
    """
    parsed = parse_scheme(scheme)
    if not isinstance(max_position, int) or max_position < 640:
        raise AuditError(f"--max-position must be an integer of at least 640 for --kind bias, got {max_position}")
    wanted = check_dtypes(dtypes)
    loaded = resolve_target(target, name, "bias")
    session = KindSession(loaded, framework, timeout, None, (np.arange(3), np.arange(4)))
    options = {"scheme": parsed, "max_position": max_position, "dtypes": list(wanted), "budget": budget}
    log = FindingLog(CLAIMS)
    runner = BiasProperties(options, log, session.caller(None).fn)
    dtype_info, usable = contract_each_dtype(
        session, wanted, lambda caller, dtype: _contract(caller, dtype, log),
        lambda label, caller, outcome: runner.add_dtype(label, caller, outcome["heads"]),
    )
    if not usable and not log.findings:
        reasons = "; ".join(sorted({info.get("reason", "") for info in dtype_info.values()}))
        raise AuditError(f"the target cannot be called in any requested dtype: {reasons}")
    table = None
    if usable:
        ordered = sorted(usable, key=precision_order)
        table = _table_length(runner.callers[ordered[0]], max_position, runner.heads)
        if table is not None and table >= 640:
            runner.n = options["max_position"] = table
        runner.run(ordered)
        if table is not None and not accept_short_table:
            detail, fix = short_table_message(table, max_position)
            log.add("contract", False, detail, fix=fix)
    detected_scheme = runner.detected.get("scheme", {})
    report = make_report(
        "bias", loaded.name, session.framework, PROPERTIES, options, runner.detected, dtype_info, log,
        runner.certified, session.target_seconds(), head_dim=runner.heads,
        layout=str(detected_scheme.get("name", "unknown")),
    )
    return note_table(report, table)


def _table_length(caller: Any, max_position: int, heads: int) -> int | None:
    """N when the bias raises for positions ≥ N < `max_position` (a precomputed table; the rule of every kind)."""

    def accepts(position: int) -> bool:
        try:
            call_float64(caller, (np.array([position]), np.array([position])), (heads, 1, 1))
        except (BadOutput, CallFailed):
            return False
        return True

    return find_table_length(accepts, max_position)


def _contract(caller: Any, dtype: str | None, log: FindingLog) -> dict[str, Any]:
    q, k = np.arange(4, 12), np.arange(12)
    try:
        out, out_dtype = call_float64(caller, (q, k), None)
    except BadOutput as error:
        log.add("contract", False, f"{error.reason[0].upper()}{error.reason[1:]}.", dtype=dtype,
                fix="Return an array of shape (H, Lq, Lk)")
        return {"status": "contract failed", "reason": error.reason}
    except CallFailed as error:
        return {"status": "unsupported", "reason": f"the target raised {error.reason}"}
    label = dtype or out_dtype
    problems = []
    if out.ndim != 3 or out.shape[1:] != (q.size, k.size):
        problems.append(f"returns shape {out.shape} for {q.size} queries and {k.size} keys (expected (H, Lq, Lk))")
    elif np.any(np.isnan(out)) or np.any(np.isposinf(out)):
        problems.append("NaN or +inf values")
    elif np.any(np.isneginf(out) & (k[None, None, :] <= q[None, :, None])):
        problems.append("−inf for a key at or before its query (only future keys may be masked)")
    if dtype is not None and out_dtype != dtype:
        problems.append(f"returns {out_dtype} when {dtype} is asked for")
    if modifies_arguments(caller, (q, k)):
        problems.append("modifies its positions arguments")
    ok = not problems
    heads = int(out.shape[0]) if out.ndim == 3 else 0
    log.add("contract", ok, f"returns ({heads}, {q.size}, {k.size}) {out_dtype}, finite (future keys may be −inf); "
            "positions left unmodified." if ok else sentence("; ".join(problems)) + ".", dtype=label,
            fix="Return the bias as (H, Lq, Lk) in the dtype asked for, finite except masked future keys")
    if not ok:
        return {"status": "contract failed", "reason": "; ".join(problems), "dtype": label}
    return {"status": "supported", "output_dtype": out_dtype, "heads": heads, "dtype": label}

