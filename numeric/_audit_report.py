"""Presenting an `AuditReport`: a terminal summary (rich), and a Markdown + HTML report with plots.

The plots are the two the issue asks for: the largest angle error of any pair against position, per dtype
(log scale, with the accepted float32/float64 angle rounding u·|m·θ₀| for comparison), and the largest certified
position per dtype at the score-error budget (ROPE-RELATIVE-MATRIX transferred with the measured error).
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import numpy as np

from numeric._audit import AuditReport

__all__ = ["print_summary", "write_report"]


def _fmt(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.3g}"
    return str(value)


def _header_lines(report: AuditReport) -> list[str]:
    scaling = report.scaling["spec"] if report.scaling else "none"
    base = "unknown" if report.base is None else f"{report.base:g} ({report.base_source})"
    return [
        f"target: {report.target} ({report.framework}, head_dim {report.head_dim}, rotary_dim {report.rotary_dim})",
        f"verdict: {report.verdict.upper()}",
        f"layout: {report.layout}; direction: {report.direction}; base: {base}; scaling: {scaling}",
        f"positions audited: 0…{report.max_position - 1}",
    ]


def print_summary(report: AuditReport, file: Any = None) -> None:
    """Print the verdict, the findings table and the certified context per dtype with rich.

    **Arguments:**

    - `report`: the audit result.
    - `file`: a text stream (default stdout).
    """
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=file, highlight=False)
    lines = _header_lines(report)
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
                numbers = f" (error {_fmt(f.max_error)}, bound {_fmt(f.bound)})"
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


def _plot_angle_error(report: AuditReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for dtype, errors in report.angle_error.items():
        positions = np.arange(errors.size)
        step = max(1, errors.size // 4000)
        # Keep the running maximum of each stride so the thinned curve does not hide spikes.
        shown = np.maximum.reduceat(errors, np.arange(0, errors.size, step)) if errors.size else errors
        axes.plot(positions[::step][: shown.size], np.maximum(shown, 1e-18), label=dtype, linewidth=0.8)
    axes.set_yscale("log")
    axes.set_xlabel("position m")
    axes.set_ylabel("largest angle error over pairs (rad)")
    axes.set_title(f"angle error vs position — {report.target}")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _plot_certified(report: AuditReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    names = list(report.certified)
    values = [max(report.certified[name]["largest_position"], 0) + 1 for name in names]
    axes.bar(names, values, color=["tab:green" if report.certified[n]["all_audited"] else "tab:orange" for n in names])
    axes.axhline(report.max_position, color="grey", linestyle="--", linewidth=0.8, label="audited context")
    axes.set_yscale("log")
    axes.set_ylabel("certified context length")
    budget = next(iter(report.certified.values()))["budget"] if report.certified else 0
    axes.set_title(f"largest certified position + 1 (score budget {budget:.3g})")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _markdown(report: AuditReport, plots: list[str]) -> str:
    lines = ["# ropecheck audit report", ""]
    lines += [f"- {line}" for line in _header_lines(report)]
    lines += ["", "## Findings", "", "| property | dtype | ok | max error | bound | position | detail | claims |"]
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for f in report.findings:
        detail = f.detail.replace("|", "\\|")
        lines.append(
            f"| {f.property} | {f.dtype or ''} | {'ok' if f.ok else '**FAIL**'} | {_fmt(f.max_error)} |"
            f" {_fmt(f.bound)} | {_fmt(f.position)} | {detail} | {', '.join(f.claims)} |"
        )
    lines += ["", "## Dtypes", "", "| dtype | status | accepted angle dtype | max error | bound | ratio |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for dtype, info in report.dtypes.items():
        status = info.get("status", "") + (f" ({info['reason']})" if "reason" in info else "")
        lines.append(
            f"| {dtype} | {status} | {info.get('angle_dtype_accepted', '')} | {_fmt(info.get('max_error'))} |"
            f" {_fmt(info.get('bound'))} | {_fmt(info.get('ratio'))} |"
        )
    lines += ["", "## Certified context", ""]
    lines.append(
        "ROPE-RELATIVE-MATRIX (R(m)ᵀR(n) = R(n − m)) transfers to the target with the measured per-position matrix"
        " error ε(m): for unit q, k at positions ≤ M the score error is at most E(M)·(2g + E(M)) plus the score's"
        " accumulation, E(M) = max ε(m) over m ≤ M."
    )
    lines += ["", "| dtype | largest certified position | every position audited | budget | model prediction |"]
    lines.append("| --- | --- | --- | --- | --- |")
    for dtype, c in report.certified.items():
        lines.append(
            f"| {dtype} | {c['largest_position']} | {c['all_audited']} | {c['budget']:.3g} |"
            f" {c['predicted_for_policy_implementation']} |"
        )
    lines += ["", "## Plots", ""]
    lines += [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"


def _html(markdown_text: str, report: AuditReport, plots: list[str]) -> str:
    rows = "".join(
        f"<tr class={'ok' if f.ok else 'fail'}><td>{f.property}</td><td>{f.dtype or ''}</td>"
        f"<td>{'ok' if f.ok else 'FAIL'}</td><td>{_fmt(f.max_error)}</td><td>{_fmt(f.bound)}</td>"
        f"<td>{_fmt(f.position)}</td><td>{html.escape(f.detail)}</td><td>{', '.join(f.claims)}</td></tr>"
        for f in report.findings
    )
    header = "".join(f"<li>{html.escape(line)}</li>" for line in _header_lines(report))
    images = "".join(f'<p><img src="{name}" alt="{name}"></p>' for name in plots)
    certified = "".join(
        f"<tr><td>{dtype}</td><td>{c['largest_position']}</td><td>{c['all_audited']}</td><td>{c['budget']:.3g}</td></tr>"
        for dtype, c in report.certified.items()
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ropecheck audit</title><style>"
        "body{font-family:sans-serif;max-width:1100px;margin:auto}td,th{border:1px solid #ccc;padding:3px 6px}"
        "table{border-collapse:collapse}.fail{background:#fdd}.ok{background:#efe}</style></head><body>"
        f"<h1>ropecheck audit report</h1><ul>{header}</ul><h2>Findings</h2><table><tr><th>property</th><th>dtype</th>"
        "<th>ok</th><th>max error</th><th>bound</th><th>position</th><th>detail</th><th>claims</th></tr>"
        f"{rows}</table><h2>Certified context</h2><table><tr><th>dtype</th><th>largest position</th>"
        f"<th>all audited</th><th>budget</th></tr>{certified}</table><h2>Plots</h2>{images}</body></html>\n"
    )


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
        _plot_angle_error(report, folder / "angle_error.png")
        plots.append("angle_error.png")
    if report.certified:
        _plot_certified(report, folder / "certified.png")
        plots.append("certified.png")
    markdown_text = _markdown(report, plots)
    (folder / "report.md").write_text(markdown_text, encoding="utf-8")
    (folder / "report.html").write_text(_html(markdown_text, report, plots), encoding="utf-8")
    return [folder / "report.md", folder / "report.html", *(folder / name for name in plots)]
