"""The report as Markdown: the summary paragraph and fix first, failing findings next, passes folded.

Claim IDs link to their entry under "Claims cited" at the end of the report (`claim_url`, `claims_cited`).
Internal bookkeeping (`all_audited`, the policy model's prediction) stays in the JSON and is never shown here.
"""

from __future__ import annotations

import math
from typing import Any

from ropecheck.numeric.audit.function.results import AuditReport, Finding
from ropecheck.numeric.audit.report.claims_cited import anchor, claims_markdown

__all__ = ["certified_text", "claim_url", "fmt", "header_lines", "ordered_findings", "render_markdown"]

_STATUS = {"fail": "FAIL", "could not call": "could not call", "explained": "ok (explained)", "pass": "ok"}


def claim_url(claim: str) -> str:
    """A claim's link in a report: its entry under "Claims cited" in the report itself (`claims_cited`), so the
    report works wherever it is copied; never a `file://` path."""
    return anchor(claim)


def fmt(value: Any) -> str:
    """A number for a table cell."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.3g}"
    return str(value)


def header_lines(report: AuditReport) -> list[str]:
    """What is under test, as a few lines (a kind's report may supply its own: `kind_header()`)."""
    custom = getattr(report, "kind_header", None)
    if callable(custom):
        return list(custom())
    scaling = report.scaling["spec"] if report.scaling else "none"
    declared = getattr(report, "declared_base", None)
    if report.base is None or report.base != report.base:
        base = "none"
    elif declared is not None and declared != report.base:
        base = f"{declared:g} (declared); the spectrum fits {report.base:g}"
    else:
        base = f"{report.base:g} ({report.base_source})"
    audited = ", ".join(d for d, info in report.dtypes.items() if info.get("status") == "supported") or "none"
    lines = [
        f"target: {report.target} ({report.framework}, head_dim {report.head_dim}, rotary_dim {report.rotary_dim})",
        f"verdict: {report.verdict.upper()}",
        f"layout: {report.layout}; direction: {report.direction}; base: {base}; scaling: {scaling}",
        f"positions audited: 0…{report.max_position - 1}; dtypes: {audited}",
    ]
    if report.table_positions is not None:
        lines.append(f"table holds {report.table_positions} positions")
    return lines


def ordered_findings(report: AuditReport) -> list[Finding]:
    """Failing first, then could-not-call, explained, passing (stable within each)."""
    order = {"fail": 0, "could not call": 1, "explained": 2, "pass": 3}
    return sorted(report.findings, key=lambda f: order.get(f.status, 4))


def certified_text(report: AuditReport, dtype: str) -> str:
    """The certified context of one dtype in words."""
    largest = report.certified[dtype]["largest_position"]
    failing = [f for f in report.failures() if f.status == "fail" and f.dtype in (None, dtype)]
    if failing:
        names = ", ".join(dict.fromkeys(f.property for f in failing))
        return f"not certified: {names} fails (fix the root cause first)"
    if report.verdict == "fail":
        # A failing report certifies a dtype only when every per-dtype property ran there (and held).
        per_dtype = dict.fromkeys(f.property for f in report.findings if f.dtype is not None)
        ran = {f.property for f in report.findings if f.dtype == dtype and not _not_evaluated(f)}
        missing = [prop for prop in per_dtype if prop not in ran]
        if missing:
            causes = ", ".join(dict.fromkeys(f.property for f in report.failures()))
            return f"not certified: {', '.join(missing)} not evaluated in {dtype} ({causes} fails; fix it first)"
    if largest < 0:
        return "no position within the budget"
    if largest == report.max_position - 1:
        return f"every audited position (0…{largest})"
    return f"positions 0…{largest} (of 0…{report.max_position - 1} audited)"


def _not_evaluated(finding: Finding) -> bool:
    return finding.status in ("explained", "could not call") and "not evaluated" in finding.detail


def _claims(finding: Finding) -> str:
    return ", ".join(f"[{claim}]({claim_url(claim)})" for claim in finding.claims)


def _row(finding: Finding) -> str:
    detail = finding.detail
    if finding.fix:
        detail += f" **Fix:** {finding.fix}."
    detail = detail.replace("|", "\\|")
    numbers = ""
    if finding.max_error is not None and finding.bound is not None:
        numbers = f"{fmt(finding.max_error)} / {fmt(finding.bound)}"
    status = _STATUS.get(finding.status, finding.status)
    if finding.status == "explained" and "not evaluated" in finding.detail:
        status = "not evaluated"  # never "ok" for a property that was not evaluated
    return (
        f"| {finding.property} | {finding.dtype or ''} | {status} | {numbers} |"
        f" {detail} | {_claims(finding)} |"
    )


def render_markdown(report: AuditReport, plots: list[str]) -> str:
    """The Markdown report (plots: file names next to it)."""
    lines = ["# ropecheck audit report", "", "## Summary", "", report.summary, ""]
    lines += [f"- {line}" for line in header_lines(report)]
    findings = ordered_findings(report)
    shown = [f for f in findings if f.status in ("fail", "could not call")]
    folded = [f for f in findings if f.status not in ("fail", "could not call")]
    table_head = [
        "| property | dtype | status | error / bound | detail | claims |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    if shown:
        lines += ["", "## Failing", "", *table_head, *(_row(f) for f in shown)]
    lines += ["", f"<details><summary>Passing and explained findings ({len(folded)})</summary>", ""]
    lines += [*table_head, *(_row(f) for f in folded), "", "</details>"]
    if report.certified:
        lines += ["", "## Certified context", ""]
        lines.append(
            getattr(report, "certified_sentence", "")
            or "ROPE-RELATIVE-MATRIX (R(m)ᵀR(n) = R(n − m)) transfers to the target with the measured per-position"
            " matrix error: for unit q, k the score error stays within the budget at these positions."
        )
        lines += ["", "| dtype | certified | budget |", "| --- | --- | --- |"]
        for dtype, c in report.certified.items():
            lines.append(f"| {dtype} | {certified_text(report, dtype)} | {c['budget']:.3g} |")
    if plots:
        lines += ["", "## Plots", "", *(f"![{name}]({name})" for name in plots)]
    lines += claims_markdown(report)
    return "\n".join(lines) + "\n"
