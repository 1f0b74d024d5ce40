"""text-generation-inference's dynamic NTK RoPE at the parent of b5087c4f — the library's code ported verbatim,
attributed.

Source: huggingface/text-generation-inference, `server/text_generation_server/utils/layers.py` (at these commits
under the Hugging Face Optimized Inference License 1.0; the project returned to Apache-2.0 in ff42d33e, 2024).
Lines between `# --- verbatim` and `# --- end verbatim` are copied unchanged from the commit named, dedented one
level (the file defines them inside a `try:` block), with the methods the audit never reaches cut where a
`# (cut: …)` comment says so.

- [pre-fix] commit 3ffcd9d311d27806a70037ffba88595bed7289f2, the parent of b5087c4f ("Fix rope dynamic + factor",
  #822): `DynamicPositionRotaryEmbedding._update_cos_sin_cache` raises the base past `max_position_embeddings`
  (dynamic NTK) and also divides every position by the factor (`t /= self.scaling_factor`, the linear rule's
  line inherited from `PositionRotaryEmbedding`), below the switch too.
- [fixed] commit b5087c4f4ece30decb739ab311448e358f6108bb: the same method without the division.

`tgi_dynamic(x, positions)` is the module as a server runs one request: `get_cos_sin(position_ids, max_s, dtype)`
with max_s the request's length (largest position + 1), then the half-split rotation that the CUDA kernel
`rotary_emb.apply_rotary(x1, x2, cos, sin, x1, x2, False)` performs (x1·cos − x2·sin, x1·sin + x2·cos, in float32,
rounded once to x's dtype). Each call is a fresh module (the first request a started server serves): the module
keeps its longest table and raised base for every later request — a separate behaviour this port does not audit.
Settings: dim 64, base 10000, factor 2, max_position_embeddings 2048.
"""

# ruff: noqa: E501 — the ported lines keep the library's own formatting
from __future__ import annotations

from typing import Any

import torch
from torch import nn

FACTOR, ORIGINAL, BASE = 2.0, 2048, 10000.0


# --- verbatim (3ffcd9d3, the parent of b5087c4f) --------------------------------------------------------------
def _create_inv_freq(dim, base, device):
    inv_freq = 1.0 / (
        base
        ** (torch.arange(0, dim, 2, device=device, dtype=torch.float32) / dim)
    )
    return inv_freq

class PositionRotaryEmbedding(nn.Module):
    def __init__(self, inv_freq, scaling_factor):
        super().__init__()
        self.inv_freq = inv_freq
        self._seq_len_cached = 0
        self._cos_cached = None
        self._sin_cached = None
        self._cos_k_cached = None
        self._sin_k_cached = None
        self.scaling_factor = scaling_factor
        self.dynamic_args = None


    # (cut: the `static` and `load` constructors, which read a model config)

    def _update_cos_sin_cache(self, dtype, device, seqlen):
        # Reset the tables if the sequence length has changed,
        # or if we're on a new device (possibly due to tracing for instance)
        if (
            seqlen > self._seq_len_cached
            or self._cos_cached.device != device
            or self._cos_cached.dtype != dtype
        ):
            self._seq_len_cached = seqlen
            t = torch.arange(seqlen, device=device, dtype=self.inv_freq.dtype)
            if self.scaling_factor is not None:
                t /= self.scaling_factor
            # Don't do einsum, it converts fp32 to fp16
            # freqs = torch.einsum("i,j->ij", t, self.inv_freq)

            freqs = torch.outer(t, self.inv_freq.to(device=t.device))
            self._cos_cached = torch.cos(freqs).to(dtype)
            self._sin_cached = torch.sin(freqs).to(dtype)

    def get_cos_sin(
        self, position_ids: torch.Tensor, max_s: int, dtype: torch.dtype
    ):
        """
        Return cos and sin for the asked position ids
        """

        self._update_cos_sin_cache(dtype, position_ids.device, max_s)

        cos = torch.index_select(self._cos_cached, 0, position_ids)
        sin = torch.index_select(self._sin_cached, 0, position_ids)
        return cos.unsqueeze(1), sin.unsqueeze(1)

    # (cut: `forward`, the CUDA kernel `rotary_emb.apply_rotary`; see `_rotate`)

class DynamicPositionRotaryEmbedding(PositionRotaryEmbedding):
    def __init__(self, dim, max_position_embeddings, base, device, scaling_factor):
        inv_freq = _create_inv_freq(dim, base, device)
        super().__init__(inv_freq, scaling_factor)
        self.dim = dim
        self.max_position_embeddings = max_position_embeddings
        self.base = base

    def _update_cos_sin_cache(self, dtype, device, seqlen):
        # Reset the tables if the sequence length has changed,
        # or if we're on a new device (possibly due to tracing for instance)
        if (
            seqlen > self._seq_len_cached
            or self._cos_cached.device != device
            or self._cos_cached.dtype != dtype
        ):
            if seqlen > self.max_position_embeddings:
                newbase = self.base * ((self.scaling_factor * seqlen / self.max_position_embeddings) - (self.scaling_factor - 1)) ** (self.dim / (self.dim - 2))
                self.inv_freq = _create_inv_freq(self.dim, newbase, self.inv_freq.device)
            self._seq_len_cached = seqlen
            t = torch.arange(seqlen, device=device, dtype=self.inv_freq.dtype)
            if self.scaling_factor is not None:
                t /= self.scaling_factor
            # Don't do einsum, it converts fp32 to fp16
            # freqs = torch.einsum("i,j->ij", t, self.inv_freq)

            freqs = torch.outer(t, self.inv_freq.to(device=t.device))
            self._cos_cached = torch.cos(freqs).to(dtype)
            self._sin_cached = torch.sin(freqs).to(dtype)

# --- end verbatim


class FixedDynamicPositionRotaryEmbedding(DynamicPositionRotaryEmbedding):
    """[fixed] `_update_cos_sin_cache` at b5087c4f (the only method the commit changes)."""

    # --- verbatim (b5087c4f) ---------------------------------------------------------------------------------
    def _update_cos_sin_cache(self, dtype, device, seqlen):
        # Reset the tables if the sequence length has changed,
        # or if we're on a new device (possibly due to tracing for instance)
        if (
            seqlen > self._seq_len_cached
            or self._cos_cached.device != device
            or self._cos_cached.dtype != dtype
        ):
            if seqlen > self.max_position_embeddings:
                newbase = self.base * ((self.scaling_factor * seqlen / self.max_position_embeddings) - (self.scaling_factor - 1)) ** (self.dim / (self.dim - 2))
                self.inv_freq = _create_inv_freq(self.dim, newbase, self.inv_freq.device)
            self._seq_len_cached = seqlen
            t = torch.arange(seqlen, device=device, dtype=self.inv_freq.dtype)
            # Don't do einsum, it converts fp32 to fp16
            # freqs = torch.einsum("i,j->ij", t, self.inv_freq)

            freqs = torch.outer(t, self.inv_freq.to(device=t.device))
            self._cos_cached = torch.cos(freqs).to(dtype)
            self._sin_cached = torch.sin(freqs).to(dtype)
    # --- end verbatim


def _rotate(module: PositionRotaryEmbedding, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    cos, sin = module.get_cos_sin(positions, int(positions.max()) + 1, x.dtype)
    cos, sin = cos[:, 0, :].float(), sin[:, 0, :].float()
    half = cos.shape[-1]
    x1, x2 = x[..., :half].float(), x[..., half : 2 * half].float()
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).to(x.dtype)


def tgi_dynamic(x: Any, positions: Any) -> torch.Tensor:
    """[pre-fix] one request through a fresh `DynamicPositionRotaryEmbedding(64, 2048, 10000, factor 2)`."""
    module = DynamicPositionRotaryEmbedding(x.shape[-1], ORIGINAL, BASE, x.device, FACTOR)
    return _rotate(module, x, positions)


def fixed_tgi_dynamic(x: Any, positions: Any) -> torch.Tensor:
    """[fixed] the same with the class at b5087c4f."""
    module = FixedDynamicPositionRotaryEmbedding(x.shape[-1], ORIGINAL, BASE, x.device, FACTOR)
    return _rotate(module, x, positions)
