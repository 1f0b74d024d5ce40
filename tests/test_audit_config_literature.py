"""audit-config's literature lines (ISSUE #33 item 5): for every config in tests/model_configs, each line cites a
ledger claim and its numbers agree with an independent computation written here from the sources' code (NumPy, no
shared helper): HF's find_correction_dim, Meta's apply_scaling, LongRoPE's attention factor, DeepSeek's mscale."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from ropecheck.numeric.audit.model_config import load_config
from ropecheck.numeric.audit.model_config._literature import literature_lines
from ropecheck.proofs import claim_ids

CONFIGS = sorted(p.parent for p in Path(__file__).with_name("model_configs").rglob("config.json"))


def _hf_correction_dim(rotations: float, dim: int, base: float, length: int) -> float:
    return (dim * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_literature_lines_agree_with_an_independent_computation(path: Path) -> None:
    model = load_config(path)
    lines = literature_lines(model)
    assert lines and {line["claim"] for line in lines} <= set(claim_ids())
    # the rotating entry of each layer type (a type's layers without RoPE have no spectrum: issue 32)
    layers = {layer.layer_type: layer for layer in model.layers if layer.rotary_dim}
    for line in lines:
        layer, values = layers.get(line["layer"]), line["values"]
        if layer is None:
            continue
        dim, length = layer.rotary_dim, layer.original or layer.max_position_embeddings
        inv_freq = 1.0 / layer.base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
        wavelengths = 2 * math.pi / inv_freq
        if line["claim"] == "CRITICAL-DIMENSION-LIU":
            assert values["pairs_beyond"] == int(np.sum(wavelengths > length))
            assert values["d_extra"] == 2 * math.ceil(_hf_correction_dim(1, dim, layer.base, length))
        elif line["claim"] == "MEN-TABLE2-D128":
            # recomputed here with the spectrum the config's own rules give (HF's formula when nothing scales it)
            spectrum = inv_freq if layer.rope_type in ("default", None) and not layer.factor else None
            if spectrum is None:
                from ropecheck.numeric.audit.model_config._expected import expected_values

                spectrum = np.asarray([e for e in expected_values(layer) if e.inv_freq][-1].inv_freq)
            first, limit = values["first_negative"], values["limit"]
            assert limit == layer.max_position_embeddings
            upto = limit if first is None else first
            positions = np.arange(upto + 1, dtype=np.float64)
            scores = np.concatenate(
                [np.cos(np.outer(positions[k : k + 16384], spectrum)).sum(axis=1) for k in range(0, upto + 1, 16384)]
            )
            assert np.all(scores[:-1] >= 0) and (scores[-1] < 0 if first is not None else scores[-1] >= 0)
        elif line["claim"] == "YARN-RAMP-CODE":
            fast = layer.parameters.get("beta_fast") or 32
            slow = layer.parameters.get("beta_slow") or 1
            low = max(math.floor(_hf_correction_dim(fast, dim, layer.base, length)), 0)
            high = min(math.ceil(_hf_correction_dim(slow, dim, layer.base, length)), dim - 1)
            assert (values["low"], values["high"]) == (low, high)
            ramp = np.clip((np.arange(dim // 2) - low) / (high - low), 0, 1)
            ratio = length / wavelengths
            # YaRN's γ(r): 0 below α = beta_slow, 1 above β = beta_fast, linear between (a step when α = β)
            paper = np.clip((ratio - slow) / (fast - slow), 0, 1) if fast != slow else (ratio > slow).astype(float)
            assert values["largest_difference"] == pytest.approx(np.max(np.abs(paper - (1 - ramp))), abs=1e-12)
        elif line["claim"] == "LLAMA3-IS-BY-PARTS":
            factor = layer.factor
            low_wavelen = length / layer.parameters["low_freq_factor"]
            high_wavelen = length / layer.parameters["high_freq_factor"]
            new = np.where(
                wavelengths < high_wavelen, inv_freq, np.where(wavelengths > low_wavelen, inv_freq / factor, 0)
            )
            assert values["kept"] == int(np.sum(new == inv_freq)) and values["divided"] == int(
                np.sum(new == inv_freq / factor)
            )
        elif line["claim"] == "LONGROPE-ATTENTION-SCALE" and "factor" in values:
            scale = layer.max_position_embeddings / length
            assert values["factor"] == pytest.approx(math.sqrt(1 + math.log(scale) / math.log(length)), rel=1e-14)
        elif line["claim"] == "DEEPSEEK-V3-MSCALE":
            g = 0.1 * layer.parameters["mscale"] * math.log(layer.factor) + 1.0
            assert values["rotated"] == pytest.approx(g * g, rel=1e-14)
        elif line["claim"] == "YARN-TEMPERATURE":
            assert values["multiplier"] == pytest.approx((0.1 * math.log(layer.factor) + 1.0) ** 2, rel=1e-14)
        elif line["claim"] == "MROPE-TEXT-REDUCES":
            assert values["section_sum"] == sum(layer.mrope_section) and values["pairs"] == dim // 2


def test_a_yarn_ramp_with_equal_betas_is_a_step_not_a_division_by_zero() -> None:
    """Kimi K2 as released has beta_fast = beta_slow = 1: YaRN's γ(r) is then a step at r = 1. The line is made
    without a NumPy warning, and the step matches the code's one-pair ramp (pairs 0–19 kept, 20–31 interpolated)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lines = literature_lines(load_config(Path(__file__).with_name("model_configs") / "kimi-k2"))
    (ramp,) = [line["values"] for line in lines if line["claim"] == "YARN-RAMP-CODE"]
    # the crossing i_c = d·ln(L₀/2π)/(2·ln base) with d = 64, L₀ = 4096, base = 50000 lies between pairs 19 and 20
    crossing = _hf_correction_dim(1, 64, 50000.0, 4096)
    assert 19 < crossing < 20 and (ramp["low"], ramp["high"]) == (19, 20)
    assert ramp["largest_difference"] == 0.0


def test_literature_lines_for_the_published_configs() -> None:
    """The kernel-checked numbers at Llama 2's sizes, as the config face reports them."""
    llama2 = {
        line["claim"]: line["values"]
        for line in literature_lines(load_config(Path(__file__).with_name("model_configs") / "llama2-7b"))
    }
    assert llama2["CRITICAL-DIMENSION-LIU"]["d_extra"] == 92  # CRITICAL-DIMENSION-LIU, kernel-checked
    vl = {
        line["claim"]: line["values"]
        for line in literature_lines(load_config(Path(__file__).with_name("model_configs") / "qwen2.5-vl-7b"))
    }
    assert vl["MROPE-TEXT-REDUCES"]["section_sum"] == 64
