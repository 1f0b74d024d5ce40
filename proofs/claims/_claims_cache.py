"""Claims about what a KV cache holds with additive and rotary positions, decided in proofs/coq/Cache.v.

ROPE-KV-CACHE-SIZE, ROPE-KV-CACHE-REUSE and ROPE-PREFIX-REPHASE are registered with the decay claims
(`_claims_decay`). The claims here ("no function of the key alone", "no longer matches") are no formula the SymPy
engine decides, so each statement is `Claimed`: the Coq kernel decides it under the reading written in
`interpretation`, and the numeric mirrors report it as not numerically tested.
"""

from __future__ import annotations

from ..engine._statements import Claimed
from ._claim import Claim
from ._sources import EXPLAINER_003, quote

CLAIMS = [
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
