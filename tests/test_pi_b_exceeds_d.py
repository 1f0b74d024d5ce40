"""PI-B-EXCEEDS-D: Positional Interpolation's B(s) = Σ_{k<64}|A_{k+1}(s)| > d = 128 for every integer s < 4096.

`InterpolationSizes.v` decides it with Decay128Trend.v's checker run from anchors: s = 256a + r is a rotations by
the enclosed anchors e^{i·256θ_k} (`Decay128Anchors.v`) and r by the unit phases, every value rounded down by a
shift, the sum bounded through floor square roots with slack 64²·(a + r)·(4·radius + 2). Here an integer twin of
that checker shows its margins (it certifies B > 141, so the theorem's 141 is the checker's answer, and it cannot
certify 143: the minimum is ≈ 142.84 at s = 3643), and an mpmath computation written independently of the ledger's
formulas checks the twin's bounds and the consequence's constants. The kernel's refusals: an anchor moved past its
enclosure and PI's ratio lowered below the least ratio (`test_claim_readings.py`); the verdict's own wrong
statements (B > 143, a ratio of 572, s up to 4351) cost the whole checker each and run under `--deep`.
"""

from __future__ import annotations

import functools

import mpmath
import pytest
from ropecheck.proofs import coq_available
from ropecheck.proofs.claims._decay128_gen import (
    ANCHOR_BLOCKS,
    ANCHOR_STEP,
    HALF_DIMENSION,
    PHASE_SCALE_BITS,
    unit_phase_centres,
)

from ._checker_twin import ONE, bounds, independent_b, rotate
from ._wrong_statements import check_wrong_statements
from .test_scaling_kernel import PERTURBATIONS

SCALE = 1 << PHASE_SCALE_BITS


@functools.cache
def _anchored_table() -> tuple[tuple[int, int], ...]:
    """InterpolationSizes.block_table a for a < 16, concatenated: the bounds of 2²²·B(s), s < 4096."""
    anchors, units = unit_phase_centres(ANCHOR_STEP), unit_phase_centres()
    start = [ONE] * HALF_DIMENSION
    table = []
    for block in range(ANCHOR_BLOCKS):
        points = start
        for offset in range(ANCHOR_STEP):
            table.append(bounds(points, block + offset))
            points = rotate(points, units)
        start = rotate(start, anchors)
    return tuple(table)


def test_anchored_checker_twin_certifies_141_and_not_143() -> None:
    table = _anchored_table()
    assert len(table) == 4096
    lowest = min(range(4096), key=lambda s: table[s][0])
    floor = table[lowest][0] / SCALE
    # the theorem's certified_floor = 141 passes at every s; 143 (above the true minimum 142.84) cannot
    assert 141 < floor < 143, (lowest, floor)
    # the literal's upper bound at s = 3643 = 256·14 + 59: B(3643) ≤ 146
    assert table[3643][1] <= 146 * SCALE
    # the same checker run by rotations from 1 (Decay128Trend's powers) loses the margin long before s = 4095:
    # its slack after 4095 rotations alone exceeds B − 141
    lower, upper = bounds([ONE] * HALF_DIMENSION, 4095)
    assert upper - lower > 2 * 14 * SCALE


def test_twin_bounds_enclose_an_independent_mpmath_b() -> None:
    table = _anchored_table()
    for position in (0, 1, 255, 256, 257, 3643, 4095):
        value = independent_b(position)
        lower, upper = table[position]
        assert lower / SCALE <= value <= upper / SCALE, (position, lower / SCALE, value, upper / SCALE)
    # the minimum and the consequence: 16·B/Σθ² at s = 3643 lies between the proved 564 and PI's 2·294.73
    assert abs(independent_b(3643) - mpmath.mpf("142.836217")) < 1e-5
    squares = mpmath.fsum(mpmath.mpf(10000) ** (mpmath.mpf(-4 * j) / 128) for j in range(64))
    assert 3.998 <= squares <= 4
    assert 564 < 16 * independent_b(3643) / squares < 2 * mpmath.mpf("294.73")
    # a wrong B (the sum taken over A_k, k = 0 … 63, i.e. one partial sum short) is not enclosed at s = 0
    assert not (table[0][0] / SCALE <= independent_b(0) - 64 <= table[0][1] / SCALE)


@pytest.mark.deep
@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_pi_b_theorem_fails_on_wrong_statements() -> None:
    # the range one block longer (the checker's 17th block is not run); B > 143 (above the minimum 142.84); the ratio
    # 572 (above the least 571.6); PI's own arithmetic against B instead of 2B (589.46·d/(32 ln c) ≈ 256 > B).
    # The first re-runs the checker over 4096 positions (~5 CPU-s); the others re-check what follows from it.
    # The bound theorems' perturbations are test_scaling_kernel.PERTURBATIONS' (one place for each).
    bound = ("pi_b_exceeds_d", "pi_extrapolation_ratio_correction", "pi_extrapolation_ratio_literal")
    outcomes = check_wrong_statements(
        {"pi_b_above_floor": [("(s < 4096)%nat", "(s < 4352)%nat")], **{name: PERTURBATIONS[name] for name in bound}}
    )
    for name, results in outcomes.items():
        assert results == ["control accepted", "rejected"], (name, results)
