"""`audit-config` engine verdicts: each engine conforms where it reads the config right, and each check is seen
failing — on a deliberately misread config (the engine's code patched to drop a key) and on the defects the engines
really have (reproduced here; listed in docs/config_conformance.md).

Engines not installed are skipped here; their verdict is then "not available" (tested below).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from ropecheck.numeric.audit.model_config import Expected, audit_config, expected_values, load_config, spectrum_bound
from ropecheck.numeric.audit.model_config._compare import compare
from ropecheck.numeric.audit.model_config.engines import EngineUnavailable, Observation, engine_module

from ropecheck.cli._audit_config import main

CONFIGS = Path(__file__).parent / "model_configs"
MODELS = sorted(p.name for p in CONFIGS.iterdir() if (p / "config.json").is_file())
CASES = CONFIGS / "cases"


def _available(name: str) -> bool:
    try:
        engine_module(name).version()
    except EngineUnavailable:
        return False
    return True


needs_transformers = pytest.mark.skipif(not _available("transformers"), reason="transformers not installed")
needs_mlx = pytest.mark.skipif(not _available("mlx-lm"), reason="no MLX-LM environment (.ci/bootstrap test)")


def _only(audit, name):
    (engine,) = [e for e in audit.engines if e.name == name]
    return engine


# ------------------------------------------------------------------------------------------ the comparison itself
def _first(model: str) -> Expected:
    return expected_values(load_config(CONFIGS / model).layers[0])[0]


def test_an_observation_within_the_bound_conforms_and_one_beyond_differs():
    entry = _first("llama3.1-8b")
    bound = spectrum_bound(entry.layer.base)
    near = [v * (1 + bound / 2) for v in entry.inv_freq]
    far = [v * (1 + 4 * bound) for v in entry.inv_freq]
    assert compare("x", entry, Observation("all", "any", inv_freq=near, attention_factor=1.0)) == []
    (finding,) = compare("x", entry, Observation("all", "any", inv_freq=far, attention_factor=1.0))
    assert finding.quantity == "spectrum" and finding.key == "" and finding.observed_error > finding.bound


def test_a_misread_key_is_named():
    """An engine that gives gpt-oss the truncated YaRN spectrum is told that it ignored `truncate`."""
    entry = _first("gpt-oss-20b")
    raw = json.loads((CONFIGS / "gpt-oss-20b" / "config.json").read_text())
    raw["rope_scaling"].pop("truncate")
    from ropecheck.numeric.audit.model_config import parse_config

    truncated = expected_values(parse_config(raw).layers[0])[0].inv_freq
    (finding,) = compare("x", entry, Observation("sliding_attention", "any", inv_freq=list(truncated)))
    assert finding.key == "truncate" and 0.7 < finding.observed_error < 0.8


def test_a_non_finite_factor_differs():
    entry = _first("deepseek-v3")
    (finding,) = compare("x", entry, Observation("all", "any", attention_factor=math.nan))
    assert finding.quantity == "attention_factor"


def test_an_engine_that_is_not_installed_is_not_available(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("ROPECHECK_MLX_PYTHON", str(tmp_path / "missing" / "python"))
    audit = audit_config(CONFIGS / "llama2-7b", engines=["mlx-lm"])
    assert _only(audit, "mlx-lm").verdict == "not available"
    assert main([str(CONFIGS / "llama2-7b"), "--engine", "mlx-lm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engines"]["mlx-lm"]["version"] == "not available"


# ------------------------------------------------------------------------------------------------- transformers
# Released configs whose model type only the vendor's remote code knows (`auto_map`; remote code is never run).
REMOTE_CODE_ONLY = {"hunyuan-a13b", "kimi-k2"}


@needs_transformers
@pytest.mark.parametrize("model", MODELS)
def test_transformers_conforms_on_the_shipped_configs(model):
    engine = _only(audit_config(CONFIGS / model, engines=["transformers"]), "transformers")
    wanted = "does not know model_type" if model in REMOTE_CODE_ONLY else "conforms"
    assert engine.verdict == wanted, [f.message for f in engine.findings]


@needs_transformers
def test_transformers_check_fails_when_llama3_scaling_is_dropped(monkeypatch):
    from transformers import modeling_rope_utils as rope_utils
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    monkeypatch.setitem(rope_utils.ROPE_INIT_FUNCTIONS, "llama3",
                        lambda config, device=None, seq_len=None, layer_type=None:
                        LlamaRotaryEmbedding.compute_default_rope_parameters(config, device))
    engine = _only(audit_config(CONFIGS / "llama3.1-8b", engines=["transformers"]), "transformers")
    assert engine.verdict == "differs"
    assert {f.key for f in engine.findings} == {"rope_scaling"}


@needs_transformers
def test_transformers_check_fails_when_truncate_is_ignored(monkeypatch):
    from transformers import modeling_rope_utils as rope_utils

    original = rope_utils.ROPE_INIT_FUNCTIONS["yarn"]

    def always_truncated(config, device=None, seq_len=None, layer_type=None):
        config.rope_parameters["truncate"] = True
        return original(config, device, seq_len, layer_type=layer_type)

    monkeypatch.setitem(rope_utils.ROPE_INIT_FUNCTIONS, "yarn", always_truncated)
    engine = _only(audit_config(CONFIGS / "gpt-oss-20b", engines=["transformers"]), "transformers")
    assert engine.verdict == "differs" and {f.key for f in engine.findings} == {"truncate"}


@needs_transformers
def test_transformers_check_fails_when_the_deepseek_softmax_scale_is_dropped(monkeypatch):
    from transformers.models.deepseek_v3 import modeling_deepseek_v3

    monkeypatch.setattr(modeling_deepseek_v3, "yarn_get_mscale", lambda scale=1, mscale=1: 1.0)
    engine = _only(audit_config(CONFIGS / "deepseek-v3", engines=["transformers"]), "transformers")
    assert [(f.quantity, f.key) for f in engine.findings] == [("softmax_scale", "mscale_all_dim")]


@needs_transformers
def test_transformers_nested_per_layer_yarn_defect(tmp_path):
    """Defect (N3): transformers reads YaRN's keys from the top-level `rope_parameters`, not the layer type's
    dict. 5.3.0 cannot even load such a config (KeyError in validation); 5.23.0 loads it and ignores a nested
    `truncate: false` (31 %, research brief). Either way the audit must not say "conforms"."""
    config = {
        "model_type": "gemma3_text", "head_dim": 64, "hidden_size": 256, "num_attention_heads": 4,
        "num_key_value_heads": 1, "num_hidden_layers": 6, "max_position_embeddings": 32768,
        "query_pre_attn_scalar": 64, "sliding_window": 512,
        "layer_types": ["sliding_attention"] * 5 + ["full_attention"],
        "rope_parameters": {
            "full_attention": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096,
                               "rope_theta": 150000.0, "truncate": False},
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
        },
    }
    (tmp_path / "config.json").write_text(json.dumps(config))
    engine = _only(audit_config(tmp_path, engines=["transformers"]), "transformers")
    assert engine.verdict in ("differs", "could not be built")
    messages = " ".join(f.message for f in engine.findings)
    assert "original_max_position_embeddings" in messages or any(f.key == "truncate" for f in engine.findings)


# ------------------------------------------------------------------------------------------------------- MLX-LM
# The MLX-LM checks below share one probe process (`audit_configs`: MLX-LM's import, ~1.4 CPU-s, paid once).
_MLX_CONFORMING = ["llama3.1-8b", "gemma3-4b", "deepseek-v3", "hunyuan-a13b"]  # Hunyuan: NTK-alpha


@pytest.fixture(scope="module")
def mlx(tmp_path_factory):
    """MLX-LM's verdict on each config the MLX-LM tests need, from one `audit_configs` call (one subprocess)."""
    from ropecheck.numeric.audit.model_config import audit_configs

    raw = json.loads((CONFIGS / "gpt-oss-20b" / "config.json").read_text())
    raw["rope_scaling"].update(factor=64.0, attention_factor=1.0, truncate=True)  # D2's explicit factor
    explicit = tmp_path_factory.mktemp("explicit-attention-factor")
    (explicit / "config.json").write_text(json.dumps(raw))
    paths = {**{model: CONFIGS / model for model in [*_MLX_CONFORMING, "gpt-oss-20b", "phi3.5-mini",
                                                      "qwen3-vl-30b-a3b", "qwen3-vl-8b"]},
             "explicit-attention-factor": explicit, "gemma3-nested-yarn": CASES / "gemma3-nested-yarn",
             "yarn-attention-factor": CASES / "yarn-attention-factor"}
    audits = audit_configs(list(paths.values()), engines=["mlx-lm"])
    return {name: _only(audit, "mlx-lm") for name, audit in zip(paths, audits, strict=True)} | {
        "audits": dict(zip(paths, audits, strict=True))}


@needs_mlx
@pytest.mark.parametrize("model", _MLX_CONFORMING)
def test_mlx_conforms_where_it_reads_the_config_right(mlx, model):
    assert mlx[model].verdict == "conforms", [f.message for f in mlx[model].findings]


@needs_mlx
def test_mlx_ignores_yarn_truncate_false(mlx):
    """Defect D1: MLX-LM always rounds the YaRN correction range; gpt-oss's `truncate: false` is lost (76 %)."""
    engine = mlx["gpt-oss-20b"]
    assert engine.verdict == "differs"
    assert {f.key for f in engine.findings} == {"truncate"}
    assert all(0.7 < f.observed_error < 0.8 for f in engine.findings)


@needs_mlx
def test_mlx_uses_the_long_longrope_factors_for_short_sequences(mlx):
    """Defect D8: MLX-LM's SuScaledRoPE always uses `long_factor`; Phi-3.5 prompts within L₀ get the wrong θ."""
    # every length of the sweep up to L₀ (L₀ − 1 and L₀ itself), none beyond
    assert [(f.regime, f.quantity, f.key) for f in mlx["phi3.5-mini"].findings] == [
        (4095, "spectrum", "short_factor"), ("short", "spectrum", "short_factor")]


@needs_mlx
def test_mlx_ignores_an_explicit_yarn_attention_factor(mlx):
    """Defect D2 (mlx-lm PR #1507 closed): YaRN `attention_factor: 1.0` becomes 0.1·ln 64 + 1 = 1.4159."""
    keys = {(f.quantity, f.key) for f in mlx["explicit-attention-factor"].findings}
    assert keys == {("attention_factor", "attention_factor")}


@needs_mlx
@pytest.mark.parametrize("model", ["qwen3-vl-30b-a3b", "qwen3-vl-8b"])
def test_mlx_cannot_build_qwen3_vl_as_released(mlx, model):
    """MLX-LM's qwen3_vl / qwen3_vl_moe build the text model from `text_config` alone (`models/qwen3_vl*.py`), whose
    qwen3 / qwen3_moe `ModelArgs` require `tie_word_embeddings`; the released Qwen3-VL files keep that key at the top
    level only, so MLX-LM cannot build the model from them (mlx_lm's own construction raises the same)."""
    engine = mlx[model]  # MLX-LM is pinned (.ci/bootstrap): a fix comes with a pin bump, seen here
    assert engine.verdict == "could not be built"
    assert "tie_word_embeddings" in " ".join(f.message for f in engine.findings)


@needs_mlx
def test_a_config_mlx_cannot_build_keeps_the_batch_probe_alive(monkeypatch):
    """Qwen3-VL as released cannot be built by MLX-LM: that config alone is reported so, inside the one probe
    process — no fallback to one process per config (each paying MLX-LM's import again)."""
    from ropecheck.numeric.audit.model_config import audit_configs
    from ropecheck.numeric.audit.model_config.engines import _subprocess

    def no_fallback(*args, **kwargs):
        raise AssertionError("the batch probe died: configs were re-probed one by one")

    monkeypatch.setattr(_subprocess, "run_probe", no_fallback)
    llama, qwen = audit_configs([CONFIGS / "llama2-7b", CONFIGS / "qwen3-vl-8b"], engines=["mlx-lm"])
    assert _only(llama, "mlx-lm").verdict == "conforms"
    engine = _only(qwen, "mlx-lm")
    assert engine.verdict == "could not be built"
    assert "tie_word_embeddings" in " ".join(f.message for f in engine.findings)


def test_a_failing_batch_probe_is_retried_config_by_config(monkeypatch):
    """One probe process serves several configs; if it dies, each config is probed alone, so the config that
    crashes the engine is the only one reported so (the others keep their observations)."""
    from ropecheck.numeric.audit.model_config.engines import _subprocess

    def probe(python, script, request):
        if "requests" in request:
            return None, "the batch process died"
        if "gpt-oss-20b" in request["config"]:
            return None, "crashed on this config"
        return [{"layer_type": e["layer_type"], "regime": e["regime"]} for e in request["entries"]], ""

    monkeypatch.setattr(_subprocess, "_run", probe)
    configs = [(model, [e for layer in model.layers for e in expected_values(layer)])
               for model in (load_config(CONFIGS / "llama2-7b"), load_config(CONFIGS / "gpt-oss-20b"))]
    kept, crashed = _subprocess.run_probes(Path("python"), "probe.py", configs)
    assert kept and all(o.error is None for o in kept)
    assert crashed and all(o.error == "crashed on this config" for o in crashed)


@needs_transformers
def test_transformers_deepseek_v2_softmax_scale_lacks_mscale_all_dim():
    """Defect (transformers PR #47435): DeepSeek-V2's attention omits YaRN's g(s, mscale_all_dim)² softmax factor
    (DeepSeek-V3's has it). DeepSeek-V2-Lite: 1/√192 = 0.0722 where 0.1147 is expected."""
    engine = _only(audit_config(CASES / "deepseek-v2-lite-mscale", engines=["transformers"]), "transformers")
    if engine.verdict == "conforms":
        pytest.skip("fixed in this transformers version")
    assert [(f.quantity, f.key) for f in engine.findings] == [("softmax_scale", "mscale_all_dim")]
    assert "deepseek_v2" in engine.findings[0].where


@needs_mlx
def test_mlx_conformance_table_names_the_misread_keys(mlx, monkeypatch, capsys):
    """The command's table from MLX-LM's verdict on the config. The audit the command asks for (this config, MLX-LM
    alone) is the module's own: its probe process already ran it (a second process cost 1.2 CPU-s)."""
    from ropecheck.numeric.audit import model_config

    from ropecheck.cli._audit_config import main as cli_main

    path = CASES / "yarn-attention-factor"

    def shared(configs, engines):
        assert [str(c) for c in configs] == [str(path)] and list(engines) == ["mlx-lm"], (configs, engines)
        return [mlx["audits"]["yarn-attention-factor"]]

    monkeypatch.setattr(model_config, "audit_configs", shared)
    assert cli_main([str(path), "--engine", "mlx-lm", "--markdown"]) == 1
    assert "**differs** (`attention_factor`)" in capsys.readouterr().out


@needs_mlx
def test_mlx_gemma3_does_not_read_nested_rope_parameters(mlx):
    """Defect (brief §1.2): MLX-LM's gemma3_text reads `rope_theta`/`rope_scaling`, not v5 nested
    `rope_parameters`: the global layers lose their YaRN (θ off by up to 175 %, attention factor 1)."""
    engine = mlx["gemma3-nested-yarn"]
    assert {(f.layer_type, f.quantity) for f in engine.findings} == {
        ("full_attention", "spectrum"), ("full_attention", "attention_factor")}


# --------------------------------------------------------------------------------------------------------- vLLM
needs_vllm = pytest.mark.skipif(not _available("vllm"), reason="no vLLM environment (opt-in: ROPECHECK_ENGINES=vllm)")


@needs_vllm
def test_vllm_conforms_on_gpt_oss_truncate_false():
    engine = _only(audit_config(CONFIGS / "gpt-oss-20b", engines=["vllm"]), "vllm")
    assert engine.verdict == "conforms", [f.message for f in engine.findings]


@needs_vllm
def test_vllm_mrope_yarn_ramp_uses_four_times_l0():
    """Defect N2: with `mrope_section`, vLLM computes the YaRN ramp for 4·L₀ (the M-RoPE cache length): 124 %."""
    engine = _only(audit_config(CASES / "qwen2.5-vl-7b-yarn", engines=["vllm"]), "vllm")
    (finding,) = engine.findings
    assert (finding.quantity, finding.key) == ("spectrum", "original_max_position_embeddings")
    assert "4·L₀" in finding.message and 1.2 < finding.observed_error < 1.3


@needs_vllm
def test_vllm_dynamic_ntk_is_plain_and_its_cache_too_short():
    """Defect D7 (vLLM PR #55910): HF-style dynamic NTK is plain RoPE in vLLM and positions past M raise."""
    engine = _only(audit_config(CASES / "dynamic-ntk", engines=["vllm"]), "vllm")
    kinds = {(f.regime, f.quantity, f.key) for f in engine.findings}
    assert (8192, "spectrum", "rope_type") in kinds and (8192, "call", "") in kinds
    assert not [f for f in engine.findings if f.regime == "short"]


@needs_vllm
def test_vllm_longrope_uses_the_long_factors_for_short_prompts():
    """Defect D8: vLLM picks LongRoPE's factor set once, from max_model_len > L₀: short prompts get long factors."""
    engine = _only(audit_config(CONFIGS / "phi3.5-mini", engines=["vllm"]), "vllm")
    # every length of the sweep up to L₀ (L₀ − 1 and L₀ itself), none beyond
    assert [(f.regime, f.quantity, f.key) for f in engine.findings] == [(4095, "spectrum", "short_factor"),
                                                                       ("short", "spectrum", "short_factor")]
