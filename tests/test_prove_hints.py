"""Issue #19: the forms people type by habit get a one-line hint that says what to write instead, and `--json`
prints one JSON object on stdout for bad input too."""

from __future__ import annotations

import json

import pytest
from ropecheck.proofs import BadStatement, parse_identity

from ropecheck.cli._main import main

HINTS = [
    ("sin x == 1", "write sin(x) for a function call"),
    ("sin^2(x) + cos(x)**2 == 1", "write sin(x)**2"),
    ("x(x+1) == x**2 + x", "for a product, write x*("),
    ("x != 1", "prove decides equations 'LHS == RHS' only"),
    ("x <= 1", "prove decides equations 'LHS == RHS' only"),
    ("|x| == x", "write Abs(x)"),
    ("log10(x) == 1", "did you mean log(x)/log(10)?"),
    ("sin(x)² == 1", "did you mean sin(x)**2?"),
    ("sinn(x) == 1", "did you mean sin?"),
    ("coss(x) == 1", "did you mean cos?"),
    ("oo == 1", "oo (infinity) is not a number"),
]


@pytest.mark.parametrize(("statement", "hint"), HINTS)
def test_a_habitual_form_gets_its_hint(statement: str, hint: str) -> None:
    with pytest.raises(BadStatement) as error:
        parse_identity(statement)
    assert hint in str(error.value) and "\n" not in str(error.value)


def test_an_unrelated_unknown_function_gets_no_wrong_suggestion() -> None:
    with pytest.raises(BadStatement) as error:
        parse_identity("foo(x) == 1")
    assert "did you mean" not in str(error.value)


@pytest.mark.parametrize(
    "arguments",
    [["sin x == 1"], ["x == 1", "--bogus"], ["x == 1", "--timeout", "-3"], ["--real", "1x", "x == 1"]],
)
def test_json_prints_one_object_for_bad_input(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *arguments, "--json"]) == 2
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    assert captured.out.count("\n") == 1 and answer["verdict"] == "bad-input" and answer["exit_code"] == 2
    assert len(captured.err.strip().splitlines()) >= 1 and "Traceback" not in captured.err
