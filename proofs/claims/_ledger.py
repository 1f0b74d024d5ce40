"""The registry: every claim, in ledger order, looked up by ID."""

from __future__ import annotations

from functools import cache

from ._claim import Claim


@cache
def all_claims() -> tuple[Claim, ...]:
    """Every claim in the ledger, grouped by topic (built on first use: SymPy objects are not free)."""
    from . import (
        _claims_attention,
        _claims_binary,
        _claims_cache,
        _claims_decay,
        _claims_prose,
        _claims_relative,
        _claims_rope,
        _claims_scaling,
        _claims_sinusoidal,
    )

    claims: list[Claim] = []
    for module in (
        _claims_attention,
        _claims_sinusoidal,
        _claims_rope,
        _claims_decay,
        _claims_prose,
        _claims_relative,
        _claims_binary,
        _claims_cache,
        _claims_scaling,
    ):
        claims.extend(module.CLAIMS)
    ids = [c.id for c in claims]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate claim IDs: {sorted(duplicates)}")
    return tuple(claims)


def claim_ids() -> list[str]:
    """The IDs of every claim, in ledger order."""
    return [c.id for c in all_claims()]


def get_claim(claim_id: str) -> Claim:
    """The claim with this ID (`KeyError` naming the known IDs otherwise)."""
    for claim in all_claims():
        if claim.id == claim_id:
            return claim
    raise KeyError(f"unknown claim ID {claim_id!r}; known: {', '.join(claim_ids())}")
