"""The rotation spectrum a config declares, computed independently of transformers in float64.

For each rope type, the inverse frequencies θᵢ (i = 0 … d/2 − 1) at lengths below any switch point and the
attention factor that multiplies cos and sin (RoFormer's θᵢ = base^(−2i/d); linear: θᵢ/s; llama3: the
wavelength bands of Llama 3.1; yarn: the ramp of YaRN with β_fast/β_slow and the mscale factor; longrope:
θᵢ/short_factorᵢ and √(1 + ln s / ln L₀)). The softmax scale follows 1/√d_qk, Gemma's
`query_pre_attn_scalar`, and DeepSeek's g(s, mscale_all_dim)².

Claims served: ROPE-FREQUENCIES (the spectrum), ROPE-PAIR-FORMULA (one angle per pair).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["expected_softmax_scale", "expected_spectrum", "rotary_dim"]


def rotary_dim(config: Any) -> int:
    """The rotated width d: DeepSeek's `qk_rope_head_dim`, else head_dim × partial_rotary_factor."""
    if getattr(config, "qk_rope_head_dim", None):
        return int(config.qk_rope_head_dim)
    head = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    factor = (config.rope_parameters or {}).get("partial_rotary_factor", 1.0) if not \
        isinstance((config.rope_parameters or {}).get("full_attention"), dict) else 1.0
    return int(head * (factor or 1.0))


def _mscale(scale: float, m: float = 1.0) -> float:
    return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0


def expected_spectrum(rope: dict[str, Any], dim: int, max_positions: int) -> tuple[np.ndarray, float]:
    """θᵢ and the cos/sin attention factor of one layer type, below any switch point.

    **Arguments:**

    - `rope`: the layer type's rope parameters (`rope_type`, `rope_theta`, `factor`, …).
    - `dim`: the rotated width d.
    - `max_positions`: `max_position_embeddings` (the default of L₀ and of YaRN's factor).

    **Returns:**

    `(theta [d/2] float64, attention factor)`.
    """
    kind = rope.get("rope_type", rope.get("type", "default"))
    base = float(rope.get("rope_theta", 10000.0))
    i = np.arange(0, dim, 2, dtype=np.float64)
    theta = base ** (-i / dim)
    factor = float(rope.get("factor") or 1.0)
    original = float(rope.get("original_max_position_embeddings") or max_positions)
    if kind in {"default", "mrope", "dynamic"}:
        return theta, 1.0
    if kind == "linear":
        return theta / factor, 1.0
    if kind == "llama3":
        low, high = float(rope["low_freq_factor"]), float(rope["high_freq_factor"])
        wavelength = 2 * math.pi / theta
        kappa = (original / wavelength - low) / (high - low)
        smooth = (1 - kappa) * theta / factor + kappa * theta
        out = np.where(wavelength < original / high, theta, np.where(wavelength > original / low, theta / factor,
                                                                      smooth))
        return out, 1.0
    if kind == "yarn":
        if not rope.get("factor"):
            factor = max_positions / original
        fast, slow = float(rope.get("beta_fast") or 32), float(rope.get("beta_slow") or 1)

        def correction(rotations: float) -> float:
            return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

        low, high = correction(fast), correction(slow)
        if rope.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(dim // 2) - low) / (high - low), 0, 1)
        extrapolation = 1 - ramp
        out = theta / factor * (1 - extrapolation) + theta * extrapolation
        attention = rope.get("attention_factor")
        if attention is None:
            mscale, all_dim = rope.get("mscale"), rope.get("mscale_all_dim")
            attention = _mscale(factor, mscale) / _mscale(factor, all_dim) if mscale and all_dim else \
                _mscale(factor)
        return out, float(attention)
    if kind in {"longrope", "su"}:
        short = np.asarray(rope["short_factor"], dtype=np.float64)
        scale = factor if rope.get("factor") else max_positions / original
        attention = rope.get("attention_factor")
        if attention is None:
            attention = 1.0 if scale <= 1 else math.sqrt(1 + math.log(scale) / math.log(original))
        return theta / short, float(attention)
    raise ValueError(f"rope type {kind!r} has no reference spectrum here")


def expected_softmax_scale(config: Any) -> float:
    """The multiplier of q·k before the softmax the config declares."""
    if getattr(config, "query_pre_attn_scalar", None):
        return float(config.query_pre_attn_scalar) ** -0.5
    if getattr(config, "qk_rope_head_dim", None):
        scale = float(config.qk_rope_head_dim + config.qk_nope_head_dim) ** -0.5
        rope = config.rope_parameters or {}
        kind = rope.get("rope_type", "default")
        if kind != "default" and rope.get("mscale_all_dim"):
            scale *= _mscale(float(rope["factor"]), float(rope["mscale_all_dim"])) ** 2
        return scale
    head = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    if type(config).__name__.startswith(("Qwen2_5_VL", "Qwen2VL", "Phi3")):
        head = config.hidden_size // config.num_attention_heads
    return float(head) ** -0.5
