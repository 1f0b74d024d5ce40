"""ROPE-DECAY-BOUND-MONOTONE at RoFormer's d = 128: the generated Coq files and the verdict they carry.

`proofs/claims/_decay128_gen.py` prints `Decay128At179.v` and `Decay128At183.v` (per-phase enclosures, integer bounds on
the partial sums of the centres) and `Decay128Phases.v` (the unit phases and the block witnesses of the trend
reading); the committed files must be exactly what it prints. The integer bounds are re-checked here in Python (the
kernel checks them again by `vm_compute`); `Decay128Trend.v`'s checker is re-run here by an integer twin (the same
rotations, shifts and square roots) to show its margins and that it rejects the blocks through k = 8. The claim's
ledger entry must carry the trend theorem as its verdict and "monotone" (Decay128.v, d = 4) as the refuted literal.
Wrong statements (179 and 183 swapped, a shifted centre, an inflated sum, a unit phase moved past its enclosure) are
refused by the kernel in `test_claim_readings.py`; the trend theorem's own wrong statements under `--deep` here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ropecheck.proofs import coq_available, get_claim
from ropecheck.proofs.claims._decay128_gen import (
    DISTANCES,
    HALF_DIMENSION,
    PHASE_SCALE_BITS,
    TREND_COMPARISONS,
    block_witnesses,
    generated_files,
    modulus_bounds,
    phase_centres,
    unit_phase_centres,
)

from ._checker_twin import ONE, bounds, rotate
from ._wrong_statements import check_wrong_statements

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


def _checker_bounds(count: int) -> list[tuple[int, int]]:
    """Decay128Trend.bound_table in Python: (lower, upper) bounds of 2³⁰·Σⱼ|Sⱼ(D)|, D < count, computed as the
    kernel's checker computes them (rotations rounded down by a shift, floor square roots, the same slack)."""
    centres, out = unit_phase_centres(), []
    powers = [ONE] * HALF_DIMENSION
    for distance in range(count):
        out.append(bounds(powers, distance))
        powers = rotate(powers, centres)
    return out


def _blocks_pass(table: list[tuple[int, int]], witnesses: list[int]) -> list[bool]:
    """Decay128Trend.block_ok for each block k < len(witnesses): the witness's lower bound above every upper bound
    of block k + 1."""
    return [all(table[d][1] < table[w][0] for d in range(2 ** (k + 1), 2 ** (k + 2))) for k, w in enumerate(witnesses)]


def test_trend_checker_twin_passes_through_k7_and_rejects_k8() -> None:
    table = _checker_bounds(2 ** (TREND_COMPARISONS + 2))  # distances 0 … 511: blocks k = 0 … 8
    witnesses = block_witnesses(TREND_COMPARISONS + 1)  # k = 0 … 7, each compared with block k + 1
    assert witnesses[:TREND_COMPARISONS] == [1, 2, 4, 8, 16, 32, 69]
    passed = _blocks_pass(table, witnesses)
    assert passed[:TREND_COMPARISONS] == [True] * TREND_COMPARISONS
    # the smallest margin, blocks 6 → 7: B(69) − max B over [128, 256) ≈ 11.87 − 10.72, in units of 2⁻³⁰ · 64
    margin = min(
        table[w][0] - max(table[d][1] for d in range(2 ** (k + 1), 2 ** (k + 2)))
        for k, w in enumerate(witnesses[:TREND_COMPARISONS])
    )
    assert margin > 64 * (1 << PHASE_SCALE_BITS)
    # the same checker through k = 8 (the block [256, 512) rises to ≈ 11.19 > 10.72): refused
    assert passed[TREND_COMPARISONS] is False
    # a wrong witness: block 0's replaced by 2, a distance of block 1, which cannot beat its own upper bound
    assert _blocks_pass(table, [2, *witnesses[1:TREND_COMPARISONS]])[0] is False


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_the_verdict_is_the_trend_with_monotone_as_the_refuted_literal() -> None:
    claim = get_claim("ROPE-DECAY-BOUND-MONOTONE")
    kernel = claim.kernel()
    assert kernel.verdict == "proved", kernel.reason
    assert kernel.literal == "refuted"
    assert "Ropecheck.Decay128Trend.rope_decay_bound_monotone" in kernel.reason
    entry = claim.to_json()
    by_name = {t["theorem"]: t for t in entry["kernel_theorems"]}
    verdict = by_name["rope_decay_bound_monotone"]
    assert verdict["role"] == "verdict" and verdict["module"] == "Ropecheck.Decay128Trend"
    assert "(k < 7)%nat" in verdict["elaborated_statement"]
    literal = by_name["rope_decay_bound_monotone_literal_negation"]
    assert literal["role"] == "literal" and literal["status"] == "checked"
    assert "relative_bound (rope_spectrum 10000 64) 64 (INR D2)" in literal["elaborated_statement"]
    note = by_name["rope_decay_bound_monotone_literal_every_d_negation"]
    assert note["role"] == "literal" and note["status"] == "checked"
    assert "k = 7" in entry["interpretation"] and "B(179) < B(183)" in entry["literal"]["reading"]
    assert entry["literal"]["verdict"] == "refuted"


def test_claims_show_prints_the_trend_with_the_refuted_literal(capsys: pytest.CaptureFixture[str]) -> None:
    from ropecheck.cli._main import main

    assert main(["claims", "show", "ROPE-DECAY-BOUND-MONOTONE", "--no-numeric"]) == 0
    out = capsys.readouterr().out
    assert "(k < 7)%nat" in out and "[2ᵏ, 2ᵏ⁺¹)" in out
    assert "literal: The literal reading" in out and "refuted (kernel)" in out


@pytest.mark.deep
@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_trend_theorem_fails_on_wrong_statements() -> None:
    # the decrease claimed through k = 8; block k + 1 starting one distance early (it then holds block k's own
    # witness); distance 0 admitted (B(0) < B(0) is false). Each costs the checker's table (~5 CPU-s).
    outcomes = check_wrong_statements(
        {
            "rope_decay_bound_monotone": [
                ("(k < 7)%nat", "(k < 8)%nat"),
                ("(2 ^ (k + 1) <= D' <", "(2 ^ (k + 1) - 1 <= D' <"),
                ("(1 <= D <= 255)%nat", "(0 <= D <= 255)%nat"),
            ]
        }
    )
    results = outcomes["rope_decay_bound_monotone"]
    assert results[0] == "control accepted", results
    assert results[1:] == ["rejected"] * 3, results
