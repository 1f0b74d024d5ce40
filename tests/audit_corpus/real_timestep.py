"""Timestep embeddings of diffusion models (a cos-first sinusoidal table), ported verbatim and attributed, as
pe(positions) -> (L, d).

Source: [guided-diffusion] openai/guided-diffusion, `guided_diffusion/nn.py` at commit
aca3097a89fab9c9962b22224d5f48950eb57e29 (MIT License, Copyright (c) 2021 OpenAI): `timestep_embedding`, copied
unchanged between `# --- verbatim` and `# --- end verbatim`. The table stores every cosine, then every sine
(`th.cat([th.cos(args), th.sin(args)], dim=-1)`): the pairs (i, i + d/2) in the order (cos, sin) — the
convention diffusers calls `flip_sin_to_cos=True` — with the standard frequencies exp(−ln(max_period)·i/half).
"""

from __future__ import annotations

import math

import torch as th


# --- verbatim (aca3097) -------------------------------------------------------------------------------------
def timestep_embedding(timesteps, dim, max_period=10000):
    """
    Create sinusoidal timestep embeddings.

    :param timesteps: a 1-D Tensor of N indices, one per batch element.
                      These may be fractional.
    :param dim: the dimension of the output.
    :param max_period: controls the minimum frequency of the embeddings.
    :return: an [N x dim] Tensor of positional embeddings.
    """
    half = dim // 2
    freqs = th.exp(
        -math.log(max_period) * th.arange(start=0, end=half, dtype=th.float32) / half
    ).to(device=timesteps.device)
    args = timesteps[:, None].float() * freqs[None]
    embedding = th.cat([th.cos(args), th.sin(args)], dim=-1)
    if dim % 2:
        embedding = th.cat([embedding, th.zeros_like(embedding[:, :1])], dim=-1)
    return embedding
# --- end verbatim


def guided_diffusion_table(positions: th.Tensor) -> th.Tensor:
    """pe(positions): the timestep embedding of width 64 at the given (integer) timesteps."""
    return timestep_embedding(positions, 64)
