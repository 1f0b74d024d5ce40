"""`audit --config config.json`: the model's declared RoPE fills the audit's options, so a user audits their own RoPE
function against the model it serves — and the audit fails when the function does not match that model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ropecheck.numeric.audit.model_config import ConfigError, audit_options, fill_audit_options

from ropecheck.cli._audit import main

CONFIGS = Path(__file__).parent / "model_configs"
TARGET = "tests.audit_corpus.numpy_impls:rope_half"  # plain RoPE, base 10000, half-split pairs
FAST = ["--dtypes", "float32", "--max-position", "2048", "--json"]


def test_llama2_config_fills_base_and_head_dim():
    options = audit_options(str(CONFIGS / "llama2-7b"))
    assert options == {"base": 10000.0, "scaling": None, "rotary_dim": 128, "partial": None, "head_dim": 128}


def test_llama31_config_declares_its_llama3_scaling():
    scaling = audit_options(str(CONFIGS / "llama3.1-8b"))["scaling"]
    assert scaling.spec() == "llama3:8,orig=8192,low=1,high=4"


def test_explicit_options_win_over_the_config():
    given = fill_audit_options(str(CONFIGS / "llama3.1-8b"), {"base": 20000.0, "scaling": None})
    assert given["base"] == 20000.0 and given["scaling"].kind == "llama3"


def test_layer_types_that_differ_must_be_picked():
    with pytest.raises(ConfigError, match="#LAYER_TYPE"):
        audit_options(str(CONFIGS / "gemma3-4b"))
    assert audit_options(str(CONFIGS / "gemma3-4b") + "#full_attention")["scaling"].spec() == "linear:8"
    with pytest.raises(ConfigError, match="not in the config"):
        audit_options(str(CONFIGS / "gemma3-4b") + "#global")


def test_plain_rope_conforms_to_llama2(capsys):
    assert main([TARGET, "--config", str(CONFIGS / "llama2-7b"), *FAST]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["base"] == 10000.0 and report["base_source"] == "declared"


def test_plain_rope_fails_against_llama31(capsys):
    """The same function declared to serve Llama 3.1 (base 500000, llama3 bands) must fail the spectrum."""
    assert main([TARGET, "--config", str(CONFIGS / "llama3.1-8b"), *FAST]) == 1
    assert json.loads(capsys.readouterr().out)["scaling"]["kind"] == "llama3"


def test_a_bad_config_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "config.json").write_text("{")
    assert main([TARGET, "--config", str(tmp_path), *FAST]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ropecheck audit: error: --config:") and err.count("\n") == 1


def test_plugin_rope_config_declares_the_model(tmp_path):
    from tests.test_audit_plugin import _run_pytest

    for theta, code in ((10000, 0), (500000, 1)):
        model = tmp_path / f"model{theta}"
        model.mkdir()
        (model / "config.json").write_text(json.dumps({"head_dim": 16, "rope_theta": theta}))
        result = _run_pytest(tmp_path, "--rope-impl", TARGET, "--rope-config", str(model))
        assert result.returncode == code, result.stdout
    assert "::spectrum" in result.stdout
