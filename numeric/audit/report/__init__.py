"""Presenting an `AuditReport`: JSON (`json`), a terminal summary (`terminal`), Markdown (`markdown`), HTML (`html`),
plots (`plots`), and the real-library conformance table (`conformance`).
"""

from __future__ import annotations

from pathlib import Path

from ropecheck.numeric.audit.function.results import AuditReport
from ropecheck.numeric.audit.report.html import render_html
from ropecheck.numeric.audit.report.markdown import render_markdown
from ropecheck.numeric.audit.report.plots import plot_angle_error, plot_certified

__all__ = ["write_report"]


def write_report(report: AuditReport, directory: str | Path) -> list[Path]:
    """Write `report.md`, `report.html`, `angle_error.png` and `certified.png` into `directory` (created).

    **Arguments:**

    - `report`: the audit result.
    - `directory`: the output folder.

    **Returns:**

    The paths written.
    """
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    plots = []
    if report.angle_error:
        plot_angle_error(report, folder / "angle_error.png")
        plots.append("angle_error.png")
    if report.certified:
        plot_certified(report, folder / "certified.png")
        plots.append("certified.png")
    markdown_text = render_markdown(report, plots)
    (folder / "report.md").write_text(markdown_text, encoding="utf-8")
    (folder / "report.html").write_text(render_html(markdown_text, report, plots), encoding="utf-8")
    return [folder / "report.md", folder / "report.html", *(folder / name for name in plots)]
