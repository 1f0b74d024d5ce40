"""rotary-embedding-torch at the parents of two fixes — the library's code ported verbatim (trimmed), attributed.

Source: lucidrains/rotary-embedding-torch, `rotary_embedding_torch/rotary_embedding_torch.py` (MIT License,
Copyright (c) 2021 Phil Wang). Lines between `# --- verbatim` and `# --- end verbatim` are copied unchanged
from the commit named, except that branches the audit never reaches are cut where a `# (cut: …)` comment says
so; the wrappers below them adapt the module to the corpus's calling conventions.

- [offset-cache] commit 93e57f0bd6c11874d8801bc167ebd7065560d06f, the parent of e2224b5 ("only set cache if
  offset is 0"): `forward` writes `cached_freqs[:seq_len]` with the angles of positions `offset … offset+L−1`
  also when `offset > 0`; a later call at offset 0 is a cache hit and rotates positions 0… by those angles.
  `FixedOffsetCache.forward` is the same method at e2224b5 (`if should_cache and offset == 0`).
- [xpos-scale] commit 24f8b8a560b29a3c1122f66c95528e8fe3c96da5, the parent of 4ae4ca0 (PR #34, "Fix chi scale
  multiplication"): `get_scale` duplicates the xPos scale half-split (`torch.cat((scale, scale), dim = -1)`)
  while `rotate_half` pairs coordinates interleaved, so a pair's two coordinates carry different scales and
  every score gains a term in m + n that grows with |m − n|. `FixedXposScale.get_scale` is the method at 4ae4ca0
  (`repeat(scale, 'n d -> n (d r)', r = 2)`).
"""

# ruff: noqa: E501 — the ported lines keep the library's own formatting
from __future__ import annotations

import itertools

import numpy as np
import torch
from einops import rearrange, repeat
from torch import einsum, nn
from torch.amp import autocast
from torch.nn import Module


# --- verbatim (93e57f0, helpers identical at 24f8b8a) -------------------------------------------------------
def exists(val):
    return val is not None

def default(val, d):
    return val if exists(val) else d

def rotate_half(x):
    x = rearrange(x, '... (d r) -> ... d r', r = 2)
    x1, x2 = x.unbind(dim = -1)
    x = torch.stack((-x2, x1), dim = -1)
    return rearrange(x, '... d r -> ... (d r)')

@autocast('cuda', enabled = False)
def apply_rotary_emb(freqs, t, start_index = 0, scale = 1., seq_dim = -2):
    dtype = t.dtype

    if t.ndim == 3:
        seq_len = t.shape[seq_dim]
        freqs = freqs[-seq_len:]

    rot_dim = freqs.shape[-1]
    end_index = start_index + rot_dim

    assert rot_dim <= t.shape[-1], f'feature dimension {t.shape[-1]} is not of sufficient size to rotate in all the positions {rot_dim}'

    # Split t into three parts: left, middle (to be transformed), and right
    t_left = t[..., :start_index]
    t_middle = t[..., start_index:end_index]
    t_right = t[..., end_index:]

    # Apply rotary embeddings without modifying t in place
    t_transformed = (t_middle * freqs.cos() * scale) + (rotate_half(t_middle) * freqs.sin() * scale)

    out = torch.cat((t_left, t_transformed, t_right), dim=-1)

    return out.type(dtype)
# --- end verbatim


class OffsetCacheRotaryEmbedding(Module):
    """[offset-cache] `RotaryEmbedding` at 93e57f0 (language frequencies, no xPos)."""

    # --- verbatim (93e57f0) ---------------------------------------------------------------------------------
    def __init__(
        self,
        dim,
        theta = 10000,
        learned_freq = False,
        interpolate_factor = 1.,
        theta_rescale_factor = 1.,
        seq_before_head_dim = False,
        cache_if_possible = True,
        cache_max_seq_len = 8192
    ):
        super().__init__()
        theta *= theta_rescale_factor ** (dim / (dim - 2))

        self.freqs_for = 'lang'  # (cut: custom, pixel and constant frequencies)

        freqs = 1. / (theta ** (torch.arange(0, dim, 2)[:(dim // 2)].float() / dim))

        self.cache_if_possible = cache_if_possible
        self.cache_max_seq_len = cache_max_seq_len

        self.register_buffer('cached_freqs', torch.zeros(cache_max_seq_len, dim), persistent = False)
        self.register_buffer('cached_freqs_seq_len', torch.tensor(0), persistent = False)

        self.freqs = nn.Parameter(freqs, requires_grad = learned_freq)

        self.learned_freq = learned_freq

        # default sequence dimension

        self.seq_before_head_dim = seq_before_head_dim
        self.default_seq_dim = -3 if seq_before_head_dim else -2

        # interpolation factors

        assert interpolate_factor >= 1.
        self.interpolate_factor = interpolate_factor

        self.use_xpos = False  # (cut: the xPos buffers)

    def get_seq_pos(self, seq_len, device, dtype, offset = 0):
        return (torch.arange(seq_len, device = device, dtype = dtype) + offset) / self.interpolate_factor

    def rotate_queries_or_keys(self, t, seq_dim = None, offset = 0, scale = None):
        seq_dim = default(seq_dim, self.default_seq_dim)

        assert not self.use_xpos or exists(scale), 'you must use `.rotate_queries_and_keys` method instead and pass in both queries and keys, for length extrapolatable rotary embeddings'

        device, dtype, seq_len = t.device, t.dtype, t.shape[seq_dim]

        seq = self.get_seq_pos(seq_len, device = device, dtype = dtype, offset = offset)

        freqs = self.forward(seq, seq_len = seq_len, offset = offset)

        if seq_dim == -3:
            freqs = rearrange(freqs, 'n d -> n 1 d')

        return apply_rotary_emb(freqs, t, scale = default(scale, 1.), seq_dim = seq_dim)

    @autocast('cuda', enabled = False)
    def forward(
        self,
        t,
        seq_len = None,
        offset = 0
    ):
        should_cache = (
            self.cache_if_possible and
            not self.learned_freq and
            exists(seq_len) and
            self.freqs_for != 'pixel' and
            (offset + seq_len) <= self.cache_max_seq_len
        )

        if (
            should_cache and \
            exists(self.cached_freqs) and \
            (offset + seq_len) <= self.cached_freqs_seq_len.item()
        ):
            return self.cached_freqs[offset:(offset + seq_len)].detach()

        freqs = self.freqs

        freqs = einsum('..., f -> ... f', t.type(freqs.dtype), freqs)
        freqs = repeat(freqs, '... n -> ... (n r)', r = 2)

        if should_cache:
            self.cached_freqs[:seq_len] = freqs.detach()
            self.cached_freqs_seq_len.copy_(seq_len)

        return freqs
    # --- end verbatim


class FixedOffsetCacheRotaryEmbedding(OffsetCacheRotaryEmbedding):
    """[offset-cache] `forward` at e2224b5: the cache is written by calls at offset 0 only."""

    # --- verbatim (e2224b5) ---------------------------------------------------------------------------------
    @autocast('cuda', enabled = False)
    def forward(
        self,
        t,
        seq_len = None,
        offset = 0
    ):
        should_cache = (
            self.cache_if_possible and
            not self.learned_freq and
            exists(seq_len) and
            self.freqs_for != 'pixel' and
            (offset + seq_len) <= self.cache_max_seq_len
        )

        if (
            should_cache and \
            exists(self.cached_freqs) and \
            (offset + seq_len) <= self.cached_freqs_seq_len.item()
        ):
            return self.cached_freqs[offset:(offset + seq_len)].detach()

        freqs = self.freqs

        freqs = einsum('..., f -> ... f', t.type(freqs.dtype), freqs)
        freqs = repeat(freqs, '... n -> ... (n r)', r = 2)

        if should_cache and offset == 0:
            self.cached_freqs[:seq_len] = freqs.detach()
            self.cached_freqs_seq_len.copy_(seq_len)

        return freqs
    # --- end verbatim


def _runs(positions: np.ndarray) -> list[tuple[int, int]]:
    """(start index, end index) of each run of consecutive positions."""
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    edges = [0, *breaks.tolist(), positions.size]
    return list(itertools.pairwise(edges))


class OffsetCacheRope:
    """fn(x, positions) over `rotate_queries_or_keys(t, offset=…)`, one call per run of consecutive positions
    (the library takes an offset, not per-token positions). A factory: `OffsetCacheRope(head_dim, theta)`."""

    module = OffsetCacheRotaryEmbedding

    def __init__(self, head_dim: int = 64, theta: float = 10000.0) -> None:
        self.rotary = self.module(head_dim, theta=theta)

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        at = positions.cpu().numpy().astype(np.int64)
        pieces = [self.rotary.rotate_queries_or_keys(x[..., a:b, :], offset=int(at[a])) for a, b in _runs(at)]
        return torch.cat(pieces, dim=-2)


class FixedOffsetCacheRope(OffsetCacheRope):
    """[offset-cache] the same wrapper over the fixed module."""

    module = FixedOffsetCacheRotaryEmbedding


# ------------------------------------------------------------------------------------------------ [xpos-scale]
class XposRotaryEmbedding(Module):
    """[xpos-scale] `RotaryEmbedding(dim, use_xpos=True)` at 24f8b8a: the parts `rotate_queries_and_keys` uses."""

    # --- verbatim (24f8b8a) ---------------------------------------------------------------------------------
    def __init__(
        self,
        dim,
        theta = 10000,
        learned_freq = False,
        use_xpos = False,
        xpos_scale_base = 512,
        interpolate_factor = 1.,
        theta_rescale_factor = 1.,
        seq_before_head_dim = False,
        cache_if_possible = True
    ):
        super().__init__()
        theta *= theta_rescale_factor ** (dim / (dim - 2))

        self.freqs_for = 'lang'  # (cut: custom, pixel and constant frequencies)

        freqs = 1. / (theta ** (torch.arange(0, dim, 2)[:(dim // 2)].float() / dim))

        self.cache_if_possible = cache_if_possible

        self.tmp_store('cached_freqs', None)
        self.tmp_store('cached_scales', None)

        self.freqs = nn.Parameter(freqs, requires_grad = learned_freq)

        self.learned_freq = learned_freq

        # dummy for device

        self.tmp_store('dummy', torch.tensor(0))

        # default sequence dimension

        self.seq_before_head_dim = seq_before_head_dim
        self.default_seq_dim = -3 if seq_before_head_dim else -2

        # interpolation factors

        assert interpolate_factor >= 1.
        self.interpolate_factor = interpolate_factor

        # xpos

        self.use_xpos = use_xpos
        if not use_xpos:
            self.tmp_store('scale', None)
            return

        scale = (torch.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)
        self.scale_base = xpos_scale_base
        self.tmp_store('scale', scale)

    def tmp_store(self, key, value):
        self.register_buffer(key, value, persistent = False)

    def get_seq_pos(self, seq_len, device, dtype, offset = 0):
        return (torch.arange(seq_len, device = device, dtype = dtype) + offset) / self.interpolate_factor

    def get_scale(
        self,
        t,
        seq_len = None,
        offset = 0
    ):
        assert self.use_xpos

        should_cache = (
            self.cache_if_possible and
            exists(seq_len)
        )

        if (
            should_cache and \
            exists(self.cached_scales) and \
            (seq_len + offset) <= self.cached_scales.shape[0]
        ):
            return self.cached_scales[offset:(offset + seq_len)]

        scale = 1.
        if self.use_xpos:
            power = (t - len(t) // 2) / self.scale_base
            scale = self.scale ** rearrange(power, 'n -> n 1')
            scale = torch.cat((scale, scale), dim = -1)

        if should_cache:
            self.tmp_store('cached_scales', scale)

        return scale

    @autocast('cuda', enabled = False)
    def forward(
        self,
        t,
        seq_len = None,
        offset = 0
    ):
        should_cache = (
            self.cache_if_possible and \
            not self.learned_freq and \
            exists(seq_len) and \
            self.freqs_for != 'pixel'
        )

        if (
            should_cache and \
            exists(self.cached_freqs) and \
            (offset + seq_len) <= self.cached_freqs.shape[0]
        ):
            return self.cached_freqs[offset:(offset + seq_len)].detach()

        freqs = self.freqs

        freqs = einsum('..., f -> ... f', t.type(freqs.dtype), freqs)
        freqs = repeat(freqs, '... n -> ... (n r)', r = 2)

        if should_cache:
            self.tmp_store('cached_freqs', freqs.detach())

        return freqs
    # --- end verbatim


class FixedXposRotaryEmbedding(XposRotaryEmbedding):
    """[xpos-scale] `get_scale` at 4ae4ca0: the scale repeated per interleaved pair."""

    # --- verbatim (4ae4ca0) ---------------------------------------------------------------------------------
    def get_scale(
        self,
        t,
        seq_len = None,
        offset = 0
    ):
        assert self.use_xpos

        should_cache = (
            self.cache_if_possible and
            exists(seq_len)
        )

        if (
            should_cache and \
            exists(self.cached_scales) and \
            (seq_len + offset) <= self.cached_scales.shape[0]
        ):
            return self.cached_scales[offset:(offset + seq_len)]

        scale = 1.
        if self.use_xpos:
            power = (t - len(t) // 2) / self.scale_base
            scale = self.scale ** rearrange(power, 'n -> n 1')
            scale = repeat(scale, 'n d -> n (d r)', r = 2)

        if should_cache:
            self.tmp_store('cached_scales', scale)

        return scale
    # --- end verbatim


class XposScores:
    """scores(q, k, q_positions, k_positions) as `rotate_queries_and_keys` forms them (the same `forward` and
    `get_scale` calls over the sequence 0…L−1 that holds every position), each row taken at its own position:
    q·ζ^(+), k·ζ^(−), then q′·k′ᵀ. A fresh module per call, as a model's forward over one sequence."""

    module = XposRotaryEmbedding

    def __init__(self, head_dim: int = 64) -> None:
        self.head_dim = head_dim

    def __call__(self, q: torch.Tensor, k: torch.Tensor, q_positions: torch.Tensor, k_positions: torch.Tensor):
        rotary = self.module(self.head_dim, use_xpos=True)
        seq_len = int(max(q_positions.max(), k_positions.max())) + 1
        seq = rotary.get_seq_pos(seq_len, dtype=q.dtype, device=q.device)
        freqs = rotary.forward(seq, seq_len=seq_len)
        scale = rotary.get_scale(seq, seq_len=seq_len).to(q.dtype)
        rotated_q = apply_rotary_emb(freqs[q_positions], q, scale=scale[q_positions]).type(q.dtype)
        rotated_k = apply_rotary_emb(freqs[k_positions], k, scale=scale[k_positions] ** -1).type(k.dtype)
        work = torch.float64 if q.dtype == torch.float64 else torch.float32
        return rotated_q.to(work) @ rotated_k.to(work).T


class FixedXposScores(XposScores):
    """[xpos-scale] the same scores over the fixed module."""

    module = FixedXposRotaryEmbedding
