"""Issue 37: true real-domain identities reach the Coq kernel (exit 0); the rest end at exit 4 with Coq's reason
(or exit 3 where the engine could not prove them either and the tactic layer did not close them).

The corpus (`tests/_prove_corpus.py`) is checked to be true with mpmath at 50 digits, independently of the engine
and of Coq. The default tier runs a sample through `prove`; the whole corpus (≥ 85 % at exit 0) runs with
`--deep` and in `benchmarks/prove_speed.py`.
"""

from __future__ import annotations

import contextlib
import io
import json
import random

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ropecheck.proofs import coq_available, parse_identity
from ropecheck.proofs.prove._prove import _coq_witness, proof_script
from ropecheck.proofs.prove._prove_kernel import kernel_check
from ropecheck.proofs.prove._prove_print import state_identity
from ropecheck.proofs.prove._prove_search import defined_point

from ropecheck.cli._main import main

from ._prove_corpus import SAMPLE, TRUE_IDENTITIES
from ._tiers import examples

needs_coq = pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
_FLOOR = {"Floor": mpmath.floor, "Ceiling": mpmath.ceil, "Frac": lambda v: v - mpmath.floor(v),
          "Sign": mpmath.sign, "Min": min, "Max": max, "Abs": abs}


def _domains(flags: list[str]) -> tuple[list[str], list[str], list[str]]:
    groups: dict[str, list[str]] = {"--real": [], "--positive": [], "--integer": []}
    current = ""
    for flag in flags:
        if flag in groups:
            current = flag
        else:
            groups[current].append(flag)
    return groups["--real"], groups["--positive"], groups["--integer"]


def _value(expression: sp.Expr, point: dict[sp.Symbol, object]) -> mpmath.mpf | None:
    function = sp.lambdify(list(point), expression, modules=[_FLOOR, "mpmath"])
    try:
        value = function(*point.values())
    except (ValueError, ZeroDivisionError):
        return None
    return None if isinstance(value, mpmath.mpc) and value.imag != 0 else mpmath.mpf(mpmath.re(value))


def prove_json(statement: str, flags: list[str]) -> tuple[int, dict]:
    """`ropecheck prove --json` in process: the exit code and the answer."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["prove", statement, *flags, "--json"])
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize(("statement", "flags"), TRUE_IDENTITIES, ids=[s for s, _ in TRUE_IDENTITIES])
def test_each_corpus_identity_is_true_by_mpmath(statement: str, flags: list[str]) -> None:
    parsed = parse_identity(statement, *_domains(flags))
    generator = random.Random(statement)
    checked = 0
    with mpmath.workdps(50):
        for _ in range(40):
            point: dict[sp.Symbol, object] = {}
            for symbol in parsed.symbols:
                if symbol.is_integer:
                    point[symbol] = mpmath.mpf(generator.randint(-5, 5))
                elif symbol.is_positive:
                    point[symbol] = mpmath.mpf(generator.uniform(0.05, 4))
                else:
                    point[symbol] = mpmath.mpf(generator.uniform(-4, 4))
            lhs, rhs = _value(parsed.lhs, point), _value(parsed.rhs, point)
            if lhs is None or rhs is None or not (mpmath.isfinite(lhs) and mpmath.isfinite(rhs)):
                continue
            assert abs(lhs - rhs) <= mpmath.mpf(10) ** -40 * (1 + abs(lhs)), (statement, point, lhs, rhs)
            checked += 1
            if checked == 5 or not parsed.symbols:
                break
    assert checked >= 1, f"no defined point found for {statement}"


@needs_coq
@pytest.mark.parametrize(("statement", "flags"), SAMPLE, ids=[s for s, _ in SAMPLE])
def test_a_sample_of_the_corpus_reaches_exit_0(statement: str, flags: list[str]) -> None:
    code, answer = prove_json(statement, flags)
    assert code == 0, answer


@needs_coq
@pytest.mark.deep
def test_the_corpus_reaches_exit_0_for_85_percent_and_says_why_otherwise() -> None:
    codes = {statement: prove_json(statement, flags) for statement, flags in TRUE_IDENTITIES}
    proved = [s for s, (code, _) in codes.items() if code == 0]
    others = {s: (code, answer.get("kernel", {}).get("reason") or answer.get("method"))
              for s, (code, answer) in codes.items() if code != 0}
    assert all(code in (3, 4) and reason for code, reason in others.values()), others  # never 1: all are true
    assert len(proved) >= 0.85 * len(TRUE_IDENTITIES), others


_PERTURBATIONS = ["+ 1/1000", "* (1 + 10**-30)", "+ sin(x)/100", "- 2"]


# One coqc run per example (about 1.8 CPU-s): the default tier tries one perturbed identity, `--deep` three.
@needs_coq
@settings(max_examples=examples(1, 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TRUE_IDENTITIES), st.sampled_from(_PERTURBATIONS))
def test_the_kernel_never_accepts_a_perturbed_identity(identity: tuple[str, list[str]], perturbation: str) -> None:
    """The tactic layer is untrusted: fed a false statement (a corpus identity with its right side perturbed),
    with the engine bypassed, Coq must refuse every script, whatever Coq's total conventions (`x / 0 = 0`…)."""
    statement, flags = identity
    lhs, rhs = statement.split(" == ")
    false = f"{lhs} == ({rhs}) {perturbation}"
    if "sin(x)" in perturbation and "x" not in flags:
        flags = [*flags, "--real", "x"]
    assert not _kernel_accepts(false, flags), false


@needs_coq
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["log(-1 - x**2) == log(-1 - x**2) + 1", "1/(sin(x)**2 + cos(x)**2 - 1) == 1",
                        "sqrt(-1 - x**2) == 1", "asin(2 + x**2) == 0"]))
def test_the_kernel_never_accepts_a_statement_undefined_everywhere(statement: str) -> None:
    """Coq's total functions give these a value (`ln` of a negative is 0, `/ 0` is 0): the domain witness must
    fail at every point, so the theorem is never accepted."""
    assert not _kernel_accepts(statement, ["--real", "x"]), statement


def _kernel_accepts(statement: str, flags: list[str]) -> bool:
    """Print `statement` to Coq as `prove` does and let coqc try the whole tactic layer, with a certified point
    of its domain as the witness (for a statement undefined everywhere: x = 1)."""
    real, positive, integer = _domains(flags)
    printed = state_identity(statement, real=real, positive=positive, integer=integer)
    point = defined_point(list(printed.hypotheses), printed.symbols) or {s: sp.Integer(1) for s in printed.symbols}
    parsed = parse_identity(statement, real, positive, integer)
    coq = {"statement": printed.proposition, "binders": printed.binders,
           "hypotheses": [*printed.symbol_hypotheses, *(h.coq for h in printed.hypotheses)],
           "witness": _coq_witness(printed, point),
           "script": proof_script(parsed.lhs, parsed.rhs)}
    return bool(kernel_check(coq, 60)["accepted"])
