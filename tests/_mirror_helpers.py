"""Helpers for the mirror tests: what each claim's mirror is expected to show, and perturbed comparisons.

`FINDINGS` lists every (claim, format) where the mirror does *not* agree with the verdict in the strict sense of
`numeric._evidence` and says why; each is a measured property of that dtype, not a defect. A finding that
disappears, or a disagreement not listed here, fails the per-claim test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import sympy as sp

from numeric._mirrors import Comparison, NotEvaluable, statement_comparisons

from ._perturb import PERTURBATIONS

_REFUTATION_UNDER_100 = "the discrepancy at the counterexample is beyond rounding but less than 100× the bound"
_NOT_BEYOND_ROUNDING = "the discrepancy at the counterexample is within rounding: this dtype cannot show it"
_WITNESS_NOT_CERTIFIED = "the witness value is within its rounding bound: this dtype cannot certify it"

FINDINGS: dict[tuple[str, str], str] = {
    ("ATT-PE-BREAKS-EQUIVARIANCE", "bfloat16"): _WITNESS_NOT_CERTIFIED,
    ("SPE-DOT-NONMONOTONE", "float16"): _WITNESS_NOT_CERTIFIED,
    ("SPE-DOT-NONMONOTONE", "bfloat16"): _WITNESS_NOT_CERTIFIED,
    ("SPE-SHIFT-ROTATION-004", "bfloat16"): _REFUTATION_UNDER_100,
    ("SPE-FREQUENCY-004", "float16"): _NOT_BEYOND_ROUNDING,
    ("SPE-FREQUENCY-004", "bfloat16"): _NOT_BEYOND_ROUNDING,
    ("SPE-FREQUENCY-004", "float32"): _REFUTATION_UNDER_100,
    ("SPE-QK-EXPANSION", "bfloat16"): _REFUTATION_UNDER_100,
    ("SPE-LAST-TERM-RELATIVE", "bfloat16"): _REFUTATION_UNDER_100,
    ("ROPE-REAL-PART-COS-ONLY", "bfloat16"): _REFUTATION_UNDER_100,
    ("ROPE-KV-COS-ONLY", "bfloat16"): _REFUTATION_UNDER_100,
    ("ROPE-SCORE-SINE-TERM-003", "bfloat16"): _REFUTATION_UNDER_100,
    ("ROPE-DECAY-TO-ZERO", "bfloat16"): _REFUTATION_UNDER_100,
    ("ROPE-DECAY-BOUND-MONOTONE", "float16"): _NOT_BEYOND_ROUNDING,
    ("ROPE-DECAY-BOUND-MONOTONE", "bfloat16"): _NOT_BEYOND_ROUNDING,
    ("ROPE-DECAY-BOUND-MONOTONE", "float32"): _REFUTATION_UNDER_100,
    ("ROPE-DECAY-MONOTONE", "float16"): _NOT_BEYOND_ROUNDING,
    ("ROPE-DECAY-MONOTONE", "bfloat16"): _NOT_BEYOND_ROUNDING,
    ("ROPE-DECAY-MONOTONE", "float32"): _REFUTATION_UNDER_100,
    ("ROPE-LINEAR-ATTENTION-SEED", "float16"): _REFUTATION_UNDER_100,
    ("ROPE-LINEAR-ATTENTION-SEED", "bfloat16"): _REFUTATION_UNDER_100,
}


def perturbed_comparisons(statement: object) -> Iterator[tuple[str, Comparison]]:
    """For each perturbation of `tests._perturb` (flipped sign, dropped term, wrong index): the first evaluable
    `holds` comparison of the statement with its rhs perturbed, and every witness with its own value subtracted
    ("the witness shows nothing"). Works on the comparisons, so symbolic lemmas the mirror skips do not hide
    the perturbation."""
    comparisons = statement_comparisons(statement, "proved", None)
    for label, perturb in PERTURBATIONS.items():
        for comparison in comparisons:
            if comparison.kind != "holds":
                continue
            lhs, rhs = comparison.exprs
            changed = perturb(rhs)
            if changed is None or changed == rhs:
                continue
            perturbed = dataclasses.replace(comparison, name=f"{comparison.name} ({label})", exprs=(lhs, changed))
            try:
                perturbed.program  # noqa: B018 - compiling is the check
            except NotEvaluable:
                continue
            yield label, perturbed
            break
    for comparison in comparisons:
        if comparison.kind == "witness":
            (expr,) = comparison.exprs
            value = sp.sympify(expr).xreplace(
                {sp.Symbol(k): sp.sympify(v) for k, v in (comparison.point or {}).items()}
            )
            yield "witness minus its value", dataclasses.replace(comparison, exprs=(expr - value,))
