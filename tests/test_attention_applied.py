"""What each attention layer applies (issue #32): q and k observed inside the layer before and after the rotation,
held against `audit-config`'s per-layer table (NoPE layers included).

Each clean tiny model passes the four properties; each defect, built by monkeypatching the real transformers
modules of a tiny model, fails its own property and no other: RoPE forced onto a NoPE layer (rope-presence), RoPE
dropped on one RoPE layer of a Llama (rope-presence), YaRN's attention factor on q only (attention-factor, with
softmax-scale explained by it), the wrong dims rotated (per-layer-spectrum), RoPE dropped on one MLA layer of
DeepSeek-V3 (rope-presence), the MLA rope part rotated at twice the angle on DeepSeek-V3 and on Kimi-K2's rope fields
(per-layer-spectrum). Before the properties observed what
each layer applies (a pre-hook on `position_embeddings` and the scale fitted on the rotated q, k), every one of
these defects passed every property.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("transformers")
import torch
from ropecheck.numeric.audit.attention import build_tiny_model
from ropecheck.numeric.audit.attention._applied import (
    check_attention_factor,
    check_per_layer_spectrum,
    check_rope_presence,
    check_softmax_scale,
)
from ropecheck.numeric.audit.attention._audit import audit_model
from ropecheck.numeric.audit.attention._configs import shrink_config

APPLIED = [check_rope_presence, check_per_layer_spectrum, check_attention_factor, check_softmax_scale]

# Rope fields of released configs (SmolLM3-3B, EXAONE-4.0-32B, Command R7B, Llama-4-Scout), widths left to the
# shrink; a YaRN Llama and a partial-rotary Phi-3 (Phi-4-mini's rotary fraction) for the factor and the dims.
SMOLLM3 = {"model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 4,
           "num_hidden_layers": 36, "rope_theta": 5000000.0, "max_position_embeddings": 65536,
           "no_rope_layer_interval": 4}
EXAONE4 = {"model_type": "exaone4", "hidden_size": 5120, "head_dim": 128, "num_attention_heads": 40,
           "num_key_value_heads": 8, "num_hidden_layers": 64, "rope_theta": 1000000.0,
           "max_position_embeddings": 131072, "sliding_window": 4096, "sliding_window_pattern": 4,
           "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                            "original_max_position_embeddings": 8192}}
COHERE2 = {"model_type": "cohere2", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
           "num_hidden_layers": 32, "rope_theta": 50000.0, "max_position_embeddings": 8192, "sliding_window": 4096,
           "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"] * 8}
LLAMA4 = {"model_type": "llama4_text", "hidden_size": 5120, "head_dim": 128, "num_attention_heads": 40,
          "num_key_value_heads": 8, "num_hidden_layers": 48, "rope_theta": 500000.0,
          "max_position_embeddings": 10485760, "num_local_experts": 16, "intermediate_size_mlp": 16384,
          "use_qk_norm": True, "attn_temperature_tuning": True,
          "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                           "original_max_position_embeddings": 8192}}
YARN = {"model_type": "llama", "head_dim": 64, "num_attention_heads": 2, "num_key_value_heads": 1,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0,
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192}}
PARTIAL = {"model_type": "phi3", "head_dim": 64, "num_attention_heads": 2, "num_key_value_heads": 2,
           "max_position_embeddings": 4096, "rope_theta": 10000.0, "partial_rotary_factor": 0.5}
# Kimi-K2-Instruct's MLA head dims and rope fields on DeepSeek-V3's class, as Kimi's model card says to run it
# (its own `model_type` is `kimi_k2`, which transformers does not know); experts and LoRA ranks kept small.
KIMI_K2 = {"model_type": "deepseek_v3", "num_attention_heads": 2, "num_key_value_heads": 2, "qk_rope_head_dim": 64,
           "qk_nope_head_dim": 128, "v_head_dim": 128, "kv_lora_rank": 16, "q_lora_rank": 32,
           "max_position_embeddings": 131072, "rope_theta": 50000.0,
           "rope_scaling": {"type": "yarn", "factor": 32.0, "beta_fast": 1.0, "beta_slow": 1.0, "mscale": 1.0,
                            "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096},
           "n_routed_experts": 4, "num_experts_per_tok": 2, "n_group": 1, "topk_group": 1, "n_shared_experts": 1,
           "moe_intermediate_size": 32, "first_k_dense_replace": 1}


@pytest.fixture(autouse=True, scope="module")
def _one_thread() -> Iterator[None]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def statuses(model) -> dict[str, str]:
    return {f.property: f.status for f in audit_model(model, APPLIED).findings}


def failing(model) -> list[str]:
    return sorted(name for name, status in statuses(model).items() if status == "fail")


@pytest.mark.parametrize("config", [SMOLLM3, EXAONE4, COHERE2, LLAMA4], ids=lambda c: c["model_type"])
def test_shrinking_keeps_a_nope_layer_and_one_layer_of_each_type(config: dict) -> None:
    shrunk = shrink_config(config)
    model = build_tiny_model(config)
    kinds = [(e.layer.layer_type, e.layer.rope_type == "none") for e in model.expected]
    assert any(nope for _, nope in kinds) and any(not nope for _, nope in kinds), kinds
    assert set(shrunk.get("layer_types") or ["full_attention"]) == {t for t, _ in kinds}
    assert len(kinds) == shrunk["num_hidden_layers"] <= 4


@pytest.mark.parametrize("config", ["llama-3.1", SMOLLM3, EXAONE4, COHERE2, LLAMA4, YARN, PARTIAL, "deepseek-v3",
                                    KIMI_K2],
                         ids=lambda c: c if isinstance(c, str) else c["model_type"] + ("-kimi" if c is KIMI_K2 else ""))
def test_what_each_layer_applies_matches_the_table_on_clean_models(config) -> None:
    got = statuses(build_tiny_model(config))
    assert got == {"rope-presence": "ok", "per-layer-spectrum": "ok", "attention-factor": "ok",
                   "softmax-scale": "ok"}, got


def _layer_flag(model) -> dict[str, int]:
    """The index of the attention layer running now (set by pre-hooks on each attention module)."""
    current: dict[str, int] = {}
    for index, module in enumerate(model.attention_modules()):
        module.register_forward_pre_hook(lambda mod, args, index=index: current.__setitem__("layer", index))
    return current


def test_rope_forced_onto_a_nope_layer_fails_rope_presence_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model(SMOLLM3)
    nope = [i for i, e in enumerate(model.expected) if e.layer.rope_type == "none"]
    assert nope, "the shrunk SmolLM3 keeps a NoPE layer"
    monkeypatch.setattr(model.attention_modules()[nope[0]], "use_rope", True)
    assert failing(model) == ["rope-presence"]
    assert f"layer {nope[0]}" in check_rope_presence(model).message


def test_rope_dropped_on_one_layer_of_a_llama_fails_rope_presence_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("llama-3.1")
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    original = source.apply_rotary_pos_emb
    current = _layer_flag(model)

    def skipped_on_layer_1(q, k, cos, sin, *args, **kwargs):
        return (q, k) if current.get("layer") == 1 else original(q, k, cos, sin, *args, **kwargs)

    monkeypatch.setattr(source, "apply_rotary_pos_emb", skipped_on_layer_1)
    assert failing(model) == ["rope-presence"]
    assert "layer 1 (full_attention) is declared RoPE but applies no rotation" in check_rope_presence(model).message


def test_yarn_factor_on_q_only_fails_attention_factor_and_explains_the_softmax_scale(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model(YARN)
    scaling = float(model.text_model().rotary_emb.attention_scaling)
    assert scaling > 1.1  # g(4) = 1 + 0.1 ln 4
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    original = source.apply_rotary_pos_emb

    def factor_on_q_only(q, k, cos, sin, *args, **kwargs):
        q_embed, k_embed = original(q, k, cos, sin, *args, **kwargs)
        return q_embed, k_embed / scaling

    monkeypatch.setattr(source, "apply_rotary_pos_emb", factor_on_q_only)
    got = statuses(model)
    assert [p for p, s in got.items() if s == "fail"] == ["attention-factor"], got
    assert got["softmax-scale"] == "explained", got
    for layer in check_attention_factor(model).details["layers"].values():
        assert layer["q"] == pytest.approx(scaling, rel=1e-6) and layer["k"] == pytest.approx(1.0, rel=1e-6)


def test_wrong_dims_rotated_fail_per_layer_spectrum_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phi-3 with half the head rotary: the rotation applied to the last 32 dims instead of the first 32."""
    model = build_tiny_model(PARTIAL)
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    original = source.apply_rotary_pos_emb

    def last_dims(q, k, cos, sin, *args, **kwargs):
        width = cos.shape[-1]
        def swap(x):
            return torch.cat([x[..., -width:], x[..., :-width]], dim=-1)
        def back(x):
            return torch.cat([x[..., width:], x[..., :width]], dim=-1)
        q_embed, k_embed = original(swap(q), swap(k), cos, sin, *args, **kwargs)
        return back(q_embed), back(k_embed)

    monkeypatch.setattr(source, "apply_rotary_pos_emb", last_dims)
    got = statuses(model)
    assert [p for p, s in got.items() if s == "fail"] == ["per-layer-spectrum"], got
    assert "moving: 32 dims from 32 to 63, declared: 32 dims from 0" in check_per_layer_spectrum(model).message


# ---------------------------------------------------------------------------------- MLA layers (DeepSeek, Kimi)
def _mla_rotation(model) -> tuple[object, str]:
    """The module and name of the function DeepSeek-V3's attention rotates its rope part (q_rot, k_rot) with."""
    source = sys.modules[type(model.attention_modules()[0]).__module__]
    name = "apply_rotary_pos_emb_interleave" if model.config.rope_interleave else "apply_rotary_pos_emb"
    return source, name


def test_rope_dropped_on_one_mla_layer_fails_rope_presence_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_tiny_model("deepseek-v3")
    source, name = _mla_rotation(model)
    original = getattr(source, name)
    current = _layer_flag(model)

    def skipped_on_layer_1(q, k, cos, sin, *args, **kwargs):
        return (q, k) if current.get("layer") == 1 else original(q, k, cos, sin, *args, **kwargs)

    monkeypatch.setattr(source, name, skipped_on_layer_1)
    assert failing(model) == ["rope-presence"]
    assert "layer 1 (full_attention) is declared RoPE but applies no rotation" in check_rope_presence(model).message


@pytest.mark.parametrize("config", ["deepseek-v3", KIMI_K2], ids=["deepseek-v3", "kimi-k2"])
def test_mla_rope_part_at_twice_the_angle_fails_per_layer_spectrum_alone(monkeypatch: pytest.MonkeyPatch,
                                                                         config) -> None:
    """The rope part rotated by 2·θᵢ·p (cos 2x, sin 2x from the layer's own cos, sin: the magnitude is kept)."""
    model = build_tiny_model(config)
    source, name = _mla_rotation(model)
    original = getattr(source, name)

    def doubled(q, k, cos, sin, *args, **kwargs):
        return original(q, k, cos * cos - sin * sin, 2 * sin * cos, *args, **kwargs)

    monkeypatch.setattr(source, name, doubled)
    got = statuses(model)
    assert [p for p, s in got.items() if s == "fail"] == ["per-layer-spectrum"], got


# ------------------------------------------------------------------------------------------ switch points (item 3)
def _switch_failure(model) -> str:
    from ropecheck.numeric.audit.attention._switch import check_switch_point

    finding = check_switch_point(model)
    assert finding.status == "fail", finding.message
    return finding.message


@pytest.mark.parametrize("name", ["llama-dynamic-ntk", "phi-3.5"])
def test_switch_point_holds_on_the_clean_length_dependent_models(name: str) -> None:
    from ropecheck.numeric.audit.attention._switch import check_switch_point

    finding = check_switch_point(build_tiny_model(name))
    assert finding.status == "ok", finding.message
    switch = finding.details["switch_length"]
    assert {str(switch - 1), str(switch), str(switch + 1)} <= set(finding.details["ratios"])


@pytest.mark.parametrize("shift, words", [(1, "one token late"), (-1, "one token early")])
def test_longrope_switching_one_token_off_fails_switch_point(monkeypatch: pytest.MonkeyPatch, shift: int,
                                                             words: str) -> None:
    model = build_tiny_model("phi-3.5")
    config = model.text_model().rotary_emb.config
    switch = config.rope_parameters["original_max_position_embeddings"]
    # Only the switch moves: the short and long factors and the attention factor stay those of the config.
    monkeypatch.setitem(config.rope_parameters, "original_max_position_embeddings", switch + shift)
    monkeypatch.setattr(config, "original_max_position_embeddings", switch + shift)
    message = _switch_failure(model)
    assert words in message and f"at length {switch + (1 if shift > 0 else 0)}" in message, message


def _dynamic_base_at(monkeypatch: pytest.MonkeyPatch, length_used) -> object:
    """The dynamic-NTK Llama whose growth computes the base at `length_used(seq_len)` instead of seq_len."""
    from transformers import modeling_rope_utils

    model = build_tiny_model("llama-dynamic-ntk")
    original = modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]

    def grown(config, device=None, seq_len=None, layer_type=None):
        used = None if seq_len is None else length_used(int(seq_len))
        return original(config, device, seq_len=used, layer_type=layer_type)

    monkeypatch.setitem(modeling_rope_utils.ROPE_INIT_FUNCTIONS, "dynamic", grown)
    return model


def test_dynamic_base_capped_at_two_m_fails_switch_point_at_four_m_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Right at M, 2·M and s·M (= 2·M here), wrong beyond: the base stops growing at 2·M."""
    model = _dynamic_base_at(monkeypatch, lambda n: min(n, 64))
    message = _switch_failure(model)
    assert "at length 128" in message and "at length 48" not in message and "at length 64" not in message, message


def test_dynamic_base_bucketed_by_m_fails_switch_point_between_multiples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Right at M, 2·M and 4·M (the base of the length rounded up to a multiple of M), wrong at M + 1 and 1.5·M."""
    model = _dynamic_base_at(monkeypatch, lambda n: -(-n // 32) * 32)
    message = _switch_failure(model)
    assert "at length 33" in message and "at length 48" in message and "at length 64" not in message, message


def test_position_offset_is_evaluated_on_llama4s_complex_rotary_table() -> None:
    """Llama 4 hands its layers one complex table e^{iφ} instead of (cos, sin): the sensitivity behind the offset
    bound perturbs its real and imaginary parts (before, the probe raised and the property could not be called)."""
    from ropecheck.numeric.audit.attention._offset import check_position_offset

    assert check_position_offset(build_tiny_model(LLAMA4)).status == "ok"
