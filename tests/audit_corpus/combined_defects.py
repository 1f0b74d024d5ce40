"""RoPEs with two independent defects (issue #20, point 1): each defect must be reported with its own fix.

Written for the audit's attribution rule (a root cause absorbs only what it explains quantitatively; a non-finite
output is never explained). NumPy, interleaved pairs, fn(x, positions).
"""

from __future__ import annotations

import numpy as np


def _rotate(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    c, s = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., 0::2].astype(np.float64), x[..., 1::2].astype(np.float64)
    out = np.empty(x.shape, np.float64)
    out[..., 0::2] = x1 * c - x2 * s
    out[..., 1::2] = x1 * s + x2 * c
    return out.astype(x.dtype)


def float16_positions_and_theta(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Positions held in float16 (inf from 65520 on, so NaN outputs) *and* θ formed in float16."""
    d = x.shape[-1]
    theta = np.float16(10000.0) ** (-np.arange(0, d, 2, dtype=np.float16) / np.float16(d))
    held = np.asarray(positions).astype(np.float16)
    angles = held[:, None].astype(np.float32) * theta.astype(np.float32)
    return _rotate(x, angles.astype(np.float64))


def float16_positions(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Positions held in float16 (rounded above 2048, inf from 65520 on); θ and angles in float32."""
    d = x.shape[-1]
    theta = np.float32(10000.0) ** (-np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    held = np.asarray(positions).astype(np.float16).astype(np.float32)
    return _rotate(x, (held[:, None] * theta).astype(np.float64))


def wrong_base_and_wrapped_positions(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """θ from base 50000 (a digit lost from 500000) *and* a 4096-row cache indexed modulo its length."""
    d = x.shape[-1]
    theta = 50000.0 ** (-np.arange(0, d, 2) / d)
    return _rotate(x, (np.asarray(positions) % 4096)[:, None] * theta)
