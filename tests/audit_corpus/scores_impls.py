"""Position-aware attention scores `scores(q, k, q_positions, k_positions) -> (Lq, Lk)` for the auditor's tests:
correct (`shaw_*`, `rope_*`, `bias_*`) and buggy (`bug_*`), in NumPy, PyTorch and JAX. q and k arrive in the
audited dtype; scores are accumulated in float32 (float64 for float64 inputs) and returned in that work dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np

CLIP = 4
D = 64
_TABLE = np.random.default_rng(11).normal(size=(2 * CLIP + 1, D)) / 8.0


def _work(x: Any) -> Any:
    return np.float64 if np.asarray(x).dtype == np.float64 else np.float32


def _shaw(q: Any, k: Any, qp: Any, kp: Any, index: Any) -> np.ndarray:
    work = _work(q)
    qw, kw = np.asarray(q).astype(work), np.asarray(k).astype(work)
    table = _TABLE.astype(work)
    return qw @ kw.T + np.einsum("id,ijd->ij", qw, table[index])


def shaw_scores(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray) -> np.ndarray:
    """Shaw et al.: qᵢ·kⱼ + qᵢ·a^K_{clip(j − i, 4)}."""
    relative = np.asarray(k_positions)[None, :] - np.asarray(q_positions)[:, None]
    return _shaw(q, k, q_positions, k_positions, np.clip(relative, -CLIP, CLIP) + CLIP)


def _rope(x: np.ndarray, positions: np.ndarray, work: Any, base: float = 10000.0) -> np.ndarray:
    d = x.shape[-1]
    theta = (1.0 / base ** (np.arange(0, d, 2) / d)).astype(work)
    angles = np.asarray(positions).astype(work)[:, None] * theta[None, :]
    x1, x2 = x[:, 0::2].astype(work), x[:, 1::2].astype(work)
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=1)


def rope_scores(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray) -> np.ndarray:
    """RoPE at the score level: ⟨R(m)q, R(n)k⟩, angles in the work dtype."""
    work = _work(q)
    return _rope(np.asarray(q), q_positions, work) @ _rope(np.asarray(k), k_positions, work).T


def bias_scores(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray) -> np.ndarray:
    """qkᵀ plus an ALiBi bias −m·|k − q| (m = 1/16): affine in q."""
    work = _work(q)
    distance = np.abs(np.asarray(k_positions)[None, :] - np.asarray(q_positions)[:, None]).astype(work)
    return np.asarray(q).astype(work) @ np.asarray(k).astype(work).T - distance / 16


def shaw_torch(q: Any, k: Any, q_positions: Any, k_positions: Any) -> Any:
    """Shaw et al. in torch, clamp on both sides."""
    import torch

    work = torch.float64 if q.dtype == torch.float64 else torch.float32
    relative = (k_positions[None, :] - q_positions[:, None]).clamp(-CLIP, CLIP) + CLIP
    table = torch.from_numpy(_TABLE).to(work)
    qw, kw = q.to(work), k.to(work)
    return qw @ kw.T + torch.einsum("id,ijd->ij", qw, table[relative])


def rope_scores_jax(q: Any, k: Any, q_positions: Any, k_positions: Any) -> Any:
    """RoPE at the score level in JAX (interleaved pairs, float32 angles)."""
    import jax.numpy as jnp

    work = jnp.float64 if q.dtype == jnp.float64 else jnp.float32

    def rotate(x: Any, positions: Any) -> Any:
        d = x.shape[-1]
        theta = 1.0 / 10000.0 ** (jnp.arange(0, d, 2, dtype=work) / d)
        angles = positions.astype(work)[:, None] * theta[None, :]
        x1, x2 = x[:, 0::2].astype(work), x[:, 1::2].astype(work)
        return jnp.concatenate([x1 * jnp.cos(angles) - x2 * jnp.sin(angles),
                                x1 * jnp.sin(angles) + x2 * jnp.cos(angles)], axis=1)

    return rotate(q, q_positions) @ rotate(k, k_positions).T


# ------------------------------------------------------------------------------------------------ buggy
def bug_absolute_key_embedding(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray
                               ) -> np.ndarray:
    """Shaw scores with an absolute sinusoidal embedding of the key position added to the keys as well."""
    relative = np.asarray(k_positions)[None, :] - np.asarray(q_positions)[:, None]
    angles = np.asarray(k_positions, dtype=np.float64)[:, None] / 10000.0 ** (np.arange(D) / D)
    work = _work(q)
    absolute = np.asarray(q).astype(work) @ (0.5 * np.sin(angles)).astype(work).T
    return _shaw(q, k, q_positions, k_positions, np.clip(relative, -CLIP, CLIP) + CLIP) + absolute


def bug_shaw_unclipped_past(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray
                            ) -> np.ndarray:
    """Only the upper clip (min(j − i, k)): past distances beyond k index negative rows, which wrap around
    (and raise further out)."""
    relative = np.asarray(k_positions)[None, :] - np.asarray(q_positions)[:, None]
    return _shaw(q, k, q_positions, k_positions, np.minimum(relative, CLIP) + CLIP)


def bug_shaw_unclipped_torch(q: Any, k: Any, q_positions: Any, k_positions: Any) -> Any:
    """torch: only the upper clip; negative indices wrap around, then raise."""
    import torch

    work = torch.float64 if q.dtype == torch.float64 else torch.float32
    relative = (k_positions[None, :] - q_positions[:, None]).clamp(max=CLIP) + CLIP
    table = torch.from_numpy(_TABLE).to(work)
    qw, kw = q.to(work), k.to(work)
    return qw @ kw.T + torch.einsum("id,ijd->ij", qw, table[relative])


def bug_log_softmax(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray) -> np.ndarray:
    """Returns log-softmax over keys (normalised scores) instead of logits."""
    scores = rope_scores(q, k, q_positions, k_positions)
    top = scores.max(axis=1, keepdims=True)
    return scores - top - np.log(np.exp(scores - top).sum(axis=1, keepdims=True))


def bug_dynamic_base_by_keys(q: np.ndarray, k: np.ndarray, q_positions: np.ndarray, k_positions: np.ndarray
                             ) -> np.ndarray:
    """Dynamic NTK scaling whose base grows with the number of keys in the call (beyond 32): the scores of a
    query against the same cached keys change as the sequence grows."""
    work = _work(q)
    d = np.asarray(q).shape[-1]
    length = len(k_positions)
    base = 10000.0 * (max(length / 32, 1.0)) ** (d / (d - 2))
    return _rope(np.asarray(q), q_positions, work, base) @ _rope(np.asarray(k), k_positions, work, base).T
