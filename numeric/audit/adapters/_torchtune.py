"""torchtune: `RotaryPositionalEmbeddings` and `Llama3ScaledRoPE`, called as torchtune's attention calls them."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, scaling_value, torch_rope
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction, adapter_family

# torchtune's own defaults for Llama3ScaledRoPE (Llama 3.1), under the Hugging Face key names.
_LLAMA3_DEFAULTS = {
    "type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build the module from its constructor arguments and call `rope(x, input_pos=positions)` on x as q.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration; `max_position` is the module's `max_seq_len` (its cache length).

    **Returns:**

    `fn(x, positions)`; x is laid out `[b, s, n_h, h_d]` as torchtune's docstring asks.
    """
    spec.check_config(config)
    arguments: dict[str, Any] = {
        "dim": config.head_dim,
        "max_seq_len": config.max_position,
        "base": spec.resolve_base(config),
    }
    scaling = spec.resolve_scaling(config)
    if scaling is None:
        from torchtune.modules import RotaryPositionalEmbeddings as module_class
    else:
        from torchtune.models.llama3_1 import Llama3ScaledRoPE as module_class

        arguments.update(
            scale_factor=scaling_value(scaling, "factor", spec.name),
            low_freq_factor=scaling_value(scaling, "low_freq_factor", spec.name),
            high_freq_factor=scaling_value(scaling, "high_freq_factor", spec.name),
            old_context_len=scaling_value(scaling, "original_max_position_embeddings", spec.name),
        )
    rope = cast_module(module_class(**arguments), config)

    def apply(x: Any, positions: Any) -> Any:
        return rope(x.transpose(1, 2), input_pos=positions[None, :]).transpose(1, 2)

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "torchtune",
    lambda kind: (
        (
            "torchtune.modules.RotaryPositionalEmbeddings"
            if kind is None
            else "torchtune.models.llama3_1.Llama3ScaledRoPE"
        )
        + "(dim, max_seq_len, base)(x, input_pos=positions); cos/sin cached at construction"
    ),
    {"llama3": _LLAMA3_DEFAULTS},
    import_name="torchtune",
    framework="torch",
    layout="interleaved",
)
