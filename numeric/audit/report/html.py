"""The report as one HTML page."""

from __future__ import annotations

import html

from numeric.audit.report.markdown import fmt, header_lines
from numeric.audit.results import AuditReport

__all__ = ["render_html"]


def render_html(markdown_text: str, report: AuditReport, plots: list[str]) -> str:
    rows = "".join(
        f"<tr class={'ok' if f.ok else 'fail'}><td>{f.property}</td><td>{f.dtype or ''}</td>"
        f"<td>{'ok' if f.ok else 'FAIL'}</td><td>{fmt(f.max_error)}</td><td>{fmt(f.bound)}</td>"
        f"<td>{fmt(f.position)}</td><td>{html.escape(f.detail)}</td><td>{', '.join(f.claims)}</td></tr>"
        for f in report.findings
    )
    header = "".join(f"<li>{html.escape(line)}</li>" for line in header_lines(report))
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
