"""Length-dependent RoPE scalings from public code, as fn(x, positions) — faithful NumPy reproductions, not copies.

Sources:

- [vllm-phi3] vllm-project/vllm, `vllm/model_executor/layers/rotary_embedding.py`,
  `Phi3LongRoPEScaledRotaryEmbedding` (Apache-2.0), before the fix: one cache of `original_max_position_embeddings`
  rows with the short factors, then `max_position_embeddings` rows with the long ones, concatenated; the forward
  adds `original_max_position_embeddings` to every index when `torch.any(positions > k)` with
  k = `original_max_position_embeddings`. A call whose largest position is exactly k uses the short rule and reads
  row k of the concatenated cache — the long cache's row 0: token k is rotated as position 0. Half-split pairs,
  cos/sin multiplied by √(1 + ln(max/orig)/ln orig).
- [hf-phi3] transformers' rule (`_compute_longrope_parameters` and the dynamic update): long factors when
  max(position) + 1 > original_max_position_embeddings — the reference; `switch_shift` moves the switch by one in
  either direction for the tests.
- [hf-dynamic] transformers' dynamic NTK: base′ = base·(F·s/N − (F − 1))^(d/(d−2)), s = max(N, max(position) + 1);
  `switch_shift` likewise.
"""

from __future__ import annotations

import math

import numpy as np


def _rotate_half(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half].astype(np.float64), x[..., half:].astype(np.float64)
    out = np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
    return out.astype(x.dtype)


def _cache(positions: np.ndarray, inv_freq: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    freqs = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    return np.cos(freqs) * scale, np.sin(freqs) * scale


class VllmPhi3LongRope:
    """[vllm-phi3] the concatenated short/long cache indexed with `any(positions > orig)`: off by one."""

    def __init__(self, head_dim: int = 64, base: float = 10000.0, orig: int = 4096, max_pos: int = 16384,
                 short: tuple[float, ...] | None = None, long: tuple[float, ...] | None = None) -> None:
        pairs = head_dim // 2
        factor = max_pos / orig
        self.short = np.array(short or (1.0,) * pairs)
        self.long = np.array(long or [1.0 + (factor - 1.0) * i / (pairs - 1) for i in range(pairs)])
        self.orig, self.scale = orig, math.sqrt(1 + math.log(factor) / math.log(orig))
        inv_freq = 1.0 / base ** (np.arange(0, head_dim, 2) / head_dim)
        short_cos, short_sin = _cache(np.arange(orig), inv_freq / self.short, self.scale)
        long_cos, long_sin = _cache(np.arange(max_pos), inv_freq / self.long, self.scale)
        self.cos = np.concatenate([short_cos, long_cos])
        self.sin = np.concatenate([short_sin, long_sin])

    def index(self, positions: np.ndarray) -> np.ndarray:
        return positions + (self.orig if np.any(positions > self.orig) else 0)

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        idx = self.index(np.asarray(positions))
        cos, sin = self.cos[idx], self.sin[idx]
        return _rotate_half(x, np.concatenate([cos, cos], -1)[..., : x.shape[-1] // 2],
                            np.concatenate([sin, sin], -1)[..., : x.shape[-1] // 2])

    def spec(self) -> str:
        """The --scaling spec of this rope."""
        short, long = ("/".join(f"{v:.17g}" for v in values) for values in (self.short, self.long))
        return f"longrope:{len(self.cos) / self.orig - 1:g},orig={self.orig},short={short},long={long}"


class VllmPhi3LongRopeFixed(VllmPhi3LongRope):
    """[vllm-phi3] with the index rule fixed (`positions >= orig`, i.e. max + 1 > orig)."""

    def index(self, positions: np.ndarray) -> np.ndarray:
        return positions + (self.orig if np.any(positions >= self.orig) else 0)


class HFLongRope:
    """[hf-phi3] the rule computed per call; `switch_shift` = +1 switches one position late, −1 one early."""

    def __init__(self, head_dim: int = 64, base: float = 10000.0, orig: int = 4096, factor: float = 4.0,
                 switch_shift: int = 0) -> None:
        pairs = head_dim // 2
        self.long = np.array([1.0 + (factor - 1.0) * i / (pairs - 1) for i in range(pairs)])
        self.inv_freq = 1.0 / base ** (np.arange(0, head_dim, 2) / head_dim)
        self.orig, self.shift = orig, switch_shift
        self.scale = math.sqrt(1 + math.log(factor) / math.log(orig))

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        seq_len = int(positions.max()) + 1
        factors = self.long if seq_len > self.orig + self.shift else np.ones_like(self.long)
        cos, sin = _cache(positions, self.inv_freq / factors, self.scale)
        return _rotate_half(x, cos, sin)


class HFDynamicNtk:
    """[hf-dynamic] dynamic NTK per call; `switch_shift` moves where s leaves N by one in either direction."""

    def __init__(self, head_dim: int = 64, base: float = 10000.0, orig: int = 2048, factor: float = 4.0,
                 switch_shift: int = 0) -> None:
        self.d, self.base, self.orig, self.factor, self.shift = head_dim, base, orig, factor, switch_shift

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        seq_len = int(positions.max()) + 1 + self.shift
        base = self.base
        if seq_len > self.orig:
            base = base * ((self.factor * seq_len / self.orig) - (self.factor - 1)) ** (self.d / (self.d - 2))
        inv_freq = 1.0 / base ** (np.arange(0, self.d, 2) / self.d)
        cos, sin = _cache(positions, inv_freq, 1.0)
        return _rotate_half(x, cos, sin)
