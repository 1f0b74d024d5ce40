"""The error model of an engine's log-probabilities against the float64 reference, per token.

An engine runs the same float32 weights in float32. Its logits differ from the float64 reference's by:

1. the float32 pass itself: `reordered_logits_bound` of `tolerances` (each layer's accumulations off by γ_n·u₃₂ of
   the magnitude they carry, n = hidden + intermediate + tokens, compounded over the layers and the head);
2. its angles: every cos/sin entry formed in float32 off by e = a·(angle rounding with θᵢ off by (i + 2)·u₃₂, plus
   the cos/sin evaluation) (`angle_error_bound`, `trigonometric_error`), moving logit ℓ by at most Σⱼ|∂ℓ/∂cⱼ|·eⱼ to
   first order (the Jacobian from autodiff of the reference);
3. where the engine rounds q, k and v to float16 (llama.cpp's default float16 KV cache; ggml's f16 matrix products
   convert q, and the probabilities that weight v, to float16 too): u₁₆·Σⱼ|∂ℓ/∂xⱼ|·|xⱼ| over q, k, v, plus the
   attention output weighted by the attention of |v| — attributed to the cache, reported apart, never hidden in
   term 1.

A log-probability moves by at most twice the largest logit move of its row. Each term is reported; a ratio far
below 1 everywhere means the bound is loose there.

Claims served: ROPE-FREQUENCIES (what the comparison certifies), ROPE-QK-RELATIVE.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from ropecheck.numeric.reference.tolerances import reordered_logits_bound, unit_roundoff

__all__ = ["TokenBounds", "token_bounds"]


@dataclasses.dataclass(frozen=True)
class TokenBounds:
    """Per token of a window (arrays of length T): `float32_pass`, `angles`, `float16_operands` (0 unless the engine
    rounds q, k, v to float16) and `total` — bounds on the largest |log-probability difference| of the token."""

    float32_pass: np.ndarray
    angles: np.ndarray
    float16_operands: np.ndarray

    @property
    def total(self) -> np.ndarray:
        return self.float32_pass + self.angles + self.float16_operands

    @property
    def without_float16(self) -> np.ndarray:
        return self.float32_pass + self.angles


def token_bounds(reference: Any, config: Any, layers: int, float16_operands: bool) -> TokenBounds:
    """The bounds of one window.

    **Arguments:** `reference` (a `ReferencePass` with sensitivities), `config` (the model's text config: widths),
    `layers`, `float16_operands` (the engine rounds q, k, v to float16).

    **Returns:** a `TokenBounds`.
    """
    logits = reference.logits.numpy()
    count, vocabulary = logits.shape
    accumulation = int(config.hidden_size) + int(getattr(config, "intermediate_size", 0) or 0) + count
    single = reordered_logits_bound(float(np.abs(logits).max()), accumulation, layers, "float32")
    angle = reference.angle.reshape(count, vocabulary).max(-1)
    operands = reference.operands.reshape(count, vocabulary).max(-1) * unit_roundoff("float16")
    return TokenBounds(np.full(count, 2.0 * single), 2.0 * angle,
                       2.0 * operands if float16_operands else np.zeros(count))
