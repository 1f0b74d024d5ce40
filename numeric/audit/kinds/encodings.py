"""Audit kinds beyond RoPE: sinusoidal tables, relative position biases (T5 buckets, ALiBi), relative scores.

```python
from numeric.audit.kinds.encodings import audit_kind

report = audit_kind("mypkg.pe:table", kind="sinusoidal", layout="concat", frequencies="t2t", offset=2)
report.verdict, report.root_cause, report.to_json()
```

`ropecheck audit TARGET --kind sinusoidal|bias|scores` and `numeric.audit(..., kind=...)` call `audit_kind`.
Each kind lists its properties in evaluation order (`PROPERTIES[kind]`); the first failing one is the root cause.
"""

from __future__ import annotations

from typing import Any

from numeric.audit.kinds._report import KindFinding, KindReport

__all__ = ["KINDS", "PROPERTIES", "KindFinding", "KindReport", "audit_kind"]

KINDS = ("rope", "sinusoidal", "bias", "scores")

#: Property names per kind, in evaluation order (the JSON `findings[].property` values).
PROPERTIES: dict[str, tuple[str, ...]] = {
    "sinusoidal": ("contract", "state", "layout", "spectrum", "positions", "precision", "relative", "shift"),
    "bias": ("contract", "relative", "sign", "buckets", "slopes", "precision", "cache"),
    "scores": ("contract", "relative", "linearity", "clipping", "cache"),
}


def audit_kind(target: Any, *, kind: str, **options: Any) -> KindReport:
    """Audit a target of a non-RoPE kind.

    **Arguments:**

    - `target`: a TARGET string, a built-in adapter name, or the callable/class itself.
    - `kind`: `"sinusoidal"`, `"bias"` or `"scores"`.
    - `options`: the kind's keyword options (see `audit_sinusoidal`, `audit_bias`, `audit_scores`).

    **Returns:**

    A `KindReport`. **Raises:** `numeric.audit.calls.AuditError` (one line) for bad options or an unusable target.
    """
    import time

    from numeric.audit.calls import AuditError

    started = time.perf_counter()
    if kind == "sinusoidal":
        from numeric.audit.kinds.sinusoidal import audit_sinusoidal as run
    elif kind == "bias":
        from numeric.audit.kinds.bias import audit_bias as run
    elif kind == "scores":
        from numeric.audit.kinds.scores import audit_scores as run
    else:
        raise AuditError(f"--kind must be one of {', '.join(KINDS)}, got {kind!r}")
    report = run(target, **options)
    report.seconds = time.perf_counter() - started
    return report
