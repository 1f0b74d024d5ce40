"""`ropecheck audit-config`: the expected values of every shipped real config, checked against values computed here
with plain mpmath from the papers' formulas (a second, independent implementation), the facts each model card
states, the JSON shape, and bad input.

The engine verdicts are in `test_audit_config_engines.py`.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import mpmath
import pytest
from ropecheck.numeric.audit.model_config import ConfigError, audit_config, expected_values, load_config, parse_config
from ropecheck.numeric.reference.tolerances import unit_roundoff

from ropecheck.cli._audit_config import main

CONFIGS = Path(__file__).parent / "model_configs"
MODELS = sorted(p.name for p in CONFIGS.iterdir() if (p / "config.json").is_file())
# Both sides are correctly rounded from ≥ 50 digits to float64: they agree to one rounding each.
FLOAT64_AGREEMENT = 2 * unit_roundoff("float64")


# ------------------------------------------------------------------ the papers' formulas, written again, in mpmath
def _theta(base: float | mpmath.mpf, d: int) -> list[mpmath.mpf]:
    """RoFormer (Su et al. 2021, Eq. 15): θᵢ = base^(−2i/d)."""
    return [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d) for i in range(d // 2)]


def _yarn(base: float, d: int, s: float, original: int, fast: float, slow: float, truncate: bool) -> list:
    """YaRN (Peng et al. 2023, §3.2 'NTK-by-parts', Eq. 17–18), in the correction-dimension form."""

    def dimension(rotations: float) -> mpmath.mpf:  # the pair index whose wavelength fits `rotations` times in L₀
        return d * mpmath.log(original / (2 * mpmath.pi * rotations)) / (2 * mpmath.log(base))

    low, high = dimension(fast), dimension(slow)
    if truncate:
        low, high = mpmath.floor(low), mpmath.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    out = []
    for i, theta in enumerate(_theta(base, d)):
        gamma = min(max((i - low) / (high - low), 0), 1)  # 0: extrapolate (keep θ), 1: interpolate (θ/s)
        out.append(theta * (1 - gamma) + theta / s * gamma)
    return out


def _llama3(base: float, d: int, s: float, original: int, low: float, high: float) -> list:
    """Meta's Llama 3.1 `apply_scaling`: keep short wavelengths, divide long ones by s, blend between."""
    out = []
    for theta in _theta(base, d):
        wavelength = 2 * mpmath.pi / theta
        if wavelength < original / high:
            out.append(theta)
        elif wavelength > original / low:
            out.append(theta / s)
        else:
            blend = (original / wavelength - low) / (high - low)
            out.append((1 - blend) * theta / s + blend * theta)
    return out


def _g(s: float, m: float = 1) -> mpmath.mpf:
    """YaRN's attention temperature √(1/t) = 0.1·ln s + 1 (DeepSeek generalises 0.1 to 0.1·m)."""
    return mpmath.mpf(1) if s <= 1 else mpmath.mpf("0.1") * m * mpmath.log(s) + 1


def _independent(model: str, layer_type: str, regime: str) -> tuple[list, mpmath.mpf, mpmath.mpf]:
    """(θ, attention factor, softmax scale) for each shipped model, from its model card's numbers."""
    one = mpmath.mpf(1)
    if model in ("llama2-7b", "mistral-7b"):
        return _theta(10000, 128), one, 1 / mpmath.sqrt(128)
    if model == "llama3.1-8b":
        return _llama3(500000, 128, 8, 8192, 1, 4), one, 1 / mpmath.sqrt(128)
    if model == "llama3.2-1b":
        return _llama3(500000, 64, 32, 8192, 1, 4), one, 1 / mpmath.sqrt(64)
    if model == "llama4-scout-17b-16e":  # Meta's llama-models llama4/model.py: scale 16, high 1, low 1, L₀ 8192, d 128
        return ([] if layer_type == "none" else _llama3(500000, 128, 16, 8192, 1, 1)), one, 1 / mpmath.sqrt(128)
    if model in ("qwen2.5-7b", "qwen2.5-vl-7b"):
        return _theta(1e6, 128), one, 1 / mpmath.sqrt(128)
    if model == "qwen2.5-7b-yarn":
        return _yarn(1e6, 128, 4, 32768, 32, 1, True), _g(4), 1 / mpmath.sqrt(128)
    if model == "gemma2-9b":
        return _theta(10000, 256), one, 1 / mpmath.sqrt(256)
    if model in ("gemma3-1b", "gemma3-270m"):  # Gemma 3 report: local base 10k, global 1M; query_pre_attn_scalar 256
        return _theta(10000 if layer_type == "sliding_attention" else 1e6, 256), one, 1 / mpmath.sqrt(256)
    if model == "gemma3-4b":
        if layer_type == "sliding_attention":
            return _theta(10000, 256), one, 1 / mpmath.sqrt(256)
        return [t / 8 for t in _theta(1e6, 256)], one, 1 / mpmath.sqrt(256)
    if model == "phi3.5-mini":
        config = json.loads((CONFIGS / model / "config.json").read_text())["rope_scaling"]
        long = regime == "long" or (regime.isdigit() and int(regime) > 4096)  # the sweep's lengths beyond L₀
        factors = config["long_factor" if long else "short_factor"]
        scale = 131072 / 4096  # no factor in the config: M / L₀
        attention = mpmath.sqrt(1 + mpmath.log(scale) / mpmath.log(4096))
        theta = [t / mpmath.mpf(f) for t, f in zip(_theta(10000, 96), factors, strict=True)]
        return theta, attention, 1 / mpmath.sqrt(96)
    if model in ("deepseek-v3", "deepseek-r1"):  # mscale = mscale_all_dim = 1: cos/sin unscaled, softmax × g(40)²
        return _yarn(10000, 64, 40, 4096, 32, 1, True), one, _g(40, 1) ** 2 / mpmath.sqrt(128 + 64)
    if model == "glm4.7-flash":  # MLA (modeling_glm4_moe_lite.py): rope dim 64, q·k over 192 + 64, default rope
        return _theta(1e6, 64), one, 1 / mpmath.sqrt(192 + 64)
    if model == "kimi-k2":  # DeepSeek-V3's MLA: rope dim 64, q head 128 + 64; YaRN s = 32 with β_fast = β_slow = 1
        return _yarn(50000, 64, 32, 4096, 1, 1, True), one, _g(32, 1) ** 2 / mpmath.sqrt(128 + 64)
    if model == "gpt-oss-20b":
        return _yarn(150000, 64, 32, 4096, 32, 1, False), _g(32), 1 / mpmath.sqrt(64)
    if model in ("qwen3-8b", "qwen3-30b-a3b"):  # Qwen3 model cards: RoPE base 1e6 over head_dim 128
        return _theta(1e6, 128), one, 1 / mpmath.sqrt(128)
    if model in ("qwen3-vl-8b", "qwen3-vl-30b-a3b"):  # Qwen3-VL text: base 5e6 over head_dim 128, no scaling
        return _theta(5e6, 128), one, 1 / mpmath.sqrt(128)
    if model == "olmo2-1124-7b":  # OLMo 2 paper: RoPE base 500,000; 32 heads over 4096 (d = 128), no scaling
        return _theta(500000, 128), one, 1 / mpmath.sqrt(4096 // 32)
    if model == "phi-4":  # Phi-4 technical report: RoPE base 250,000, 40 heads over 5120 (d = 128), no scaling
        return _theta(250000, 128), one, 1 / mpmath.sqrt(5120 // 40)
    if model == "smollm3-3b":  # NoPE layers: no θ at all (the set of them is checked in NOPE below)
        return ([] if layer_type == "none" else _theta(5e6, 128)), one, 1 / mpmath.sqrt(2048 // 16)
    if model == "exaone4-1.2b":  # EXAONE 4.0 1.2B model card: 32 heads over 2048; its config: Llama 3 bands, s = 16
        return _llama3(1e6, 2048 // 32, 16, 8192, 1, 4), one, 1 / mpmath.sqrt(2048 // 32)
    if model == "hunyuan-mt2-7b":  # the same NTK-alpha rule (hunyuan_v1_dense): base 10000 · 1000^(d/(d−2)), d = 128
        d = 128
        return _theta(mpmath.mpf(10000) * mpmath.power(1000, mpmath.mpf(d) / (d - 2)), d), one, 1 / mpmath.sqrt(d)
    if model == "hunyuan-a13b":  # NTK-alpha (Tencent's modeling_hunyuan.py): base 10000 · 1000^(d/(d−2)), d = 4096/32
        d = 4096 // 32
        return _theta(mpmath.mpf(10000) * mpmath.power(1000, mpmath.mpf(d) / (d - 2)), d), one, 1 / mpmath.sqrt(d)
    raise AssertionError(f"no independent values for {model}")


# Bases formed in float64 from other numbers (as the engines form them): the relative error of that base. HunYuan's
# rope_theta·α^(d/(d−2)): the exponent rounded (|ln α|·d/(d−2)·u) and the power and product (2u). θᵢ = base^(−2i/d)
# carries 2i/d of it; both sides are otherwise correctly rounded (FLOAT64_AGREEMENT).
BASE_FORMED = dict.fromkeys(("hunyuan-a13b", "hunyuan-mt2-7b"),
                            (float(mpmath.log(1000)) * 128 / 126 + 2) * unit_roundoff("float64"))


# Facts stated by the model cards: layer type → (rope type, number of layers, rotary dim, base).
FACTS = {
    "gemma3-4b": {"sliding_attention": ("default", 29, 256, 1e4), "full_attention": ("linear", 5, 256, 1e6)},
    "gemma3-1b": {"sliding_attention": ("default", 22, 256, 1e4), "full_attention": ("default", 4, 256, 1e6)},
    # Gemma 3 270M as released: 18 layers, 5 sliding to 1 global, 4 heads of 256, no scaling on either layer type
    "gemma3-270m": {"sliding_attention": ("default", 15, 256, 1e4), "full_attention": ("default", 3, 256, 1e6)},
    "gemma2-9b": {"sliding_attention": ("default", 21, 256, 1e4), "full_attention": ("default", 21, 256, 1e4)},
    "gpt-oss-20b": {"sliding_attention": ("yarn", 12, 64, 150000), "full_attention": ("yarn", 12, 64, 150000)},
    "deepseek-v3": {"all": ("yarn", 61, 64, 1e4)},
    "deepseek-r1": {"all": ("yarn", 61, 64, 1e4)},  # a whole file (quant_method retyped, SOURCES.md): MLA, rope dim 64
    "kimi-k2": {"all": ("yarn", 61, 64, 5e4)},  # Kimi K2: the DeepSeek-V3 architecture, base 50000
    "glm4.7-flash": {"all": ("default", 47, 64, 1e6)},  # GLM-4.7-Flash: 47 MLA layers, rope dim 64, base 1e6
    "phi3.5-mini": {"all": ("longrope", 32, 96, 1e4)},
    "phi-4": {"all": ("default", 40, 128, 250000)},
    "qwen2.5-vl-7b": {"all": ("default", 28, 128, 1e6)},
    "qwen3-vl-30b-a3b": {"all": ("default", 48, 128, 5e6)},  # 48 layers, 32 heads of 128, 4 KV heads
    "qwen3-vl-8b": {"all": ("default", 36, 128, 5e6)},  # 36 layers, 32 heads of 128, 8 KV heads
    "llama2-7b": {"all": ("default", 32, 128, 1e4)},
    "olmo2-1124-7b": {"all": ("default", 32, 128, 5e5)},  # OLMo 2 7B: 32 layers, 32 heads of 128, base 500000
    # Llama 4 Scout: 48 layers; rotating layers attend in chunks, every 4th layer (NoPE: no rotary dims, the config's
    # base unused) attends globally
    "llama4-scout-17b-16e": {"chunked_attention": ("llama3", 36, 128, 5e5), "full_attention": ("none", 12, 0, 5e5)},
    "exaone4-1.2b": {"full_attention": ("llama3", 30, 64, 1e6)},  # 30 layers; no sliding window: every layer rotates
}


# Layers without RoPE, from each model card ("NoPE every 4th layer"): written out, not computed by the code under test.
NOPE = {"smollm3-3b": {3, 7, 11, 15, 19, 23, 27, 31, 35},
        # Llama 4 (Meta's llama4/model.py: NoPE where (layer_id + 1) % nope_layer_interval == 0, interval 4)
        "llama4-scout-17b-16e": {3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47}}


# SHA-256 of hub files as a public manifest records them at named revisions (`WildPino/SiliconLLM`,
# benchmarks/donor_adaptation/configs/_manifest.json; SOURCES.md): these shipped copies are those bytes.
PUBLISHED_SHA256 = {
    "gpt-oss-20b": "3a2a26ded679375b7928ddeca59764df7cea83220c1961035f6d6e232659e9ce",
    "olmo2-1124-7b": "f1e210de0ba704c579768c154bf57e36e170868ffecb060a6e0d3f2e6b0b9710",
    "qwen3-8b": "f7c4eadfbbf522470667b797a3c89be2524832d2d599797248dc304fff447c30",
    "qwen3-30b-a3b": "2850ddb3bf7aecad20b611e2d44f3077fc8193f4827c93beddd4c02ad63c2297",
}


@pytest.mark.parametrize("model", sorted(PUBLISHED_SHA256))
def test_hash_verified_copies_are_the_released_bytes(model):
    data = (CONFIGS / model / "config.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == PUBLISHED_SHA256[model]


@pytest.mark.parametrize("model", MODELS)
def test_nope_layers_are_the_model_cards(model):
    layers = load_config(CONFIGS / model).layers
    none = {i for layer in layers if layer.rope_type == "none" for i in layer.layer_indices}
    assert none == NOPE.get(model, set())


def _relative(got: float, want: mpmath.mpf) -> float:
    return float(abs((mpmath.mpf(got) - want) / want))


@pytest.mark.parametrize("model", MODELS)
def test_expected_values_match_independent_formulas(model):
    with mpmath.workdps(50):
        for layer in load_config(CONFIGS / model).layers:
            for entry in expected_values(layer):
                kind = "none" if layer.rope_type == "none" else layer.layer_type
                theta, attention, softmax = _independent(model, kind, str(entry.regime))
                assert len(entry.inv_freq) == len(theta), f"{model} {layer.layer_type}: {len(entry.inv_freq)} pairs"
                errors = [_relative(g, w) for g, w in zip(entry.inv_freq, theta, strict=True)]
                bound = [FLOAT64_AGREEMENT + 2 * i / (2 * len(theta)) * BASE_FORMED.get(model, 0)
                         for i in range(len(theta))]
                bad = [(i, e) for i, e in enumerate(errors) if e > bound[i]]
                assert not bad, f"{model} {layer.layer_type} {entry.regime}: pairs off (pair, rel. error): {bad[:5]}"
                assert _relative(entry.attention_factor, attention) <= FLOAT64_AGREEMENT, model
                assert _relative(entry.softmax_scale, softmax) <= FLOAT64_AGREEMENT, model


@pytest.mark.parametrize("model", sorted(FACTS))
def test_layer_types_and_bases_follow_the_model_cards(model):
    layers = {layer.layer_type: layer for layer in load_config(CONFIGS / model).layers}
    assert set(layers) == set(FACTS[model])
    for name, (rope_type, count, rotary_dim, base) in FACTS[model].items():
        layer = layers[name]
        assert (layer.rope_type, len(layer.layer_indices), layer.rotary_dim, layer.base) == (
            rope_type, count, rotary_dim, base)


@pytest.mark.parametrize(("model", "full"), [("gemma3-4b", (5, 11, 17, 23, 29)), ("gemma3-270m", (5, 11, 17))])
def test_gemma3_global_layers_are_every_sixth(model, full):
    layers = {layer.layer_type: layer for layer in load_config(CONFIGS / model).layers}
    assert layers["full_attention"].layer_indices == full


def test_llama4_scout_nope_layers_scale_q_as_meta_wrote_it():
    """Meta's llama4/model.py: on NoPE layers q × (log(⌊(p + 1)/floor_scale⌋ + 1)·attn_scale + 1), with the class
    defaults the released file relies on (floor_scale 8192, attn_scale 0.1); rotating layers are not scaled."""
    entries = {e.layer.rope_type: e for layer in load_config(CONFIGS / "llama4-scout-17b-16e").layers
               for e in expected_values(layer)}
    assert entries["llama3"].query_scaling is None
    factors = entries["none"].query_scaling["factors"]
    assert {"8190", "8191"} <= set(factors)
    with mpmath.workdps(50):
        for position, got in factors.items():
            want = mpmath.log(mpmath.floor(mpmath.mpf(int(position) + 1) / 8192) + 1) * mpmath.mpf("0.1") + 1
            assert _relative(got, want) <= FLOAT64_AGREEMENT, position


@pytest.mark.parametrize(("model", "sections", "interleaved"),
                         [("qwen2.5-vl-7b", (16, 24, 24), False), ("qwen3-vl-30b-a3b", (24, 20, 20), True),
                          ("qwen3-vl-8b", (24, 20, 20), True)])
def test_qwen_vl_sections_are_read(model, sections, interleaved):
    (layer,) = load_config(CONFIGS / model).layers
    assert layer.mrope_section == sections and layer.mrope_interleaved is interleaved


# ------------------------------------------------------------------------- the check fails on a wrong reading
def _yarn_config(**scaling: object) -> dict:
    return {"head_dim": 64, "num_attention_heads": 4, "hidden_size": 256, "max_position_embeddings": 131072,
            "rope_theta": 150000, "rope_scaling": {"rope_type": "yarn", "factor": 32.0,
                                                   "original_max_position_embeddings": 4096, **scaling}}


def test_truncate_changes_the_expected_spectrum_by_the_measured_76_percent():
    """D1: gpt-oss's `truncate: false` matters — the truncated spectrum is up to 76 % away (research brief)."""
    kept = expected_values(parse_config(_yarn_config(truncate=False)).layers[0])[0]
    rounded = expected_values(parse_config(_yarn_config()).layers[0])[0]
    worst = max(abs(a - b) / b for a, b in zip(rounded.inv_freq, kept.inv_freq, strict=True))
    assert 0.70 < worst < 0.80


def test_explicit_attention_factor_and_mscale_pair():
    assert expected_values(parse_config(_yarn_config(attention_factor=1.0)).layers[0])[0].attention_factor == 1.0
    pair = expected_values(parse_config(_yarn_config(mscale=0.707, mscale_all_dim=0.707)).layers[0])[0]
    assert pair.attention_factor == pytest.approx(1.0, abs=FLOAT64_AGREEMENT)
    # The softmax factor g(s, mscale_all_dim)² is DeepSeek's (MLA) rule, not YaRN's: a family-less config keeps 1/√d
    assert pair.softmax_scale == pytest.approx(1 / 8, rel=FLOAT64_AGREEMENT)
    mla = expected_values(parse_config({**_yarn_config(mscale=0.707, mscale_all_dim=0.707),
                                        "model_type": "deepseek_v2"}).layers[0])[0]
    assert mla.softmax_scale == pytest.approx(float(_g(32, 0.707) ** 2 / 8), rel=FLOAT64_AGREEMENT)
    assert "deepseek_v3/modeling_deepseek_v3.py:408" in mla.softmax_source


def test_perturbed_config_is_caught_by_the_independent_check():
    """A wrong base in the shipped Llama 3.1 config must fail the comparison the test above makes."""
    raw = json.loads((CONFIGS / "llama3.1-8b" / "config.json").read_text())
    raw["rope_theta"] = 10000.0
    entry = expected_values(parse_config(raw).layers[0])[0]
    theta, _, _ = _independent("llama3.1-8b", "all", "any")
    assert max(_relative(g, w) for g, w in zip(entry.inv_freq, theta, strict=True)) > 1e-3


@pytest.mark.parametrize(("key", "value"), [("rope_theta", 500000.0), ("sliding_window", 4096)])
def test_perturbed_exaone4_is_caught(key, value):
    """EXAONE 4.0 1.2B as released has no sliding window, so every layer rotates: a window makes its global layers
    NoPE (EXAONE 4's rule), a wrong base moves θ — each must fail the checks the tests above make."""
    raw = json.loads((CONFIGS / "exaone4-1.2b" / "config.json").read_text())
    raw[key] = value
    layers = parse_config(raw).layers
    nope = {i for layer in layers if layer.rope_type == "none" for i in layer.layer_indices}
    if nope != NOPE.get("exaone4-1.2b", set()):  # the NoPE check fails (here: all 30 layers, all global)
        return
    theta, _, _ = _independent("exaone4-1.2b", "full_attention", "any")
    assert max(_relative(g, w) for g, w in zip(expected_values(layers[0])[0].inv_freq, theta, strict=True)) > 1e-3


@pytest.mark.parametrize(("key", "value"), [("rope_local_base_freq", 1e6), ("query_pre_attn_scalar", 128),
                                            ("layer_types", ["full_attention"] + ["sliding_attention"] * 17)])
def test_perturbed_gemma3_270m_is_caught(key, value):
    """Gemma 3 270M as released: the local base on the sliding layers, the query scalar in the softmax and the
    global layers' places each decide the table; a wrong one must fail a check the tests above make."""
    raw = json.loads((CONFIGS / "gemma3-270m" / "config.json").read_text())
    raw[key] = value
    layers = {layer.layer_type: layer for layer in parse_config(raw).layers}
    if layers["full_attention"].layer_indices != (5, 11, 17):  # the every-sixth check fails
        return
    entry = expected_values(layers["sliding_attention"])[0]
    with mpmath.workdps(50):
        theta, _, softmax = _independent("gemma3-270m", "sliding_attention", "any")
        off = max(_relative(g, w) for g, w in zip(entry.inv_freq, theta, strict=True))
        assert off > 1e-3 or _relative(entry.softmax_scale, softmax) > 1e-3


@pytest.mark.parametrize("alpha", [None, 500.0])
def test_perturbed_hunyuan_alpha_is_caught(alpha):
    """Hunyuan-A13B's NTK-alpha as released (α = 1000): no alpha (plain dynamic NTK, factor 1) or α = 500 must
    move θ away from the independent values."""
    raw = json.loads((CONFIGS / "hunyuan-a13b" / "config.json").read_text())
    if alpha is None:
        del raw["rope_scaling"]["alpha"]
    else:
        raw["rope_scaling"]["alpha"] = alpha
    entry = expected_values(parse_config(raw).layers[0])[0]
    with mpmath.workdps(50):
        theta, _, _ = _independent("hunyuan-a13b", "all", "any")
        assert max(_relative(g, w) for g, w in zip(entry.inv_freq, theta, strict=True)) > 1e-3


def test_hunyuan_alpha_is_read_only_for_its_family():
    """`alpha` is HunYuan's key: another family's dynamic block with it stays dynamic NTK and names it unread."""
    raw = json.loads((CONFIGS / "hunyuan-a13b" / "config.json").read_text())
    raw["model_type"] = "llama"
    model = parse_config(raw)
    assert model.layers[0].rope_type == "dynamic" and "alpha" in model.unread_keys


def test_top_level_original_overrides_rope_scaling():
    raw = _yarn_config()
    raw["original_max_position_embeddings"] = 8192
    layer = parse_config(raw).layers[0]
    assert layer.original == 8192 and any("overrides" in r for r in layer.readings)


def test_nested_rope_parameters_per_layer_type():
    raw = {"model_type": "gemma3_text", "head_dim": 64, "num_hidden_layers": 2,
           "layer_types": ["sliding_attention", "full_attention"], "max_position_embeddings": 32768,
           "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
                               "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}
    layers = {layer.layer_type: layer for layer in parse_config(raw).layers}
    assert (layers["full_attention"].rope_type, layers["full_attention"].base) == ("linear", 1e6)
    assert layers["sliding_attention"].base == 1e4


def test_dynamic_ntk_regimes_grow_the_base_beyond_m():
    raw = {"head_dim": 64, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "dynamic", "factor": 4.0}}
    entries = expected_values(parse_config(raw).layers[0])
    assert [e.regime for e in entries] == [4095, "short", 4097, 6144, 8192, 16384]
    with mpmath.workdps(50):
        for entry in entries:
            length = max(entry.length, 4096)
            base = 10000 * (mpmath.mpf(4) * length / 4096 - 3) ** (mpmath.mpf(64) / 62)
            assert _relative(entry.inv_freq[-1], _theta(base, 64)[-1]) <= FLOAT64_AGREEMENT


def test_partial_rotary_factor_sets_the_rotary_dim():
    raw = {"head_dim": 128, "partial_rotary_factor": 0.5, "rope_theta": 10000}
    entry = expected_values(parse_config(raw).layers[0])[0]
    assert entry.layer.rotary_dim == 64 and len(entry.inv_freq) == 32


# ---------------------------------------------------------------------------------------------- the command
def test_json_has_the_fields_the_issue_names(capsys):
    assert main([str(CONFIGS / "gpt-oss-20b"), "--json", "--engine", "none"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"config", "layers", "per_layer", "engines", "literature"}  # literature: ISSUE #33
    for layer in report["layers"]:
        assert {"layer_type", "layer_indices", "rope_type", "regime", "rotary_dim", "inv_freq", "attention_factor",
                "softmax_scale"} <= set(layer)
        assert len(layer["inv_freq"]) == 32


def test_expected_values_print_without_engines(capsys):
    assert main([str(CONFIGS / "phi3.5-mini" / "config.json"), "--engine", "none"]) == 0
    out = capsys.readouterr().out
    assert "longrope" in out and "short" in out and "long" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no config file"), ("{not json", "not valid JSON"), ('{"rope_scaling": {"type": "weird"}}', "unknown rope"),
     ('{"head_dim": 64, "rope_scaling": {"rope_type": "linear"}}', "needs 'factor'"), ("[1, 2]", "JSON object")],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_text(content)
    before = path.read_bytes() if content is not None else None
    assert main([str(path), "--engine", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    if before is not None:
        assert path.read_bytes() == before


def test_parse_rejects_a_non_object():
    with pytest.raises(ConfigError):
        parse_config([1, 2])


def test_audit_config_without_engines_lists_no_engine():
    assert audit_config(CONFIGS / "llama2-7b", engines=[]).engines == []


def test_docs_page_rows_match_the_tool():
    """The docs page is the tool's output: its config and expected-value columns are regenerated here (the engine
    columns need the engines: `ropecheck audit-config tests/model_configs/*/config.json --markdown`)."""
    from ropecheck.numeric.audit.model_config._conformance import conformance_markdown

    page = (Path(__file__).parents[1] / "docs" / "config-conformance.md").read_text(encoding="utf-8")
    rows = {line.split(" | ")[0] + " | " + line.split(" | ")[1] for line in page.splitlines() if line.startswith("| `")}
    for folder in (CONFIGS, CONFIGS / "cases"):
        audits = [audit_config(p, engines=[]) for p in sorted(folder.iterdir()) if (p / "config.json").is_file()]
        for line in conformance_markdown(audits).split("Length sweep")[0].splitlines():
            if line.startswith("| `"):
                assert " | ".join(line.split(" | ")[:2]).rstrip(" |") in {r.rstrip(" |") for r in rows}, line
    for command in re.findall(r"`ropecheck audit-config (tests/[^\s*]+)[\s`]", page):
        assert (Path(__file__).parents[1] / command).exists(), command
