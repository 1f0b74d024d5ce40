"""Issue #20, point 5: calls whose largest position is N − 1, N and N + 1 are compared with the rule of every
length-dependent scaling (LongRoPE, dynamic NTK), so an off-by-one at the switch fails in either direction."""

from __future__ import annotations

import pytest
from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_longrope

LONG = {"base": 10000, "max_position": 8192, "head_dim": 64, "dtypes": "float32"}
DYNAMIC = {"base": 10000, "max_position": 4096, "head_dim": 64, "dtypes": "float32", "scaling": "dynamic:4,orig=2048"}


def _switch(report):
    return next(f for f in report.findings if f.property == "positions" and "largest position is" in f.detail)


def test_vllm_phi3_longrope_rotates_token_4096_as_position_0() -> None:
    target = real_longrope.VllmPhi3LongRope()
    report = audit(target, scaling=target.spec(), **LONG)
    assert [root["property"] for root in report.root_causes] == ["positions"], report.summary
    finding = _switch(report)
    assert not finding.ok
    assert "largest position is 4096" in finding.detail and "position 4096 is rotated as position 0" in finding.detail
    assert "positions >= 4096" in finding.fix


def test_vllm_phi3_longrope_with_the_fix_passes() -> None:
    target = real_longrope.VllmPhi3LongRopeFixed()
    report = audit(target, scaling=target.spec(), **LONG)
    assert report.verdict == "pass", report.summary
    assert _switch(report).ok


@pytest.mark.parametrize(("shift", "last"), [(1, 4096), (-1, 4095)], ids=["late", "early"])
def test_longrope_switch_off_by_one_in_both_directions(shift: int, last: int) -> None:
    report = audit(real_longrope.HFLongRope(switch_shift=shift), scaling="longrope:4,orig=4096", **LONG)
    finding = _switch(report)
    assert not finding.ok and f"largest position is {last}" in finding.detail and "off by one" in finding.detail
    assert [root["property"] for root in report.root_causes] == ["positions"]


@pytest.mark.parametrize(("shift", "last"), [(0, None), (1, 2047), (-1, 2048)], ids=["right", "late", "early"])
def test_dynamic_ntk_switch(shift: int, last: int | None) -> None:
    report = audit(real_longrope.HFDynamicNtk(switch_shift=shift), **DYNAMIC)
    finding = _switch(report)
    if last is None:
        assert report.verdict == "pass" and finding.ok, report.summary
        return
    assert not finding.ok and f"largest position is {last}" in finding.detail and "off by one" in finding.detail
    # One defect, one root cause: the sweep's precision is not named a 16-bit class.
    assert [root["property"] for root in report.root_causes] == ["positions"], report.summary


def test_a_rule_that_fails_on_both_sides_is_not_called_a_switch_point() -> None:
    """Issue #34: keras-hub's "dynamic" is a fixed NTK base at every length: the probes on both sides of N fail, so
    the finding names the rule, not the switch point (which would send the user to compare >= instead of >)."""
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.adapters._common import import_keras

    import_keras("torch")  # keras-hub runs on Keras' torch backend here (TensorFlow is not installed)
    pytest.importorskip("keras_hub")

    report = audit("keras-hub.dynamic", scaling="dynamic:4,orig=512", max_position=1024, dtypes="float32")
    (finding,) = [f for f in report.failures() if f.property == "positions"]
    assert finding.detail.startswith("The scaling's rule differs on both sides of the switch:"), finding.detail
    assert "switch point" not in finding.detail and "compare positions" not in (finding.fix or "")
