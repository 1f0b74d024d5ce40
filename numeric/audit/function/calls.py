"""Calling the target: `fn(x, positions)` in its framework and dtype, under a time limit.

The auditor works in NumPy; a `Caller` converts each probe to the target's framework and dtype, runs the call in
a worker thread (so a call that hangs is abandoned after `timeout` seconds and reported, instead of hanging the
audit), measures the time spent inside the target, and converts the output back to float64 NumPy.
"""

from __future__ import annotations

import queue
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "FRAMEWORKS",
    "AuditError",
    "BadOutput",
    "CallFailed",
    "Caller",
    "TargetHung",
    "Worker",
    "as_widening_array",
    "numpy_dtype",
    "one_line",
    "to_float64",
]

FRAMEWORKS = ("numpy", "torch", "jax")


class AuditError(Exception):
    """A target that cannot be loaded or called, or bad options: reported in one line, exit code 2."""


class CallFailed(Exception):
    """The target raised; `reason` is a one-line description (exception type and message)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadOutput(CallFailed):
    """The target returned something that is not an array of x's shape (a contract finding, not an error)."""


class TargetHung(AuditError):
    """The target did not return within the time limit; it was abandoned (its thread keeps no lock of ours)."""


def one_line(error: BaseException) -> str:
    """`Type: message` on one line, for error reports without a traceback."""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype of a dtype name (bfloat16 through ml_dtypes)."""
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _dtype_name(array: Any) -> str:
    name = str(getattr(array, "dtype", type(array).__name__))
    return name.removeprefix("torch.")


class Worker:
    """A daemon thread that runs the target's calls one at a time; abandoned (never joined) if a call hangs."""

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[Callable[[], Any], queue.Queue[Any]]] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="ropecheck-target", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            work, reply = self._requests.get()
            started = time.perf_counter()
            try:
                result: Any = ("ok", work())
            except BaseException as error:  # a target may raise anything, including SystemExit
                result = ("error", error)
            reply.put((*result, time.perf_counter() - started))

    def run(self, work: Callable[[], Any], timeout: float) -> tuple[Any, float]:
        reply: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._requests.put((work, reply))
        try:
            status, value, seconds = reply.get(timeout=timeout)
        except queue.Empty:
            raise TargetHung(f"the target did not return within {timeout:g} s and was stopped") from None
        if status == "error":
            raise CallFailed(one_line(value)) from value
        return value, seconds


class Caller:
    """Calls one RoPE callable with NumPy probes, in its framework, under a time limit.

    **Arguments:**

    - `fn`: the callable `fn(x, positions) -> y`.
    - `framework`: `"numpy"`, `"torch"` or `"jax"`.
    - `timeout`: seconds one call may take before the target counts as hung.
    - `worker`: a worker thread to share with other callers of the same audit (one is started otherwise).
    """

    def __init__(
        self, fn: Callable[[Any, Any], Any], framework: str, timeout: float, worker: Worker | None = None
    ) -> None:
        self.fn = fn
        self.framework = framework
        self.timeout = timeout
        self.target_seconds = 0.0
        self.calls = 0
        self.worker = worker or Worker()
        self._hung = False
        #: Output coordinates read in this order (P⁻¹·y) once a fixed output permutation P is declared or found.
        self.output_order: np.ndarray | None = None

    def to_framework(self, x: np.ndarray, dtype: str) -> Any:
        """A float64 NumPy array as the framework's array of the named dtype (values rounded once)."""
        # Contiguous, as a framework user's own tensors are (torch.view_as_complex and custom kernels need stride 1).
        array = np.ascontiguousarray(x, dtype=numpy_dtype(dtype))
        if self.framework == "torch":
            import torch

            if dtype == "bfloat16":
                return torch.from_numpy(array.astype(np.float32)).to(torch.bfloat16).contiguous()
            return torch.from_numpy(array).contiguous()
        if self.framework == "jax":
            import jax.numpy as jnp

            return jnp.asarray(array)
        return array

    def positions(self, positions: np.ndarray) -> Any:
        """Integer positions as the framework's integer array (int64; int32 for JAX without x64)."""
        positions = np.ascontiguousarray(positions, dtype=np.int64)
        if self.framework == "torch":
            import torch

            return torch.from_numpy(positions.copy())
        if self.framework == "jax":
            import jax
            import jax.numpy as jnp

            if not jax.config.jax_enable_x64:
                positions = positions.astype(np.int32)
            return jnp.asarray(positions)
        return positions.copy()

    def supports(self, dtype: str) -> str | None:
        """Why the framework cannot hold this dtype at all (JAX float64 without x64), or None."""
        if self.framework == "jax" and dtype == "float64":
            import jax

            if not jax.config.jax_enable_x64:
                return "JAX runs without float64 (enable jax_enable_x64 to audit float64)"
        return None

    def call_raw(self, x: Any, positions: Any) -> Any:
        """Call the target on framework arrays; raises `CallFailed` or `TargetHung`."""
        return self.call_arguments(x, positions)

    def call_arguments(self, *arguments: Any) -> Any:
        """Call the target with any arguments already in its framework, on the worker thread and within the time
        limit (the one place every kind calls a target); raises `CallFailed` or `TargetHung`."""
        if self._hung:
            raise TargetHung(f"the target did not return within {self.timeout:g} s and was stopped")

        def work() -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = self.fn(*arguments)
                if self.framework == "jax" and hasattr(out, "block_until_ready"):
                    out.block_until_ready()
                return out

        try:
            out, seconds = self.worker.run(work, self.timeout)
        except TargetHung:
            self._hung = True
            raise
        self.target_seconds += seconds
        self.calls += 1
        return out

    def call(self, x: np.ndarray, positions: np.ndarray, dtype: str, copy: bool = True) -> tuple[np.ndarray, str]:
        """Call with a float64 probe rounded to `dtype`; returns (output as float64 NumPy, output dtype name).

        **Raises:**

        `CallFailed` (the target raised, or returned something that is not an array of x's shape), `TargetHung`.
        """
        out, name = self.call_widening(x, positions, dtype)
        return out.astype(np.float64, copy=copy), name

    def call_widening(self, x: np.ndarray, positions: np.ndarray, dtype: str) -> tuple[np.ndarray, str]:
        """As `call`, with the output in a NumPy float dtype that widens to float64 exactly (`as_widening_array`),
        for callers that widen it piece by piece (the precision sweep)."""
        y = self.call_raw(self.to_framework(x, dtype), self.positions(positions))
        out = as_widening_array(y, x.shape)
        return (out if self.output_order is None else out[..., self.output_order]), _dtype_name(y)


#: Output dtypes kept as they are by `as_widening_array`: each converts to float64 exactly.
_WIDENING_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})


def as_widening_array(y: Any, shape: tuple[int, ...]) -> np.ndarray:
    """A target's output as a NumPy array of the expected shape whose values convert to float64 exactly: float16,
    bfloat16, float32 or float64 kept as they are (torch's 16-bit formats as float32), anything else converted to
    float64; `BadOutput` when it is not a numeric array of that shape."""
    try:
        if type(y).__module__.startswith("torch"):
            import torch

            tensor = y.detach().cpu()
            if tensor.dtype in (torch.bfloat16, torch.float16):
                tensor = tensor.float()
            array = tensor.numpy()
        else:
            array = np.asarray(y)
        if array.dtype.name not in _WIDENING_DTYPES:
            array = array.astype(np.float64)
    except Exception as error:
        raise BadOutput(f"the output ({type(y).__name__}) is not a numeric array: {one_line(error)}") from None
    if array.shape != tuple(shape):
        raise BadOutput(f"the output has shape {tuple(array.shape)}, expected {tuple(shape)} (the shape of x)")
    return array


def to_float64(y: Any, shape: tuple[int, ...], copy: bool = True) -> np.ndarray:
    """A target's output as float64 NumPy, or `CallFailed` when it is not an array of the expected shape
    (`copy=False`: a float64 NumPy output is used as is, for read-only analysis)."""
    return as_widening_array(y, shape).astype(np.float64, copy=copy)
