"""Claims about what a KV cache holds with additive and rotary positions, and reusing it: ROPE-KV-CACHE-REUSE,
ROPE-PREFIX-REPHASE (decided in proofs/coq/Decay.v), ROPE-KV-CACHE-SIZE, ROPE-CACHED-KEY-POSITIONAL-003 and
APE-PREFIX-STALE-003 (Cache.v).

The last two ("no function of the key alone", "no longer matches") are no formula the SymPy engine decides, so their
statements are `Claimed`: the Coq kernel decides them under the reading written in `interpretation`, and the numeric
mirrors report them as not numerically tested.
"""

from __future__ import annotations

import sympy as sp

from ..engine._formulas import attention, delta, dot, m, n, real_vector, rope_matrix, rope_rows, rotation, theta
from ..engine._statements import AllOf, Claimed, Identity
from ._claim import Claim
from ._sources import EXPLAINER_003, NOTE_000, NOTE_001, quote

_tokens = [real_vector(f"x{j}_", 2) for j in range(3)]
_token_matrix = sp.Matrix.hstack(*_tokens).T
_positions = [sp.Integer(j) for j in range(3)]


def _cache_keys() -> list[sp.Matrix]:
    """Keys rotated once, by their own position, when each token was appended to the cache."""
    return [rope_matrix(position, [theta]) * token for position, token in zip(_positions, _tokens, strict=True)]


def _decode_step_from_cache() -> sp.Matrix:
    """Attention output of the newest token using only its rotated query and the cached rotated keys."""
    query = (rope_matrix(_positions[-1], [theta]) * _tokens[-1]).T
    keys = sp.Matrix.hstack(*_cache_keys()).T
    return attention(query, keys, _token_matrix)


def _full_recomputation() -> sp.Matrix:
    """The last row of full causal attention recomputed from scratch for every token."""
    rotated = rope_rows(_token_matrix, _positions, [theta])
    return attention(rotated, rotated, _token_matrix)[-1, :]


def _cached_scores_relative() -> Identity:
    keys = _cache_keys()
    query = rope_matrix(_positions[-1], [theta]) * _tokens[-1]
    lhs = sp.Matrix([dot(query, key) for key in keys])
    rhs = sp.Matrix([(_tokens[-1].T * rotation((j - 2) * theta) * _tokens[j])[0, 0] for j in range(3)])
    return Identity(lhs, rhs, name="cached scores = q_tᵀ R_{n−t} k_n (relative form)")


_prefix_key = real_vector("k", 2)
_prefix_query = real_vector("q", 2)


CLAIMS = [
    Claim(
        id="ROPE-KV-CACHE-REUSE",
        title="Keys cached with R_n applied stay valid; rotating only the new query reproduces full attention",
        topic="cache",
        latex=r"\mathrm{softmax}\big((R_tq_t)^\top[R_nk_n]_{n\le t}\big)V = \mathrm{Attn}_{\mathrm{full}}(X)_t",
        statement=AllOf(
            [
                Identity(_decode_step_from_cache(), _full_recomputation(), name="cached decode step = full recompute"),
                _cached_scores_relative(),
            ]
        ),
        assumptions=("causal decoding, 3 tokens, d = 2, symbolic tokens", "values not rotated"),
        sources=(
            quote(
                NOTE_000,
                "only the incoming query at position $m$ needs to be rotated by $R_m$, while the "
                "previously cached keys $k_n$ remain fixed with their pre-applied $R_n$ rotation.",
            ),
            quote(NOTE_001, "cached key–value pairs can be reused without recomputation."),
        ),
        interpretation="The claim is true; the justification quoted with it in the seeds is the cosine-only "
        "formula ROPE-KV-COS-ONLY, which is refuted — the correct reason is ROPE-DOT-PROPERTY-003.",
    ),
    Claim(
        id="ROPE-PREFIX-REPHASE",
        title="A cached prefix moved by Δ can be re-phased with R(Δ) instead of recomputed",
        topic="cache",
        latex=r"R(\Delta\theta)R(n\theta)k = R((n+\Delta)\theta)k,\quad \langle R_{m+\Delta}q, R(\Delta)R_nk\rangle = "
        r"\langle R_mq, R_nk\rangle",
        statement=AllOf(
            [
                Identity(
                    rotation(delta * theta) * rotation(n * theta) * _prefix_key,
                    rotation((n + delta) * theta) * _prefix_key,
                    name="re-phased key = key rotated at its new position",
                ),
                Identity(
                    dot(
                        rotation((m + delta) * theta) * _prefix_query,
                        rotation(delta * theta) * rotation(n * theta) * _prefix_key,
                    ),
                    dot(rotation(m * theta) * _prefix_query, rotation(n * theta) * _prefix_key),
                    name="scores inside the moved block are unchanged",
                ),
            ]
        ),
        assumptions=("exact arithmetic (precision of re-phasing is measured by the numeric mirror)",),
        sources=(
            quote(
                EXPLAINER_003,
                "systems can sometimes reuse a cached prefix by applying the new offset instead of "
                "recomputing all token representations.",
            ),
        ),
    ),
    Claim(
        id="ROPE-KV-CACHE-SIZE",
        title="RoPE alone does not shrink the KV cache (0% reduction)",
        topic="cache",
        latex=r"|\text{entry}_{\text{RoPE}}(n)| = |\text{entry}_{\text{plain}}(n)| = d + d_v,\ "
        r"\text{entry}_{\text{RoPE}}(n) = (R_nk_n, v_n) \text{ is exact and determines } (k_n, v_n)",
        statement=AllOf(
            [
                Identity(
                    rotation(n * theta).T * (rotation(n * theta) * _prefix_key),
                    _prefix_key,
                    name="the cached rotated key determines the key: same d numbers, nothing to drop",
                ),
                Identity(_decode_step_from_cache(), _full_recomputation(), name="decoding from that cache"),
            ]
        ),
        assumptions=(
            "one layer and one head; a cache entry is the list of reals stored per token: key (d = 2h) then "
            "value (d_v)",
            "every even d, every d_v, every spectrum θ, real positions",
        ),
        interpretation="'0% smaller KV cache' read as: the number of reals stored per token, layer and head is "
        "the same with and without RoPE. The kernel models an entry as that list of reals — (k_n, v_n) without "
        "RoPE, (R_n k_n, v_n) with it — and proves both have d + d_v entries, that decoding from the RoPE entry "
        "gives the RoPE score and the value, that the RoPE entry determines the plain one (R_{−n} undoes "
        "R_n), and that no key coordinate can be dropped (entries scoring alike against every query agree).",
        sources=(quote(EXPLAINER_003, "0% smaller KV cache in normal decoding."),),
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
        id="APE-PREFIX-STALE-003",
        title="With additive positions, a moved cached prefix no longer matches its new location",
        topic="cache",
        latex=r"\delta \ne 0 \implies x + \mathrm{PE}(n) \ne x + \mathrm{PE}(n + \delta);\quad "
        r"W_K(x + \mathrm{PE}(n+\delta)) = W_K(x + \mathrm{PE}(n)) + W_K(\mathrm{PE}(n+\delta) - \mathrm{PE}(n))",
        statement=Claimed("a token cached with its old position vector differs from the token at the new one"),
        assumptions=(
            "every even d ∉ {2, 4, 8} (d = 128 included), base 10000, every real position n and shift δ ≠ 0, "
            "every token x",
            "the first-layer correction: every even d, every W_K, every real n, δ",
        ),
        sources=(
            quote(
                EXPLAINER_003,
                "Move the same prefix to a new location and the cached vectors still contain the old absolute "
                "position, so they no longer match the new block location.",
            ),
        ),
        interpretation="Read as: a token cached as x + PE(n) is not the vector x + PE(n + δ) it must be after the "
        "move, for every shift δ ≠ 0 — decided for every even d the uniqueness theorem covers (d ∉ {2, 4, 8}, "
        "base 10000; from SPE-UNIQUE-POSITION). The explainer's conclusion, 'you usually have to recompute the "
        "whole block', is decided only where it does not hold: at the first layer a cached key W_K(x + PE(n)) "
        "is corrected by adding W_K(PE(n + δ) − PE(n)), one vector per shift, independent of the token (proved "
        "for every even d). That later layers need the recomputation (their inputs mix every position of the "
        "block through softmax) is not decided here. RoPE keys are re-phased instead (ROPE-PREFIX-REPHASE).",
    ),
]
