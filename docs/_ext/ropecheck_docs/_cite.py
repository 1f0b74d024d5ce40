"""The *Cite* block of a claim page: a stable URL, BibTeX, the Coq theorem with its `file:line`, the command.

The URL is the page's anchor (`generated/claims/ID.html#claim-id`) under `$ROPECHECK_DOCS_URL` when the site is
published there (the same variable the audit's reports use), else relative to the site's root. The theorem's
`file:line` is found in the reviewed development (`proofs/coq/*.v`); a theorem printed at build time from the
registry (not a file in the repository) says so instead.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from ._markdown import literal

REPOSITORY = Path(__file__).resolve().parents[3]
COQ_ROOT = REPOSITORY / "proofs" / "coq"
COQ_ROOT_NAME = "Ropecheck"


def claim_url(claim_id: str, anchor: str) -> str:
    """The claim page's stable address: `<docs URL>/generated/claims/ID.html#anchor` (relative without one)."""
    base = os.environ.get("ROPECHECK_DOCS_URL", "").strip()
    path = f"generated/claims/{claim_id}.html#{anchor}"
    return f"{base.rstrip('/')}/{path}" if base else path


@cache
def _declarations(module: str) -> dict[str, int]:
    """Theorem name → line number in the `.v` file of `module` (`Ropecheck.Rope` → `proofs/coq/Rope.v`)."""
    if not module.startswith(COQ_ROOT_NAME + "."):
        return {}
    path = COQ_ROOT / (module.removeprefix(COQ_ROOT_NAME + ".").replace(".", "/") + ".v")
    if not path.is_file():
        return {}
    declaration = re.compile(r"^\s*(?:Theorem|Lemma|Example|Corollary|Proposition|Fact|Remark)\s+([A-Za-z0-9_']+)")
    found: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = declaration.match(line)
        if match:
            found.setdefault(match.group(1), number)
    return found


def theorem_location(module: str, theorem: str) -> str | None:
    """`proofs/coq/Rope.v:42` for a theorem declared in the repository's development, else None."""
    line = _declarations(module).get(theorem)
    if line is None:
        return None
    relative = module.removeprefix(COQ_ROOT_NAME + ".").replace(".", "/")
    return f"proofs/coq/{relative}.v:{line}"


def _bibtex_escape(text: str) -> str:
    return re.sub(r"([{}%&#_$])", r"\\\1", text)


def cite_block(claim: dict[str, Any], pin: dict[str, str], anchor: str) -> list[str]:
    """The *Cite* section of a claim page (Markdown lines).

    **Arguments:**

    - `claim`: one entry of the claims payload (`id`, `title`, `verdict`, `kernel_theorems`).
    - `pin`: `version`, `commit` and `date` of the site.
    - `anchor`: the page's label (`claim-rope-relative-matrix`).

    **Returns:** the lines: URL, BibTeX `@misc`, the verdict theorem(s) with `file:line`, the command.
    """
    claim_id = claim["id"]
    url = claim_url(claim_id, anchor)
    key = "ropecheck-" + claim_id.lower()
    title = re.sub(r"\$([^$]*)\$", r"\1", str(claim.get("title", "")))
    bibtex = [
        f"@misc{{{key},",
        f"  title        = {{{{{claim_id}}}: {_bibtex_escape(title)}}},",
        "  author       = {{ropecheck}},",
        f"  howpublished = {{ropecheck claims ledger, version {pin['version']}, commit {pin['commit']}}},",
        f"  note         = {{Verdict: {claim.get('verdict', 'unknown')}. Claim {claim_id}}},",
        f"  year         = {{{pin['date'][:4]}}},",
        f"  date         = {{{pin['date']}}},",
        f"  url          = {{{url}}},",
        "}",
    ]
    out = [
        "## Cite this claim",
        "",
        f"Stable address of this page: {literal(url)} (version {pin['version']}, commit {literal(pin['commit'])}, "
        f"built {pin['date']}).",
        "",
        "```bibtex",
        *bibtex,
        "```",
        "",
    ]
    theorems = [t for t in claim.get("kernel_theorems") or [] if t.get("role") != "instance"]
    if theorems:
        out += ["The Coq theorems behind the verdict:", ""]
        for theorem in theorems:
            qualified = f"{theorem['module']}.{theorem['theorem']}"
            where = theorem_location(theorem["module"], theorem["theorem"])
            place = literal(where) if where else "printed from the registry when the development is built"
            out.append(f"- {theorem['role']}: {literal(qualified)} — {place}; {theorem.get('status', '?')}")
        out.append("")
    out += ["Reproduce the verdict:", "", "```console", f"$ ropecheck claims show {claim_id}", "```", ""]
    return out
