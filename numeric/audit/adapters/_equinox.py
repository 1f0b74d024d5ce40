"""Equinox: `equinox.nn.RotaryPositionalEmbedding`, vmapped over heads as its docstring shows."""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import numpy_array
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction, define_adapter


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build `RotaryPositionalEmbedding(embedding_size, theta, dtype)` and apply it per head with `jax.vmap`.

    The module takes no positions: it always rotates row i of x by position i. The adapter ignores
    `positions`, which the auditor's positions check is there to notice.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration; `dtype` is the module's `dtype` field (the type of its cos/sin),
      which is how Equinox users pick a precision, so `module_cast` changes nothing here. float64 needs
      `jax_enable_x64`, which the adapter leaves as the caller set it.

    **Returns:**

    `fn(x, positions)` returning a JAX array.
    """
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    spec.check_config(config)
    rope = eqx.nn.RotaryPositionalEmbedding(
        embedding_size=config.head_dim, theta=spec.resolve_base(config), dtype=jnp.dtype(config.dtype)
    )
    per_head = jax.vmap(rope)

    def fn(x: Any, positions: Any) -> Any:
        array = jnp.asarray(x if isinstance(x, jax.Array) else numpy_array(x, config.dtype), dtype=config.dtype)
        shape = array.shape
        return per_head(array.reshape(-1, *shape[-2:])).reshape(shape)

    return fn


SPECS = [
    define_adapter(
        build,
        name="equinox",
        library="equinox",
        import_name="equinox",
        wraps="equinox.nn.RotaryPositionalEmbedding(embedding_size, theta, dtype) vmapped over heads;"
        " takes no positions (always 0..L-1)",
        framework="jax",
        layout="half",
        default_base=10000.0,
        scaling_kind=None,
        needs_gpu=False,
        positions="none",
    )
]
