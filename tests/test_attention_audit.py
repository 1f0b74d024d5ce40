"""The attention-level audit (issue #22): each property holds on the correct tiny model of every built-in config
and fails, by itself alone, on a deliberately broken one (the real transformers modules, monkeypatched).

The sensitivity-based checks (position offset, M-RoPE stream shifts) cost seconds of autodiff each: they run on
one config here; `benchmarks/attention_audit_speed.py` runs the whole audit of every config.
"""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("transformers")
import torch
from ropecheck.numeric.audit.attention import BUILTIN_CONFIGS, build_tiny_model
from ropecheck.numeric.audit.attention._applied import check_per_layer_spectrum
from ropecheck.numeric.audit.attention._audit import CHECKS, audit_model
from ropecheck.numeric.audit.attention._cache import check_kv_cache, check_kv_cache_switch, check_spectrum_reset
from ropecheck.numeric.audit.attention._mrope import (
    check_mrope_section_map,
    check_mrope_stream_relative,
    check_mrope_text_reduction,
)
from ropecheck.numeric.audit.attention._offset import check_position_offset

SLOW = {check_position_offset, check_mrope_stream_relative}
FAST = [c for c in [*CHECKS, check_mrope_text_reduction, check_mrope_section_map] if c not in SLOW]

_MODELS: dict[str, object] = {}


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny models gain nothing from intra-op threads; on a shared machine they only contend."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def model_config(name: str) -> dict:
    return dict(BUILTIN_CONFIGS[name])


def tiny(name: str):
    """One model per config per session (building costs about a second)."""
    if name not in _MODELS:
        _MODELS[name] = build_tiny_model(name)
    return _MODELS[name]


def statuses(model, checks=FAST) -> dict[str, str]:
    return {f.property: f.status for f in audit_model(model, checks).findings}


@pytest.mark.parametrize("name", ["llama-3.1", "gemma-3", "qwen2.5-vl", "phi-3.5", "deepseek-v3"])
def test_attention_properties_hold_on_the_correct_tiny_model(name: str) -> None:
    report = audit_model(tiny(name), FAST)
    assert report.verdict == "pass", report.to_text()
    ran = {f.property: f.status for f in report.findings}
    assert ran["kv-cache"] == ran["left-padding"] == ran["batch-isolation"] == ran["softmax-scale"] == "ok"
    assert ran["per-layer-spectrum"] == "ok"


def test_position_offset_and_mrope_stream_shifts_hold() -> None:
    assert check_position_offset(tiny("gemma-3")).status == "ok"
    assert check_mrope_stream_relative(tiny("qwen2.5-vl")).status == "ok"


def test_mrope_and_window_checks_apply_where_declared() -> None:
    assert statuses(tiny("qwen2.5-vl"))["mrope-section-map"] == "ok"
    assert statuses(tiny("gemma-3"))["sliding-window"] == "ok"
    assert statuses(tiny("llama-3.1"))["mrope-section-map"] == "not applicable"


def test_longrope_switch_reports_the_documented_cache_inconsistency() -> None:
    finding = check_kv_cache_switch(tiny("phi-3.5"))
    assert finding.status == "info"
    assert finding.details["decode_matches_prefill"] is False  # keys keep the short factors, as documented
    assert finding.details["remedy_drops_cache"] is True  # Phi-3's prepare_inputs_for_generation re-prefills


def _only_failure(model, expected: str) -> None:
    got = statuses(model)
    failed = sorted(name for name, status in got.items() if status == "fail")
    assert failed == [expected], got


def test_padding_positions_from_arange_fail_left_padding_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("llama-3.1")
    monkeypatch.setattr(model, "positions_from_mask",
                        lambda mask: torch.arange(mask.shape[-1]).expand(mask.shape[0], -1))
    _only_failure(model, "left-padding")


def test_one_requests_positions_leaking_into_another_fail_batch_isolation_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("llama-3.1")
    shared = model.positions_from_mask
    monkeypatch.setattr(model, "positions_from_mask", lambda mask: shared(mask[:1]).expand(mask.shape[0], -1))
    _only_failure(model, "batch-isolation")


def test_decode_rotating_the_query_at_position_zero_fails_kv_cache_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("llama-3.1")
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    original = source.apply_rotary_pos_emb

    def query_at_zero(q, k, cos, sin, *args, **kwargs):
        q_embed, k_embed = original(q, k, cos, sin, *args, **kwargs)
        return (q if q.shape[-2] == 1 else q_embed), k_embed  # a decode step's query left at position 0

    monkeypatch.setattr(source, "apply_rotary_pos_emb", query_at_zero)
    _only_failure(model, "kv-cache")


def test_swapped_per_layer_base_fails_per_layer_spectrum_alone() -> None:
    model = build_tiny_model("gemma-3")
    rotary = model.text_model().rotary_emb
    for suffix in ("inv_freq", "original_inv_freq"):
        sliding, full = getattr(rotary, f"sliding_attention_{suffix}"), getattr(rotary, f"full_attention_{suffix}")
        setattr(rotary, f"sliding_attention_{suffix}", full.clone())
        setattr(rotary, f"full_attention_{suffix}", sliding.clone())
    _only_failure(model, "per-layer-spectrum")


def test_permuted_mrope_sections_fail_the_section_map_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("qwen2.5-vl")
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    original = source.apply_multimodal_rotary_pos_emb

    def permuted(q, k, cos, sin, mrope_section, *args, **kwargs):
        return original(q, k, cos, sin, [mrope_section[1], mrope_section[2], mrope_section[0]], *args, **kwargs)

    monkeypatch.setattr(source, "apply_multimodal_rotary_pos_emb", permuted)
    _only_failure(model, "mrope-section-map")


def test_missing_mscale_in_the_softmax_scale_fails_softmax_scale_alone() -> None:
    model = build_tiny_model("deepseek-v3")
    for attention in model.attention_modules():
        attention.scaling = attention.qk_head_dim ** -0.5  # DeepSeek's g(s, mscale_all_dim)² dropped
    _only_failure(model, "softmax-scale")


def test_ignored_sliding_window_fails_sliding_window_alone() -> None:
    model = build_tiny_model("gemma-3")
    model.config.sliding_window = 10_000  # the mask no longer slides; the cache still keeps every key
    _only_failure(model, "sliding-window")


def test_a_wrong_declared_spectrum_fails_per_layer_spectrum() -> None:
    import dataclasses

    model = build_tiny_model("llama-3.1")
    # The table of a factor-4 config; the model keeps factor 8.
    wrong = build_tiny_model({**model_config("llama-3.1"), "rope_scaling": {
        **model_config("llama-3.1")["rope_scaling"], "factor": 4.0}}).expected
    model.expected = [dataclasses.replace(e, inv_freq=w.inv_freq) for e, w in zip(model.expected, wrong, strict=True)]
    assert check_per_layer_spectrum(model).status == "fail"


def test_dynamic_ntk_switch_has_no_re_prefill_remedy() -> None:
    finding = check_kv_cache_switch(tiny("llama-dynamic-ntk"))
    assert finding.status == "info" and finding.details["decode_matches_prefill"] is False
    assert finding.details["remedy_drops_cache"] is False


def test_dynamic_ntk_spectrum_reset_after_a_long_sequence() -> None:
    """transformers documents that dynamic NTK returns to the original base below M; 5.3.0 stores the grown
    length under `None_max_seq_len_cached`, so it never does: the check reports it, and passes for LongRoPE,
    which switches per call."""
    assert check_spectrum_reset(build_tiny_model("phi-3.5")).status == "ok"
    finding = check_spectrum_reset(build_tiny_model("llama-dynamic-ntk"))
    import transformers

    if transformers.__version__ == "5.3.0":
        assert finding.status == "fail", finding.message
    assert finding.status in {"ok", "fail"}


BLOOM = {"model_type": "bloom", "n_head": 2, "hidden_size": 64}


def test_bloom_alibi_positions_from_the_mask_survive_left_padding_and_batches() -> None:
    """HF BLOOM builds its ALiBi bias from the mask's cumsum; the padding, batch and cache checks apply to it
    (run in float32: BLOOM has only eager attention)."""
    report = audit_model(build_tiny_model(BLOOM), FAST)
    got = {f.property: f.status for f in report.findings}
    assert got["left-padding"] == got["batch-isolation"] == got["kv-cache"] == "ok", report.to_text()
    assert got["per-layer-spectrum"] == "not applicable"


def test_alibi_from_key_indices_is_a_row_constant_shift_under_left_padding(monkeypatch: pytest.MonkeyPatch) -> None:
    """ALiBi from key indices (Megatron, MPT) instead of the mask: with left padding each row's bias moves by a
    constant (slope · pads), which the softmax cancels, so the padding property still holds; the bias is not
    the defect that `arange` positions are for RoPE (there, the rotation itself moves: see the llama test)."""
    model = build_tiny_model(BLOOM)
    source = sys.modules[type(model.model).__module__]
    original = source.build_alibi_tensor
    monkeypatch.setattr(source, "build_alibi_tensor",
                        lambda mask, heads, dtype: original(torch.ones_like(mask), heads, dtype))
    assert statuses(model)["left-padding"] == "ok"


def test_every_property_cites_claims_of_the_ledger() -> None:
    from ropecheck.numeric.audit.attention._mrope_index import audit_position_ids
    from ropecheck.proofs import claim_ids

    findings = [*audit_model(tiny("qwen2.5-vl"), FAST).findings, *audit_position_ids("qwen2_vl")]
    cited = {claim for finding in findings for claim in finding.claims}
    assert cited and cited <= set(claim_ids())


@pytest.mark.parametrize("folder", ["llama3.1-8b", "gemma3-4b", "qwen2.5-vl-7b", "phi3.5-mini", "deepseek-v3",
                                    "deepseek-r1", "kimi-k2"])
def test_released_configs_build_and_keep_their_rotation(folder: str) -> None:
    """The shipped configs (tests/model_configs, from w21's audit-config): built tiny, spectrum and cache hold."""
    from pathlib import Path

    path = Path(__file__).parent / "model_configs" / folder / "config.json"
    model = build_tiny_model(str(path))
    got = statuses(model, [check_per_layer_spectrum, check_kv_cache])
    assert got == {"per-layer-spectrum": "ok", "kv-cache": "ok"}, got


def test_qwen3_vl_interleaved_layout_and_a_chunked_mixup_fails_the_section_map_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Qwen3-VL interleaves t/h/w over the pairs; running it with Qwen2.5-VL's chunked sections (the mix-up of
    MNN #4133 / mlx-vlm #576) must fail the section map and nothing else."""
    model = build_tiny_model("qwen3-vl")
    assert statuses(model)["mrope-section-map"] == "ok"
    rotary = model.text_model().rotary_emb

    def chunked(freqs, mrope_section):  # freqs: [3, B, T, d/2] → stream of pair j by chunks, as Qwen2.5-VL
        parts = freqs.split(list(mrope_section), dim=-1)
        return torch.cat([part[i % 3] for i, part in enumerate(parts)], dim=-1)

    monkeypatch.setattr(rotary, "apply_interleaved_mrope", chunked)
    _only_failure(model, "mrope-section-map")
