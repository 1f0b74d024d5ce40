"""Claims about long-range decay and linear attention with RoPE (the KV-cache claims are in `_claims_cache`)."""

from __future__ import annotations

import sympy as sp

from ..engine._formulas import (
    cosine_sum,
    delta,
    dot,
    elu_plus_one,
    m,
    n,
    real_vector,
    rope_frequencies,
    rotation,
    theta,
)
from ..engine._statements import AllOf, Claimed, Derivation, Identity, Induction, NonPositive, Refutation, Witness
from ._claim import Claim, Correction
from ._sources import BLOG_004, KATHAROPOULOS, NOTE_000, NOTE_001, ROFORMER, SUMMARY_002, quote

_SPECTRUM_128 = rope_frequencies(128)
_distance = sp.Symbol("Delta", integer=True)

# ------------------------------------------------------------------------ Abel summation (RoFormer)
_h_n, _h_next, _partial, _term, _tail = sp.symbols("h_n h_{n+1} S_n z_n T_n")


def _abel_right(h_last: sp.Expr, s_last: sp.Expr, tail: sp.Expr) -> sp.Expr:
    """`h_N·S_N − T_N` with `T_N = Σ_{i<N} S_{i+1}(h_{i+1} − h_i)`: the right side of Abel's identity."""
    return h_last * s_last - tail


_abel_induction = Induction(
    base=Identity(sp.Integer(0), _abel_right(sp.Symbol("h_0"), sp.Integer(0), sp.Integer(0)), name="N = 0"),
    step=Identity(
        _abel_right(_h_n, _partial, _tail) + _h_n * _term,
        _abel_right(_h_next, _partial + _term, _tail + (_partial + _term) * (_h_next - _h_n)),
        name="N → N+1",
    ),
    name="Abel summation for every length N",
    description="Σ_{i<N} h_i z_i = h_N S_N − Σ_{i<N} S_{i+1}(h_{i+1} − h_i), S_0 = 0, S_{j+1} = S_j + z_j",
)


def _abel_instance(length: int) -> Identity:
    weights = sp.symbols(f"h0:{length}")
    terms = [sp.exp(sp.I * _distance * t) for t in rope_frequencies(2 * length)]
    sums, running = [], sp.Integer(0)
    for z in terms:
        running = running + z
        sums.append(running)
    extended = [*weights, sp.Integer(0)]
    lhs = sp.Add(*[h * z for h, z in zip(weights, terms, strict=True)])
    rhs = -sp.Add(*[sums[i] * (extended[i + 1] - extended[i]) for i in range(length)])
    return Identity(lhs, rhs, name=f"cross-check: d = {2 * length}, h_{{d/2}} = 0, symbolic h")


_abel_bound = Derivation(
    [_abel_induction, _abel_instance(4)],
    rule="bound-by-maximum",
    conclusion=r"\Big|\sum_{i=0}^{d/2-1} h_i e^{i(m-n)\theta_i}\Big| = \Big|\sum_{i} S_{i+1}(h_{i+1}-h_i)\Big| "
    r"\le \big(\max_i |h_{i+1}-h_i|\big)\sum_{j=1}^{d/2}|S_j|",
)

# ------------------------------------------------------------------------ decay does not reach zero
_window = [sp.cos(_distance + j) ** 2 for j in range(3)]
_coefficient_cos = 1 + sp.cos(2) + sp.cos(4)
_coefficient_sin = sp.sin(2) + sp.sin(4)
_not_to_zero = Derivation(
    [
        Identity(
            sp.Add(*_window),
            sp.Rational(3, 2)
            + (_coefficient_cos * sp.cos(2 * _distance) - _coefficient_sin * sp.sin(2 * _distance)) / 2,
            name="cos²Δ + cos²(Δ+1) + cos²(Δ+2) in closed form",
        ),
        Witness(
            sp.Rational(3, 2) - sp.sqrt(_coefficient_cos**2 + _coefficient_sin**2) / 2 - 3 * sp.Rational(1, 4),
            {},
            relation="positive",
            name="3/2 − √(A²+B²)/2 > 3·(1/2)²",
            description="for q = k = e₁ (only pair 0, θ₀ = 1 for every d and base) the score is cos Δ; in every "
            "window of 3 consecutive distances some |cos| ≥ 1/2",
        ),
    ],
    rule="not-tending-to-zero",
    conclusion=r"\max_{j\in\{0,1,2\}}|\cos(\Delta+j)| \ge \tfrac12 \text{ for every integer } \Delta",
)


# ------------------------------------------------------------------------------------ linear attention
_q = real_vector("q", 2)
_k = real_vector("k", 2)
_phi_q = real_vector("a", 2)  # φ(q): the output of any feature map
_phi_k = real_vector("b", 2)


def _feature(vector: sp.Matrix) -> sp.Matrix:
    return vector.applyfunc(elu_plus_one)


def _seed_feature_score(m_pos: sp.Expr, n_pos: sp.Expr) -> sp.Expr:
    return dot(_feature(rotation(m_pos * theta) * _q), _feature(rotation(n_pos * theta) * _k))


_linear_count = 3
_values = [real_vector(f"v{j}_", 2) for j in range(_linear_count)]
_keys = [real_vector(f"b{j}_", 2) for j in range(_linear_count)]
_linear_time = Identity(
    sp.Matrix.hstack(*[(_phi_q.T * key)[0, 0] * value for key, value in zip(_keys, _values, strict=True)])
    * sp.ones(_linear_count, 1),
    (_phi_q.T * sp.Add(*[key * value.T for key, value in zip(_keys, _values, strict=True)])).T,
    name="Σ_n (aᵀb_n) v_n = (aᵀ Σ_n b_n v_nᵀ)ᵀ: one pass over the keys",
)

CLAIMS = [
    Claim(
        id="ROPE-DECAY-TO-ZERO",
        title="The RoPE score Σⱼ⟨qⱼ,kⱼ⟩cos((m−n)θⱼ) tends to 0 as |m−n| → ∞",
        topic="decay",
        latex=r"\sum_j \langle q_j,k_j\rangle\cos((m-n)\theta_j) \to 0 \quad (|m-n|\to\infty)",
        statement=Refutation(
            inner=Claimed("Σⱼ⟨qⱼ,kⱼ⟩cos((m−n)θⱼ) → 0 as |m−n| → ∞, for all q, k"),
            against=_not_to_zero,
        ),
        assumptions=("any even d and base (θ₀ = 1 always)", "q, k real"),
        sources=(
            quote(
                NOTE_000,
                "In other word, the net dot product approaches zero, $$\\text{Attention score} \\approx "
                "\\sum_i \\langle q_j, k_j \\rangle \\cos((m - n)\\theta_j) \\to 0 \\quad \\text{as } |m - n| \\to "
                "\\infty$$",
            ),
            quote(NOTE_001, "the net dot product approaches zero"),
        ),
        interpretation="A limit claim for all q, k. Refuted by q = k = e₁, for which the score is cos(Δ): it "
        "is at least 1/2 in absolute value somewhere in every window of 3 consecutive distances.",
        correction=Correction(
            latex=r"\Big|\sum_{i} h_i e^{i(m-n)\theta_i}\Big| \le \big(\max_i |h_{i+1}-h_i|\big)\sum_{j=1}^{d/2}|S_j|",
            statement=_abel_bound,
            explanation="What RoFormer proves (and the kernel checks, for every d) is this upper bound from Abel "
            "summation; the bound is not monotone but stays at or below its value at distance 0. The score itself "
            "does not tend to 0: for q = k = e₀ some |cos| ≥ 1/2 in every window of 3 distances, at every d.",
        ),
    ),
    Claim(
        id="ROPE-DECAY-BOUND",
        title="RoFormer's Abel-summation bound on the RoPE score",
        topic="decay",
        latex=r"\Big|\sum_{i=0}^{d/2-1} h_i e^{i(m-n)\theta_i}\Big| \le \big(\max_i|h_{i+1}-h_i|\big)"
        r"\sum_{j=1}^{d/2}|S_j|,\quad S_j = \sum_{k<j} e^{i(m-n)\theta_k},\ h_{d/2} = 0",
        statement=_abel_bound,
        assumptions=("h_i complex", "h_{d/2} = 0", "θ_i any reals", "length d/2 symbolic"),
        sources=(
            quote(ROFORMER, "§3.4.3, Eq. (37): |Σ h_i e^{i(m−n)θ_i}| ≤ (max_i |h_{i+1} − h_i|) Σ_{j=1}^{d/2} |S_j|"),
        ),
    ),
    Claim(
        id="ROPE-DECAY-BOUND-MONOTONE",
        title="The relative upper bound (2/d)Σⱼ|Sⱼ| decays as the relative distance grows (RoFormer Fig. 2's trend)",
        topic="decay",
        latex=r"B(\Delta) < B(0)\ (1 \le \Delta \le 255),\quad \max_{[2^{k+1},\,2^{k+2})} B < "
        r"\max_{[2^k,\,2^{k+1})} B\ (k = 0,\dots,6),\quad B(\Delta) = \frac{2}{d}\sum_{j=1}^{d/2}|S_j(\Delta)|\ "
        r"(d = 128,\ \text{base } 10000,\ \Delta \in \mathbb{N})",
        statement=Claimed(
            "at d = 128, base 10000: B(Δ) < B(0) for every integer 1 ≤ Δ ≤ 255, and the maxima of B over the "
            "blocks [2ᵏ, 2ᵏ⁺¹) strictly decrease for k = 0 … 7"
        ),
        assumptions=(
            "d = 128 (h = 64 pairs), base 10000, integer distances, as in RoFormer's Fig. 2",
            "blocks [2ᵏ, 2ᵏ⁺¹) for k = 0 … 7: distances 1 … 255 (the figure's range); [256, 512) rises again",
        ),
        sources=(
            quote(
                ROFORMER,
                'Abstract: "decaying inter-token dependency with increasing relative distances"; '
                "Fig. 2 plots the relative upper bound for d = 128 against the relative distance",
            ),
            quote(BLOG_004, "causing a gradual decay"),
        ),
        interpretation="RoFormer's abstract promises 'decaying inter-token dependency with increasing relative "
        "distances' and Fig. 2 plots the relative upper bound B for d = 128, base 10000, against integer "
        "distances, a curve that visibly oscillates; a referee reads the claim as the trend the figure shows: B "
        "stays below its value at distance 0 (B(Δ) < B(0) = 65/2 for 1 ≤ Δ ≤ 255) and its maxima over the blocks "
        "[2ᵏ, 2ᵏ⁺¹) strictly decrease for k = 0 … 7 (≈ 31.54, 28.96, 22.60, 19.82, 15.77, 13.38, 11.87, 10.72). "
        "The statement stops at k = 7, which covers the figure's range: the block [256, 512) rises again "
        "(maximum ≈ 11.19 at Δ = 378). Proved (theorem rope_decay_bound_monotone, Decay128Trend.v): the first "
        "half for every real Δ ≠ 0 (Decay.v), the blocks by a checker run by `vm_compute` — the 64 unit phases "
        "e^{iθ_k} enclosed within 2⁻²² by `interval`, their powers up to Δ = 255 formed by rounded rotations on "
        "63-bit machine integers with a proved error bound, Σⱼ|Sⱼ(Δ)| bounded above and below through floor square "
        "roots.",
        literal="The literal reading, kept as a kernel-checked note: B is monotone (non-increasing) over integer "
        "distances at d = 128 — refuted, B(179) < B(183) (≈ 7.37 against ≈ 10.72; "
        "rope_decay_bound_monotone_literal_negation, Decay128.v); read over every even d it fails already at "
        "d = 4, B(4) > B(3) (rope_decay_bound_monotone_literal_every_d_negation).",
        mirror={"kind": "decay-trend"},
    ),
    Claim(
        id="ROPE-DECAY-MONOTONE",
        title="Attention scores shrink as the relative distance increases",
        topic="decay",
        latex=r"|m-n| < |m'-n'| \Rightarrow |\mathrm{score}(m',n')| \le |\mathrm{score}(m,n)|",
        statement=NonPositive(
            sp.Abs(cosine_sum(sp.Integer(12), _SPECTRUM_128)) - sp.Abs(cosine_sum(sp.Integer(11), _SPECTRUM_128)),
            hints=({},),
            name="|score(12)| − |score(11)| ≤ 0 for q = k = (1, 0, 1, 0, …)",
            terms={
                "|score(11)|": sp.Abs(cosine_sum(sp.Integer(11), _SPECTRUM_128)),
                "|score(12)|": sp.Abs(cosine_sum(sp.Integer(12), _SPECTRUM_128)),
            },
        ),
        assumptions=(
            "every even d ≥ 2, base 10000, integer positions (the kernel: q = k = e₀)",
            "the engine's instance: d = 128, q = k with every pair (1, 0)",
        ),
        sources=(
            quote(NOTE_000, "it induces a natural decay in inter-token dependency as the relative distance increases"),
            quote(
                NOTE_001,
                "Due to the orthogonality of frequency components it naturally decays as with increasing $|m - n|$.",
            ),
            quote(
                BLOG_004, "the RoFormer paper proves that the attention scores naturally shrink as distance increases"
            ),
        ),
        interpretation="Read as: for given q, k, the absolute score is non-increasing in the distance.",
        correction=Correction(
            latex=r"|\mathrm{score}(m,n)| \le (\max_i|h_{i+1}-h_i|)\sum_j|S_j(m-n)|\ \text{(RoFormer's bound)}",
            statement=_abel_bound,
            explanation="Scores of particular q, k oscillate with distance. What holds is RoFormer's bound; the "
            "bound is not monotone either, but never exceeds its value at distance 0 (ROPE-DECAY-BOUND-MONOTONE).",
        ),
    ),
    Claim(
        id="ROPE-LINEAR-ATTENTION-SEED",
        title=r"With $\phi(q, m) = \phi(R_m q)$, linear attention keeps RoPE's relative-position property",
        topic="linear-attention",
        latex=r"\phi(R_{m+\delta}q)^\top\phi(R_{n+\delta}k) = \phi(R_m q)^\top\phi(R_n k),\ \phi = "
        r"\mathrm{elu}+1",
        statement=Identity(
            _seed_feature_score(m + delta, n + delta),
            _seed_feature_score(m, n),
            hints=({m: 0, n: 0, delta: 2, theta: 1, _q[0]: 1, _q[1]: 0, _k[0]: 1, _k[1]: 0},),
        ),
        assumptions=("φ = elu + 1 elementwise (the linear-attention feature map)", "d = 2"),
        sources=(
            quote(
                NOTE_000,
                "where $\\phi(q, m) = \\phi(\\mathbf{R}_m q)$ is kernel feature map. This allows RoPE to "
                "integrate into linear attention architecture",
            ),
            quote(NOTE_001, "where $\\phi(q, m) = \\phi(\\mathbf{R}_m q)$ is kernel feature map."),
            quote(KATHAROPOULOS, "φ(x) = elu(x) + 1"),
        ),
        interpretation="The seed writes the feature map as φ(R_m q) and claims, in the same paragraph, that "
        "linear-time variants thereby 'incorporate relative position information' ('remain sensitive to "
        "relative distance'); a referee reads the sentence with that purpose: with φ(R_m q), φ(R_n k) the "
        "numerator score depends on m − n only (invariant under a common shift δ) — refuted (elu + 1, d = 2, "
        "q = k = e₀, m = n = 0, δ = 2).",
        literal="Another reading, the words alone: RoPE can be integrated into linear attention — the rotated "
        "numerator still factorises over keys, so the linear-time sum exists (proved).",
        correction=Correction(
            latex=r"(R_m\phi(q))^\top(R_n\phi(k)) = \phi(q)^\top R_{n-m}\phi(k)",
            statement=Identity(
                dot(rotation(m * theta) * _phi_q, rotation(n * theta) * _phi_k),
                (_phi_q.T * rotation((n - m) * theta) * _phi_k)[0, 0],
            ),
            explanation="Rotate *after* the feature map, as RoFormer Eq. (19) does; a non-linear φ applied "
            "after the rotation destroys the relative structure.",
        ),
    ),
    Claim(
        id="ROPE-LINEAR-ATTENTION-ROFORMER",
        title="RoFormer Eq. 19: rotated feature maps give relative scores and a linear-time sum",
        topic="linear-attention",
        latex=r"(R_m\phi(q_m))^\top(R_n\phi(k_n)) = \phi(q_m)^\top R_{n-m}\phi(k_n),\ "
        r"\sum_n (\cdot)\,v_n = (R_m\phi(q_m))^\top\sum_n R_n\phi(k_n)v_n^\top",
        statement=AllOf(
            [
                Identity(
                    dot(rotation(m * theta) * _phi_q, rotation(n * theta) * _phi_k),
                    (_phi_q.T * rotation((n - m) * theta) * _phi_k)[0, 0],
                    name="numerator score depends on n − m only",
                ),
                _linear_time,
            ]
        ),
        assumptions=("φ(q), φ(k) arbitrary real vectors (any feature map)", "3 keys in the linear-time check"),
        sources=(
            quote(ROFORMER, "Eq. (19): Attention(Q,K,V)_m = Σ_n (R_m φ(q_m))ᵀ(R_n φ(k_n)) v_n / Σ_n φ(q_m)ᵀφ(k_n)"),
            quote(SUMMARY_002, "Compatible with linear attention (unlike additive methods)."),
        ),
        interpretation="The denominator keeps un-rotated features (RoFormer does this to avoid division by "
        "zero); the claim concerns the numerator.",
    ),
]
