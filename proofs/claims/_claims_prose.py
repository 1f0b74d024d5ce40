"""Claims the seeds make in prose that the first ledger missed (ISSUE #10 item 5).

Each is decided by the Coq kernel under the reading written in `interpretation` (proofs/coq: Attention.v,
Rope.v, Sinusoidal.v); the SymPy statement here is the engine's derivation and the numeric mirrors' input.
"""

from __future__ import annotations

import sympy as sp

from ..engine._formulas import dot, real_matrix, real_vector, rotation, sinusoidal_encoding, theta
from ..engine._statements import AllOf, Claimed, Identity, Refutation, Witness
from ._claim import Claim, Correction
from ._sources import BLOG_004, KATHAROPOULOS, NOTE_000, NOTE_001, ROFORMER, SUMMARY_002, quote

# ------------------------------------------------------------------------------ ATT-DOT-SYMMETRIC
_X = real_matrix("X", 2, 2)
_WQ = real_matrix("Wq", 2, 2)
_shared_scores = (_X * _WQ) * (_X * _WQ).T

# ---------------------------------------------------------------------------------- ATT-CAUSAL-ROW
_e1, _e2 = sp.symbols("e_21 e_22", real=True)
_v1, _v2 = sp.symbols("v_1 v_2", real=True)
_cache_only = sp.exp(_e1) * _v1 / sp.exp(_e1)  # Σ_{j=1}^{t-1} α_tj V_j at t = 2 (softmax over j < t)
_causal_row = (sp.exp(_e1) * _v1 + sp.exp(_e2) * _v2) / (sp.exp(_e1) + sp.exp(_e2))  # j = 1 … t

# ---------------------------------------------------------------------- ROPE-FULL-STRENGTH-AT-ZERO
_m, _n = sp.symbols("m n", real=True)
_q, _k = real_vector("q", 2), real_vector("k", 2)
_e0 = sp.Matrix([1, 0])


def _rope_score(query: sp.Matrix, key: sp.Matrix, m_pos: sp.Expr, n_pos: sp.Expr) -> sp.Expr:
    return dot(rotation(m_pos * theta) * query, rotation(n_pos * theta) * key)


# ---------------------------------------------------------------------- ROPE-LINEAR-ATTENTION-004
_phi_q = real_vector("f", 2)
_phi_k = [real_vector("g", 2), real_vector("h", 2)]
_values = sp.symbols("c_0 c_1", real=True)
_linear_numerator = sp.Add(
    *[_rope_score(_phi_q, key, _m, j) * v for j, (key, v) in enumerate(zip(_phi_k, _values, strict=True))]
)
_linear_factored = dot(
    rotation(_m * theta) * _phi_q,
    sp.Add(
        *[rotation(j * theta) * key * v for j, (key, v) in enumerate(zip(_phi_k, _values, strict=True))],
        sp.zeros(2, 1),
    ),
)

# ------------------------------------------------------------------- SPE-LINEAR-ATTENTION-INCOMPATIBLE
_x = [real_vector("x", 2), real_vector("y", 2)]
_positions = [sinusoidal_encoding(j, [sp.Integer(1)]) for j in range(2)]
_W = real_matrix("W", 2, 2)
_feature_query = real_vector("z", 2)
_token_values = sp.symbols("b_0 b_1", real=True)
_features = [_W * (token + pe) for token, pe in zip(_x, _positions, strict=True)]
_spe_numerator = sp.Add(*[dot(_feature_query, f) * v for f, v in zip(_features, _token_values, strict=True)])
_spe_factored = dot(
    _feature_query, sp.Add(*[f * v for f, v in zip(_features, _token_values, strict=True)], sp.zeros(2, 1))
)

CLAIMS = [
    Claim(
        id="ATT-DOT-SYMMETRIC",
        title="Dot-product attention is symmetric",
        topic="attention",
        latex=r"\mathrm{scores}(PX) = P\,\mathrm{scores}(X)\,P^\top,\quad (XW)(XW)^\top = "
        r"\big((XW)(XW)^\top\big)^\top",
        statement=Identity(_shared_scores, _shared_scores.T),
        assumptions=("X ∈ ℝ^{n×d}", "W^Q, W^K ∈ ℝ^{d×d_k} arbitrary"),
        sources=(
            quote(NOTE_000, "dot product attention is symmetric."),
            quote(NOTE_001, "dot product attention is symmetric."),
        ),
        interpretation="The sentence closes the permutation-equivariance argument ('the result of the dot "
        "products and softmax will also be permuted in the same way since … dot product attention is "
        "symmetric'), so a referee reads 'symmetric' as: the scores treat every pair of tokens alike — permuting "
        "the tokens permutes the score matrix on both sides, scores(PX) = P scores(X) Pᵀ — with the dot product "
        "itself symmetric (QKᵀ is a symmetric matrix when W^Q = W^K). Proved for every n, d, d_k.",
        literal="Another reading: QKᵀ is a symmetric matrix for every input and projections — false (the kernel "
        "refutes it: X = I, W^Q = I and W^K the shear [[0,1],[0,0]] give the scores [[0,1],[0,0]]).",
        correction=Correction(
            latex=r"(XW)(XW)^\top \text{ is symmetric; in general } QK^\top \text{ is symmetric for every } X "
            r"\iff W^Q (W^K)^\top \text{ is symmetric}",
            statement=Identity(_shared_scores, _shared_scores.T),
            explanation="For the other reading: the scores are a symmetric matrix exactly when W^Q W^Kᵀ is "
            "(e.g. shared projections); equivariance does not need it.",
        ),
    ),
    Claim(
        id="ATT-CAUSAL-ROW",
        title=r"Decoding step t: $y_t = \sum_{j=1}^{t-1} \alpha_{tj} V_j$",
        topic="attention",
        latex=r"y_t = \sum_{j=1}^{t-1} \alpha_{tj}\,\mathcal V_j,\quad \alpha_{tj} = \mathrm{softmax}_j(e_{tj})",
        statement=Identity(_cache_only, _causal_row, hints=({_e1: 0, _e2: 0, _v1: 0, _v2: 1},)),
        assumptions=("t = 2 in the engine's instance (the kernel: every t, every n > t)", "e, V real"),
        sources=(
            quote(NOTE_000, "$$ y_t = \\sum_{j=1}^{t-1} \\alpha_{tj} \\mathcal{V}_j $$"),
            quote(NOTE_001, "$$y_t = \\sum_{j=1}^{t-1} \\alpha_{tj} \\mathcal{V}_j$$"),
        ),
        interpretation="Read as: this is the causal self-attention output of token t. It leaves out the current "
        "token (j = t): with equal scores and V = (0, 1) it gives 0 where causal attention gives 1/2.",
        correction=Correction(
            latex=r"y_t = \sum_{j=1}^{t} \alpha_{tj}\,\mathcal V_j",
            statement=Identity(
                (sp.exp(_e1) * _v1 + sp.exp(_e2) * _v2 + 0 * _v1) / (sp.exp(_e1) + sp.exp(_e2)), _causal_row
            ),
            explanation="Append the current token's key and value to the cache before attending; this is row t "
            "of masked causal attention over any n > t tokens.",
        ),
    ),
    Claim(
        id="ROPE-FULL-STRENGTH-AT-ZERO",
        title="When m = n, we get the full attention strength",
        topic="rope",
        latex=r"\langle R_m q, R_m k\rangle = \langle q, k\rangle,\quad "
        r"\langle R_m q, R_n q\rangle \le \langle R_n q, R_n q\rangle = \|q\|^2",
        statement=Identity(_rope_score(_q, _k, _m, _m), dot(_q, _k)),
        assumptions=(
            "q, k ∈ ℝᵈ (d = 2 in the engine's instance; the kernel: every even d, every spectrum θ)",
            "m, n real",
        ),
        sources=(
            quote(NOTE_000, "When $m=n$ , we get the full attention strength"),
            quote(NOTE_001, "When $m=n$ , we get the full attention strength"),
        ),
        interpretation="Read on RoPE's own score ⟨R_m q, R_n k⟩ (the seeds' cosine-only formula "
        "⟨q,k⟩cos((m − n)θ) is not RoPE's score: ROPE-KV-COS-ONLY): at m = n the rotations cancel and the score "
        "is the unrotated ⟨q, k⟩ — nothing is lost — and the score of a vector with itself is largest at "
        "m = n, ⟨R_m q, R_n q⟩ ≤ ⟨R_n q, R_n q⟩ = ‖q‖². Both proved for every even d and every spectrum.",
        literal="Another reading: for every q, k the score is the maximum over positions at m = n — false (the "
        "kernel refutes it for every even d: q = e₀, k = e₁ score 0 at m = n = 0 and sin 1 at m = 1, n = 0).",
    ),
    Claim(
        id="ROPE-LINEAR-ATTENTION-004",
        title="004: because rotation preserves norms, RoPE works seamlessly in linear attention",
        topic="linear-attention",
        latex=r"\|R_n x\| = \|x\| \text{ yet } \exists\, \phi \ge 0:\ \sum_n \langle R_m\phi(q), "
        r"R_n\phi(k_n)\rangle < 0",
        statement=Refutation(
            inner=Claimed(
                "since rotations preserve norms, rotated non-negative features keep the linear-attention "
                "normaliser non-negative"
            ),
            against=Witness(
                -_rope_score(_e0, _e0, sp.Integer(2), sp.Integer(0)),
                {theta: sp.Integer(1)},
                relation="positive",
                name="the rotated normaliser of φ(q) = φ(k₀) = e₀, query at 2, key at 0, is negative",
                description="N = 1, φ(q) = φ(k₀) = e₀, positions 2 and 0, θ₀ = 1: the normaliser is cos 2 < 0",
            ),
        ),
        assumptions=(
            "feature maps φ ≥ 0 entrywise (Performer/elu+1); the kernel: every even d, base 10000, integer key "
            "positions, every length N ≥ 1",
            "d = 2, θ₀ = 1 in the engine's witness",
        ),
        sources=(
            quote(
                BLOG_004,
                "Because rotation preserves norms, RoPE works seamlessly even in linear-time attention "
                "mechanisms (e.g. Performers).",
            ),
            quote(KATHAROPOULOS, "φ(x) = elu(x) + 1"),
            quote(ROFORMER, "Eq. (19): Attention(Q,K,V)_m = Σ_n (R_m φ(q_m))ᵀ(R_n φ(k_n)) v_n / Σ_n φ(q_m)ᵀφ(k_n)"),
        ),
        interpretation="The sentence gives a reason: norm preservation is what lets RoPE drop into linear "
        "attention. Linear attention divides by the normaliser Σₙ φ(q)ᵀφ(kₙ), a sum of non-negative terms for "
        "non-negative features; read as: because the rotation preserves norms, rotating the features keeps "
        "it non-negative. "
        "Refuted: rotations do preserve norms, and yet for every even d (base 10000, integer key positions) "
        "non-negative features with a negative rotated normaliser exist (N = 1, φ(q) = φ(k₀) = e₀, query at "
        "position 2: cos 2 < 0). RoFormer Eq. (19) keeps the normaliser unrotated for this reason.",
        literal="A weaker reading, the conclusion alone ('RoPE works in linear-time attention'): the rotated "
        "numerator factorises, Σₙ⟨R_mφ(q), R_nφ(kₙ)⟩vₙ = ⟨R_mφ(q), Σₙ R_nφ(kₙ)vₙ⟩, and each term is shift-"
        "invariant — proved for every even d, N and spectrum (rope_linear_attention_004_literal); it rests on "
        "bilinearity, not on norm preservation.",
        correction=Correction(
            latex=r"\frac{\sum_n \langle R_m\phi(q), R_n\phi(k_n)\rangle v_n}{\sum_n \phi(q)^\top\phi(k_n)},"
            r"\quad \sum_n \langle R_m\phi(q), R_n\phi(k_n)\rangle v_n = \Big\langle R_m\phi(q), "
            r"\sum_n R_n\phi(k_n)v_n\Big\rangle,\ \sum_n \phi(q)^\top\phi(k_n) \ge 0",
            statement=Identity(_linear_numerator, _linear_factored),
            explanation="Rotate the numerator only and keep the normaliser unrotated, as RoFormer Eq. (19) does: "
            "the numerator still factorises (linearity, not norm preservation) and the non-negative normaliser "
            "stays non-negative.",
        ),
    ),
    Claim(
        id="ROPE-ABS-AND-REL",
        title="RoPE encodes both absolute and relative positions",
        topic="rope",
        latex=r"\langle R_{m+\delta} q, R_{n+\delta} k\rangle = \langle R_m q, R_n k\rangle\ \wedge\ "
        r"\big(R_m x = R_{m'} x \Rightarrow m = m'\big)",
        statement=Claimed("the score depends only on n − m, and R_m x determines m"),
        assumptions=(
            "relative half: every even d, every spectrum θ, real m, n, δ",
            "absolute half: every even d ∉ {2, 4, 8} (d = 128 included), base 10000, every real m, m′, every x "
            "with pairs 0 and 1 non-zero",
        ),
        sources=(
            quote(SUMMARY_002, "Encodes both absolute and relative positions"),
            quote(BLOG_004, "RoPE “allows a model to track absolute positions and model relative relationships”"),
        ),
        interpretation="A referee reads 'encodes both' as two facts: the attention score sees only the offset "
        "(relative), and the rotated vector itself still tells positions apart (absolute). Decided for every "
        "even d other than 2, 4, 8 (RoFormer's d = 128 included), base 10000, for every real position: pairs 0 "
        "and 1 rotate by m and m·t with t = 10000^(−2/d); equal rotations at m ≠ m′ would make t rational, but "
        "t^{d/2} = 10⁻⁴ and 10⁴ is a (d/2)-th power of a rational only when d/2 divides 4. At d = 2, 4, 8 "
        "every frequency is rational and the absolute half over "
        "integer positions is the irrationality of π, not proved here; those dimensions are not claimed.",
    ),
    Claim(
        id="SPE-UNIQUE-POSITION",
        title="Sinusoidal encoding assigns a unique vector to each position",
        topic="sinusoidal",
        latex=r"\mathrm{PE}(p) = \mathrm{PE}(p') \implies p = p'",
        statement=Claimed("PE(p) = PE(p') implies p = p' for all real positions"),
        assumptions=(
            "p, p′ real (every integer position included)",
            "every even d ∉ {2, 4, 8} (d = 128 included), base 10000",
        ),
        sources=(
            quote(
                NOTE_000,
                "sinusoidal positional encoding assigns a unique, deterministic vector to each token position",
            ),
            quote(
                NOTE_001,
                "sinusoidal positional encoding assigns a unique, deterministic vector to each token position",
            ),
            quote(BLOG_004, 'ensuring each position gets a unique multi-frequency “signature.”'),
        ),
        interpretation="Read as: no two positions share an encoding vector. Decided for every even d other than "
        "2, 4, 8 (d = 128 included), base 10000, for every real position (integers included): equal pairs 0 and "
        "1 force (p − p′) and (p − p′)·t to be multiples of π with t = 10000^(−2/d) irrational there "
        "(t^{d/2} = 10⁻⁴). At d = 2, 4, 8 every frequency is "
        "rational and uniqueness over the integers is the irrationality of π, not proved here; for every even "
        "d the kernel also proves uniqueness for positions closer than 2π and for the integers 0 … 43.",
    ),
    Claim(
        id="SPE-LINEAR-ATTENTION-INCOMPATIBLE",
        title="002: adding positions to token representations makes them incompatible with linear attention",
        topic="linear-attention",
        latex=r"\sum_j \phi(q)^\top\phi\big(W(x_j + p_j)\big)\,v_j = \phi(q)^\top \sum_j \phi\big(W(x_j + p_j)\big)"
        r"v_j \text{ fails}",
        statement=Refutation(
            inner=Claimed("linear attention cannot factor over tokens with added positions"),
            against=Identity(_spe_numerator, _spe_factored, name="the factorisation, for added positions"),
        ),
        assumptions=("any feature map φ (here the identity on W(x + p))", "n = 2, d = 2 in the engine's instance"),
        sources=(
            quote(
                SUMMARY_002,
                "Old methods add it directly to token representations, making them incompatible with linear "
                "self-attention.",
            ),
        ),
        interpretation="Read as: with added positions, the linear-attention numerator and normaliser cannot be "
        "factorised over tokens. Refuted: x + p is just another input, and the factorisation holds for every "
        "feature map.",
        correction=Correction(
            latex=r"\sum_j \phi(q)^\top\phi(k_j)v_j = \phi(q)^\top\sum_j\phi(k_j)v_j \text{ with } "
            r"k_j = W(x_j + p_j)",
            statement=AllOf([Identity(_spe_numerator, _spe_factored, name="numerator factorises")]),
            explanation="What added positions lose is the relative structure of the scores "
            "(SPE-LAST-TERM-RELATIVE), not compatibility with linear attention.",
        ),
    ),
]
