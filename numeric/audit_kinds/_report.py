"""The report of a `sinusoidal`, `bias` or `scores` audit: the RoPE report's JSON shape, plus the kind.

`KindReport.to_json()` keeps the keys every ropecheck report has (`target`, `verdict`, `framework`, `dtypes`,
`findings` with `property`/`ok`/`detail`/`claims`, `certified`, `seconds`, `target_seconds`) and adds `kind`,
`options` (what was declared), `detected` (what the audit found: layout, frequencies, scheme, slopes, clipping…),
`root_cause` (the first failing finding; the others it explains are listed under `not_evaluated` instead of
failing again, GUIDE §5) and a `fix` on each failing finding. Exit codes are those of `ropecheck audit`: 0 pass,
1 a property fails, 2 the target cannot be audited.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from numeric._audit import Finding

__all__ = ["CLAIM_PAGE", "KindFinding", "KindReport"]

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
class KindReport:
    """The result of auditing one target of a non-RoPE kind.

    **Fields:**

    - `kind`: `"sinusoidal"`, `"bias"` or `"scores"`.
    - `target`, `framework`: as for RoPE.
    - `properties`: the property names of this kind, in evaluation order.
    - `options`: the declared options (base, layout, frequencies, offset, scheme, clip, max_position, …).
    - `detected`: what the audit measured about the target (layout, frequencies, offset, scale, heads, slopes…).
    - `dtypes`: per dtype `{"status": ..., ...}`.
    - `findings`: list of `KindFinding`.
    - `not_evaluated`: property → why it was not evaluated (the root cause that explains it, or a missing input).
    - `certified`: per dtype, the largest position for which the transferred theorem stays within budget.
    - `seconds`, `target_seconds`.
    """

    kind: str
    target: str
    framework: str
    properties: tuple[str, ...]
    options: dict[str, Any]
    detected: dict[str, Any]
    dtypes: dict[str, dict[str, Any]]
    findings: list[KindFinding]
    not_evaluated: dict[str, str] = dataclasses.field(default_factory=dict)
    certified: dict[str, Any] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    target_seconds: float = 0.0

    @property
    def verdict(self) -> str:
        """`"pass"` when every finding holds, else `"fail"`."""
        return "fail" if any(not finding.ok for finding in self.findings) else "pass"

    @property
    def ok(self) -> bool:
        """Whether the target conforms."""
        return self.verdict == "pass"

    def failures(self) -> list[KindFinding]:
        """The findings that fail."""
        return [finding for finding in self.findings if not finding.ok]

    @property
    def root_cause(self) -> KindFinding | None:
        """The first failing finding in evaluation order (the one to fix first)."""
        failing = self.failures()
        return min(failing, key=lambda f: self.properties.index(f.property)) if failing else None

    def summary(self) -> str:
        """One line: verdict, kind, and the root cause or the main detections."""
        root = self.root_cause
        if root is not None:
            return f"FAIL ({self.kind}): {root.property}: {root.detail}"
        shown = ", ".join(
            f"{key} {value}" for key, value in self.detected.items() if not isinstance(value, list | dict)
        )
        return f"PASS ({self.kind}): {shown}"

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready object (the shape of the RoPE report, plus `kind` and the detections)."""
        root = self.root_cause
        return _clean(
            {
                "target": self.target,
                "kind": self.kind,
                "verdict": self.verdict,
                "summary": self.summary(),
                "root_cause": None if root is None else root.to_json(),
                "framework": self.framework,
                "options": self.options,
                "detected": self.detected,
                "dtypes": self.dtypes,
                "findings": [finding.to_json() for finding in self.findings],
                "not_evaluated": self.not_evaluated,
                "certified": self.certified,
                "seconds": self.seconds,
                "target_seconds": self.target_seconds,
            }
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
