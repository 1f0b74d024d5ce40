"""Relative position biases `bias(q_positions, k_positions) -> (H, Lq, Lk)` for the auditor's tests: correct
(`t5_*`, `alibi_*`) and buggy (`bug_*`) in NumPy, PyTorch and JAX. Functions take a `dtype` keyword; the T5 ones
expose their table as `relative_attention_bias` (as transformers and x-transformers modules do).

Two functions are verbatim copies of real code (small, attributed, not part of the package):

- `hf_relative_position_bucket`: transformers, `src/transformers/models/t5/modeling_t5.py`,
  `T5Attention._relative_position_bucket` (Apache-2.0, © The HuggingFace Team), docstring shortened.
- `press_get_slopes`: github.com/ofirpress/attention_with_linear_biases, `fairseq/models/transformer.py`,
  `get_slopes` (MIT, © Ofir Press), as also found in x-transformers' `AlibiPositionalBias._get_slopes`.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

HEADS = 4
_RNG = np.random.default_rng(7)
TABLE = _RNG.normal(size=(32, HEADS))
BIG_TABLE = _RNG.normal(size=(64, HEADS))


def _np_dtype(dtype: Any) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if str(dtype) == "bfloat16" else np.dtype(dtype or np.float32)


# ------------------------------------------------------------------------------------------------ verbatim copies
def hf_relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """transformers' T5Attention._relative_position_bucket (verbatim body; see the module docstring)."""
    import torch

    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)

    # half of the buckets are for exact increments in positions
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact

    # The other half of the buckets are for logarithmically bigger bins in positions up to max_distance
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )

    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def press_get_slopes(n):
    """Press et al.'s get_slopes (verbatim; see the module docstring)."""
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)                   #In the paper, we only train models that have 2^a heads for some a. This function has  # noqa: E501
    else:                                                 #some good properties that only occur when the input is a power of 2. To maintain that even  # noqa: E501
        closest_power_of_2 = 2**math.floor(math.log2(n))  #when the number of heads is not a power of 2, we use this workaround.  # noqa: E501
        return get_slopes_power_of_2(closest_power_of_2) + press_get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]  # noqa: E501


# ------------------------------------------------------------------------------------------------ T5
def _np_bucket(relative: np.ndarray, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128,
               clamp: bool = True, log_denominator: float | None = None) -> np.ndarray:
    """NumPy port of the bucket function, with switches for the bug classes."""
    buckets = np.zeros_like(relative)
    if bidirectional:
        num_buckets //= 2
        buckets += (relative > 0).astype(np.int64) * num_buckets
        n = np.abs(relative)
    else:
        n = -np.minimum(relative, 0)
    max_exact = num_buckets // 2
    denominator = math.log(max_distance / max_exact) if log_denominator is None else log_denominator
    with np.errstate(divide="ignore"):
        large = max_exact + (np.log(np.maximum(n, 1) / max_exact) / denominator * (num_buckets - max_exact)).astype(
            np.int64)
    if clamp:
        large = np.minimum(large, num_buckets - 1)
    return buckets + np.where(n < max_exact, n, large)


def _t5(q: Any, k: Any, dtype: Any, table: np.ndarray = TABLE, **switches: Any) -> np.ndarray:
    relative = np.asarray(k)[None, :] - np.asarray(q)[:, None]
    return np.moveaxis(table[_np_bucket(relative, **switches)], -1, 0).astype(_np_dtype(dtype))


def t5_bias(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """T5 encoder bias (bidirectional, 32 buckets, max_distance 128)."""
    return _t5(q_positions, k_positions, dtype)


def t5_causal(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """T5 decoder bias (bidirectional=False)."""
    return _t5(q_positions, k_positions, dtype, bidirectional=False)


def t5_torch(q_positions: Any, k_positions: Any, dtype: Any = None) -> Any:
    """The transformers bucket function (verbatim copy) with an nn.Embedding-like table, in torch."""
    import torch

    relative = k_positions[None, :] - q_positions[:, None]
    buckets = hf_relative_position_bucket(relative)
    return torch.from_numpy(TABLE)[buckets].permute(2, 0, 1).to(dtype or torch.float32)




# ------------------------------------------------------------------------------------------------ ALiBi
def _alibi(q: Any, k: Any, dtype: Any, slopes: np.ndarray, form: str = "symmetric", sign: float = -1.0,
           distance_dtype: Any = np.float64) -> np.ndarray:
    distance = (np.asarray(k)[None, :] - np.asarray(q)[:, None]).astype(distance_dtype).astype(np.float64)
    if form == "symmetric":
        values = sign * np.abs(distance)[None] * slopes[:, None, None]
    else:
        values = -sign * distance[None] * slopes[:, None, None]
        values = np.where(distance[None] > 0, -np.inf, values)
    return values.astype(_np_dtype(dtype))


def alibi_bias(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """x-transformers style −m·|k − q|, 8 heads, slopes of Press et al."""
    return _alibi(q_positions, k_positions, dtype, np.array(press_get_slopes(8)))


def alibi_causal_12(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """m·(k − q) for past keys, −inf for future keys, 12 heads (the closest-power-of-two rule)."""
    return _alibi(q_positions, k_positions, dtype, np.array(press_get_slopes(12)), form="causal")


def alibi_bloom_torch(q_positions: Any, k_positions: Any, dtype: Any = None) -> Any:
    """Bloom's form m·k (a constant per query row away from m·(k − q)), float32 product, 6 heads."""
    import torch

    slopes = torch.tensor(press_get_slopes(6), dtype=torch.float32)
    values = slopes[:, None, None] * k_positions.to(torch.float32)[None, None, :]
    return values.expand(6, q_positions.shape[0], k_positions.shape[0]).to(dtype or torch.float32)


def alibi_jax(q_positions: Any, k_positions: Any, dtype: Any = None) -> Any:
    """JAX, −m·|k − q| in float32, 16 heads."""
    import jax.numpy as jnp

    slopes = jnp.asarray(press_get_slopes(16), dtype=jnp.float32)
    distance = jnp.abs(k_positions[None, :] - q_positions[:, None]).astype(jnp.float32)
    return (-distance[None] * slopes[:, None, None]).astype(dtype or jnp.float32)


# ------------------------------------------------------------------------------------------------ buggy
def bug_t5_no_clamp(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """The min(…, num_buckets − 1) is missing (the table is large enough not to raise)."""
    return _t5(q_positions, k_positions, dtype, table=BIG_TABLE, clamp=False)


def bug_t5_always_bidirectional(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """A decoder bias that ignores bidirectional=False (audit with bidirectional=false)."""
    return _t5(q_positions, k_positions, dtype)


def bug_t5_flipped_sign(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """A causal T5 bias with relative_position = q − k."""
    relative = np.asarray(q_positions)[:, None] - np.asarray(k_positions)[None, :]
    return np.moveaxis(TABLE[_np_bucket(relative, bidirectional=False)], -1, 0).astype(_np_dtype(dtype))


def bug_t5_log_formula(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """log(n/max_exact)/log(max_distance) instead of /log(max_distance/max_exact)."""
    return _t5(q_positions, k_positions, dtype, log_denominator=math.log(128))


def bug_alibi_naive_slopes(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """12 heads with the geometric 2^(−8(h+1)/12): Press et al.'s rule applies to powers of two only."""
    return _alibi(q_positions, k_positions, dtype, 2.0 ** (-8.0 * np.arange(1, 13) / 12))


def bug_alibi_reversed(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """The slopes assigned in reverse head order."""
    return _alibi(q_positions, k_positions, dtype, np.array(press_get_slopes(8))[::-1])


def bug_alibi_reversed_jax(q_positions: Any, k_positions: Any, dtype: Any = None) -> Any:
    """JAX, slopes in reverse head order."""
    import jax.numpy as jnp

    slopes = jnp.asarray(press_get_slopes(8)[::-1], dtype=jnp.float32)
    distance = jnp.abs(k_positions[None, :] - q_positions[:, None]).astype(jnp.float32)
    return (-distance[None] * slopes[:, None, None]).astype(dtype or jnp.float32)


def bug_alibi_wrong_sign(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """+m·|k − q|: distant keys are favoured."""
    return _alibi(q_positions, k_positions, dtype, np.array(press_get_slopes(8)), sign=+1.0)


def bug_alibi_distance_float16(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """k − q held in float16 (exact only up to 2048)."""
    return _alibi(q_positions, k_positions, dtype, np.array(press_get_slopes(8)), distance_dtype=np.float16)


def bug_alibi_positions_torch(q_positions: Any, k_positions: Any, dtype: Any = None) -> Any:
    """torch: the positions argument ignored (arange of the lengths): absolute indices, not positions."""
    import torch

    q, k = torch.arange(q_positions.shape[0]), torch.arange(k_positions.shape[0])
    slopes = torch.tensor(press_get_slopes(8), dtype=torch.float32)
    distance = (k[None, :] - q[:, None]).abs().to(torch.float32)
    return (-distance[None] * slopes[:, None, None]).to(dtype or torch.float32)


def bug_bias_top_slice(q_positions: np.ndarray, k_positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Queries taken as the *first* Lq keys (a cached bias sliced bias[..., :Lq, :] instead of [..., -Lq:, :]):
    right for square calls, wrong for a decoding step."""
    k = np.asarray(k_positions)
    return _alibi(k[: len(q_positions)], k, dtype, np.array(press_get_slopes(8)))


for _function in (t5_bias, t5_causal, t5_torch, bug_t5_flipped_sign):
    _function.relative_attention_bias = TABLE  # type: ignore[attr-defined]
