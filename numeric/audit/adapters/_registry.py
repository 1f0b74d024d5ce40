"""The registry of built-in adapters: look-up by name, installed versions, availability on this machine."""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import sys

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


#: The device files a GPU that `torch.cuda` drives is reached through on Linux: NVIDIA's driver (`nvidiactl`,
#: `nvidia0`, …, also inside containers), Jetson's integrated GPU (`nvhost-*`, `nvmap`, `nvgpu`), WSL2's (`dxg`) and
#: ROCm's (`kfd`). Without any of them no build of torch finds a device.
GPU_DEVICE_PREFIXES = ("nvidia", "nvhost", "nvmap", "nvgpu", "dxg", "kfd")


def gpu_device_files(devices: str = "/dev") -> list[str]:
    """The GPU device files in `devices` (names starting with one of `GPU_DEVICE_PREFIXES`), sorted; on a system
    other than Linux, or where the folder cannot be read, `["?"]`: unknown, so torch must be asked.

    **Arguments:**

    - `devices`: the device folder (`/dev`).

    **Returns:**

    A list of file names, empty when this Linux machine certainly has no GPU torch could use.
    """
    if not sys.platform.startswith("linux"):
        return ["?"]
    try:
        return sorted(name for name in os.listdir(devices) if name.startswith(GPU_DEVICE_PREFIXES))
    except OSError:
        return ["?"]


def _gpu_present() -> bool:
    """Whether torch sees a CUDA (or ROCm) device, as `torch.cuda.is_available()` answers. torch's import (about
    1.8 of the 2.2 CPU-s `ropecheck audit --list` took) is paid only where the answer could be yes: torch already
    imported is asked; on a Linux machine without a GPU's device file (`gpu_device_files`) the answer is no."""
    torch = sys.modules.get("torch")
    if torch is None:
        if importlib.util.find_spec("torch") is None or not gpu_device_files():
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
