"""ALiBi biases from public code, as `bias(q_positions, k_positions, dtype) -> (H, Lq, Lk)` — faithful NumPy
reproductions, not copies. Each builds its float32 table the way the source does and casts it to the model dtype
where the source does, so 16-bit inference carries the source's rounding.

Sources:

- [bloom] bigscience-workshop/Megatron-DeepSpeed, `megatron/model/transformer.py`, `_build_alibi_tensor` (BSD-3 /
  Apache-2.0 parts): `slopes.unsqueeze(1).unsqueeze(1) * torch.arange(max_seq_len)…` — the key-index form m·k
  (a constant per query row away from m·(k − q)) — then `self.alibi.to(torch.bfloat16)` when params_dtype is
  bfloat16 (float16 likewise).
- [mpt] mosaicml/llm-foundry, `llmfoundry/models/layers/attention.py`, `build_alibi_bias` / `gen_slopes`
  (Apache-2.0): `torch.arange(1 - seq_len, 1)` times the slopes 1/2^(m·alibi_bias_max/n) (causal, `full=False`:
  m·(k − (L − 1)), the future left to the causal mask), `alibi_bias.to(dtype=dtype)`.
- [baichuan2] baichuan-inc/Baichuan2 13B `modeling_baichuan.py`, `_gen_alibi_mask` / `_get_interleave` (Baichuan2
  community licence): slopes·(arange(max_pos) − max_pos + 1) for every row, plus a −inf upper triangle, the float32
  mask moved `.to(tensor)` — the model's dtype.
- [naive] the 2^(−8h/n) slope table of a non-power-of-two head count done naively (h = 1…n), and an off-by-one
  exponent 2^(−8h/n) from h = 0 for 8 heads (slope 1 for head 0), in a causal m·(k − q) form.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from tests.audit_corpus.bias_impls import press_get_slopes


def _cast(values: np.ndarray, dtype: Any) -> np.ndarray:
    name = str(dtype or "float32")
    return values.astype(ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name))


class BloomAlibi:
    """[bloom] m·k over a float32 `arange(max_seq_len)` table, cast to the model dtype."""

    def __init__(self, heads: int = 8, max_seq_len: int = 4096) -> None:
        slopes = np.array(press_get_slopes(heads), dtype=np.float32)
        self.table = slopes[:, None] * np.arange(max_seq_len, dtype=np.float32)[None, :]

    def __call__(self, q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
        row = _cast(self.table, dtype)[:, np.asarray(k_positions)]
        return np.repeat(row[:, None, :], len(q_positions), axis=1)


def mpt_gen_slopes(n_heads: int, alibi_bias_max: int = 8) -> np.ndarray:
    """[mpt] `gen_slopes`: 1/2^m, m = (1…2^⌈log2 n⌉)·max/2^⌈log2 n⌉, odd-then-even halves for other n."""
    padded = 2 ** math.ceil(math.log2(n_heads))
    m = np.arange(1, padded + 1, dtype=np.float32) * np.float32(alibi_bias_max / padded)
    slopes = (1.0 / np.power(np.float32(2), m)).astype(np.float32)
    if padded != n_heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:n_heads]
    return slopes


class MptAlibi:
    """[mpt] causal `build_alibi_bias(full=False)`: m·(k − (L − 1)) in float32, cast to dtype; the causal mask
    (−inf for k > q) applied as MPT's attention does."""

    def __init__(self, heads: int = 8, seq_len: int = 4096) -> None:
        self.slopes, self.seq_len = mpt_gen_slopes(heads), seq_len

    def __call__(self, q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
        q, k = np.asarray(q_positions), np.asarray(k_positions)
        distance = (k - (self.seq_len - 1)).astype(np.float32)
        values = _cast(self.slopes[:, None] * distance[None, :], dtype).astype(np.float32)
        values = np.repeat(values[:, None, :], q.size, axis=1)
        return _cast(np.where(k[None, None, :] > q[None, :, None], -np.inf, values), dtype)


class Baichuan2Alibi:
    """[baichuan2] slopes·(k − max_pos + 1) for every row plus a −inf upper triangle, float32, `.to(dtype)`."""

    def __init__(self, heads: int = 8, max_pos: int = 4096) -> None:
        slopes = np.array(press_get_slopes(heads), dtype=np.float32)
        point = (np.arange(max_pos) - max_pos + 1).astype(np.float32)
        self.alibi = slopes[:, None] * point[None, :]

    def __call__(self, q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
        q, k = np.asarray(q_positions), np.asarray(k_positions)
        mask = np.where(k[None, :] > q[:, None], -np.inf, 0.0).astype(np.float32)
        return _cast(mask[None] + self.alibi[:, None, k], dtype)


def _causal(q: Any, k: Any, dtype: Any, slopes: np.ndarray) -> np.ndarray:
    distance = (np.asarray(k)[None, :] - np.asarray(q)[:, None]).astype(np.float32)
    values = np.where(distance[None] > 0, -np.inf, slopes[:, None, None].astype(np.float32) * distance[None])
    return _cast(values, dtype)


def naive_slopes_12(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """[naive] 12 heads with 2^(−8h/12), h = 1…12, causal (future masked)."""
    return _causal(q_positions, k_positions, dtype, 2.0 ** (-8.0 * np.arange(1, 13) / 12))


def off_by_one_slopes_8(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """[naive] 8 heads with 2^(−8h/8) from h = 0 (head 0 gets slope 1), causal."""
    return _causal(q_positions, k_positions, dtype, 2.0 ** (-8.0 * np.arange(0, 8) / 8))


def press_causal_8(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Press et al.'s slopes for 8 heads, m·(k − q) formed in float32 and cast: correct in every dtype."""
    return _causal(q_positions, k_positions, dtype, np.array(press_get_slopes(8)))


def press_symmetric_8(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """−m·|k − q| (x-transformers), float32 then cast: correct in every dtype."""
    distance = np.abs(np.asarray(k_positions)[None, :] - np.asarray(q_positions)[:, None]).astype(np.float32)
    return _cast(-np.array(press_get_slopes(8), dtype=np.float32)[:, None, None] * distance[None], dtype)


bloom_alibi, mpt_alibi, baichuan2_alibi = BloomAlibi(), MptAlibi(), Baichuan2Alibi()


#: Bloom's float32 table built for a 2048-token training context (`seq_length`): keys beyond it raise.
bloom_alibi_2048 = BloomAlibi(max_seq_len=2048)
