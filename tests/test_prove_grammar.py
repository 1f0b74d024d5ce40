"""The `ropecheck prove` grammar and builder: exact numbers, the whitelist, limits, hints, declared domains."""

from __future__ import annotations

import pytest
import sympy as sp
from ropecheck.proofs import BadStatement, parse_identity
from ropecheck.proofs.prove._grammar import MAX_DEPTH, MAX_LENGTH, parse_tree


def test_decimals_are_exact_rationals() -> None:
    parsed = parse_identity("0.1 + 0.2 == 0.3")
    assert parsed.lhs == sp.Rational(3, 10) and parsed.rhs == sp.Rational(3, 10)
    assert parse_identity("1e-20 == 1.5E3").lhs == sp.Rational(1, 10**20)
    assert parse_identity("1e-20 == 1.5E3").rhs == 1500
    assert not parse_identity("x*2.5 + .5 == 1").lhs.has(sp.Float)


def test_precedence_follows_python() -> None:
    x = sp.Symbol("x")
    assert parse_identity("-x**2 == 2**-1").lhs == -(x**2)
    assert parse_identity("-x**2 == 2**-1").rhs == sp.Rational(1, 2)
    assert parse_identity("2**3**2 == x^2").lhs == 2**9
    assert parse_identity("2**3**2 == x^2").rhs == x**2
    assert parse_identity("x - 1 - 1 == 6/3/2").lhs == x - 2
    assert parse_identity("x - 1 - 1 == 6/3/2").rhs == 1


def test_only_flags_give_domains_and_several_names_per_flag() -> None:
    parsed = parse_identity("a + b + c + n == 0", real=["b"], positive=["c"], integer=["n,a"])
    domains = {str(s): s for s in parsed.symbols}
    assert domains["a"].is_integer and domains["b"].is_real and domains["b"].is_integer is None
    assert domains["c"].is_positive and domains["n"].is_integer
    assert parse_identity("x == 0").symbols[0].is_real is None  # undeclared: complex


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x" * (MAX_LENGTH + 1) + " == 1", "too long"),
        ("(" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1) + " == 1", "nested too deeply"),
        ("x**" * (MAX_DEPTH + 1) + "x == 1", "nested too deeply"),
        ("1" * 1001 + " == 1", "digits"),
        ("1e100000 == 1", "exponent"),
        ("2**4097 == 1", "number too large"),
        ("x**(10**7) == 1", "exponent too large"),
        ("sin(x, y) == 1", "takes 1 argument"),
        ("Min(x) == 1", "at least 2"),
        ("Sum(k, (k, 1, x)) == 1", "integers"),
        ("Sum(k, (k, 1, 10**6)) == 1", "too long"),
        ("Matrix([[1, 2], [3]]) == 1", "different lengths"),
        ("sin(Matrix([1])) == 1", "must be a scalar"),
        ("(x, y) == 1", "tuple"),
        ("[x] == 1", "list"),
        ("x == y == z", "chained"),
        ("sin == 1", "is a function"),
        ("pi(x) == 1", "not a function"),
        ("ln(x) == 1", "did you mean log?"),
        ("π == 1", "did you mean pi?"),
        ("x − 1 == 1", "did you mean -?"),
        ("x²+y³ == 1", "did you mean x**2?"),
        ("θ == 1", "non-ASCII"),
        ("2x == 1", "missing operator"),
        ("x y == 1", "missing operator"),
        ("x = 1", "=="),
        ("x.y == 1", "attribute"),
    ],
)
def test_refusals_are_one_line(text: str, message: str) -> None:
    with pytest.raises(BadStatement) as caught:
        parse_identity(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_limits_are_limits_not_bans() -> None:
    parse_identity("(" * (MAX_DEPTH - 2) + "x" + ")" * (MAX_DEPTH - 2) + " == 1")
    parse_identity("2**4096 == 1")
    parse_identity(" + ".join(["x"] * 900) + " == 1")  # a long sum is flat, not deep


@pytest.mark.parametrize(("name", "hint"), [("i", "did you mean I"), ("e", "did you mean E"), ("inf", "oo")])
def test_suspicious_symbol_names_get_a_hint(name: str, hint: str) -> None:
    parsed = parse_identity(f"{name} + x == 1")
    assert len(parsed.hints) == 1 and hint in parsed.hints[0]
    assert parse_identity("x == 1").hints == ()


def test_denominators_are_recorded_before_sympy_cancels_them() -> None:
    x = sp.Symbol("x")
    assert parse_identity("x/x == 1").denominators == (x,)
    assert parse_identity("tan(x) == 1").denominators == (sp.cos(x),)
    assert parse_identity("log(x) == 1").denominators == (x,)
    assert parse_identity("x**-2 == 1").denominators == (x,)


def test_the_parse_tree_is_flat_for_sums() -> None:
    lhs, _ = parse_tree("a + b - c + d == 0")
    assert lhs.kind == "add" and lhs.ops == ("+", "+", "-", "+") and len(lhs.children) == 4
