"""MLX: `mlx.core.fast.rope` (on Linux the CPU build, `pip install "mlx[cpu]"`)."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import contiguous_runs, numpy_array
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction, define_adapter


def build(spec: AdapterSpec, config: AdapterConfig, traditional: bool) -> RopeFunction:
    """Call `mx.fast.rope(x, dims, traditional=..., base=..., scale=1.0, offset=start)` once per run of
    consecutive positions (the kernel takes a start offset, not positions), the rows joined in order.

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
        pieces = []
        for a, b, start in contiguous_runs(positions):
            # The kernel wants at least (B, *, T, D).
            run = mx.fast.rope(
                array[..., a:b, :].reshape(1, -1, b - a, shape[-1]),
                dims,
                traditional=traditional,
                base=base,
                scale=1.0,
                offset=start,
            )
            pieces.append(run.reshape(*shape[:-2], b - a, shape[-1]))
        return pieces[0] if len(pieces) == 1 else mx.concatenate(pieces, axis=-2)

    return fn


def _spec(traditional: bool) -> AdapterSpec:
    return define_adapter(
        lambda spec, config: build(spec, config, traditional),
        name="mlx.traditional" if traditional else "mlx",
        library="mlx",
        import_name="mlx.core",
        wraps=f"mlx.core.fast.rope(x, dims, traditional={traditional}, base, scale=1.0, offset=start), once per run"
        " of consecutive positions (offset API)",
        framework="mlx",
        layout="interleaved" if traditional else "half",
        default_base=10000.0,
        scaling_kind=None,
        needs_gpu=False,
        supports_rotary_dim=True,
        positions="runs",
    )


SPECS = [_spec(False), _spec(True)]
