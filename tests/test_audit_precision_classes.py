"""Issue #20, point 2: precision classes are measured — llama.cpp's float32 θ recurrence is accepted and named as
its own class (with the observed error as a multiple of the float32 recipe's bound), bfloat16 positions are never
called float16, and a 16-bit class still fails."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.function.policy import RECURRENCE_CLASS

from tests.audit_corpus import combined_defects, numpy_impls, real_ggml


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


# Issue #34: the 16-bit quantity is named from the angles the target applies, not from a fixed class.
def _theta_in_bfloat16(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """θ (inv_freq) rounded to bfloat16, positions and angles in float32."""
    inv_freq = numpy_impls._inv_freq(x.shape[-1]).astype(ml_dtypes.bfloat16).astype(np.float32)
    angles = np.asarray(positions).astype(np.float32)[:, None] * inv_freq[None, :]
    return numpy_impls._rotate(x, np.cos(angles), np.sin(angles), "half")


def _table_in_float16(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """cos/sin formed in float32 but stored in float16, x rotated in its own dtype."""
    angles = numpy_impls._angles(positions, numpy_impls._inv_freq(x.shape[-1]), np.float32)
    return numpy_impls._rotate(x, np.cos(angles).astype(np.float16), np.sin(angles).astype(np.float16), "half")


@pytest.mark.parametrize(("target", "measured", "fix"), [
    (_theta_in_bfloat16, "measured: θ held in bfloat16", "hold θ in float32"),
    (_table_in_float16, "measured: the cos/sin table held in a 16-bit dtype", "keep cos and sin in float32"),
    (real_ggml.bfloat16_positions, "measured: positions held in bfloat16", "hold positions in float32"),
], ids=["theta", "table", "positions"])
def test_the_16_bit_quantity_is_named_from_the_applied_angles(target, measured: str, fix: str) -> None:
    report = audit(target, base=10000, max_position=4096, head_dim=64, dtypes="float32")
    finding = _precision(report, "float32")
    assert not finding.ok and measured in finding.detail, finding.detail
    assert finding.fix.startswith(fix), finding.fix


def test_keras_gemma_pre_fix_names_positions_timescale_and_angles_in_bfloat16() -> None:
    from tests.audit_corpus import real_keras_gemma

    report = audit(real_keras_gemma.GemmaRope(), base=10000, head_dim=64, max_position=2048, dtypes="bfloat16")
    finding = _precision(report, "bfloat16")
    assert "measured: positions and timescale 1/θ held in bfloat16; the angles p·θ formed in bfloat16" in finding.detail
