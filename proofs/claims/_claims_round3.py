"""Claims the seeds make that the ledger missed until ISSUE #18 (point 9), decided in proofs/coq/Round3.v.

None has a formula the SymPy engine decides on its own (counting, bits, "no function of the key alone", a
family of vectors), so each statement is `Claimed`: the Coq kernel decides it under the reading written in
`interpretation`, and the numeric mirrors report it as not numerically tested.
"""

from __future__ import annotations

import sympy as sp

from ..engine._statements import Claimed, Witness
from ._claim import Claim
from ._sources import BLOG_004, EXPLAINER_003, NOTE_000, NOTE_001, SHAW, quote

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
_DISTINCT = "each pair of dimensions corresponds to a sinusoid at a distinct wavelength"

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
        id="BINARY-3-TO-4-FLIPS-004",
        title="From 3 (011) to 4 (100) every bit flips",
        topic="sinusoidal",
        latex=r"011 \to 100:\ 3 \text{ of } 3 \text{ bits flip}",
        statement=Claimed("all three bits of 011 flip on the way to 100"),
        assumptions=("the three-bit strings the sentence writes",),
        sources=(quote(BLOG_004, "going from position 3 (binary $011$) to 4 (binary $100$) flips all bits"),),
        interpretation="Read with the strings the sentence itself writes (011 and 100): all three bits flip — "
        "proved by computation.",
        literal="Another reading, in the 8-bit representation of the blog's table (00000011 → 00000100): 3 of "
        "the 8 bits flip, not all (the kernel refutes 'all 8').",
    ),
    Claim(
        id="BINARY-TABLE-004",
        title="The 8-bit table lists each position in binary, and the lowest bit varies fastest",
        topic="sinusoidal",
        latex=r"PE_{p,0:8} = \mathrm{bin}_8(p)\ (p = 0,\dots,11);\ \text{over } p = 0..120 \text{ bit } 0 "
        r"\text{ changes } 120 \text{ times, bit } 7 \text{ never}",
        statement=Claimed("the table rows are the 8-bit binary positions; the lowest bit changes most often"),
        assumptions=("rows as printed, most significant digit first", "positions 0 … 120 of the blog's figure"),
        sources=(
            quote(BLOG_004, "Consider these binary encodings assuming 8-bit representation"),
            quote(BLOG_004, "the lowest bit (i.e. $PE_{p,0}$) varies a lot compared to the higher indices"),
        ),
        interpretation="Read as: each printed row is its position in 8-bit binary (most significant digit first, "
        "as binary is written), and the lowest bit changes far more often than the higher ones. Proved by "
        "computation. Note: with the rows printed most-significant first, the text's PE_{p,0} (the lowest bit) "
        "is the rightmost digit, not the first one the subscript 0:8 suggests.",
    ),
    Claim(
        id="ROPE-CACHED-KEY-POSITIONAL-003",
        title="Cached RoPE keys are not position-free",
        topic="cache",
        latex=r"\neg\,\exists\, s:\ \forall n, k:\ R_n k = s(k)",
        statement=Claimed("no function of the key alone gives the cached rotated key at every position"),
        assumptions=("every even d ≥ 2, RoFormer spectrum (θ₀ = 1), real positions",),
        sources=(quote(EXPLAINER_003, "vanilla RoPE does not make cached keys and values “position-free,”"),),
        interpretation="Read as: what the cache stores for a key, R_n k, depends on the key's position — no "
        "function of the key alone gives it at every position. Proved for every even d ≥ 2 (e₀ at positions "
        "0 and 1: cos 1 ≠ 1).",
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
    Claim(
        id="APE-PREFIX-STALE-003",
        title="With additive positions, a moved cached prefix no longer matches its new location",
        topic="cache",
        latex=r"\delta \ne 0 \implies x + \mathrm{PE}(n) \ne x + \mathrm{PE}(n + \delta)",
        statement=Claimed("a token cached with its old position vector differs from the token at the new one"),
        assumptions=("d = 128, base 10000, every real position n and shift δ ≠ 0, every token x",),
        sources=(
            quote(
                EXPLAINER_003,
                "Move the same prefix to a new location and the cached vectors still contain the old absolute "
                "position, so they no longer match the new block location.",
            ),
        ),
        interpretation="Read as: a token cached as x + PE(n) is not the vector x + PE(n + δ) it must be after the "
        "move, for every shift δ ≠ 0 — decided at d = 128, base 10000 (from SPE-UNIQUE-POSITION). RoPE keys are "
        "re-phased instead (ROPE-PREFIX-REPHASE).",
    ),
]
