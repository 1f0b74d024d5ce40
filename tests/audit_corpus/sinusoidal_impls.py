"""Sinusoidal position tables `pe(positions) -> (L, d)` for the auditor's tests: correct (`sin_*`, `Sin*`) and
buggy (`bug_*`, `Bug*`), in NumPy, PyTorch and JAX. Every function takes integer positions `(L,)` and a `dtype`
keyword (the audit asks for each dtype through it); classes are built with `(num_positions, dim)`.

Correct ones form the angles in float64 (float32 for `sin_concat_torch`) and round once to the requested dtype.

`tf_marian_init_weight` is a verbatim copy (small, attributed, not part of the package) of transformers'
`TFMarianSinusoidalPositionalEmbedding._init_weight` (`src/transformers/models/marian/modeling_tf_marian.py`,
Apache-2.0, © The HuggingFace Team), without its two TensorFlow conversion lines: the fixed form, which writes the
sines and cosines into a separate `table`; `bug_overwrite_in_place` writes them back into `position_enc`.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

BASE = 10000.0
DIM = 32


def _np_dtype(dtype: Any) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if str(dtype) == "bfloat16" else np.dtype(dtype or np.float32)


def _omegas(dim: int = DIM, scheme: str = "standard", base: float = BASE, sign: float = -1.0) -> np.ndarray:
    i = np.arange(dim // 2, dtype=np.float64)
    if scheme == "t2t":
        # tensor2tensor get_timing_signal_1d: log-spaced timescales from 1 to base.
        return np.exp(-i * (math.log(base) / (dim // 2 - 1)))
    return base ** (sign * 2 * i / dim)


def _table(positions: Any, dtype: Any, layout: str = "interleaved", scheme: str = "standard", sign: float = -1.0,
           offset: int = 0, cos_first: bool = False, dim: int = DIM) -> np.ndarray:
    angles = (np.asarray(positions, dtype=np.float64) + offset)[:, None] * _omegas(dim, scheme, sign=sign)[None, :]
    first, second = (np.cos(angles), np.sin(angles)) if cos_first else (np.sin(angles), np.cos(angles))
    if layout == "concat":
        out = np.concatenate([first, second], axis=1)
    else:
        out = np.empty((angles.shape[0], dim))
        out[:, 0::2], out[:, 1::2] = first, second
    return out.astype(_np_dtype(dtype))


# ------------------------------------------------------------------------------------------------ correct
def sin_interleaved(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Vaswani et al. / the seeds: PE[p, 2i] = sin(p·ωᵢ), PE[p, 2i+1] = cos(p·ωᵢ), ωᵢ = 10000^(−2i/d)."""
    return _table(positions, dtype)


def sin_concat_t2t(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """fairseq / tensor2tensor: all sines then all cosines, log-spaced timescales (ω_last = 1/base)."""
    return _table(positions, dtype, "concat", "t2t")


def sin_fairseq_offset(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """fairseq with padding_idx = 1: the row of token position p is PE(p + 2) (audit with offset=2)."""
    return _table(positions, dtype, "concat", "t2t", offset=2)


class SinTable:
    """A module-like table built once for (num_positions, dim), gathered by position (a copy per call)."""

    def __init__(self, num_positions: int, dim: int, dtype: Any = "float32") -> None:
        self.table = _table(np.arange(num_positions), dtype, "concat", dim=dim)

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        return self.table[np.asarray(positions)]


def sin_concat_torch(positions: Any, dtype: Any = None) -> Any:
    """Hugging Face style in torch: angles in float32 (float64 for float64 tables), concat layout."""
    import torch

    dtype = dtype or torch.float32
    work = torch.float64 if dtype == torch.float64 else torch.float32
    inv = 1.0 / BASE ** (torch.arange(0, DIM, 2, dtype=work) / DIM)
    angles = positions.to(work)[:, None] * inv[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=-1).to(dtype)


def sin_interleaved_jax(positions: Any, dtype: Any = None) -> Any:
    """JAX, interleaved, angles in float32 (float64 when asked for float64 with x64 enabled)."""
    import jax.numpy as jnp

    dtype = dtype or jnp.float32
    work = jnp.float64 if dtype == jnp.float64 else jnp.float32
    omegas = 1.0 / BASE ** (jnp.arange(0, DIM, 2, dtype=work) / DIM)
    angles = positions.astype(work)[:, None] * omegas[None, :]
    return jnp.stack([jnp.sin(angles), jnp.cos(angles)], axis=-1).reshape(-1, DIM).astype(dtype)


def tf_marian_init_weight(n_pos: int, dim: int):
    """
    Identical to the XLM create_sinusoidal_embeddings except features are not interleaved. The cos features are in
    the 2nd half of the vector. [dim // 2:]
    """
    position_enc = np.array(
        [[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)]
    )
    table = np.zeros_like(position_enc)
    # index 0 is all zero
    table[:, 0 : dim // 2] = np.sin(position_enc[:, 0::2])
    table[:, dim // 2 :] = np.cos(position_enc[:, 1::2])
    return table


_TF_MARIAN_TABLES: dict[int, np.ndarray] = {}


def tf_marian_table(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Rows of the (verbatim) TF Marian table, built once per size (a power of two covering the positions)."""
    size = 1 << int(np.max(positions) + 1).bit_length()
    if size not in _TF_MARIAN_TABLES:
        _TF_MARIAN_TABLES[size] = tf_marian_init_weight(size, DIM)
    return _TF_MARIAN_TABLES[size][np.asarray(positions)].astype(_np_dtype(dtype))


# ------------------------------------------------------------------------------------------------ buggy
def bug_flipped_exponent(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """SPE-FREQUENCY-004 as printed: ωᵢ = 10000^(+2i/d)."""
    return _table(positions, dtype, sign=+1.0)


def bug_off_by_one(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Positions counted from 1: the row of p is PE(p + 1)."""
    return _table(positions, dtype, offset=1)


def bug_positions_ignored(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Uses arange(L) whatever positions are given."""
    return _table(np.arange(len(positions)), dtype)


def bug_positions_float16(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Positions held in float16 before the (float64) angle: exact only up to 2048."""
    return _table(np.asarray(positions).astype(np.float16).astype(np.float64), dtype)


def bug_positions_half_torch(positions: Any, dtype: Any = None) -> Any:
    """torch: positions cast to the table's half dtype (here always float16) before the float32 angle."""
    import torch

    inv = 1.0 / BASE ** (torch.arange(0, DIM, 2, dtype=torch.float32) / DIM)
    angles = positions.to(torch.float16).to(torch.float32)[:, None] * inv[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=-1).to(dtype or torch.float32)


def bug_flipped_exponent_jax(positions: Any, dtype: Any = None) -> Any:
    """JAX: ωᵢ = 10000^(+2i/d) (as SPE-FREQUENCY-004 prints it), angles in float64 on the host."""
    import jax.numpy as jnp

    return jnp.asarray(_table(np.asarray(positions), "float32", sign=+1.0)).astype(dtype or jnp.float32)


def bug_column_index(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Each column j uses 10000^(−2j/d) instead of the pair's 10000^(−2(j//2)/d): sin and cos of a pair differ."""
    j = np.arange(DIM)
    angles = np.asarray(positions, dtype=np.float64)[:, None] / BASE ** (2 * j / DIM)
    out = np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
    return out.astype(_np_dtype(dtype))


def bug_overwrite_in_place(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """The TF Marian/Pegasus pattern: the angle table is overwritten with its sines, then the cosines are taken
    of columns that were already overwritten (half the cosine block is cos(sin(·)))."""
    j = np.arange(DIM)
    table = np.asarray(positions, dtype=np.float64)[:, None] / BASE ** (2 * (j // 2) / DIM)
    table[:, : DIM // 2] = np.sin(table[:, 0::2])
    table[:, DIM // 2:] = np.cos(table[:, 1::2])
    return table.astype(_np_dtype(dtype))


def bug_cos_first(positions: np.ndarray, dtype: Any = "float32") -> np.ndarray:
    """Pairs stored (cos, sin): the seed's shift matrix moves this table backwards."""
    return _table(positions, dtype, cos_first=True)


class BugAliasedTable:
    """Returns a *view* of its cached table for contiguous positions (a slice is cheaper than a gather):
    a caller's in-place `x += pe(...)` corrupts the table."""

    def __init__(self, num_positions: int, dim: int, dtype: Any = "float32") -> None:
        self.table = _table(np.arange(num_positions), dtype, dim=dim)

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        if positions.size > 1 and np.all(np.diff(positions) == 1):
            return self.table[positions[0]: positions[-1] + 1]
        return self.table[positions]


class BugSinInPlace:
    """Caches the angles and takes their sine *in place* on every call (np.sin(..., out=...)): the second call
    returns sin(sin(angle))."""

    def __init__(self, num_positions: int, dim: int, dtype: Any = "float32") -> None:
        self.dtype = dtype
        self.angles = np.arange(num_positions, dtype=np.float64)[:, None] * _omegas(dim)[None, :]

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        sines = np.sin(self.angles, out=self.angles)
        cosines = np.sqrt(1 - sines**2)
        out = np.empty((sines.shape[0], 2 * sines.shape[1]))
        out[:, 0::2], out[:, 1::2] = sines, cosines
        return out[np.asarray(positions)].astype(_np_dtype(self.dtype))


class BugGrowsFromLength:
    """A fairseq-style table grown on demand from the call's *length* only (the past length ignored, as
    Speech2Text's `Speech2TextSinusoidalPositionalEmbedding` does): positions beyond the table raise unless an
    earlier call was long enough."""

    def __init__(self, num_positions: int, dim: int, dtype: Any = "float32") -> None:
        self.dim, self.dtype = dim, dtype
        self.table = _table(np.arange(64), dtype, dim=dim)

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        if len(positions) > self.table.shape[0]:
            self.table = _table(np.arange(len(positions) + 2), self.dtype, dim=self.dim)
        return self.table[positions]
