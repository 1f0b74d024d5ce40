"""RoPE forms from llama.cpp's ggml CPU backend, as fn(x, positions) — faithful NumPy reproductions, not copies.

Source: [ggml] ggml-org/llama.cpp, ggml/src/ggml-cpu/ops.cpp (MIT): `ggml_compute_forward_rope_f32` takes
`theta_scale = powf(freq_base, -2.0f/n_dims)` and, per token, `ggml_rope_cache_init(p, …)` starts from
`theta = p` (a float) and forms each pair's angle by *repeated multiplication in float32*
(`theta *= theta_scale` after each pair), then `cosf`/`sinf` (`rope_yarn` with ext_factor 0, mscale 1). Normal mode
rotates the interleaved pairs (x[i0], x[i0 + 1]); NeoX mode the half-split pairs (x[i], x[i + n_dims/2]). F16
tensors are converted to float32, rotated, and converted back.
"""

from __future__ import annotations

import numpy as np


class GgmlRope:
    """[ggml] the CPU rope: θ by repeated float32 multiplication, cos/sin and the rotation in float32."""

    def __init__(self, freq_base: float = 10000.0, neox: bool = False, freq_scale: float = 1.0) -> None:
        self.freq_base, self.neox, self.freq_scale = np.float32(freq_base), neox, np.float32(freq_scale)

    def cache(self, positions: np.ndarray, n_dims: int) -> tuple[np.ndarray, np.ndarray]:
        """cos/sin per (position, pair), float32, as `ggml_rope_cache_init` fills them."""
        theta_scale = np.power(self.freq_base, np.float32(-2.0) / np.float32(n_dims), dtype=np.float32)
        theta = np.asarray(positions).astype(np.float32)
        angles = np.empty((theta.size, n_dims // 2), dtype=np.float32)
        for i in range(n_dims // 2):
            angles[:, i] = self.freq_scale * theta
            theta = (theta * theta_scale).astype(np.float32)
        return np.cos(angles), np.sin(angles)

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        n_dims = x.shape[-1]
        cos, sin = self.cache(positions, n_dims)
        work = x.astype(np.float32)
        if self.neox:
            x0, x1 = work[..., : n_dims // 2], work[..., n_dims // 2 :]
        else:
            x0, x1 = work[..., 0::2], work[..., 1::2]
        y0, y1 = x0 * cos - x1 * sin, x0 * sin + x1 * cos
        out = np.empty_like(work)
        if self.neox:
            out[..., : n_dims // 2], out[..., n_dims // 2 :] = y0, y1
        else:
            out[..., 0::2], out[..., 1::2] = y0, y1
        return out.astype(x.dtype)


def bfloat16_positions(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """A pow-per-pair float32 RoPE whose positions were held in bfloat16 (256 is the last integer held exactly)."""
    import ml_dtypes

    d = x.shape[-1]
    theta = np.float32(10000.0) ** (-np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    held = np.asarray(positions).astype(ml_dtypes.bfloat16).astype(np.float32)
    angles = held[:, None] * theta
    cos, sin = np.cos(angles), np.sin(angles)
    x0, x1 = x[..., 0::2].astype(np.float32), x[..., 1::2].astype(np.float32)
    out = np.empty(x.shape, np.float32)
    out[..., 0::2], out[..., 1::2] = x0 * cos - x1 * sin, x0 * sin + x1 * cos
    return out.astype(x.dtype)
