"""A sinusoidal table from OpenNMT-py, as pe(positions) -> (L, d) — a faithful NumPy reproduction, not a copy.

Source: [onmt] OpenNMT/OpenNMT-py, `onmt/modules/embeddings.py`, `PositionalEncoding` (MIT): a `max_len = 5000` row
table, `div_term = exp(arange(0, dim, 2) · −(ln 10000 / dim))`, `pe[:, 0::2] = sin(position · div_term)` and
`pe[:, 1::2] = cos(position · div_term)` (interleaved), float32; `forward` raises ValueError("Sequence is longer
than the maximum positions …") when `step + len` exceeds the table. `flipped_exponent` builds the same table with
`+ ln 10000 / dim` (frequencies that grow instead of shrink), a bug the audit must name.
"""

from __future__ import annotations

import math

import numpy as np


class OpenNmtPositionalEncoding:
    """[onmt] the 5000-row float32 table; positions beyond it raise as OpenNMT's forward does."""

    def __init__(self, dim: int = 64, max_len: int = 5000, flipped_exponent: bool = False) -> None:
        sign = 1.0 if flipped_exponent else -1.0
        position = np.arange(max_len, dtype=np.float32)[:, None]
        div_term = np.exp(np.arange(0, dim, 2, dtype=np.float32) * np.float32(sign * math.log(10000.0) / dim))
        self.pe = np.zeros((max_len, dim), dtype=np.float32)
        self.pe[:, 0::2] = np.sin(position * div_term)
        self.pe[:, 1::2] = np.cos(position * div_term)

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions)
        if positions.size and int(positions.max()) >= self.pe.shape[0]:
            raise ValueError(
                f"Sequence is longer than the maximum positions {self.pe.shape[0]} allowed by the positional encoding"
            )
        return self.pe[positions].copy()


opennmt_table = OpenNmtPositionalEncoding()
opennmt_flipped = OpenNmtPositionalEncoding(flipped_exponent=True)
