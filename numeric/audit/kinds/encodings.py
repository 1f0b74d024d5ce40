"""Audit kinds beyond RoPE: sinusoidal tables, relative position biases (T5 buckets, ALiBi), relative scores.

```python
from ropecheck.numeric.audit.kinds.encodings import audit_kind

report = audit_kind("mypkg.pe:table", kind="sinusoidal", layout="concat", frequencies="t2t", offset=2)
report.verdict, report.root_cause, report.to_json()
```

`ropecheck audit TARGET --kind sinusoidal|bias|scores` and `ropecheck.numeric.audit(..., kind=...)` call `audit_kind`.
Each kind lists its properties in evaluation order (`PROPERTIES[kind]`); the first failing one is the root cause.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.kinds._report import KindFinding, KindReport
from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES

__all__ = ["PROPERTIES", "KindFinding", "KindReport", "audit_encoding", "audit_kind"]

#: Property names per kind, in evaluation order (the JSON `findings[].property` values).
PROPERTIES = KIND_PROPERTIES


def audit_kind(target: Any, *, kind: str, **options: Any) -> KindReport:
    """Audit a target of a non-RoPE kind.

    **Arguments:**

    - `target`: a TARGET string, a built-in adapter name, or the callable/class itself.
    - `kind`: `"sinusoidal"`, `"bias"` or `"scores"`.
    - `options`: the kind's keyword options (see `audit_sinusoidal`, `audit_bias`, `audit_scores`).

    **Returns:**

    A `KindReport`. **Raises:** `numeric.audit.function.calls.AuditError` (one line) for bad options or an unusable
    target.
    """
    import time

    from ropecheck.numeric.audit.function.calls import AuditError

    started = time.perf_counter()
    if kind == "sinusoidal":
        from ropecheck.numeric.audit.kinds.sinusoidal import audit_sinusoidal as run
    elif kind == "bias":
        from ropecheck.numeric.audit.kinds.bias import audit_bias as run
    elif kind == "scores":
        from ropecheck.numeric.audit.kinds.scores import audit_scores as run
    else:
        raise AuditError(f"--kind must be rope, sinusoidal, bias or scores, got {kind!r}")
    adapter = None
    if isinstance(target, str):
        from ropecheck.numeric.audit.adapters.kinds import find_adapter

        adapter = find_adapter(target)
    elif type(target).__name__ == "KindAdapter":
        adapter = target
    table = None
    if adapter is not None:
        # A built-in is audited against what its library's defaults declare, unless told otherwise.
        options = {**adapter.options, **options}
        table = adapter.table_positions
        if table is not None and options.get("max_position", table) > table:
            options["max_position"] = table
    report = run(target, **options)
    if table is not None:
        report.table_positions = table
        report.notes.append(f"The library's table holds {table} positions: audited 0…{report.max_position - 1}.")
    report.seconds = time.perf_counter() - started
    return report


def audit_encoding(
    target: Any, *, kind: str, base: float | None, layout: str | None, frequencies: str | None, offset: int,
    pair_order: str | None = None,
    scheme: str | None, clip: int | None, max_position: int, dtypes: Any, framework: str, head_dim: int | None,
    timeout: float, budget: float, name: str | None, accept_short_table: bool = False,
) -> KindReport:
    """`numeric.audit.audit(..., kind=...)` for the three kinds: pass each kind the options it takes, and say so
    in one line when an option of another kind is given.

    **Returns:**

    A `KindReport`. **Raises:** `AuditError` for an option the kind does not take, or as `audit_kind`.
    """
    from ropecheck.numeric.audit.function.calls import AuditError
    from ropecheck.numeric.audit.function.options import DEFAULT_DTYPES

    given = {"base": base, "layout": layout, "frequencies": frequencies, "pair_order": pair_order,
             "offset": offset or None,
             "scheme": scheme, "clip": clip, "head_dim": head_dim}
    takes = {"sinusoidal": {"base", "layout", "frequencies", "pair_order", "offset", "head_dim"}, "bias": {"scheme"},
             "scores": {"clip", "head_dim"}}[kind]
    stray = sorted(key for key, value in given.items() if value is not None and key not in takes)
    if stray:
        raise AuditError(f"--kind {kind} takes no {', '.join('--' + key.replace('_', '-') for key in stray)}")
    options: dict[str, Any] = {key: value for key, value in given.items() if key in takes and value is not None}
    options.update(max_position=max_position, dtypes=dtypes or DEFAULT_DTYPES, framework=framework,
                   timeout=timeout, budget=budget, name=name)
    if kind in ("sinusoidal", "bias"):
        options["accept_short_table"] = accept_short_table
    return audit_kind(target, kind=kind, **options)
