"""Claims about permutation equivariance of self-attention (ATT-*)."""

from __future__ import annotations

import itertools

import sympy as sp

from ..engine._formulas import (
    attention,
    permutation_matrix,
    real_matrix,
    real_vector,
    rope_rows,
    sinusoidal_encoding,
    softmax_rows,
)
from ..engine._statements import AllOf, Derivation, Identity, Witness
from ._claim import Claim
from ._sources import BLOG_004, NOTE_000, NOTE_001, SUMMARY_002, VASWANI, quote

# Index-level objects for the general-n argument: σ is the permutation, (PAPᵀ)_ij = A_{σ(i)σ(j)}.
_A = sp.IndexedBase("A", real=True)
_i, _j, _k = sp.symbols("i j k", integer=True, nonnegative=True)
_size = sp.Symbol("n", integer=True, positive=True)
_sigma = sp.Function("sigma")


def _softmax_entry(row: sp.Expr, col: sp.Expr, reindexed: bool) -> sp.Expr:
    """`softmax(PAPᵀ)_ij`; with `reindexed`, the row sum has been reindexed by the bijection σ."""
    column = _k if reindexed else _sigma(_k)
    total = sp.Sum(sp.exp(_A[row, column]), (_k, 0, _size - 1))
    return sp.exp(_A[row, col]) / total


def _softmax_index_lemma() -> Identity:
    # softmax(PAPᵀ)_ij = exp(A_{σiσj}) / Σ_k exp(A_{σi σk}); reindexing k ↦ σ⁻¹(k) turns the denominator into
    # Σ_k exp(A_{σi k}), which is literally (P softmax(A) Pᵀ)_ij = softmax(A)_{σiσj}.
    lhs = _softmax_entry(_sigma(_i), _sigma(_j), reindexed=True)
    rhs = sp.exp(_A[_sigma(_i), _sigma(_j)]) / sp.Sum(sp.exp(_A[_sigma(_i), _k]), (_k, 0, _size - 1))
    return Identity(lhs, rhs, name="index level, after reindexing the row sum by σ")


def _exhaustive_permutation_orthogonal(max_size: int) -> AllOf:
    parts = []
    for size in range(1, max_size + 1):
        for order in itertools.permutations(range(size)):
            perm = permutation_matrix(order)
            parts.append(Identity(perm.T * perm, sp.eye(size), name=f"n={size}, σ={order}"))
    return AllOf(parts, name=f"PᵀP = I for every permutation with n ≤ {max_size}")


def _exhaustive_softmax(max_size: int) -> AllOf:
    parts = []
    for size in range(1, max_size + 1):
        scores = real_matrix("a", size, size)
        for order in itertools.permutations(range(size)):
            perm = permutation_matrix(order)
            parts.append(
                Identity(
                    softmax_rows(perm * scores * perm.T),
                    perm * softmax_rows(scores) * perm.T,
                    name=f"n={size}, σ={order}",
                )
            )
    return AllOf(parts, name=f"exhaustive cross-check, every permutation for n ≤ {max_size}")


def _exhaustive_attention(max_size: int) -> AllOf:
    parts = []
    wq, wk, wv = sp.symbols("w_q w_k w_v", real=True)
    for size in range(1, max_size + 1):
        tokens = real_vector("x", size)
        for order in itertools.permutations(range(size)):
            perm = permutation_matrix(order)
            permuted = perm * tokens
            parts.append(
                Identity(
                    attention(permuted * wq, permuted * wk, permuted * wv),
                    perm * attention(tokens * wq, tokens * wk, tokens * wv),
                    name=f"n={size}, σ={order}",
                )
            )
    return AllOf(parts, name=f"exhaustive cross-check, every permutation for n ≤ {max_size} (d = 1)")


def _generic_projections_attention() -> AllOf:
    """n = 2 tokens in d = 2 with arbitrary 2×2 projections W^Q, W^K, W^V (QKᵀ not symmetric)."""
    tokens = real_matrix("x", 2, 2)
    w_q, w_k, w_v = real_matrix("Wq", 2, 2), real_matrix("Wk", 2, 2), real_matrix("Wv", 2, 2)
    perm = permutation_matrix((1, 0))
    permuted = perm * tokens
    return AllOf(
        [
            Identity(
                attention(permuted * w_q, permuted * w_k, permuted * w_v),
                perm * attention(tokens * w_q, tokens * w_k, tokens * w_v),
                name="n = 2, d = 2, arbitrary W^Q, W^K, W^V, σ = swap",
            )
        ],
        name="cross-check with arbitrary projections",
    )


def _equivariance_defect(with_rope: bool) -> sp.Expr:
    """Σ of squared entries of `Attn(PX) − P·Attn(X)` for 2 tokens, d = 2, swap P, positions (0, 1)."""
    tokens = sp.Matrix([[1, 0], [1, 1]])
    perm = permutation_matrix((1, 0))
    thetas = [sp.Integer(1)]
    positions = [sp.Integer(0), sp.Integer(1)]

    def attend(x: sp.Matrix) -> sp.Matrix:
        if with_rope:
            rotated = rope_rows(x, positions, thetas)
            return attention(rotated, rotated, x)
        encoded = x + sp.Matrix.vstack(*[sinusoidal_encoding(pos, thetas).T for pos in positions])
        return attention(encoded, encoded, encoded)

    defect = attend(perm * tokens) - perm * attend(tokens)
    return sp.Add(*[entry**2 for entry in defect])


CLAIMS = [
    Claim(
        id="ATT-SOFTMAX-PERMUTATION",
        title="Row-wise softmax commutes with simultaneous row/column permutation",
        topic="attention",
        latex=r"\mathrm{softmax}(P A P^\top) = P\,\mathrm{softmax}(A)\,P^\top",
        statement=Derivation(
            [_softmax_index_lemma(), _exhaustive_softmax(4)],
            rule="reindexing",
            conclusion=r"\mathrm{softmax}(P A P^\top) = P\,\mathrm{softmax}(A)\,P^\top \text{ for every } n",
        ),
        assumptions=("A ∈ ℝ^{n×n}", "P an n×n permutation matrix", "softmax applied row-wise"),
        sources=(
            quote(
                NOTE_000,
                "Since softmax is applied row-wise, permuting both the rows and columns of $A$ and then "
                "applying softmax gives the same result as, $$\\text{Attn}(PX) = P.\\text{softmax}(A)P^\\top PV$$",
            ),
            quote(
                NOTE_001,
                "Since softmax is applied row-wise, permuting both the rows and columns of $A$ and then "
                "applying softmax gives the same result",
            ),
        ),
    ),
    Claim(
        id="ATT-EQUIVARIANCE",
        title="Self-attention without positional information is permutation equivariant",
        topic="attention",
        latex=r"\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)",
        statement=Derivation(
            [
                _softmax_index_lemma(),
                _exhaustive_permutation_orthogonal(4),
                _exhaustive_attention(3),
                _generic_projections_attention(),
            ],
            rule="reindexing",
            conclusion=r"\mathrm{softmax}\big((PQ)(PK)^\top\big)PV = P\,\mathrm{softmax}(QK^\top)P^\top P V"
            r" = P\,\mathrm{Attn}(X)",
        ),
        assumptions=("X ∈ ℝ^{n×d}", "W^Q, W^K, W^V arbitrary", "P a permutation matrix", "no positional term"),
        sources=(
            quote(
                NOTE_000,
                "$$\\text{Attn}(PX) = P.\\text{Attn}(X)$$ This shows that attention is permutation equivariant",
            ),
            quote(
                NOTE_001,
                "$$\\text{Attn}(PX) = P.\\text{Attn}(X)$$ This shows that attention is permutation equivariant",
            ),
            quote(
                SUMMARY_002,
                "Attention mechanism cannot understand word order by itself. It does not know the position of tokens.",
            ),
            quote(
                BLOG_004,
                "Transformers (GPT, BERT, etc.) process tokens in parallel, so they have no built‑in sense of word "
                "order.",
            ),
        ),
        interpretation="The seeds write Q ∈ ℝ^{3×d_k}; read as n tokens, any width d and any projections W^Q, "
        "W^K, W^V (the kernel proves it for every n, d and W; symmetry of QKᵀ is not needed). The scale 1/√d_k "
        "is a positive constant and does not affect the argument (the cross-checks use scale 1).",
    ),
    Claim(
        id="ATT-PE-BREAKS-EQUIVARIANCE",
        title="Positional encodings break permutation equivariance",
        topic="attention",
        latex=r"\exists X, P:\ \mathrm{Attn}(PX + \mathrm{PE}) \ne P\,\mathrm{Attn}(X + \mathrm{PE})"
        r"\ \text{(and likewise with RoPE on } q, k)",
        statement=AllOf(
            [
                Witness(
                    _equivariance_defect(with_rope=False),
                    {},
                    relation="positive",
                    name="sinusoidal encoding added to the inputs",
                    description="‖Attn(PX+PE) − P·Attn(X+PE)‖² > 0 for X = [[1,0],[1,1]], P = swap, d = 2",
                ),
                Witness(
                    _equivariance_defect(with_rope=True),
                    {},
                    relation="positive",
                    name="RoPE applied to queries and keys",
                    description="‖Attn_RoPE(PX) − P·Attn_RoPE(X)‖² > 0 for X = [[1,0],[1,1]], P = swap, θ = 1",
                ),
            ]
        ),
        assumptions=("positions are the token indices 0 … n−1", "W^Q = W^K = W^V = I in the witness"),
        sources=(
            quote(
                NOTE_000,
                "To break the permutation equivariance and make the attention sensitive to order we add "
                "positional encodings.",
            ),
            quote(
                NOTE_001,
                "To break the permutation equivariance and make the attention sensitive to order we add "
                "positional encodings.",
            ),
            quote(VASWANI, "we must inject some information about the relative or absolute position of the tokens"),
        ),
        interpretation="An existence statement: equivariance fails for at least one input and permutation. "
        "It is proved by a certified witness (a strictly positive squared defect).",
    ),
]
