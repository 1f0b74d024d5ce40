"""The report as one HTML page: summary and fix first, failing findings next, passes folded in `<details>`."""

from __future__ import annotations

import html

from ropecheck.numeric.audit.function.results import AuditReport, Finding
from ropecheck.numeric.audit.report.claims_cited import claims_html
from ropecheck.numeric.audit.report.markdown import (
    _STATUS,
    certified_text,
    claim_url,
    fmt,
    header_lines,
    ordered_findings,
)

__all__ = ["render_html"]

_STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:auto;line-height:1.4}td,th{border:1px solid #ccc;"
    "padding:3px 6px;vertical-align:top}table{border-collapse:collapse}.fail{background:#fdd}"
    ".ok{background:#efe}.explained{background:#f4f4f4}.summary{font-size:1.1em;padding:.6em;border-left:4px"
    " solid #888}.verdict-fail{border-color:#c00}.verdict-pass{border-color:#080}"
)


def _row(finding: Finding) -> str:
    claims = ", ".join(f'<a href="{html.escape(claim_url(c))}">{html.escape(c)}</a>' for c in finding.claims)
    fix = f"<br><b>Fix:</b> {html.escape(finding.fix)}." if finding.fix else ""
    numbers = ""
    if finding.max_error is not None and finding.bound is not None:
        numbers = f"{fmt(finding.max_error)} / {fmt(finding.bound)}"
    css = {"fail": "fail", "could not call": "fail", "explained": "explained"}.get(finding.status, "ok")
    return (
        f"<tr class={css}><td>{finding.property}</td><td>{finding.dtype or ''}</td>"
        f"<td>{html.escape(_STATUS.get(finding.status, finding.status))}</td><td>{numbers}</td>"
        f"<td>{html.escape(finding.detail)}{fix}</td><td>{claims}</td></tr>"
    )


def render_html(markdown_text: str, report: AuditReport, plots: list[str]) -> str:
    """The HTML page (`markdown_text` is kept for callers that pass it; the page is built from the report)."""
    head = "<tr><th>property</th><th>dtype</th><th>status</th><th>error / bound</th><th>detail</th><th>claims</th></tr>"
    findings = ordered_findings(report)
    shown = [f for f in findings if f.status in ("fail", "could not call")]
    folded = [f for f in findings if f.status not in ("fail", "could not call")]
    failing = f"<h2>Failing</h2><table>{head}{''.join(map(_row, shown))}</table>" if shown else ""
    passing = (
        f"<details><summary>Passing and explained findings ({len(folded)})</summary><table>{head}"
        f"{''.join(map(_row, folded))}</table></details>"
    )
    header = "".join(f"<li>{html.escape(line)}</li>" for line in header_lines(report))
    certified = "".join(
        f"<tr><td>{dtype}</td><td>{html.escape(certified_text(report, dtype))}</td><td>{c['budget']:.3g}</td></tr>"
        for dtype, c in report.certified.items()
    )
    images = "".join(f'<p><img src="{name}" alt="{name}"></p>' for name in plots)
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ropecheck audit</title>"
        f"<style>{_STYLE}</style></head><body><h1>ropecheck audit report</h1>"
        f"<p class='summary verdict-{report.verdict}'>{html.escape(report.summary)}</p><ul>{header}</ul>"
        f"{failing}{passing}<h2>Certified context</h2><table><tr><th>dtype</th><th>certified</th><th>budget</th></tr>"
        f"{certified}</table><h2>Plots</h2>{images}{claims_html(report)}</body></html>\n"
    )
