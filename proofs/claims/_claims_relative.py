"""Claims about relative position representations (RPE-*): clipped offsets, the offset table, linear attention.

Decided in proofs/coq/Relative.v and proofs/coq/LinearBias.v (bound in `_bound_relative`). RPE-SHIFT-INVARIANCE
and RPE-KV-CACHE-IMPOSSIBLE, which the SymPy engine also checks, are registered with the sinusoidal claims
(`_claims_sinusoidal`). None of the claims here has a formula the SymPy engine decides on its own, so each statement
is `Claimed` (or a `Witness` the kernel's proof generalises): the Coq kernel decides it under the reading written in
`interpretation`, and the numeric mirrors report it as not numerically tested.
"""

from __future__ import annotations

import sympy as sp

from ..engine._statements import Claimed, Witness
from ._claim import Claim
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
CLAIMS = [
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
        statement=Witness(
            _BIAS_MINOR,
            {},
            relation="positive",
            name="the two-token minor of exp(b(j − i))",
            description="clipped table β(−1) = β(1) = 0, β(0) = 1: exp(b(j − i)) on positions 0, 1 is "
            "[[e, 1], [1, e]], whose determinant e² − 1 > 0, so it is no f(i)·g(j)",
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
        "in the offset (ALiBi's slope on a causal sequence) does factor, also proved. Not claimed: that no "
        "position features of a fixed size r > 1 could absorb a given bias (the rank of exp(b(j − i)) over L "
        "positions); the kernel decides the one-summary, scalar-factor form.",
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
