"""Two small RoPE implementations audited in the audit guide (NumPy, half-split pairs, base 10000).

`rope_float32_angles` does what the tolerance policy accepts: positions and θᵢ held in float32 (float64 for float64
inputs), the angle m·θᵢ and its cos/sin formed there, the rotation done in that precision and the result rounded
once to x's dtype. `rope_data_dtype_angles` forms everything in x's own dtype, as a careless float16/bfloat16 port
does: position 2049 is already 2048 in float16, and the angle error grows like u·m·θ.
"""

from __future__ import annotations

import numpy as np

BASE = 10000.0


def _rope(x: np.ndarray, positions: np.ndarray, work: np.dtype) -> np.ndarray:
    d = x.shape[-1]
    inverse_frequencies = (1.0 / BASE ** (np.arange(0, d, 2, dtype=np.float64) / d)).astype(work)
    angles = np.asarray(positions).astype(work)[:, None] * inverse_frequencies[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    held = x.astype(work)
    x1, x2 = held[..., : d // 2], held[..., d // 2 :]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


def rope_float32_angles(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Angles and rotation in float32 (float64 for float64 inputs), one rounding to x's dtype at the end."""
    work = np.dtype(np.float64) if x.dtype == np.float64 else np.dtype(np.float32)
    return _rope(x, positions, work)


def rope_data_dtype_angles(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Angles, cos/sin and rotation all in x's dtype (rejected by the policy for 16-bit dtypes)."""
    return _rope(x, positions, x.dtype)
