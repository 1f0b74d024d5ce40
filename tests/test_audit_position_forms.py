"""Other position APIs through the function-level audit (issue #22): offset-only, M-RoPE (3, L) positions, and
flat batches with sequence ids; each seen passing on a correct implementation and failing on a broken one."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.function.position_forms import (
    check_packed_bias_isolation,
    check_packed_isolation,
    from_mrope_api,
    from_offset_api,
    from_packed_api,
)

from tests.audit_corpus.numpy_impls import rope_half

SETTINGS = {"base": 10000, "layout": "half", "dtypes": "float64", "max_position": 4096}


def _mrope(x: np.ndarray, positions3: np.ndarray, sections=(2, 3, 3), bases=(10000.0,) * 3) -> np.ndarray:
    """Chunked M-RoPE over half-split pairs: pair j turns by P[s(j)]·θⱼ (Qwen2-VL layout)."""
    d = x.shape[-1]
    stream = np.repeat(np.arange(3), sections)
    theta = np.array([bases[s] ** (-2 * j / d) for j, s in enumerate(stream)])
    angles = np.asarray(positions3, dtype=np.float64)[stream].T * theta  # [L, d/2]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)


def test_offset_only_api_is_audited_through_runs_of_positions() -> None:
    def with_offset(x, offset):
        return rope_half(x, offset + np.arange(x.shape[-2]))

    def offset_ignored(x, offset):
        return rope_half(x, np.arange(x.shape[-2]))

    assert audit(from_offset_api(with_offset), **SETTINGS).verdict == "pass"
    report = audit(from_offset_api(offset_ignored), **SETTINGS)
    assert report.verdict == "fail" and "positions" in report.summary


def test_mrope_api_reduces_to_one_dimensional_rope_with_equal_streams() -> None:
    assert audit(from_mrope_api(_mrope), head_dim=16, **SETTINGS).verdict == "pass"
    wrong_width_base = from_mrope_api(lambda x, p: _mrope(x, p, bases=(10000.0, 10000.0, 500000.0)))
    assert audit(wrong_width_base, head_dim=16, **SETTINGS).verdict == "fail"


def test_packed_batches_keep_each_request_to_its_own_positions() -> None:
    def packed(x, positions, sequence_ids):
        return rope_half(x, np.asarray(positions))

    def per_batch_switch(x, positions, sequence_ids):
        # SGLang-style LongRoPE: one long/short choice for the whole flat batch, from any request's positions.
        scale = 2.0 if np.max(positions) > 8 else 1.0
        return rope_half(x, np.asarray(positions) / scale)

    def offsets_from_the_flat_index(x, positions, sequence_ids):
        return rope_half(x, np.arange(x.shape[-2]))  # positions ignored: request B shifts request A

    assert check_packed_isolation(packed, 16)["ok"]
    assert not check_packed_isolation(per_batch_switch, 16, length=8)["ok"]
    assert not check_packed_isolation(offsets_from_the_flat_index, 16)["ok"]
    assert audit(from_packed_api(packed), **SETTINGS).verdict == "pass"


def _alibi_slopes(heads: int) -> np.ndarray:
    return 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)


def _block_causal(ids: np.ndarray) -> np.ndarray:
    n = ids.size
    allowed = (np.arange(n)[:, None] >= np.arange(n)[None, :]) & (ids[:, None] == ids[None, :])
    return np.where(allowed, 0.0, -np.inf)


def test_packed_alibi_from_key_indices_is_isolated_and_a_leaking_mask_is_not() -> None:
    def key_index_alibi(positions, ids):  # Megatron/MPT: slope · key index over the whole packed row
        keys = np.arange(ids.size, dtype=np.float64)
        return _alibi_slopes(4)[:, None, None] * keys[None, None, :] + _block_causal(ids)

    def cumsum_alibi(positions, ids):  # HF BLOOM: positions from the mask's cumsum, not reset per request
        keys = np.cumsum(np.ones(ids.size)) - 1
        return _alibi_slopes(4)[:, None, None] * keys[None, None, :] + _block_causal(ids)

    def causal_only(positions, ids):  # the packing mask forgotten: request A attends into request B
        n = ids.size
        causal = np.where(np.arange(n)[:, None] >= np.arange(n)[None, :], 0.0, -np.inf)
        return _alibi_slopes(4)[:, None, None] * np.arange(n)[None, None, :] + causal

    assert check_packed_bias_isolation(key_index_alibi)["ok"]
    assert check_packed_bias_isolation(cumsum_alibi)["ok"]
    result = check_packed_bias_isolation(causal_only)
    assert not result["ok"] and result["largest_difference"] > 0.01
