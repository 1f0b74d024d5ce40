"""The SymPy → Coq printer (trusted: docs/trusted.md) and the generated proofs/coq/Printed.v."""

from __future__ import annotations

import re

import pytest
import sympy as sp
from ropecheck.proofs.claims._coq_printed import render
from ropecheck.proofs.kernel._coq_print import CannotPrint, identity_statement, print_expr
from ropecheck.proofs.kernel._kernel import DEVELOPMENT

x, y = sp.symbols("x y", real=True)
t = sp.Symbol("t", positive=True)
k = sp.Symbol("k", integer=True)


@pytest.mark.parametrize(
    ("expr", "coq"),
    [
        (x + 2 * y, "(x + (2 * y))"),
        (x**3, "(x ^ 3)"),
        (x ** (-2), "(/ (x ^ 2))"),
        (sp.Rational(3, 4) * x, "(3 * x / 4)"),
        (-sp.Rational(1, 2), "(- (1 / 2))"),
        (sp.sqrt(x), "(sqrt x)"),
        (sp.Integer(10000) ** (x / 4), "(Rpower 10000 (x / 4))"),
        (sp.cos(k * t), "(cos ((IZR k) * t))"),
        (sp.exp(x) + sp.log(t) + sp.pi, "(PI + (exp x) + (ln t))"),
    ],
)
def test_printer_translates_each_node_faithfully(expr: sp.Expr, coq: str) -> None:
    assert print_expr(expr) == coq


def test_binders_carry_the_assumptions() -> None:
    statement = identity_statement(sp.cos(k * t) ** 2, 1 - sp.sin(k * t) ** 2)
    assert statement.startswith("forall (t : R) (k : Z), 0 < t -> ")


@pytest.mark.parametrize(
    "expr",
    [sp.I * x, sp.Abs(x), sp.Function("f")(x), sp.sign(x), sp.Symbol("z") + 1, sp.Sum(x, (k, 0, 3))],
    ids=["complex", "abs", "function", "sign", "undeclared-symbol", "sum"],
)
def test_printer_refuses_what_it_cannot_translate(expr: sp.Expr) -> None:
    with pytest.raises(CannotPrint):
        identity_statement(expr, sp.Integer(0))


def test_committed_printed_v_is_the_fresh_output() -> None:
    """Regenerate with `python -m proofs.claims._coq_printed --check > proofs/coq/Printed.v`."""
    committed = (DEVELOPMENT / "Printed.v").read_text(encoding="utf-8")
    included = set(re.findall(r"^(?:Lemma|Example) (\w+) :", committed, flags=re.MULTILINE))
    note = r"\(\* NOT PRINTED (\w+) \([A-Z0-9-]+\): the kernel rejected the generic script: (.*?) \*\)"
    rejected = dict(re.findall(note, committed))

    def as_committed(name: str, text: str, script: str) -> str | None:
        return None if name in included else rejected.get(name, "not in the committed file")

    assert render(as_committed) == committed
    assert included, "Printed.v prints no lemma"
