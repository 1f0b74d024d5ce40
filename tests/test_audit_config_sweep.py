"""`audit-config`'s sweep of length-dependent spectra (dynamic NTK, LongRoPE) across S−1, S, S+1, 1.5·S, 2·S, 4·S and
s·S (S the switch point): the expected θ at each length against a formula written again here, the sweep in all three
outputs, and an engine whose base is right at S and 2·S but wrong at 1.5·S or 4·S, or whose LongRoPE switch comes one
token early, seen failing at exactly that length.
"""

from __future__ import annotations

import json
from pathlib import Path

import mpmath
import pytest
from ropecheck.numeric.audit.model_config import expected_values, load_config
from ropecheck.numeric.audit.model_config._compare import compare
from ropecheck.numeric.audit.model_config.engines import Observation
from ropecheck.numeric.reference.tolerances import unit_roundoff

from ropecheck.cli._audit_config import main

CONFIGS = Path(__file__).parent / "model_configs"
DYNAMIC = CONFIGS / "cases" / "dynamic-ntk"
PHI = CONFIGS / "phi3.5-mini"


def _dynamic_theta(base: float, d: int, s: float, m: int, length: int) -> list[mpmath.mpf]:
    """bloc97's dynamic NTK as transformers runs it: base·(s·L/M − (s − 1))^(d/(d−2)) once L = max(pos) + 1 > M."""
    grown = mpmath.mpf(base)
    if length > m:
        grown = grown * (mpmath.mpf(s) * length / m - (s - 1)) ** (mpmath.mpf(d) / (d - 2))
    return [grown ** (-mpmath.mpf(2 * i) / d) for i in range(d // 2)]


def _dynamic_case() -> tuple[float, int, float, int]:
    raw = json.loads((DYNAMIC / "config.json").read_text())
    scaling = raw.get("rope_scaling") or raw.get("rope_parameters")
    d = raw.get("head_dim") or raw["hidden_size"] // raw["num_attention_heads"]
    return float(raw.get("rope_theta", 10000.0)), d, float(scaling["factor"]), raw["max_position_embeddings"]


def test_the_dynamic_sweep_covers_the_lengths_and_matches_the_formula():
    base, d, s, m = _dynamic_case()
    entries = expected_values(load_config(DYNAMIC).layers[0])
    assert sorted(e.length for e in entries) == sorted({m - 1, m, m + 1, m * 3 // 2, 2 * m, 4 * m, round(s * m)})
    with mpmath.workdps(50):
        for entry in entries:
            want = _dynamic_theta(base, d, s, m, entry.length)
            worst = max(float(abs((mpmath.mpf(g) - w) / w)) for g, w in zip(entry.inv_freq, want, strict=True))
            assert worst <= 2 * unit_roundoff("float64"), (entry.length, worst)


def test_the_longrope_sweep_switches_one_past_the_original_length():
    raw = json.loads((PHI / "config.json").read_text())
    short, long = raw["rope_scaling"]["short_factor"], raw["rope_scaling"]["long_factor"]
    original = raw["original_max_position_embeddings"]
    for entry in expected_values(load_config(PHI).layers[0]):
        factors = short if entry.length <= original else long
        plain = [10000.0 ** (-2 * i / 96) for i in range(48)]
        assert entry.inv_freq == pytest.approx([t / f for t, f in zip(plain, factors, strict=True)], rel=1e-12)
    assert {e.length for e in expected_values(load_config(PHI).layers[0])} >= {original - 1, original, original + 1}


def _observe_wrong_beyond(entries, wrong_length: int) -> list[Observation]:
    """An engine right everywhere but at one length, where it keeps the base it had at 2·M."""
    at_double = next(e for e in entries if e.length == 2 * entries[1].layer.max_position_embeddings)
    return [Observation(e.layer.layer_type, e.regime, inv_freq=list((at_double if e.length == wrong_length else e)
                                                                    .inv_freq), attention_factor=1.0)
            for e in entries]


@pytest.mark.parametrize("where", ["1.5M", "4M"])
def test_a_dynamic_base_wrong_only_at_one_length_is_seen_there(where):
    entries = expected_values(load_config(DYNAMIC).layers[0])
    m = entries[0].layer.max_position_embeddings
    wrong = {"1.5M": m * 3 // 2, "4M": 4 * m}[where]
    findings = [f for e, o in zip(entries, _observe_wrong_beyond(entries, wrong), strict=True)
                for f in compare("x", e, o)]
    assert [f.regime for f in findings] == [wrong] and findings[0].quantity == "spectrum"


def test_a_longrope_switch_one_token_early_is_seen_at_the_switch():
    """At L₀ (the last short length) the engine already uses the long factors."""
    entries = expected_values(load_config(PHI).layers[0])
    long = next(e for e in entries if e.regime == "long")
    observations = [Observation(e.layer.layer_type, e.regime, attention_factor=e.attention_factor,
                                inv_freq=list((long if e.regime == "short" else e).inv_freq)) for e in entries]
    findings = [f for e, o in zip(entries, observations, strict=True) for f in compare("x", e, o)]
    assert [(f.regime, f.key) for f in findings] == [("short", "short_factor")]


def test_the_sweep_is_in_every_output(capsys):
    assert main([str(DYNAMIC), "--engine", "none"]) == 0
    terminal = capsys.readouterr().out
    _, _, s, m = _dynamic_case()
    assert all(str(length) in terminal for length in (m - 1, m + 1, m * 3 // 2, 2 * m, 4 * m))
    assert main([str(DYNAMIC), "--engine", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {e["length"] for e in report["layers"]} == {m - 1, m, m + 1, m * 3 // 2, 2 * m, 4 * m, round(s * m)}
    assert main([str(DYNAMIC), "--engine", "none", "--markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "Length sweep" in markdown and f"| {4 * m} |" in markdown
