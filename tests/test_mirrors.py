"""Numeric mirrors of every ledger claim: `test_<claim id>_mirror` per claim, meta-tests on perturbed claims,
hypothesis-drawn inputs with pinned positions, and a cross-check of the program interpreter against lambdify.

Under test: `numeric._mirrors` (SymPy statement → JAX float16/bfloat16/float32/float64 and mpmath, with the error
model of `numeric.tolerances` node by node) and `numeric._evidence` (the per-claim JSON columns).
"""

from __future__ import annotations

import math
import sys

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numeric._evidence import numeric_evidence
from numeric._mirrors import (
    FORMATS,
    REFUTATION_FACTOR,
    Comparison,
    compare,
    comparisons,
    run_mpmath,
    store_in,
)
from numeric.tolerances import MPMATH_DPS
from proofs import Verdict, all_claims, claim_ids, get_claim

from ._mirror_helpers import FINDINGS, perturbed_comparisons

_KEYS = {"max_error", "bound", "ratio", "cases", "agrees"}


def _check_claim_mirror(claim_id: str) -> None:
    claim = get_claim(claim_id)
    evidence = numeric_evidence(claim)
    assert set(evidence) == set(FORMATS)
    disagreements = []
    for fmt, column in evidence.items():
        assert _KEYS <= set(column), f"{fmt}: missing {_KEYS - set(column)}"
        assert column["cases"] > 0, f"{fmt}: no case evaluated"
        expected_finding = FINDINGS.get((claim_id, fmt))
        if column["agrees"] and expected_finding:
            disagreements.append(f"{fmt}: listed finding no longer observed ({expected_finding})")
        if not column["agrees"] and not expected_finding:
            disagreements.append(f"{fmt}: {column}")
        if column["measure"] == "error":
            # A proved statement (or a construction) must hold within the model in every format, findings or not:
            # only the certification of witnesses may fail, never the error bound.
            assert column["max_error"] <= column["bound"] or math.isnan(column["ratio"]), f"{fmt}: {column}"
    assert not disagreements, f"{claim_id}: " + "; ".join(disagreements)
    verdict = claim.decide().verdict
    if verdict is Verdict.REFUTED and evidence["float64"]["measure"] == "discrepancy":
        for fmt in ("float64", "mpmath"):
            assert evidence[fmt]["ratio"] >= REFUTATION_FACTOR, f"{fmt}: {evidence[fmt]}"


def _define_claim_tests() -> None:
    module = sys.modules[__name__]
    for claim in all_claims():

        def test(claim_id: str = claim.id) -> None:
            _check_claim_mirror(claim_id)

        test.__name__ = f"{claim.test_name}_mirror"
        test.__doc__ = (
            f"The mirror of {claim.id} agrees with its verdict in every dtype and in mpmath (or a listed finding)."
        )
        setattr(module, test.__name__, test)


_define_claim_tests()


def test_every_claim_has_a_mirror_test() -> None:
    names = set(globals())
    missing = [i for i in claim_ids() if f"test_{i.lower().replace('-', '_')}_mirror" not in names]
    assert not missing


def test_findings_name_real_claims_and_formats() -> None:
    ids = set(claim_ids())
    assert all(claim in ids and fmt in FORMATS for claim, fmt in FINDINGS)


def test_evidence_reports_error_bound_and_ratio() -> None:
    column = numeric_evidence(get_claim("ROPE-RELATIVE-MATRIX"))["float32"]
    assert column["measure"] == "error"
    assert column["ratio"] == pytest.approx(column["max_error"] / column["bound"])
    assert 0 < column["ratio"] <= 1


def test_refutation_discrepancy_is_mathematical_in_float64() -> None:
    column = numeric_evidence(get_claim("ROPE-KV-COS-ONLY"))["float64"]
    assert column["measure"] == "discrepancy"
    assert column["ratio"] >= REFUTATION_FACTOR
    assert column["beyond_rounding"]


# ------------------------------------------------------------------------------------------ meta-tests
_PROVED = [c for c in all_claims() if c.decide().verdict is Verdict.PROVED]
_META_FORMATS = ("float16", "bfloat16", "float32", "float64", "mpmath")


@pytest.mark.parametrize("claim", _PROVED, ids=[c.id for c in _PROVED])
def test_mirror_fails_on_perturbed_claim(claim: object) -> None:
    perturbations = list(perturbed_comparisons(claim.statement))  # type: ignore[attr-defined]
    assert perturbations, "no perturbation applies"
    for label, comparison in perturbations:
        undetected = [fmt for fmt in _META_FORMATS if compare(comparison, fmt, cases=32).ok]
        assert not undetected, f"{label} ({comparison.name}): the mirror still agrees in {undetected}"


def test_perturbations_cover_all_kinds() -> None:
    labels = {label for claim in _PROVED for label, _ in perturbed_comparisons(claim.statement)}
    assert {"flipped sign", "dropped term", "wrong index"} <= labels


def test_refutation_check_fails_when_the_claim_is_made_true() -> None:
    """ROPE-KV-COS-ONLY's counterexample check, with the rhs replaced by the lhs, must no longer refute."""
    (comparison,) = comparisons(get_claim("ROPE-KV-COS-ONLY"))
    lhs, _ = comparison.exprs
    made_true = Comparison(comparison.name, "fails", (lhs, lhs), comparison.point, factor=REFUTATION_FACTOR)
    assert not any(compare(made_true, fmt).ok for fmt in FORMATS)


# ------------------------------------------------------------------------------------ hypothesis inputs
_PINNED_POSITIONS = (0, 256, 257, 2048, 2049, 65504, 2**24)
_WIDTH = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}


def _relative_block() -> Comparison:
    return comparisons(get_claim("ROPE-RELATIVE-MATRIX"))[0]


def _dtype_floats(dtype: str, low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(low, high, width=_WIDTH[dtype], allow_subnormal=False, allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@settings(max_examples=25)
@given(data=st.data())
@example(data=None)
def test_relative_block_within_bound_at_drawn_and_pinned_positions(dtype: str, data: st.DataObject | None) -> None:
    """R(m)ᵀR(n) = R(n − m) per block, at positions 0, 256/257, 2048/2049, 65504, 2²⁴ and hypothesis draws.

    Positions beyond the dtype's exact-integer limit are stored rounded (the identity holds at the stored point);
    positions beyond its range (2²⁴ in float16) are out of range and reported as skipped, not failed.
    """
    comparison = _relative_block()
    symbols = {str(s): s for s in comparison.program.symbols}
    if data is None:
        m_values = np.array(_PINNED_POSITIONS, dtype=np.float64)
        n_values = m_values[::-1] + 1
        thetas = np.full(m_values.size, 0.5)
    else:
        m_values = np.array([data.draw(st.sampled_from(_PINNED_POSITIONS) | st.integers(-(2**24), 2**24))], float)
        n_values = np.array([data.draw(st.sampled_from(_PINNED_POSITIONS) | st.integers(-(2**24), 2**24))], float)
        thetas = np.array([data.draw(_dtype_floats(dtype, 2.0**-10, 1.0))])
    points = {symbols["m"]: m_values, symbols["n"]: n_values, symbols["theta"]: thetas}
    outcome = compare(comparison, dtype, points=points)
    stored = store_in(m_values, dtype)
    out_of_range = int((~np.isfinite(stored) | ~np.isfinite(store_in(n_values, dtype))).sum())
    assert outcome.skipped >= out_of_range
    assert outcome.ok or outcome.measured.size == 0, outcome.error()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@settings(max_examples=25)
@given(data=st.data())
def test_prefix_rephase_within_bound_on_drawn_vectors(dtype: str, data: st.DataObject) -> None:
    """ROPE-PREFIX-REPHASE's score part on hypothesis-drawn q, k (dtype widths, no subnormals) and positions."""
    comparison = comparisons(get_claim("ROPE-PREFIX-REPHASE"))[1]
    points = {}
    for symbol in comparison.program.symbols:
        if symbol.is_integer:
            value = data.draw(st.integers(-2048, 2048))
        elif symbol.is_positive:
            value = data.draw(_dtype_floats(dtype, 2.0**-10, 1.0))
        else:
            value = data.draw(_dtype_floats(dtype, -4.0, 4.0))
        points[symbol] = np.array([float(value)])
    outcome = compare(comparison, dtype, points=points)
    assert outcome.ok or outcome.measured.size == 0, outcome.error()


# --------------------------------------------------------------------------------- interpreter vs lambdify
@pytest.mark.parametrize("claim_id", ["ROPE-GENERAL-FORM", "ROPE-COMPLEX-INNER-PRODUCT", "SPE-SHIFT-ROTATION"])
def test_program_agrees_with_lambdify_in_mpmath(claim_id: str) -> None:
    comparison = comparisons(get_claim(claim_id))[0]
    program = comparison.program
    rng = np.random.default_rng(0)
    points = {
        s: (rng.uniform(-2, 2, 3) if s.is_real else rng.uniform(-2, 2, 3) + 1j * rng.uniform(-2, 2, 3))
        for s in program.symbols
    }
    for s in program.symbols:
        if s.is_integer:
            points[s] = np.round(points[s].real * 50)
    got = run_mpmath(program, points)
    flat = [entry for expr in comparison.exprs for entry in (list(expr) if isinstance(expr, sp.MatrixBase) else [expr])]
    with mpmath.workdps(MPMATH_DPS):
        for column, expr in zip(got, flat, strict=True):
            function = sp.lambdify(program.symbols, expr, modules="mpmath")
            for case, value in enumerate(column):
                args = [
                    mpmath.mpmathify(complex(points[s][case]) if not s.is_real else float(points[s][case].real))
                    for s in program.symbols
                ]
                wanted = function(*args)
                assert abs(value - wanted) <= 1e-40 * (1 + abs(wanted)), (expr, value, wanted)
