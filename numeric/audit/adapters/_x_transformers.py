"""x-transformers: its `RotaryEmbedding` and `apply_rotary_pos_emb`, as its `Attention` uses them."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, linear_factor, torch_rope
from ropecheck.numeric.audit.adapters._spec import (
    AdapterConfig,
    AdapterSpec,
    RopeFunction,
    adapter_family,
    standard_scalings,
)


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build `RotaryEmbedding(dim, base=...)`, then `freqs, scale = rotary(positions)` and
    `apply_rotary_pos_emb(x, freqs, scale)`.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration; the rotary dim is the full head unless `rotary_dim` is given (the
      library's `Attention` defaults to a partial one); linear scaling is the documented
      `interpolation_factor`.

    **Returns:**

    `fn(x, positions)`.
    """
    from x_transformers.x_transformers import RotaryEmbedding, apply_rotary_pos_emb

    spec.check_config(config)
    rotary = cast_module(
        RotaryEmbedding(
            dim=config.rotary_dim or config.head_dim,
            base=spec.resolve_base(config),
            interpolation_factor=linear_factor(spec, config),
        ),
        config,
    )

    def apply(x: Any, positions: Any) -> Any:
        freqs, scale = rotary(positions)
        return apply_rotary_pos_emb(x, freqs, scale)

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "x-transformers",
    lambda kind: (
        "x_transformers.x_transformers.RotaryEmbedding(dim, base"
        + (")" if kind is None else ", interpolation_factor)")
        + "(positions) then apply_rotary_pos_emb(x, freqs, scale); full rotary dim"
    ),
    standard_scalings("linear"),
    import_name="x_transformers",
    framework="torch",
    layout="interleaved",
    supports_rotary_dim=True,
)
