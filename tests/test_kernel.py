"""The kernel API used by `prove` and the ledger: `coq_available`, `check_identity`, axiom parsing."""

from __future__ import annotations

import pytest
import sympy as sp
from ropecheck.proofs.engine._formulas import cross2, dot, m, n, real_vector, rotation, theta
from ropecheck.proofs.kernel import _kernel

from ._budget import SUBPROCESS_BUDGET

needs_coq = pytest.mark.skipif(not _kernel.coq_available(), reason="coqc is not installed")
# check_identity, one coqc run per pair (about 1.5 CPU-s each): the default tier keeps the scalar trigonometric pair
# (the 003 sign error) and the 2x2 matrix pair (entrywise printing), each true form accepted and its near miss
# rejected; the polynomial and double-angle pairs run with --deep.

x, y = sp.symbols("x y", real=True)
_q, _k = real_vector("q", 2), real_vector("k", 2)
_score = dot(rotation(m * theta) * _q, rotation(n * theta) * _k)
_phi = (m - n) * theta


@needs_coq
@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        pytest.param(x**2 - y**2, (x - y) * (x + y), marks=pytest.mark.deep),
        pytest.param(sp.cos(2 * x), 1 - 2 * sp.sin(x) ** 2, marks=pytest.mark.deep),
        (_score, dot(_q, _k) * sp.cos(_phi) - cross2(_q, _k) * sp.sin(-_phi)),
        (rotation(m * theta).T * rotation(n * theta), rotation((n - m) * theta)),
    ],
    ids=["difference-of-squares", "double-angle", "pair-score", "relative-matrix-2x2"],
)
def test_check_identity_accepts_true_identities(lhs: sp.Basic, rhs: sp.Basic) -> None:
    result = _kernel.check_identity(lhs, rhs, timeout=SUBPROCESS_BUDGET)
    assert result.status == "checked", result.message
    assert all(_kernel.is_standard_axiom(a) for a in result.axioms)


@needs_coq
@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        pytest.param(x**2 - y**2, (x - y) ** 2, marks=pytest.mark.deep),
        pytest.param(sp.cos(2 * x), 1 - 2 * sp.cos(x) ** 2, marks=pytest.mark.deep),
        (_score, dot(_q, _k) * sp.cos(_phi) + cross2(_q, _k) * sp.sin(-_phi)),  # the 003 sign error
        (rotation(m * theta).T * rotation(n * theta), rotation((m - n) * theta)),
    ],
    ids=["difference-of-squares", "double-angle", "pair-score-sign", "relative-matrix-direction"],
)
def test_check_identity_rejects_false_identities(lhs: sp.Basic, rhs: sp.Basic) -> None:
    result = _kernel.check_identity(lhs, rhs, timeout=SUBPROCESS_BUDGET)
    assert result.status == "failed", result


def test_check_identity_cannot_print_complex() -> None:
    result = _kernel.check_identity(sp.I * x, x, timeout=5)
    assert result.status == "cannot-print"


def test_without_coqc_nothing_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROPECHECK_COQC", "")
    _kernel.coqc_path.cache_clear()
    _kernel.coq_version.cache_clear()
    try:
        assert not _kernel.coq_available()
        assert _kernel.check_identity(x + y, y + x, timeout=5).status == "not-run"
    finally:
        monkeypatch.delenv("ROPECHECK_COQC")
        _kernel.coqc_path.cache_clear()
        _kernel.coq_version.cache_clear()


def test_parse_assumptions_reads_every_axiom_and_closed_context() -> None:
    output = (
        "Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\n"
        "ClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n    (forall n, {P n} + {~ P n})\n"
        "Ropecheck.Defs.cheat : 0 = 1\n"
    )
    names = _kernel.parse_assumptions(output)
    assert names == [
        "ClassicalDedekindReals.sig_not_dec",
        "ClassicalDedekindReals.sig_forall_dec",
        "Ropecheck.Defs.cheat",
    ]
    assert [_kernel.is_standard_axiom(a) for a in names] == [True, True, False]
    assert _kernel.parse_assumptions("Closed under the global context\n") == []
