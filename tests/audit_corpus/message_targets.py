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


def half_table_indexed_interleaved(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Hugging Face's cos/sin table `emb = cat(freqs, freqs)` read as GPT-J's interleaved one (`cos[..., ::2]`):
    pair i takes column 2i, so pairs d/4…d/2 − 1 take the first half's frequencies again."""
    d = x.shape[-1]
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, d, 2) / d)
    freqs = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb)[..., ::2], np.sin(emb)[..., ::2]
    x1, x2 = x[..., 0::2].astype(np.float64), x[..., 1::2].astype(np.float64)
    out = np.empty(x.shape, np.float64)
    out[..., 0::2], out[..., 1::2] = x1 * cos - x2 * sin, x1 * sin + x2 * cos
    return out.astype(x.dtype)


def xpos_same_sign_scores(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray) -> np.ndarray:
    """xPos (Sun et al. 2022) without its rotation, keys scaled by ζ^(+n/γ) instead of ζ^(−n/γ): the score factor is
    ζ^((m + n)/γ), absolute. ζᵢ = (2i/d + 0.4)/1.4 per pair, γ = 512 (torchscale's defaults)."""
    d = q.shape[-1]
    zeta = np.repeat((np.arange(0, d, 2) / d + 0.4) / 1.4, 2)
    scale_q = zeta[None, :] ** (np.asarray(q_positions, dtype=np.float64)[:, None] / 512)
    scale_k = zeta[None, :] ** (np.asarray(k_positions, dtype=np.float64)[:, None] / 512)
    return np.einsum("...qd,...kd->...qk", q * scale_q, k * scale_k).astype(q.dtype)
