"""`audit-config`'s per-layer truth: which layers rotate at all (each family's NoPE rule), the per-layer table in the
JSON report, an engine seen applying RoPE where the rule forbids it (or dropping it), and the report staying one
clean JSON object whatever an engine does (prints, prompts, an unknown model type, a bug in ropecheck's adapter).

The NoPE layer indices below are written out by hand from each family's published rule (the model card or the
config class's docstring), never computed by the code under test.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest
from ropecheck.numeric.audit.model_config import audit_config, parse_config
from ropecheck.numeric.audit.model_config.engines import ENGINES, EngineUnavailable, Observation, engine_module

from ropecheck.cli._audit_config import main

CONFIGS = Path(__file__).parent / "model_configs"


def _engine_available(name: str) -> bool:
    try:
        engine_module(name).version()
    except EngineUnavailable:
        return False
    return True


needs_transformers = pytest.mark.skipif(not _engine_available("transformers"), reason="transformers not installed")

_SMALL = {"hidden_size": 512, "num_attention_heads": 4, "num_key_value_heads": 4, "num_hidden_layers": 8,
          "max_position_embeddings": 8192, "rope_theta": 10000.0, "intermediate_size": 64, "vocab_size": 64}
_GLOBAL_EVERY_4TH = ["sliding_attention"] * 3 + ["full_attention"] + ["sliding_attention"] * 3 + ["full_attention"]


def _nope(raw: dict) -> set[int]:
    return {i for layer in parse_config(raw).layers if layer.rope_type == "none" for i in layer.layer_indices}


@pytest.mark.parametrize(
    ("raw", "nope"),
    [
        # SmolLM3: "NoPE every 4th layer" (its model card); no `no_rope_layers` means the interval rule.
        ({"model_type": "smollm3", **_SMALL}, {3, 7}),
        ({"model_type": "smollm3", "no_rope_layers": [1, 0, 1, 1, 1, 1, 0, 1], **_SMALL}, {1, 6}),
        ({"model_type": "smollm3", "no_rope_layer_interval": 2, **_SMALL}, {1, 3, 5, 7}),
        # Llama 4: `no_rope_layers: []` (as released) means the default interval 4, not "none is NoPE".
        ({"model_type": "llama4_text", "no_rope_layers": [], **_SMALL}, {3, 7}),
        ({"model_type": "llama4_text", "no_rope_layers": [0, 1, 1, 1, 1, 1, 1, 0], **_SMALL}, {0, 7}),
        # EXAONE 4: global layers are NoPE when a sliding window is set (default 4096), all rotate without one.
        ({"model_type": "exaone4", "layer_types": _GLOBAL_EVERY_4TH, "sliding_window": 4096, **_SMALL}, {3, 7}),
        ({"model_type": "exaone4", "layer_types": _GLOBAL_EVERY_4TH, **_SMALL}, {3, 7}),
        ({"model_type": "exaone4", "sliding_window": None, **_SMALL}, set()),
        # Cohere2 (Command R7B): only sliding layers rotate.
        ({"model_type": "cohere2", "sliding_window_pattern": 4, "sliding_window": 4096, **_SMALL}, {3, 7}),
        # Families without NoPE: every layer rotates (Gemma 3n, Llama).
        ({"model_type": "gemma3n_text", "layer_types": _GLOBAL_EVERY_4TH, "head_dim": 128, **_SMALL}, set()),
        ({"model_type": "llama", **_SMALL}, set()),
    ],
)
def test_each_family_rule_names_its_nope_layers(raw, nope):
    assert _nope(raw) == nope


def test_a_llama4_without_layer_types_gets_the_classes_labels():
    """configuration_llama4.py: rotating layers are `chunked_attention`, NoPE layers `full_attention`."""
    model = parse_config({"model_type": "llama4_text", **_SMALL})
    labels = {i: layer.layer_type for layer in model.layers for i in layer.layer_indices}
    assert [labels[i] for i in range(8)] == ["chunked_attention"] * 3 + ["full_attention"] + \
        ["chunked_attention"] * 3 + ["full_attention"]


@pytest.mark.parametrize("flags", [[1, 0, 1], [1, 0, 1, 1, 1, 1, 2, 1], "1,0"])
def test_an_unreadable_no_rope_layers_is_a_clear_exit_2(tmp_path, capsys, flags):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "smollm3", "no_rope_layers": flags, **_SMALL}))
    assert main([str(path), "--engine", "none"]) == 2
    err = capsys.readouterr().err
    assert "no_rope_layers" in err and len(err.strip().splitlines()) == 1


def test_the_json_per_layer_table_marks_nope_layers(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "smollm3", **_SMALL}))
    assert main([str(path), "--json", "--engine", "none"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["per_layer"]
    assert [row["layer"] for row in rows] == list(range(8))
    for row in rows:
        entry = report["layers"][row["entries"][0]]
        assert row["layer"] in entry["layer_indices"]
        if row["layer"] in (3, 7):
            assert (row["rope_type"], row["rotates"], row["rotary_dim"]) == ("none", False, 0)
            assert entry["inv_freq"] == [] and entry["base"] is None and entry["attention_factor"] == 1.0
        else:
            assert row["rotates"] and row["rope_type"] == "default" and len(entry["inv_freq"]) == 64
        assert row["softmax_scale"] == pytest.approx(128 ** -0.5, rel=1e-15)


# ------------------------------------------------------------------------------ an engine that rotates the wrong layers
def _smollm3(tmp_path: Path) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "smollm3", **_SMALL}))
    return path


@needs_transformers
def test_transformers_rotates_exactly_the_rotating_layers(tmp_path):
    engine = audit_config(_smollm3(tmp_path), engines=["transformers"]).engines[0]
    assert engine.verdict == "conforms", [f.message for f in engine.findings]


@needs_transformers
@pytest.mark.parametrize(("forced", "words"), [(1, "applies RoPE on a layer"), (0, "applies no RoPE")])
def test_rope_forced_on_or_dropped_is_seen(tmp_path, monkeypatch, forced, words):
    """SmolLM3's attention patched to rotate on every layer (or on none): the rotation finding names the layers."""
    from transformers.models.smollm3 import modeling_smollm3

    original = modeling_smollm3.SmolLM3Attention.__init__

    def patched(self, config, layer_idx):
        original(self, config, layer_idx)
        self.use_rope = forced

    monkeypatch.setattr(modeling_smollm3.SmolLM3Attention, "__init__", patched)
    engine = audit_config(_smollm3(tmp_path), engines=["transformers"]).engines[0]
    assert engine.verdict == "differs"
    (finding,) = [f for f in engine.findings if f.quantity == "rotation"]
    assert words in finding.message and finding.where.startswith("transformers/models/smollm3/")
    assert ("layers 3, 7" in finding.message) == bool(forced)


# ------------------------------------------------------------------------------ never interactive, never polluted
@needs_transformers
def test_an_unknown_model_type_is_named_and_the_json_stays_clean(tmp_path, capfd):
    """Kimi-K2's shape: a model type transformers has no class for, with `auto_map` to remote code."""
    raw = json.loads((CONFIGS / "deepseek-v3" / "config.json").read_text())
    raw.update(model_type="kimi_k2_unknown", auto_map={"AutoConfig": "configuration_x.XConfig"})
    path = tmp_path / "config.json"
    path.write_text(json.dumps(raw))
    assert main([str(path), "--json", "--engine", "transformers"]) == 0
    out = capfd.readouterr().out
    report = json.loads(out)
    engine = report["engines"]["transformers"]
    assert engine["verdict"] == "does not know model_type"
    assert "does not know model_type 'kimi_k2_unknown'" in engine["findings"][0]["message"]
    assert report["layers"][0]["inv_freq"]  # the expected values are still computed


def test_mlx_lm_names_an_unknown_model_type_too(tmp_path, capfd):
    if not _engine_available("mlx-lm"):
        pytest.skip("no MLX-LM environment (.ci/bootstrap test)")
    raw = json.loads((CONFIGS / "deepseek-v3" / "config.json").read_text())
    raw.update(model_type="kimi_k2_unknown", auto_map={"AutoConfig": "configuration_x.XConfig"})
    path = tmp_path / "config.json"
    path.write_text(json.dumps(raw))
    assert main([str(path), "--json", "--engine", "mlx-lm"]) == 0
    engine = json.loads(capfd.readouterr().out)["engines"]["mlx-lm"]
    assert engine["verdict"] == "does not know model_type"
    assert "kimi_k2_unknown" in engine["findings"][0]["message"]


def _fake_engine(monkeypatch, observe) -> None:
    module = types.ModuleType("ropecheck_fake_engine")
    module.NAME = "fake"
    module.version = lambda: "1.0"
    module.observe = observe
    monkeypatch.setitem(sys.modules, "ropecheck_fake_engine", module)
    monkeypatch.setitem(ENGINES, "fake", "ropecheck_fake_engine")


def test_an_engine_that_prints_and_prompts_cannot_reach_the_report(tmp_path, monkeypatch, capfd):
    import os

    def observe(model, expected):
        print("Do you wish to run the custom code? [y/N]")
        os.write(1, b"written to fd 1 from C\n")
        os.write(2, b"written to fd 2\n")
        answer = ""
        try:
            answer = input()
        except EOFError:
            pass
        assert answer == ""  # nothing answers
        return [Observation(e.layer.layer_type, e.regime) for e in expected]

    _fake_engine(monkeypatch, observe)
    assert main([str(_smollm3(tmp_path)), "--json", "--engine", "fake"]) == 0
    captured = capfd.readouterr()
    assert json.loads(captured.out)["engines"]["fake"]["verdict"] == "conforms"
    assert "custom code" not in captured.out + captured.err and "fd 2" not in captured.err


@needs_transformers
def test_a_bug_in_ropecheck_adapter_is_ropecheck_error_not_the_engine(tmp_path, monkeypatch, capsys):
    """The adapter once set an attribute on what transformers may hand back as a plain dict: an AttributeError in
    ropecheck's own code, which was reported as the engine's failure to build the config."""
    from ropecheck.numeric.audit.model_config.engines import transformers as adapter

    def broken(text, top_model_type):
        text.not_an_attribute_of_a_dict = top_model_type  # the shape of the old bug
        raise AssertionError("unreachable")

    monkeypatch.setattr(adapter, "_module_for", lambda text, top: broken({}, top))
    assert main([str(_smollm3(tmp_path)), "--json", "--engine", "transformers"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "please report" in captured.err and "ropecheck" in captured.err and "AttributeError" in captured.err


@needs_transformers
def test_a_text_config_left_as_a_dict_is_read(tmp_path, monkeypatch):
    """The old adapter bug itself: `get_text_config()` returning a plain dict no longer breaks the adapter."""
    from transformers import PreTrainedConfig

    monkeypatch.setattr(PreTrainedConfig, "get_text_config", lambda self, **_: self.to_dict())
    engine = audit_config(_smollm3(tmp_path), engines=["transformers"]).engines[0]
    assert engine.verdict == "conforms", [f.message for f in engine.findings]


@needs_transformers
def test_an_engine_class_that_raises_is_the_engine_failure_not_ropecheck(tmp_path, capsys):
    """Every rotary class of the engine raising was wrapped in a LookupError raised by the adapter, so transformers'
    own failure read as a ropecheck bug (exit 2, "please report"). Hunyuan-A13B's released file declared as
    transformers' `hunyuan_v1_moe` (no `head_dim`: that class's rotary module computes `None - 2`) cannot be built by
    transformers: that is the engine's verdict, with its file and line."""
    raw = json.loads((CONFIGS / "hunyuan-a13b" / "config.json").read_text())
    raw["model_type"] = "hunyuan_v1_moe"
    del raw["auto_map"]
    (tmp_path / "config.json").write_text(json.dumps(raw))
    assert main([str(tmp_path), "--json", "--engine", "transformers"]) == 1
    engine = json.loads(capsys.readouterr().out)["engines"]["transformers"]
    assert engine["verdict"] == "could not be built"
    assert "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py" in engine["findings"][0]["message"]
