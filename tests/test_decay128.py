"""ROPE-DECAY-BOUND-MONOTONE at RoFormer's d = 128: the generated Coq files and the verdict they carry.

`proofs/claims/_decay128_gen.py` prints `Decay128At179.v` and `Decay128At183.v` (per-phase enclosures, integer bounds on
the partial sums of the centres); the committed files must be exactly what it prints. The integer bounds are
re-checked here in Python (the kernel checks them again by `vm_compute`), and the claim's ledger entry must name
the d = 128 theorem of `Decay128.v` as its negation, with the d = 4 refutation kept as a note. Wrong statements
(179 and 183 swapped, a shifted centre, an inflated sum) are refused by the kernel in `test_claim_readings.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ropecheck.proofs import coq_available, get_claim
from ropecheck.proofs.claims._decay128_gen import (
    DISTANCES,
    HALF_DIMENSION,
    generated_files,
    modulus_bounds,
    phase_centres,
)

COQ = Path(__file__).resolve().parent.parent / "proofs" / "coq"


def test_generated_files_are_what_the_generator_prints() -> None:
    for name, text in generated_files().items():
        assert (COQ / name).read_text(encoding="utf-8") == text, f"{name} is stale: run the generator"
        assert name in (COQ / "_CoqProject").read_text(encoding="utf-8").split()


def test_modulus_bounds_bound_the_centre_sums() -> None:
    for distance, side in DISTANCES.items():
        centres = phase_centres(distance)
        bounds = modulus_bounds(centres, side)
        x = y = 0
        for j, bound in enumerate(bounds):
            if j:
                x, y = x + centres[j - 1][0], y + centres[j - 1][1]
            assert bound >= 0
            assert (bound * bound <= x * x + y * y) if side == "lower" else (x * x + y * y <= bound * bound)
    # the margin Decay128.v needs: sum_j l_j(183) - 41.6 > sum_j u_j(179) + 41.6 (in thousandths)
    slack = 2 * 1000 * HALF_DIMENSION * (HALF_DIMENSION + 1) // 100
    lower = sum(modulus_bounds(phase_centres(183), "lower")[1:])
    upper = sum(modulus_bounds(phase_centres(179), "upper")[1:])
    assert lower - upper > slack


def test_a_wrong_side_breaks_the_bound() -> None:
    # the upper bounds of 183 are not lower bounds: the generator's sides matter
    centres = phase_centres(183)
    upper, lower = modulus_bounds(centres, "upper"), modulus_bounds(centres, "lower")
    assert any(u > v for u, v in zip(upper, lower, strict=True))


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_the_verdict_is_the_d128_negation_with_the_d4_note() -> None:
    claim = get_claim("ROPE-DECAY-BOUND-MONOTONE")
    kernel = claim.kernel()
    assert kernel.verdict == "refuted", kernel.reason
    assert "Ropecheck.Decay128.rope_decay_bound_monotone_negation" in kernel.reason
    entry = claim.to_json()
    by_name = {t["theorem"]: t for t in entry["kernel_theorems"]}
    negation = by_name["rope_decay_bound_monotone_negation"]
    assert negation["role"] == "negation" and negation["module"] == "Ropecheck.Decay128"
    assert "relative_bound (rope_spectrum 10000 64) 64 (INR D2)" in negation["elaborated_statement"]
    note = by_name["rope_decay_bound_monotone_literal_every_d_negation"]
    assert note["role"] == "literal" and note["status"] == "checked"
    assert "d = 128" in entry["interpretation"] and "B(179) < B(183)" in entry["interpretation"]
