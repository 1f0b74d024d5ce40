"""Built-in model configurations and the shrinking of a config to a tiny random-init model.

A config keeps every field that decides the rotation (head dimension, rope parameters, per-layer types, sliding
window, M-RoPE sections, softmax scaling inputs) and shrinks the rest (width, layers, vocabulary, experts), so the
attention-level checks run in seconds on a CPU. The built-in entries carry the rope fields of the released
configs; the widths are the tiny ones directly.

Claims served: ROPE-KV-CACHE-REUSE, ROPE-QK-RELATIVE (through the checks that use these models).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

__all__ = ["BUILTIN_CONFIGS", "ConfigError", "layer_kinds", "load_config", "shrink_config"]

VOCABULARY = 48
# Vision-language model types built whole (their text model takes 3-D M-RoPE positions; transformers has no
# causal-LM class for their text configs, e.g. `qwen3_vl_moe_text`).
KEEP_VISION = {"qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe"}

#: Model types transformers does not register whose released `architectures` is one of its classes, built as that
#: class (Kimi-K2: `DeepseekV3ForCausalLM` through remote code; MLX-LM remaps it the same way, mlx_lm/utils.py:54.
#: Hunyuan-A13B: `HunYuanMoEV1ForCausalLM`, whose transformers config reads the release's keys: `num_experts`,
#: per-layer `moe_topk`, NTK `alpha`, configuration_hunyuan_v1_moe.py:103-142, modeling_hunyuan_v1_moe.py:419-421).
SAME_ARCHITECTURE = {"kimi_k2": "deepseek_v3", "hunyuan": "hunyuan_v1_moe"}
HIDDEN = 64
INTERMEDIATE = 96
#: A tiny MoE model's expert counts: at most this many experts, each token routed to at most `TINY_EXPERTS_PER_TOKEN`.
TINY_EXPERTS = 4
TINY_EXPERTS_PER_TOKEN = 2
#: The keys a MoE config counts its (routed) experts under, by family.
EXPERT_COUNT_KEYS = ("n_routed_experts", "num_local_experts", "num_experts")


class ConfigError(ValueError):
    """A config that cannot be read or built (one line, shown to the user)."""


def _phi35_factors() -> tuple[list[float], list[float]]:
    """LongRoPE rescale factors with Phi-3.5-mini's shape (48 pairs, short ≈ 1…1.2, long ≈ 1…60); the values
    are generated, not the released ones: the checks depend on the switch, not on the numbers."""
    short = [1.0 + 0.2 * (i / 47) ** 2 for i in range(48)]
    long = [1.0 + 59.0 * (i / 47) ** 3 for i in range(48)]
    return short, long


_SHORT, _LONG = _phi35_factors()

# Rope fields as released (Llama-3.1-8B, Gemma-3-4B, Qwen2.5-VL-7B, Phi-3.5-mini, DeepSeek-V3; a Llama-2-style
# dynamic NTK config); widths tiny.
BUILTIN_CONFIGS: dict[str, dict[str, Any]] = {
    "llama-3.1": {
        "model_type": "llama",
        "head_dim": 128,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "max_position_embeddings": 131072,
        "rope_theta": 500000.0,
        "rope_scaling": {
            "rope_type": "llama3",
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
        },
    },
    "gemma-3": {
        "model_type": "gemma3_text",
        "head_dim": 256,
        "num_attention_heads": 1,
        "num_key_value_heads": 1,
        "query_pre_attn_scalar": 256,
        "max_position_embeddings": 131072,
        "rope_theta": 1000000.0,
        "rope_local_base_freq": 10000.0,
        "rope_scaling": {"rope_type": "linear", "factor": 8.0},
        "sliding_window": 6,
        "layer_types": ["sliding_attention", "full_attention"],
    },
    "qwen2.5-vl": {
        "model_type": "qwen2_5_vl",
        "head_dim": 128,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "max_position_embeddings": 128000,
        "rope_theta": 1000000.0,
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
        "vision_config": {"depth": 1, "hidden_size": 32, "intermediate_size": 32, "num_heads": 2,
                          "out_hidden_size": HIDDEN, "tokens_per_second": 2, "fullatt_block_indexes": [0]},
        "image_token_id": 40, "video_token_id": 41, "vision_start_token_id": 42, "vision_end_token_id": 43,
    },
    "qwen3-vl": {
        "model_type": "qwen3_vl",
        "head_dim": 128,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "max_position_embeddings": 262144,
        "rope_theta": 5000000.0,
        "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20], "mrope_interleaved": True},
    },
    "phi-3.5": {
        "model_type": "phi3",
        "head_dim": 96,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096,
        "rope_theta": 10000.0,
        "rope_scaling": {"type": "longrope", "short_factor": _SHORT, "long_factor": _LONG},
    },
    "llama-dynamic-ntk": {
        "model_type": "llama",
        "head_dim": 64,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "max_position_embeddings": 4096,
        "rope_theta": 10000.0,
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0},
    },
    "deepseek-v3": {
        "model_type": "deepseek_v3",
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 16,
        "v_head_dim": 16,
        "kv_lora_rank": 16,
        "q_lora_rank": 32,
        "max_position_embeddings": 163840,
        "rope_theta": 10000.0,
        "rope_scaling": {"type": "yarn", "factor": 40.0, "beta_fast": 32, "beta_slow": 1, "mscale": 1.0,
                         "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096},
        "n_routed_experts": 4, "num_experts_per_tok": 2, "n_group": 1, "topk_group": 1, "n_shared_experts": 1,
        "moe_intermediate_size": 32, "first_k_dense_replace": 1,
    },
}

# Fields that shrink (width, depth, vocabulary); everything else, rope fields included, is kept.
_SHRUNK = {"hidden_size": HIDDEN, "intermediate_size": INTERMEDIATE, "vocab_size": VOCABULARY,
           "num_hidden_layers": 2, "tie_word_embeddings": False, "attn_implementation": "eager",
           "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}


def load_config(source: str | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Read a config: a built-in name, a path to a `config.json`, or a dict.

    **Arguments:**

    - `source`: a name from `BUILTIN_CONFIGS`, a file path, or a config dict.

    **Returns:**

    `(name, config dict)`; raises `ConfigError` with a one-line reason on bad input.
    """
    if isinstance(source, dict):
        return str(source.get("model_type", "config")), copy.deepcopy(source)
    if source in BUILTIN_CONFIGS:
        return source, copy.deepcopy(BUILTIN_CONFIGS[source])
    path = Path(source)
    if not path.is_file():
        names = ", ".join(BUILTIN_CONFIGS)
        raise ConfigError(f"{source!r} is neither a config file nor a built-in config ({names})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ConfigError(f"cannot read {source!r} as JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("model_type"), str):
        raise ConfigError(f"{source!r} is not a model config (no \"model_type\")")
    return path.parent.name or path.stem, data


def shrink_config(config: dict[str, Any]) -> dict[str, Any]:
    """The config of a tiny model: rope fields kept, width/depth/vocabulary shrunk, head counts capped.

    A VLM's `text_config` is flattened into the top level (the text model is what carries the rotation).
    The head dimension is made explicit first, so shrinking the width does not change it.

    **Arguments:**

    - `config`: a config dict (not modified).

    **Returns:**

    A new dict ready for `transformers.AutoConfig.for_model`.
    """
    out = copy.deepcopy(config)
    text = out.pop("text_config", None)
    if isinstance(text, dict):
        out.update({k: v for k, v in text.items() if k != "model_type"})
        if text.get("model_type") and out.get("model_type") not in KEEP_VISION:
            out["model_type"] = text["model_type"]  # e.g. gemma3 → gemma3_text: no vision tower to build
            out.pop("vision_config", None)
    out["model_type"] = SAME_ARCHITECTURE.get(out.get("model_type"), out.get("model_type"))
    for key, value in _class_defaults(out).items():  # e.g. Gemma 3's released text_config omits head_dim, heads
        out.setdefault(key, value)
    heads = int(out.get("num_attention_heads") or 1)
    if "head_dim" not in out and out.get("hidden_size") and out.get("qk_rope_head_dim") is None:
        out["head_dim"] = int(out["hidden_size"]) // heads
    kv_heads = int(out.get("num_key_value_heads") or heads)
    out["num_attention_heads"] = min(heads, 2)
    out["num_key_value_heads"] = max(1, math.gcd(out["num_attention_heads"], min(kv_heads, 2)))
    out.update(_SHRUNK)
    # The tiny weights are unquantized floats: the released storage format (DeepSeek-R1's and Kimi-K2's fp8,
    # gpt-oss's mxfp4) would send the engines' loaders to quantizers (transformers' bitsandbytes needs accelerate,
    # llama.cpp's converter refuses methods it lacks) that have nothing to read here.
    out.pop("quantization_config", None)
    _shrink_experts(out)
    _keep_one_layer_of_each_kind(out, config)
    if out.get("sliding_window"):
        # A window no shorter than the context never masks a key in the released model (Phi-3.5: 262144 against
        # 131072 positions); shrunk to 6 it would mask in the tiny one, a rule the model never applies.
        inert = int(out["sliding_window"]) >= int(out.get("max_position_embeddings") or 0) > 0
        out["sliding_window"] = None if inert else min(int(out["sliding_window"]), 6)
    out.pop("sliding_window_pattern", None)
    for key in ("first_k_dense_replace",):
        if key in out:
            out[key] = min(int(out[key]), 1)
    return out


def _shrink_experts(out: dict[str, Any]) -> None:
    """At most 4 experts, 2 routed per token; grouped top-k routing (DeepSeek-V3's `n_group` > 1) kept grouped.

    DeepSeek-V3's router scores each of `n_group` groups by the sum of its 2 best experts, keeps the `topk_group`
    best groups, then picks `num_experts_per_tok` experts in them. What the engines require of it: transformers
    views the experts as `n_group` × (`n_routed_experts` // `n_group`) and takes the top 2 of each group
    (modeling_deepseek_v3.py, `route_tokens_to_experts`); MLX-LM unflattens the same way and drops
    `n_group − topk_group` ≥ 1 groups (mlx_lm/models/deepseek_v3.py, `group_expert_select`); llama.cpp asserts
    `n_expert % n_expert_groups == 0` and `0 < n_group_used < n_expert_groups` (llama-model.cpp, `load_hparams`).
    Shrunk here: 2 groups of 2 experts, 1 group kept when the released config drops groups (as DeepSeek-R1's 4 of
    8 does), at most 2 experts per token — the kept groups hold at least the experts picked, so the routing runs.
    """
    per_token = TINY_EXPERTS_PER_TOKEN
    for key in EXPERT_COUNT_KEYS:
        if out.get(key) is not None:
            out[key] = min(int(out[key]), TINY_EXPERTS)
    if out.get("num_experts_per_tok") is not None:  # null is kept: the config says so (transformers refuses it)
        out["num_experts_per_tok"] = min(int(out["num_experts_per_tok"]), per_token)
    if isinstance(out.get("moe_topk"), (int, list)):  # Hunyuan's experts per token, one per layer or for all
        topk = out["moe_topk"]
        out["moe_topk"] = [min(int(k), per_token) for k in topk] if isinstance(topk, list) else min(topk, per_token)
    groups = out.get("n_group")
    if isinstance(groups, int) and groups > 1 and "n_routed_experts" in out:
        kept = int(out.get("topk_group") or groups)
        out.update(n_group=2, n_routed_experts=TINY_EXPERTS, topk_group=1 if kept < groups else 2)
        out["num_experts_per_tok"] = min(int(out.get("num_experts_per_tok") or per_token), 2 * out["topk_group"])


# Families whose config says per layer whether it rotates (`no_rope_layers[i]` = 1 rotates); the shrunk config
# states it explicitly, since the class default (a NoPE layer every 4th) would give a 2-layer model none.
_NO_ROPE_FLAGS = {"smollm3", "llama4", "llama4_text"}


def layer_kinds(config: dict[str, Any]) -> list[tuple[str, bool]] | None:
    """Per layer index: (layer type, whether it rotates), from the expected table of `audit-config` (the model's
    own rules: `layer_types`, NoPE conventions, class defaults); None when the config does not parse there.

    **Arguments:** `config` (a config dict with the text fields at the top level).

    **Returns:** one `(layer_type, rotates)` per layer, or None.
    """
    from ..model_config import ConfigError as TableError
    from ..model_config import parse_config

    try:
        parsed = parse_config(config)
    except (TableError, ValueError, TypeError, KeyError):
        return None
    count = max((i for layer in parsed.layers for i in layer.layer_indices), default=-1) + 1
    kinds: list[tuple[str, bool]] = [("full_attention", True)] * count
    for layer in parsed.layers:
        for index in layer.layer_indices:
            kinds[index] = (layer.layer_type, layer.rope_type != "none")
    return kinds


def _class_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """The keys the config lacks that its model class fills (read by the expected table of `audit-config`)."""
    from ..model_config import ConfigError as TableError
    from ..model_config import parse_config

    try:
        parsed = parse_config(config)
    except (TableError, ValueError, TypeError, KeyError):
        return {}
    defaults = getattr(parsed, "defaults", None)
    return dict(getattr(defaults, "values", None) or {})


def _keep_one_layer_of_each_kind(out: dict[str, Any], original: dict[str, Any]) -> None:
    """Shrink the depth to one layer of each (layer type, rotates or not) in first-seen order (at least 2 layers),
    writing `layer_types` and, for the families that flag NoPE per layer, `no_rope_layers` explicitly."""
    flat = dict(out)
    flat["num_hidden_layers"] = (original.get("text_config") or {}).get("num_hidden_layers") or \
        original.get("num_hidden_layers") or 1
    kinds = layer_kinds(flat)
    if kinds is None:  # the table cannot read it: keep one layer of each declared type
        types = out.get("layer_types")
        if not types and out.get("sliding_window_pattern") and out.get("sliding_window"):
            types = ["sliding_attention", "full_attention"]  # what the pattern expands to, one layer of each
        kinds = [(t, True) for t in types] if isinstance(types, list) and types else None
    if not kinds:
        return
    chosen = list(dict.fromkeys(kinds))  # one of each kind, first-seen order
    count = max(2, len(chosen))
    chosen = (chosen * count)[:count]
    out["num_hidden_layers"] = count
    if any(t != "all" for t, _ in chosen):
        out["layer_types"] = [t if t != "all" else "full_attention" for t, _ in chosen]
    if out.get("model_type") in _NO_ROPE_FLAGS:
        out["no_rope_layers"] = [int(rotates) for _, rotates in chosen]
