"""An integer twin of Decay128Trend.v's checker, shared by the tests of the claims it decides
(ROPE-DECAY-BOUND-MONOTONE, PI-B-EXCEEDS-D): the same rounded rotations (a shift by 2²²), floor square roots and slack
as the kernel's; and B(s) from the paper's definition in mpmath, independent of the ledger's formulas."""

from __future__ import annotations

import math

import mpmath
from ropecheck.proofs.claims._decay128_gen import HALF_DIMENSION, PHASE_RADIUS, PHASE_SCALE_BITS

ONE = (1 << PHASE_SCALE_BITS, 0)
"""1 over the scale 2²²: the start of Decay128Trend's powers."""


def rotate(points: list[tuple[int, int]], centres: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Decay128Trend.step_all: each point times its centre over 2²², each coordinate rounded down."""
    return [
        ((wx * cx - wy * cy) >> PHASE_SCALE_BITS, (wx * cy + wy * cx) >> PHASE_SCALE_BITS)
        for (wx, wy), (cx, cy) in zip(points, centres, strict=True)
    ]


def bounds(points: list[tuple[int, int]], steps: int) -> tuple[int, int]:
    """Decay128Trend.bounds_of: (lower, upper) bounds of 2²²·Σⱼ|Sⱼ| from 64 points formed by `steps` rotations."""
    x = y = roots = 0
    for px, py in points:
        x, y = x + px, y + py
        roots += math.isqrt(x * x + y * y)
    slack = HALF_DIMENSION * HALF_DIMENSION * steps * (4 * PHASE_RADIUS + 2)
    return roots - slack, roots + HALF_DIMENSION + slack


def independent_b(position: int) -> mpmath.mpf:
    """PI's B(s) = Σ_{k<64}|A_{k+1}(s)| at 30 digits: θ_j = 10000^(−2j/128), A_k(s) = Σ_{j<k} e^{isθ_j}."""
    with mpmath.workdps(30):
        partial, total = mpmath.mpc(0), mpmath.mpf(0)
        for j in range(128 // 2):
            partial += mpmath.exp(1j * position * mpmath.mpf(10000) ** (mpmath.mpf(-2 * j) / 128))
            total += abs(partial)
        return total
