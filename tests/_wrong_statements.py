"""Compile a claim theorem's proof against a deliberately wrong statement: the kernel must refuse it.

The mutants of `_coq_mutants` perturb statements mechanically; the readings decided in ISSUE #18 (d = 128
uniqueness, cache entries, window means, the round-3 claims) each have a specific way to be wrong — the same
statement at d = 8 (where every frequency is rational and uniqueness fails), a cache entry one real short, a
bound with the inequality turned round. `check_wrong_statements` checks the unchanged statement (the control must
be accepted) and each wrong one with the same proof, on top of the compiled development, in one coqtop
session for many development files, each file's candidates in a module with its own context
(`_coq_mutants.check_candidates`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ropecheck.proofs.kernel._kernel_build import materialise

from ._coq_mutants import Candidate, Theorem, check_candidates, written_theorems


def find_theorem(name: str) -> Theorem:
    """The theorem `name` as written in the development (any role, negations included)."""
    return find_theorems([name])[name]


def find_theorems(names: list[str]) -> dict[str, Theorem]:
    """`name → theorem` as written in the development (the first of that name), read once; `KeyError` if none."""
    written: dict[str, Theorem] = {}
    for theorem in written_theorems():
        written.setdefault(theorem.name, theorem)
    return {name: written[name] for name in names}


def check_wrong_statements(cases: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """`theorem → [(old, new), …]`: each replacement applied to the statement alone (it must occur).

    **Returns:** `theorem → outcomes`: `control accepted` first, then for each wrong statement `rejected`,
    `accepted` (a defect: the proof also proves the wrong statement) or `ill-typed`.
    """
    theorems = find_theorems(list(cases))
    candidates: list[Candidate] = []
    for name, replacements in cases.items():
        theorem = theorems[name]
        for old, _ in replacements:
            assert old in theorem.signature, (name, old)
        wrong = [theorem.signature.replace(old, new) for old, new in replacements]
        candidates += [Candidate(theorem, signature) for signature in [theorem.signature, *wrong]]
    with tempfile.TemporaryDirectory(prefix="ropecheck-wrong-") as tmp:
        build = Path(tmp)
        materialise(build)
        verdicts = iter(check_candidates(build, candidates))
    outcomes: dict[str, list[str]] = {}
    for name, replacements in cases.items():
        control = next(verdicts)
        results = ["control accepted" if control.outcome == "accepted" else f"control rejected: {control.detail}"]
        outcomes[name] = results + [next(verdicts).outcome for _ in replacements]
    return outcomes
