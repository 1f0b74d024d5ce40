"""Issue 37: SymPy's constant names are constants (or refused with what to write), never silent variables; large
exponents reach Coq as binary integers; a Coq warning is never read as `Print Assumptions` output; an engine
exception becomes its honest reason; argparse errors and conflicting declarations are bad input in `--json` too.
"""

from __future__ import annotations

import json

import pytest
from mpmath.libmp import NoConvergence
from ropecheck.proofs import BadStatement, coq_available, parse_identity
from ropecheck.proofs.prove import _prove, _prove_search
from ropecheck.proofs.prove._prove import decide_statement
from ropecheck.proofs.prove._prove_kernel import kernel_check

from ropecheck.cli._main import main

needs_coq = pytest.mark.skipif(not coq_available(), reason="coqc is not installed")


def _run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, dict]:
    code = main(["prove", *arguments, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_golden_ratio_is_a_constant_not_a_variable() -> None:
    answer = decide_statement("GoldenRatio**2 == GoldenRatio + 1")
    assert answer["verdict"] == "proved", answer  # refuted at "GoldenRatio = 1" when it was a variable
    assert "sqrt 5" in answer["coq"]["statement"] and "forall" not in answer["coq"]["statement"]
    assert decide_statement("GoldenRatio == 1")["verdict"] == "refuted"
    assert decide_statement("TribonacciConstant**3 == TribonacciConstant**2 + TribonacciConstant + 1")[
        "verdict"] == "proved"


@needs_coq
def test_the_golden_ratio_identity_is_kernel_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = _run(capsys, "GoldenRatio**2 == GoldenRatio + 1")
    assert code == 0 and "sqrt 5" in answer["coq_statement"], answer


@pytest.mark.parametrize("name", ["EulerGamma", "Catalan"])
def test_constants_coq_does_not_define_are_engine_only(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = _run(capsys, f"{name} + 1 == 1 + {name}")
    assert code == 4 and "no definition in Coq" in answer["kernel"]["reason"], answer
    assert decide_statement(f"{name} == 1/2")["verdict"] != "proved"  # a variable would make this "refuted" too


@pytest.mark.parametrize(("name", "hint"), [("zoo", "complex infinity"), ("nan", "not a number"),
                                            ("Infinity", "finite values"), ("Exp1", "write E"),
                                            ("ImaginaryUnit", "write I"), ("ComplexInfinity", "not a number")])
def test_other_constant_names_are_refused_with_a_hint(name: str, hint: str) -> None:
    with pytest.raises(BadStatement, match=hint):
        parse_identity(f"{name} + x == x")
    with pytest.raises(BadStatement, match="function or constant"):
        parse_identity("x == x", real=[name])


@needs_coq
def test_a_large_exponent_reaches_coq_as_a_binary_integer(capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = _run(capsys, "x**1000000 + 1 == x**1000000 + 1", "--real", "x")
    assert code == 0 and "powerRZ x (1000000)%Z" in answer["coq_statement"], answer
    assert answer["conditions"] == []  # a positive power is defined everywhere
    assert "x != 0" in decide_statement("x**-1000000 == x**-1000000", real=["x"])["conditions"]


@needs_coq
def test_a_coq_warning_is_not_read_as_the_assumptions() -> None:
    """`x ^ 6000` makes coqc warn (abstract-large-number) on its error stream before `Print Assumptions`."""
    coq = {"statement": "forall (x : R), (x ^ 6000) = (x ^ 6000)", "binders": "(x : R)", "hypotheses": [],
           "witness": [], "script": "intros; reflexivity"}
    checked = kernel_check(coq, 60)
    assert checked["accepted"] and checked["status"] == "checked", checked


def test_an_engine_exception_outside_the_domain_is_reported_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    """The certification of a point can fail in mpmath (NoConvergence): that point is not in the domain."""
    def fails(*arguments: object) -> bool:
        raise NoConvergence("evalf")

    monkeypatch.setattr(_prove_search, "_certified_at", fails)
    answer = decide_statement("log(x**2) == 2*log(x)", real=["x"])
    assert answer == {"verdict": "unknown", "method": "the engine's counterexample lies outside the domain"}


def test_an_engine_exception_in_the_procedures_names_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*arguments: object, **keywords: object) -> None:
        raise NoConvergence("Failed to converge")

    monkeypatch.setattr(_prove, "decide_identity", fails)
    answer = decide_statement("x + 1 == 1 + x", real=["x"])
    assert answer["verdict"] == "unknown", answer
    assert answer["method"] == "the engine's exact procedures gave up (NoConvergence: Failed to converge)"


@pytest.mark.parametrize(("arguments", "message"), [
    (["x == 1", "--bogus"], "unrecognized arguments: --bogus"),
    (["x == 1", "--timeout", "-3"], "the timeout must be in (0, 3600] seconds"),
])
def test_argparse_errors_are_in_the_json_object(arguments: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = _run(capsys, *arguments)
    assert code == 2 and message in answer["error"], answer


@pytest.mark.parametrize("flags", [["--real", "x", "--integer", "x"], ["--positive", "x", "--real", "x"]])
def test_conflicting_declarations_are_refused(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, answer = _run(capsys, "x == x", *flags)
    assert code == 2 and "declared both" in answer["error"], answer


def test_positive_with_integer_is_a_positive_integer() -> None:
    (n,) = parse_identity("n == n", positive=["n"], integer=["n"]).symbols
    assert n.is_integer and n.is_positive
