"""Vectorised sweeps of `exp` and `log` over whole stretches of a dtype's finite domain (issue 23, point 2).

`library_accuracy.hard_arguments` samples; a sample missed float32 `exp` above 88.52 (5.52 u at 88.72) and
float32 `log` on [1, 2) (2.049 u). Here every float of the dtype in each interval of `sweep_intervals` is evaluated:

- float16 and bfloat16: the function's **whole finite domain** (every float whose exact result is a finite
  normal number of the dtype);
- float32: every float in the ends of the domain (the top and bottom 8 of `exp`'s argument range, the binades
  [1/4, 4) around 1 and the ends of `log`'s range) and every 61st float of the whole domain in between.

float64 stays with `library_accuracy.hard_arguments` (mpmath), which includes the consecutive floats at the
ends of `exp`'s range and next to 1 for `log`.

**Error model of the reference.** The exact value is NumPy's float64 `exp`/`log` of the (exact) argument, taken
to be within 2 ulps (2·2⁻⁵³ relative) of the truth. That figure is an allowance, not a measurement here:
`library_accuracy.json`'s `numpy_float64` row measures NumPy's cos and sin only, not exp or log (glibc documents
its float64 exp and log within 1 ulp). Relative to a dtype of precision p the allowance is 2·2⁻⁵³/2⁻ᵖ = 2^(p−52)
units (`reference_units`), added to every measurement, so a sweep does not under-report while it holds.

Claims served: the library rules of the error model (every claim whose mirror evaluates `exp` or `log`).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

__all__ = ["SWEPT_DTYPES", "reference_units", "sweep", "sweep_intervals", "sweep_table"]

SWEPT_DTYPES = ("float16", "bfloat16", "float32")
_NUMPY = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16, "float32": np.float32}
_BITS = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32}
_PRECISION = {"float16": 11, "bfloat16": 8, "float32": 24}
#: Every `_STRIDE`-th float32 of the whole domain between the densely swept ends.
_STRIDE = 61


def reference_units(dtype: str) -> float:
    """The reference's own error in units u of `dtype`: 2 ulps of float64 relative, 2·2⁻⁵³ / 2⁻ᵖ."""
    return 2.0 ** (_PRECISION[dtype] - 52)


def _domain(function: str, dtype: str) -> tuple[float, float]:
    info = ml_dtypes.finfo(_NUMPY[dtype])
    if function == "exp":
        return math.log(float(info.tiny)), math.log(float(info.max))
    return float(info.tiny), float(info.max)


def sweep_intervals(function: str, dtype: str) -> list[tuple[float, float, int]]:
    """The intervals `(lo, hi, stride)` swept for a function in a dtype (every `stride`-th float in [lo, hi]).

    **Arguments:**

    - `function`: `exp` or `log`.
    - `dtype`: one of `SWEPT_DTYPES`.

    **Returns:**

    The intervals; for float16/bfloat16 one interval, the whole finite domain, stride 1.
    """
    lo, hi = _domain(function, dtype)
    if dtype != "float32":
        return [(lo, hi, 1)]
    if function == "exp":
        return [(lo, lo + 8, 1), (hi - 8, hi, 1), (-1.0, 1.0, 97), (lo, hi, _STRIDE)]
    return [(lo, 4 * lo, 1), (0.25, 4.0, 1), (hi / 4, hi, 1), (lo, hi, _STRIDE)]


def _floats(lo: float, hi: float, stride: int, dtype: str) -> np.ndarray:
    """Every `stride`-th float of the dtype in [lo, hi], as float64 (ordered through the bit patterns)."""
    kind, bits = _NUMPY[dtype], _BITS[dtype]
    top = np.iinfo(bits).max >> 1  # the sign bit off
    pieces = []
    for sign, a, b in ((1.0, max(lo, 0.0), hi), (-1.0, max(-hi, 0.0), -lo)):
        if b < a or (sign < 0 and lo >= 0):
            continue
        start = int(np.array(a, kind).view(bits))
        stop = int(np.array(b, kind).view(bits))
        codes = np.arange(start, min(stop, top) + 1, stride, dtype=np.int64).astype(bits)
        values = sign * codes.view(kind).astype(np.float64)
        pieces.append(values[(values >= lo) & (values <= hi) & np.isfinite(values)])
    return np.unique(np.concatenate(pieces)) if pieces else np.zeros(0)


def sweep(function: str, dtype: str, arguments: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The relative error of JAX's `function` in `dtype` at each argument, in units u, reference error included.

    **Arguments:**

    - `function`: `exp` or `log`.
    - `dtype`: one of `SWEPT_DTYPES`.
    - `arguments`: float64 values exact in the dtype.

    **Returns:**

    `(units, arguments)` for the arguments whose exact result is a finite normal number of the dtype (a result
    that overflows the dtype's range where the exact one does not counts as infinitely many units).
    """
    import jax
    import jax.numpy as jnp

    info = ml_dtypes.finfo(_NUMPY[dtype])
    with jax.enable_x64(True):
        got = np.asarray(getattr(jnp, function)(jnp.asarray(arguments).astype(getattr(jnp, dtype))).astype(jnp.float64))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        exact = getattr(np, function)(arguments)
        keep = np.isfinite(exact) & (np.abs(exact) < float(info.max)) & (np.abs(exact) >= float(info.tiny))
        units = np.abs(got - exact) / np.abs(exact) / 2.0 ** -_PRECISION[dtype] + reference_units(dtype)
    units = np.where(np.isfinite(got), units, np.inf)
    return units[keep], arguments[keep]


def sweep_table(function: str, dtype: str, *, chunk: int = 2**22) -> dict[str, Any]:
    """The largest error over every interval of `sweep_intervals(function, dtype)`.

    **Returns:**

    `{"measured_units", "worst_argument", "arguments", "intervals": [[lo, hi, stride], ...]}`.
    """
    worst, where, count = -math.inf, math.nan, 0
    for lo, hi, stride in sweep_intervals(function, dtype):
        values = _floats(lo, hi, stride, dtype)
        for start in range(0, values.size, chunk):
            units, kept = sweep(function, dtype, values[start : start + chunk])
            count += int(units.size)
            if units.size and float(units.max()) > worst:
                index = int(np.argmax(units))
                worst, where = float(units[index]), float(kept[index])
    return {
        "measured_units": worst,
        "worst_argument": where,
        "arguments": count,
        "intervals": [list(i) for i in sweep_intervals(function, dtype)],
    }
