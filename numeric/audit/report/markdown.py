"""The report as Markdown."""

from __future__ import annotations

import math
from typing import Any

from numeric.audit.results import AuditReport

__all__ = ["fmt", "header_lines", "render_markdown"]


def fmt(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.3g}"
    return str(value)


def header_lines(report: AuditReport) -> list[str]:
    scaling = report.scaling["spec"] if report.scaling else "none"
    base = "unknown" if report.base is None else f"{report.base:g} ({report.base_source})"
    return [
        f"target: {report.target} ({report.framework}, head_dim {report.head_dim}, rotary_dim {report.rotary_dim})",
        f"verdict: {report.verdict.upper()}",
        f"layout: {report.layout}; direction: {report.direction}; base: {base}; scaling: {scaling}",
        f"positions audited: 0…{report.max_position - 1}",
    ]


def render_markdown(report: AuditReport, plots: list[str]) -> str:
    lines = ["# ropecheck audit report", ""]
    lines += [f"- {line}" for line in header_lines(report)]
    lines += ["", "## Findings", "", "| property | dtype | ok | max error | bound | position | detail | claims |"]
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for f in report.findings:
        detail = f.detail.replace("|", "\\|")
        lines.append(
            f"| {f.property} | {f.dtype or ''} | {'ok' if f.ok else '**FAIL**'} | {fmt(f.max_error)} |"
            f" {fmt(f.bound)} | {fmt(f.position)} | {detail} | {', '.join(f.claims)} |"
        )
    lines += ["", "## Dtypes", "", "| dtype | status | accepted angle dtype | max error | bound | ratio |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for dtype, info in report.dtypes.items():
        status = info.get("status", "") + (f" ({info['reason']})" if "reason" in info else "")
        lines.append(
            f"| {dtype} | {status} | {info.get('angle_dtype_accepted', '')} | {fmt(info.get('max_error'))} |"
            f" {fmt(info.get('bound'))} | {fmt(info.get('ratio'))} |"
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
