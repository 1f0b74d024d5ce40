"""Claims about the rotary position embedding itself (ROPE-*): complex form, pair formula, relative identity."""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from ..engine._formulas import (
    complex_as_pair,
    cross2,
    d_dim,
    delta,
    dot,
    hermitian_dot,
    i_index,
    m,
    n,
    real_matrix,
    real_vector,
    rope_frequencies,
    rope_frequency,
    rope_matrix,
    rotation,
    sinusoidal_frequency,
    theta,
)
from ..engine._statements import AllOf, BlockInstances, Claimed, Derivation, Identity, Statement
from ._claim import Claim, Correction
from ._sources import BLOG_004, EXPLAINER_003, NOTE_000, NOTE_001, ROFORMER, SUMMARY_002, quote

_q = real_vector("q", 2)
_k = real_vector("k", 2)
_x = real_vector("x", 2)
_phi = (m - n) * theta
_unit_hint = {m: 1, n: 0, theta: 1, _q[0]: 1, _q[1]: 0, _k[0]: 0, _k[1]: 1}

# Complex scalars for one rotary pair, written through real coordinates so that conjugation is explicit.
_a, _b, _c, _e = sp.symbols("a b c e", real=True)
_zq, _zk = _a + sp.I * _b, _c + sp.I * _e
_real_dot = sp.Symbol("s", real=True)  # ⟨q, k⟩ for q, k ∈ ℝᵈ
_zq_vector = [_zq, sp.Symbol("g", real=True) + sp.I * sp.Symbol("h", real=True)]
_zk_vector = [_zk, sp.Symbol("r", real=True) + sp.I * sp.Symbol("t", real=True)]


def _score(query: sp.Matrix, key: sp.Matrix, thetas: list[sp.Expr], m_pos: sp.Expr, n_pos: sp.Expr) -> sp.Expr:
    """`⟨R_m q, R_n k⟩` for block-diagonal RoPE with the given frequencies."""
    return dot(rope_matrix(m_pos, thetas) * query, rope_matrix(n_pos, thetas) * key)


def _per_block_and_instances(
    build: Callable[[list[sp.Expr]], tuple[sp.Basic, sp.Basic]], name: str, large_d: int | None = None
) -> Derivation:
    """A generic-block lemma plus explicit instantiations, closed by the blockwise rule.

    `build(thetas)` returns the pair `(lhs, rhs)` of the statement for a list of frequencies. The explicit
    `d = 4, 8` instances assemble the full matrices; `large_d` adds a block-by-block instance of that size.
    """
    generic_lhs, generic_rhs = build([theta])
    steps: list[Statement] = [Identity(generic_lhs, generic_rhs, name="generic 2×2 block")]
    for d in (4, 8):
        lhs, rhs = build(rope_frequencies(d))
        steps.append(Identity(lhs, rhs, name=f"explicit d = {d}, base 10000 (full matrices)"))
    if large_d is not None:
        steps.append(
            BlockInstances(
                lambda t: build([t]),
                sp.symbols(f"theta_0:{large_d // 2}", positive=True),
                name=f"d = {large_d}, every block, independent symbolic θ_i",
            )
        )
    return Derivation(steps, rule="blockwise", conclusion=name)


def _relative_matrix(thetas: list[sp.Expr]) -> tuple[sp.Matrix, sp.Matrix]:
    return rope_matrix(m, thetas).T * rope_matrix(n, thetas), rope_matrix(n - m, thetas)


def _norm(thetas: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    vector = real_vector("x", 2 * len(thetas))
    rotated = rope_matrix(m, thetas) * vector
    return dot(rotated, rotated), dot(vector, vector)


def _qk_relative(thetas: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    size = 2 * len(thetas)
    w_q, w_k = real_matrix("Wq", size, size), real_matrix("Wk", size, size)
    x_m, x_n = real_vector("xm", size), real_vector("xn", size)
    q_m = rope_matrix(m, thetas) * w_q * x_m
    k_n = rope_matrix(n, thetas) * w_k * x_n
    return dot(q_m, k_n), (x_m.T * w_q.T * rope_matrix(n - m, thetas) * w_k * x_n)[0, 0]


def _dot_property(thetas: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    size = 2 * len(thetas)
    query, key = real_vector("q", size), real_vector("k", size)
    return _score(query, key, thetas, m, n), (query.T * rope_matrix(n - m, thetas) * key)[0, 0]


def _shift_invariance(thetas: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    size = 2 * len(thetas)
    query, key = real_vector("q", size), real_vector("k", size)
    return _score(query, key, thetas, m + delta, n + delta), _score(query, key, thetas, m, n)


CLAIMS = [
    Claim(
        id="ROPE-COMPLEX-INNER-PRODUCT",
        title=r"Rotating q and k by $e^{im\theta}$, $e^{in\theta}$ multiplies ⟨q, k⟩ by $e^{i(m-n)\theta}$",
        topic="rope",
        latex=r"\langle q\,e^{im\theta}, k\,e^{in\theta}\rangle = \langle q, k\rangle\,e^{i(m-n)\theta}",
        statement=Identity(
            hermitian_dot(
                [z * sp.exp(sp.I * m * theta) for z in _zq_vector], [z * sp.exp(sp.I * n * theta) for z in _zk_vector]
            ),
            hermitian_dot(_zq_vector, _zk_vector) * sp.exp(sp.I * _phi),
        ),
        assumptions=("q, k ∈ ℂ² (two complex coordinates each)", "m, n integers", "θ > 0", "⟨a, b⟩ = Σ a·conj(b)"),
        sources=(
            quote(
                NOTE_000, "$$\\langle f(q, m), f(k, n) \\rangle = \\langle q, k \\rangle \\cdot e^{i (m - n) \\theta}$$"
            ),
            quote(
                NOTE_001, "$$\\langle f(q, m), f(k, n) \\rangle = \\langle q, k \\rangle \\cdot e^{i (m - n) \\theta}$$"
            ),
        ),
        interpretation="⟨·,·⟩ is read as the Hermitian inner product (conjugating the second argument); with the "
        "bilinear product Σ a·b the phase would be e^{i(m+n)θ} and the identity fails.",
    ),
    Claim(
        id="ROPE-REAL-PART-COS-ONLY",
        title=r"$\mathrm{Re}[\langle q,k\rangle e^{i(m-n)\theta}] = \langle q,k\rangle\cos((m-n)\theta)$ for q, k ∈ ℝᵈ",
        topic="rope",
        latex=r"\mathrm{Re}\big[\langle q,k\rangle e^{i(m-n)\theta}\big] = \langle q,k\rangle\cos((m-n)\theta)",
        statement=Identity(sp.re(_real_dot * sp.exp(sp.I * _phi)), _real_dot * sp.cos(_phi)),
        assumptions=("q, k ∈ ℝᵈ, as 000/001 declare (so ⟨q, k⟩ is real)", "m, n integers", "θ > 0"),
        sources=(
            quote(
                NOTE_000,
                "Let $q \\in \\mathbb{R}^d$ and $k \\in \\mathbb{R}^d$ be the query and key embeddings",
            ),
            quote(
                NOTE_000,
                "$$\\text{Re} \\left[ \\langle q, k \\rangle \\cdot e^{i(m - n)\\theta} \\right] = "
                "\\langle q, k \\rangle \\cdot \\cos((m - n)\\theta)$$",
            ),
            quote(
                NOTE_001,
                "The real valued attention score can be stated as, $$\\text{Re} \\left[ \\langle q, k "
                "\\rangle \\cdot e^{i(m - n)\\theta} \\right] = \\langle q, k \\rangle \\cdot \\cos((m - n)"
                "\\theta)$$",
            ),
        ),
        interpretation="Decided in the domain the seeds declare, q, k ∈ ℝᵈ: ⟨q, k⟩ is real and the identity "
        "holds for every d. (For complex ⟨q, k⟩ it would fail — the kernel proves that too, "
        "rope_real_part_cos_only_complex_negation.) The seeds' real error is the model f(x, ℓ) = x·e^{iℓθ} on a "
        "real vector, which ROPE-KV-COS-ONLY refutes.",
    ),
    Claim(
        id="ROPE-KV-COS-ONLY",
        title=r"$\langle R_m q, R_n k\rangle = \langle q,k\rangle\cos((m-n)\theta)$",
        topic="rope",
        latex=r"\langle R_m q, R_n k\rangle = \langle q,k\rangle\cos((m-n)\theta)",
        statement=Identity(_score(_q, _k, [theta], m, n), dot(_q, _k) * sp.cos(_phi), hints=(_unit_hint,)),
        assumptions=("q, k ∈ ℝ² (one rotary pair)", "m, n integers", "θ > 0"),
        sources=(
            quote(NOTE_000, "$$\\langle R_m q, R_n k \\rangle = \\langle q, k \\rangle \\cdot \\cos((m-n)\\theta)$$"),
            quote(
                NOTE_001,
                "This is because the relative positional information is preserved in the dot product "
                "$$\\langle R_m q, R_n k \\rangle = \\langle q, k \\rangle \\cdot \\cos((m-n)\\theta)$$",
            ),
        ),
        correction=Correction(
            latex=r"\langle R_m q, R_n k\rangle = \langle q,k\rangle\cos((m-n)\theta) + (q_1k_2 - q_2k_1)"
            r"\sin((m-n)\theta)",
            statement=Identity(
                _score(_q, _k, [theta], m, n), dot(_q, _k) * sp.cos(_phi) + cross2(_q, _k) * sp.sin(_phi)
            ),
            explanation="The rotation mixes the two coordinates, which adds a sine term weighted by the cross "
            "product q₁k₂ − q₂k₁; it is still a function of m − n alone.",
        ),
    ),
    Claim(
        id="ROPE-COMPLEX-IS-ROTATION",
        title=r"Multiplying a pair, read as a complex number, by $e^{im\theta}$ is the rotation $R(m\theta)$",
        topic="rope",
        latex=r"(x_1 + i x_2)\,e^{im\theta} \;\leftrightarrow\; R(m\theta)\begin{bmatrix}x_1\\x_2\end{bmatrix}",
        statement=Identity(
            complex_as_pair((_x[0] + sp.I * _x[1]) * sp.exp(sp.I * m * theta)), rotation(m * theta) * _x
        ),
        assumptions=("x₁, x₂ real", "m integer", "θ > 0"),
        sources=(
            quote(NOTE_000, "It essentially represents a 2D rotation. We can represent it in 2D rotation matrix"),
            quote(SUMMARY_002, "Complex rotation can be written as a real 2×2 matrix"),
            quote(BLOG_004, "Each token’s representation is rotated by an angle proportional to its position"),
        ),
    ),
    Claim(
        id="ROPE-PAIR-FORMULA",
        title="The rotated pair is (x₁cos mθᵢ − x₂sin mθᵢ, x₁sin mθᵢ + x₂cos mθᵢ)",
        topic="rope",
        latex=r"R_{\theta_i}\begin{bmatrix}x_{2i-1}\\x_{2i}\end{bmatrix} = \begin{bmatrix}x_{2i-1}\cos m\theta_i - "
        r"x_{2i}\sin m\theta_i\\x_{2i-1}\sin m\theta_i + x_{2i}\cos m\theta_i\end{bmatrix}",
        statement=Identity(
            rotation(m * theta) * _x,
            sp.Matrix(
                [
                    _x[0] * sp.cos(m * theta) - _x[1] * sp.sin(m * theta),
                    _x[0] * sp.sin(m * theta) + _x[1] * sp.cos(m * theta),
                ]
            ),
        ),
        assumptions=("x real pair (interleaved layout: coordinates 2i−1, 2i in 1-based indexing)", "m integer"),
        sources=(
            quote(
                NOTE_001,
                "$$ = \\begin{pmatrix} x_{2i-1} \\cos(m\\theta_i) - x_{2i} \\sin(m\\theta_i) \\\\ "
                "x_{2i-1} \\sin(m\\theta_i) + x_{2i} \\cos(m\\theta_i) \\end{pmatrix}$$",
            ),
        ),
    ),
    Claim(
        id="ROPE-RELATIVE-MATRIX",
        title="R(m)ᵀR(n) = R(n−m), for a 2×2 block and for the block-diagonal d×d matrix",
        topic="rope",
        latex=r"(R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m}",
        statement=_per_block_and_instances(
            _relative_matrix,
            r"(R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m}\ \text{for every even } d",
            large_d=1024,
        ),
        assumptions=("m, n integers", "θ_i > 0", "d even (symbolic; blocks are generic)"),
        sources=(
            quote(SUMMARY_002, "$$ R^d_{\\Theta, n-m} = (R^d_{\\Theta,m})^\\top R^d_{\\Theta,n} $$"),
            quote(BLOG_004, "$$\\mathbf{R}(m)^\\top \\mathbf{R}(n) = \\mathbf{R}(n-m)$$"),
        ),
    ),
    Claim(
        id="ROPE-QK-RELATIVE",
        title=r"$q_m^\top k_n = x_m^\top W_q^\top R_{n-m} W_k x_n$",
        topic="rope",
        latex=r"q_m^\top k_n = x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n",
        statement=Derivation(
            [
                Identity(*_qk_relative([theta]), name="d = 2, generic W_q, W_k"),
                Identity(*_qk_relative(rope_frequencies(4)), name="explicit d = 4, base 10000, generic W_q, W_k"),
                Identity(*_relative_matrix([theta]), name="ROPE-RELATIVE-MATRIX (2×2 block), substituted"),
            ],
            rule="substitution",
            conclusion=r"q_m^\top k_n = x_m^\top W_q^\top (R^d_{\Theta,m})^\top R^d_{\Theta,n} W_k x_n = "
            r"x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n",
        ),
        assumptions=("q_m = R_m W_q x_m, k_n = R_n W_k x_n", "W real, arbitrary (not block-diagonal)"),
        interpretation="q_mᵀk_n = x_mᵀW_qᵀ(R_m)ᵀR_n W_k x_n by transposition; substituting ROPE-RELATIVE-MATRIX "
        "(R_m)ᵀR_n = R_{n−m} gives the claim for every even d and arbitrary W_q, W_k.",
        sources=(quote(SUMMARY_002, "$$ q_m^\\top k_n = x_m^\\top W_q^\\top R^d_{\\Theta, n-m} W_k x_n $$"),),
    ),
    Claim(
        id="ROPE-GENERAL-FORM",
        title=r"$\langle f_q(x_m,m), f_k(x_n,n)\rangle = \mathrm{Re}[(W_q x_m)(W_k x_n)^* e^{i(m-n)\theta}]$",
        topic="rope",
        latex=r"\langle f_q(x_m,m), f_k(x_n,n)\rangle = \mathrm{Re}\big[(W_qx_m)(W_kx_n)^* e^{i(m-n)\theta}\big]",
        statement=Identity(
            dot(
                complex_as_pair(_zq * sp.exp(sp.I * m * theta)),
                complex_as_pair(_zk * sp.exp(sp.I * n * theta)),
            ),
            sp.re(_zq * sp.conjugate(_zk) * sp.exp(sp.I * _phi)),
        ),
        assumptions=("W_q x_m = a + ib and W_k x_n = c + ie as complex numbers (2-D case)", "⟨·,·⟩ real dot product"),
        sources=(
            quote(
                SUMMARY_002,
                "$$ g(x_m, x_n, m-n) = \\text{Re}\\left[ (W_q x_m)(W_k x_n)^* e^{i(m-n)\\theta} \\right] $$",
            ),
            quote(ROFORMER, "Eq. (12)"),
        ),
    ),
    Claim(
        id="ROPE-SCORE-SINE-TERM-003",
        title=r"003: $\mathrm{score}_i = (q_i^\top k_i)\cos((n-m)\theta_i) + "
        r"(q_{i,1}k_{i,2} - q_{i,2}k_{i,1})\sin((n-m)\theta_i)$",
        topic="rope",
        latex=r"\langle\mathrm{RoPE}(q,m,i),\mathrm{RoPE}(k,n,i)\rangle = (q_i^\top k_i)\cos((n-m)\theta_i) + "
        r"(q_{i,1}k_{i,2} - q_{i,2}k_{i,1})\sin((n-m)\theta_i)",
        statement=Identity(
            _score(_q, _k, [theta], m, n),
            dot(_q, _k) * sp.cos(-_phi) + cross2(_q, _k) * sp.sin(-_phi),
            hints=(_unit_hint,),
        ),
        assumptions=("RoPE(x, m, i) rotates (x_{2i}, x_{2i+1}) counter-clockwise by mθᵢ, as 003 defines it",),
        sources=(
            quote(
                EXPLAINER_003,
                "\\[ \\text{score}_i = (q_i^\\top k_i)\\,\\cos((n-m)\\theta_i) + (q_{i,1}k_{i,2} - "
                "q_{i,2}k_{i,1})\\,\\sin((n-m)\\theta_i) \\]",
            ),
        ),
        interpretation="(q_{i,1}, q_{i,2}) are the two coordinates of the i-th pair.",
        correction=Correction(
            latex=r"\mathrm{score}_i = (q_i^\top k_i)\cos((n-m)\theta_i) + (q_{i,2}k_{i,1} - q_{i,1}k_{i,2})"
            r"\sin((n-m)\theta_i)",
            statement=Identity(
                _score(_q, _k, [theta], m, n), dot(_q, _k) * sp.cos(-_phi) - cross2(_q, _k) * sp.sin(-_phi)
            ),
            explanation="The sine term has the opposite sign: qᵀR(φ)k = (qᵀk)cos φ + (q₂k₁ − q₁k₂) sin φ with "
            "φ = (n−m)θ. 003's own 'dot product property' (ROPE-DOT-PROPERTY-003) gives this sign.",
        ),
    ),
    Claim(
        id="ROPE-DOT-PROPERTY-003",
        title=r"003: $\langle \mathrm{RoPE}(q,m,i), \mathrm{RoPE}(k,n,i)\rangle = q_i^\top R_{(n-m)\theta_i} k_i$",
        topic="rope",
        latex=r"\langle\mathrm{RoPE}(q,m,i),\mathrm{RoPE}(k,n,i)\rangle = q_i^\top R_{(n-m)\theta_i} k_i",
        statement=_per_block_and_instances(_dot_property, r"\langle R_m q, R_n k\rangle = q^\top R_{n-m} k"),
        assumptions=("q, k real", "m, n integers"),
        sources=(
            quote(
                EXPLAINER_003,
                "\\[ \\langle \\operatorname{RoPE}(q,m,i), \\operatorname{RoPE}(k,n,i) \\rangle = "
                "q_i^\\top R_{(n-m)\\theta_i} k_i \\]",
            ),
        ),
    ),
    Claim(
        id="ROPE-SHIFT-INVARIANCE-003",
        title="003: shifting both tokens together leaves the RoPE score unchanged",
        topic="rope",
        latex=r"\langle R_{m+\delta}q, R_{n+\delta}k\rangle = \langle R_m q, R_n k\rangle",
        statement=_per_block_and_instances(
            _shift_invariance,
            r"\langle R_{m+\delta}q, R_{n+\delta}k\rangle = "
            r"\langle R_m q, R_n k\rangle",
        ),
        assumptions=("q, k real", "m, n, δ integers"),
        sources=(quote(EXPLAINER_003, "If you shift both tokens together, the relative phase term stays the same."),),
    ),
    Claim(
        id="ROPE-NORM-PRESERVING",
        title="RoPE keeps the norm at every position",
        topic="rope",
        latex=r"\|R^d_{\Theta,m}x\| = \|x\| \quad\text{for every } m",
        statement=AllOf(
            [
                _per_block_and_instances(_norm, r"\|R_m x\|^2 = \|x\|^2"),
                Identity(rotation(m * theta).T * rotation(m * theta), sp.eye(2), name="RᵀR = I (orthogonal)"),
                Identity(rotation(m * theta).det(), sp.Integer(1), name="det R = 1 (a rotation, not a reflection)"),
            ]
        ),
        assumptions=("x real", "m integer (any, also beyond the training length)"),
        sources=(
            quote(NOTE_001, "So RoPE does not explode or vanish. It rotates, keeping the norm constant."),
            quote(NOTE_000, "So RoPE does not explode or vanish. It rotates, keeping the norm constant."),
            quote(
                EXPLAINER_003,
                "Rotary Position Embedding rotates each 2D slice of query and key vectors by a position-dependent "
                "angle. That keeps content intact",
            ),
            quote(
                BLOG_004,
                "rotation matrices are orthonormal (they preserve vector length), so RoPE doesn’t "
                "distort the embedding norms",
            ),
        ),
        interpretation="'Neither explodes nor vanishes' read as exact norm preservation ‖R_m x‖ = ‖x‖ (and R "
        "orthogonal with det 1).",
    ),
    Claim(
        id="ROPE-FREQUENCIES",
        title=r"$\theta_i = 10000^{-2(i-1)/d}$, i = 1…d/2, is the sinusoidal encoding's spectrum",
        topic="rope",
        latex=r"\{10000^{-2(i-1)/d}\}_{i=1}^{d/2} = \{\omega_j = 10000^{-2j/d}\}_{j=0}^{d/2-1}",
        statement=Derivation(
            [
                Identity(
                    sp.Integer(10000) ** (-2 * ((i_index + 1) - 1) / d_dim),
                    sinusoidal_frequency(i_index, d_dim),
                    name="θ_{j+1} = ω_j under the bijection j ↦ j + 1",
                ),
                Identity(
                    rope_frequency(i_index, d_dim),
                    sinusoidal_frequency(i_index, d_dim),
                    name="0-based RoPE frequency = ω_j",
                ),
            ],
            rule="reindexing",
            conclusion=r"\theta_{j+1} = \omega_j,\ j = 0,\dots,d/2-1",
        ),
        assumptions=("d even positive integer", "base 10000"),
        sources=(
            quote(NOTE_001, "where $\\theta_i = 10000−2(i−1)/d, \\quad i∈[1,2,...,d/2]$"),
            quote(SUMMARY_002, "$$ \\theta_i = 10000^{-2(i-1)/d} $$ (same spectrum as sinusoidal PE)"),
        ),
        interpretation="001 writes '10000−2(i−1)/d' (the caret was lost); read as the power 10000^{−2(i−1)/d}.",
    ),
    Claim(
        id="ROPE-SINE-TERM-WHOLE-SCORE-003",
        title="The sine term is not a negligible correction: for q ⟂ k it is the whole score",
        topic="rope",
        latex=r"\langle q_i, k_i\rangle = 0\ \forall i \implies \langle R_m q, R_n k\rangle = \sum_i "
        r"(q_{i,1}k_{i,2} - q_{i,2}k_{i,1})\sin((m-n)\theta_i)",
        statement=Claimed("with each query pair orthogonal to its key pair the score is the sine term"),
        assumptions=("every even d, every spectrum, real positions",),
        sources=(
            quote(
                EXPLAINER_003,
                "The sine term is the phase-sensitive part: it tracks the oriented relationship between the two "
                r"coordinates in pair \(i\), so it is part of the real positional signal, not just a negligible "
                "correction.",
            ),
        ),
        interpretation="Read as: the sine term can carry the whole positional signal — when each query pair is "
        "orthogonal to its key pair the score is exactly the sine term (e₀ against e₁ scores sin((m − n)θ₀)). "
        "Proved for every even d.",
    ),
]
