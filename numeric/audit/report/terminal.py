"""The terminal summary of an `AuditReport` (rich): the summary paragraph, failing findings with their fix, the
passing properties folded to one line each, the certified context in words."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.report.markdown import certified_text, fmt, header_lines, ordered_findings
from ropecheck.numeric.audit.results import AuditReport

__all__ = ["print_summary"]


def print_summary(report: AuditReport, file: Any = None) -> None:
    """Print the report for a terminal.

    **Arguments:**

    - `report`: the audit result.
    - `file`: a text stream (default stdout).
    """
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=file, highlight=False)
    colour = "green" if report.ok else "red"
    console.print(f"[bold {colour}]{escape(report.summary)}[/]")
    for line in header_lines(report):
        console.print(f"  {escape(line)}")
    folded: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}
    for finding in ordered_findings(report):
        where = f" [{finding.dtype}]" if finding.dtype else ""
        if finding.status in ("fail", "could not call"):
            label = "FAIL" if finding.status == "fail" else "could not call"
            numbers = ""
            if finding.max_error is not None and finding.bound is not None:
                numbers = f" (error {fmt(finding.max_error)}, bound {fmt(finding.bound)})"
            console.print(f"  [red]{label}[/] {finding.property}{escape(where)}: {escape(finding.detail)}{numbers}")
            if finding.fix:
                console.print(f"       fix: {escape(finding.fix)}")
            console.print(f"       claims: {', '.join(finding.claims)}")
        elif finding.status == "explained" and "not evaluated" in finding.detail:
            skipped.setdefault(finding.property, finding.explained_by or "")
        else:
            folded.setdefault(finding.property, []).append(finding.dtype or "")
    for prop, dtypes in folded.items():
        if prop in skipped:
            continue  # a property is either evaluated or not: "not evaluated" below wins
        shown = ", ".join(dict.fromkeys(d for d in dtypes if d))
        console.print(f"  [green]ok[/]   {prop}" + (escape(f" [{shown}]") if shown else ""))
    for prop, cause in skipped.items():
        console.print(f"  —    {prop}: not evaluated" + (f" (explained by {escape(cause)})" if cause else ""))
    for dtype, info in report.dtypes.items():
        if info.get("status") != "supported":
            console.print(f"  {dtype}: {info.get('status')} — {escape(info.get('reason', ''))}")
    for dtype in report.certified:
        console.print(f"  certified context {dtype}: {certified_text(report, dtype)}")
