"""MLX: `mlx.core.fast.rope` (on Linux the CPU build, `pip install "mlx[cpu]"`)."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import first_position, numpy_array
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction, define_adapter


def build(spec: AdapterSpec, config: AdapterConfig, traditional: bool) -> RopeFunction:
    """Call `mx.fast.rope(x, dims, traditional=..., base=..., scale=1.0, offset=positions[0])`.

    The kernel takes a start offset, not positions: positions after the first are taken to be contiguous by
    the library, not by this adapter.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration (a stateless kernel: `module_cast` and `max_position` do not apply).
    - `traditional`: MLX's name for the interleaved layout.

    **Returns:**

    `fn(x, positions)` returning an `mlx.core.array` of shape `(..., L, d)`.
    """
    import mlx.core as mx

    spec.check_config(config)
    dims = config.rotary_dim or config.head_dim
    base = spec.resolve_base(config)
    dtype = getattr(mx, config.dtype)

    def fn(x: Any, positions: Any) -> Any:
        if isinstance(x, mx.array):
            array = x.astype(dtype)
        else:
            array = mx.array(numpy_array(x, "float32" if config.dtype == "bfloat16" else config.dtype)).astype(dtype)
        shape = array.shape
        # The kernel wants at least (B, *, T, D).
        y = mx.fast.rope(
            array.reshape(1, -1, *shape[-2:]),
            dims,
            traditional=traditional,
            base=base,
            scale=1.0,
            offset=first_position(positions),
        )
        return y.reshape(shape)

    return fn


def _spec(traditional: bool) -> AdapterSpec:
    return define_adapter(
        lambda spec, config: build(spec, config, traditional),
        name="mlx.traditional" if traditional else "mlx",
        library="mlx",
        import_name="mlx.core",
        wraps=f"mlx.core.fast.rope(x, dims, traditional={traditional}, base, scale=1.0, offset=positions[0]);"
        " contiguous positions only (offset API)",
        framework="mlx",
        layout="interleaved" if traditional else "half",
        default_base=10000.0,
        scaling_kind=None,
        needs_gpu=False,
        supports_rotary_dim=True,
        positions="offset",
    )


SPECS = [_spec(False), _spec(True)]
