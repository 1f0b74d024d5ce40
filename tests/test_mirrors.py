"""Numeric mirrors of every ledger claim: `test_<claim id>_mirror` per claim, meta-tests on perturbed claims,
hypothesis-drawn inputs with pinned positions, and a cross-check of the program interpreter against lambdify.

Under test: `numeric.mirrors` (SymPy statement → JAX float16/bfloat16/float32/float64 and mpmath, with the error
model of `numeric.reference.tolerances` node by node) and `numeric.mirrors` (the per-claim JSON columns).
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
from ropecheck.numeric.mirrors import (
    FORMATS,
    REFUTATION_FACTOR,
    Comparison,
    compare,
    comparisons,
    numeric_evidence,
    run_mpmath,
    statement_comparisons,
    store_in,
)
from ropecheck.numeric.mirrors._evidence import EVIDENCE_CASES
from ropecheck.numeric.reference.tolerances import MPMATH_DPS
from ropecheck.proofs import Verdict, all_claims, claim_ids, get_claim

from ._engine_selection import engine_proved_ids
from ._mirror_helpers import FINDINGS, PROGRAM_PERTURBATIONS, flip_sign, perturbed_comparisons
from ._tiers import examples

_KEYS = {"max_error", "bound", "ratio", "cases", "agrees"}


def _check_claim_mirror(claim_id: str) -> None:
    claim = get_claim(claim_id)
    evidence = numeric_evidence(claim)
    assert set(evidence) == {*FORMATS, "not_tested"}
    disagreements = []
    for fmt in FORMATS:
        column = evidence[fmt]
        assert _KEYS <= set(column), f"{fmt}: missing {_KEYS - set(column)}"
        assert column["mark"] != "✗", f"{fmt}: contradiction {column}"
        if column["mark"] == "–":
            assert evidence["not_tested"] and column["cases"] == 0, f"{fmt}: untested without a reason"
            continue
        assert column["cases"] > 0, f"{fmt}: no case evaluated"
        expected = FINDINGS.get((claim_id, fmt))
        if column["mark"] == "✓" and expected:
            disagreements.append(f"{fmt}: listed finding {expected} no longer observed")
        if column["mark"] != "✓" and column["mark"] != expected:
            disagreements.append(f"{fmt}: mark {column['mark']} (listed: {expected}) {column}")
        assert column["agrees"] == (column["mark"] == "✓"), f"{fmt}: {column}"
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
    assert set(FINDINGS.values()) <= {"~", "?"}


def test_untested_claims_are_the_ones_with_same_expression_sides() -> None:
    """Issue 15's list: every comparison of these claims compared a node with itself; now they say so."""
    for claim_id in ("ATT-SOFTMAX-PERMUTATION", "ROPE-PAIR-FORMULA", "ROPE-FREQUENCIES", "RPE-SHIFT-INVARIANCE"):
        evidence = numeric_evidence(get_claim(claim_id))
        assert {evidence[fmt]["mark"] for fmt in FORMATS} == {"–"}, claim_id
        assert any("same expression" in part["reason"] for part in evidence["not_tested"]), evidence["not_tested"]


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
_PROVED = [get_claim(claim_id) for claim_id in engine_proved_ids()]
_META_FORMATS = ("float16", "bfloat16", "float32", "float64", "mpmath")
# The meta-tests sample as many points as the evidence (`EVIDENCE_CASES`; mpmath keeps its own few): JAX compiles
# each operation once per shape, so a perturbed program of the same size reuses what the claim's evidence compiled.
_META_CASES = EVIDENCE_CASES


@pytest.mark.parametrize("claim", _PROVED, ids=[c.id for c in _PROVED])
def test_mirror_fails_on_perturbed_claim(claim: object) -> None:
    perturbations = list(perturbed_comparisons(claim.statement))  # type: ignore[attr-defined]
    assert perturbations, "no perturbation applies"
    for label, comparison in perturbations:
        undetected = [fmt for fmt in _META_FORMATS if compare(comparison, fmt, cases=_META_CASES).ok]
        assert not undetected, f"{label} ({comparison.name}): the mirror still agrees in {undetected}"


_ALL = list(all_claims())
_PROGRAM_CHECKED = 2  # holds comparisons per claim in a normal run; all of them with --deep


def _holds(claim: object, limit: int | None) -> list[Comparison]:
    found = [c for c in comparisons(claim) if c.kind == "holds"]
    return found if limit is None else found[:limit]


def _detected(comparison: Comparison, program: object, fmt: str) -> bool:
    cases = 4 if fmt == "mpmath" else _META_CASES
    return not compare(comparison, fmt, cases=cases, program=program).ok  # type: ignore[arg-type]


def _check_program_perturbations(claim: object, limit: int | None) -> None:
    """Every identity mirror of the claim fails in float32 and float64 when one side's compiled program is
    perturbed: a sign flip always (on a side that is not 0), a dropped term and an off-by-one position wherever
    they change the value mathematically (mpmath tells)."""
    for comparison in _holds(claim, limit):
        program = comparison.program
        flipped = [flip_sign(program, side) for side in (1, 0)]
        flipped = [f for f in flipped if _detected(comparison, f, "mpmath")]
        assert flipped, f"{comparison.name}: a sign flip changes nothing (both sides 0?)"
        for fmt in ("float32", "float64"):
            assert _detected(comparison, flipped[0], fmt), f"{comparison.name}: sign flip unnoticed in {fmt}"
        for label, perturb in PROGRAM_PERTURBATIONS.items():
            if label == "sign flip":
                continue
            for side in (1, 0):
                changed = perturb(program, side)
                if changed is None or not _detected(comparison, changed, "mpmath"):
                    continue
                for fmt in ("float32", "float64"):
                    assert _detected(comparison, changed, fmt), f"{comparison.name}: {label} unnoticed in {fmt}"


@pytest.mark.parametrize("claim", _ALL, ids=[c.id for c in _ALL])
def test_mirror_program_fails_under_perturbation(claim: object) -> None:
    _check_program_perturbations(claim, _PROGRAM_CHECKED)


@pytest.mark.deep
@pytest.mark.parametrize("claim", _ALL, ids=[c.id for c in _ALL])
def test_every_mirror_program_fails_under_perturbation(claim: object) -> None:
    _check_program_perturbations(claim, None)


def test_no_comparison_shares_a_node_between_its_sides() -> None:
    """Each side is compiled on its own: the nodes reachable from the lhs outputs and from the rhs outputs are
    disjoint, and no comparison's sides are the same expression."""
    from ._mirror_helpers import _reachable, _side

    for claim in _ALL:
        for comparison in comparisons(claim):
            if comparison.kind not in {"holds", "fails"}:
                continue
            program = comparison.program
            left, right = (_reachable(program, _side(program, side)) for side in (0, 1))
            assert not left & right, f"{claim.id}: {comparison.name} shares nodes between its sides"
            lhs, rhs = comparison.exprs
            assert lhs != rhs, f"{claim.id}: {comparison.name} compares an expression with itself"


def test_same_expression_sides_are_reported_not_tested() -> None:
    from ropecheck.numeric.mirrors import untested_parts
    from ropecheck.proofs.engine._statements import Identity

    x = sp.Symbol("x", real=True)
    statement = Identity(x + 1, x + 1, name="x + 1 = x + 1")
    assert statement_comparisons(statement, "proved", None) == []
    (part,) = untested_parts(statement, "proved", None)
    assert "same expression" in part.reason


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


# ------------------------------------------------------------------------- tiny and subnormal inputs
_TINY_CLAIMS = [
    "ROPE-DOT-PROPERTY-003",
    "ROPE-RELATIVE-MATRIX",
    "ROPE-PREFIX-REPHASE",
    "ROPE-GENERAL-FORM",
    "ROPE-COMPLEX-INNER-PRODUCT",
    "SPE-SHIFT-ROTATION",
]
_SUBNORMAL = {"float16": 2.0**-24, "bfloat16": 2.0**-133, "float32": 2.0**-149, "float64": 2.0**-1074}


def _tiny_or_plain(dtype: str, high: float, *, positive: bool) -> st.SearchStrategy[float]:
    """Plain values in the dtype's width, tiny values (below 2⁻¹⁷ or 2⁻¹⁰⁰) and exact subnormals of the dtype."""
    width = _WIDTH[dtype]
    tiny_top = 2.0**-17 if dtype == "float16" else 2.0**-100
    plain = st.floats(0.0, high, width=width, allow_nan=False, allow_infinity=False, allow_subnormal=True)
    tiny = st.floats(0.0, tiny_top, width=width, allow_subnormal=True)
    subnormal = st.integers(1, 64).map(lambda k: k * _SUBNORMAL[dtype])
    magnitude = st.one_of(plain, tiny, subnormal)
    if positive:
        return magnitude.filter(lambda v: v > 0)
    return st.tuples(magnitude, st.booleans()).map(lambda pair: -pair[0] if pair[1] else pair[0])


def _draw_point(comparison: Comparison, dtype: str, data: st.DataObject) -> dict:
    points = {}
    for symbol in comparison.program.symbols:
        if symbol.is_integer:
            if symbol.is_even and symbol.is_positive:
                value: complex = 2.0 * data.draw(st.integers(1, 8))
            else:
                value = float(data.draw(st.sampled_from(_PINNED_POSITIONS[:4]) | st.integers(-300, 300)))
                value = abs(value) if symbol.is_nonnegative else value
                value = max(value, 1.0) if symbol.is_positive else value
        elif symbol.is_real:
            positive = bool(symbol.is_positive)
            value = data.draw(_tiny_or_plain(dtype, 1.0 if positive else 4.0, positive=positive))
        else:
            real, imag = (data.draw(_tiny_or_plain(dtype, 2.0, positive=False)) for _ in range(2))
            value = complex(real, imag)
        points[symbol] = np.array([value])
    return points


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("claim_id", _TINY_CLAIMS)
@settings(max_examples=examples(5, 15))
@given(data=st.data())
def test_true_claims_hold_at_tiny_and_subnormal_inputs(claim_id: str, dtype: str, data: st.DataObject) -> None:
    """Issue 15: XLA on CPU flushes subnormals to zero, and ROPE-DOT-PROPERTY-003 failed its bound at small inputs
    (error/bound up to 4.9e5). With the flush-aware underflow term every proved identity holds at any draw. Five
    draws per claim and dtype in the default tier (15 with --deep): the failing case of issue 15 is pinned in the
    default tier by `test_flush_to_zero_term_is_what_makes_tiny_inputs_pass`."""
    comparison = comparisons(get_claim(claim_id))[0]
    points = _draw_point(comparison, dtype, data)
    outcome = compare(comparison, dtype, points=points)
    assert outcome.ok or outcome.measured.size == 0, (points, outcome.error())


# Collected in every xdist worker: the comparisons of an engine-proved claim are its statement's under the verdict
# "proved" (what `comparisons(claim)` returns for it), so collection does not decide the claims again.
_SAMPLED_IDENTITIES = [
    (claim.id, index)
    for claim in _PROVED
    for index, comparison in enumerate(statement_comparisons(claim.statement, "proved", None))
    if comparison.kind == "holds" and comparison.point is None
][::2]


@pytest.mark.parametrize("dtype", ["bfloat16", "float32", "float64"])
@pytest.mark.parametrize(("claim_id", "index"), _SAMPLED_IDENTITIES, ids=[f"{c}-{i}" for c, i in _SAMPLED_IDENTITIES])
@settings(max_examples=3)
@given(data=st.data())
def test_every_proved_identity_holds_at_drawn_tiny_inputs(
    claim_id: str, index: int, dtype: str, data: st.DataObject
) -> None:
    """Every other sampled identity of every proved claim, in the dtypes that flush subnormals, at hypothesis
    draws mixing plain, tiny and subnormal values."""
    comparison = comparisons(get_claim(claim_id))[index]
    outcome = compare(comparison, dtype, points=_draw_point(comparison, dtype, data))
    assert outcome.ok or outcome.measured.size == 0, outcome.error()


def test_flush_to_zero_term_is_what_makes_tiny_inputs_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: without the flush-aware underflow term (η = 0, inputs taken as exact) the check fails where the
    products land near float32's smallest normal (q ≈ 2⁻⁶³, k ≈ 2⁻⁶³: error/bound ≈ 9·10⁵, as before issue 15);
    with it, it holds."""
    from ropecheck.numeric.reference import _node_rules, tolerances

    comparison = comparisons(get_claim("ROPE-DOT-PROPERTY-003"))[0]
    points = {}
    for symbol in comparison.program.symbols:
        name = str(symbol)
        value = {"m": 1.0, "n": 2.0, "theta": 0.5}.get(name, (0.75 + 0.0625 * len(points)) * 2.0**-63)
        points[symbol] = np.array([value])
    assert compare(comparison, "float32", points=points).ok
    for module in (_node_rules, tolerances):
        monkeypatch.setattr(module, "flush_error", lambda fmt: 0.0)
        monkeypatch.setattr(module, "input_error", lambda values, fmt: np.zeros(np.shape(values)))
    assert not compare(comparison, "float32", points=points).ok


# ---------------------------------------------------------------------------------------------- marks
def _outcome(kind: str, measured: float, bound: float, value: float, effect: float, scale: float) -> object:
    from ropecheck.numeric.mirrors import Outcome

    x = sp.Symbol("x", real=True)
    comparison = Comparison("synthetic", kind, (x, x + 1) if kind == "holds" else (x,), relation="nonzero")
    array = lambda v: np.array([v])  # noqa: E731
    values = array(value) if kind == "witness" else np.zeros(0)
    return Outcome(comparison, "bfloat16", array(measured), array(bound), values, 0, array(effect), array(scale))


def test_marks_mean_one_thing_each() -> None:
    """✓ confirmed; ~ effect ≤ u·scale (decided from the effect, not the bound); ? resolvable effect the bound
    cannot certify; ✗ an error beyond its bound; – nothing compared."""
    from ropecheck.numeric.mirrors import summarise

    u = 2.0**-8
    assert summarise([_outcome("witness", 1e-4, 1e-3, 0.5, 0.5, 1.0)], "proved")["mark"] == "✓"
    assert summarise([_outcome("witness", 1e-4, 1.0, 0.5, 0.5, 1.0)], "proved")["mark"] == "?"
    assert summarise([_outcome("witness", 1e-4, 1.0, u / 2, u / 2, 1.0)], "proved")["mark"] == "~"
    assert summarise([_outcome("holds", 2.0, 1.0, 0.0, 0.0, 1.0)], "proved")["mark"] == "✗"
    assert summarise([], "proved")["mark"] == "–"


def test_vacuous_bounds_are_counted() -> None:
    from ropecheck.numeric.mirrors import summarise

    assert summarise([_outcome("holds", 0.1, 5.0, 0.0, 0.0, 1.0)], "proved")["vacuous_cases"] == 1
    assert summarise([_outcome("holds", 0.1, 0.5, 0.0, 0.0, 1.0)], "proved")["vacuous_cases"] == 0
