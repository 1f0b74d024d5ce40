"""The registry of built-in adapters: look-up by name, installed versions, availability on this machine."""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util

from ropecheck.numeric.audit.adapters import (
    _equinox,
    _gpu,
    _keras_hub,
    _litgpt,
    _mlx,
    _rotary_embedding_torch,
    _torchtune,
    _transformers,
    _x_transformers,
)
from ropecheck.numeric.audit.adapters._spec import AdapterSpec

_MODULES = (
    _transformers,
    _torchtune,
    _rotary_embedding_torch,
    _x_transformers,
    _litgpt,
    _keras_hub,
    _equinox,
    _mlx,
    _gpu,
)


@functools.cache
def _registry() -> dict[str, AdapterSpec]:
    specs = [spec for module in _MODULES for spec in module.SPECS]
    registry = {spec.name: spec for spec in specs}
    if len(registry) != len(specs):
        raise AssertionError("two built-in adapters share a name")
    return registry


def list_adapters() -> list[AdapterSpec]:
    """Every built-in adapter, installed or not, in registry order.

    **Returns:**

    A list of `AdapterSpec`.
    """
    return list(_registry().values())


def get_adapter(name: str) -> AdapterSpec:
    """The built-in adapter called `name`.

    **Arguments:**

    - `name`: e.g. `"transformers.yarn"`.

    **Returns:**

    Its `AdapterSpec`.

    **Raises:**

    `KeyError` listing the known names when there is none by that name.
    """
    try:
        return _registry()[name]
    except KeyError:
        raise KeyError(f"no built-in adapter {name!r}; known adapters: {', '.join(_registry())}") from None


def installed_version(spec: AdapterSpec) -> str | None:
    """The installed version of the adapter's pip distribution, or `None` when it is not installed."""
    try:
        return importlib.metadata.version(spec.library)
    except importlib.metadata.PackageNotFoundError:
        return None


def _gpu_present() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


def is_available(spec: AdapterSpec) -> tuple[bool, str]:
    """Whether the adapter can run here, and why not.

    **Arguments:**

    - `spec`: the adapter.

    **Returns:**

    `(True, "")`, or `(False, reason)` with reason `"skipped: needs a GPU"` or `"not installed"` (naming the
    pip distribution).
    """
    if spec.needs_gpu and not _gpu_present():
        return False, "skipped: needs a GPU"
    if installed_version(spec) is None or importlib.util.find_spec(spec.import_name) is None:
        return False, f"not installed (pip install {spec.library})"
    return True, ""
