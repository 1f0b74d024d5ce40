"""The report of a `sinusoidal`, `bias` or `scores` audit: an `AuditReport` (`numeric.audit.function.results`) plus
the kind's
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

from ropecheck.numeric.audit.function.results import AuditReport, Finding

__all__ = ["FindingLog", "KindFinding", "KindReport", "make_report"]



#: Findings of the three kinds are plain `Finding`s (with `fix`, `status` and `explained_by`).
KindFinding = Finding


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
    def certified_sentence(self) -> str:
        """What the certified context means for this kind (the Markdown/HTML reports print it)."""
        return {
            "sinusoidal": "SPE-DOT-RELATIVE (⟨PE(p), PE(q)⟩ = Σᵢ cos ωᵢ(p − q)) transfers to the table with the "
            "measured row error E: the dot product stays within 2·√(d/2)·E + E² (relative to d/2) of the theorem's "
            "value, within the budget, at these positions.",
            "bias": "RPE-SHIFT-INVARIANCE transfers to the bias at these distances: every value is within rounding "
            "of the reference's value for k − q.",
        }.get(self.kind, "")

    def kind_header(self) -> list[str]:
        """What is under test, as a few lines (used by the terminal, Markdown and HTML reports)."""
        audited = ", ".join(d for d, info in self.dtypes.items() if info.get("status") == "supported") or "none"
        defaulted = set(self.options.get("defaulted", ()))
        shown = {key: value for key, value in self.options.items()
                 if value not in (None, [], {}, False) and key not in _HIDDEN_OPTIONS}
        declared = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in shown.items() if key not in defaulted)
        defaults = ", ".join(f"{key} {value:g}" if isinstance(value, float) else f"{key} {value}"
                             for key, value in shown.items() if key in defaulted)
        if defaults:
            declared = f"{declared}; defaults: {defaults}" if declared else f"nothing (defaults: {defaults})"
        found = ", ".join(f"{_FOUND_LABELS.get(key, key.replace('_', ' '))} {value}"
                          for key, value in self.detected.items()
                          if isinstance(value, str | int | float | bool) and key not in _INTERNAL_KEYS)
        return [
            f"target: {self.target} (kind {self.kind}, {self.framework})",
            f"verdict: {self.verdict.upper()}",
            f"declared: {declared or 'nothing'}",
            f"detected: {found or 'nothing'}",
            f"dtypes audited: {audited}",
            *(f"not evaluated: {prop} — {why}" for prop, why in self.not_evaluated.items()),
        ]

    def to_json(self) -> dict[str, Any]:
        """`AuditReport.to_json()` plus `properties`, `options`, `detected`, `not_evaluated`."""
        out = super().to_json()
        out.update(
            {
                "properties": list(self.properties),
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
    report = KindReport(
        target=loaded_name, framework=framework, head_dim=head_dim, rotary_dim=0,
        max_position=int(options.get("max_position", 0)),
        verdict="pass" if findings and all(f.ok for f in findings) else "fail",
        layout=layout, direction="n/a", base=base, base_source="declared" if base is not None else "n/a",
        scaling=None, dtypes=dtypes, findings=findings, certified=certified, target_seconds=target_seconds,
        kind=kind, properties=properties, options=options, detected=detected, not_evaluated=log.not_evaluated,
    )
    report.root_causes = _root_causes(report)
    report.summary = _summary(report)
    return report


def _root_causes(report: KindReport) -> list[dict[str, Any]]:
    """One entry per failing property (with every dtype it fails in), in evaluation order."""
    grouped: dict[str, dict[str, Any]] = {}
    order = {name: index for index, name in enumerate(report.properties)}
    roots = [f for f in report.failures() if f.status == "fail"]  # "could not call" is never a root cause
    for finding in sorted(roots, key=lambda f: order.get(f.property, len(order))):
        entry = grouped.setdefault(finding.property, {"property": finding.property, "dtypes": [],
                                                      "dtype": finding.dtype, "detail": finding.detail,
                                                      "fix": finding.fix or ""})
        if finding.dtype:
            entry["dtypes"].append(finding.dtype)
    return list(grouped.values())


#: Options that are the audit's own settings, not something declared about the target.
_HIDDEN_OPTIONS = frozenset({"dtypes", "budget", "defaulted", "name", "framework", "timeout", "accept_short_table"})
#: Measurement keys of `detected` that are the audit's bookkeeping, not something a user acts on (kept in JSON).
_INTERNAL_KEYS = frozenset({"width", "heads", "table_readable", "scheme_source", "intact_pairs"})
#: How the other `detected` keys read in a summary.
_FOUND_LABELS = {"relative_form": "relative form:", "alibi_heads": "ALiBi heads", "form": "form:"}


def _summary(report: KindReport) -> str:
    """One paragraph: verdict, root cause(s) with their fix, or what was found; what was not evaluated."""
    audited = [dtype for dtype, info in report.dtypes.items() if info.get("status") == "supported"]
    notes = "".join(f" {note}" for note in report.notes)
    if report.verdict == "pass":
        found = ", ".join(f"{_FOUND_LABELS.get(key, key.replace('_', ' '))} {value}"
                          for key, value in report.detected.items()
                          if isinstance(value, str | int | float | bool) and key not in _INTERNAL_KEYS)
        text = f"PASS: {report.target} conforms as a {report.kind} target in {', '.join(audited) or 'no dtype'}"
        return text + (f" ({found})." if found else ".") + notes
    count = len(report.root_causes)
    parts = [f"FAIL: {report.target} ({report.kind}) — "
             + (f"{count} root cause{'s' if count != 1 else ''}." if count else "no mathematical failure.")]
    for root in report.root_causes:
        where = f" [{', '.join(root['dtypes'])}]" if root["dtypes"] else ""
        detail = root["detail"]
        parts.append(f"{root['property']}{where}: {detail[:1].upper()}{detail[1:]}"
                     + (f" Fix: {root['fix'].rstrip('.')}." if root["fix"] else ""))
    could_not = sorted({f.property for f in report.findings if f.status == "could not call"})
    if could_not:
        parts.append(f"Could not call the target for: {', '.join(could_not)} (it raised; see those findings).")
    explained = sorted(prop for prop, why in report.not_evaluated.items() if why.startswith("explained by"))
    if explained:
        parts.append(f"Not evaluated (explained by the root cause): {', '.join(explained)}.")
    return " ".join(parts) + notes


class FindingLog:
    """Collects findings in evaluation order; knows which properties a root cause explains."""

    def __init__(self, claims: dict[str, tuple[str, ...]]) -> None:
        self.claims = claims
        self.findings: list[Finding] = []
        self.not_evaluated: dict[str, str] = {}
        #: The property being evaluated (a probe the target raises on is charged to it as "could not call").
        self.current = "contract"

    def add(self, prop: str, ok: bool, detail: str, fix: str | None = None, **numbers: Any) -> Finding:
        """Record one finding (numbers: dtype, max_error, bound, position)."""
        clean = {
            key: value if value is None or key == "dtype" else (int(value) if key == "position" else float(value))
            for key, value in numbers.items()
        }
        finding = Finding(prop, bool(ok), detail, self.claims[prop], fix=None if ok else fix, **clean)
        self.findings.append(finding)
        return finding

    def could_not_call(self, reason: str, properties: tuple[str, ...]) -> None:
        """The target raised on a probe of the current property: a "could not call" finding (never a mathematical
        failure, never a root cause), and the properties not evaluated yet are skipped."""
        self.findings.append(Finding(
            self.current, False, f"Could not call the target on this property's probe: it raised {reason}. This "
            f"says nothing about the mathematics of {self.current}.", self.claims[self.current],
            status="could not call", fix="accept any integer positions (and any lengths) the contract allows"))
        done = {f.property for f in self.findings}
        for prop in properties:
            if prop not in done:
                self.skip(prop, f"not evaluated: the target raised on the {self.current} probe")

    def skip(self, prop: str, reason: str) -> None:
        """Record that a property was not evaluated, and why (kept once, the first reason). A reason that starts
        "explained by <property>" also becomes an `explained` finding pointing at that root cause."""
        if prop in self.not_evaluated:
            return
        self.not_evaluated[prop] = reason
        words = reason.split()
        if reason.startswith("explained by") and len(words) > 2:
            cause = words[2].rstrip(":,")
            self.findings.append(Finding(prop, True, f"see {cause}: not evaluated, {reason}.", self.claims[prop],
                                         status="explained", explained_by=cause))

    def failed(self, prop: str, dtype: str | None = None) -> bool:
        """Whether a property already failed (in this dtype, when given)."""
        return any(
            f.property == prop and not f.ok and (dtype is None or f.dtype in (None, dtype)) for f in self.findings
        )
