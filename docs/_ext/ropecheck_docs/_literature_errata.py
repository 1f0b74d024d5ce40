"""The errata page's sections for the literature (ISSUE #33): one section per paper or reference code, generated
from the ledger — what each states (quoted), the verdict, what holds (the correction, or the statement itself when
proved) and the Coq theorems with their `file:line`, each entry citable by its claim page's BibTeX."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ._cite import theorem_location
from ._data import is_seed
from ._markdown import claim_ref, escape, inline_math, list_table, path_literal, rich_text, verdict_badge


def is_literature(claim: dict[str, Any]) -> bool:
    """Whether the claim comes from the context-extension literature (its first source is one of its documents)."""
    from ropecheck.proofs.claims._source_literature import LITERATURE_RECORDS

    keys = {head[0] for head, _ in LITERATURE_RECORDS}
    return bool(claim["sources"]) and claim["sources"][0]["key"] in keys


def _theorems(claim: dict[str, Any]) -> str:
    lines = []
    for theorem in claim.get("kernel_theorems") or []:
        if theorem.get("role") in ("verdict", "negation", "correction", "literal"):
            where = theorem_location(theorem["module"], theorem["theorem"])
            # Breakable after each underscore (a zero-width space; inline code would not break), as the seeds'
            # errata heading does: the longest names (pi_interpolation_bound_correction) are wider than the column
            # at 1280 px; the file:line beside it and the claim page give the exact name to copy.
            lines.append(
                f"{escape(theorem['theorem']).replace('_', '_' + chr(0x200B))} ({escape(theorem['role'])}"
                + (f", {path_literal(where)}" if where else "")
                + ")"
            )
    return "\n\n".join(lines) or "*no bound theorem*"


def _holds(claim: dict[str, Any]) -> str:
    correction = claim.get("correction")
    if claim["verdict"] == "refuted" and correction:
        text = inline_math(correction["statement"])
        if correction.get("explanation"):
            text += "\n\n" + rich_text(correction["explanation"])
        return text
    if claim["verdict"] == "proved":
        return inline_math(claim["statement"])
    return rich_text(claim.get("verdict_reason") or "undecided")


def literature_sections(claims: list[dict[str, Any]], source_label: Any) -> list[str]:
    """Markdown lines: for each non-seed source that the literature claims cite first, a section with one row per
    claim the kernel did not prove as stated (refuted, with the proved correction, or unknown with its reason):
    errata list what fails; what holds as stated is on the ledger and the claim pages.

    **Arguments:**

    - `claims`: the ledger's JSON entries.
    - `source_label`: how a page cites a source key (`_pages.source_label`).

    **Returns:** the lines, empty when no claim comes from the literature alone.
    """
    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for claim in claims:
        stated_holds = claim["verdict"] == "proved" and not claim.get("correction")
        if is_literature(claim) and not stated_holds and not any(is_seed(s["key"]) for s in claim["sources"]):
            by_source[claim["sources"][0]["key"]].append(claim)
    parts: list[str] = []
    if not by_source:
        return parts
    parts += [
        "",
        "## The context-extension literature",
        "",
        "What the papers and reference implementations behind `rope_scaling` state and the Coq kernel did not prove "
        "as stated: each row quotes the statement, gives the verdict, what holds (the proved correction of a refuted "
        "statement, or why it is undecided) and the theorems with their `file:line`. Each claim page has a BibTeX "
        "entry to cite it; the statements that hold as written are on the ledger.",
    ]
    for key in sorted(by_source):
        rows = []
        for claim in by_source[key]:
            quote = next((s["quote"] for s in claim["sources"] if s["key"] == key), "")
            rows.append(
                [
                    f"{claim_ref(claim['id'])}\n\n{verdict_badge(claim['verdict'])}\n\n{rich_text(claim['title'])}",
                    f"> {rich_text(quote)}" if quote else "",
                    _holds(claim),
                    _theorems(claim),
                ]
            )
        parts += ["", f"### {source_label(key)}", ""]
        parts.append(
            list_table(["Claim", "As stated", "What holds", "Theorems"], rows, [16, 26, 31, 27],
                       "ropecheck-table ropecheck-formulas")
        )
    return parts
