"""Hugging Face transformers: `LlamaRotaryEmbedding` + `apply_rotary_pos_emb`, as `LlamaAttention` uses them."""

from __future__ import annotations

import inspect
from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, torch_rope
from ropecheck.numeric.audit.adapters._spec import (
    AdapterConfig,
    AdapterSpec,
    RopeFunction,
    adapter_family,
    standard_scalings,
)

_WRAPS = (
    "transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(LlamaConfig)(x, position_ids)"
    " then apply_rotary_pos_emb(q=x, k=x, cos, sin); positions passed as position_ids"
)


def llama_config(config: AdapterConfig, base: float, scaling: dict[str, Any] | None) -> Any:
    """A one-head `LlamaConfig` carrying the RoPE settings under the key the installed version reads.

    transformers 5 reads `rope_parameters` (with `rope_theta` inside); transformers 4 reads `rope_theta` and
    `rope_scaling`. `max_position_embeddings` is `config.max_position`, except for dynamic NTK: transformers
    takes its original context from `max_position_embeddings` (and has no `original_max_position_embeddings`
    key for it), so a model trained on N tokens with dynamic scaling is configured with N there, as its
    documentation describes.
    """
    from transformers import LlamaConfig

    parameters = {key: value for key, value in (scaling or {}).items() if key != "type"}
    parameters["rope_type"] = (scaling or {}).get("type", "default")
    max_position = config.max_position
    if parameters["rope_type"] == "dynamic":
        max_position = int(parameters.pop("original_max_position_embeddings", max_position))
    common = {
        "hidden_size": config.head_dim,
        "num_attention_heads": 1,
        "head_dim": config.head_dim,
        "max_position_embeddings": max_position,
    }
    if "rope_parameters" in inspect.signature(LlamaConfig.__init__).parameters:
        return LlamaConfig(rope_parameters={"rope_theta": base, **parameters}, **common)
    return LlamaConfig(rope_theta=base, rope_scaling=parameters if scaling else None, **common)


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build `LlamaRotaryEmbedding` from a config object (no weights are loaded) and apply it to x as q.

    **Arguments:**

    - `spec`: the registry entry (base and scaling defaults).
    - `config`: the build configuration.

    **Returns:**

    `fn(x, positions)`; cos/sin are recomputed on every call from `position_ids`, so dynamic variants update
    their frequencies exactly as in a model's forward pass.
    """
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    spec.check_config(config)
    rotary = cast_module(
        LlamaRotaryEmbedding(config=llama_config(config, spec.resolve_base(config), spec.resolve_scaling(config))),
        config,
    )

    def apply(x: Any, positions: Any) -> Any:
        cos, sin = rotary(x, positions[None, :])
        query, _ = apply_rotary_pos_emb(x, x, cos, sin)
        return query

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "transformers",
    lambda kind: _WRAPS + ("" if kind is None else f"; rope type {kind!r}"),
    standard_scalings("linear", "dynamic", "yarn", "llama3", "longrope"),
    import_name="transformers",
    framework="torch",
    layout="half",
)
