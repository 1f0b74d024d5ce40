"""Issue #20, point 1: a root cause absorbs another finding only when it explains it quantitatively, and a non-finite
output is always its own `contract` finding — two independent defects are both reported, each with its fix."""

from __future__ import annotations

from ropecheck.numeric.audit import audit

from tests.audit_corpus import combined_defects


def _roots(report) -> dict[str, dict]:
    return {root["property"]: root for root in report.root_causes}


def test_nan_past_65520_and_theta_in_float16_are_two_root_causes() -> None:
    report = audit(combined_defects.float16_positions_and_theta, base=10000, max_position=131072, head_dim=32)
    roots = _roots(report)
    assert set(roots) == {"contract", "precision"}, report.summary
    assert "first at position 65520" in roots["contract"]["detail"]
    assert "float32 or wider" in roots["contract"]["fix"]
    assert "float16" in roots["precision"]["detail"] and "θ" in roots["precision"]["fix"]
    # Not the wrong fix of a θ computed with another base, and no property reads ok on NaN rows.
    assert "declared base" not in report.summary
    failing = {(f.property, f.dtype) for f in report.failures()}
    assert all(("contract", dtype) in failing for dtype in ("float32", "bfloat16", "float16"))


def test_float16_positions_alone_give_the_nan_and_the_precision_class() -> None:
    report = audit(combined_defects.float16_positions, base=10000, max_position=70000, head_dim=32, dtypes="float32")
    roots = _roots(report)
    assert set(roots) == {"contract", "precision"}, report.summary
    assert report.certified["float32"]["largest_position"] < 65520


def test_no_nan_means_no_contract_root_cause() -> None:
    # The same float16 positions audited below 65520: one defect, one root cause.
    report = audit(combined_defects.float16_positions, base=10000, max_position=8192, head_dim=32, dtypes="float32")
    assert set(_roots(report)) == {"precision"}, report.summary


def test_a_corrected_root_cause_does_not_absorb_the_residual() -> None:
    # The spectrum fits base 50000 and the ideal takes it: what still fails (the cache wrapping at 4096) is not
    # explained by the base and must be its own root cause.
    report = audit(
        combined_defects.wrong_base_and_wrapped_positions,
        base=500000,
        max_position=8192,
        head_dim=32,
        dtypes="float32",
    )
    roots = _roots(report)
    assert set(roots) == {"spectrum", "precision"}, report.summary
    assert "--base 50000" in roots["spectrum"]["fix"]
    assert "from position 4096" in roots["precision"]["detail"]
