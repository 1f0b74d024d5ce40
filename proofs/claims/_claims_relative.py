"""Claims about relative position representations (RPE-*): clipped offsets, the offset table, linear attention.

Decided in proofs/coq/Relative.v and proofs/coq/LinearBias.v (bound in `_bound_relative`); RPE-SHIFT-INVARIANCE
and RPE-KV-CACHE-IMPOSSIBLE, whose identities the SymPy engine also searches, in proofs/coq/Rope.v (bound in
`_bound_rope`). The other claims here have no formula the SymPy engine decides on its own, so each statement is
`Claimed` (or a `Witness` the kernel's proof generalises): the Coq kernel decides it under the reading written in
`interpretation`, and the numeric mirrors report it as not numerically tested.
"""

from __future__ import annotations

import sympy as sp

from ..engine._formulas import delta, dot, real_matrix, real_vector
from ..engine._statements import AllOf, Claimed, Identity, Refutation, Witness
from ._claim import Claim, Correction
from ._sources import BLOG_004, NOTE_000, NOTE_001, SHAW, quote

_CLIP = (
    "relative position is undefined so we either clip or mask zero which introduces spurious attention between "
    "distant unrelated tokens"
)
_TABLE = (
    r"be learned relative positional embedding table for keys, indexed by relative distance $r = j - i \in [-L+1, L-1]$"
)
_FULL_MATRICES = (
    "many RPE variants require full attention matrices, making them incompatible with efficient attention "
    "mechanisms such as Performer or Linformer"
)
# exp(b(j − i)) on positions 0, 1 for the clipped table β(−1) = β(1) = 0, β(0) = 1: a factored weight f(i)·g(j)
# would make this 2 × 2 minor zero.
_CLIPPED_TABLE = {-1: sp.Integer(0), 0: sp.Integer(1), 1: sp.Integer(0)}
_BIAS_MINOR = sp.Matrix(2, 2, lambda i, j: sp.exp(_CLIPPED_TABLE[j - i])).det()
_RANK_SIZE = 4
_BIAS_DETERMINANT = sp.Matrix(
    _RANK_SIZE, _RANK_SIZE, lambda i, j: sp.exp(_CLIPPED_TABLE[max(-1, min(1, j - i))])
).det()
"""det of the 4 × 4 weights exp(β(clip(j − i))) with window 1: (e − 1)³(e + 3) ≠ 0, rank 4 (the rank reading)."""
# The Shaw-style score and the cached keys (RPE-SHIFT-INVARIANCE, RPE-KV-CACHE-IMPOSSIBLE).
_query = real_vector("q", 2)
_key = real_vector("k", 2)
_table = [sp.Function("r1"), sp.Function("r2")]
_i_pos, _j_pos = sp.symbols("i j", integer=True)
_scale = sp.Symbol("s", positive=True)  # 1/sqrt(d_z)


def _relative_score(query: sp.Matrix, key: sp.Matrix, row: sp.Expr, col: sp.Expr) -> sp.Expr:
    """`e_ij = (q·k + q·R_{j−i}) / √d_z` with a learned table `R_r = (r1(r), r2(r))` (Shaw et al.)."""
    bias = sp.Matrix([f(col - row) for f in _table])
    return _scale * (dot(query, key) + dot(query, bias))


def _cached_keys(tokens: list[sp.Matrix], w_k: sp.Matrix) -> list[sp.Matrix]:
    """Keys computed once, when each token arrived (they do not depend on the later step t)."""
    return [w_k * x for x in tokens]


def _rpe_step_scores(query: sp.Matrix, keys: list[sp.Matrix], step: int) -> sp.Matrix:
    return sp.Matrix([_relative_score(query, key, sp.Integer(step), sp.Integer(j)) for j, key in enumerate(keys)])


_rpe_tokens = [real_vector(f"x{j}_", 2) for j in range(3)]
_rpe_wq, _rpe_wk = real_matrix("Wq", 2, 2), real_matrix("Wk", 2, 2)
_rpe_cache = Identity(
    # step t = 2 recomputed from scratch vs. from keys cached at steps 0 and 1 plus the fixed table
    _rpe_step_scores(_rpe_wq * _rpe_tokens[2], [_rpe_wk * x for x in _rpe_tokens], 2),
    _rpe_step_scores(_rpe_wq * _rpe_tokens[2], [*_cached_keys(_rpe_tokens[:2], _rpe_wk), _rpe_wk * _rpe_tokens[2]], 2),
    name="scores at step t from cached keys + table lookups R_{j−t} = full recomputation",
)


CLAIMS = [
    Claim(
        id="RPE-SHIFT-INVARIANCE",
        title="Shifting both positions by δ leaves the relative-bias score unchanged",
        topic="relative",
        latex=r"e_{i+\delta,\,j+\delta} = e_{ij},\quad e_{ij} = \tfrac{1}{\sqrt{d_z}}\big(q^\top k + "
        r"q^\top R^K_{j-i}\big)",
        statement=Identity(
            _relative_score(_query, _key, _i_pos + delta, _j_pos + delta),
            _relative_score(_query, _key, _i_pos, _j_pos),
        ),
        assumptions=("q, k fixed (the same two tokens)", "R^K an arbitrary learned table", "i, j, δ integers"),
        sources=(
            quote(NOTE_001, "Which means $e_{ij}$ is shift-invariant, preserving the relative structure."),
            quote(SHAW, "relative position representations a^K_{ij}"),
        ),
        interpretation="The seed's argument is about the positional term ('the relative bias term depends "
        "only on the relative offset … preserving the relative structure'), so a referee reads it as: the same "
        "two tokens moved together by δ keep their score — proved. The seed's formula writes Q_{i+δ}, K_{j+δ} "
        "(the tokens found at the new positions); taken at its word that compares different tokens.",
        literal="Another reading, the formula as written: e_{i+δ,j+δ} = e_{ij} for every sequence, with the tokens "
        "found at the shifted positions — false (the kernel refutes it).",
    ),
    Claim(
        id="RPE-KV-CACHE-IMPOSSIBLE",
        title="With relative position biases, KV caching is impossible",
        topic="relative",
        latex=r"\text{step-}t\text{ scores } e_{tj} \text{ cannot be computed from cached } K_j, V_j",
        statement=Refutation(
            inner=Claimed("step-t attention cannot be computed from cached keys and values"),
            against=_rpe_cache,
        ),
        assumptions=("Shaw-style bias q_tᵀR_{j−t} with a fixed learned table R",),
        sources=(
            quote(
                NOTE_000,
                "Since $t$ increases at every decoding step, the relative position $j - t$ changes, "
                "making caching impossible.",
            ),
            quote(NOTE_001, "the relative position $j - t$ changes making caching impossible"),
        ),
        interpretation="Refuted by construction: the cached computation (keys stored when each token arrived, "
        "bias looked up from the fixed table with the current offset) is proved equal to the full recomputation.",
        correction=Correction(
            latex=r"e_{tj} = \tfrac{1}{\sqrt{d}}\big(Q_t\,\mathcal K_j^\top + Q_t R_{j-t}^\top\big) "
            r"\text{ with } \mathcal K_j \text{ read from the cache}",
            statement=_rpe_cache,
            explanation="Keys and values are cached as usual; only the bias term Q_t R_{j−t} is formed per step "
            "from the new query and the fixed table, O(t·d) work — the same order as Q_t Kᵀ.",
        ),
    ),
    Claim(
        id="RPE-CLIP-INDISTINGUISHABLE",
        title="With clipping at k, relative offsets beyond k are indistinguishable",
        topic="relative",
        latex=r"j - i \ge k \wedge j' - i' \ge k \implies e_{ij} = e_{i'j'} \quad (\text{same } q, k;\ "
        r"\text{likewise} \le -k)",
        statement=Claimed("offsets at or beyond the clipping window score alike"),
        assumptions=(
            "Shaw's score (qᵀk + qᵀR^K_{clip(j−i)})/√d with clip(r) = max(−k, min(k, r)), k ≥ 0",
            "every d, every table R^K, integer positions",
        ),
        sources=(quote(NOTE_000, _CLIP), quote(NOTE_001, _CLIP)),
        interpretation="Read as: once offsets are clipped, every offset at or beyond k reads the same table row, "
        "so two token pairs at distances k and 1000 score alike — the model cannot tell them apart (the "
        "spurious attention the seed names). Proved for every d and table.",
    ),
    Claim(
        id="RPE-BREAKS-LINEAR-ATTENTION",
        title="A relative bias on the logits breaks the linear-attention factorisation",
        topic="linear-attention",
        latex=r"b(1) + b(-1) \ne 2b(0) \implies \neg\exists f, g:\ \kappa_{ij}\,e^{b(j-i)} = f(i)\,g(j)\,"
        r"\kappa_{ij}\ (i, j \in \{0, 1\})",
        statement=AllOf(
            [
                Witness(
                    _BIAS_MINOR,
                    {},
                    relation="positive",
                    name="the two-token minor of exp(b(j − i))",
                    description="clipped table β(−1) = β(1) = 0, β(0) = 1: exp(b(j − i)) on positions 0, 1 is "
                    "[[e, 1], [1, e]], whose determinant e² − 1 > 0, so it is no f(i)·g(j)",
                ),
                Witness(
                    _BIAS_DETERMINANT,
                    {},
                    relation="positive",
                    name="the 4 × 4 weights exp(β(clip(j − i))) have full rank",
                    description="window 1, β = 1 at offset 0 and 0 elsewhere: the weights (e − 1)I + J over 4 "
                    "positions have determinant (e − 1)³(e + 3) > 0",
                ),
            ]
        ),
        assumptions=(
            "every positive kernel score κ(i, j) (softmax's exp(qᵢ·kⱼ), a positive feature map's φ(qᵢ)·φ(kⱼ))",
            "every bias b on integer offsets with b(1) + b(−1) ≠ 2b(0); Shaw-style clipping at every window K ≥ 1",
            "two tokens at positions 0 and 1 suffice",
        ),
        sources=(
            quote(NOTE_000, _FULL_MATRICES),
            quote(NOTE_001, _FULL_MATRICES),
            quote(
                BLOG_004,
                "many relative-encoding schemes require adding bias terms or adjustments that don’t play nicely "
                "with kernelized attention",
            ),
            quote(SHAW, "clip(x, k) = max(−k, min(k, x))"),
        ),
        interpretation="Read as: linear attention computes every query's output from one summary of the keys, "
        "Σⱼ g(j)φ(kⱼ)vⱼᵀ, so each weight must be the kernel score times a factor of the query's position and a "
        "factor of the key's (a query factor cancels in the normalised output); a bias b(j − i) added to the "
        "logits multiplies the weight by exp(b(j − i)). Proved for every positive kernel score: when b(1) + "
        "b(−1) ≠ 2b(0) — e.g. a Shaw-style clipped table whose rows −1, 0, 1 are not in arithmetic progression, "
        "for every window K ≥ 1 — no such factors exist, already for two tokens. 'Many', not all: a bias affine "
        "in the offset (ALiBi's slope on a causal sequence) does factor, also proved. 'Require full attention "
        "matrices' is also read as a rank statement: a clipped table's weights over L positions form an L × L "
        "matrix whose rank grows with L — proved for every L with window 1 and the table 1 at offset 0, 0 "
        "elsewhere (the matrix (e − 1)I + J has independent columns). An r-feature linear attention produces "
        "weight matrices φ(Q)φ(K)ᵀ of rank at most r, so at L = r + 1 it cannot produce them; that bound is "
        "standard linear algebra, stated here, not kernel-checked.",
    ),
    Claim(
        id="RPE-OFFSET-COUNT",
        title="L positions have 2L − 1 relative offsets",
        topic="relative",
        latex=r"\{\,j - i : 0 \le i, j < L\,\} = [-(L-1),\, L-1] \cap \mathbb Z,\quad |\cdot| = 2L - 1",
        statement=Claimed("the offsets of L positions are the 2L − 1 integers from −(L−1) to L−1"),
        assumptions=("L ≥ 1 positions 0 … L−1",),
        sources=(quote(NOTE_000, _TABLE), quote(NOTE_001, r"R^K \in \mathbb{R}^{(2L - 1) \times d_z}")),
        interpretation="Read as: a table with one row per offset of L positions needs exactly 2L − 1 rows: every "
        "offset lies in [−(L−1), L−1], every integer there is an offset, and the range has 2L − 1 integers.",
    ),
]
