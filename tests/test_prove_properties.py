"""Property-based checks of `ropecheck prove` (hypothesis): never proved when false, never refuted when true,
and no input string ever produces anything but a verdict or a one-line refusal.

True identities are generated as a random trigonometric polynomial `P` and a rewrite of it (angle-addition
expansion, or the exponential form); false ones add a non-zero perturbation. Both go through the grammar as
text (`sympy.sstr` of the generated objects), so the parser is exercised too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ropecheck.proofs import BadStatement, Verdict, decide_identity, parse_identity

from ropecheck.cli._main import main
from tests._tiers import examples

x, y = sp.symbols("x y")
# Examples per property: the default tier keeps a derandomised dozen, `--deep` the full 25 (`tests/_tiers.py`).
_SETTINGS = settings(max_examples=examples(12, 25), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def trig_polynomials(draw: st.DrawFn) -> sp.Expr:
    """A sum of up to 4 terms `c · f₁(k₁·v) · f₂(k₂·v)` with f ∈ {sin, cos}, k ∈ 1..3, v ∈ {x, y}."""
    terms = []
    for _ in range(draw(st.integers(1, 4))):
        coefficient = sp.Rational(draw(st.integers(-5, 5).filter(bool)), draw(st.integers(1, 3)))
        term: sp.Expr = coefficient
        for _ in range(draw(st.integers(1, 2))):
            function = draw(st.sampled_from([sp.sin, sp.cos]))
            term *= function(draw(st.integers(1, 3)) * draw(st.sampled_from([x, y])))
        terms.append(term)
    return sp.Add(*terms)


def _decide_text(lhs: sp.Expr, rhs: sp.Expr, real: bool) -> Verdict:
    names = [str(s) for s in sorted((lhs - rhs).free_symbols | lhs.free_symbols, key=str)] if real else []
    parsed = parse_identity(f"{sp.sstr(lhs)} == {sp.sstr(rhs)}", real=names)
    return decide_identity(parsed.lhs, parsed.rhs, denominators=parsed.denominators).verdict


@_SETTINGS
@given(trig_polynomials(), st.booleans())
def test_a_rewritten_trig_polynomial_is_proved_never_refuted(p: sp.Expr, real: bool) -> None:
    rewrite = sp.expand(sp.expand_trig(p))
    assert _decide_text(p, rewrite, real) is Verdict.PROVED


@_SETTINGS
@given(trig_polynomials())
def test_the_exponential_form_is_never_refuted(p: sp.Expr) -> None:
    rewrite = sp.expand(p.rewrite(sp.exp))
    assert _decide_text(p, rewrite, real=False) is not Verdict.REFUTED


@_SETTINGS
@given(
    trig_polynomials(),
    st.integers(-4, 4).filter(bool),
    st.integers(1, 50),
    st.sampled_from(["constant", "sin", "cos2"]),
    st.booleans(),
)
def test_a_perturbed_identity_is_never_proved(p: sp.Expr, numerator: int, scale: int, kind: str, real: bool) -> None:
    size = sp.Rational(numerator, 10**scale)  # as small as 4·10⁻⁵⁰: rounding must not hide it
    perturbation = {"constant": size, "sin": size * sp.sin(x), "cos2": size * sp.cos(2 * x) ** 2}[kind]
    rewrite = sp.expand(sp.expand_trig(p)) + perturbation
    verdict = _decide_text(p, rewrite, real)
    assert verdict is not Verdict.PROVED
    if kind == "constant":
        assert verdict is Verdict.REFUTED


# ------------------------------------------------------------------------------------------------ fuzz
_TOKENS = [
    "x", "y", "k", "1", "0", "2.5", "1e-3", "10", "+", "-", "*", "/", "**", "^", "(", ")", ",", "==", "==",
    "sin", "cos", "log", "sqrt", "floor", "sign", "Sum", "Matrix", "Min", "[", "]", "pi", "I", "E", "oo", "i",
    "_", ".", "'", "=", "²", "__import__", "lambda", ":", "θ", " ", "\t", "x.y", "@", "#", "\\", ";",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), min_size=0, max_size=25))
def test_random_token_strings_parse_or_are_refused_in_one_line(tokens: list[str]) -> None:
    text = "".join(tokens)
    try:
        parsed = parse_identity(text)
    except BadStatement as error:
        message = str(error)
        assert message and "\n" not in message and "Traceback" not in message
        return
    assert isinstance(parsed.lhs, sp.Basic | sp.MatrixBase)


# One sandboxed worker per example (about 0.7 CPU-s): the default tier runs 4, `--deep` 25.
@settings(max_examples=examples(4, 25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tokens=st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=20))
def test_random_token_strings_through_the_cli_give_an_exit_code_and_leave_no_trace(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], tokens: list[str]
) -> None:
    workdir: Path = tmp_path_factory.mktemp("fuzz")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(workdir)
        # `--` first: the statement may itself be `--` or start with `-` (the documented way to pass one).
        code = main(["prove", "--timeout", "5", "--no-kernel", "--", "".join(tokens)])
    captured = capsys.readouterr()
    assert code in (0, 1, 2, 3, 4)
    assert "Traceback" not in captured.err and len(captured.err.splitlines()) <= 1
    if code == 2:
        assert captured.out == "" and captured.err.startswith("ropecheck: bad statement:")
    else:
        assert len(captured.out.splitlines()) == 1
    assert list(workdir.iterdir()) == []


@pytest.mark.parametrize(("argv", "column"), [(["--", "-"], 2), (["--", "--"], 3), (["-x +", "--no-kernel"], 5)])
def test_a_statement_starting_with_minus_reaches_the_grammar_as_typed(
    argv: list[str], column: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prove", "--no-kernel", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ropecheck: bad statement:") and err.rstrip().endswith(f"at column {column}"), err
