"""The report of a `sinusoidal`, `bias` or `scores` audit: an `AuditReport` (`numeric.audit.results`) plus the kind's
own fields.

`KindReport.to_json()` keeps every key of the RoPE report (`target`, `kind`, `verdict`, `framework`, `dtypes`,
`findings` with `property`/`ok`/`detail`/`claims`, `certified`, `seconds`, `target_seconds`, …) and adds
`options` (what was declared), `detected` (what the audit found: layout, frequencies, scheme, slopes, clipping…),
`root_cause` (the first failing finding; the others it explains are listed under `not_evaluated` instead of
failing again, GUIDE §5) and a `fix` on each failing finding. Exit codes are those of `ropecheck audit`: 0 pass,
1 a property fails, 2 the target cannot be audited.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from numeric.audit.results import AuditReport, Finding

__all__ = ["CLAIM_PAGE", "FindingLog", "KindFinding", "KindReport", "make_report"]

#: Where a claim's page lives in the built docs (relative to the site root).
CLAIM_PAGE = "claims/{claim}.html"


@dataclasses.dataclass
class KindFinding(Finding):
    """A `Finding` with the fix in words (failing findings only) and, for transferred theorems, the positions
    over which the theorem was checked.

    **Fields (beyond `Finding`):**

    - `fix`: what to change in the implementation, one sentence.
    """

    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As `Finding.to_json`, with `fix` when set."""
        out = super().to_json()
        if self.fix:
            out["fix"] = self.fix
        return out


def _clean(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(key): _clean(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(item) for item in value]
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        return _clean(value.item())
    return value


@dataclasses.dataclass
class KindReport(AuditReport):
    """The result of auditing one target of a non-RoPE kind: an `AuditReport` (same verdict, findings, dtypes,
    certified, exit codes and JSON keys) with the kind's own fields.

    The RoPE header fields are filled where they mean something for the kind (`head_dim`: the table width or
    the score's head dimension; `layout`: the table layout or the bias scheme; `base`: the declared base) and are
    otherwise `"n/a"`/None.

    **Fields (beyond `AuditReport`):**

    - `properties`: the property names of this kind, in evaluation order.
    - `options`: the declared options (base, layout, frequencies, offset, scheme, clip, max_position, …).
    - `detected`: what the audit measured about the target (layout, frequencies, offset, scale, heads, slopes…).
    - `not_evaluated`: property → why it was not evaluated (the root cause that explains it, or a missing input).
    """

    properties: tuple[str, ...] = ()
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    detected: dict[str, Any] = dataclasses.field(default_factory=dict)
    not_evaluated: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def root_cause(self) -> Finding | None:
        """The first failing finding in evaluation order (the one to fix first)."""
        failing = self.failures()
        order = {name: index for index, name in enumerate(self.properties)}
        return min(failing, key=lambda f: order.get(f.property, len(order))) if failing else None

    @property
    def summary(self) -> str:
        """One paragraph: verdict, kind, and the root cause with its fix, or the main detections."""
        root = self.root_cause
        if root is not None:
            fix = getattr(root, "fix", None)
            return f"FAIL ({self.kind}): {root.property}: {root.detail}" + (f" Fix: {fix}" if fix else "")
        shown = ", ".join(
            f"{key} {value}" for key, value in self.detected.items() if not isinstance(value, list | dict)
        )
        return f"PASS ({self.kind}): {shown}."

    def to_json(self) -> dict[str, Any]:
        """`AuditReport.to_json()` plus `summary`, `root_cause`, `options`, `detected`, `not_evaluated`."""
        out = super().to_json()
        root = self.root_cause
        out.update(
            {
                "summary": self.summary,
                "root_cause": None if root is None else root.to_json(),
                "options": self.options,
                "detected": self.detected,
                "not_evaluated": self.not_evaluated,
            }
        )
        return _clean(out)


def make_report(
    kind: str, loaded_name: str, framework: str, properties: tuple[str, ...], options: dict[str, Any],
    detected: dict[str, Any], dtypes: dict[str, dict[str, Any]], log: FindingLog, certified: dict[str, Any],
    target_seconds: float, *, head_dim: int = 0, layout: str = "n/a", base: float | None = None,
) -> KindReport:
    """Assemble a `KindReport`, findings sorted by evaluation order (stable within a property)."""
    order = {name: index for index, name in enumerate(properties)}
    findings = sorted(log.findings, key=lambda f: order.get(f.property, len(order)))
    return KindReport(
        target=loaded_name, framework=framework, head_dim=head_dim, rotary_dim=0,
        max_position=int(options.get("max_position", 0)),
        verdict="pass" if findings and all(f.ok for f in findings) else "fail",
        layout=layout, direction="n/a", base=base, base_source="declared" if base is not None else "n/a",
        scaling=None, dtypes=dtypes, findings=findings, certified=certified, target_seconds=target_seconds,
        kind=kind, properties=properties, options=options, detected=detected, not_evaluated=log.not_evaluated,
    )


class FindingLog:
    """Collects findings in evaluation order; knows which properties a root cause explains."""

    def __init__(self, claims: dict[str, tuple[str, ...]]) -> None:
        self.claims = claims
        self.findings: list[KindFinding] = []
        self.not_evaluated: dict[str, str] = {}

    def add(self, prop: str, ok: bool, detail: str, fix: str | None = None, **numbers: Any) -> KindFinding:
        """Record one finding (numbers: dtype, max_error, bound, position)."""
        clean = {
            key: value if value is None or key == "dtype" else (int(value) if key == "position" else float(value))
            for key, value in numbers.items()
        }
        finding = KindFinding(prop, bool(ok), detail, self.claims[prop], fix=None if ok else fix, **clean)
        self.findings.append(finding)
        return finding

    def skip(self, prop: str, reason: str) -> None:
        """Record that a property was not evaluated, and why (kept once, the first reason)."""
        self.not_evaluated.setdefault(prop, reason)

    def failed(self, prop: str, dtype: str | None = None) -> bool:
        """Whether a property already failed (in this dtype, when given)."""
        return any(
            f.property == prop and not f.ok and (dtype is None or f.dtype in (None, dtype)) for f in self.findings
        )
