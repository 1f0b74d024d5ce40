"""Soundness traps for the proof engine: it must never say "proved" wrongly, and never refute on rounding."""

from __future__ import annotations

import sympy as sp

from proofs import Verdict, decide_identity, parse_identity, prove_zero
from proofs._engine import certify_counterexample
from proofs._interval import certify_nonzero

x = sp.Symbol("x")
x_real = sp.Symbol("x", real=True)
x_positive = sp.Symbol("x", positive=True)


def test_residual_exp_minus_1000_is_refuted_exactly_not_missed_by_floats() -> None:
    assert float(1 + sp.exp(-1000)) == 1.0  # what a float check would conclude
    decision = decide_identity(1 + sp.exp(-1000), sp.Integer(1))
    assert decision.verdict is Verdict.REFUTED
    assert decision.counterexample is not None and "e-435" in decision.counterexample.interval["re"]


def test_tiny_symbolic_residual_needs_more_precision_and_gets_it() -> None:
    # cos(1e-30·x) − 1 ≈ −5e-61 at x = 1: invisible in 64-bit intervals, certified at higher precision.
    decision = decide_identity(sp.cos(x_real / 10**30), sp.Integer(1))
    assert decision.verdict is Verdict.REFUTED
    assert decision.counterexample is not None and decision.counterexample.precision_bits > 64


def test_sqrt_of_square_depends_on_the_domain() -> None:
    assert decide_identity(sp.sqrt(x_positive**2), x_positive).verdict is Verdict.PROVED
    real = decide_identity(sp.sqrt(x_real**2), x_real)
    assert real.verdict is Verdict.REFUTED and real.counterexample is not None
    assert sp.sympify(real.counterexample.point["x"]) < 0
    assert decide_identity(sp.sqrt(x**2), x).verdict is Verdict.REFUTED


def test_removable_pole_is_proved_only_with_its_condition() -> None:
    decision = decide_identity((x**2 - 1) / (x - 1), x + 1)
    assert decision.verdict is Verdict.PROVED
    assert decision.conditions == ("x - 1 != 0",)


def test_a_point_where_the_statement_is_undefined_is_never_a_counterexample() -> None:
    residual = (x**2 - 1) / (x - 1) - (x + 1)
    assert certify_counterexample([residual], {x: sp.Integer(1)}) is None
    assert certify_counterexample([sp.Integer(1) / (x - 1)], {x: sp.Integer(1)}) is None


def test_false_identity_with_a_pole_is_refuted_away_from_the_pole() -> None:
    decision = decide_identity((x**2 - 1) / (x - 1), x - 1)
    assert decision.verdict is Verdict.REFUTED
    assert decision.counterexample is not None and decision.counterexample.point["x"] != "1"


def test_pythagorean_identity_and_double_angle() -> None:
    assert prove_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1).verdict is Verdict.PROVED
    assert decide_identity(sp.sin(2 * x_real), 2 * sp.sin(x_real) * sp.cos(x_real)).verdict is Verdict.PROVED
    assert decide_identity(sp.sin(2 * x_real), 2 * sp.sin(x_real)).verdict is Verdict.REFUTED


def test_an_undecidable_statement_stays_unknown() -> None:
    # No exact procedure handles the Riemann zeta function, and no evaluation is possible: honest "unknown".
    assert decide_identity(sp.zeta(x_real + 2), sp.zeta(x_real + 2) + 0 * x_real).verdict is Verdict.PROVED
    unknown = decide_identity(sp.zeta(x_real + 2), sp.zeta(x_real + 3))
    assert unknown.verdict is Verdict.UNKNOWN


def test_interval_certification_rejects_values_that_contain_zero() -> None:
    assert certify_nonzero(sp.sin(sp.pi)) is None
    assert certify_nonzero(sp.sqrt(2) ** 2 - 2) is None
    assert certify_nonzero(sp.pi - sp.Rational(355, 113)) is not None


def test_undeclared_symbols_are_complex_in_user_statements() -> None:
    parsed = parse_identity("sqrt(y**2) == y")
    assert decide_identity(parsed.lhs, parsed.rhs).verdict is Verdict.REFUTED
    parsed = parse_identity("sqrt(y**2) == y", positive=["y"])
    assert decide_identity(parsed.lhs, parsed.rhs).verdict is Verdict.PROVED


def test_complex_exponential_identities() -> None:
    assert decide_identity(sp.exp(sp.I * sp.pi) + 1, sp.Integer(0)).verdict is Verdict.PROVED
    m, n = sp.symbols("m n", integer=True)
    theta = sp.Symbol("theta", positive=True)
    lhs = sp.exp(sp.I * m * theta) * sp.conjugate(sp.exp(sp.I * n * theta))
    assert decide_identity(lhs, sp.exp(sp.I * (m - n) * theta)).verdict is Verdict.PROVED
    assert decide_identity(lhs, sp.exp(sp.I * (m + n) * theta)).verdict is Verdict.REFUTED


def test_counterexamples_respect_the_symbol_domains() -> None:
    d = sp.Symbol("d", integer=True, positive=True, even=True)
    residual = sp.sin(sp.pi * d / 4) ** 2  # 0 for d ≡ 0 (mod 4), non-zero for d = 2, and for odd d
    assert certify_counterexample([residual], {d: sp.Integer(3)}) is None  # 3 is not an allowed value of d
    found = certify_counterexample([residual], {d: sp.Integer(2)})
    assert found is not None and found.point == {"d": "2"}
    searched = decide_identity(sp.sin(sp.pi * d / 4) ** 2, sp.Integer(0))
    assert searched.verdict is Verdict.REFUTED
    assert searched.counterexample is not None and int(searched.counterexample.point["d"]) % 2 == 0
