"""Calling a target of the `sinusoidal`, `bias` or `scores` kind: framework detection, dtypes, time limits.

Each probe is a tuple of NumPy arrays: integer positions (converted to the framework's integer arrays) and, for
scores, float64 vectors rounded once to the audited dtype. Calls run on the audit's worker thread
(`numeric.audit.function.calls.Worker`), so a hung target is abandoned after `timeout` seconds and reported in one line.

How a target gets a dtype: scores receive q and k in it; a positions-only target (`pe(positions)`,
`bias(q_positions, k_positions)`) is asked for it through a `dtype=` keyword when its signature has one, a class
built with (num_positions, dim) is cast the way users cast models (`.to(dtype)` for a torch module, a `dtype=`
constructor argument otherwise), and a built-in adapter is built per dtype. A target that offers none of these is
audited in the dtype it returns, and the report says so.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import (
    FRAMEWORKS,
    AuditError,
    BadOutput,
    Caller,
    CallFailed,
    TargetHung,
    Worker,
    numpy_dtype,
    one_line,
    to_float64,
)
from ropecheck.numeric.audit.function.targets import LoadedTarget, framework_hints, load_target

__all__ = [
    "KindSession",
    "Probe",
    "call_float64",
    "call_framework",
    "caller_call",
    "framework_copy",
    "output_float64",
    "resolve_target",
]

Probe = tuple[Any, ...]


def resolve_target(target: Any, name: str | None, kind: str) -> LoadedTarget:
    """A `LoadedTarget` from a TARGET string, a built-in `KindAdapter`, or a callable/class."""
    if isinstance(target, str):
        from ropecheck.numeric.audit.adapters.kinds import find_adapter

        adapter = find_adapter(target)
        if adapter is not None:
            if adapter.kind != kind:
                raise AuditError(f"built-in target {target!r} is of kind {adapter.kind}, not {kind} (use --kind)")
            reason = adapter.unavailable()
            if reason:
                raise AuditError(f"built-in target {target!r} cannot run here: {reason}")
            return LoadedTarget(name=target, obj=adapter, adapter=adapter)
        loaded = load_target(target)
    elif type(target).__name__ == "KindAdapter":
        loaded = LoadedTarget(name=target.name, obj=target, adapter=target)
    elif callable(target):
        loaded = LoadedTarget(name=getattr(target, "__qualname__", type(target).__qualname__), obj=target)
    else:
        raise AuditError(f"the target is a {type(target).__name__}, not a callable")
    if name:
        loaded.name = name
    return loaded


def _accepts_dtype(fn: Any) -> bool:
    try:
        return "dtype" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _framework_dtype(framework: str, dtype: str) -> Any:
    if framework == "torch":
        import torch

        return getattr(torch, dtype)
    if framework == "jax":
        import jax.numpy as jnp

        return getattr(jnp, dtype)
    return numpy_dtype(dtype)


class KindSession:
    """The target behind one audit: one callable per dtype, all sharing one worker thread.

    **Arguments:**

    - `loaded`: the resolved target.
    - `framework`: `"auto"` or one of `FRAMEWORKS`.
    - `timeout`: seconds one call may take.
    - `build`: for classes, how to construct an instance from the class (the kind knows the arguments).
    - `probe`: a small probe that any working target accepts (used to detect the framework).
    """

    def __init__(
        self,
        loaded: LoadedTarget,
        framework: str,
        timeout: float,
        build: Callable[[Any], Any] | None,
        probe: Probe,
    ) -> None:
        self.loaded = loaded
        self.timeout = timeout
        self.worker = Worker()
        self._build = build
        self._callers: dict[str, Caller] = {}
        self.dtype_control = "none"
        self.framework = self._detect(framework, probe)

    # -- building ----------------------------------------------------------------------------------------
    def _instance(self, dtype: str | None, framework: str) -> Callable[..., Any]:
        obj = self.loaded.obj
        if self.loaded.adapter is not None:
            self.dtype_control = "built per dtype"
            return obj.build(dtype or "float32")
        if inspect.isclass(obj):
            if self._build is None:
                raise AuditError(f"{self.loaded.name!r} is a class; this kind needs a callable")
            try:
                instance = self._build(obj, dtype, framework)
            except AuditError:
                raise
            except Exception as error:
                raise AuditError(f"cannot construct {self.loaded.name!r}: {one_line(error)}") from None
            return instance
        if dtype is not None and _accepts_dtype(obj):
            self.dtype_control = "dtype keyword"
            wanted = _framework_dtype(framework, dtype)
            return lambda *args: obj(*args, dtype=wanted)
        self.dtype_control = "none"
        return obj

    def _detect(self, framework: str, probe: Probe) -> str:
        if self.loaded.adapter is not None:
            return self.loaded.adapter.framework
        if framework != "auto":
            if framework not in FRAMEWORKS:
                raise AuditError(f"--framework must be auto, {', '.join(FRAMEWORKS)}; got {framework!r}")
            return framework
        candidates = framework_hints(self.loaded.obj)
        failures = []
        for name in candidates:
            caller = Caller(self._instance(None, name), name, self.timeout, self.worker)
            try:
                out = caller_call(caller, probe)
                root = type(out).__module__.split(".")[0]
                # A function that accepts NumPy but returns torch or JAX arrays lives in that framework.
                return {"torch": "torch", "jax": "jax", "jaxlib": "jax"}.get(root, name)
            except CallFailed as error:
                failures.append(f"{name}: {error.reason}")
            except TargetHung as error:
                raise AuditError(str(error)) from None
        raise AuditError(f"the target cannot be called with {len(probe)} array argument(s): {failures[0]}")

    def caller(self, dtype: str | None) -> Caller:
        """The callable for one dtype (None: the target's own choice), built once."""
        key = dtype or "native"
        if key not in self._callers:
            self._callers[key] = Caller(self._instance(dtype, self.framework), self.framework, self.timeout,
                                        self.worker)
        return self._callers[key]

    def fresh(self, dtype: str | None) -> Caller | None:
        """A new instance (classes and adapters only; None for a plain function)."""
        if self.loaded.adapter is None and not inspect.isclass(self.loaded.obj):
            return None
        return Caller(self._instance(dtype, self.framework), self.framework, self.timeout, self.worker)

    @property
    def controls_dtype(self) -> bool:
        """Whether the audit can choose the dtype of a positions-only target."""
        self.caller("float32")
        return self.dtype_control != "none"

    def target_seconds(self) -> float:
        """Seconds spent inside the target over every caller."""
        return sum(caller.target_seconds for caller in self._callers.values())


def convert(caller: Caller, value: Any) -> Any:
    """A probe argument in the caller's framework: integer arrays as positions, `(array, dtype)` as floats."""
    if isinstance(value, tuple):
        array, dtype = value
        return caller.to_framework(array, dtype)
    return caller.positions(np.asarray(value))


def caller_call(caller: Caller, probe: Probe) -> Any:
    """Call the target with a probe; returns the raw output (`CallFailed`, `TargetHung` propagate)."""
    return call_framework(caller, [convert(caller, value) for value in probe])


def call_framework(caller: Caller, arguments: Sequence[Any]) -> Any:
    """Call the target with arguments already in its framework (`CallFailed`, `TargetHung` propagate)."""
    return caller.call_arguments(*arguments)


def call_float64(caller: Caller, probe: Probe, shape: Sequence[int] | None) -> tuple[np.ndarray, str]:
    """Call and return (output as float64 NumPy, its dtype name); `shape` None accepts any shape.

    **Raises:**

    `BadOutput` (not an array, or not of `shape`), `CallFailed`, `AuditError` (hung).
    """
    try:
        raw = caller_call(caller, probe)
    except TargetHung as error:
        raise AuditError(str(error)) from None
    return output_float64(raw, shape)


def output_float64(raw: Any, shape: Sequence[int] | None) -> tuple[np.ndarray, str]:
    """A raw output as float64 NumPy and its dtype name; `BadOutput` when it is not an array (of `shape`)."""
    if shape is None:
        if getattr(raw, "shape", None) is None:
            raise BadOutput(f"the output ({type(raw).__name__}) is not an array")
        shape = tuple(raw.shape)
    return to_float64(raw, tuple(shape)), str(getattr(raw, "dtype", type(raw).__name__)).removeprefix("torch.")


def framework_copy(value: Any) -> np.ndarray:
    """A float64/int64 NumPy copy of a framework array (to detect in-place changes)."""
    if type(value).__module__.startswith("torch"):
        return value.detach().cpu().float().numpy().copy() if value.is_floating_point() else value.cpu().numpy().copy()
    return np.array(value, copy=True)
