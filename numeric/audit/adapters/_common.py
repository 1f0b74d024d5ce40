"""Shared plumbing for adapters: arrays in, the library's array out, positions to the library's index type.

Nothing here changes what a library computes: it converts the auditor's inputs to the types the library's
documentation uses, reshapes `(..., L, d)` to the layout the library expects, and back.
"""

from __future__ import annotations

import importlib
import itertools
import os
from collections.abc import Callable
from typing import Any

import numpy as np
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec, RopeFunction

# x reshaped to (batch=1, heads, L, d): the `(B, H, T, head_dim)` layout of attention code in torch libraries.
HeadsApply = Callable[[Any, Any], Any]


def numpy_array(x: Any, dtype: str) -> np.ndarray:
    """x as a NumPy array of the named dtype (bfloat16 through `ml_dtypes`)."""
    if dtype == "bfloat16":
        import ml_dtypes

        return np.asarray(x).astype(ml_dtypes.bfloat16)
    return np.asarray(x).astype(dtype)


def torch_dtype(name: str) -> Any:
    """The `torch.dtype` for a dtype name."""
    import torch

    return getattr(torch, name)


def to_torch(x: Any, dtype: str) -> Any:
    """x as a torch tensor of the named dtype; a NumPy bfloat16 array goes through float32, which is exact."""
    import torch

    if isinstance(x, torch.Tensor):
        return x.to(torch_dtype(dtype))
    array = np.asarray(x)
    if array.dtype.kind == "V" or array.dtype.name == "bfloat16":
        array = array.astype(np.float32)
    return torch.from_numpy(np.ascontiguousarray(array)).to(torch_dtype(dtype))


def torch_positions(positions: Any) -> Any:
    """Positions as a 1-D int64 torch tensor, the type of `position_ids` / `input_pos`."""
    import torch

    if isinstance(positions, torch.Tensor):
        return positions.to(torch.int64).reshape(-1)
    return torch.from_numpy(np.asarray(positions, dtype=np.int64).reshape(-1))


def contiguous_runs(positions: Any) -> list[tuple[int, int, int]]:
    """How an offset-only API expresses arbitrary positions: one call per run of consecutive positions.

    **Returns:** `(first index, end index, offset)` of each run, in order (a shuffled or repeated probe gives
    runs of length one; `0…L−1` one run).
    """
    flat = np.asarray(positions).reshape(-1).astype(np.int64)
    if flat.size == 0:
        return []
    edges = [0, *(np.flatnonzero(np.diff(flat) != 1) + 1).tolist(), flat.size]
    return [(a, b, int(flat[a])) for a, b in itertools.pairwise(edges)]


def first_position(positions: Any) -> int:
    """`positions[0]` as a Python int: the offset handed to APIs that only take a start offset."""
    flat = np.asarray(positions).reshape(-1)
    return int(flat[0]) if flat.size else 0


def cast_module(module: Any, config: AdapterConfig) -> Any:
    """Cast a torch module with `.to(dtype)` when `config.module_cast` asks for it, as users cast models."""
    if config.module_cast:
        module = module.to(torch_dtype(config.dtype))
    return module


def torch_rope(apply: HeadsApply, config: AdapterConfig, device: str = "cpu") -> RopeFunction:
    """Wrap a torch call on `(1, H, L, d)` tensors into the `fn(x, positions) -> y` contract.

    **Arguments:**

    - `apply`: `(x of shape (1, H, L, d), positions int64 of shape (L,)) -> y of the same shape`.
    - `config`: gives the dtype x is cast to.
    - `device`: where the library runs; x and positions are moved there and y is brought back to the CPU
      (so an in-place kernel then writes to the device copy, not to the caller's x).

    **Returns:**

    `fn(x, positions)` taking x of shape `(..., L, d)` and returning a torch tensor of that shape, computed
    under `torch.no_grad()` as at inference.
    """
    import torch

    def fn(x: Any, positions: Any) -> Any:
        tensor = to_torch(x, config.dtype).to(device)
        shape = tensor.shape
        with torch.no_grad():
            y = apply(tensor.reshape(1, -1, *shape[-2:]), torch_positions(positions).to(device))
        return y.reshape(shape).cpu()

    return fn


def import_keras(backend: str = "torch") -> Any:
    """Import Keras on the given backend; the backend is fixed at Keras' first import, so it is set before it.

    **Raises:**

    `RuntimeError` when Keras was already imported on another backend (or `KERAS_BACKEND` names another one):
    the adapter's declared framework would then be wrong.
    """
    os.environ.setdefault("KERAS_BACKEND", backend)
    keras = importlib.import_module("keras")
    if keras.backend.backend() != backend:
        raise RuntimeError(
            f"the keras-hub adapter runs Keras on the {backend} backend, but Keras is on"
            f" {keras.backend.backend()!r} (KERAS_BACKEND={os.environ.get('KERAS_BACKEND')!r})"
        )
    return keras


def scaling_value(scaling: dict[str, Any], key: str, adapter: str) -> Any:
    """`scaling[key]`, or a `ValueError` naming the adapter and the missing key."""
    if key not in scaling:
        raise ValueError(f"adapter {adapter!r} needs scaling key {key!r}; got {sorted(scaling)}")
    return scaling[key]


def linear_factor(spec: AdapterSpec, config: AdapterConfig) -> float:
    """The position-interpolation factor of a linear scaling spec; 1.0 when the adapter builds unscaled."""
    scaling = spec.resolve_scaling(config)
    return 1.0 if scaling is None else float(scaling_value(scaling, "factor", spec.name))


def to_numpy(y: Any) -> np.ndarray:
    """An adapter's output as a NumPy array of the same dtype (bfloat16 as `ml_dtypes.bfloat16`), on the CPU.

    **Arguments:**

    - `y`: a torch tensor, JAX array, MLX array or NumPy array.

    **Returns:**

    The values, exactly: a bfloat16 tensor goes through float32, which holds every bfloat16 value.
    """
    if hasattr(y, "detach"):
        import torch

        tensor = y.detach().cpu()
        if tensor.dtype == torch.bfloat16:
            return numpy_array(tensor.float().numpy(), "bfloat16")
        return tensor.numpy()
    if type(y).__module__.startswith("mlx"):
        import mlx.core as mx

        if y.dtype == mx.bfloat16:
            return numpy_array(np.asarray(y.astype(mx.float32)), "bfloat16")
    return np.asarray(y)
