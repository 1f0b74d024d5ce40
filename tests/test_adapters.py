"""Built-in adapters: each installed library builds, runs on a small input and, unscaled, matches a plain RoPE.

Under test: `numeric.audit.adapters` (registry and adapters), not the libraries' correctness — a scaled variant is
checked for shape and finiteness only; the auditor compares it with the scaling reference formulas.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from ropecheck.numeric.audit.adapters import (
    AdapterConfig,
    AdapterSpec,
    _registry,
    get_adapter,
    is_available,
    list_adapters,
    to_numpy,
)

LENGTH = 16
HEAD_DIM = 64
SEED = 20240521


def reference_rope(
    x: np.ndarray, positions: np.ndarray, layout: str, base: float, rotary_dim: int | None = None
) -> np.ndarray:
    """Counter-clockwise RoPE in float64: θᵢ = base^(−2i/r), pairs (i, i + r/2) or (2i, 2i+1) among the first
    r = rotary_dim coordinates (all of them by default); the others pass through."""
    if rotary_dim is not None:
        rotated = reference_rope(x[..., :rotary_dim], positions, layout, base)
        return np.concatenate([rotated, x[..., rotary_dim:].astype(np.float64)], axis=-1)
    d = x.shape[-1]
    theta = base ** (-np.arange(d // 2, dtype=np.float64) * 2.0 / d)
    angles = positions.astype(np.float64)[:, None] * theta[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    x = x.astype(np.float64)
    if layout == "half":
        first, second = x[..., : d // 2], x[..., d // 2 :]
        return np.concatenate([first * cos - second * sin, first * sin + second * cos], axis=-1)
    first, second = x[..., 0::2], x[..., 1::2]
    y = np.empty_like(x)
    y[..., 0::2] = first * cos - second * sin
    y[..., 1::2] = first * sin + second * cos
    return y


def as_float64(y: object) -> np.ndarray:
    """An adapter's output (torch, JAX or MLX array) as float64 NumPy."""
    return to_numpy(y).astype(np.float64)


def output_tolerance(max_abs_x: float) -> float:
    """Bound for float32 RoPE of positions below LENGTH: angle error ~ position·u, plus a few roundings."""
    tolerances = pytest.importorskip(
        "ropecheck.numeric.reference.tolerances",
        reason="ropecheck.numeric.reference.tolerances not there yet: comparison with the reference skipped",
    )
    return float(tolerances.gamma(2 * LENGTH + 8, "float32")) * 2.0 * max_abs_x


def require(spec: AdapterSpec) -> None:
    available, reason = is_available(spec)
    if not available:
        pytest.skip(f"{spec.name}: {reason}")


@pytest.fixture
def sample() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    return rng.standard_normal((2, LENGTH, HEAD_DIM)).astype(np.float32), np.arange(LENGTH)


@pytest.mark.parametrize("spec", list_adapters(), ids=lambda spec: spec.name)
def test_adapter_builds_and_keeps_shape(spec: AdapterSpec, sample: tuple[np.ndarray, np.ndarray]) -> None:
    require(spec)
    x, positions = sample
    y = as_float64(spec.build(AdapterConfig(head_dim=HEAD_DIM, max_position=256))(x, positions))
    assert y.shape == x.shape
    assert np.all(np.isfinite(y))


UNSCALED = [spec for spec in list_adapters() if spec.scaling_kind is None]


def assert_matches_reference(spec: AdapterSpec, config: AdapterConfig, x: np.ndarray, positions: np.ndarray) -> None:
    """The adapter's float32 output is within the tolerance of the float64 reference RoPE."""
    y = as_float64(spec.build(config)(x, positions))
    wanted = reference_rope(x, positions, spec.layout, spec.resolve_base(config), config.rotary_dim)
    error = np.max(np.abs(y - wanted))
    assert error <= output_tolerance(float(np.max(np.abs(x)))), f"{spec.name}: max |got − wanted| = {error:.3e}"


@pytest.mark.parametrize("spec", UNSCALED, ids=lambda spec: spec.name)
def test_unscaled_adapter_matches_reference_rope(spec: AdapterSpec, sample: tuple[np.ndarray, np.ndarray]) -> None:
    require(spec)
    x, positions = sample
    assert_matches_reference(spec, AdapterConfig(head_dim=HEAD_DIM, max_position=256), x, positions)


@pytest.mark.parametrize("spec", [spec for spec in UNSCALED if spec.positions != "none"], ids=lambda spec: spec.name)
def test_adapter_passes_positions_that_do_not_start_at_zero(
    spec: AdapterSpec, sample: tuple[np.ndarray, np.ndarray]
) -> None:
    # Contiguous positions from an offset: what both positions= and offset= APIs can express. Positions stay
    # small so float32 angle rounding keeps within the tolerance used at 0..L−1.
    require(spec)
    x, _ = sample
    assert_matches_reference(spec, AdapterConfig(head_dim=HEAD_DIM, max_position=256), x, np.arange(3, 3 + LENGTH))


@pytest.mark.parametrize("spec", [spec for spec in UNSCALED if spec.supports_rotary_dim], ids=lambda spec: spec.name)
def test_partial_rotary_adapter_rotates_only_the_first_coordinates(
    spec: AdapterSpec, sample: tuple[np.ndarray, np.ndarray]
) -> None:
    require(spec)
    x, positions = sample
    assert_matches_reference(spec, AdapterConfig(head_dim=HEAD_DIM, rotary_dim=32, max_position=256), x, positions)


@pytest.mark.parametrize("spec", list_adapters(), ids=lambda spec: spec.name)
def test_adapter_runs_in_bfloat16_after_module_cast(spec: AdapterSpec, sample: tuple[np.ndarray, np.ndarray]) -> None:
    require(spec)
    x, positions = sample
    config = AdapterConfig(head_dim=HEAD_DIM, dtype="bfloat16", module_cast=True, max_position=256)
    y = to_numpy(spec.build(config)(x, positions))
    assert y.shape == x.shape
    assert np.all(np.isfinite(y.astype(np.float32)))


def test_get_adapter_names_known_adapters_when_unknown() -> None:
    with pytest.raises(KeyError, match=r"transformers\.yarn"):
        get_adapter("no-such-library")


def test_registry_lists_every_required_adapter() -> None:
    names = {spec.name for spec in list_adapters()}
    required = {
        "transformers",
        "transformers.linear",
        "transformers.dynamic",
        "transformers.yarn",
        "transformers.llama3",
        "transformers.longrope",
        "torchtune",
        "torchtune.llama3",
        "rotary-embedding-torch",
        "x-transformers",
        "litgpt",
        "litgpt.yarn",
        "litgpt.llama3",
        "keras-hub",
        "keras-hub.yarn",
        "keras-hub.dynamic",
        "equinox",
        "mlx",
        "mlx.traditional",
        "flash-attn",
        "liger-kernel",
        "vllm",
    }
    assert required <= names


@pytest.mark.parametrize("spec", list_adapters(), ids=lambda spec: spec.name)
def test_spec_fields_are_consistent(spec: AdapterSpec) -> None:
    assert spec.framework in {"torch", "jax", "numpy", "mlx"}
    assert spec.layout in {"half", "interleaved"}
    assert (spec.default_scaling is None) == (spec.scaling_kind is None)
    if spec.default_scaling is not None:
        assert spec.default_scaling["type"] == spec.scaling_kind
    # The import name is what availability checks; for an installed library it must really import.
    if is_available(spec)[0]:
        importlib.import_module(spec.import_name)


def test_gpu_adapters_report_needing_a_gpu_without_cuda() -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    for name in ("flash-attn", "liger-kernel", "vllm"):
        assert is_available(get_adapter(name)) == (False, "skipped: needs a GPU")


class _TorchStandIn(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """An importable `torch` whose `torch.cuda.is_available()` answers `cuda`; `imported` says whether it was."""

    def __init__(self, cuda: bool) -> None:
        self.cuda, self.imported = cuda, False

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(name, self) if name == "torch" else None

    def exec_module(self, module: types.ModuleType) -> None:
        self.imported = True
        module.cuda = types.SimpleNamespace(is_available=lambda: self.cuda)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("devices", "cuda", "present", "imported"), [
    ([], True, False, False),  # no GPU device file: no torch finds a device, and torch is not imported to ask
    (["nvidia0", "nvidiactl"], True, True, True),
    (["nvidia0", "nvidiactl"], False, False, True),  # a CPU-only torch beside a GPU: torch's answer stands
    (["kfd"], True, True, True),  # ROCm's
])
def test_gpu_presence_imports_torch_only_where_a_gpu_could_be(
    devices: list[str], cuda: bool, present: bool, imported: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`audit --list` says "skipped: needs a GPU" as torch would, importing torch (about 1.8 CPU-s) only where a
    device file could lead to a GPU. Seen failing with the device files unread (torch imported in the first case) and
    with them read but torch never asked (the second and fourth)."""
    finder = _TorchStandIn(cuda)
    monkeypatch.setitem(sys.modules, "torch", None)  # this process's torch, if imported, is back after the test
    del sys.modules["torch"]
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    monkeypatch.setattr(_registry, "gpu_device_files", lambda: devices)
    assert (_registry._gpu_present(), finder.imported) == (present, imported)


def test_an_imported_torch_is_asked_about_the_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once torch is imported its answer costs nothing and stands (seen failing with the device files read first)."""
    cuda = types.SimpleNamespace(is_available=lambda: True)
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    monkeypatch.setattr(_registry, "gpu_device_files", lambda: [])
    assert _registry._gpu_present() is True


def test_gpu_device_files_are_read_from_the_device_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("null", "nvme0n1", "nvidia0", "nvidiactl", "kfd", "dxg", "tty1"):
        (tmp_path / name).touch()
    assert _registry.gpu_device_files(str(tmp_path)) == ["dxg", "kfd", "nvidia0", "nvidiactl"]
    assert _registry.gpu_device_files(str(tmp_path / "missing")) == ["?"]  # unknown: torch is asked
    monkeypatch.setattr(sys, "platform", "darwin")
    assert _registry.gpu_device_files(str(tmp_path)) == ["?"]


def test_adapter_refuses_a_scaling_it_does_not_implement() -> None:
    spec = get_adapter("torchtune")
    with pytest.raises(ValueError, match="scaling"):
        spec.check_config(AdapterConfig(head_dim=HEAD_DIM, scaling={"type": "yarn", "factor": 4.0}))


def test_adapter_refuses_partial_rotary_it_cannot_honour() -> None:
    with pytest.raises(ValueError, match="rotary_dim"):
        get_adapter("equinox").check_config(AdapterConfig(head_dim=HEAD_DIM, rotary_dim=32))


def test_longrope_scaling_is_filled_for_the_head() -> None:
    scaling = get_adapter("transformers.longrope").resolve_scaling(AdapterConfig(head_dim=HEAD_DIM))
    assert scaling is not None
    assert len(scaling["short_factor"]) == len(scaling["long_factor"]) == HEAD_DIM // 2


@pytest.mark.parametrize("name", ["mlx", "mlx.traditional"])
def test_offset_only_api_is_called_once_per_run_of_positions(name: str) -> None:
    """Issue #34: `mx.fast.rope` takes an offset; the adapter expresses shuffled, repeated and non-contiguous
    positions with one call per run, so `positions` is the library's finding, not a false alarm of ropecheck's."""
    pytest.importorskip("mlx.core")
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.adapters._common import contiguous_runs

    assert contiguous_runs(np.array([3, 4, 5, 9, 9, 2])) == [(0, 3, 3), (3, 4, 9), (4, 5, 9), (5, 6, 2)]
    report = audit(name, max_position=512, dtypes="float32")
    positions = next(f for f in report.findings if f.property == "positions")
    assert report.verdict == "pass" and positions.ok, report.summary
