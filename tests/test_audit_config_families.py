"""`audit-config` reads a model as its family defines it: the class defaults a released config relies on (Gemma 3 4B
as released), and the softmax rule of each family (never implied by the rope type alone), each value computed here
again from the published rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import mpmath
import pytest
from ropecheck.numeric.audit.model_config import audit_config, expected_values, load_config, parse_config
from ropecheck.numeric.audit.model_config._defaults import TABLE, class_defaults
from ropecheck.numeric.reference.tolerances import unit_roundoff

from ropecheck.cli._audit_config import main

CONFIGS = Path(__file__).parent / "model_configs"
FLOAT64_AGREEMENT = 2 * unit_roundoff("float64")


# --------------------------------------------------------------------------------------------------- class defaults
def test_gemma3_4b_is_read_as_released():
    """The released text_config names no head_dim, heads, bases or layer pattern: Gemma3TextConfig's defaults."""
    raw = json.loads((CONFIGS / "gemma3-4b" / "config.json").read_text())
    missing = {"head_dim", "num_attention_heads", "rope_theta", "rope_local_base_freq", "sliding_window_pattern",
               "query_pre_attn_scalar", "max_position_embeddings"}
    assert not missing & set(raw["text_config"]), "the shipped copy must be the released one, without added keys"
    model = load_config(CONFIGS / "gemma3-4b")
    used = model.defaults.values
    assert {k: used[k] for k in missing} == {
        "head_dim": 256, "num_attention_heads": 8, "rope_theta": 1e6, "rope_local_base_freq": 1e4,
        "sliding_window_pattern": 6, "query_pre_attn_scalar": 256, "max_position_embeddings": 131072}
    assert "Gemma3TextConfig" in model.defaults.source
    assert "configuration_gemma3.py:193" in model.defaults.sources["sliding_window_pattern"]


def test_the_report_names_the_defaults_and_where_they_came_from(capsys):
    assert main([str(CONFIGS / "gemma3-4b"), "--json", "--engine", "none"]) == 0
    defaults = json.loads(capsys.readouterr().out)["config"]["defaults"]
    assert defaults["keys"]["head_dim"] == {"value": 256, "from": defaults["keys"]["head_dim"]["from"]}
    assert "Gemma3TextConfig" in defaults["keys"]["head_dim"]["from"]


def test_a_declared_layer_list_needs_no_pattern_default():
    """Gemma 3 270M as released lists its 18 `layer_types` (and writes the old pattern as `_sliding_window_pattern`):
    the class's pattern is read only when no list is given (configuration_gemma3.py:193-199), so the report names no
    default for it; without the list, the pattern 6 is used and said."""
    raw = json.loads((CONFIGS / "gemma3-270m" / "config.json").read_text())
    assert "layer_types" in raw and "sliding_window_pattern" not in raw
    model = load_config(CONFIGS / "gemma3-270m")
    assert model.defaults.values == {} and model.defaults.source == "none needed"
    del raw["layer_types"]
    assert parse_config(raw).defaults.values == {"sliding_window_pattern": 6}


@pytest.mark.parametrize("model_type", sorted(TABLE))
def test_the_fallback_table_agrees_with_the_installed_classes(model_type):
    """Each value of ropecheck's table (used when transformers is absent) equals the installed class's default."""
    installed = class_defaults({}, model_type).values
    table = class_defaults({}, model_type, use_installed=False).values
    for key, value in table.items():
        assert installed.get(key) == value, (model_type, key)


def test_without_transformers_the_table_is_used_and_said():
    defaults = class_defaults({"model_type": "gemma3_text"}, "gemma3_text", use_installed=False)
    assert defaults.values["head_dim"] == 256 and defaults.source.startswith("ropecheck's table")


def test_a_missing_key_with_no_default_is_exit_2_naming_it(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "my_own_model", "num_hidden_layers": 2, "hidden_size": 256}))
    assert main([str(path), "--engine", "none"]) == 2
    err = capsys.readouterr().err
    assert "num_attention_heads" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------ softmax rule per family
def _g(s: float, m: float) -> mpmath.mpf:
    return mpmath.mpf(1) if s <= 1 else mpmath.mpf("0.1") * m * mpmath.log(s) + 1


_YARN_MSCALE_1 = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 16384, "beta_fast": 32.0,
                  "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0, "rope_theta": 1e6}


def _entry(raw: dict, rope_type: str | None = None):
    layers = [la for la in parse_config(raw).layers if rope_type is None or la.rope_type == rope_type]
    return expected_values(layers[0])[0]


def test_ministral3_keeps_one_over_root_d_despite_mscale_all_dim():
    """Ministral 3 carries YaRN with mscale_all_dim = 1, yet its attention scales by head_dim^-0.5 and moves the
    temperature into a position-dependent factor on q: 1 + β·ln(1 + ⌊p/L₀⌋)."""
    entry = _entry({"model_type": "ministral3", "head_dim": 128, "hidden_size": 3072, "num_attention_heads": 32,
                    "num_hidden_layers": 2, "max_position_embeddings": 262144,
                    "rope_parameters": {**_YARN_MSCALE_1, "llama_4_scaling_beta": 0.1}})
    assert entry.softmax_scale == pytest.approx(128 ** -0.5, rel=FLOAT64_AGREEMENT)
    assert "ministral3/modeling_ministral3.py:120" in entry.softmax_source
    factors = entry.query_scaling["factors"]
    for position in (0, 16383, 16384, 32768, 65536):
        want = 1 + mpmath.mpf("0.1") * mpmath.log(1 + mpmath.floor(mpmath.mpf(position) / 16384))
        assert factors[str(position)] == pytest.approx(float(want), rel=FLOAT64_AGREEMENT), position


@pytest.mark.parametrize("model_type", ["deepseek_v2", "deepseek_v3", "kimi_k2"])
def test_mla_families_take_g_squared(model_type):
    entry = _entry({"model_type": model_type, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
                    "num_hidden_layers": 2, "max_position_embeddings": 163840,
                    "rope_scaling": {**_YARN_MSCALE_1, "factor": 40.0, "original_max_position_embeddings": 4096}})
    assert entry.softmax_scale == pytest.approx(float(_g(40, 1) ** 2 / mpmath.sqrt(192)), rel=FLOAT64_AGREEMENT)


def test_gemma3n_scales_by_one_and_gemma3_by_the_scalar():
    gemma3n = _entry({"model_type": "gemma3n_text", "head_dim": 256, "num_attention_heads": 8, "hidden_size": 2048,
                      "num_hidden_layers": 2})
    assert gemma3n.softmax_scale == 1.0
    gemma3 = expected_values(load_config(CONFIGS / "gemma3-4b").layers[0])[0]
    assert gemma3.softmax_scale == pytest.approx(256 ** -0.5, rel=FLOAT64_AGREEMENT)


def test_llama4_nope_layers_scale_q_with_the_position():
    raw = {"model_type": "llama4_text", "head_dim": 128, "hidden_size": 5120, "num_attention_heads": 40,
           "num_hidden_layers": 8, "no_rope_layers": []}
    nope, rope = _entry(raw, "none"), _entry(raw, "default")
    assert rope.query_scaling is None and nope.softmax_scale == rope.softmax_scale == pytest.approx(128 ** -0.5)
    for position in (0, 8190, 8191, 16383, 32767):
        want = 1 + mpmath.mpf("0.1") * mpmath.log(1 + mpmath.floor(mpmath.mpf(position + 1) / 8192))
        assert nope.query_scaling["factors"][str(position)] == pytest.approx(float(want), rel=FLOAT64_AGREEMENT)


def test_a_llama_with_yarn_mscale_all_dim_keeps_one_over_root_d():
    """The rope type alone never implies DeepSeek's softmax factor."""
    entry = _entry({"model_type": "llama", "head_dim": 128, "num_attention_heads": 32, "hidden_size": 4096,
                    "num_hidden_layers": 2, "rope_scaling": _YARN_MSCALE_1})
    assert entry.softmax_scale == pytest.approx(128 ** -0.5, rel=FLOAT64_AGREEMENT)


def test_transformers_ministral3_conforms_on_its_softmax_scale(tmp_path):
    pytest.importorskip("transformers.models.ministral3")
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "ministral3", "head_dim": 64, "hidden_size": 256,
                                "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2,
                                "intermediate_size": 64, "vocab_size": 64, "max_position_embeddings": 262144,
                                "rope_parameters": {**_YARN_MSCALE_1, "llama_4_scaling_beta": 0.1}}))
    engine = audit_config(path, engines=["transformers"]).engines[0]
    assert not [f for f in engine.findings if f.quantity == "softmax_scale"], engine.findings


# ------------------------------------------------------------------ position-dependent q factors, in the engine
_TINY_MINISTRAL3 = {"model_type": "ministral3", "head_dim": 64, "hidden_size": 256, "num_attention_heads": 4,
                    "num_key_value_heads": 2, "num_hidden_layers": 2, "intermediate_size": 64, "vocab_size": 64,
                    "max_position_embeddings": 262144,
                    "rope_parameters": {**_YARN_MSCALE_1, "llama_4_scaling_beta": 0.1}}
# Llama 4 Scout's NoPE rule (every 4th layer) and temperature tuning, widths small.
_TINY_LLAMA4 = {"model_type": "llama4_text", "head_dim": 64, "hidden_size": 256, "num_attention_heads": 4,
                "num_key_value_heads": 2, "num_hidden_layers": 4, "intermediate_size": 64, "intermediate_size_mlp": 64,
                "vocab_size": 64, "num_local_experts": 2, "max_position_embeddings": 1048576, "rope_theta": 500000.0,
                "attn_temperature_tuning": True}


def _query_audit(tmp_path: Path, raw: dict):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(raw))
    from ropecheck.numeric.audit.model_config.engines import transformers as engine

    model = load_config(path)
    expected = [e for layer in model.layers for e in expected_values(layer) if e.query_scaling is not None]
    assert expected, "the family scales q with the position"
    observed = engine.observe(model, expected)
    return expected, observed, audit_config(path, engines=["transformers"]).engines[0]


@pytest.mark.parametrize("raw", [_TINY_MINISTRAL3, _TINY_LLAMA4], ids=["ministral3", "llama4"])
def test_transformers_q_factors_are_observed_and_conform(tmp_path, raw):
    """The factor transformers' own attention layer puts on q at 0, L−1, L, 2L, 4L (L = L₀ or floor_scale) is read
    from the layer's forward and equals the table's, computed again here from the published rule."""
    pytest.importorskip("transformers.models.ministral3")
    expected, observed, engine = _query_audit(tmp_path, raw)
    for entry, seen in zip(expected, observed, strict=True):
        assert seen.query_factors is not None and set(seen.query_factors) == set(entry.query_scaling["factors"])
        for position, got in seen.query_factors.items():
            p = mpmath.mpf(position)
            steps = mpmath.floor((p + 1) / 8192) if raw is _TINY_LLAMA4 else mpmath.floor(p / 16384)
            assert got == pytest.approx(float(1 + mpmath.mpf("0.1") * mpmath.log(1 + steps)), rel=1e-6), position
    assert engine.verdict == "conforms", engine.findings


def test_a_q_factor_switching_one_token_early_differs(tmp_path, monkeypatch):
    """Seen failing: Ministral 3's factor computed from p + 1 (a switch one token early) differs at p = L₀ − 1."""
    from transformers.models.ministral3 import modeling_ministral3

    original = modeling_ministral3._get_llama_4_attn_scale
    monkeypatch.setattr(modeling_ministral3, "_get_llama_4_attn_scale",
                        lambda positions, beta, length: original(positions + 1, beta, length))
    _, _, engine = _query_audit(tmp_path, _TINY_MINISTRAL3)
    (finding,) = [f for f in engine.findings if f.quantity == "query_scaling"]
    assert engine.verdict == "differs" and "off at positions 16383" in finding.message, finding


def test_llama4_temperature_tuning_dropped_differs(tmp_path, monkeypatch):
    """Seen failing: Llama 4's NoPE layers without the temperature tuning (q unscaled beyond floor_scale)."""
    from transformers.models.llama4 import modeling_llama4

    original = modeling_llama4.Llama4TextAttention.__init__

    def untuned(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.attn_temperature_tuning = False

    monkeypatch.setattr(modeling_llama4.Llama4TextAttention, "__init__", untuned)
    _, _, engine = _query_audit(tmp_path, _TINY_LLAMA4)
    assert engine.verdict == "differs" and {f.quantity for f in engine.findings} == {"query_scaling"}, engine.findings


@pytest.mark.parametrize(
    "model_type", ["gemma3_text", "gemma3n_text", "llama4_text", "smollm3", "exaone4", "cohere2", "llama",
                   "deepseek_v3", "ministral3", "qwen3"],
)
def test_the_class_defaults_read_from_source_equal_the_imported_class(model_type):
    """The defaults are read from the class's source without importing transformers (seconds of CPU); the imported
    class must give the same values."""
    import inspect

    from ropecheck.numeric.audit.model_config._defaults import POSITION_KEYS
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    cls = CONFIG_MAPPING[model_type]
    signature = {k: p.default for k, p in inspect.signature(cls.__init__).parameters.items()
                 if k in POSITION_KEYS and p.default is not inspect.Parameter.empty and p.default is not None}
    theta = getattr(cls, "default_theta", None)
    if isinstance(theta, dict):
        signature.update(rope_theta=theta["global"], rope_local_base_freq=theta["local"])
    elif theta is not None:
        signature["rope_theta"] = float(theta)
    read = class_defaults({}, model_type)
    assert {k: v for k, v in read.values.items() if "table" not in read.sources[k]} == signature
