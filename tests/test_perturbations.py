"""Meta-tests: a perturbed version of every proved claim (flipped sign, dropped term, wrong index) is not proved.

A check that cannot fail is a defect: these show the engine rejecting near-misses of each proved statement.
"""

from __future__ import annotations

import pytest
from ropecheck.proofs import Verdict, get_claim

from ._engine_selection import engine_proved_ids
from ._perturb import perturbed_statements

PROVED = [get_claim(claim_id) for claim_id in engine_proved_ids()]


@pytest.mark.parametrize("claim", PROVED, ids=[c.id for c in PROVED])
def test_perturbed_proved_claim_is_not_proved(claim: object) -> None:
    perturbations = list(perturbed_statements(claim.statement))  # type: ignore[attr-defined]
    assert perturbations, f"no perturbation applies to {claim.id}"  # type: ignore[attr-defined]
    for label, statement in perturbations:
        decision = statement.decide()  # type: ignore[attr-defined]
        assert decision.verdict is not Verdict.PROVED, f"{label}: still proved ({decision.method})"


def test_perturbations_cover_all_three_kinds_across_the_ledger() -> None:
    labels = {label for claim in PROVED for label, _ in perturbed_statements(claim.statement)}
    assert labels == {"flipped sign", "dropped term", "wrong index"}


# ------------------------------------------------------------------ closing steps that are not proofs (#10)
def test_blockwise_over_generalisation_is_not_proved() -> None:
    """vᵀR^d_m v = |v|²cos(mθ₀) holds for d = 2 but not d = 4; a `blockwise` rule name must not lift it."""
    import sympy as sp
    from ropecheck.proofs import Derivation, Identity
    from ropecheck.proofs.engine._formulas import dot, m, real_vector, rope_frequencies, rope_matrix, rotation, theta

    v2 = real_vector("v", 2)
    generic = Identity(dot(v2, rotation(m * theta) * v2), dot(v2, v2) * sp.cos(m * theta), name="d = 2 block")
    assert generic.decide().verdict is Verdict.PROVED  # the step itself is true
    v4 = real_vector("v", 4)
    thetas = rope_frequencies(4)
    claim = Derivation(
        [generic],
        rule="blockwise",
        conclusion=r"v^\top R^d_m v = \|v\|^2\cos(m\theta_0)\ \text{for every even } d",
    )
    assert claim.decide().verdict is not Verdict.PROVED
    at_d4 = Identity(dot(v4, rope_matrix(m, thetas) * v4), dot(v4, v4) * sp.cos(m * thetas[0]))
    assert at_d4.decide().verdict is not Verdict.PROVED  # and it is indeed false at d = 4


def test_induction_with_an_unrelated_step_is_not_proved() -> None:
    import sympy as sp
    from ropecheck.proofs import Identity, Induction

    x = sp.Symbol("x", real=True)
    # "Σ_{i<n} 1 = n²" with the base case 0 = 0 and a true but unrelated step identity
    induction = Induction(base=Identity(sp.Integer(0), sp.Integer(0)), step=Identity(x * (x + 1), x**2 + x))
    assert induction.decide().verdict is not Verdict.PROVED


def test_refutation_by_an_unrelated_identity_is_not_refuted() -> None:
    import sympy as sp
    from ropecheck.proofs import Identity, Refutation
    from ropecheck.proofs.engine._statements import Claimed

    x = sp.Symbol("x", real=True)
    refutation = Refutation(Claimed("RoPE preserves the norm"), Identity(x, x))
    assert refutation.decide().verdict is not Verdict.REFUTED
    assert refutation.decide().verdict is not Verdict.PROVED
