"""Issue #34: conventions a user declares, echoed in the report — the order within a sinusoidal pair
(`--pair-order`), on real code (tests/audit_corpus/real_timestep.py: guided-diffusion's cos-first table)."""

from __future__ import annotations

from typing import Any

import pytest
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.function.calls import AuditError

from tests.audit_corpus import real_timestep

SINUSOIDAL: dict[str, Any] = {"kind": "sinusoidal", "max_position": 4096, "dtypes": "float32"}


def test_cos_first_table_passes_when_its_pair_order_is_declared() -> None:
    report = audit(real_timestep.guided_diffusion_table, pair_order="cos,sin", **SINUSOIDAL)
    assert report.verdict == "pass", report.summary
    assert "pair order cos,sin" in "\n".join(report.kind_header())
    layout = next(f for f in report.findings if f.property == "layout")
    assert "each stored (cos, sin) (declared)" in layout.detail
    shift = next(f for f in report.findings if f.property == "shift")
    assert "read as (sin, cos)" in shift.detail


def test_undeclared_cos_first_table_fails_shift_and_names_the_declaration() -> None:
    report = audit(real_timestep.guided_diffusion_table, **SINUSOIDAL)
    assert {f.property for f in report.failures()} == {"shift"}, report.summary
    assert "declare --pair-order cos,sin" in report.summary


def test_a_wrong_declared_pair_order_fails_layout_alone() -> None:
    report = audit(real_timestep.guided_diffusion_table, pair_order="sin,cos", **SINUSOIDAL)
    assert {f.property for f in report.failures()} == {"layout"}, report.summary
    assert "Declared --pair-order sin,cos, but each pair is stored (cos, sin)" in report.summary


@pytest.mark.parametrize(("kind", "words"), [("sinusoidal", "--pair-order must be"), ("rope", "takes no --pair-order"),
                                             ("bias", "takes no --pair-order")])
def test_pair_order_is_validated(kind: str, words: str) -> None:
    with pytest.raises(AuditError, match=words):
        audit(real_timestep.guided_diffusion_table, kind=kind, pair_order="cos-sin" if kind == "sinusoidal"
              else "cos,sin")


GEMMA: dict[str, Any] = {"base": 10000, "head_dim": 64, "max_position": 2048}


@pytest.mark.parametrize("declared", [None, "interleaved"])
def test_gemma_output_permutation_is_read_back_and_its_real_precision_bug_reported(declared: str | None) -> None:
    from tests.audit_corpus import real_keras_gemma

    report = audit(real_keras_gemma.GemmaRope(), output_layout=declared, **GEMMA)
    failing = {f.property: f for f in report.failures()}
    assert set(failing) == {"precision"}, report.summary
    assert {f.dtype for f in failing.values()} <= {"bfloat16", "float16"}
    pairing = next(f for f in report.findings if f.property == "pairing")
    assert pairing.ok and ("read back as P⁻¹·y" in pairing.detail or "judged on P⁻¹·y" in pairing.detail)
    if declared is None:
        assert "(detected: M(0) = P)" in report.summary and "--output-layout interleaved" in report.summary
    fixed = audit(real_keras_gemma.FixedGemmaRope(), output_layout=declared, **GEMMA)
    assert fixed.verdict == "pass", fixed.summary


def test_a_declared_output_layout_the_target_does_not_have_fails_pairing() -> None:
    from tests.audit_corpus import real_torch

    report = audit(real_torch.hf_llama, output_layout="interleaved", dtypes="float32", **GEMMA)
    assert {f.property for f in report.failures()} == {"pairing"}, report.summary
    assert "Declared --output-layout interleaved" in report.summary
