"""Numeric evidence per ledger claim, and the ledger's numeric tables (decay, precision limits).

`numeric_evidence(claim)` runs the claim's mirror in float16, bfloat16, float32, float64 and mpmath and summarises
each format as

```json
{"max_error": float, "bound": float, "ratio": float, "cases": int, "agrees": bool, "mark": "✓|~|?|✗|–",
 "status": str, "measure": "error" | "discrepancy", "skipped": int, "beyond_rounding": bool}
```

plus `"not_tested"`: a list of `{"part", "reason"}` for the statement parts the mirror does not evaluate (both
sides the same expression, no numeric form, a statement kind it does not know).

**Marks, one meaning each** (`status` says it in words):

- `✓` *confirmed*: a proved statement holds within its bound at every case and every witness is certified by
  the computation (|value| > bound); a refutation's discrepancy is ≥ `REFUTATION_FACTOR` × its bound.
- `~` *below what the format can resolve*: the effect the comparison must show (a witness value, a refutation's
  exact discrepancy) is at most u·scale, one rounding of the largest quantity in the computation — decided from
  the effect size against the dtype's unit roundoff, not from our bound.
- `?` *bound too loose to decide*: the effect is above u·scale, yet the model's bound does not let the format
  certify it. A defect of the model, listed by `undecided_rows`.
- `✗` *contradiction*: a proved statement's computed error exceeds its bound.
- `–` *not numerically tested*: no comparison to run (see `not_tested`).

`cases` counts evaluated points, `skipped` the points out of the dtype's range or out of the model (an
overflow, an infinite bound); `"overflow": {"cases", "cause"}` (present only then) counts the points whose
computation left the finite range (a NaN or an inf on either side) and names the first operation that did, so a
proved claim never reads `✗` from an overflow (a column where every point overflowed reads `–`),
`vacuous_cases` the points whose bound is at least twice the largest magnitude in
the computation (a bound wider than the quantity's range, which no error could exceed). All claim IDs are served.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..reference.tolerances import FORMATS, format_unit_roundoff
from ._compare import Outcome, compare
from ._comparisons import REFUTATION_FACTOR, claim_untested_parts, comparisons

__all__ = ["MARKS", "claim_outcomes", "ledger_numeric_tables", "numeric_evidence", "summarise", "undecided_rows"]

#: Sampled points per dtype for identities (mpmath uses 8 of them).
EVIDENCE_CASES = 64
MARKS = {
    "✓": "confirmed",
    "~": "below what the format can resolve",
    "?": "bound too loose to decide",
    "✗": "contradiction",
    "–": "not numerically tested",
}

_CACHE: dict[str, dict[str, Any]] = {}


def _refuting(outcome: Outcome) -> bool:
    kind = outcome.comparison.kind
    return kind == "fails" or (kind == "witness" and outcome.comparison.factor > 1)


def claim_outcomes(claim: Any, fmt: str, *, cases: int = EVIDENCE_CASES) -> list[Outcome]:
    """Every comparison of a claim evaluated in one format.

    **Arguments:**

    - `claim`: a `ropecheck.proofs.Claim`.
    - `fmt`: one of `float16`, `bfloat16`, `float32`, `float64`, `mpmath`.
    - `cases`: sampled points per identity.

    **Returns:**

    The outcomes, in the order of `comparisons(claim)`.
    """
    return [compare(comparison, fmt, cases=cases) for comparison in comparisons(claim)]


def _resolvable(outcome: Outcome) -> bool:
    """Whether every effect the outcome must show exceeds one rounding of the computation's largest quantity."""
    if outcome.effects.size == 0:
        return True
    u = format_unit_roundoff(outcome.fmt)
    return bool(np.all(outcome.effects > u * outcome.scales))


def _mark(outcomes: list[Outcome], contradiction: bool, agrees: bool) -> str:
    if not outcomes:
        return "–"
    if contradiction:
        return "✗"
    if agrees:
        return "✓"
    undecided = [o for o in outcomes if not o.ok]
    return "~" if not all(_resolvable(o) for o in undecided) else "?"


def most_common(causes: list[str]) -> str:
    """The cause named most often; a tie goes to the one met first, so the evidence text never depends on the
    interpreter's string hashing (`max` over a `set` did: PYTHONHASHSEED changed SPE-WAVELENGTH-RANGE's float16
    status between runs)."""
    return max(dict.fromkeys(causes), key=causes.count)


def summarise(outcomes: list[Outcome], verdict: str) -> dict[str, Any]:
    """One format's column of the evidence (shape and marks in the module docstring).

    **Arguments:**

    - `outcomes`: the claim's outcomes in that format.
    - `verdict`: the engine's verdict (`proved`, `refuted`, `unknown`).

    **Returns:**

    The summary dict.
    """
    cases = sum(int(o.measured.size) for o in outcomes)
    skipped = sum(o.skipped for o in outcomes)
    refuting = [o for o in outcomes if _refuting(o)]
    supporting = [o for o in outcomes if not _refuting(o)]
    supporting_ok = all(o.ok for o in supporting)
    # A contradiction: a supporting comparison (proved identity or witness value) off by more than its bound.
    contradiction = any(o.measured.size and bool(np.any(o.measured > o.bounds)) for o in supporting)
    if verdict == "refuted" and refuting:
        margins = [o.margin() for o in refuting]
        size, bound, ratio = min(margins, key=lambda m: m[2] if not math.isnan(m[2]) else -math.inf)
        agrees = supporting_ok and all(o.ok for o in refuting) and ratio >= REFUTATION_FACTOR
        summary = {
            "max_error": size,
            "bound": bound,
            "ratio": ratio,
            "cases": cases,
            "agrees": bool(agrees),
            "measure": "discrepancy",
            "skipped": skipped,
            "beyond_rounding": bool(ratio > 1),
        }
    else:
        errors = [o.error() for o in outcomes if o.measured.size]
        error, bound, ratio = max(errors, key=lambda e: e[2]) if errors else (math.nan, math.nan, math.nan)
        agrees = bool(outcomes) and supporting_ok and all(o.ok for o in refuting) and cases > 0
        summary = {
            "max_error": error,
            "bound": bound,
            "ratio": ratio,
            "cases": cases,
            "agrees": bool(agrees),
            "measure": "error",
            "skipped": skipped,
        }
        witnesses = [o.margin()[2] for o in outcomes if o.comparison.kind == "witness" and o.measured.size]
        if witnesses:
            summary["witness_margin"] = min(witnesses)
    # A bound at least twice the largest magnitude in the computation exceeds the range of |lhs − rhs| (or of
    # the value): it could not notice any error. Counted, so a vacuous bound is reported, never silent.
    summary["vacuous_cases"] = sum(
        int(np.sum(o.bounds >= 2 * o.scales)) for o in outcomes if o.scales.size == o.bounds.size
    )
    overflows = [cause for o in outcomes for cause in o.overflows]
    if overflows:  # reported as an overflow with its cause, never measured against a bound (issue 23, point 5)
        summary["overflow"] = {"cases": len(overflows), "cause": most_common(overflows)}
    mark = _mark(outcomes, bool(contradiction), bool(summary["agrees"]))
    if cases == 0 and overflows:
        mark = "–"  # every case overflowed: nothing was compared
    summary["mark"] = mark
    summary["status"] = MARKS[mark] + (f" (overflow in {len(overflows)} cases: {summary['overflow']['cause']})"
                                       if overflows else "")
    return summary


def numeric_evidence(claim: Any) -> dict[str, Any]:
    """The numeric evidence of one claim in the five formats (memoised per claim ID).

    **Arguments:**

    - `claim`: a `ropecheck.proofs.Claim`.

    **Returns:**

    `{"float16": {...}, "bfloat16": {...}, "float32": {...}, "float64": {...}, "mpmath": {...},
    "not_tested": [{"part", "reason"}, ...]}`, each format as in the module docstring.
    """
    if claim.id not in _CACHE:
        verdict = str(claim.decide().verdict)
        evidence: dict[str, Any] = {fmt: summarise(claim_outcomes(claim, fmt), verdict) for fmt in FORMATS}
        evidence["not_tested"] = [{"part": u.name, "reason": u.reason} for u in claim_untested_parts(claim)]
        _CACHE[claim.id] = evidence
    return _CACHE[claim.id]


def undecided_rows(claims: list[Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """The `?` cells of the ledger (bound too loose to decide): `(claim ID, format, column)` for each — the
    defects of the model to fix.

    **Arguments:**

    - `claims`: `ropecheck.proofs.Claim` objects.

    **Returns:**

    The list, in ledger and format order.
    """
    rows = []
    for claim in claims:
        evidence = numeric_evidence(claim)
        rows += [(claim.id, fmt, evidence[fmt]) for fmt in FORMATS if evidence[fmt]["mark"] == "?"]
    return rows


def ledger_numeric_tables() -> dict[str, Any]:
    """The ledger's numeric tables: `{"decay": {...}, "precision_limits": {...}}`.

    `decay` is `decay_table()` (RoFormer's relative bound per dtype, the long-range cosine-sum statistics);
    `precision_limits` is `precision_limits_table()` (worst-case and typical largest positions per dtype for the
    relative identity and for KV-cache re-phasing).
    """
    from ._decay import decay_table
    from .precision_limits import precision_limits_table

    return {"decay": decay_table(), "precision_limits": precision_limits_table()}
