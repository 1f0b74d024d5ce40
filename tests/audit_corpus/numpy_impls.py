"""NumPy RoPE implementations: correct (`rope_*`) and buggy (`bug_*`).

Correct ones form angles in float64 (float32 for `rope_float32_angles`) and round once to x's dtype at the end;
bfloat16 arrays (ml_dtypes) are computed in float32 and cast back.
"""

from __future__ import annotations

import threading
from typing import ClassVar

import numpy as np

BASE = 10000.0


def _work_dtype(x: np.ndarray) -> np.dtype:
    return np.dtype(np.float64) if x.dtype == np.float64 else np.dtype(np.float32)


def _inv_freq(rotary_dim: int, base: float = BASE, dtype: object = np.float64) -> np.ndarray:
    return (1.0 / base ** (np.arange(0, rotary_dim, 2, dtype=np.float64) / rotary_dim)).astype(dtype)


def _angles(positions: np.ndarray, inv_freq: np.ndarray, dtype: object = np.float64) -> np.ndarray:
    return np.asarray(positions).astype(dtype)[:, None] * inv_freq.astype(dtype)[None, :]


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str, rotary_dim: int | None = None) -> np.ndarray:
    """Rotate x (any float dtype) by cos/sin (float64 or float32, shape (L, r/2)); result in x's dtype."""
    work = x.astype(np.float64)
    r = rotary_dim or x.shape[-1]
    rot, rest = work[..., :r], work[..., r:]
    if layout == "interleaved":
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
        out = np.empty_like(rot)
        out[..., 0::2] = x1 * cos - x2 * sin
        out[..., 1::2] = x1 * sin + x2 * cos
    else:
        x1, x2 = rot[..., : r // 2], rot[..., r // 2 :]
        out = np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
    return np.concatenate([out, rest], axis=-1).astype(x.dtype)


def _rope(x: np.ndarray, positions: np.ndarray, layout: str, base: float = BASE, scale: float = 1.0,
          rotary_dim: int | None = None) -> np.ndarray:
    r = rotary_dim or x.shape[-1]
    angles = _angles(positions, _inv_freq(r, base) / scale)
    return _rotate(x, np.cos(angles), np.sin(angles), layout, r)


# ---------------------------------------------------------------------------------------------- correct
def rope_interleaved(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """RoFormer / Meta: pairs (2i, 2i+1), base 10000."""
    return _rope(x, positions, "interleaved")


def rope_half(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """GPT-NeoX / HF Llama: pairs (i, i + d/2), base 10000."""
    return _rope(x, positions, "half")


def rope_float32_angles(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Half-split with θ, positions and angles in float32 (float64 for float64 x), rotation in float32."""
    dtype = _work_dtype(x)
    r = x.shape[-1]
    angles = _angles(positions, _inv_freq(r, dtype=dtype), dtype)
    cos, sin = np.cos(angles), np.sin(angles)
    work = x.astype(dtype)
    x1, x2 = work[..., : r // 2], work[..., r // 2 :]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


def rope_partial(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Partial rotary (GPT-J / Phi style): only the first d/2 coordinates rotate (half-split within them)."""
    return _rope(x, positions, "half", rotary_dim=x.shape[-1] // 2)


def rope_linear4(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Position interpolation: θᵢ/4 (audit with scaling linear:4)."""
    return _rope(x, positions, "half", scale=4.0)


def rope_base500k(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Llama 3 base 500000, half-split (correct when declared or inferred as 500000)."""
    return _rope(x, positions, "half", base=500000.0)


# ---------------------------------------------------------------------------------------------- buggy
def bug_clockwise(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Sine with the wrong sign: x₁cos + x₂sin, −x₁sin + x₂cos."""
    angles = _angles(positions, _inv_freq(x.shape[-1]))
    return _rotate(x, np.cos(angles), -np.sin(angles), "half")


def bug_wrong_base(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Base 500000 where 10000 is declared."""
    return _rope(x, positions, "half", base=500000.0)


def bug_layout_mixed(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """rotate_half with interleaved (repeat_interleave) cos/sin: a checkpoint converted between layouts badly."""
    d = x.shape[-1]
    angles = np.repeat(_angles(positions, _inv_freq(d)), 2, axis=-1)
    cos, sin = np.cos(angles), np.sin(angles)
    work = x.astype(np.float64)
    rotated = np.concatenate([-work[..., d // 2 :], work[..., : d // 2]], axis=-1)
    return (work * cos + rotated * sin).astype(x.dtype)


def bug_positions_ignored(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Uses arange(L) instead of the positions argument."""
    return _rope(x, np.arange(x.shape[-2]), "half")


def bug_positions_float16(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Positions cast to float16 before forming the (float32) angles."""
    held = np.asarray(positions).astype(np.float16).astype(np.float32)
    angles = held[:, None] * _inv_freq(x.shape[-1], dtype=np.float32)[None, :]
    return _rotate(x, np.cos(angles), np.sin(angles), "half")


def bug_missing_sin(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """x·cos only: the sine term was dropped."""
    angles = _angles(positions, _inv_freq(x.shape[-1]))
    return _rotate(x, np.cos(angles), np.zeros_like(angles), "half")


def bug_scaled(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """A rotation scaled by 1.05 (e.g. a stray attention factor)."""
    return (_rope(x, positions, "half").astype(np.float64) * 1.05).astype(x.dtype)


def bug_rms_normalised(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Rotates, then rescales each vector to unit RMS: not linear in x."""
    y = _rope(x, positions, "half").astype(np.float64)
    rms = np.sqrt(np.mean(y * y, axis=-1, keepdims=True)) + 1e-30
    return (y / rms).astype(x.dtype)


def bug_off_by_one(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Positions shifted by one (1-based positions)."""
    return _rope(x, np.asarray(positions) + 1, "half")


def bug_mutates_input(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Writes the result into x and returns it."""
    x[...] = _rope(x, positions, "half")
    return x


_NOISE = np.random.default_rng()


def bug_nondeterministic(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Adds a little fresh noise on every call."""
    y = _rope(x, positions, "half").astype(np.float64)
    return (y + 1e-3 * _NOISE.standard_normal(y.shape)).astype(x.dtype)


def bug_raises(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Always raises."""
    raise RuntimeError("rotary kernel not compiled for this device")


def bug_wrong_shape(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Drops the leading batch axes."""
    return _rope(x, positions, "half").reshape(-1, x.shape[-1])


def bug_nan_output(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """NaN at position 3 (a 0/0 in a normalisation, say)."""
    y = _rope(x, positions, "half")
    y[..., np.asarray(positions) == 3, :] = np.nan
    return y


def bug_hangs(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Never returns (waits on an event nobody sets; no CPU is burnt)."""
    threading.Event().wait()
    return x


class CachedRope:
    """cos/sin tables cached per (d, L) in a class-level dict shared by every instance: a new instance with
    another base gets the first instance's tables."""

    _cache: ClassVar[dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]] = {}

    def __init__(self, head_dim: int = 128, base: float = BASE) -> None:
        self.head_dim = head_dim
        self.base = base

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        length = int(positions.max()) + 1
        key = (self.head_dim, length)
        if key not in self._cache:
            angles = _angles(np.arange(length), _inv_freq(self.head_dim, self.base))
            self._cache[key] = (np.cos(angles), np.sin(angles))
        cos, sin = self._cache[key]
        return _rotate(x, cos[positions], sin[positions], "half")


class GoodRope:
    """A correct class-based RoPE (tables per instance)."""

    def __init__(self, head_dim: int = 128, base: float = BASE) -> None:
        self.inv_freq = _inv_freq(head_dim, base)

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        angles = _angles(positions, self.inv_freq)
        return _rotate(x, np.cos(angles), np.sin(angles), "half")
