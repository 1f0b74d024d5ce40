"""RoPE forms from public JAX code, as fn(x, positions) — faithful reproductions, not verbatim copies.

Source: [gemma] google-deepmind/gemma, gemma/gm/math/_positional_embeddings.py
@ 3a101764ee00559752de018c913bbca485c6d701 (Apache-2.0): `apply_rope` — half-split, timescale =
base_frequency^(2i/d), sinusoid_inp = positions / timescale, divided by `scale_factor` (positional interpolation),
in float32, the output cast back to the input's dtype. Gemma 3 uses base 10 000 (local layers) and base 1 000 000
with scale_factor 8 (global layers): pairs turning ~10⁻⁷ rad per position.
"""

from __future__ import annotations

import jax.numpy as jnp


class GemmaRope:
    """[gemma] `apply_rope` with `base_frequency` and `scale_factor`."""

    def __init__(self, base_frequency: float = 10_000, scale_factor: float = 1.0) -> None:
        self.base_frequency = base_frequency
        self.scale_factor = scale_factor

    def __call__(self, inputs, positions):
        head_dim = inputs.shape[-1]
        fraction = 2 * jnp.arange(0, head_dim // 2) / head_dim
        timescale = self.base_frequency**fraction
        sinusoid_inp = positions[..., jnp.newaxis] / timescale[jnp.newaxis, :]
        sinusoid_inp /= self.scale_factor
        sin, cos = jnp.sin(sinusoid_inp), jnp.cos(sinusoid_inp)
        first_half, second_half = jnp.split(inputs, 2, axis=-1)
        first_part = first_half * cos - second_half * sin
        second_part = second_half * cos + first_half * sin
        return jnp.concatenate([first_part, second_part], axis=-1).astype(inputs.dtype)


def gemma_local(inputs, positions):
    """[gemma] local layers: base 10 000."""
    return GemmaRope(10_000)(inputs, positions)


def gemma_global(inputs, positions):
    """[gemma] Gemma 3 global layers: base 1 000 000, scale_factor 8."""
    return GemmaRope(1_000_000, 8.0)(inputs, positions)


def bug_gemma_sign(inputs, positions):
    """[gemma] with the sine terms' signs swapped (second_half·cos − first_half·sin): clockwise."""
    head_dim = inputs.shape[-1]
    timescale = 10_000 ** (2 * jnp.arange(0, head_dim // 2) / head_dim)
    sinusoid_inp = positions[..., jnp.newaxis] / timescale[jnp.newaxis, :]
    sin, cos = jnp.sin(sinusoid_inp), jnp.cos(sinusoid_inp)
    first_half, second_half = jnp.split(inputs, 2, axis=-1)
    out = jnp.concatenate([first_half * cos + second_half * sin, second_half * cos - first_half * sin], axis=-1)
    return out.astype(inputs.dtype)


def bug_gemma_wrong_base(inputs, positions):
    """[gemma] local layers built with base 1000 (a config typo)."""
    return GemmaRope(1_000)(inputs, positions)
