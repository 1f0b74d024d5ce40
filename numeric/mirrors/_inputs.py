"""Inputs of the mirrors: values rounded into a format, points sampled from a symbol's domain, exact points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp

from ._bounds import _NUMPY_DTYPES
from ._program import NotEvaluable

__all__ = ["draw_points", "store_in"]


def store_in(values: np.ndarray, fmt: str) -> np.ndarray:
    """Round values (real or complex) into a format and back to float64/complex128, exactly.

    Values beyond the format's range become ±inf; the caller drops such cases (out of the dtype's range).
    """
    values = np.asarray(values)
    if fmt == "mpmath":
        return values.astype(np.complex128) if np.iscomplexobj(values) else values.astype(np.float64)
    numpy_dtype = _NUMPY_DTYPES[fmt]
    with np.errstate(over="ignore"):
        real = values.real.astype(np.float64).astype(numpy_dtype).astype(np.float64)
        if np.iscomplexobj(values):
            return real + 1j * values.imag.astype(np.float64).astype(numpy_dtype).astype(np.float64)
        return real


def draw_points(
    symbols: Sequence[sp.Symbol], cases: int, seed: int, *, position_limit: int = 256
) -> dict[sp.Symbol, np.ndarray]:
    """Sample points from each symbol's domain (its SymPy assumptions), deterministically.

    Integers: positions in [−`position_limit`, `position_limit`], non-negative indices in [0, 7], positive
    counts in [1, `position_limit`], even dimensions in {2, …, 16}. Positive reals in [1/64, 1] (frequencies,
    scales), reals in [−2, 2], complex numbers with both parts in [−2, 2].

    **Arguments:**

    - `symbols`: the program's inputs.
    - `cases`: how many points.
    - `seed`: the random seed.
    - `position_limit`: the largest |position|; `compare` passes a sixteenth of the dtype's exact-integer limit
      (at most 256), so sums of positions stay exact and angles informative (larger positions are the subject
      of `ropecheck.numeric.mirrors.precision_limits`).

    **Returns:**

    symbol → float64 (complex128 for complex symbols) array of length `cases`.
    """
    rng = np.random.default_rng(seed)
    points: dict[sp.Symbol, np.ndarray] = {}
    for symbol in symbols:
        if symbol.is_integer:
            if symbol.is_even and symbol.is_positive:
                values = 2.0 * rng.integers(1, 9, cases)
            elif symbol.is_positive:
                values = rng.integers(1, position_limit + 1, cases).astype(np.float64)
            elif symbol.is_nonnegative:
                values = rng.integers(0, 8, cases).astype(np.float64)
            else:
                values = rng.integers(-position_limit, position_limit + 1, cases).astype(np.float64)
        elif symbol.is_positive:
            values = rng.uniform(1 / 64, 1, cases)
        elif symbol.is_real:
            values = rng.uniform(-2, 2, cases)
        else:
            values = rng.uniform(-2, 2, cases) + 1j * rng.uniform(-2, 2, cases)
        points[symbol] = values
    return points


def _point_values(point: Mapping[str, str], symbols: Sequence[sp.Symbol]) -> dict[sp.Symbol, np.ndarray]:
    """An exact counterexample/witness point (SymPy strings) as one-case input arrays."""
    by_name = {str(k): sp.sympify(v) for k, v in point.items()}
    values: dict[sp.Symbol, np.ndarray] = {}
    for symbol in symbols:
        if str(symbol) not in by_name:
            raise NotEvaluable(f"the point does not fix {symbol}")
        values[symbol] = np.array([complex(sp.N(by_name[str(symbol)], 30))])
        if symbol.is_real:
            values[symbol] = values[symbol].real
    return values
