"""`ropecheck claims show ID`: a claim with no numeric mirror reads "not numerically tested", never `bound nan`;
a measured one keeps its error, bound and ratio."""

from __future__ import annotations

import io
import math
from typing import Any

from ropecheck.numeric.mirrors import numeric_evidence
from ropecheck.proofs import get_claim

from ropecheck.cli._claims_view import numeric_line, print_claim


def _shown(numeric: dict[str, Any]) -> str:
    entry = {"id": "X", "title": "t", "verdict": "proved", "statement": "s", "sources": [], "numeric": numeric}
    out = io.StringIO()
    print_claim(entry, out)
    return out.getvalue()


def test_a_claim_without_a_mirror_reads_not_numerically_tested() -> None:
    evidence = numeric_evidence(get_claim("RPE-CLIP-INDISTINGUISHABLE"))
    assert math.isnan(evidence["float64"]["bound"]), "the mirror reports no bound for a Claimed statement"
    text = _shown(evidence)
    assert "not numerically tested" in text and "nan" not in text.lower(), text


def test_a_measured_claim_keeps_its_figures() -> None:
    check = {"max_error": 1e-7, "bound": 3e-6, "ratio": 1e-7 / 3e-6, "agrees": True, "mark": "✓", "cases": 8}
    line = numeric_line(check)
    assert line == (
        "✓ confirms: largest error of the statement computed in the dtype (|left − right| for an identity) 1e-07 "
        "over 8 cases; "
        "rounding bound 3e-06, ratio 0.0333"
    ), line
    text = _shown({"float32": check, "not_tested": []})
    assert "float32: ✓ confirms: largest error" in text and "not numerically tested" not in text


def test_a_refutation_says_its_figure_is_the_discrepancy_at_the_counterexample() -> None:
    """Issue 36: "error 0.00781, bound 0.0537, ratio 0.146, ?" did not say what the error is of."""
    check = {"max_error": 0.00781, "bound": 0.0537, "ratio": 0.146, "mark": "?", "measure": "discrepancy"}
    line = numeric_line(check)
    assert line.startswith("? bound too loose to decide: the refutation's discrepancy |left − right|"), line
    assert "rounding bound 0.0537, ratio 0.146" in line


def test_a_column_of_nan_figures_is_never_printed_as_numbers() -> None:
    nan = float("nan")
    check = {"max_error": nan, "bound": nan, "ratio": nan, "agrees": False, "mark": "–", "cases": 0}
    assert numeric_line(check) == "–, not numerically tested"
