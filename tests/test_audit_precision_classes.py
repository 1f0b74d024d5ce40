"""Issue #20, point 2: precision classes are measured — llama.cpp's float32 θ recurrence is accepted and named as
its own class (with the observed error as a multiple of the float32 recipe's bound), bfloat16 positions are never
called float16, and a 16-bit class still fails."""

from __future__ import annotations

import pytest
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.policy import RECURRENCE_CLASS

from tests.audit_corpus import combined_defects, real_ggml


def _precision(report, dtype: str):
    return next(f for f in report.findings if f.property == "precision" and f.dtype == dtype)


@pytest.mark.parametrize(("base", "neox"), [(10000.0, False), (500000.0, True)], ids=["normal", "neox"])
def test_ggml_recurrence_is_accepted_and_named(base: float, neox: bool) -> None:
    report = audit(real_ggml.GgmlRope(base, neox=neox), base=base, max_position=8192, head_dim=128)
    assert report.verdict == "pass", report.summary
    finding = _precision(report, "float32")
    assert finding.ok and RECURRENCE_CLASS in finding.detail
    assert "× the policy bound" in finding.detail
    assert "float16" not in finding.detail


def test_bfloat16_positions_are_named_bfloat16() -> None:
    report = audit(real_ggml.bfloat16_positions, base=10000, max_position=4096, head_dim=64, dtypes="float32")
    finding = _precision(report, "float32")
    assert not finding.ok
    assert "held in bfloat16" in finding.detail and "held in float16" not in finding.detail


def test_a_16_bit_class_is_not_taken_for_the_recurrence() -> None:
    report = audit(combined_defects.float16_positions, base=10000, max_position=8192, head_dim=128, dtypes="float32")
    finding = _precision(report, "float32")
    assert not finding.ok and "float16" in finding.detail and RECURRENCE_CLASS not in finding.detail
