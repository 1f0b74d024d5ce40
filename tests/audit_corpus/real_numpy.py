"""RoPE forms from public NumPy code, as fn(x, positions) — faithful reproductions, not verbatim copies.

Source: [np] likejazz/llama3.np, llama3.py @ 30a73d28f0f11e056e20998341d50b55b303d2af (MIT): a table
freqs_cos/freqs_sin of max_seq_len rows built in float64 (`np.outer(arange(max_seq_len), inv_freq)`), and
`apply_rotary_emb` pairing (2i, 2i+1) by reshape(-1, 2) — interleaved — rotating with the float64 table, so the
output is float64 whatever x's dtype (the reference computes in float64: float64-native).
"""

from __future__ import annotations

import numpy as np


class Llama3NpRope:
    """[np] a float64 table of `max_seq_len` positions, interleaved pairs."""

    def __init__(self, head_dim: int = 64, base: float = 10000.0, max_seq_len: int = 2048) -> None:
        inv_freq = 1.0 / (base ** (np.arange(0, head_dim, 2)[: (head_dim // 2)] / head_dim))
        freqs = np.outer(np.arange(max_seq_len), inv_freq)
        self.freqs_cos, self.freqs_sin = np.cos(freqs), np.sin(freqs)

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        xri = x.reshape((*x.shape[:-1], -1, 2))
        x_r, x_i = (part.squeeze(-1) for part in np.split(xri, 2, axis=-1))
        cos, sin = self.freqs_cos[positions], self.freqs_sin[positions]
        out = np.stack([x_r * cos - x_i * sin, x_r * sin + x_i * cos], axis=-1)
        return out.reshape((*out.shape[:-2], -1))


class Llama3NpRopeSameDtype(Llama3NpRope):
    """[np] with the output cast back to x's dtype (`.astype(x.dtype)`), as a float32 port would."""

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        return super().__call__(x, positions).astype(x.dtype)


class BugLlama3NpSwappedParts(Llama3NpRope):
    """[np] with real and imaginary parts swapped in the reshape (pairs read as (x_i, x_r)): clockwise."""

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        xri = x.reshape((*x.shape[:-1], -1, 2))
        x_i, x_r = (part.squeeze(-1) for part in np.split(xri, 2, axis=-1))
        cos, sin = self.freqs_cos[positions], self.freqs_sin[positions]
        out = np.stack([x_r * sin + x_i * cos, x_r * cos - x_i * sin], axis=-1)
        return out.reshape((*out.shape[:-2], -1)).astype(x.dtype)
