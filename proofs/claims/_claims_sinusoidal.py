"""Claims about the sinusoidal encoding (SPE-*); the relative position biases (RPE-*) are in `_claims_relative`."""

from __future__ import annotations

import sympy as sp

from ..engine._formulas import (
    cosine_sum,
    d_dim,
    delta,
    dot,
    i_index,
    omega,
    p,
    q_pos,
    real_matrix,
    real_vector,
    rotation,
    sinusoidal_encoding,
    sinusoidal_frequency,
)
from ..engine._statements import AllOf, Claimed, Derivation, Identity, Witness
from ._claim import Claim, Correction
from ._sources import BLOG_004, EXPLAINER_003, NOTE_000, NOTE_001, VASWANI, quote

_ONE = sp.Integer(1)
_SPECTRUM_8 = [sinusoidal_frequency(sp.Integer(i), sp.Integer(8)) for i in range(4)]
_SPECTRUM_128 = [sinusoidal_frequency(sp.Integer(i), sp.Integer(128)) for i in range(64)]


def _pair(position: sp.Expr) -> sp.Matrix:
    """One `(sin, cos)` pair of the sinusoidal encoding at frequency ω."""
    return sinusoidal_encoding(position, [omega])


def _clockwise(angle: sp.Expr) -> sp.Matrix:
    """`[[cos a, sin a], [−sin a, cos a]]`, the matrix written in 001 (the transpose of `rotation(a)`)."""
    return rotation(angle).T


# ----------------------------------------------------------------------------------- SPE-DOT-RELATIVE
_dot_relative = Derivation(
    [
        Identity(dot(_pair(p), _pair(q_pos)), sp.cos(omega * (p - q_pos)), name="one frequency (generic ω)"),
        Identity(
            dot(sinusoidal_encoding(p, _SPECTRUM_8), sinusoidal_encoding(q_pos, _SPECTRUM_8)),
            cosine_sum(p - q_pos, _SPECTRUM_8),
            name="cross-check: d = 8, base 10000",
        ),
    ],
    rule="termwise",
    conclusion=r"\langle \mathrm{PE}(p), \mathrm{PE}(q)\rangle = \sum_{i=0}^{d/2-1}\cos(\omega_i(p-q))",
)

# ------------------------------------------------------------------------------------ shift rotations
_shift_001 = AllOf(
    [
        Identity(_pair(p + delta), _clockwise(omega * delta) * _pair(p), name="one (sin, cos) pair"),
        Identity(
            sinusoidal_encoding(p + delta, _SPECTRUM_8[:2]),
            sp.diag(*[_clockwise(w * delta) for w in _SPECTRUM_8[:2]]) * sinusoidal_encoding(p, _SPECTRUM_8[:2]),
            name="block-diagonal cross-check, two frequencies",
        ),
    ]
)

_shift_004_as_written = Identity(
    _pair(p + delta), rotation(omega * delta) * _pair(p), hints=({p: 0, delta: 1, omega: 1},)
)
_shift_004_corrected = AllOf(
    [
        Identity(_pair(p + delta), rotation(omega * delta).T * _pair(p), name="(sin, cos) order: Rᵀ"),
        Identity(
            sp.Matrix([sp.cos(omega * (p + delta)), sp.sin(omega * (p + delta))]),
            rotation(omega * delta) * sp.Matrix([sp.cos(omega * p), sp.sin(omega * p)]),
            name="(cos, sin) order: R",
        ),
    ]
)

# --------------------------------------------------------------------------------------- frequencies
_frequency_corrected = Identity(
    sp.sin(p * sinusoidal_frequency(i_index, d_dim)), sp.sin(p / sp.Integer(10000) ** (2 * i_index / d_dim))
)
# The frequency meant, formed as implementations form it (exp(−(2i/d)·ln 10000), Vaswani et al.'s `div_term`), against
# 004's PE_{p,2i} = sin(p / 10000^{2i/d}): two computations the mirrors compare (SymPy keeps the exp form apart).
_frequency_meant = Identity(
    sp.sin(p * sp.exp(-2 * i_index * sp.log(10000) / d_dim)), sp.sin(p / sp.Integer(10000) ** (2 * i_index / d_dim))
)


_TYPICAL_LENGTH = sp.Integer(8192)
"""The longest 'typical sequence length' SPE-SLOWEST-WAVE-004 is stated for (4× the usual 2048)."""


def _slowest_wavelength(dimension: int) -> sp.Expr:
    """2π/ω_{d/2−1} = 2π·10000^{1−2/d}: the wavelength of the slowest pair at dimension `dimension`."""
    return 2 * sp.pi / sinusoidal_frequency(sp.Integer(dimension // 2 - 1), sp.Integer(dimension))


def _wavelength(index: sp.Expr) -> sp.Expr:
    return 2 * sp.pi / sinusoidal_frequency(index, d_dim)


def _wavelength_statement(longest: sp.Expr, longest_name: str, hints: tuple = ()) -> AllOf:
    """Shortest wavelength, geometric ratio, and the claimed longest wavelength `longest`."""
    return AllOf(
        [
            Identity(_wavelength(sp.Integer(0)), 2 * sp.pi, name="shortest wavelength is 2π"),
            Identity(
                _wavelength(i_index + 1) / _wavelength(i_index),
                sp.Integer(10000) ** (2 / d_dim),
                name="geometric progression, ratio 10000^(2/d)",
            ),
            Identity(_wavelength(d_dim / 2 - 1), longest, name=longest_name, hints=hints),
        ]
    )


_wavelength_corrected = _wavelength_statement(
    2 * sp.pi * sp.Integer(10000) ** (1 - 2 / d_dim), "longest wavelength is 2π·10000^(1−2/d)"
)

# ------------------------------------------------------------------------------- token sum and Q/K
_token_a = sp.Matrix([1, 0])
_token_b = sp.Matrix([0, 1])


def _token_score(pos_a: sp.Expr, pos_b: sp.Expr) -> sp.Expr:
    return dot(_token_a + sinusoidal_encoding(pos_a, [_ONE]), _token_b + sinusoidal_encoding(pos_b, [_ONE]))


_W_Q = real_matrix("wq", 2, 2)
_W_K = real_matrix("wk", 2, 2)
_x_p = real_vector("x", 2)
_x_q = real_vector("y", 2)
_pe_p = real_vector("u", 2)
_pe_q = real_vector("v", 2)
_qk_terms = [
    dot(_W_Q * _x_p, _W_K * _x_q),
    dot(_W_Q * _x_p, _W_K * _pe_q),
    dot(_W_Q * _pe_p, _W_K * _x_q),
    dot(_W_Q * _pe_p, _W_K * _pe_q),
]
_qk_lhs = dot(_W_Q * (_x_p + _pe_p), _W_K * (_x_q + _pe_q))


def _projected_encoding_score(pos_a: sp.Expr, pos_b: sp.Expr, middle: sp.Matrix) -> sp.Expr:
    """`PE(a)ᵀ M PE(b)` for one frequency: the last term with `M = W_Qᵀ W_K`."""
    return (_pair(pos_a).T * middle * _pair(pos_b))[0, 0]


_alpha, _beta = sp.symbols("alpha beta", real=True)
_scaled_rotation = sp.Matrix([[_alpha, -_beta], [_beta, _alpha]])
_last_term_as_written = Identity(
    _projected_encoding_score(p + delta, q_pos + delta, _W_Q.T * _W_K),
    _projected_encoding_score(p, q_pos, _W_Q.T * _W_K),
    hints=(
        {**{s: 0 for s in _W_Q}, _W_Q[0, 0]: 1, **{s: 0 for s in _W_K}, _W_K[0, 0]: 1, _W_K[1, 1]: 1}
        | {p: 0, q_pos: 0, delta: 1, omega: 1},
    ),
)
_last_term_corrected = Identity(
    _projected_encoding_score(p + delta, q_pos + delta, _scaled_rotation),
    _projected_encoding_score(p, q_pos, _scaled_rotation),
)


def _spe_dot(distance: int) -> sp.Expr:
    return cosine_sum(sp.Integer(distance), _SPECTRUM_128)


# ------------------------------------------------------------------------------ averaging (Dirichlet)
_count = sp.Symbol("N", integer=True, positive=True)
_half = sp.Symbol("u", positive=True)  # u = ω/2


def _dirichlet_closed_form(count: sp.Expr) -> sp.Expr:
    """`Σ_{Δ=0}^{N−1} cos(2uΔ) = sin(N u)·cos((N−1)u) / sin(u)`."""
    return sp.sin(count * _half) * sp.cos((count - 1) * _half) / sp.sin(_half)


_averages_out = Derivation(
    [
        Identity(sp.cos(0 * _half), _dirichlet_closed_form(sp.Integer(1)), name="closed form, N = 1"),
        Identity(
            _dirichlet_closed_form(_count) + sp.cos(2 * _half * _count),
            _dirichlet_closed_form(_count + 1),
            name="closed form, step N → N+1 (induction)",
        ),
        AllOf(
            [
                Witness(sp.sin(w / 2), {}, relation="positive", name=f"sin(ω_{k}/2) > 0")
                for k, w in enumerate(_SPECTRUM_128)
            ],
            name="sin(ω_i/2) > 0 for every frequency of d = 128, base 10000 (in general ω_i/2 ∈ (0, 1/2])",
        ),
    ],
    rule="limit-of-bounded-over-n",
    conclusion=r"\Big|\frac1N\sum_{\Delta=0}^{N-1}\sum_i\cos(\omega_i\Delta)\Big| \le "
    r"\frac1N\sum_i\frac{1}{\sin(\omega_i/2)} \to 0",
)

_DISTINCT = "each pair of dimensions corresponds to a sinusoid at a distinct wavelength"

CLAIMS = [
    Claim(
        id="SPE-DOT-RELATIVE",
        title="The dot product of two sinusoidal encodings depends only on p − q",
        topic="sinusoidal",
        latex=r"\langle \mathrm{PE}(p), \mathrm{PE}(q)\rangle = \sum_{i=0}^{d/2-1}\cos(\omega_i(p-q))",
        statement=_dot_relative,
        assumptions=("p, q integers", "ω_i > 0", "d even"),
        sources=(
            quote(
                NOTE_001,
                "$$\\langle \\text{PE}(p), \\text{PE}(q) \\rangle = \\sum_{i=0}^{d/2 - 1} "
                "\\cos\\left(\\omega_i (p - q)\\right)$$",
            ),
        ),
    ),
    Claim(
        id="SPE-SHIFT-ROTATION",
        title="A shift by Δ acts on each (sin, cos) pair by the matrix [[cos, sin], [−sin, cos]]",
        topic="sinusoidal",
        latex=r"\begin{bmatrix}\sin\omega_i(p+\Delta)\\\cos\omega_i(p+\Delta)\end{bmatrix} = "
        r"\begin{bmatrix}\cos\omega_i\Delta & \sin\omega_i\Delta\\-\sin\omega_i\Delta & \cos\omega_i\Delta"
        r"\end{bmatrix}\begin{bmatrix}\sin\omega_i p\\\cos\omega_i p\end{bmatrix}",
        statement=_shift_001,
        assumptions=("p, Δ integers", "ω > 0"),
        sources=(
            quote(
                NOTE_001,
                "\\begin{bmatrix} \\cos(\\omega_i \\Delta) & \\sin(\\omega_i \\Delta) \\\\ "
                "-\\sin(\\omega_i \\Delta) & \\cos(\\omega_i \\Delta) \\end{bmatrix} ... So, "
                "$$\\text{PE}(p + \\Delta) = R(\\Delta) \\cdot \\text{PE}(p)$$",
            ),
        ),
        interpretation="The equation holds as written. Its matrix is the *clockwise* rotation, i.e. R(−ω_iΔ) in "
        "the counter-clockwise convention RoPE uses; the label 'R(ω_iΔ)' is right only under a clockwise "
        "convention (because the pairs are ordered (sin, cos)).",
    ),
    Claim(
        id="SPE-SHIFT-ROTATION-004",
        title=r"004: $PE_{p+k}$ is the counter-clockwise rotation $R(k\theta)$ of $PE_p$",
        topic="sinusoidal",
        latex=r"PE_{p+k} = \begin{bmatrix}\cos k\theta & -\sin k\theta\\ \sin k\theta & \cos k\theta"
        r"\end{bmatrix} PE_p",
        statement=_shift_004_as_written,
        assumptions=("PE_p = (sin pθ, cos pθ) for one pair, as defined in 004", "p, k integers", "θ > 0"),
        sources=(
            quote(
                BLOG_004,
                "PE_{p+k} = \\begin{bmatrix} \\cos(k\\theta_1) & -\\sin(k\\theta_1) \\\\ "
                "\\sin(k\\theta_1) & \\cos(k\\theta_1) \\end{bmatrix} PE_p",
            ),
        ),
        interpretation="004 defines PE_{p,2i} = sin, PE_{p,2i+1} = cos, so a pair is (sin, cos); the symbol k of "
        "the seed is Δ here.",
        correction=Correction(
            latex=r"PE_{p+k} = R(k\theta)^\top PE_p \text{ for (sin, cos) pairs; } "
            r"(\cos,\sin)_{p+k} = R(k\theta)\,(\cos,\sin)_p",
            statement=_shift_004_corrected,
            explanation="With the (sin, cos) ordering the shift is the transpose (clockwise) rotation; the "
            "counter-clockwise R(kθ) is right for (cos, sin) pairs.",
        ),
    ),
    Claim(
        id="SPE-FREQUENCY-004",
        title=r"004: the frequency of pair i is the reciprocal of $10000^{2i/d}$ (written $\omega_i = 10000^{2i/d}$)",
        topic="sinusoidal",
        latex=r"\omega_i = \frac{1}{10000^{2i/d}} = 10000^{-2i/d},\quad \sin(\omega_i p) = "
        r"\sin\!\big(p / 10000^{2i/d}\big)\ (0 \le i < d/2)",
        statement=_frequency_meant,
        assumptions=(
            "p real (every integer position included)",
            "0 ≤ i < d/2 integer (the pair index)",
            "d even positive integer",
        ),
        sources=(
            quote(BLOG_004, "Why use a frequency $\\omega_i = 10000^{2i/d}$?"),
            quote(BLOG_004, "PE_{p,2i} = \\sin\\bigl(\\tfrac{p}{10000^{2i/d}}\\bigr)"),
        ),
        interpretation="The same post defines PE_{p,2i} = sin(p / 10000^{2i/d}), with 10000^{2i/d} in the "
        "denominator, so a referee reads 'a frequency ω_i = 10000^{2i/d}' as naming the term that sets pair i's "
        "frequency, which is its reciprocal: ω_i = 10000^{−2i/d} and sin(ω_i p) = sin(p / 10000^{2i/d}) — proved "
        "for every even d, 0 ≤ i < d/2 and every real p (theorem spe_frequency_004).",
        literal="The formula as printed, ω_i = 10000^{2i/d} taken as the angular frequency in sin(ω_i p) — false "
        "(the kernel refutes it inside the domain: d = 4, i = 1, p = 1 give sin 100 < 0 < sin(1/100); "
        "spe_frequency_004_literal_negation).",
        correction=Correction(
            latex=r"\omega_i = 10000^{-2i/d}",
            statement=_frequency_corrected,
            explanation="For the printed formula: 10000^{2i/d} divides the position; it is the wavelength over "
            "2π, not the frequency.",
        ),
    ),
    Claim(
        id="SPE-WAVELENGTH-RANGE",
        title="The wavelengths form a geometric progression from 2π up to 10000·2π",
        topic="sinusoidal",
        latex=r"\lambda_0 = 2\pi,\ \lambda_{i+1} = 10000^{2/d}\lambda_i,\ 2\pi \le \lambda_i < 10000\cdot 2\pi"
        r"\ (0 \le i < \tfrac d2)",
        statement=_wavelength_corrected,
        assumptions=("d even positive integer", "i = 0 … d/2 − 1"),
        sources=(
            quote(BLOG_004, "The wavelengths form a geometric progression (from $2\\pi$ up to $10000 \\cdot 2\\pi$)"),
            quote(VASWANI, "The wavelengths form a geometric progression from 2π to 10000 · 2π."),
        ),
        interpretation="A referee reads 'a geometric progression from 2π up to 10000·2π' as the range the "
        "progression spans: it starts at 2π, has ratio 10000^{2/d}, and every wavelength lies in [2π, 10000·2π) "
        "— proved for every even d; 10000·2π is approached as d grows (Vaswani et al. write the same words).",
        literal="Another reading: both ends attained, the longest wavelength equal to 10000·2π — false (the kernel "
        "refutes it at d = 4, where the longest is 100·2π; in general it is 2π·10000^{1−2/d}).",
        correction=Correction(
            latex=r"\lambda_0 = 2\pi,\quad \lambda_{d/2-1} = 2\pi\cdot 10000^{1-2/d} < 10000\cdot 2\pi",
            statement=_wavelength_corrected,
            explanation="For the endpoint reading: 10000·2π is the supremum as d → ∞, never reached: for d = 512 "
            "the longest wavelength is about 0.965·(10000·2π), for d = 4 it is 100·2π.",
        ),
    ),
    Claim(
        id="SPE-SLOWEST-WAVE-004",
        title="004: the base 10,000 keeps the slowest waves slow enough for typical sequence lengths",
        topic="sinusoidal",
        latex=r"L < \lambda_{d/2-1} = 2\pi\cdot 10000^{1-2/d} \quad (d \ge 16 \text{ even},\ L \le 8192)",
        statement=AllOf(
            [
                Witness(
                    _slowest_wavelength(16) - _TYPICAL_LENGTH,
                    {},
                    relation="positive",
                    name="d = 16 (the smallest d claimed): λ_slowest − 8192 > 0",
                ),
                Witness(
                    _slowest_wavelength(512) - _TYPICAL_LENGTH,
                    {},
                    relation="positive",
                    name="d = 512 (Vaswani et al.): λ_slowest − 8192 > 0",
                ),
            ]
        ),
        assumptions=(
            "every even d ≥ 16, base 10000 (the kernel: every h ≥ 8)",
            "a typical sequence length: every real L ≤ 8192 (2048 and 4096, the usual pre-training lengths, "
            "included)",
            "the engine's instances: d = 16 and d = 512 at L = 8192",
        ),
        sources=(
            quote(
                BLOG_004,
                "And the 10,000? Arbitrary. It just keeps the slowest waves slow enough for typical sequence "
                "lengths.",
            ),
        ),
        interpretation="Read as: the slowest pair (i = d/2 − 1) does not complete one turn over a typical "
        "sequence — its wavelength 2π·10000^{1−2/d} exceeds the length — so its angle alone still orders "
        "positions across the whole sequence. Stated for every even d ≥ 16 and every length L ≤ 8192: the "
        "exponent 1 − 2/d is at least 7/8 there, and 2π·10^{3.5} ≈ 19,869 > 8192 (at d = 512 the slowest "
        "wavelength is ≈ 60,611). Below d = 16 it fails: at d = 8 the slowest wavelength is 2000π ≈ 6283 < "
        "8192, so d = 2, 4, 8 are not claimed. 'Arbitrary' is not decided.",
    ),
    Claim(
        id="SPE-TOKEN-SUM-BREAKS",
        title="With token embeddings added, the dot product is no longer a function of p − q",
        topic="sinusoidal",
        latex=r"\exists x_a, x_b:\ \langle x_a + \mathrm{PE}(p), x_b + \mathrm{PE}(q)\rangle \text{ is not a "
        r"function of } p - q",
        statement=Witness(
            _token_score(sp.Integer(0), sp.Integer(1)) - _token_score(sp.Integer(1), sp.Integer(2)),
            {},
            name="same offset, different scores",
            description="x_a = (1,0), x_b = (0,1), ω = 1: score(0,1) ≠ score(1,2) although both offsets are −1",
        ),
        assumptions=("d = 2, ω = 1 in the witness",),
        sources=(
            quote(
                NOTE_001,
                "this relation is only exact in the dot product between two positional encodings it "
                "does not hold between two embedded tokens with added position vectors",
            ),
        ),
    ),
    Claim(
        id="SPE-QK-EXPANSION",
        title="001: the Q/K score with added positions expands into four terms (printed joined by '.')",
        topic="sinusoidal",
        latex=r"\langle W_Q(x_p+\mathrm{PE}_p), W_K(x_q+\mathrm{PE}_q)\rangle = "
        r"\langle W_Qx_p, W_Kx_q\rangle + \langle W_Qx_p, W_K\mathrm{PE}_q\rangle + "
        r"\langle W_Q\mathrm{PE}_p, W_Kx_q\rangle + \langle W_Q\mathrm{PE}_p, W_K\mathrm{PE}_q\rangle",
        statement=Identity(_qk_lhs, sp.Add(*_qk_terms)),
        assumptions=(
            "all vectors real; the kernel: every even d, W_Q, W_K, x_p, x_q, real p, q with PE the sinusoidal table",
            "the engine's instance: d = 2 generic symbols, PE_p, PE_q arbitrary vectors",
        ),
        sources=(
            quote(
                NOTE_001,
                "$= \\langle W_Q x_p, W_K x_q \\rangle . \\langle W_Q x_p, W_K \\text{PE}(q) \\rangle . "
                "\\langle W_Q \\text{PE}(p), W_K x_q \\rangle . \\langle W_Q \\text{PE}(p), W_K \\text{PE}(q) "
                "\\rangle$",
            ),
        ),
        interpretation="001 expands the score of two tokens with added positions by bilinearity, the step 003 "
        "writes with '+' (SPE-ADDITIVE-EXPANSION-003); a referee reads the four terms as summed, the '.' as a "
        "typo for '+'. Proved for every even d, all projections, tokens and real positions (theorem "
        "spe_qk_expansion).",
        literal="The formula as printed, '.' read as multiplication (the seed uses '.' for products elsewhere, "
        "e.g. 'P.softmax(A)') — false (the kernel refutes it at d = 2, W_Q = W_K = I, x_p = x_q = 0, p = q = 0: "
        "1 against 0; spe_qk_expansion_literal_negation).",
        correction=Correction(
            latex=r"\langle W_Q(x_p+u), W_K(x_q+v)\rangle = "
            r"\langle W_Qx_p, W_Kx_q\rangle + \langle W_Qx_p, W_Kv\rangle + "
            r"\langle W_Qu, W_Kx_q\rangle + \langle W_Qu, W_Kv\rangle",
            statement=Identity(_qk_lhs, sp.Add(*_qk_terms)),
            explanation="For the printed formula: bilinearity gives a sum of the four terms (as 003 writes it), "
            "not a product, for every d and any added vectors u, v.",
        ),
    ),
    Claim(
        id="SPE-ADDITIVE-EXPANSION-003",
        title="003: (q + p_m)ᵀ(k + p_n) = qᵀk + qᵀp_n + p_mᵀk + p_mᵀp_n",
        topic="sinusoidal",
        latex=r"(q+p_m)^\top(k+p_n) = q^\top k + q^\top p_n + p_m^\top k + p_m^\top p_n",
        statement=Identity(
            dot(_x_p + _pe_p, _x_q + _pe_q),
            dot(_x_p, _x_q) + dot(_x_p, _pe_q) + dot(_pe_p, _x_q) + dot(_pe_p, _pe_q),
        ),
        assumptions=("q, k, p_m, p_n real vectors (d = 2 generic symbols)",),
        sources=(
            quote(
                EXPLAINER_003, "\\[ (q+p_m)^\\top (k+p_n) = q^\\top k + q^\\top p_n + p_m^\\top k + p_m^\\top p_n \\]"
            ),
        ),
    ),
    Claim(
        id="SPE-SHIFT-LINEAR-004",
        title=r"004: $PE_{p+k}$ is a linear function of $PE_p$ (a fixed matrix per offset k)",
        topic="sinusoidal",
        latex=r"\exists M_k \text{ independent of } p:\ PE_{p+k} = M_k\,PE_p",
        statement=Identity(
            sinusoidal_encoding(p + delta, _SPECTRUM_8[:2]),
            sp.diag(*[_clockwise(w * delta) for w in _SPECTRUM_8[:2]]) * sinusoidal_encoding(p, _SPECTRUM_8[:2]),
            name="M_k = blockdiag(R(kω_i)ᵀ) works for every p",
        ),
        assumptions=("p, k integers", "two frequencies of d = 8 in the instance"),
        sources=(
            quote(
                BLOG_004,
                "$PE_{p+k}$ can be expressed as a linear function of $$PE_p$$ for pairwise indices of "
                "the positional embedding vector.",
            ),
        ),
        interpretation="An existence statement proved by exhibiting M_k (the transposed rotations) and proving "
        "the identity for all p.",
    ),
    Claim(
        id="SPE-LAST-TERM-RELATIVE",
        title="001: of the four terms only ⟨W_Q PE(p), W_K PE(q)⟩ escapes absolute position",
        topic="sinusoidal",
        latex=r"\langle W_Q\mathrm{PE}(p+\delta), W_K\mathrm{PE}(q+\delta)\rangle = "
        r"\langle W_Q\mathrm{PE}(p), W_K\mathrm{PE}(q)\rangle",
        statement=_last_term_as_written,
        assumptions=("W_Q, W_K arbitrary real 2×2 (learned projections)", "p, q, δ integers", "one frequency ω"),
        sources=(
            quote(
                NOTE_001,
                "We can see other than the last term depends on absolute positions and learned "
                "embeddings rather than relative position.",
            ),
        ),
        interpretation="'Depends only on relative position' read as invariance under shifting both positions by "
        "δ, for every choice of the learned projections.",
        correction=Correction(
            latex=r"\text{if } W_Q^\top W_K = \begin{bmatrix}\alpha&-\beta\\\beta&\alpha\end{bmatrix} "
            r"\text{ per frequency block: } \mathrm{PE}(p+\delta)^\top W_Q^\top W_K\,\mathrm{PE}(q+\delta) = "
            r"\mathrm{PE}(p)^\top W_Q^\top W_K\,\mathrm{PE}(q)",
            statement=_last_term_corrected,
            explanation="With learned projections the last term depends on absolute positions too; it is "
            "relative only when W_Qᵀ W_K commutes with the rotations (a scaled rotation per frequency, no "
            "coupling across frequencies), e.g. W_Q = W_K = I, which is SPE-DOT-RELATIVE.",
        ),
    ),
    Claim(
        id="SPE-DOT-NONMONOTONE",
        title="The sinusoidal dot product decays non-monotonically with |i − j|",
        topic="sinusoidal",
        latex=r"\exists\,\Delta_1 < \Delta_2:\ \sum_k\cos(\omega_k\Delta_2) > \sum_k\cos(\omega_k\Delta_1)",
        statement=Witness(
            _spe_dot(12) - _spe_dot(11),
            {},
            relation="positive",
            name="increase from distance 11 to 12",
            description="d = 128, base 10000: SPE(0)ᵀSPE(12) > SPE(0)ᵀSPE(11)",
        ),
        assumptions=("d = 128, base 10000 in the witness",),
        sources=(quote(NOTE_001, "in SPE it happens non-monotonic manner via dot product"),),
    ),
    Claim(
        id="SPE-DOT-AVERAGES-OUT",
        title="The sum of cosines 'averages out' as |i − j| grows, leading to lower dot product",
        topic="sinusoidal",
        latex=r"\Big|\frac1N\sum_{\Delta=M}^{M+N-1} S(\Delta)\Big| \le \frac{C_d}{N}\ \forall M"
        r"\quad\wedge\quad S(\Delta) < S(0) = \tfrac d2\ (\Delta \ne 0),\qquad "
        r"S(\Delta) = \sum_k \cos(\omega_k\Delta)",
        statement=_averages_out,
        assumptions=(
            "ω_k = 10000^{−2k/d} ∈ (0, 1]",
            "window means: every even d, every start M ≥ 0 and length N ≥ 1 (integers), every position p",
            "lower than at distance 0: d = 128, every real Δ ≠ 0",
        ),
        sources=(
            quote(NOTE_001, "As $|i - j|$ grows, the sum of cosines averages out, leading to lower dot product."),
            quote(NOTE_001, "in SPE it happens non-monotonic manner via dot product"),
        ),
        interpretation="The seed says, two sentences earlier, that in SPE the decay is non-monotonic, so a "
        "referee reads 'averages out, leading to lower dot product' as decay on average, not pointwise: (1) the "
        "mean of S(Δ) = ⟨PE(i), PE(i+Δ)⟩ over any N consecutive distances, wherever the window starts, is at "
        "most C_d/N with C_d = Σ_k 1/sin(ω_k/2) — it tends to 0 uniformly in the start (every even d); and "
        "(2) the dot product at every nonzero distance is strictly lower than its value d/2 at distance 0 "
        "(decided at d = 128, base 10000, for every real Δ). The engine's derivation covers the Dirichlet "
        "bound at d = 128.",
        literal="Another reading: the dot product itself tends to 0 as |i − j| grows — false for every even "
        "d ≥ 2 (the kernel refutes it: its square has mean at least d/4).",
    ),
    Claim(
        id="SPE-FREQUENCIES-DECREASING",
        title="Smaller indices wiggle fast: ωᵢ strictly decreases with i",
        topic="sinusoidal",
        latex=r"i < j < \tfrac d2 \implies \omega_j < \omega_i,\quad \omega_i = 10000^{-2i/d}",
        statement=Claimed("the sinusoidal frequencies strictly decrease with the pair index"),
        assumptions=("every even d ≥ 2, base 10000",),
        sources=(
            quote(
                BLOG_004,
                "Smaller indices wiggle fast to capture local order (“who’s next to whom”), while larger indices "
                "change slowly to capture global position",
            ),
        ),
        interpretation="Read as: the frequency of pair i strictly decreases as i grows (faster oscillation at "
        "smaller indices). Proved for every even d.",
    ),
    Claim(
        id="SPE-DISTINCT-WAVELENGTHS",
        title="Each pair of dimensions has its own wavelength",
        topic="sinusoidal",
        latex=r"i \ne j \implies \lambda_i \ne \lambda_j,\quad \lambda_i = 2\pi/\omega_i",
        statement=Claimed("no two pairs share a wavelength"),
        assumptions=("every even d ≥ 2, base 10000, pair indices i, j (any natural numbers)",),
        sources=(quote(NOTE_000, _DISTINCT), quote(NOTE_001, _DISTINCT)),
        interpretation="Read as: two different pairs never have the same wavelength. Proved for every even d "
        "(the frequencies strictly decrease).",
    ),
    Claim(
        id="SPE-SMOOTHNESS-004",
        title="Small position shifts cause small encoding shifts",
        topic="sinusoidal",
        latex=r"\|\mathrm{PE}(p) - \mathrm{PE}(q)\| \le \sqrt{\textstyle\sum_i \omega_i^2}\,|p - q|",
        statement=Claimed("the encoding is Lipschitz in the position with constant √(Σωᵢ²)"),
        assumptions=("every even d, every spectrum ωᵢ (the seeds' one included), real p, q",),
        sources=(
            quote(
                BLOG_004,
                "Because sine and cosine are continuous, the encoding changes smoothly as $p$ increments, "
                "satisfying the desire for small position shifts to cause small encoding shifts.",
            ),
        ),
        interpretation="Read quantitatively: the encoding moves by at most √(Σᵢωᵢ²)·|p − q| — each (sin, cos) "
        "pair moves by at most the angle ωᵢ|p − q| it turns through. Proved (squared norms) for every even d "
        "and spectrum; with ωᵢ ≤ 1 the constant is at most √(d/2).",
    ),
    Claim(
        id="SPE-ADD-CHANGES-NORM-DIRECTION-004",
        title="Adding a position vector changes a token's norm and direction",
        topic="sinusoidal",
        latex=r"\|x + \mathrm{PE}(p)\|^2 = \|x\|^2 + 2\langle x, \mathrm{PE}(p)\rangle + \tfrac d2,\quad "
        r"x + \mathrm{PE}(p) = c\,x \implies \mathrm{PE}(p) = (c-1)\,x",
        statement=Claimed("adding PE changes the norm and, unless x is parallel to PE(p), the direction"),
        assumptions=("every even d ≥ 2, base 10000, real p, every token x",),
        sources=(
            quote(
                BLOG_004,
                "the position vector gets added to the token embedding. This changes the direction of the "
                "embedding and slightly warps its meaning.",
            ),
            quote(
                BLOG_004, "The magnitude is preserved, so no semantic information loss unlike the sinusoidal encoding."
            ),
        ),
        interpretation="Read as the contrast with RoPE the blog draws: adding PE(p) changes the norm — "
        "‖x + PE(p)‖² = ‖x‖² + 2⟨x, PE(p)⟩ + d/2, larger whenever ⟨x, PE(p)⟩ ≥ 0 — and keeps the direction only "
        "for tokens parallel to PE(p). Proved for every even d (RoPE keeps the norm: ROPE-NORM-PRESERVING).",
    ),
]
