"""`--kind sinusoidal`: certify an absolute sinusoidal position table `pe(positions) -> (L, d)`.

The target is a callable taking integer positions `(L,)` (NumPy, torch or JAX) and returning the table rows
`(L, d)`, or a class built with `(num_positions, dim)` whose instances are such callables. Properties, in the
order they are evaluated (the first failing one is the root cause; what it explains is listed as not evaluated):

- `contract`: a 2-D array of L rows and even width, finite, of the requested dtype, positions left unmodified.
- `state`: a repeated call returns the same rows; rows do not depend on earlier calls or their lengths; the
  returned array does not alias a cached table (writing into it, as `x += pe(...)` would, changes nothing later).
- `layout`: which coordinates pair up (interleaved, or concat: all sines then all cosines), against `--layout`.
- `spectrum`: each ωᵢ against the reference in double-double, for `--frequencies` (standard base^(−2i/d), or
  tensor2tensor's log-spaced timescales reaching 1/base) and `--base` (SPE-FREQUENCY-004, SPE-WAVELENGTH-RANGE).
- `positions`: shuffled, shifted, repeated and non-contiguous positions give the rows of those positions, and the
  row of position p is PE(p + K) for the declared `--offset K`.
- `precision` (per dtype): every position 0…N−1 within the policy bound; the certified largest position.
- `relative`: SPE-DOT-RELATIVE transferred: ⟨PE(p), PE(q)⟩ depends on p − q only, within the transferred bound.
- `shift`: SPE-SHIFT-ROTATION: PE(p + Δ) is the seed's fixed rotation of PE(p), pair by pair.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np
from ropecheck.numeric._encoding_reference import LAYOUTS, SCHEMES
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
from ropecheck.numeric.audit.properties.sinusoidal import CLAIMS, PROPERTIES, SinusoidalProperties

__all__ = ["CLAIMS", "PAIR_ORDERS", "PROPERTIES", "audit_sinusoidal"]

DEFAULT_MAX_POSITION = 16384
#: The orders within a pair a table may declare: Vaswani et al.'s, and diffusion timestep embeddings'.
PAIR_ORDERS = ("sin,cos", "cos,sin")
_DEFAULT_DIM = 64


def _build(dim: int, num_positions: int) -> Any:
    def build(cls: Any, dtype: str | None, framework: str) -> Any:
        parameters = inspect.signature(cls).parameters
        keywords = {"dtype": dtype} if dtype is not None and "dtype" in parameters else {}
        instance = cls(num_positions, dim, **keywords)
        if dtype is not None and hasattr(instance, "to") and type(instance).__module__ != "numpy":
            try:
                import torch

                if isinstance(instance, torch.nn.Module):
                    instance = instance.to(getattr(torch, dtype))
            except ImportError:
                pass
        return instance

    return build


def audit_sinusoidal(
    target: Any,
    *,
    base: float | None = None,
    layout: str | None = None,
    frequencies: str | None = None,
    pair_order: str | None = None,
    offset: int = 0,
    max_position: int = DEFAULT_MAX_POSITION,
    dtypes: Any = ("float32", "bfloat16", "float16", "float64"),
    framework: str = "auto",
    head_dim: int | None = None,
    timeout: float = 30.0,
    budget: float = DEFAULT_SCORE_BUDGET,
    name: str | None = None,
    accept_short_table: bool = False,
) -> KindReport:
    """Audit a sinusoidal position table (see the module docstring for the properties).

    **Arguments:**

    - `target`: `pe(positions) -> (L, d)`, a class built with `(num_positions, dim)`, a TARGET string or a
      built-in adapter name.
    - `base`: the declared base (None: 10000, reported as a default, not as declared).
    - `layout`: `"interleaved"` or `"concat"`; None: detected and reported.
    - `frequencies`: `"standard"` or `"t2t"`; None: detected among the two and reported.
    - `pair_order`: `"sin,cos"` or `"cos,sin"`, the order within each pair; None: detected (a (cos, sin) table
      then fails `shift`, the seed's SPE-SHIFT-ROTATION being stated for (sin, cos) pairs).
    - `offset`: K, the row of position p is PE(p + K) (fairseq-style tables: padding_idx + 1).
    - `max_position`: positions 0…N−1 are audited (classes are built with N positions).
    - `dtypes`: the dtypes to audit where the target lets the audit choose (dtype keyword, class, adapter).
    - `framework`, `timeout`, `budget`, `name`: as for the RoPE audit; `head_dim`: the width d classes are
      built with (default 64).
    - `accept_short_table`: a fixed-length table shorter than `max_position` is audited on its positions and
      accepted; by default it fails `contract` ("the table holds N positions; the model needs M").

    **Returns:**

    A `KindReport`. **Raises:** `AuditError` for bad options or a target that cannot be loaded or called.
    """
    defaulted = ["base"] if base is None else []
    base = 10000.0 if base is None else base
    if not (isinstance(base, int | float) and math.isfinite(base) and base > 1):
        raise AuditError(f"--base must be a number above 1, got {base!r}")
    if layout is not None and layout not in LAYOUTS:
        raise AuditError(f"--layout for --kind sinusoidal must be interleaved or concat, got {layout!r}")
    if pair_order is not None and pair_order not in PAIR_ORDERS:
        raise AuditError(f"--pair-order must be sin,cos or cos,sin, got {pair_order!r}")
    if frequencies is not None and frequencies not in SCHEMES:
        raise AuditError(f"--frequencies must be standard or t2t, got {frequencies!r}")
    if not isinstance(offset, int) or isinstance(offset, bool) or abs(offset) > 2**20:
        raise AuditError(f"--offset must be an integer of at most 2^20 in size, got {offset!r}")
    if not isinstance(max_position, int) or max_position < 64:
        raise AuditError(f"--max-position must be an integer of at least 64 for --kind sinusoidal, got {max_position}")
    wanted = check_dtypes(dtypes)
    loaded = resolve_target(target, name, "sinusoidal")
    dim = head_dim or _DEFAULT_DIM
    if dim <= 0 or dim % 2:
        raise AuditError(f"--head-dim must be a positive even number, got {dim}")
    session = KindSession(loaded, framework, timeout, _build(dim, max_position + max(offset, 0) + 64),
                          (np.arange(4),))
    options = {"base": float(base), "layout": layout, "frequencies": frequencies, "pair_order": pair_order,
               "offset": offset,
               "max_position": max_position, "dtypes": list(wanted), "budget": budget, "defaulted": defaulted}
    log = FindingLog(CLAIMS)
    runner = SinusoidalProperties(session, options, log)
    dtype_info, usable = contract_each_dtype(
        session, wanted, lambda caller, dtype: _contract(caller, dtype, log, runner.first_rows),
        lambda label, caller, outcome: runner.add_dtype(label, caller, outcome["width"]),
    )
    if not usable:
        if not log.findings:
            reasons = "; ".join(sorted({info.get("reason", "") for info in dtype_info.values()}))
            raise AuditError(f"the target cannot be called in any requested dtype: {reasons}")
    table = None
    if usable:
        ordered = sorted(usable, key=precision_order)
        table = _table_length(runner, ordered[0], max_position)
        if table is not None:
            runner.n = options["max_position"] = table
        runner.run(ordered)
        if table is not None and not accept_short_table:
            detail, fix = short_table_message(table, max_position)
            log.add("contract", False, detail, fix=fix)
    report = make_report(
        "sinusoidal", loaded.name, session.framework, PROPERTIES, options, runner.detected, dtype_info, log,
        runner.certified, session.target_seconds(), head_dim=runner.width,
        layout=str(runner.detected.get("layout", "unknown")), base=float(base),
    )
    return note_table(report, table)


def _table_length(runner: SinusoidalProperties, dtype: str, max_position: int) -> int | None:
    """N when the target raises for positions ≥ N < `max_position` (a fixed table, shared rule of every kind)."""
    caller = runner.callers[dtype]

    def accepts(position: int) -> bool:
        try:
            call_float64(caller, (np.array([position]),), None)
        except (BadOutput, CallFailed):
            return False
        return True

    length = find_table_length(accepts, max_position)
    if length is None:
        return None
    # A fixed table raises for its missing rows in a call of any length; a table grown from the call's length (a
    # state defect the state property reports) accepts the whole range in one call.
    try:
        call_float64(caller, (np.arange(max_position),), None)
    except (BadOutput, CallFailed):
        return length
    return None


def _contract(caller: Any, dtype: str | None, log: FindingLog, first_rows: dict[str, np.ndarray]) -> dict[str, Any]:
    """Shape, width, dtype, finiteness, positions unmodified. Returns the dtype's status; keeps the rows of this
    first call per dtype in `first_rows` (the state property compares later calls with them)."""
    positions = np.arange(64)
    try:
        out, out_dtype = call_float64(caller, (positions,), None)
    except BadOutput as error:
        log.add("contract", False, f"{error.reason[0].upper()}{error.reason[1:]}.", dtype=dtype,
                fix="Return an array of shape (L, d): one row per position")
        return {"status": "contract failed", "reason": error.reason}
    except CallFailed as error:
        return {"status": "unsupported", "reason": f"the target raised {error.reason}"}
    label = dtype or out_dtype
    first_rows[label] = out
    problems = []
    if out.ndim != 2 or out.shape[0] != positions.size:
        problems.append(f"returns shape {out.shape} for {positions.size} positions (expected (L, d))")
    elif out.shape[1] < 2 or out.shape[1] % 2:
        problems.append(f"the table width {out.shape[1]} is not a positive even number")
    if dtype is not None and out_dtype != dtype:
        problems.append(f"returns {out_dtype} when {dtype} is asked for")
    if not np.all(np.isfinite(out)):
        problems.append("non-finite values")
    if modifies_arguments(caller, (positions,)):
        problems.append("modifies its positions argument")
    ok = not problems
    detail = (f"returns ({positions.size}, {out.shape[1] if out.ndim == 2 else '?'}) {out_dtype} rows, finite; "
              "positions left unmodified." if ok else sentence("; ".join(problems)) + ".")
    log.add("contract", ok, detail, dtype=label,
            fix="Return one finite row of even width d per position, in the dtype asked for")
    if not ok:
        return {"status": "contract failed", "reason": detail, "dtype": label}
    return {"status": "supported", "output_dtype": out_dtype, "width": int(out.shape[1]), "dtype": label,
            "dtype_control": "chosen by the audit" if dtype else "the target's own dtype"}
