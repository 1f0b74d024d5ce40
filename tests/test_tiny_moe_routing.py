"""The tiny model's experts: shrinking a released mixture-of-experts config keeps a routing every engine can run.

DeepSeek-V3's grouped top-k routing (`n_group`, `topk_group`; DeepSeek-R1 and Kimi-K2 share the class) views the
routed experts as `n_group` groups and scores each by its 2 best experts; the builder once shrank the experts to 4
and kept `n_group` 8, and `audit-engines` crashed in transformers (`view(-1, 8, 0)`). The constraints below are the
engines' own: transformers 5.3 `modeling_deepseek_v3.py` `route_tokens_to_experts` (view by groups, top 2 per
group, top `topk_group` groups, top `num_experts_per_tok` in them), MLX-LM 0.32.2 `deepseek_v3.group_expert_select`
(drops `n_group − topk_group` ≥ 1 groups), llama.cpp `llama-model.cpp` `load_hparams` (`n_expert_groups <
n_expert`, `n_expert % n_expert_groups == 0`, `0 < n_group_used < n_expert_groups`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ropecheck.numeric.audit.attention import load_config, shrink_config

_CONFIGS = Path(__file__).parent / "model_configs"
_EXPERT_KEYS = ("n_routed_experts", "num_local_experts", "num_experts")


def _flat(config: dict) -> dict:
    return {**config, **(config.get("text_config") or {})}


_MOE = sorted(path.parent.name for path in _CONFIGS.glob("*/config.json")
              if any(isinstance(_flat(json.loads(path.read_text())).get(k), int) for k in _EXPERT_KEYS))


def routing_faults(config: dict) -> list[str]:
    """What an engine refuses in a (shrunk) config's expert routing, one line each."""
    experts = next(int(config[k]) for k in _EXPERT_KEYS if isinstance(config.get(k), int))
    picked = int(config.get("num_experts_per_tok") or 1)
    faults = [f"{picked} experts per token of {experts}"] if not 0 < picked <= experts else []
    groups = config.get("n_group")
    if not isinstance(groups, int):
        return faults
    kept = int(config.get("topk_group") or 1)
    if experts % groups or experts // groups < 2:
        faults.append(f"{experts} experts do not split into {groups} groups of at least 2 (transformers, MLX-LM)")
    if groups > 1 and not 0 < kept < groups:
        faults.append(f"topk_group {kept} not in 1 … n_group − 1 = {groups - 1} (MLX-LM, llama.cpp)")
    if groups >= experts:
        faults.append(f"n_group {groups} ≥ {experts} experts (llama.cpp)")
    if groups > 1 and picked > kept * (experts // groups):
        faults.append(f"{picked} experts per token > the {kept} kept groups' {kept * (experts // groups)}")
    return faults


def test_the_released_moe_configs_are_all_checked() -> None:
    assert {"deepseek-r1", "kimi-k2", "glm4.7-flash", "qwen3-30b-a3b", "gpt-oss-20b"} <= set(_MOE), _MOE


@pytest.mark.parametrize("folder", _MOE)
def test_shrunk_routing_is_one_every_engine_runs_and_stays_grouped(folder: str) -> None:
    _, raw = load_config(str(_CONFIGS / folder / "config.json"))
    released, shrunk = _flat(raw), shrink_config(raw)
    assert routing_faults(shrunk) == [], shrunk
    if isinstance(released.get("n_group"), int) and released["n_group"] > 1:  # the grouping is kept, not dropped
        assert shrunk["n_group"] > 1 and shrunk["topk_group"] < shrunk["n_group"], shrunk


def test_the_routing_check_names_deepseek_r1_shrunk_without_its_groups() -> None:
    """The check itself, on the config the builder used to write (4 experts, n_group 8 kept)."""
    _, raw = load_config(str(_CONFIGS / "deepseek-r1" / "config.json"))
    stale = {**raw, "n_routed_experts": 4, "num_experts_per_tok": 2}
    assert len(routing_faults(stale)) == 3 and routing_faults(raw) == []


@pytest.mark.parametrize("folder", ["deepseek-r1", "kimi-k2", "gpt-oss-20b"])
def test_the_tiny_model_claims_no_quantized_storage(folder: str) -> None:
    """Its weights are floats: the released `quantization_config` (fp8, a bitsandbytes retype, mxfp4) is dropped,
    else transformers, llama.cpp's converter and vLLM load deepseek-r1 through quantizers and cannot run it."""
    _, raw = load_config(str(_CONFIGS / folder / "config.json"))
    assert "quantization_config" in raw and "quantization_config" not in shrink_config(raw)
