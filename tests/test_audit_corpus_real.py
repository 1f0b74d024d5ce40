"""Issue #12: the auditor on RoPE forms from public code (tests/audit_corpus/real_*.py) — no false alarm on the
common forms (complex-number, fixed-length tables, partial, p-RoPE, scaled, slow pairs in float32 and JAX), and
each buggy variant fails by its root cause alone, with its fix in the summary.

Heavy sweeps (d = 128, 32768 positions, every scaling × base) run with `--deep`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_jax, real_numpy, real_torch

SMALL: dict[str, Any] = {"max_position": 4096, "head_dim": 64}
BASES = (1e4, 5e5, 1e6)
# (rope_type, factor, --scaling spec) of the HF form; orig 4096 for YaRN, 8192 for llama3.
SCALINGS = [
    ("default", 1.0, None),
    ("linear", 32.0, "linear:32"),
    ("llama3", 32.0, "llama3:32,orig=8192"),
    ("yarn", 32.0, "yarn:32,orig=4096"),
]


def _assert_pass(report: Any) -> None:
    assert report.verdict == "pass", report.summary
    assert report.failures() == []


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize(("rope_type", "factor", "spec"), SCALINGS, ids=[s[0] for s in SCALINGS])
def test_hf_torch_form_passes_at_every_base_and_scaling(base: float, rope_type: str, factor: float, spec: str) -> None:
    orig = 4096 if rope_type == "yarn" else 8192
    target = real_torch.HFLlamaRope(64, base, rope_type, factor, orig=orig)
    _assert_pass(audit(target, base=base, scaling=spec, **SMALL))


def test_slow_pairs_are_paired_in_float32_alone() -> None:
    # base 1e6 with YaRN 32: the slowest pair turns 1e6^(-62/64)/32 ≈ 4e-8 rad per position.
    target = real_torch.HFLlamaRope(64, 1e6, "yarn", 32.0, orig=4096)
    report = audit(target, base=1e6, scaling="yarn:32,orig=4096", dtypes="float32", **SMALL)
    _assert_pass(report)
    assert report.layout == "half" and report.rotary_dim == 64


def test_meta_complex_form_with_its_4096_position_table() -> None:
    # torch.view_as_complex needs a last dimension of stride 1: probes are contiguous in every property.
    report = audit(real_torch.MetaLlamaRope(64), base=10000, max_position=8192, head_dim=64, accept_short_table=True)
    _assert_pass(report)
    assert report.table_positions == 4096 and report.max_position == 4096
    assert "The table holds 4096 positions" in report.summary
    assert report.layout == "interleaved"


def test_neox_partial_rotary_with_its_2048_position_table() -> None:
    report = audit(
        real_torch.NeoXPartialRope(128),
        base=10000,
        rotary_dim=32,
        partial="first",
        max_position=4096,
        accept_short_table=True,
    )
    _assert_pass(report)
    assert report.rotary_dim == 32 and report.table_positions == 2048


def test_p_rope_placement_is_detected_and_declarable() -> None:
    report = audit(real_torch.PRope(64), base=10000, partial="p-rope", **SMALL)
    _assert_pass(report)
    assert report.layout == "p-rope" and report.rotary_dim == 48
    wrong = audit(real_torch.PRope(64), base=10000, partial="first", **SMALL)
    assert {f.property for f in wrong.failures()} == {"pairing"}


def test_clockwise_is_a_declarable_convention() -> None:
    declared = audit(real_torch.bug_hf_rotate_half_sign, base=10000, direction="clockwise", **SMALL)
    _assert_pass(declared)
    assert declared.direction == "clockwise"


def test_yarn_truncate_false_and_attention_in_softmax_are_declarable() -> None:
    untruncated = real_torch.HFLlamaRope(64, 1e4, "yarn", 8.0, orig=4096, truncate=False)
    _assert_pass(audit(untruncated, base=1e4, scaling="yarn:8,orig=4096,truncate=false", **SMALL))
    wrong = audit(untruncated, base=1e4, scaling="yarn:8,orig=4096", **SMALL)
    assert {f.property for f in wrong.failures()} == {"spectrum"}
    softmax = real_torch.HFLlamaRope(64, 1e4, "yarn", 8.0, orig=4096, attention_in_softmax=True)
    _assert_pass(audit(softmax, base=1e4, scaling="yarn:8,orig=4096,attn=softmax", **SMALL))


def test_float32_angle_form_audited_in_float64_fails_precision_only_with_its_class() -> None:
    report = audit(real_torch.hf_llama, base=10000, dtypes="float64", **SMALL)
    assert {f.property for f in report.failures()} == {"precision"}
    (precision,) = report.failures()
    assert "angles formed in float32" in precision.detail and precision.fix
    explained = [f for f in report.findings if f.status == "explained" and f.explained_by == "precision"]
    assert {f.property for f in explained} >= {"norm", "relative"}
    assert all(f.detail.startswith("ok at angles formed in float32 precision") for f in explained)


def test_numpy_table_form_is_float64_native() -> None:
    report = audit(real_numpy.Llama3NpRope(64), base=10000, max_position=4096, accept_short_table=True)
    _assert_pass(report)
    assert list(report.dtypes) == ["float64"] and "returns float64 for float32 input" in report.summary
    held = audit(real_numpy.Llama3NpRope(64), base=10000, max_position=2048, dtypes="float32")
    assert {f.property for f in held.failures()} == {"contract"}


@pytest.mark.parametrize("base", [1e4, 1e6])
def test_numpy_table_form_in_the_dtypes_models_run_in(base: float) -> None:
    _assert_pass(audit(real_numpy.Llama3NpRopeSameDtype(64, base), base=base, max_position=2048))


@pytest.fixture
def _jax_without_x64() -> Any:
    import jax

    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    yield
    jax.config.update("jax_enable_x64", previous)


@pytest.mark.parametrize(("base", "factor"), [(1e4, 1.0), (1e6, 8.0)])
def test_gemma_jax_form_passes_slow_pairs_included(_jax_without_x64: None, base: float, factor: float) -> None:
    spec = None if factor == 1.0 else f"linear:{factor:g}"
    report = audit(real_jax.GemmaRope(base, factor), base=base, scaling=spec, max_position=1024, head_dim=64)
    _assert_pass(report)
    assert report.framework == "jax" and report.layout == "half"


BUGGY = [
    (real_torch.BugMetaConjugate(64), {"base": 10000}, "direction", "declare --direction clockwise"),
    (real_torch.BugMetaOffByOne(64), {"base": 10000}, "identity", "remove the +1"),
    (real_torch.bug_hf_rotate_half_sign, {"base": 10000}, "direction", "rotate_half must return cat(−x₂, x₁)"),
    (real_torch.bug_hf_angles_in_x_dtype, {"base": 10000}, "precision", "hold positions and θ in float32"),
    (real_torch.BugHFYarnNoAttentionFactor(64), {"base": 10000, "scaling": "yarn:8,orig=4096"}, "norm", "attn=softmax"),
    (real_jax.bug_gemma_sign, {"base": 10000, "max_position": 1024}, "direction", "swap the sign"),
    (real_jax.bug_gemma_wrong_base, {"base": 10000, "max_position": 1024}, "spectrum", "declare --base 1000"),
    (real_numpy.BugLlama3NpSwappedParts(64), {"base": 10000, "max_position": 2048}, "direction", "swap the sign"),
]


@pytest.mark.parametrize(("target", "options", "root", "fix"), BUGGY, ids=[f"{b[2]}-{i}" for i, b in enumerate(BUGGY)])
def test_buggy_variant_fails_by_its_root_cause_alone(
    _jax_without_x64: None, target: Any, options: dict, root: str, fix: str
) -> None:
    report = audit(target, **{"head_dim": 64, "max_position": 4096, **options})
    assert {f.property for f in report.failures()} == {root}, report.summary
    assert fix in report.summary


@pytest.mark.deep
@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize(("rope_type", "factor", "spec"), SCALINGS, ids=[s[0] for s in SCALINGS])
@pytest.mark.parametrize("factor_scale", [8 / 32, 1.0])
def test_deep_hf_form_at_d128_and_32768_positions(
    base: float, rope_type: str, factor: float, spec: str | None, factor_scale: float
) -> None:
    factor = max(factor * factor_scale, 1.0)
    orig = 4096 if rope_type == "yarn" else 8192
    spec = None if spec is None else spec.replace(":32", f":{factor:g}")
    target = real_torch.HFLlamaRope(128, base, rope_type, factor, orig=orig)
    _assert_pass(audit(target, base=base, scaling=spec, head_dim=128, max_position=32768))


@pytest.mark.deep
def test_deep_gemma_global_jax_at_d128(_jax_without_x64: None) -> None:
    report = audit(real_jax.GemmaRope(1e6, 8.0), base=1e6, scaling="linear:8", head_dim=128, max_position=32768)
    _assert_pass(report)
    assert np.isclose(report.base, 1e6)
