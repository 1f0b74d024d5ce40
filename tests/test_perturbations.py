"""Meta-tests: a perturbed version of every proved claim (flipped sign, dropped term, wrong index) is not proved.

A check that cannot fail is a defect: these show the engine rejecting near-misses of each proved statement.
"""

from __future__ import annotations

import pytest

from proofs import Verdict, all_claims

from ._perturb import perturbed_statements

PROVED = [c for c in all_claims() if c.decide().verdict is Verdict.PROVED]


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
