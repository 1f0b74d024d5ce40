"""Numeric evidence per ledger claim, and the ledger's numeric tables (decay, precision limits).

`numeric_evidence(claim)` runs the claim's mirror (`numeric._mirrors`) in float16, bfloat16, float32, float64 and
mpmath and summarises each format as

```json
{"max_error": float, "bound": float, "ratio": float, "cases": int, "agrees": bool,
 "measure": "error" | "discrepancy", "skipped": int, "beyond_rounding": bool}
```

- **proved claims** (`measure: "error"`): the case with the largest error/bound over every comparison;
  `agrees` when every error is within its bound and every witness is certified by the computation itself
  (|value| > bound). Refutations by construction (RPE-KV-CACHE-IMPOSSIBLE) are measured the same way: the
  construction holds within rounding.
- **refuted claims** (`measure: "discrepancy"`): at the certified counterexample, the discrepancy (|lhs − rhs|,
  or the certified value of a witness of the negation) and its bound; `ratio` = discrepancy / bound, and
  `agrees` when ratio ≥ `REFUTATION_FACTOR` (100) and the proved parts hold. `beyond_rounding` (ratio > 1)
  says whether rounding alone could explain the discrepancy at all: where it is false, the dtype cannot
  show the refutation.

`cases` counts evaluated points, `skipped` the points out of the dtype's range or out of the model (an
overflow, an infinite bound). All claim IDs are served.
"""

from __future__ import annotations

import math
from typing import Any

from ._mirrors import FORMATS, REFUTATION_FACTOR, Outcome, compare, comparisons

__all__ = ["claim_outcomes", "ledger_numeric_tables", "numeric_evidence", "summarise"]

#: Sampled points per dtype for identities (mpmath uses 8 of them).
EVIDENCE_CASES = 64

_CACHE: dict[str, dict[str, dict[str, Any]]] = {}


def _refuting(outcome: Outcome) -> bool:
    kind = outcome.comparison.kind
    return kind == "fails" or (kind == "witness" and outcome.comparison.factor > 1)


def claim_outcomes(claim: Any, fmt: str, *, cases: int = EVIDENCE_CASES) -> list[Outcome]:
    """Every comparison of a claim evaluated in one format.

    **Arguments:**

    - `claim`: a `proofs.Claim`.
    - `fmt`: one of `float16`, `bfloat16`, `float32`, `float64`, `mpmath`.
    - `cases`: sampled points per identity.

    **Returns:**

    The outcomes, in the order of `numeric._mirrors.comparisons(claim)`.
    """
    return [compare(comparison, fmt, cases=cases) for comparison in comparisons(claim)]


def summarise(outcomes: list[Outcome], verdict: str) -> dict[str, Any]:
    """One format's column of the evidence (shape in the module docstring).

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
    if verdict == "refuted" and refuting:
        margins = [o.margin() for o in refuting]
        size, bound, ratio = min(margins, key=lambda m: m[2] if not math.isnan(m[2]) else -math.inf)
        agrees = supporting_ok and all(o.ok for o in refuting) and ratio >= REFUTATION_FACTOR
        return {
            "max_error": size,
            "bound": bound,
            "ratio": ratio,
            "cases": cases,
            "agrees": bool(agrees),
            "measure": "discrepancy",
            "skipped": skipped,
            "beyond_rounding": bool(ratio > 1),
        }
    errors = [o.error() for o in outcomes if o.measured.size]
    if errors:
        error, bound, ratio = max(errors, key=lambda e: e[2])
    else:
        error, bound, ratio = math.nan, math.nan, math.nan
    agrees = bool(outcomes) and supporting_ok and all(o.ok for o in refuting) and cases > 0
    summary: dict[str, Any] = {
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
    return summary


def numeric_evidence(claim: Any) -> dict[str, dict[str, Any]]:
    """The numeric evidence of one claim in the five formats (memoised per claim ID).

    **Arguments:**

    - `claim`: a `proofs.Claim`.

    **Returns:**

    `{"float16": {...}, "bfloat16": {...}, "float32": {...}, "float64": {...}, "mpmath": {...}}`, each as in the
    module docstring.
    """
    if claim.id not in _CACHE:
        verdict = str(claim.decide().verdict)
        _CACHE[claim.id] = {fmt: summarise(claim_outcomes(claim, fmt), verdict) for fmt in FORMATS}
    return _CACHE[claim.id]


def ledger_numeric_tables() -> dict[str, Any]:
    """The ledger's numeric tables: `{"decay": {...}, "precision_limits": {...}}`.

    `decay` is `numeric._decay.decay_table()` (RoFormer's relative bound per dtype, the long-range cosine-sum
    statistics); `precision_limits` is `numeric._precision_limits.precision_limits_table()` (largest positions
    per dtype for the relative identity and for KV-cache re-phasing).
    """
    from ._decay import decay_table
    from ._precision_limits import precision_limits_table

    return {"decay": decay_table(), "precision_limits": precision_limits_table()}
