"""keras-hub (then KerasNLP) Gemma's RoPE at the parent of its precision fix, ported verbatim and attributed, as
fn(x, positions) on Keras' torch backend.

Source: keras-team/keras-hub, `keras_nlp/models/gemma/gemma_attention.py` (Apache-2.0, Copyright 2024 The
KerasNLP Authors): `CachedGemmaAttention._apply_rope` and the lines of `call` that form the positions, copied
unchanged between `# --- verbatim` and `# --- end verbatim` (the class is cut to what they use).

- [pre-fix] commit a8da424b2ff183778d6f9fee3c3415a1f5fc07ef, the parent of 09d2fdd3e ("Keep rope at float32
  precision", #1497): the frequency exponents and the positions are cast to the layer's compute dtype, so a
  bfloat16 model forms positions and θ in bfloat16. Both versions rotate the half-split pairs (i, i + d/2)
  and write them interleaved (`ops.stack([...], axis=-1)` then `reshape`): y = P·R(p)·x for a fixed P.
- [fixed] commit 09d2fdd3e15fad87a55860b22ed6543db1bfbee3: exponents and positions in float32, sin and cos cast
  to the compute dtype.

The wrapper `GemmaRope` is the layer as a model runs it under a mixed-precision policy: the compute dtype is
x's dtype; x of shape `(..., L, d)` is passed as `(batch, L, heads = 1, d)`.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import import_keras

import_keras("torch")

from keras import ops  # noqa: E402  (the backend is chosen before Keras' first import)


class PreFixGemmaAttention:
    """[pre-fix] `CachedGemmaAttention` at a8da424, cut to `_apply_rope` and the positions of `call`."""

    def __init__(self, compute_dtype: str) -> None:
        self.compute_dtype = compute_dtype

    # --- verbatim (a8da424) ---------------------------------------------------------------------------------
    def _apply_rope(self, x, positions):
        """Rope rotate q or k."""
        # TODO: refactor to use RotaryEmbedding layer?
        max_wavelength = 10000
        x_shape = ops.shape(x)
        freq_exponents = (2.0 / x_shape[-1]) * ops.cast(
            ops.arange(x_shape[-1] // 2, dtype="float32"), self.compute_dtype
        )
        timescale = max_wavelength**freq_exponents
        radians = positions[..., None] / timescale[None, None, :]
        radians = radians[..., None, :]
        sin, cos = ops.sin(radians), ops.cos(radians)
        x1, x2 = ops.split(x, 2, axis=-1)
        # Avoid `ops.concatenate` for now, to avoid a obscure bug with XLA
        # compilation on jax. We should be able to remove this once the
        # following PR is in all jax releases we care about:
        # https://github.com/openxla/xla/pull/7875
        output = ops.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
        return ops.reshape(output, x_shape)
    # --- end verbatim

    def positions(self, seq_len: int, start_index: int) -> Any:
        # --- verbatim (a8da424, from `call`) ------------------------------------------------------------------
        positions = ops.cast(
            ops.arange(seq_len, dtype="float32"), self.compute_dtype
        )
        positions = positions + ops.cast(start_index, self.compute_dtype)
        # --- end verbatim
        return positions


class FixedGemmaAttention(PreFixGemmaAttention):
    """[fixed] the same two pieces at 09d2fdd3e."""

    # --- verbatim (09d2fdd3e) -------------------------------------------------------------------------------
    def _apply_rope(self, x, positions):
        """Rope rotate q or k."""
        # TODO: refactor to use RotaryEmbedding layer?
        max_wavelength = 10000
        x_shape = ops.shape(x)
        freq_exponents = (2.0 / x_shape[-1]) * ops.arange(
            x_shape[-1] // 2, dtype="float32"
        )
        timescale = max_wavelength**freq_exponents
        radians = positions[..., None] / timescale[None, None, :]
        radians = radians[..., None, :]
        sin = ops.cast(ops.sin(radians), self.compute_dtype)
        cos = ops.cast(ops.cos(radians), self.compute_dtype)
        x1, x2 = ops.split(x, 2, axis=-1)
        # Avoid `ops.concatenate` for now, to avoid a obscure bug with XLA
        # compilation on jax. We should be able to remove this once the
        # following PR is in all jax releases we care about:
        # https://github.com/openxla/xla/pull/7875
        output = ops.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
        return ops.reshape(output, x_shape)
    # --- end verbatim

    def positions(self, seq_len: int, start_index: int) -> Any:
        # --- verbatim (09d2fdd3e, from `call`) ----------------------------------------------------------------
        positions = ops.arange(seq_len, dtype="float32")

        positions = positions + ops.cast(start_index, "float32")
        # --- end verbatim
        return positions


class GemmaRope:
    """fn(x, positions): the positions of `call` (arange + start index) gathered at the audited positions, then
    `_apply_rope` with the compute dtype of x."""

    layer = PreFixGemmaAttention

    def __call__(self, x: Any, positions: Any) -> Any:
        import torch

        attention = self.layer(str(x.dtype).removeprefix("torch."))
        table = attention.positions(int(positions.max()) + 1, 0)
        at = table[positions.long()][None, :]
        shape = x.shape
        y = attention._apply_rope(x.reshape(-1, shape[-2], 1, shape[-1]), at)
        return torch.as_tensor(y).reshape(shape)


class FixedGemmaRope(GemmaRope):
    """[fixed] the same wrapper over the fixed layer."""

    layer = FixedGemmaAttention
