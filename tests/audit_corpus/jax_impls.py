"""JAX RoPE implementations (interleaved, complex-number style as in Meta's reference code)."""

from __future__ import annotations

import jax.numpy as jnp

BASE = 10000.0


def _rope(x, positions, sign: float = 1.0, base: float = BASE):
    d = x.shape[-1]
    work = jnp.float64 if x.dtype == jnp.float64 else jnp.float32
    inv_freq = 1.0 / base ** (jnp.arange(0, d, 2, dtype=work) / d)
    angles = positions.astype(work)[:, None] * inv_freq[None, :]
    cos, sin = jnp.cos(angles), sign * jnp.sin(angles)
    x1, x2 = x[..., 0::2].astype(work), x[..., 1::2].astype(work)
    out = jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
    return out.reshape(x.shape).astype(x.dtype)


def rope_interleaved(x, positions):
    """Interleaved pairs (2i, 2i+1), angles in float32 (float64 with x64)."""
    return _rope(x, positions)


def bug_clockwise(x, positions):
    """The conjugate rotation."""
    return _rope(x, positions, sign=-1.0)
