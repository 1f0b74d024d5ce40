"""Module-level targets for the message tests (`tests/test_audit_messages.py`): the CLI loads them by name.

Built from the attributed ports in `real_torch` (Hugging Face Llama forms) and `combined_defects`, and a NumPy
RoPE whose θ uses base 50000 where 500000 is meant (a digit lost).
"""

from __future__ import annotations

import numpy as np

from tests.audit_corpus import real_torch


def wrong_base_rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Interleaved float64 RoPE with base 50000 (the model's base is 500000)."""
    d = x.shape[-1]
    angles = np.asarray(positions)[:, None] * 50000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., 0::2].astype(np.float64), x[..., 1::2].astype(np.float64)
    out = np.empty(x.shape, np.float64)
    out[..., 0::2], out[..., 1::2] = x1 * c - x2 * s, x1 * s + x2 * c
    return out.astype(x.dtype)


#: A correct Llama-3 RoPE (llama3:8 scaling, base 500000) in Hugging Face's form.
llama3_rope = real_torch.HFLlamaRope(64, 5e5, "llama3", 8.0, orig=8192)
