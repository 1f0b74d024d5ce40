"""x-transformers' ALiBi at the parent of dcae403 — the library's code ported verbatim, attributed.

Source: lucidrains/x-transformers, `x_transformers/x_transformers.py` (MIT License, Copyright (c) 2020 Phil Wang).
Lines between `# --- verbatim` and `# --- end verbatim` are copied unchanged from the commit named (only the
ALiBi class and the `exists` helper it uses).

- [pre-fix] commit aabfb7595ca85ddacd2c07589042e5d181f056ba, the parent of dcae403 ("Fix wrong positional
  biases"): `forward(qk_dots)` takes only the lengths i (queries) and j (keys) from the scores' shape, and
  `get_bias` places the queries at 0 … i − 1, so when i < j (queries after cached or memory keys) query row r
  is biased as if it sat at position r instead of j − i + r. The bias of a key then depends on where the
  query sits in the call, not on k − q; in the square case (i = j) it is right.
- [fixed] commit dcae403d9a5fcb7be2bf276ed7ba9b49e8b08031: `get_bias` shifts the key positions by j − i
  (`torch.arange(j) - (j-i)`), the queries being the last i of the j keys.

The targets are the lengths API as a user audits it: `bias_fn(i, j)` calls the module on zero scores of shape
(H, i, j), wrapped by `from_lengths_api` (queries at the last i of the keys 0 … j − 1, the convention of the
fix's own comment). Each call starts with an empty `bias` buffer: the module's cache (`self.bias[..., :i, :j]`
served whenever a wider bias was built before) returns another call's rows — a separate defect, fixed later
(f71f327, cb50439) — and is not what these targets audit.
"""

# ruff: noqa: E501, W293 — the ported lines keep the library's own formatting
from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F
from einops import rearrange
from ropecheck.numeric.audit.function.position_forms import from_lengths_api
from torch import nn

HEADS = 8


# --- verbatim (aabfb75, the parent of dcae403) ---------------------------------------------------------------
def exists(val):
    return val is not None

class AlibiPositionalBias(nn.Module):
    def __init__(self, heads, **kwargs):
        super().__init__()
        self.heads = heads
        slopes = torch.Tensor(self._get_slopes(heads))
        slopes = rearrange(slopes, 'h -> h 1 1')
        self.register_buffer('slopes', slopes, persistent = False)
        self.register_buffer('bias', None, persistent = False)
    
    def get_bias(self, i, j, device):
        i_arange = torch.arange(i, device = device)
        j_arange = torch.arange(j, device = device)
        bias = -torch.abs(rearrange(j_arange, 'j -> 1 1 j') - rearrange(i_arange, 'i -> 1 i 1'))
        return bias

    @staticmethod
    def _get_slopes(heads):
        def get_slopes_power_of_2(n):
            start = (2**(-2**-(math.log2(n)-3)))
            ratio = start
            return [start*ratio**i for i in range(n)]

        if math.log2(heads).is_integer():
            return get_slopes_power_of_2(heads)

        closest_power_of_2 = 2 ** math.floor(math.log2(heads))
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes_power_of_2(2 * closest_power_of_2)[0::2][:heads-closest_power_of_2]

    def forward(self, qk_dots):
        h, i, j, device = *qk_dots.shape[-3:], qk_dots.device

        if exists(self.bias) and self.bias.shape[-1] >= j:
            return qk_dots + self.bias[..., :i, :j]

        bias = self.get_bias(i, j, device)
        bias = bias * self.slopes

        num_heads_unalibied = h - bias.shape[0]
        bias = F.pad(bias, (0, 0, 0, 0, 0, num_heads_unalibied))
        self.register_buffer('bias', bias, persistent=False)

        return qk_dots + self.bias
# --- end verbatim


class FixedAlibiPositionalBias(AlibiPositionalBias):
    """[fixed] `get_bias` at dcae403; every other line of the class is unchanged by that commit."""

    # --- verbatim (dcae403) ------------------------------------------------------------------------------------
    def get_bias(self, i, j, device):
        i_arange = torch.arange(i, device = device)
        j_arange = torch.arange(j, device = device) - (j-i) # shift by (j-i) since keys at j>i are past keys
        bias = -torch.abs(rearrange(j_arange, 'j -> 1 1 j') - rearrange(i_arange, 'i -> 1 i 1'))
        return bias
    # --- end verbatim


def _lengths_api(module: AlibiPositionalBias) -> Any:
    def bias_fn(i: int, j: int) -> torch.Tensor:
        module.bias = None  # one call's bias, never a cached one (see the module docstring)
        with torch.no_grad():
            return module(torch.zeros(HEADS, i, j))

    return bias_fn


#: [pre-fix] `bias(q_positions, k_positions)` over `AlibiPositionalBias(8).forward(qk_dots)` at aabfb75.
pre_fix_alibi = from_lengths_api(_lengths_api(AlibiPositionalBias(HEADS)))
#: [fixed] the same over the class at dcae403.
fixed_alibi = from_lengths_api(_lengths_api(FixedAlibiPositionalBias(HEADS)))
