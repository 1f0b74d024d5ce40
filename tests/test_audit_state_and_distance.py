"""Issue #34: state that only an offset call or another dtype reveals, and relative defects that grow with |m − n|,
on real code ported at the parent of each fix (tests/audit_corpus/real_rotary_embedding_torch.py, real_espnet.py).

Each buggy case fails by its root cause alone with its own message; its fixed version passes.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_espnet, real_rotary_embedding_torch


def _failing(report: Any) -> dict[str, str]:
    return {f.property: f.detail for f in report.failures()}


def test_cache_filled_at_an_offset_and_served_from_the_origin_fails_state() -> None:
    options: dict[str, Any] = {"base": 10000, "head_dim": 64, "max_position": 4096, "dtypes": "float32"}
    report = audit(real_rotary_embedding_torch.OffsetCacheRope, **options)
    failing = _failing(report)
    assert set(failing) == {"state"}, report.summary
    assert "a fresh instance called first at positions" in failing["state"]
    assert "the cache is filled with the angles of the first call's positions" in failing["state"]
    assert "a cache written by a call at an offset is served from row 0" in failing["state"]
    fixed = audit(real_rotary_embedding_torch.FixedOffsetCacheRope, **options)
    assert fixed.verdict == "pass", fixed.summary


def test_a_plain_function_says_which_call_orders_were_not_tested() -> None:
    # The audit's own instance has served every position: a fresh one is needed for the offset orders.
    report = audit(real_rotary_embedding_torch.OffsetCacheRope(64), base=10000, head_dim=64, max_position=4096,
                   dtypes="float32")
    state = next(f for f in report.findings if f.property == "state")
    assert state.ok and "call orders on a fresh instance were not tested" in state.detail


def test_table_converted_in_place_to_each_dtype_fails_state_not_spectrum() -> None:
    report = audit(real_espnet.table(), kind="sinusoidal", max_position=4096)
    failing = _failing(report)
    assert set(failing) == {"state"}, report.summary
    assert "changed" in failing["state"] and "after calls in bfloat16" in failing["state"]
    assert "converted to each call's dtype in place" in failing["state"]
    assert "never the cached table itself" in report.summary
    fixed = audit(real_espnet.table(real_espnet.CopyOnCast), kind="sinusoidal", max_position=4096)
    assert fixed.verdict == "pass", fixed.summary
    assert any("calls in one dtype leave the others' rows unchanged" in f.detail for f in fixed.findings)


def test_xpos_scale_split_differently_from_the_pairs_fails_relative_far_apart() -> None:
    options: dict[str, Any] = {"kind": "scores", "head_dim": 64, "max_position": 4096, "dtypes": "float32"}
    report = audit(real_rotary_embedding_torch.XposScores(64), **options)
    failing = _failing(report)
    assert set(failing) == {"relative"}, report.summary
    assert "4001 positions apart" in failing["relative"]
    assert "grows with |m − n|" in failing["relative"]
    fixed = audit(real_rotary_embedding_torch.FixedXposScores(64), **options)
    assert fixed.verdict == "pass", fixed.summary
    assert any("4001 positions apart" in f.detail for f in fixed.findings if f.property == "relative")


class _TableCastInPlace:
    """A RoPE whose cached float32 cos/sin table is converted in place to each input's dtype (ESPnet's pattern)."""

    def __init__(self, head_dim: int = 64, base: float = 10000.0) -> None:
        import torch

        inv_freq = 1.0 / base ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
        angles = torch.arange(4096, dtype=torch.float64)[:, None] * inv_freq[None, :]
        self.cos, self.sin = angles.cos().float(), angles.sin().float()

    def __call__(self, x: Any, positions: Any) -> Any:
        import torch

        if self.cos.dtype != x.dtype:
            self.cos, self.sin = self.cos.to(x.dtype), self.sin.to(x.dtype)
        cos, sin = self.cos[positions], self.sin[positions]
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def test_a_rope_table_converted_in_place_to_each_dtype_fails_state() -> None:
    # The contract's bfloat16 call already converted the shared table: the float32 sweep measures bfloat16 rounding,
    # which is the state defect's consequence, not a precision class of the target's own.
    report = audit(_TableCastInPlace, base=10000, head_dim=64, max_position=4096, dtypes="float32,bfloat16")
    assert [root["property"] for root in report.root_causes] == ["state"], report.summary
    assert "after one call in bfloat16, the same instance's float32 output changed" in report.summary
    precision = next(f for f in report.findings if f.property == "precision" and f.dtype == "float32")
    assert precision.status == "explained" and precision.explained_by == "state"
