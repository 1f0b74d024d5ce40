"""What an adapter is: the `AdapterSpec` that names a library's RoPE and the `AdapterConfig` it is built from."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, Literal

Framework = Literal["torch", "jax", "numpy", "mlx"]
Layout = Literal["half", "interleaved"]
PositionSupport = Literal["arbitrary", "runs", "offset", "none"]
DTYPE_NAMES = ("float64", "float32", "float16", "bfloat16")
# Scaling applied when an audit names a scaled variant but gives no parameters (Hugging Face key names); the
# original context is small so that an audit of a few thousand positions crosses it.
STANDARD_SCALINGS: dict[str, dict[str, Any]] = {
    "linear": {"type": "linear", "factor": 4.0},
    "dynamic": {"type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 2048},
    "yarn": {
        "type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 2048,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
    },
    "llama3": {
        "type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 2048,
    },
    "longrope": {"type": "longrope", "factor": 4.0, "original_max_position_embeddings": 2048},
}


def standard_scalings(*kinds: str) -> dict[str, dict[str, Any]]:
    """The `STANDARD_SCALINGS` entries for these kinds, in this order."""
    return {kind: STANDARD_SCALINGS[kind] for kind in kinds}


@dataclasses.dataclass(frozen=True)
class AdapterConfig:
    """How to build one library's RoPE for an audit.

    **Fields:**

    - `head_dim`: size d of the last axis of x.
    - `base`: θ base; `None` takes the adapter's `default_base`.
    - `scaling`: parsed scaling spec such as `{"type": "yarn", "factor": 8.0,
      "original_max_position_embeddings": 4096}` (Hugging Face key names); `None` takes the adapter's
      `default_scaling`.
    - `rotary_dim`: rotate only the first `rotary_dim` coordinates (partial rotary); `None` rotates all of them.
      Only adapters with `supports_rotary_dim` accept it.
    - `dtype`: working dtype name, one of float64, float32, float16, bfloat16; x is cast to it on entry.
    - `module_cast`: build the module in float32, then cast the whole module with `.to(dtype)` the way users
      cast a model (buffers included). Without it the module stays float32 and only x has `dtype`.
    - `max_position`: the context the module is built for (cache length, `max_position_embeddings`,
      `block_size`); positions at or beyond it are outside what the library promises.
    """

    head_dim: int = 128
    base: float | None = None
    scaling: dict[str, Any] | None = None
    rotary_dim: int | None = None
    dtype: str = "float32"
    module_cast: bool = False
    max_position: int = 8192

    def __post_init__(self) -> None:
        if self.dtype not in DTYPE_NAMES:
            raise ValueError(f"dtype must be one of {', '.join(DTYPE_NAMES)}, not {self.dtype!r}")
        if self.head_dim <= 0 or self.head_dim % 2:
            raise ValueError(f"head_dim must be a positive even number, not {self.head_dim}")
        if self.rotary_dim is not None and not (0 < self.rotary_dim <= self.head_dim and self.rotary_dim % 2 == 0):
            raise ValueError(f"rotary_dim must be even and in (0, head_dim={self.head_dim}], not {self.rotary_dim}")


RopeFunction = Callable[[Any, Any], Any]


@dataclasses.dataclass(frozen=True)
class AdapterSpec:
    """One built-in audit target: a real library's RoPE behind the `fn(x, positions) -> y` contract.

    `build(config)` returns `fn`. `fn` takes x of shape `(..., L, d)` (a NumPy array or the framework's own
    array) and integer positions of shape `(L,)`, and returns y of x's shape as the framework's array, in the
    dtype the library returns.

    **Fields:**

    - `name`: registry name, e.g. `"transformers.yarn"`.
    - `library`: pip distribution name, e.g. `"transformers"`.
    - `import_name`: top-level module imported to use it.
    - `wraps`: one line saying which API is called, and how positions reach it.
    - `framework`: `"torch"`, `"jax"`, `"numpy"` or `"mlx"`: the array type `fn` returns.
    - `layout`: `"half"` (pairs (i, i + d/2)) or `"interleaved"` (pairs (2i, 2i+1)).
    - `default_base`: the library's default θ base.
    - `scaling_kind`: the context-extension method the adapter applies by default (`"yarn"`, ...), or `None`.
    - `needs_gpu`: the library's kernel runs only on a GPU.
    - `build`: `AdapterConfig -> fn`.
    - `default_scaling`: the scaling spec used when `AdapterConfig.scaling` is `None` (see `resolve_scaling`).
    - `supports_rotary_dim`: whether `AdapterConfig.rotary_dim` is honoured.
    - `positions`: `"arbitrary"` (positions reach the library), `"runs"` (the API takes a start offset and the
      adapter calls it once per run of consecutive positions, so every probe is expressed), `"offset"` (the API
      takes only a start offset: `positions[0]` is passed and the rest is assumed contiguous) or `"none"` (the
      API always uses 0…L−1).
    """

    name: str
    library: str
    import_name: str
    wraps: str
    framework: Framework
    layout: Layout
    default_base: float
    scaling_kind: str | None
    needs_gpu: bool
    build: Callable[[AdapterConfig], RopeFunction]
    default_scaling: dict[str, Any] | None = None
    supports_rotary_dim: bool = False
    positions: PositionSupport = "arbitrary"

    def resolve_base(self, config: AdapterConfig) -> float:
        """The θ base an adapter builds with: `config.base`, else the library default."""
        return self.default_base if config.base is None else float(config.base)

    def resolve_scaling(self, config: AdapterConfig) -> dict[str, Any] | None:
        """The full scaling spec an adapter builds with, for the auditor's reference formula.

        **Arguments:**

        - `config`: the build configuration.

        **Returns:**

        `config.scaling` if given, else `default_scaling`; LongRoPE's per-pair `short_factor`/`long_factor`
        lists, which depend on the rotary dimension, are filled in when absent (all ones for short contexts,
        a linear ramp from 1 to `factor` for long ones). `None` when no scaling applies.
        """
        scaling = config.scaling if config.scaling is not None else self.default_scaling
        if scaling is None:
            return None
        scaling = dict(scaling)
        if scaling.get("type") == "longrope":
            pairs = (config.rotary_dim or config.head_dim) // 2
            factor = float(scaling.get("factor", 1.0))
            scaling.setdefault("short_factor", [1.0] * pairs)
            scaling.setdefault("long_factor", [1.0 + (factor - 1.0) * i / max(pairs - 1, 1) for i in range(pairs)])
        return scaling

    def check_config(self, config: AdapterConfig) -> None:
        """Refuse a configuration the library cannot express, instead of silently building something else.

        **Arguments:**

        - `config`: the build configuration.

        **Raises:**

        `ValueError` for a partial rotary dimension the adapter cannot honour, or a scaling type other than its
        own.
        """
        if config.rotary_dim not in (None, config.head_dim) and not self.supports_rotary_dim:
            raise ValueError(f"adapter {self.name!r} rotates the whole head; rotary_dim is not supported")
        scaling = self.resolve_scaling(config)
        kind = None if scaling is None else scaling.get("type")
        if kind not in (None, "default") and kind != self.scaling_kind:
            raise ValueError(
                f"adapter {self.name!r} implements scaling {self.scaling_kind!r}, not {kind!r};"
                " pick the adapter named after that scaling"
            )


def define_adapter(builder: Callable[[AdapterSpec, AdapterConfig], RopeFunction], **fields: Any) -> AdapterSpec:
    """An `AdapterSpec` whose `build(config)` calls `builder(spec, config)`, so builders read the spec's defaults.

    **Arguments:**

    - `builder`: `(spec, config) -> fn`.
    - `fields`: every other `AdapterSpec` field.

    **Returns:**

    The spec, with `build` bound to it.
    """
    spec = AdapterSpec(build=_unbound_build, **fields)
    object.__setattr__(spec, "build", functools.partial(builder, spec))
    return spec


def _unbound_build(config: AdapterConfig) -> RopeFunction:
    raise AssertionError("define_adapter binds build before the spec is returned")


def adapter_family(
    builder: Callable[[AdapterSpec, AdapterConfig], RopeFunction],
    library: str,
    wraps: Callable[[str | None], str],
    default_scalings: dict[str, dict[str, Any]],
    **fields: Any,
) -> list[AdapterSpec]:
    """One library's adapters: the plain one named after the library, then one per scaling type, `library.kind`.

    **Arguments:**

    - `builder`: `(spec, config) -> fn`, shared by the family.
    - `library`: pip distribution name, also the plain adapter's name.
    - `wraps`: scaling kind (`None` for the plain adapter) `->` the `wraps` line.
    - `default_scalings`: scaling kind `->` its default scaling spec; one adapter per key.
    - `fields`: the remaining `AdapterSpec` fields; `needs_gpu` defaults to `False`, `default_base` to 10000.

    **Returns:**

    The specs, plain adapter first.
    """
    fields = {"needs_gpu": False, "default_base": 10000.0, **fields}
    return [
        define_adapter(
            builder,
            name=library if kind is None else f"{library}.{kind}",
            library=library,
            wraps=wraps(kind),
            scaling_kind=kind,
            default_scaling=None if kind is None else default_scalings[kind],
            **fields,
        )
        for kind in (None, *default_scalings)
    ]
