"""Padding and batches: a request's logits must not depend on its pads or on the other requests.

- **left-padding**: a left-padded row (positions from the mask) equals the request alone (decoding after a
  padded prefill is checked by `kv-cache`).
- **right-padding**: a right-padded row's real tokens equal the request alone.
- **batch-isolation**: one request's logits are the same whatever shorter request shares its batch (the
  positions of one row must not leak into another's, as in a shared position tensor).

Claims served: ROPE-QK-RELATIVE (each row's scores depend on its own relative positions only),
ROPE-KV-CACHE-REUSE (decode after a padded prefill).
"""

from __future__ import annotations

from ._common import LENGTH, largest_difference, reorder_bound, switch_length, tokens
from ._model import TinyModel
from ._report import AttentionFinding, numeric_finding

__all__ = ["check_batch_isolation", "check_left_padding", "check_right_padding"]

CLAIMS = ("ROPE-QK-RELATIVE", "ROPE-KV-CACHE-REUSE")
PADS = 5


def _length(tiny: TinyModel) -> int:
    switch = switch_length(tiny)
    return LENGTH if switch is None else min(LENGTH, switch - 4)


def _padded_vs_alone(tiny: TinyModel, left: bool, seed: int) -> tuple[float, float]:
    """The largest difference between a padded request's real tokens and the request alone, and its bound."""
    import torch

    length = _length(tiny)
    ids = tokens(1, length, seed=seed)
    alone, _ = tiny.step(ids)
    pads, ones = torch.zeros(1, PADS, dtype=torch.long), torch.ones(1, length, dtype=torch.long)
    padded = torch.cat([pads, ids] if left else [ids, pads], dim=1)
    mask = torch.cat([pads, ones] if left else [ones, pads], dim=1)
    got = tiny.step(padded, attention_mask=mask)[0]
    got = got[:, PADS:] if left else got[:, :length]
    return largest_difference(alone, got), reorder_bound(tiny, length + PADS, alone, got)


def check_left_padding(tiny: TinyModel) -> AttentionFinding:
    """A left-padded request equals the request alone (prefill; decode after padding is `kv-cache`'s)."""
    observed, bound = _padded_vs_alone(tiny, left=True, seed=3)
    return numeric_finding("left-padding", CLAIMS, observed, bound, f"{PADS} left pads vs the request alone",
                           "positions of a left-padded row must come from its attention mask, not from arange")


def check_right_padding(tiny: TinyModel) -> AttentionFinding:
    """A right-padded request's real tokens equal the request alone."""
    observed, bound = _padded_vs_alone(tiny, left=False, seed=4)
    return numeric_finding("right-padding", CLAIMS, observed, bound, f"{PADS} right pads vs the request alone",
                           "real tokens must not attend to, or be positioned after, the pads")


def check_batch_isolation(tiny: TinyModel) -> AttentionFinding:
    """Request A (longest, unpadded) beside two different shorter left-padded requests: A's logits are A's alone."""
    import torch

    length = _length(tiny)
    request = tokens(1, length, seed=5)
    alone, _ = tiny.step(request)
    worst, bound = 0.0, 0.0
    for seed, short in ((6, length - PADS), (7, length - 2)):
        other = tokens(1, short, seed=seed)
        row = torch.cat([torch.zeros(1, length - short, dtype=other.dtype), other], dim=1)
        mask = torch.ones(2, length, dtype=torch.long)
        mask[0, : length - short] = 0
        got, _ = tiny.step(torch.cat([row, request], dim=0), attention_mask=mask)
        observed = largest_difference(alone, got[1:])
        limit = reorder_bound(tiny, length, alone, got)
        if not observed <= limit or observed >= worst:
            worst, bound = observed, limit
            if not observed <= limit:
                break
    return numeric_finding("batch-isolation", CLAIMS, worst, bound,
                           "a request beside two different shorter requests vs alone",
                           "each row's positions must come from its own mask; one request changes another's rotation")
