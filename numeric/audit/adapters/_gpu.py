"""GPU-only rotary kernels: flash-attn, Liger Kernel, vLLM. Registered so an audit can name them; they run only
where CUDA is available and are not installed by the test command (each pulls a CUDA build)."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, first_position, torch_dtype, torch_rope
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction, define_adapter
from ropecheck.numeric.audit.adapters._transformers import llama_config


def build_flash_attn(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """`flash_attn.layers.rotary.RotaryEmbedding(dim, base)(q, kv, seqlen_offset=positions[0])` on x as q.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration.

    **Returns:**

    `fn(x, positions)`; x is laid out `(batch, seqlen, nheads, headdim)` as the module's docstring asks.
    """
    import torch
    from flash_attn.layers.rotary import RotaryEmbedding

    spec.check_config(config)
    rotary = cast_module(
        RotaryEmbedding(config.rotary_dim or config.head_dim, base=spec.resolve_base(config), device="cuda"), config
    )

    def apply(x: Any, positions: Any) -> Any:
        query = x.transpose(1, 2).contiguous()
        key_value = torch.zeros(*query.shape[:2], 2, *query.shape[2:], dtype=query.dtype, device=query.device)
        query, _ = rotary(query, key_value, seqlen_offset=first_position(positions.cpu()))
        return query.transpose(1, 2)

    return torch_rope(apply, config, device="cuda")


def build_liger(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """transformers' `LlamaRotaryEmbedding` for cos/sin, then Liger's drop-in `liger_rotary_pos_emb(q, k, cos, sin)`.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration.

    **Returns:**

    `fn(x, positions)`.
    """
    from liger_kernel.transformers.rope import liger_rotary_pos_emb
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    spec.check_config(config)
    rotary = cast_module(
        LlamaRotaryEmbedding(config=llama_config(config, spec.resolve_base(config), spec.resolve_scaling(config))),
        config,
    ).to("cuda")

    def apply(x: Any, positions: Any) -> Any:
        cos, sin = rotary(x, positions[None, :])
        query, _ = liger_rotary_pos_emb(x.contiguous(), x.contiguous(), cos, sin)
        return query

    return torch_rope(apply, config, device="cuda")


def build_vllm(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """`vllm.model_executor.layers.rotary_embedding.get_rope(...)` then `rope(positions, q, k)` on flat tokens.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration; `dtype` is the cos/sin cache dtype handed to `get_rope`.

    **Returns:**

    `fn(x, positions)`; q is laid out `(num_tokens, num_heads * head_size)` as vLLM's attention layers pass it.
    """
    from vllm.model_executor.layers.rotary_embedding import get_rope

    spec.check_config(config)
    parameters: dict[str, Any] = {"rope_theta": spec.resolve_base(config)}
    if config.rotary_dim is not None:
        parameters["partial_rotary_factor"] = config.rotary_dim / config.head_dim
    rope = get_rope(
        config.head_dim,
        max_position=config.max_position,
        is_neox_style=True,
        rope_parameters=parameters,
        dtype=torch_dtype(config.dtype),
    ).to("cuda")

    def apply(x: Any, positions: Any) -> Any:
        heads, length, size = x.shape[1:]
        query = x[0].transpose(0, 1).reshape(length, heads * size).contiguous()
        query, _ = rope(positions, query, query.clone())
        return query.reshape(length, heads, size).transpose(0, 1)[None]

    return torch_rope(apply, config, device="cuda")


_COMMON: dict[str, Any] = {
    "framework": "torch",
    "layout": "half",
    "default_base": 10000.0,
    "scaling_kind": None,
    "needs_gpu": True,
}
SPECS = [
    define_adapter(
        build_flash_attn,
        name="flash-attn",
        library="flash-attn",
        import_name="flash_attn",
        wraps="flash_attn.layers.rotary.RotaryEmbedding(dim, base)(q, kv, seqlen_offset=positions[0]);"
        " contiguous positions only (offset API)",
        supports_rotary_dim=True,
        positions="offset",
        **_COMMON,
    ),
    define_adapter(
        build_liger,
        name="liger-kernel",
        library="liger-kernel",
        import_name="liger_kernel",
        wraps="transformers LlamaRotaryEmbedding(x, position_ids) + liger_kernel.transformers.rope."
        "liger_rotary_pos_emb(q=x, k=x, cos, sin)",
        **_COMMON,
    ),
    define_adapter(
        build_vllm,
        name="vllm",
        library="vllm",
        import_name="vllm",
        wraps="vllm.model_executor.layers.rotary_embedding.get_rope(head_size, max_position, is_neox_style=True,"
        " rope_parameters)(positions, q, k)",
        supports_rotary_dim=True,
        **_COMMON,
    ),
]
