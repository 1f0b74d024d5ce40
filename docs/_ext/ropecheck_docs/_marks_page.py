"""The lists of numeric marks in the docs, generated from the live ledger at build time (issue 23, point 7).

`mark_lists(claims)` writes the claims that read `–` (not numerically tested) in every format and, per format, the
claims that read `?` (bound too loose to decide) or `✗` (contradiction): `docs/numerics.md` includes the result
(`generated/_parts/mark_lists.md`), so no hand-written list can go stale. Claims served: all (their `numeric` field).
"""

from __future__ import annotations

from typing import Any

from ._data import DTYPES

__all__ = ["mark_lists", "marks_by_format"]


def marks_by_format(claims: list[dict[str, Any]], mark: str) -> dict[str, list[str]]:
    """The claim IDs carrying `mark`, per format, in ledger order.

    **Arguments:**

    - `claims`: claim dicts as the build loads them (`numeric`: format → `{"mark", ...}`).
    - `mark`: one of ✓ ~ ? ✗ –.

    **Returns:**

    `{format: [claim ID, ...]}` for every format of `DTYPES` (empty lists included).
    """
    found: dict[str, list[str]] = {fmt: [] for fmt in DTYPES}
    for claim in claims:
        numeric = claim.get("numeric") or {}
        for fmt in DTYPES:
            entry = numeric.get(fmt)
            if isinstance(entry, dict) and entry.get("mark") == mark:
                found[fmt].append(claim["id"])
    return found


def _ids(ids: list[str]) -> str:
    return ", ".join(f"{{claim}}`{claim_id}`" for claim_id in ids) if ids else "none"


def mark_lists(claims: list[dict[str, Any]]) -> str:
    """The Markdown of the generated mark lists.

    **Arguments:**

    - `claims`: claim dicts as the build loads them.

    **Returns:**

    Markdown: the count and IDs of the claims not numerically tested in any format, then per format the `?`
    and `✗` cells.
    """
    untested_by_format = marks_by_format(claims, "–")
    untested = [c["id"] for c in claims if all(c["id"] in untested_by_format[fmt] for fmt in DTYPES)]
    measured = [c for c in claims if c.get("numeric")]
    lines = [
        f"**Not numerically tested (–) in every format: {len(untested)} of {len(measured)} claims** "
        "(both sides of every comparison are the same expression once built, or no numeric form; the reasons are "
        f"in each claim's `numeric.not_tested`): {_ids(untested)}.",
        "",
    ]
    for mark, title in (("?", "Bound too loose to decide (?)"), ("✗", "Contradiction (✗)")):
        cells = marks_by_format(claims, mark)
        total = sum(len(ids) for ids in cells.values())
        lines += [f"**{title}: {total} cells**", ""]
        lines += [f"- {fmt}: {_ids(ids)}" for fmt, ids in cells.items() if ids] or ["- none"]
        lines.append("")
    return "\n".join(lines)
