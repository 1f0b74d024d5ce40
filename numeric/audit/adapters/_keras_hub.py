"""KerasHub: `keras_hub.layers.RotaryEmbedding`, on Keras' torch backend.

KerasHub's wheel declares `tensorflow-text` (hence TensorFlow) as a dependency on Linux, but the layer itself
is pure Keras: with `KERAS_BACKEND=torch` (set here before Keras' first import) it imports and runs without
TensorFlow. Installing it light takes `pip install --no-deps keras-hub` plus Keras' own dependencies.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters._common import import_keras, scaling_value, torch_rope
from ropecheck.numeric.audit.adapters._spec import (
    AdapterConfig,
    AdapterSpec,
    RopeFunction,
    adapter_family,
    standard_scalings,
)


def layer_arguments(spec: AdapterSpec, scaling: dict[str, Any] | None) -> dict[str, Any]:
    """Constructor arguments for the scaling spec (the layer's own names)."""
    if scaling is None:
        return {}
    arguments: dict[str, Any] = {
        "rope_type": scaling["type"],
        "scaling_factor": float(scaling_value(scaling, "factor", spec.name)),
    }
    if scaling["type"] == "yarn":
        for key in ("beta_fast", "beta_slow", "original_max_position_embeddings", "truncate"):
            if key in scaling:
                arguments[key] = scaling[key]
    return arguments


def build(spec: AdapterSpec, config: AdapterConfig) -> RopeFunction:
    """Build the layer and call `layer(x, positions=positions)` with the sequence on axis −2.

    **Arguments:**

    - `spec`: the registry entry.
    - `config`: the build configuration. With `module_cast` the layer is built with `dtype=config.dtype`
      (Keras' way to set a model's precision); without it the layer keeps Keras' default float32 policy and
      Keras itself decides what happens to x of another dtype.

    **Returns:**

    `fn(x, positions)` returning a torch tensor.
    """
    import_keras("torch")
    from keras_hub.layers import RotaryEmbedding

    spec.check_config(config)
    layer = RotaryEmbedding(
        max_wavelength=spec.resolve_base(config),
        sequence_axis=-2,
        feature_axis=-1,
        **layer_arguments(spec, spec.resolve_scaling(config)),
        **({"dtype": config.dtype} if config.module_cast else {}),
    )

    def apply(x: Any, positions: Any) -> Any:
        return layer(x, positions=positions)

    return torch_rope(apply, config)


SPECS = adapter_family(
    build,
    "keras-hub",
    lambda kind: (
        "keras_hub.layers.RotaryEmbedding(max_wavelength"
        + ("" if kind is None else f", rope_type={kind!r}, scaling_factor")
        + ")(x, positions=positions); Keras on the torch backend"
    ),
    standard_scalings("linear", "dynamic", "yarn"),
    import_name="keras_hub",
    framework="torch",
    layout="half",
)
