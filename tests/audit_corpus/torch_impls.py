"""PyTorch RoPE implementations in the style of Hugging Face (`rotate_half`, float32 angles)."""

from __future__ import annotations

import torch

BASE = 10000.0


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def _angle_dtype(x: torch.Tensor) -> torch.dtype:
    return torch.float64 if x.dtype == torch.float64 else torch.float32


def _cos_sin(x: torch.Tensor, positions: torch.Tensor, dtype: torch.dtype, base: float = BASE):
    d = x.shape[-1]
    inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = positions.to(dtype)[:, None] * inv_freq.to(dtype)[None, :]
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()


def rope_half_float32(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """HF Llama: θ and angles in float32 (float64 for float64 x), cos/sin cast to x's dtype."""
    cos, sin = _cos_sin(x, positions, _angle_dtype(x))
    return x * cos.to(x.dtype) + _rotate_half(x) * sin.to(x.dtype)


def bug_angles_float16(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """θ, positions and angles in float16 (a module cast to half precision, buffers included)."""
    cos, sin = _cos_sin(x, positions, torch.float16)
    return x * cos.to(x.dtype) + _rotate_half(x) * sin.to(x.dtype)


def bug_clockwise(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """rotate_half with the wrong sign."""
    cos, sin = _cos_sin(x, positions, _angle_dtype(x))
    return x * cos.to(x.dtype) - _rotate_half(x) * sin.to(x.dtype)
