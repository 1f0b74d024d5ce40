"""The claims a report cites, inside the report: a report travels (a CI artifact, an e-mail), so its claim links
point into the report itself — never to a `file://` path of the machine that wrote it.

Each cited claim gets an entry at the end of report.md and report.html (its ID as the anchor, its title, the
command that prints it in full); with `$ROPECHECK_DOCS_URL` set (where the docs site is published) the entry
also links to the claim's page there.
"""

from __future__ import annotations

import html
import os

from ropecheck.numeric.audit.function.results import AuditReport

__all__ = ["CLAIM_PAGE", "anchor", "cited_claims", "claims_html", "claims_markdown", "docs_url"]

#: Where a claim's page lives under the built docs (docs/_ext/ropecheck_docs: `generated/claims/<ID>`).
CLAIM_PAGE = "generated/claims/{claim}.html"


def anchor(claim: str) -> str:
    """The in-report link of a claim: `#rope-pair-formula` (the anchor Markdown renderers give its heading)."""
    return "#" + claim.lower()


def docs_url(claim: str) -> str | None:
    """The claim's page under the published docs (`$ROPECHECK_DOCS_URL`), or None when it is not set."""
    base = os.environ.get("ROPECHECK_DOCS_URL", "").strip()
    if not base or base.startswith("file:"):
        return None
    return base.rstrip("/") + "/" + CLAIM_PAGE.format(claim=claim)


def cited_claims(report: AuditReport) -> list[tuple[str, str]]:
    """(ID, title) of every claim the report's findings cite, in first-cited order.

    **Arguments:**

    - `report`: the audit result.

    **Returns:**

    The cited claims; a title is empty for an ID the ledger does not know.
    """
    from ropecheck.proofs import claim_ids, get_claim

    known = set(claim_ids())
    ids = dict.fromkeys(claim for finding in report.findings for claim in finding.claims)
    return [(claim, get_claim(claim).title if claim in known else "") for claim in ids]


def claims_markdown(report: AuditReport) -> list[str]:
    """The report.md section "Claims cited": a heading per claim (the anchor of its links)."""
    lines = ["", "## Claims cited", ""]
    for claim, title in cited_claims(report):
        url = docs_url(claim)
        more = f" ([docs]({url}))" if url else ""
        lines += [f"### {claim}", "", f"{title}. Full statement, proof and sources: `ropecheck claims show {claim}`"
                  f"{more}.", ""]
    return lines


def claims_html(report: AuditReport) -> str:
    """The report.html section "Claims cited": an entry per claim with the `id` its links point to."""
    entries = []
    for claim, title in cited_claims(report):
        url = docs_url(claim)
        more = f' (<a href="{html.escape(url)}">docs</a>)' if url else ""
        entries.append(
            f'<li id="{html.escape(anchor(claim)[1:])}"><b>{html.escape(claim)}</b>: {html.escape(title)}. Full '
            f"statement, proof and sources: <code>ropecheck claims show {html.escape(claim)}</code>{more}.</li>"
        )
    return f"<h2>Claims cited</h2><ul>{''.join(entries)}</ul>"
