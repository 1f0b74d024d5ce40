"""ESPnet's sinusoidal table, ported verbatim (trimmed) and attributed, as pe(positions, dtype) -> (L, d).

Source: espnet/espnet, `espnet/nets/pytorch_backend/transformer/embedding.py` at commit
029365d81725db38ae9d8fe2f16a3e1df97df1ee (Apache-2.0, Copyright 2019 Shigeki Karita): `PositionalEncoding`
(lines between `# --- verbatim` and `# --- end verbatim` are copied unchanged; the load-state-dict hook is cut).
`extend_pe` converts the cached table *in place* to each input's dtype (`self.pe = self.pe.to(dtype=x.dtype, …)`):
after a bfloat16 call the float32 rows carry bfloat16 rounding. `CopyOnCast` is the fix in our words (not an
upstream commit): the table stays float32 and each call gets its rows converted.

The wrapper `table(module)` is how a model uses the module: one instance, called with inputs of whatever dtype
the model runs in; x = 0, so the output is the table rows themselves.
"""

# ruff: noqa: UP008 — the ported lines keep the library's own formatting
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch


# --- verbatim (029365d) -------------------------------------------------------------------------------------
class PositionalEncoding(torch.nn.Module):
    """Positional encoding.

    Args:
        d_model (int): Embedding dimension.
        dropout_rate (float): Dropout rate.
        max_len (int): Maximum input length.
        reverse (bool): Whether to reverse the input position. Only for
        the class LegacyRelPositionalEncoding. We remove it in the current
        class RelPositionalEncoding.
    """

    def __init__(self, d_model, dropout_rate, max_len=5000, reverse=False):
        """Construct an PositionalEncoding object."""
        super(PositionalEncoding, self).__init__()
        self.d_model = d_model
        self.reverse = reverse
        self.xscale = math.sqrt(self.d_model)
        self.dropout = torch.nn.Dropout(p=dropout_rate)
        self.pe = None
        self.extend_pe(torch.tensor(0.0).expand(1, max_len))

    def extend_pe(self, x):
        """Reset the positional encodings."""
        if self.pe is not None:
            if self.pe.size(1) >= x.size(1):
                if self.pe.dtype != x.dtype or self.pe.device != x.device:
                    self.pe = self.pe.to(dtype=x.dtype, device=x.device)
                return
        pe = torch.zeros(x.size(1), self.d_model)
        if self.reverse:
            position = torch.arange(
                x.size(1) - 1, -1, -1.0, dtype=torch.float32
            ).unsqueeze(1)
        else:
            position = torch.arange(0, x.size(1), dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(
            torch.arange(0, self.d_model, 2, dtype=torch.float32)
            * -(math.log(10000.0) / self.d_model)
        )
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.pe = pe.to(device=x.device, dtype=x.dtype)

    def forward(self, x: torch.Tensor):
        """Add positional encoding.

        Args:
            x (torch.Tensor): Input tensor (batch, time, `*`).

        Returns:
            torch.Tensor: Encoded tensor (batch, time, `*`).
        """
        self.extend_pe(x)
        x = x * self.xscale + self.pe[:, : x.size(1)]
        return self.dropout(x)
# --- end verbatim


class CopyOnCast(PositionalEncoding):
    """The fix (ours): the cached table keeps its float32 values; each call adds its rows converted to x's dtype."""

    def forward(self, x: torch.Tensor):
        if self.pe is None or self.pe.size(1) < x.size(1):
            self.extend_pe(x.float())
        x = x * self.xscale + self.pe[:, : x.size(1)].to(x.dtype)
        return self.dropout(x)


def table(module: type[PositionalEncoding] = PositionalEncoding, d_model: int = 64) -> Callable[..., Any]:
    """pe(positions, dtype) over one shared instance (dropout 0, eval mode), called with x = 0 of `dtype`."""
    encoding = module(d_model, 0.0).eval()

    def pe(positions: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        x = torch.zeros(1, int(positions.max()) + 1, d_model, dtype=dtype)
        with torch.no_grad():
            return encoding(x)[0, positions]

    return pe
