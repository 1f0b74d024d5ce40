"""Bounds for comparing two forward passes of a whole model (the attention-level audit): the same rotation
angles summed in another order, and angles that differ only by their rounding.

**Same angles, another order.** A cached prefix against a full prefill, a padded row whose pads carry exactly
zero attention weight, one request alone against the same request in a batch: the two passes apply the same
operations to the same numbers, only the order of the sums (and exact zeros) differ. Each layer adds at most
γ_n relative error of the magnitude it carries, n the longest accumulation (width + length); with the residual
stream, L layers and the output head this compounds to (L + 1)·γ_n of the logits' scale per pass, twice for two
passes. A layer that computes in a lower precision regardless of the model's dtype (a mixture-of-experts router
in float32) adds its own γ_n per layer.

**Rounded angles.** Moving every position by c leaves each relative angle (m − n)·θ̃ unchanged in exact
arithmetic (ROPE-QK-RELATIVE), so two passes differ only through the rounding of the angles themselves: each
cos/sin entry is off by at most the angle rounding (`angle_error_bound` with the frequency's own error
cancelling, it is the same θ̃ in both passes) plus one evaluation of cos/sin, times the attention factor. To
first order the logits move by at most the model's sensitivity S = max_i Σ_j |∂logitᵢ/∂cⱼ| (the exact Jacobian of
the logits with respect to every cos/sin entry, computed by autodiff) times that entry error, per pass.
"""

from __future__ import annotations

from typing import Any

from ._formats import gamma, trigonometric_error
from ._rope_bounds import angle_error_bound


def reordered_logits_bound(scale: float, accumulation_length: int, layers: int, dtype: Any = "float64",
                           island_dtype: Any | None = None) -> float:
    """Bound on |logits₁ − logits₂| for two passes that differ only in summation order and exact zeros.

    **Arguments:**

    - `scale`: the logits' magnitude (largest |logit| of either pass).
    - `accumulation_length`: the longest sum in one layer (hidden + intermediate + sequence length).
    - `layers`: the number of decoder layers.
    - `dtype`: the dtype the model computes in.
    - `island_dtype`: a lower precision some layer computes in regardless (e.g. a mixture-of-experts router
      in float32); its γ_n is added per layer.

    **Returns:**

    2·(layers + 1)·(γ_n(dtype) + γ_n(island_dtype))·scale.
    """
    island = gamma(accumulation_length, island_dtype) if island_dtype is not None else 0.0
    return 2.0 * (layers + 1) * (gamma(accumulation_length, dtype) + island) * scale


def rounded_angle_entry_error(largest_angle: float, angle_dtype: Any = "float32", attention_factor: float = 1.0
                              ) -> float:
    """Bound on one cos/sin entry's error when its angle m·θ̃ (|m·θ̃| ≤ `largest_angle`) is formed and evaluated in
    `angle_dtype`, θ̃ being exact (the same stored frequency on both sides).

    **Arguments:**

    - `largest_angle`: the largest |m·θ̃| entering the pass.
    - `angle_dtype`: the dtype of the angle and of cos/sin (float32 in transformers).
    - `attention_factor`: the factor that multiplies cos and sin.

    **Returns:**

    attention_factor·(angle rounding + cos/sin evaluation error).
    """
    angle = angle_error_bound(largest_angle, 1.0, angle_dtype, theta_error_units=0.0)
    return float(attention_factor * trigonometric_error(angle_dtype, angle))


def rounded_angle_logits_bound(sensitivity: float, entry_error: float, reordered: float) -> float:
    """Bound on |logits₁ − logits₂| for two passes whose relative angles agree exactly but whose angles are
    rounded differently (a position offset, a stream moved in M-RoPE): S·(e₁ + e₂) + the reordering bound.

    **Arguments:**

    - `sensitivity`: S = max_i Σ_j |∂logitᵢ/∂cⱼ| over the cos/sin entries cⱼ (from autodiff).
    - `entry_error`: the larger of the two passes' cos/sin entry bounds (`rounded_angle_entry_error`).
    - `reordered`: `reordered_logits_bound` for the same passes.

    **Returns:**

    The first-order bound.
    """
    return 2.0 * sensitivity * entry_error + reordered
