"""Kernel meta-tests (ISSUE #10 item 6): near-misses of every proved statement are rejected by the kernel.

The default run covers a documented sample (every 12th proved claim theorem in name order, all three
mutation kinds); `--deep` (or `ROPECHECK_DEEP=1`) covers every proved theorem (`python -m tests._coq_mutants
--deep` prints the table). The candidates of many development files are checked in one coqtop session, each
file's in a module of its own (`_coq_mutants`); the batch tests below show that session's parser telling accepted,
ill-typed and rejected apart, keeping each file's context to its own candidates, and giving up.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from ropecheck.proofs import claim_ids, coq_available
from ropecheck.proofs.kernel._kernel_build import materialise

from ._coq_mutants import (
    CANDIDATE,
    TRUE_MUTANTS,
    Candidate,
    HarnessError,
    MutantResult,
    Verdict,
    _first_typed,
    _judge,
    check_batch,
    drop_term,
    flip_sign,
    off_by_one,
    proved_theorems,
    run_mutants,
    sample,
)
from ._wrong_statements import find_theorems

KINDS = {"flipped sign", "dropped term", "off-by-one index"}


def test_mutations_change_the_statement_where_it_matters() -> None:
    signature = ": forall (q k : R) (m n : R), f m n = q * cos ((m - n) * t) + k * sin ((m - n) * t)"
    assert flip_sign(signature) == signature.replace(" + k", " - k")
    assert drop_term(signature).endswith("+ k * sin ((m) * t)")  # type: ignore[union-attr]
    assert any("(S n)" in candidate for candidate in off_by_one(signature))
    assert not any(": (S" in candidate for candidate in off_by_one(signature))  # binders are not uses
    once = ": forall (m : R) (x : vec), sqrt (norm2 4 (rope t 2 m x)) = sqrt (norm2 4 x)"
    assert not any("(S m)" in candidate for candidate in off_by_one(once))  # an instance of the theorem: true


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_kernel_rejects_mutants_of_proved_theorems() -> None:
    theorems = proved_theorems(claim_ids())
    assert theorems, "no proved claim theorem found in proofs/coq"
    chosen = sample(theorems, deep=os.environ.get("ROPECHECK_DEEP") == "1")
    results = run_mutants(chosen)
    listed = [r for r in results if (r.theorem, r.kind) in TRUE_MUTANTS]
    assert all(r.outcome == "accepted" for r in listed), [(r.theorem, r.kind, r.outcome) for r in listed]
    accepted = [r for r in results if r.outcome == "accepted" and (r.theorem, r.kind) not in TRUE_MUTANTS]
    assert not accepted, [(r.theorem, r.kind, r.detail) for r in accepted]
    rejected = [r for r in results if r.outcome == "rejected"]
    assert {r.kind for r in rejected} == KINDS, _summary(results)
    untestable = [r.theorem for r in results if r.outcome == "not-testable"]
    tested = {r.theorem for r in rejected}
    assert len(tested) >= 0.75 * len(chosen), (untestable, _summary(results))


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_one_coqtop_session_tells_accepted_ill_typed_and_rejected_apart(tmp_path: Path) -> None:
    """The batch parser's three answers from one session of two files, each file's context its own, the verdicts
    in the order asked; an error when the session cannot be read or a file's prologue fails."""
    materialise(tmp_path)
    theorem, flips = find_theorems(["rpe_offset_count", "binary_3_to_4_flips_004"]).values()
    true = theorem.signature
    false = true.replace("= 2 * L - 1)%Z", "= 2 * L)%Z")
    ill_typed = true.replace("= 2 * L - 1)%Z", "= true)%Z")
    # Binary.v's statement in Relative.v's context, after Binary.v's own module: `flipped_bits` is not in scope there
    elsewhere = replace(flips, module=theorem.module, header=theorem.header)
    asked = [(flips, flips.signature), *((theorem, s) for s in (true, false, ill_typed)), (elsewhere, flips.signature)]
    verdicts = check_batch(tmp_path, [Candidate(t, s) for t, s in [*asked, (flips, flips.signature)]])
    outcomes = ["accepted", "accepted", "rejected", "ill-typed", "ill-typed", "accepted"]
    assert [v.outcome for v in verdicts] == outcomes, verdicts
    swallowing = replace(theorem, proof=theorem.proof + " (* a comment never closed: the marks are swallowed")
    with pytest.raises(HarnessError):
        check_batch(tmp_path, [Candidate(theorem, true), Candidate(swallowing, true), Candidate(theorem, false)])
    broken = replace(flips, header=flips.header + "\nFrom Coq Require Import NoSuchLibrary.")  # the second prologue
    with pytest.raises(HarnessError, match="an error outside the candidates"):
        check_batch(tmp_path, [Candidate(flips, flips.signature), Candidate(broken, flips.signature)])


def test_batch_verdicts_need_positive_evidence() -> None:
    """No answer, a definition despite an error, or an error that is not this proof's: the parser gives up."""
    name = f"{CANDIDATE}1"
    assert _judge(name, False, [("lia.", "Tactic failure."), ("Qed.", f"(in proof {name}): incomplete")]).outcome == (
        "rejected"
    )
    for located, errors in ((False, []), (True, [("lia.", "Tactic failure.")]), (False, [("lia.", "Tactic failure.")])):
        with pytest.raises(HarnessError):
            _judge(name, located, errors)


def test_off_by_one_takes_the_first_variant_that_type_checks() -> None:
    ill_typed, rejected = Verdict("ill-typed", "S n is not a real"), Verdict("rejected", "Tactic failure.")
    assert _first_typed(["(S n)", "(n + 1)"], [ill_typed, rejected]) == ("rejected", "(n + 1)")
    assert _first_typed(["(S n)", "(n + 1)"], [ill_typed, ill_typed]) == ("ill-typed", "(n + 1)")
    assert _first_typed([], []) == ("not-applicable", "no place to mutate")


def _summary(results: list[MutantResult]) -> list[tuple[str, str, str]]:
    return [(r.theorem, r.kind, r.outcome) for r in results]
