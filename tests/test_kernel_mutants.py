"""Kernel meta-tests (ISSUE #10 item 6): near-misses of every proved statement are rejected by coqc.

The default run covers a documented sample (every 6th proved claim theorem in name order, all three
mutation kinds); `ROPECHECK_DEEP=1` covers every proved theorem (`python -m tests._coq_mutants --deep` prints
the table).
"""

from __future__ import annotations

import os

import pytest
from ropecheck.proofs import claim_ids, coq_available

from ._coq_mutants import MutantResult, drop_term, flip_sign, off_by_one, proved_theorems, run_mutants, sample

KINDS = {"flipped sign", "dropped term", "off-by-one index"}


def test_mutations_change_the_statement_where_it_matters() -> None:
    signature = ": forall (q k : R) (m n : R), f m n = q * cos ((m - n) * t) + k * sin ((m - n) * t)"
    assert flip_sign(signature) == signature.replace(" + k", " - k")
    assert drop_term(signature).endswith("+ k * sin ((m) * t)")  # type: ignore[union-attr]
    assert any("(S n)" in candidate for candidate in off_by_one(signature))
    assert not any(": (S" in candidate for candidate in off_by_one(signature))  # binders are not uses


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_kernel_rejects_mutants_of_proved_theorems() -> None:
    theorems = proved_theorems(claim_ids())
    assert theorems, "no proved claim theorem found in proofs/coq"
    chosen = sample(theorems, deep=os.environ.get("ROPECHECK_DEEP") == "1")
    results = run_mutants(chosen)
    accepted = [r for r in results if r.outcome == "accepted"]
    assert not accepted, [(r.theorem, r.kind, r.detail) for r in accepted]
    rejected = [r for r in results if r.outcome == "rejected"]
    assert {r.kind for r in rejected} == KINDS, _summary(results)
    untestable = [r.theorem for r in results if r.outcome == "not-testable"]
    tested = {r.theorem for r in rejected}
    assert len(tested) >= 0.75 * len(chosen), (untestable, _summary(results))


def _summary(results: list[MutantResult]) -> list[tuple[str, str, str]]:
    return [(r.theorem, r.kind, r.outcome) for r in results]
