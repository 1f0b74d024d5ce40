"""The *Cite* block of a claim page: a stable URL, BibTeX, the Coq theorem with its `file:line`, the command.

The URL is the page's anchor (`generated/claims/ID.html#claim-id`) under `$ROPECHECK_DOCS_URL` when the site is
published there (the same variable the audit's reports use); without one the BibTeX has no `url` (a relative one
cites nothing). The entry and the locations come from `ropecheck.cli._claims_cite` (shared with `claims show`).
The theorem's `file:line` is found in the reviewed development (`proofs/coq/*.v`); a theorem printed at build time
from the registry (not a file in the repository) says so instead.
"""

from __future__ import annotations

from typing import Any

from ropecheck.cli._claims_cite import bibtex_entry, claim_url, theorem_location

from ._markdown import literal

__all__ = ["cite_block", "claim_url", "theorem_location"]


def cite_block(claim: dict[str, Any], pin: dict[str, str], anchor: str) -> list[str]:
    """The *Cite* section of a claim page (Markdown lines).

    **Arguments:**

    - `claim`: one entry of the claims payload (`id`, `title`, `verdict`, `kernel_theorems`).
    - `pin`: `version`, `commit` and `date` of the site.
    - `anchor`: the page's label (`claim-rope-relative-matrix`).

    **Returns:** the lines: the address, BibTeX `@misc`, the verdict theorem(s) with `file:line`, the command.
    """
    claim_id = claim["id"]
    url = claim_url(claim_id, anchor)
    where = f"Stable address of this page: {literal(url)}" if url else f"This page's anchor: {literal('#' + anchor)}"
    out = [
        "## Cite this claim",
        "",
        f"{where} (version {pin['version']}, commit {literal(pin['commit'])}, built {pin['date']}).",
        "",
        "```bibtex",
        *bibtex_entry(claim, pin, anchor),
        "```",
        "",
    ]
    theorems = [t for t in claim.get("kernel_theorems") or [] if t.get("role") != "instance"]
    if theorems:
        out += ["The Coq theorems behind the verdict:", ""]
        for theorem in theorems:
            qualified = f"{theorem['module']}.{theorem['theorem']}"
            location = theorem_location(theorem["module"], theorem["theorem"])
            place = literal(location) if location else "printed from the registry when the development is built"
            out.append(f"- {theorem['role']}: {literal(qualified)} — {place}; {theorem.get('status', '?')}")
        out.append("")
    out += ["Reproduce the verdict:", "", "```console", f"$ ropecheck claims show {claim_id}", "```", ""]
    return out
