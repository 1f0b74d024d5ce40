"""Soundness traps for the proof engine: it must never say "proved" wrongly, and never refute on rounding."""

from __future__ import annotations

import sympy as sp
from ropecheck.proofs import Decision, Verdict, decide_identity, parse_identity, prove_zero
from ropecheck.proofs.engine._engine import certify_counterexample
from ropecheck.proofs.engine._interval import certify_nonzero

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


# ------------------------------------------------------------------ issue #11: each wrong-verdict class
def _decide(text: str, **flags: list[str]) -> Decision:
    parsed = parse_identity(text, **flags)
    return decide_identity(parsed.lhs, parsed.rhs, denominators=getattr(parsed, "denominators", ()))


def test_an_identically_zero_denominator_never_proves_anything() -> None:
    zero = 2 * sp.sin(1) ** 2 + 2 * sp.cos(1) ** 2 - 2
    for claimed in (5, 7):
        decision = decide_identity((sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1) / zero, sp.Integer(claimed))
        assert decision.verdict is Verdict.UNKNOWN and "undefined" in decision.method
    # SymPy cancels P/P to 1 while building it; the parser records the denominator before that happens.
    pythagoras = _decide("(sin(x)**2+cos(x)**2-1)/(sin(x)**2+cos(x)**2-1) == 1")
    assert pythagoras.verdict is Verdict.UNKNOWN and "undefined" in pythagoras.method


def test_a_cleared_denominator_is_reported_even_when_sympy_cancels_it() -> None:
    decision = _decide("sin(2*x)/sin(x) == 2*cos(x)")
    assert decision.verdict is Verdict.PROVED and "sin(x) != 0" in decision.conditions


def test_floats_never_decide() -> None:
    assert decide_identity(sp.sqrt(sp.Float(2.0)), sp.sqrt(2)).verdict is Verdict.UNKNOWN
    assert decide_identity(x + sp.Float(1e-20) * x, x).verdict is not Verdict.PROVED
    assert certify_nonzero(sp.Float(0.1) - sp.Rational(1, 10)) is None


def test_floor_is_decided_only_through_a_certified_enclosure() -> None:
    assert _decide("floor(cos(10**-200)) == 1").verdict is Verdict.REFUTED
    assert _decide("floor(cos(10**-200)) == 0").verdict is Verdict.PROVED
    assert _decide("floor(x) + floor(x + 1/2) == floor(2*x)", real=["x"]).verdict is Verdict.UNKNOWN


def test_samples_cover_zero_negatives_and_large_imaginary_parts() -> None:
    log_exp = _decide("log(exp(x)) == x")
    assert log_exp.verdict is Verdict.REFUTED and log_exp.counterexample is not None
    assert abs(complex(sp.sympify(log_exp.counterexample.point["x"])).imag) > 3.15
    assert _decide("(x**3)**(1/3) == x").verdict is Verdict.REFUTED
    sign = _decide("sign(x)**2 == 1", real=["x"])
    assert sign.verdict is Verdict.REFUTED and sign.counterexample is not None
    assert sign.counterexample.point == {"x": "0"}


def test_capabilities_of_issue_11() -> None:
    assert _decide("cosh(x)**2 - sinh(x)**2 == 1").verdict is Verdict.PROVED
    ntk = "(b*s**(d/(d-2)))**(-2*j/d) == b**(-2*j/d)*s**(-2*j/(d-2))"
    assert _decide(ntk, positive=["b", "s"], real=["d", "j"]).verdict is Verdict.PROVED
    assert _decide(ntk, positive=["b", "s"]).verdict is not Verdict.PROVED  # complex d: false in general
    assert _decide("cos(pi/7) - cos(2*pi/7) + cos(3*pi/7) == 1/2").verdict is Verdict.PROVED
    assert _decide("sqrt(2) + sqrt(3) == sqrt(5 + 2*sqrt(6))").verdict is Verdict.PROVED
    assert _decide("sqrt(2) + sqrt(3) == sqrt(5 + 2*sqrt(7))").verdict is Verdict.REFUTED
    assert _decide("atan(x) + atan(1/x) == pi/2", positive=["x"]).verdict is Verdict.PROVED
    assert _decide("atan(x) + atan(1/x) == pi/2", real=["x"]).verdict is Verdict.REFUTED
    assert _decide("sin(1000*x)**2 + cos(1000*x)**2 == 1").verdict is Verdict.PROVED
