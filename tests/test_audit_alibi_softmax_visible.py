"""Issue #20, points 3–4 (+ #24's ALiBi message): ALiBi is judged on the part softmax sees (the per-row constant
removed) at several query rows, and the slope tolerance ignores masked (−inf) entries.

BLOOM (Megatron-DeepSpeed), MPT (llm-foundry) and Baichuan2 cast a key-index-form table to the model's 16-bit dtype:
softmax sees the constant's rounding (BLOOM's last keys at query 2047 all 1448.0 in bfloat16), so they fail
`precision` there and pass in float32; relative, causal and symmetric forms formed in float32 pass in every dtype.
"""

from __future__ import annotations

import pytest
from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_alibi

SIXTEEN_BIT = ("bfloat16", "float16")


def _audit(name: str, dtypes: str = "float32,bfloat16,float16"):
    return audit(getattr(real_alibi, name), kind="bias", max_position=4096, dtypes=dtypes)


@pytest.mark.parametrize("name", ["bloom_alibi", "mpt_alibi", "baichuan2_alibi"])
def test_16_bit_key_index_alibi_fails_precision_and_float32_passes(name: str) -> None:
    report = _audit(name)
    failing = {(f.property, f.dtype) for f in report.failures()}
    assert failing == {("precision", dtype) for dtype in SIXTEEN_BIT}, report.summary
    assert "row's constant" in report.summary and "float32" in report.summary
    assert _audit(name, "float32").verdict == "pass"


@pytest.mark.parametrize("name", ["press_causal_8", "press_symmetric_8"])
def test_relative_causal_and_symmetric_forms_pass_in_16_bit(name: str) -> None:
    report = _audit(name)
    assert report.verdict == "pass", report.summary


def test_naive_slope_table_fails_slopes_in_the_causal_form() -> None:
    report = _audit("naive_slopes_12", "float32")
    slopes = next(f for f in report.findings if f.property == "slopes")
    assert slopes.status == "fail" and slopes.bound is not None and slopes.bound < 1e-3
    assert [root["property"] for root in report.root_causes] == ["slopes"]
    assert "closest power of two" in slopes.fix


def test_off_by_one_slopes_for_8_heads_get_the_right_fix() -> None:
    report = _audit("off_by_one_slopes_8", "float32")
    slopes = next(f for f in report.findings if f.property == "slopes")
    assert "off by one" in slopes.detail
    assert "not a power of two" not in slopes.fix and "2^(−8(h + 1)/n)" in slopes.fix
    assert "see the:" not in report.summary and "see slopes" in str(report.to_json())
