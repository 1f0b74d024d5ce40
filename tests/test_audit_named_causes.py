"""Issue #34: root causes named by what the measurements show, on real code ported at the parent of each fix.

- A bias that depends on where the query sits in the call is named as such, never as `sign`: x-transformers'
  ALiBi at the parent of dcae403 (tests/audit_corpus/real_x_transformers_alibi.py), audited through its
  lengths-only API as a user would (`from_lengths_api`): the square call is right, a query after cached keys is
  biased as if it sat at its row index. The cause is call-position dependence (a slope flip would break the
  square case); the fixed class passes. A bias that is a function of k − q with the wrong sign still fails `sign`.
- A dynamic NTK rule that also divides every position by the factor (text-generation-inference at the parent of
  b5087c4f, tests/audit_corpus/real_tgi_dynamic_ntk.py) is named as a rule that rescales positions, not as a
  switch point; the fixed class passes.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_tgi_dynamic_ntk, real_x_transformers_alibi

OPTIONS: dict[str, Any] = {"kind": "bias", "scheme": "alibi", "max_position": 640, "dtypes": "float32"}


def _failing(report: Any) -> dict[str, Any]:
    return {f.property: f for f in report.failures()}


def test_alibi_queries_at_their_row_index_fail_relative_as_call_position_dependence() -> None:
    report = audit(real_x_transformers_alibi.pre_fix_alibi, **OPTIONS)
    failing = _failing(report)
    assert set(failing) == {"relative"}, report.summary
    assert failing["relative"].detail.startswith("call-position dependence"), failing["relative"].detail
    assert "No slope or sign change fixes this" in failing["relative"].detail
    assert "shift the key positions by j − i" in failing["relative"].fix
    assert "sign" in report.not_evaluated
    fixed = audit(real_x_transformers_alibi.fixed_alibi, **OPTIONS)
    assert fixed.verdict == "pass", fixed.summary


def test_a_relative_bias_with_the_wrong_sign_still_fails_sign() -> None:
    report = audit("tests.audit_corpus.bias_impls:bug_alibi_wrong_sign", **OPTIONS)
    failing = _failing(report)
    assert set(failing) == {"sign"}, report.summary
    assert "call-position" not in report.summary


def test_dynamic_ntk_that_also_divides_positions_is_named_a_rule_that_rescales_positions() -> None:
    options: dict[str, Any] = {"base": 10000, "scaling": "dynamic:2,orig=2048", "head_dim": 64,
                               "max_position": 4096, "dtypes": "float32"}
    report = audit(real_tgi_dynamic_ntk.tgi_dynamic, **options)
    assert [root["property"] for root in report.root_causes] == ["positions"], report.summary
    finding = next(f for f in report.failures() if f.property == "positions")
    assert "a dynamic rule that rescales positions" in finding.detail, finding.detail
    assert "positions divided by the factor 2" in finding.detail
    assert "switch point of the scaling is wrong" not in report.summary
    assert "leave the positions unscaled" in finding.fix
    fixed = audit(real_tgi_dynamic_ntk.fixed_tgi_dynamic, **options)
    assert fixed.verdict == "pass", fixed.summary
