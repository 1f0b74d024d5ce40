"""The terminal summary of an `AuditReport` (rich)."""

from __future__ import annotations

from typing import Any

from numeric.audit.report.markdown import fmt, header_lines
from numeric.audit.results import AuditReport

__all__ = ["print_summary"]


def print_summary(report: AuditReport, file: Any = None) -> None:
    """Print the verdict, the findings table and the certified context per dtype with rich.

    **Arguments:**

    - `report`: the audit result.
    - `file`: a text stream (default stdout).
    """
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=file, highlight=False)
    lines = header_lines(report)
    colour = "green" if report.ok else "red"
    console.print(f"[bold]ropecheck audit[/] {escape(lines[0])}")
    console.print(f"[bold {colour}]{lines[1]}[/]")
    for line in lines[2:]:
        console.print(escape(line))
    by_property: dict[str, list[Any]] = {}
    for finding in report.findings:
        by_property.setdefault(finding.property, []).append(finding)
    for prop, findings in by_property.items():
        failing = [f for f in findings if not f.ok]
        dtypes = ", ".join(f.dtype for f in findings if f.dtype)
        if not failing:
            suffix = escape(f" [{dtypes}]") if dtypes else ""
            console.print(f"  [green]ok  [/] {prop}{suffix}: {escape(findings[0].detail)}")
            continue
        for f in failing:
            where = escape(f" [{f.dtype}]") if f.dtype else ""
            numbers = ""
            if f.max_error is not None and f.bound is not None:
                numbers = f" (error {fmt(f.max_error)}, bound {fmt(f.bound)})"
            console.print(f"  [red]FAIL[/] {prop}{where}: {escape(f.detail)}{numbers}")
            console.print(f"       claims: {', '.join(f.claims)}")
    for dtype, info in report.dtypes.items():
        if info.get("status") != "supported":
            console.print(f"{dtype}: {info.get('status')} — {info.get('reason', '')}")
    for dtype, certified in report.certified.items():
        largest = certified["largest_position"]
        text = (
            "none" if largest < 0 else f"{largest}" + (" (every position audited)" if certified["all_audited"] else "")
        )
        console.print(f"certified context {dtype}: positions 0…{text} at score budget {certified['budget']:.3g}")
