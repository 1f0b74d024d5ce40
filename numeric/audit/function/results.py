"""The audit's result types, shared by every kind: `Finding`, `AuditReport`, the verdict and the exit codes.

A report is kind-independent: `kind` names what was audited (`"rope"`, …), `findings` are per property, and the
header fields a kind does not use stay None. `to_json()` is the `ropecheck audit --json` object.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

__all__ = ["EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "AuditReport", "Finding"]

#: Exit codes of `ropecheck audit`: conforms, a property fails, bad usage / target cannot be loaded or called.
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


@dataclasses.dataclass
class Finding:
    """One property checked on the target.

    **Fields:**

    - `property`: a property name of the audited kind.
    - `ok`: whether it holds (True also for a deviation explained by another finding's root cause).
    - `detail`: one or two sentences a newcomer can act on.
    - `claims`: ledger claim IDs it bears on.
    - `dtype`, `max_error`, `bound`, `position`: where the check is numeric (position: the first failing one).
    - `status`: `"pass"`, `"fail"` (a root cause), `"explained"` (ok at a detected precision class, or a
      consequence of another finding's root cause: `explained_by` names it), or `"could not call"` (the target
      raised on this property's probe: never a mathematical failure).
    - `fix`: for a root cause, the fix in words.
    - `explained_by`: the property whose root cause explains this finding.
    - `corrected`: for a root cause, whether the ideal was corrected for it before the later properties were
      judged (what fails after it is then a residual it does not explain).
    """

    property: str
    ok: bool
    detail: str
    claims: tuple[str, ...] = ()
    dtype: str | None = None
    max_error: float | None = None
    bound: float | None = None
    position: int | None = None
    status: str = ""
    fix: str | None = None
    explained_by: str | None = None
    corrected: bool = dataclasses.field(default=False, repr=False)

    def __post_init__(self) -> None:
        if not self.status:
            self.status = "pass" if self.ok else "fail"

    def to_json(self) -> dict[str, Any]:
        """The finding as in `--json` (optional keys only when set)."""
        out: dict[str, Any] = {"property": self.property, "ok": self.ok, "status": self.status}
        for key in ("dtype", "max_error", "bound", "position", "fix", "explained_by"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["detail"] = self.detail
        out["claims"] = list(self.claims)
        return out


@dataclasses.dataclass
class AuditReport:
    """The audit's result; `to_json()` is what `ropecheck audit --json` prints.

    **Fields:**

    - `target`, `framework`, `head_dim`, `rotary_dim`, `max_position`.
    - `verdict`: `"pass"` when every finding is ok, else `"fail"`.
    - `layout`, `direction`: as detected.
    - `base`: the base audited against (the one that fits when the declared base does not); `base_source`:
      `"declared"` or `"inferred"`; `declared_base`: what the user declared (None when nothing was).
    - `scaling`: the declared scaling (JSON form) or None.
    - `dtypes`: per dtype `{"status": "supported" | "unsupported" | "contract failed", ...}`.
    - `findings`: list of `Finding`.
    - `certified`: per dtype the largest position certified at the score-error budget.
    - `seconds`, `target_seconds`: wall time of the audit and time spent inside the target.
    - `kind`: what was audited (`ropecheck.numeric.audit.kinds`).
    - `summary`: one paragraph — verdict, root cause(s), fix (`ropecheck.numeric.audit.function.attribution`).
    - `root_causes`: `{"property", "dtype", "detail", "fix"}` per root cause.
    - `table_positions`: N when the target accepts only positions 0…N−1 (a fixed-length table), else None.
    - `notes`: loud remarks that are not failures (an undeclared base, a table length).
    - `angle_error`: per dtype, the largest angle error of any pair at each position (for plots).

    **Properties:** `ok` (alias `passed`): whether the target conforms; `failures()`: the failing findings.
    """

    target: str
    framework: str
    head_dim: int
    rotary_dim: int
    max_position: int
    verdict: str
    layout: str
    direction: str
    base: float | None
    base_source: str
    scaling: dict[str, Any] | None
    dtypes: dict[str, dict[str, Any]]
    findings: list[Finding]
    certified: dict[str, Any]
    seconds: float = 0.0
    target_seconds: float = 0.0
    angle_error: dict[str, np.ndarray] = dataclasses.field(default_factory=dict, repr=False)
    kind: str = "rope"
    summary: str = ""
    root_causes: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    table_positions: int | None = None
    notes: list[str] = dataclasses.field(default_factory=list)
    declared_base: float | None = None

    @property
    def ok(self) -> bool:
        """Whether the target conforms (`verdict == "pass"`); `passed` is the same."""
        return self.verdict == "pass"

    @property
    def passed(self) -> bool:
        """Alias of `ok`, the name users guess: whether the target conforms."""
        return self.ok

    def failures(self) -> list[Finding]:
        """The findings that fail."""
        return [finding for finding in self.findings if not finding.ok]

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready object (the `--json` schema of issue #4)."""
        return {
            "target": self.target,
            "kind": self.kind,
            "verdict": self.verdict,
            "summary": self.summary,
            "root_causes": self.root_causes,
            "notes": self.notes,
            "table_positions": self.table_positions,
            "layout": self.layout,
            "direction": self.direction,
            "base": self.base,
            "base_source": self.base_source,
            "declared_base": self.declared_base,
            "scaling": self.scaling,
            "framework": self.framework,
            "head_dim": self.head_dim,
            "rotary_dim": self.rotary_dim,
            "max_position": self.max_position,
            "dtypes": self.dtypes,
            "findings": [finding.to_json() for finding in self.findings],
            "certified": self.certified,
            "seconds": self.seconds,
            "target_seconds": self.target_seconds,
        }
