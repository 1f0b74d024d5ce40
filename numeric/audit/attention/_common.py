"""Shared pieces of the attention checks: token samples, the bounds they are held to, the lengths they probe.

Claims served: none of its own (the checks cite theirs).
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.reference.tolerances import reordered_logits_bound

from ._model import TinyModel

__all__ = ["LENGTH", "largest_difference", "reorder_bound", "switch_length", "tokens"]

#: Tokens per probe sequence (short: the model is random, the properties hold at every length).
LENGTH = 12


def tokens(batch: int, length: int, seed: int) -> Any:
    """Random token ids below the vision markers of the tiny vocabulary."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randint(3, 40, (batch, length), generator=generator)


def largest_difference(a: Any, b: Any) -> float:
    """max |a − b| as a float (NaN when either side is not finite)."""
    import torch

    if not (torch.isfinite(a).all() and torch.isfinite(b).all()):
        return float("nan")
    return float((a - b).abs().max())


def reorder_bound(tiny: TinyModel, length: int, *logits: Any) -> float:
    """`reordered_logits_bound` for passes of this model over `length` tokens."""
    scale = max(float(x.abs().max()) for x in logits)
    config = tiny.config
    accumulation = int(config.hidden_size) + int(getattr(config, "intermediate_size", 0) or 0) + length
    # Mixture-of-experts routers compute their logits in float32 whatever the model's dtype (DeepSeek-V3).
    routed = any("Router" in type(m).__name__ for m in tiny.model.modules())
    return reordered_logits_bound(scale, accumulation, len(tiny.attention_modules()), tiny.dtype,
                                  island_dtype="float32" if routed else None)


def switch_length(tiny: TinyModel) -> int | None:
    """The length where the spectrum switches (LongRoPE's L₀, dynamic NTK's M), or None for fixed spectra."""
    for rope in tiny.rope.values():
        kind = rope.get("rope_type", rope.get("type"))
        if kind in {"longrope", "su"}:
            return int(rope.get("original_max_position_embeddings") or tiny.config.original_max_position_embeddings)
        if kind == "dynamic":
            return int(tiny.config.max_position_embeddings)
    return None
