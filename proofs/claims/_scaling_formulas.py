"""The context-extension formulas as SymPy expressions, in one place (claims of `_claims_scaling`; the Coq
definitions are `proofs/coq/DefsScaling.v`). The numeric mirrors (`numeric/mirrors/_scaling.py`) and the per-config
lines (`numeric/audit/model_config/_literature.py`) evaluate these, never a restatement.

Smooth parts only: the branches (YaRN's γ, the code's clamp, floor/ceil) are applied to the evaluated values by the
callers, the same way in every format.
"""

from __future__ import annotations

import sympy as sp

s, mu, length, base, pair, half, distance = sp.symbols("s mu L b i n r", positive=True)


def mscale(factor: sp.Expr = s, weight: sp.Expr = mu) -> sp.Expr:
    """DeepSeek's g(s, μ) = 0.1 μ ln s + 1 (YaRN's √(1/t) at μ = 1; s > 1). Claims YARN-TEMPERATURE,
    DEEPSEEK-V2-MSCALE, DEEPSEEK-V3-MSCALE."""
    return weight * sp.log(factor) / 10 + 1


def longrope_factor(factor: sp.Expr = s, original: sp.Expr = length) -> sp.Expr:
    """√(1 + ln s / ln L₀) (LONGROPE-ATTENTION-SCALE)."""
    return sp.sqrt(1 + sp.log(factor) / sp.log(original))


def frequency(index: sp.Expr = pair, pairs: sp.Expr = half, rope_base: sp.Expr = base) -> sp.Expr:
    """θᵢ = b^(−i/n), d = 2n."""
    return rope_base ** (-index / pairs)


def wavelength_ratio(index: sp.Expr = pair, pairs: sp.Expr = half, rope_base: sp.Expr = base) -> sp.Expr:
    """YaRN's r(i) = L / λᵢ = L θᵢ / (2π) (Eq. 17 with Eq. 13's base)."""
    return length * frequency(index, pairs, rope_base) / (2 * sp.pi)


def correction_dim(beta: sp.Expr, pairs: sp.Expr = half, rope_base: sp.Expr = base) -> sp.Expr:
    """The implementations' i_c(β) = d ln(L/(2πβ)) / (2 ln b), d = 2n (also Liu et al.'s critical index at β = 1)."""
    return pairs * sp.log(length / (2 * sp.pi * beta)) / sp.log(rope_base)


def ntk_frequency(index: sp.Expr = pair, pairs: sp.Expr = half, rope_base: sp.Expr = base) -> sp.Expr:
    """θ′ᵢ with the NTK-aware base b′ = b s^(n/(n−1)) (NTK-ENDPOINTS, NTK-OUT-OF-BOUND)."""
    return (rope_base * s ** (pairs / (pairs - 1))) ** (-index / pairs)


def all_ones_score(thetas: list[sp.Expr], at: sp.Expr = distance) -> sp.Expr:
    """2 Σᵢ cos(r θᵢ): the score of all-ones q = k at distance r (XIONG-SCORE-DECAY)."""
    return sp.Add(*[2 * sp.cos(at * theta) for theta in thetas])


def pi_midpoint_error(thetas: list[sp.Expr]) -> sp.Expr:
    """a(1/2) − (a(0) + a(1))/2 for h_j = 1 (PI-INTERPOLATION-BOUND at s₁ = 0, s₂ = 1, s = 1/2)."""
    half_step = sp.Rational(1, 2)
    return sp.Add(*[sp.cos(half_step * theta) - (1 + sp.cos(theta)) / 2 for theta in thetas])


def pi_midpoint_bound(dimension: int, c: sp.Expr) -> sp.Expr:
    """Theorem 2.1's right side at s₁ = 0, s₂ = 1, s = 1/2, max|h| = 1: d/(32 ln c)."""
    return sp.Integer(dimension) / (32 * sp.log(c))


def pi_midpoint_tight_bound(thetas: list[sp.Expr]) -> sp.Expr:
    """The corrected Theorem 2.1's right side at s₁ = 0, s₂ = 1, s = 1/2, max|h| = 1: (Σⱼ θⱼ²/2)·(1/4)
    (PI-INTERPOLATION-BOUND's correction)."""
    return sp.Add(*[theta**2 for theta in thetas]) / 8


def nope_readout(token: sp.Expr) -> sp.Expr:
    """1/(t+1): what token t (0-based) reads from a uniform causal layer with a first-token value
    (NOPE-POSITION-READOUT)."""
    return 1 / (token + 1)


def qwen_context_value(ratio: sp.Expr) -> sp.Expr:
    """log₂(l′/L) + 1, the quantity Qwen-1 rounds up (α = max(2^⌈·⌉ − 1, 1); QWEN-DYNAMIC-NTK)."""
    return sp.log(ratio) / sp.log(2) + 1


XPOS_ZETA0 = sp.Rational(2, 7)
"""ζ₀ = (0 + 0.4d)/(1.4d) for every d."""


def xpos_scale(position: sp.Expr, zeta: sp.Expr = XPOS_ZETA0, scale_base: int = 512) -> sp.Expr:
    """ζ^(p/B) (XPOS-FP16-RANGE; ζ₀ = 2/7, B = 512)."""
    return zeta ** (position / scale_base)


def t5_log_term(offset: sp.Expr, buckets: int, max_distance: int) -> sp.Expr:
    """ln(n/E)/ln(D/E)·(B − E), E = B/2: the quantity T5's bucket floors (T5-BUCKET-SATURATION)."""
    exact = buckets // 2
    return sp.log(offset / exact) / sp.log(sp.Rational(max_distance, exact)) * (buckets - exact)
