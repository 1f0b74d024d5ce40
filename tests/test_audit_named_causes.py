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

import json
from pathlib import Path
from typing import Any

import pytest
from ropecheck.numeric.audit import audit

from ropecheck.cli._audit import main
from tests.audit_corpus import real_tgi_dynamic_ntk, real_x_transformers_alibi

CORPUS = Path(__file__).parent / "audit_corpus"
OPTIONS: dict[str, Any] = {"kind": "bias", "scheme": "alibi", "max_position": 640, "dtypes": "float32"}


def _cli(capsys: pytest.CaptureFixture[str], target: str, *flags: str) -> tuple[int, dict[str, Any]]:
    """`ropecheck audit TARGET FLAGS --json` as a user types it: (exit code, the report)."""
    code = main([target, *flags, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _failing(report: Any) -> dict[str, Any]:
    return {f.property: f for f in report.failures()}


def test_alibi_queries_at_their_row_index_fail_relative_as_call_position_dependence(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _cli(capsys, f"{CORPUS / 'real_x_transformers_alibi.py'}:pre_fix_alibi", "--kind", "bias",
                        "--scheme", "alibi", "--max-position", "640", "--dtypes", "float32")
    assert code == 1
    [root] = report["root_causes"]
    assert root["property"] == "relative", report["summary"]
    assert root["detail"].startswith("call-position dependence"), root["detail"]
    assert "No slope or sign change fixes this" in root["detail"]
    assert "shift the key positions by j − i" in root["fix"]
    assert {f["property"] for f in report["findings"] if f["status"] == "fail"} == {"relative"}
    assert "sign" in report["not_evaluated"]
    fixed = audit(real_x_transformers_alibi.fixed_alibi, **OPTIONS)
    assert fixed.verdict == "pass", fixed.summary


def test_a_relative_bias_with_the_wrong_sign_still_fails_sign() -> None:
    report = audit("tests.audit_corpus.bias_impls:bug_alibi_wrong_sign", **OPTIONS)
    failing = _failing(report)
    assert set(failing) == {"sign"}, report.summary
    assert "call-position" not in report.summary


def test_dynamic_ntk_that_also_divides_positions_is_named_a_rule_that_rescales_positions(
        capsys: pytest.CaptureFixture[str]) -> None:
    flags = ("--base", "10000", "--scaling", "dynamic:2,orig=2048", "--head-dim", "64", "--max-position", "4096",
             "--dtypes", "float32")
    code, report = _cli(capsys, f"{CORPUS / 'real_tgi_dynamic_ntk.py'}:tgi_dynamic", *flags)
    assert code == 1
    [root] = report["root_causes"]
    assert root["property"] == "positions", report["summary"]
    assert "a dynamic rule that rescales positions" in root["detail"], root["detail"]
    assert "positions divided by the factor 2" in root["detail"]
    assert "switch point of the scaling is wrong" not in report["summary"]
    assert "leave the positions unscaled" in root["fix"]
    fixed = audit(real_tgi_dynamic_ntk.fixed_tgi_dynamic, base=10000, scaling="dynamic:2,orig=2048", head_dim=64,
                  max_position=4096, dtypes="float32")
    assert fixed.verdict == "pass", fixed.summary
