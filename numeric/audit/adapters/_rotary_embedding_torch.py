"""lucidrains' rotary-embedding-torch: `RotaryEmbedding.rotate_queries_or_keys`."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import cast_module, contiguous_runs, linear_factor, torch_rope
from ropecheck.numeric.audit.adapters._spec import (
    AdapterConfig,
    AdapterSpec,
    RopeFunction,
    adapter_family,
    standard_scalings,
)


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build `RotaryEmbedding(dim, theta)` and call `rotate_queries_or_keys(x, offset=positions[0])`.

    The API takes no positions, only a start offset: positions after the first are taken to be contiguous by
    the library, not by this adapter.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration; `max_position` is `cache_max_seq_len`; linear scaling is the
      documented `interpolate_factor`.

    **Returns:**

    `fn(x, positions)`.
    """
    from rotary_embedding_torch import RotaryEmbedding

    spec.check_config(config)
    rotary = cast_module(
        RotaryEmbedding(
            dim=config.rotary_dim or config.head_dim,
            theta=spec.resolve_base(config),
            interpolate_factor=linear_factor(spec, config),
            cache_max_seq_len=config.max_position,
        ),
        config,
    )

    def apply(x: Any, positions: Any) -> Any:
        import torch

        # Offset API: one call per run of consecutive positions.
        runs = [rotary.rotate_queries_or_keys(x[..., a:b, :], offset=start) for a, b, start in contiguous_runs(
            positions.cpu())]
        return runs[0] if len(runs) == 1 else torch.cat(runs, dim=-2)

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "rotary-embedding-torch",
    lambda kind: (
        "rotary_embedding_torch.RotaryEmbedding(dim, theta"
        + (")" if kind is None else ", interpolate_factor)")
        + ".rotate_queries_or_keys(x, offset=start), once per run of consecutive positions (offset API)"
    ),
    standard_scalings("linear"),
    import_name="rotary_embedding_torch",
    framework="torch",
    layout="interleaved",
    supports_rotary_dim=True,
    positions="runs",
)
