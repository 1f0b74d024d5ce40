"""Prefill == incremental decode with the KV cache, token by token; and across a spectrum switch.

Claims served: ROPE-KV-CACHE-REUSE (keys cached with R_n stay valid; rotating only the new query reproduces
full attention), ATT-CAUSAL-ROW (the decode step's output row).
"""

from __future__ import annotations

from typing import Any

from ._common import LENGTH, largest_difference, reorder_bound, switch_length, tokens
from ._model import TinyModel
from ._report import AttentionFinding, numeric_finding

__all__ = ["check_kv_cache", "check_kv_cache_switch"]

CLAIMS = ("ROPE-KV-CACHE-REUSE", "ATT-CAUSAL-ROW")


def decode(tiny: TinyModel, ids: Any, split: int, position_ids: Any = None) -> Any:
    """Prefill `ids[:, :split]`, then feed the rest one token at a time with the cache; all logits."""
    import torch

    first = None if position_ids is None else position_ids[..., :split]
    logits, cache = tiny.step(ids[:, :split], position_ids=first, past=None)
    pieces = [logits]
    for index in range(split, ids.shape[1]):
        position = None if position_ids is None else position_ids[..., index:index + 1]
        step, cache = tiny.step(ids[:, index:index + 1], position_ids=position, past=cache)
        pieces.append(step)
    return torch.cat(pieces, dim=1)


def _splits(tiny: TinyModel, length: int) -> list[int]:
    window = tiny.window
    points = {1, length // 2}
    if window:
        points |= {window - 1, window, window + 1}
    return sorted(p for p in points if 1 <= p < length)


def padded_decode(tiny: TinyModel, ids: Any, mask: Any, split: int) -> Any:
    """Prefill `ids[:, :split]` under `mask[:, :split]`, then decode the rest one token at a time, the mask
    growing with the cache (as `generate` does for a padded batch); all logits."""
    import torch

    logits, cache = tiny.step(ids[:, :split], attention_mask=mask[:, :split])
    pieces = [logits]
    for index in range(split, ids.shape[1]):
        step, cache = tiny.step(ids[:, index:index + 1], attention_mask=mask[:, :index + 1], past=cache)
        pieces.append(step)
    return torch.cat(pieces, dim=1)


def check_kv_cache(tiny: TinyModel) -> AttentionFinding:
    """Prefill logits == prefill of a prefix + decode of the rest, at splits 1, T/2 and window ± 1, and for a
    left-padded row (decode after a padded prefill == the padded prefill of the whole row)."""
    import torch

    switch = switch_length(tiny)
    length = LENGTH if switch is None else min(LENGTH, switch - 1)
    ids = tokens(1, length, seed=1)
    full, _ = tiny.step(ids)
    pads = 3
    mask = torch.ones(1, length, dtype=torch.long)
    mask[0, :pads] = 0
    padded_full, _ = tiny.step(ids, attention_mask=mask)
    cases = [(split, full, lambda split=split: decode(tiny, ids, split)) for split in _splits(tiny, length)]
    cases.append((f"{length - 3} after {pads} left pads", padded_full[:, pads:],
                  lambda: padded_decode(tiny, ids, mask, length - 3)[:, pads:]))
    worst, bound, where = 0.0, 0.0, None
    for split, full, run in cases:
        incremental = run()
        observed = largest_difference(full, incremental)
        limit = reorder_bound(tiny, length, full, incremental)
        if not observed <= limit or worst <= observed:
            worst, bound, where = observed, limit, split
            if not observed <= limit:
                break
    return numeric_finding("kv-cache", CLAIMS, worst, bound,
                           f"prefill vs token-by-token decode ({length} tokens, worst split {where})",
                           "decoded tokens are not rotated at their own positions (query or cached keys)",
                           split=where)


def check_kv_cache_switch(tiny: TinyModel) -> AttentionFinding:
    """Across a length-dependent spectrum's switch: decode with the kept cache against prefill (the documented
    behaviour is that they differ — keys stay rotated with the old spectrum — and that a re-prefill is needed)."""
    switch = switch_length(tiny)
    if switch is None:
        return AttentionFinding("kv-cache-switch", CLAIMS, "not applicable",
                                "the spectrum does not depend on the length")
    length = switch + 3
    ids = tokens(1, length, seed=2)
    full, _ = tiny.step(ids)
    kept = decode(tiny, ids, switch - 2)
    observed = largest_difference(full, kept)
    bound = reorder_bound(tiny, length, full, kept)
    remedy = _drops_cache_at_switch(tiny, ids, switch)
    kind = next(iter(tiny.rope.values())).get("rope_type")
    behaviour = ("decode with the kept cache matches prefill" if observed <= bound else
                 f"decode with the kept cache differs from prefill by {observed:.3g} (bound {bound:.3g}): cached keys "
                 "keep the spectrum of the shorter length, as documented")
    remedy_text = ("`prepare_inputs_for_generation` drops the cache at the switch (the documented re-prefill)" if remedy
                   else "`prepare_inputs_for_generation` keeps the cache at the switch (no re-prefill remedy)")
    return AttentionFinding("kv-cache-switch", CLAIMS, "info", f"{kind} switch at length {switch}: {behaviour}; "
                            f"{remedy_text}", observed, bound,
                            {"switch_length": switch, "decode_matches_prefill": observed <= bound,
                             "remedy_drops_cache": remedy})


def _drops_cache_at_switch(tiny: TinyModel, ids: Any, switch: int) -> bool:
    """Whether the model's own `prepare_inputs_for_generation` drops the cache for the step that crosses the
    switch (Phi-3's remedy for LongRoPE, transformers PR #33129), asked with a cache holding `switch` tokens."""
    import torch

    _, cache = tiny.step(ids[:, :switch])
    inputs = tiny.model.prepare_inputs_for_generation(
        ids[:, : switch + 1], past_key_values=cache, attention_mask=torch.ones(1, switch + 1, dtype=torch.long),
        cache_position=torch.tensor([switch]), use_cache=True)
    return inputs.get("past_key_values") is None


def check_spectrum_reset(tiny: TinyModel) -> AttentionFinding:
    """A length-dependent spectrum returns to its short form: a short prefill after a long one gives the same
    logits as before it (transformers documents the reset for dynamic NTK and switches LongRoPE per call)."""
    switch = switch_length(tiny)
    claims = ("ROPE-FREQUENCIES", "ROPE-KV-CACHE-REUSE")
    if switch is None:
        return AttentionFinding("spectrum-reset", claims, "not applicable",
                                "the spectrum does not depend on the length")
    short = tokens(1, LENGTH if LENGTH < switch else switch - 1, seed=14)
    before, _ = tiny.step(short)
    tiny.step(tokens(1, switch + 4, seed=15))  # grows or switches the spectrum
    after, _ = tiny.step(short)
    observed = largest_difference(before, after)
    return numeric_finding("spectrum-reset", claims, observed, reorder_bound(tiny, short.shape[1], before, after),
                           f"a short prefill before and after one longer than {switch}",
                           "the spectrum stays grown after a long sequence (the cached length is not updated, so "
                           "the documented reset never happens)")
