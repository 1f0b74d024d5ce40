"""The terminal summary of an `AuditReport` (rich): the summary paragraph, failing findings with their fix, the
passing properties folded to one line each, the certified context in words.

In a terminal, lines wrap at its width with continuation lines indented under their finding; piped (not a
terminal), each record is one line, never wrapped."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.function.results import AuditReport
from ropecheck.numeric.audit.report.markdown import certified_text, fmt, header_lines, ordered_findings

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
    _hanging(console, "", f"[bold {colour}]{escape(report.summary)}[/]")
    for line in header_lines(report):
        _hanging(console, "  ", escape(line))
    folded: dict[str, list[str]] = {}
    skipped: dict[str, str] = {}
    for finding in ordered_findings(report):
        where = f" [{finding.dtype}]" if finding.dtype else ""
        if finding.status in ("fail", "could not call"):
            label = "FAIL" if finding.status == "fail" else "could not call"
            numbers = ""
            if finding.max_error is not None and finding.bound is not None:
                numbers = f" (error {fmt(finding.max_error)}, bound {fmt(finding.bound)})"
            body = f"{finding.property}{escape(where)}: {escape(finding.detail)}{numbers}"
            _hanging(console, f"  [red]{label}[/] ", body)
            if finding.fix:
                _hanging(console, "       fix: ", escape(finding.fix))
            _hanging(console, "       claims: ", ", ".join(finding.claims))
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
        _hanging(console, "  —    ", f"{prop}: not evaluated" + (f" (explained by {escape(cause)})" if cause else ""))
    for dtype, info in report.dtypes.items():
        if info.get("status") != "supported":
            _hanging(console, "  ", f"{dtype}: {info.get('status')} — {escape(info.get('reason', ''))}")
    for dtype in report.certified:
        _hanging(console, "  ", f"certified context {dtype}: {certified_text(report, dtype)}")


def _hanging(console: Any, label: str, body: str) -> None:
    """Print `label` then `body` (rich markup): in a terminal wrapped at its width with every continuation line
    under the body's first character; piped, as one line."""
    if not console.is_terminal:
        console.print(label + body, soft_wrap=True)
        return
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=0)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(Text.from_markup(label), Text.from_markup(body))
    console.print(grid)
