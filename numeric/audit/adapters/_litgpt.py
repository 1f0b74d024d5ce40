"""LitGPT: `build_rope_cache` + `apply_rope`, through a config-built `GPT` as LitGPT's attention uses them."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, scaling_value, torch_rope
from ropecheck.numeric.audit.adapters._spec import (
    AdapterConfig,
    AdapterSpec,
    RopeFunction,
    adapter_family,
    standard_scalings,
)

# `rope_adjustments` keys LitGPT reads for each scaling type, under their Hugging Face names.
_ADJUSTMENT_KEYS = {
    "linear": {"factor": "factor"},
    "llama3": {
        "factor": "factor",
        "low_freq_factor": "low_freq_factor",
        "high_freq_factor": "high_freq_factor",
        "original_max_position_embeddings": "original_max_seq_len",
    },
    "yarn": {
        "factor": "factor",
        "beta_fast": "beta_fast",
        "beta_slow": "beta_slow",
        "original_max_position_embeddings": "original_max_seq_len",
    },
}
_OPTIONAL_KEYS = {"yarn": ("mscale", "mscale_all_dim")}


def rope_adjustments(spec: AdapterSpec, scaling: dict[str, Any] | None) -> dict[str, Any] | None:
    """The `Config.rope_adjustments` dict for a scaling spec; LitGPT tells the type apart by the keys present."""
    if scaling is None:
        return None
    kind = scaling["type"]
    adjustments = {theirs: scaling_value(scaling, ours, spec.name) for ours, theirs in _ADJUSTMENT_KEYS[kind].items()}
    adjustments.update({key: scaling[key] for key in _OPTIONAL_KEYS.get(kind, ()) if key in scaling})
    return adjustments


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build a zero-layer `GPT` from a `Config` (no weights loaded) and rotate x with its cos/sin caches.

    The caches come from `build_rope_cache` at construction (`block_size = max_position`) and are registered
    buffers, so `module_cast` casts them as `model.to(dtype)` does. Each call does what
    `GPT.forward(input_pos=positions)` and `CausalSelfAttention` do: `batched_index_select` of the caches at
    the positions, `apply_rope` on the first `rope_n_elem` coordinates, the rest concatenated unchanged.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration.

    **Returns:**

    `fn(x, positions)`.
    """
    import torch
    from litgpt.config import Config
    from litgpt.model import GPT, apply_rope, batched_index_select

    spec.check_config(config)
    rotary_dim = config.rotary_dim or config.head_dim
    model = GPT(
        Config(
            n_layer=0,
            n_head=1,
            n_embd=config.head_dim,
            head_size=config.head_dim,
            block_size=config.max_position,
            vocab_size=1,
            padded_vocab_size=1,
            rope_base=spec.resolve_base(config),
            rotary_percentage=rotary_dim / config.head_dim,
            rope_adjustments=rope_adjustments(spec, spec.resolve_scaling(config)),
        )
    )
    model = cast_module(model, config)
    rope_n_elem = model.config.rope_n_elem

    def apply(x: Any, positions: Any) -> Any:
        cos = batched_index_select(model.cos, 0, positions).unsqueeze(0)
        sin = batched_index_select(model.sin, 0, positions).unsqueeze(0)
        roped = apply_rope(x[..., :rope_n_elem], cos, sin)
        return torch.cat((roped, x[..., rope_n_elem:]), dim=-1)

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "litgpt",
    lambda kind: (
        "litgpt.model.build_rope_cache (via GPT(Config(rope_base"
        + (")))" if kind is None else f", rope_adjustments={kind})))")
        + " + apply_rope on caches indexed at positions"
    ),
    standard_scalings("linear", "yarn", "llama3"),
    import_name="litgpt",
    framework="torch",
    layout="half",
    supports_rotary_dim=True,
)
