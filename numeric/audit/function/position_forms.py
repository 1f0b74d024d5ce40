"""Other position APIs, seen through the function-level audit's `fn(x, positions)`.

Real RoPE entry points do not all take a 1-D position array:

- **offset only** (mlx-lm, fairseq's incremental path, rotary-embedding-torch): `fn(x, offset)` rotates the
  tokens of `x` at positions `offset, offset + 1, …`. `from_offset_api` calls it once per contiguous run of the
  audit's positions.
- **M-RoPE** (Qwen2/2.5/3-VL, GLM-4V): `fn(x, positions3)` with `positions3` of shape (3, L). `from_mrope_api`
  probes it with equal streams (p, p, p), where M-RoPE must reduce to 1-D RoPE.
- **flat batches** (vLLM, llama.cpp): `fn(x_flat, positions, sequence_ids)` for the tokens of several requests
  concatenated. `from_packed_api` audits one request; `check_packed_isolation` checks that one request's output
  does not change when another request in the same flat batch changes.

- **lengths only** (x-transformers' `AlibiPositionalBias.forward(qk_dots)`, `RelativePositionBias.forward(i, j)`):
  `fn(Lq, Lk)` returns the bias of the queries at the last Lq of the key positions 0 … Lk − 1 (a decoding step's
  queries come after the cached keys). `from_lengths_api` expresses any positions with that convention, so a
  bias that does not keep it (its queries read as 0 … Lq − 1) is seen to depend on the call.
- **index-based biases on packed sequences**: `check_packed_bias_isolation` checks ALiBi from key indices
  (Megatron, MPT) or from the mask's cumsum (HF BLOOM): a request's attention weights must not depend on the
  request packed before it.

Claims served: ROPE-QK-RELATIVE (each request's rotation depends on its own positions), ROPE-PAIR-FORMULA,
RPE-SHIFT-INVARIANCE (a bias moved by a constant per row leaves the weights unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "check_packed_bias_isolation",
    "check_packed_isolation",
    "from_lengths_api",
    "from_mrope_api",
    "from_offset_api",
    "from_packed_api",
]


def _concatenate(pieces: list[Any], like: Any) -> Any:
    module = type(like).__module__.split(".")[0]
    if module == "torch":
        import torch

        return torch.cat(pieces, dim=-2)
    if module in {"jax", "jaxlib"}:
        import jax.numpy as jnp

        return jnp.concatenate(pieces, axis=-2)
    return np.concatenate(pieces, axis=-2)


def from_offset_api(fn: Callable[[Any, int], Any]) -> Callable[[Any, Any], Any]:
    """`fn(x, offset)` as `g(x, positions)`.

    Positions are split into maximal runs `c, c + 1, …`. Each run's tokens go to one call at offset c, and the
    outputs are joined in order. A rotation acts on each token alone, so this is the same map, and the audit's
    shuffled, repeated and far probes can all be expressed.

    **Arguments:**

    - `fn`: the offset-only entry point, `fn(x [..., L, d], offset) -> [..., L, d]`.

    **Returns:**

    `g`.
    """

    def positions_as_offsets(x: Any, positions: Any) -> Any:
        p = np.asarray(positions).reshape(-1)
        if p.size == 0:
            return fn(x, 0)
        breaks = np.flatnonzero(np.diff(p) != 1) + 1
        starts, ends = np.concatenate([[0], breaks]), np.concatenate([breaks, [p.size]])
        if starts.size == 1:
            return fn(x, int(p[0]))
        pieces = [fn(x[..., int(a):int(b), :], int(p[a])) for a, b in zip(starts, ends, strict=True)]
        return _concatenate(pieces, x)

    positions_as_offsets.__name__ = positions_as_offsets.__qualname__ = getattr(fn, "__name__", "offset_api")
    return positions_as_offsets


def from_lengths_api(fn: Callable[[int, int], Any]) -> Callable[[Any, Any], Any]:
    """`fn(Lq, Lk)` (queries at the last Lq of keys 0 … Lk − 1) as `bias(q_positions, k_positions)`.

    Query positions are split into maximal runs a … b; for each run, with K = max(b, largest key) + 1, one call
    `fn(K − a, K)` holds queries a … K − 1 over keys 0 … K − 1 by the convention, and its first b − a + 1 rows at
    the key columns asked for are that run's rows. The cost of a run is (K − a)·K entries per head: a single
    query with future keys needs the rows after it.

    **Arguments:**

    - `fn`: the lengths-only entry point, `fn(Lq, Lk) -> (H, Lq, Lk)` (NumPy, torch or JAX).

    **Returns:**

    `bias(q_positions, k_positions) -> (H, Lq, Lk)`.
    """

    def positions_as_lengths(q_positions: Any, k_positions: Any) -> Any:
        q = np.asarray(q_positions).reshape(-1).astype(np.int64)
        k = np.asarray(k_positions).reshape(-1).astype(np.int64)
        breaks = np.flatnonzero(np.diff(q) != 1) + 1
        starts, ends = np.concatenate([[0], breaks]), np.concatenate([breaks, [q.size]])
        pieces = []
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
            first, last = int(q[a]), int(q[b - 1])
            keys = max(last, int(k.max(initial=0))) + 1
            block = fn(keys - first, keys)
            pieces.append(_take_columns(block[..., : b - a, :], k))
        return pieces[0] if len(pieces) == 1 else _concatenate(pieces, pieces[0])

    positions_as_lengths.__name__ = positions_as_lengths.__qualname__ = getattr(fn, "__name__", "lengths_api")
    return positions_as_lengths


def _take_columns(block: Any, columns: np.ndarray) -> Any:
    if type(block).__module__.split(".")[0] == "torch":
        import torch

        return block[..., torch.as_tensor(columns, device=block.device)]
    return block[..., columns]


def from_mrope_api(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`fn(x, positions3)` as `g(x, positions)` with equal streams (p, p, p): the text reduction, which must be
    1-D RoPE with the declared base and pairing whatever the section layout (the layout itself is read at the
    model level, `ropecheck audit-attention`, by moving one stream at a time).

    **Arguments:**

    - `fn`: the M-RoPE entry point, taking positions of shape (3, L).

    **Returns:**

    `g`.
    """

    def one_dimensional(x: Any, positions: Any) -> Any:
        p = np.asarray(positions).reshape(-1)
        table = np.stack([p, p, p])
        like = positions if hasattr(positions, "new_tensor") else None
        return fn(x, like.new_tensor(table) if like is not None else table)

    one_dimensional.__name__ = one_dimensional.__qualname__ = getattr(fn, "__name__", "mrope_api")
    return one_dimensional


def from_packed_api(fn: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`fn(x_flat, positions, sequence_ids)` as `g(x, positions)`, with every token in one request (id 0)."""

    def one_request(x: Any, positions: Any) -> Any:
        p = np.asarray(positions).reshape(-1)
        return fn(x, positions, np.zeros(p.size, dtype=np.int64))

    one_request.__name__ = one_request.__qualname__ = getattr(fn, "__name__", "packed_api")
    return one_request


def check_packed_isolation(fn: Callable[[Any, Any, Any], Any], dim: int, length: int = 16, seed: int = 0
                           ) -> dict[str, Any]:
    """One request's output must not depend on the other requests in a flat batch.

    Request A (positions 0 … L−1) is packed after request B, once with B of length 5 and once with B of length 11
    and other values. A's rotated tokens must be bitwise equal in both runs and equal to A run alone. The same
    operations on the same numbers give the same result, so any difference means the other request leaked in.

    **Arguments:**

    - `fn`: `fn(x_flat [N, dim], positions [N], sequence_ids [N]) -> [N, dim]` (NumPy arrays).
    - `dim`: the rotated width.
    - `length`: A's length.
    - `seed`: the random values.

    **Returns:**

    `{"ok": bool, "largest_difference": float, "message": str}`.
    """
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((length, dim))
    alone = np.asarray(fn(a, np.arange(length), np.zeros(length, dtype=np.int64)), dtype=np.float64)
    worst = 0.0
    for other in (5, 11):
        b = rng.standard_normal((other, dim))
        x = np.concatenate([b, a])
        positions = np.concatenate([np.arange(other), np.arange(length)])
        ids = np.concatenate([np.zeros(other, dtype=np.int64), np.ones(length, dtype=np.int64)])
        got = np.asarray(fn(x, positions, ids), dtype=np.float64)[other:]
        worst = max(worst, float(np.max(np.abs(got - alone))) if np.all(np.isfinite(got)) else float("inf"))
    ok = worst == 0.0
    message = ("a request's rotation does not depend on the other requests in the flat batch" if ok else
               f"a request's output changes by {worst:.3g} with the other requests in its flat batch — one "
               "request's positions (or a per-batch switch) reach another's rotation")
    return {"ok": ok, "largest_difference": worst, "message": message}


def _softmax_rows(scores: np.ndarray) -> np.ndarray:
    top = np.max(scores, axis=-1, keepdims=True)
    weights = np.exp(scores - np.where(np.isfinite(top), top, 0.0))
    return weights / np.sum(weights, axis=-1, keepdims=True)


def check_packed_bias_isolation(bias_fn: Callable[[Any, Any], Any], length: int = 12) -> dict[str, Any]:
    """An index-based bias (ALiBi from key indices as in Megatron/MPT, or from the mask's cumsum as in HF BLOOM)
    on packed sequences: request A's attention weights, from the bias alone (q·k = 0), must equal A's weights
    alone, whatever request B packed before it.

    A bias linear in the key index moves each row by a constant, which the softmax cancels, so indices that are
    not reset per request are harmless. A mask that lets A attend into B is not. The check compares weights,
    not raw biases, for that reason.

    **Arguments:**

    - `bias_fn`: `bias_fn(positions [N], sequence_ids [N]) -> [heads, N, N]` additive scores (−inf where masked,
      causal mask included).
    - `length`: A's length.

    **Returns:**

    `{"ok": bool, "largest_difference": float, "message": str}`.
    """
    from ropecheck.numeric.reference.tolerances import gamma

    alone = _softmax_rows(np.asarray(bias_fn(np.arange(length), np.zeros(length, dtype=np.int64)), dtype=np.float64))
    worst, bound = 0.0, 0.0
    for other in (4, 9):
        positions = np.concatenate([np.arange(other), np.arange(length)])
        ids = np.concatenate([np.zeros(other, dtype=np.int64), np.ones(length, dtype=np.int64)])
        packed = _softmax_rows(np.asarray(bias_fn(positions, ids), dtype=np.float64))
        rows = packed[:, other:, :]
        leaked = float(np.max(np.abs(rows[:, :, :other]))) if other else 0.0
        own = float(np.max(np.abs(rows[:, :, other:] - alone)))
        worst = max(worst, leaked, own)
        # exp and the row sum in float64: γ of the row length, relative to weights of at most 1.
        bound = max(bound, 4 * gamma(other + length, "float64"))
    ok = worst <= bound
    message = ("a request's bias weights do not depend on the requests packed with it" if ok else
               f"a request's attention weights change by {worst:.3g} with the request packed before it (bound "
               f"{bound:.3g}) — the mask lets one request attend into another, or the bias is not a per-row shift")
    return {"ok": ok, "largest_difference": worst, "bound": bound, "message": message}
