"""The measured accuracy of cos, sin, exp, log and sqrt on this backend (JAX/XLA on CPU), per dtype: the one
table the error model takes library errors from.

Nothing is assumed about a library's accuracy that is not measured here. `measure_table()` evaluates each function
in float16, bfloat16, float32 and float64 on a fixed argument set and compares with mpmath (enough bits for the
argument's exponent, then exact); the committed `library_accuracy.json` holds, per function and dtype:

- `measured_units`: the largest error seen, in units u of the dtype: **absolute** for cos and sin (values in
  [−1, 1], the form the model uses), **relative** for `sin_small` (sin on |x| ≤ 1, where the model uses a
  relative rule), exp, log and sqrt. Results whose exact value is below the smallest normal number are left to
  the underflow term (`flushes_subnormals`).
- `allowed_units`: what the model uses: the measurement plus `MARGIN_UNITS` (1/8), rounded up to a half unit.
- `worst_argument`: where the measured maximum occurred.

Plus `numpy_float64`: NumPy's float64 cos and sin, which the fast reference (`reference_cos_sin`) uses.

Plus `flushes_subnormals` per dtype: whether XLA on CPU flushes subnormal inputs and results to zero (it does for
bfloat16, float32 and float64; float16 is computed in float32 and keeps its subnormals).

**The argument set** (`hard_arguments`): for cos/sin, every float of the dtype closest to a multiple of π/2 found
from the continued-fraction convergents of (π/2)·2⁻ᵉ for every exponent e in the dtype's range (the hardest cases
for range reduction), plus values near ±1 crossings; for exp, the float64 table-maker's hard case
0.3534870638018166 and its neighbours, 512 consecutive floats at each end of the finite range (float64; for log
the 512 floats on either side of 1, below 2 and at both ends); for all, a fixed-seed sample spread
log-uniformly over the dtype's range. The `exp` and `log` rows of float16, bfloat16 and float32 also take the
maximum over the vectorised sweeps of `library_sweep` (every float of the whole finite domain in float16 and
bfloat16; in float32 the ends and the binades around 1 in full, the rest every 61st float): a sample alone missed
float32 `exp` near 88.72 (5.52 u) and `log` on [1, 2) (2.05 u). Regenerate the table with

    python -m numeric.reference.library_accuracy --write

and `tests/test_library_accuracy.py` re-measures it (and draws more arguments with hypothesis) and fails when a
measurement exceeds `allowed_units`.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

__all__ = [
    "FUNCTIONS",
    "TABLE_PATH",
    "allowed_units",
    "flushes_subnormals",
    "hard_arguments",
    "load_table",
    "measure_errors",
    "measure_table",
    "merge_sweeps",
    "numpy_float64_trig_units",
]

TABLE_PATH = Path(__file__).with_name("library_accuracy.json")
FUNCTIONS = ("cos", "sin", "sin_small", "exp", "log", "sqrt")
_DTYPES = ("float16", "bfloat16", "float32", "float64")
_PRECISION = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
_RANDOM_SAMPLES = 3000
#: The float64 exp argument where a correctly rounded result is hardest to reach (Lefèvre–Muller worst cases).
EXP_HARD_FLOAT64 = 0.3534870638018166


@functools.cache
def _numpy_types() -> dict[str, Any]:
    """The NumPy type of each dtype name. ml_dtypes (bfloat16) loads here, when a measurement needs it: reading the
    committed table (`allowed_units`, what the tolerance model and `audit-config` use) never does (issue #32)."""
    import ml_dtypes

    return {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16, "float32": np.float32, "float64": np.float64}


def _finfo(dtype: str) -> Any:
    import ml_dtypes

    return ml_dtypes.finfo(_numpy_types()[dtype])


def _in_dtype(values: np.ndarray, dtype: str) -> np.ndarray:
    with np.errstate(over="ignore"):
        stored = np.asarray(values, dtype=np.float64).astype(_numpy_types()[dtype]).astype(np.float64)
    return np.unique(stored[np.isfinite(stored)])


def _near_multiples_of_half_pi(dtype: str) -> list[float]:
    precision = _PRECISION[dtype]
    info = _finfo(dtype)
    top = math.floor(math.log2(float(info.max)))
    out: list[float] = []
    for exponent in range(-precision - 2, top - precision + 2):
        with mpmath.workprec(abs(exponent) + precision + 200):
            x = mpmath.pi / 2 / mpmath.mpf(2) ** exponent
            h_previous, h = 0, 1
            for _ in range(80):
                a = int(mpmath.floor(x))
                h_previous, h = h, a * h + h_previous
                if h >= 2**precision:
                    break
                out.append(float(mpmath.ldexp(h, exponent)))
                fraction = x - a
                if fraction == 0:
                    break
                x = 1 / fraction
    return out


def _log_uniform(dtype: str, rng: np.random.Generator, low_exponent: float, high_exponent: float) -> np.ndarray:
    magnitudes = 2.0 ** rng.uniform(low_exponent, high_exponent, _RANDOM_SAMPLES)
    return magnitudes * rng.choice([-1.0, 1.0], _RANDOM_SAMPLES)


def _consecutive(start: float, direction: int, count: int = 512) -> np.ndarray:
    """`count` consecutive float64 values from the float nearest `start`, stepping up (+1) or down (−1)."""
    codes = np.array(start, np.float64).view(np.int64) + direction * np.arange(count, dtype=np.int64)
    return codes.view(np.float64)


def merge_sweeps(table: dict[str, Any]) -> dict[str, Any]:
    """Fold the whole-domain sweeps of `library_sweep` into the table's `exp` and `log` rows (issue 23, point 2):
    the row keeps the larger of the two measurements, its allowance follows it, and `sweep` says what was swept.

    **Arguments:**

    - `table`: a table as `measure_table` builds it (changed in place).

    **Returns:**

    The table.
    """
    from .library_sweep import SWEPT_DTYPES, sweep_table

    for function in ("exp", "log"):
        for dtype in SWEPT_DTYPES:
            row, swept = table["functions"][function][dtype], sweep_table(function, dtype)
            if swept["measured_units"] > row["measured_units"]:
                row["measured_units"], row["worst_argument"] = swept["measured_units"], swept["worst_argument"]
            row["allowed_units"] = _allowed(row["measured_units"])
            row["sweep"] = {key: swept[key] for key in ("arguments", "intervals", "measured_units")}
    return table


def hard_arguments(function: str, dtype: str) -> np.ndarray:
    """The fixed argument set of one function in one dtype (module docstring), values exact in the dtype.

    **Arguments:**

    - `function`: one of `FUNCTIONS`.
    - `dtype`: float16, bfloat16, float32 or float64.

    **Returns:**

    float64 array of distinct arguments, each representable in the dtype.
    """
    info = _finfo(dtype)
    rng = np.random.default_rng(sum(map(ord, function + dtype)))
    largest_exponent = math.log2(float(info.max))
    smallest_exponent = math.log2(float(info.tiny))
    if function in {"cos", "sin"}:
        near = np.array(_near_multiples_of_half_pi(dtype))
        spread = _log_uniform(dtype, rng, smallest_exponent, largest_exponent)
        dense = rng.uniform(-64, 64, _RANDOM_SAMPLES)
        values = np.concatenate([near, -near, spread, dense])
    elif function == "sin_small":
        values = np.concatenate([_log_uniform(dtype, rng, smallest_exponent, 0.0), rng.uniform(-1, 1, 1000)])
        values = values[np.abs(values) <= 1]
    elif function == "exp":
        high = math.log(float(info.max))
        low = math.log(float(info.tiny))
        values = np.concatenate(
            [rng.uniform(low, high, _RANDOM_SAMPLES), _log_uniform(dtype, rng, smallest_exponent, math.log2(high))]
        )
        if dtype == "float64":
            ends = np.concatenate([_consecutive(high, -1), _consecutive(low, 1)])
            values = np.concatenate([values, EXP_HARD_FLOAT64 + np.arange(-64, 65) * 2.0**-54, ends])
    elif function == "log":
        values = np.concatenate(
            [np.abs(_log_uniform(dtype, rng, smallest_exponent, largest_exponent)), 1 + rng.uniform(-0.5, 0.5, 500)]
        )
        if dtype == "float64":  # the binades next to 1 and the ends of the range, float by float
            ends = [_consecutive(1.0, 1), _consecutive(1.0, -1), _consecutive(2.0, -1)]
            ends += [_consecutive(float(info.max), -1), _consecutive(float(info.tiny), 1)]
            values = np.concatenate([values, *ends])
    elif function == "sqrt":
        values = np.abs(_log_uniform(dtype, rng, smallest_exponent, largest_exponent))
    else:
        raise ValueError(f"unknown function {function!r}; known: {', '.join(FUNCTIONS)}")
    return _in_dtype(values, dtype)


def _exact(function: str, x: float) -> mpmath.mpf:
    name = "sin" if function == "sin_small" else function
    with mpmath.workprec(max(0, math.frexp(x)[1]) + 120):
        return getattr(mpmath, name)(mpmath.mpf(x))


def measure_errors(
    function: str, dtype: str, arguments: np.ndarray, *, library: str = "jax"
) -> tuple[np.ndarray, np.ndarray]:
    """The error of JAX's `function` in `dtype` at each argument, in units u (absolute or relative, as above).

    **Arguments:**

    - `function`: one of `FUNCTIONS`.
    - `dtype`: float16, bfloat16, float32 or float64.
    - `arguments`: float64 values (rounded into the dtype first).
    - `library`: `jax` (XLA on CPU), or `numpy` for the float64 cos/sin the reference uses.

    **Returns:**

    `(units, arguments)` for the arguments (normal, unless the dtype keeps subnormals) whose exact result is a
    normal finite number of the dtype.
    """
    import jax
    import jax.numpy as jnp

    name = "sin" if function == "sin_small" else function
    info = _finfo(dtype)
    # Arguments are rounded into the dtype first (the function sees that value); subnormal arguments of a dtype
    # the backend flushes are read as 0 and left to the model's input term (`input_error`).
    arguments = _in_dtype(np.asarray(arguments, dtype=np.float64), dtype)
    if library == "jax" and _flushes(dtype):
        arguments = arguments[(arguments == 0) | (np.abs(arguments) >= float(info.tiny))]
    if library == "numpy":
        computed = getattr(np, name)(np.asarray(arguments, dtype=_numpy_types()[dtype])).astype(np.float64)
    else:
        with jax.enable_x64(True):
            computed = getattr(jnp, name)(jnp.asarray(arguments, jnp.float64).astype(getattr(jnp, dtype)))
            computed = np.asarray(computed.astype(jnp.float64))
    u = 2.0 ** -_PRECISION[dtype]
    units, kept = [], []
    relative = function not in {"cos", "sin"}
    for x, got in zip(arguments, computed, strict=True):
        exact = _exact(function, float(x))
        if not mpmath.isfinite(exact) or abs(exact) >= float(info.max):
            continue
        if relative and abs(exact) < float(info.tiny):
            continue  # the underflow term covers results below the smallest normal number
        error = abs(mpmath.mpf(float(got)) - exact)
        scale = abs(exact) if relative else 1
        units.append(float(error / scale) / u if math.isfinite(got) else math.inf)
        kept.append(float(x))
    return np.array(units), np.array(kept)


@functools.cache
def _flushes(dtype: str) -> bool:
    import jax
    import jax.numpy as jnp

    subnormal = float(_finfo(dtype).smallest_subnormal)
    with jax.enable_x64(True):
        jax_dtype = getattr(jnp, dtype)
        product = jnp.asarray(subnormal * 4, jnp.float64).astype(jax_dtype) * jnp.asarray(0.5, jax_dtype)
        return bool(float(product.astype(jnp.float64)) == 0.0)


#: Margin above the measured maximum, in units u, before rounding up to a half unit: the worst argument of a
#: function may lie between the measured ones (float16's cos is float32's, rounded: up to 0.5 + 2⁻¹³·0.54 units).
MARGIN_UNITS = 0.125


def _allowed(measured: float) -> float:
    """The measurement plus `MARGIN_UNITS`, rounded up to the next half unit."""
    return math.ceil(2 * (measured + MARGIN_UNITS)) / 2


def measure_table() -> dict[str, Any]:
    """Measure every function in every dtype on its argument set (`hard_arguments`).

    **Returns:**

    The table (shape in the module docstring), JSON-ready.
    """
    import jax

    table: dict[str, Any] = {
        "backend": f"jax {jax.__version__} on {jax.default_backend()}",
        "units": "u of the dtype; absolute for cos and sin, relative for sin_small, exp, log, sqrt",
        "flushes_subnormals": {dtype: _flushes(dtype) for dtype in _DTYPES},
        "functions": {},
    }
    for function in FUNCTIONS:
        row: dict[str, Any] = {}
        for dtype in _DTYPES:
            units, arguments = measure_errors(function, dtype, hard_arguments(function, dtype))
            worst = int(np.argmax(units))
            measured = float(units[worst])
            row[dtype] = {
                "measured_units": measured,
                "allowed_units": _allowed(measured),
                "worst_argument": float(arguments[worst]),
                "arguments": int(units.size),
            }
        table["functions"][function] = row
    numpy_row: dict[str, Any] = {}
    for function in ("cos", "sin"):
        units, arguments = measure_errors(function, "float64", hard_arguments(function, "float64"), library="numpy")
        worst = int(np.argmax(units))
        numpy_row[function] = {
            "measured_units": float(units[worst]),
            "allowed_units": _allowed(float(units[worst])),
            "worst_argument": float(arguments[worst]),
            "arguments": int(units.size),
        }
    table["numpy_float64"] = numpy_row
    return merge_sweeps(table)


@functools.cache
def load_table() -> dict[str, Any]:
    """The committed table (`library_accuracy.json`)."""
    return json.loads(TABLE_PATH.read_text())


def allowed_units(function: str, dtype: str) -> float:
    """The error of one library call the model allows, in units u (absolute for cos/sin, else relative).

    **Arguments:**

    - `function`: one of `FUNCTIONS`.
    - `dtype`: float16, bfloat16, float32 or float64.

    **Returns:**

    `allowed_units` from the committed table.
    """
    return float(load_table()["functions"][function][dtype]["allowed_units"])


def numpy_float64_trig_units() -> float:
    """NumPy's float64 cos/sin allowance in units 2⁻⁵³ (absolute): the reference's `reference_cos_sin` uses it."""
    row = load_table()["numpy_float64"]
    return max(float(row["cos"]["allowed_units"]), float(row["sin"]["allowed_units"]))


def flushes_subnormals(dtype: str) -> bool:
    """Whether this backend flushes subnormal inputs and results of the dtype to zero (measured, committed)."""
    return bool(load_table()["flushes_subnormals"][dtype])


def main(argv: list[str] | None = None) -> int:
    """`python -m numeric.reference.library_accuracy [--write]`: print (or write) the measured table."""
    parser = argparse.ArgumentParser(prog="python -m numeric.reference.library_accuracy")
    parser.add_argument("--write", action="store_true", help=f"write {TABLE_PATH.name} next to this module")
    args = parser.parse_args(argv)
    text = json.dumps(measure_table(), indent=2) + "\n"
    if args.write:
        TABLE_PATH.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
