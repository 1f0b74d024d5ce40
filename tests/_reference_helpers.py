"""Shared pieces for the reference and tolerance tests: the mpmath validation helper, pinned positions, dtypes
and hypothesis strategies whose float widths match the dtype under test."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import mpmath
import numpy as np
from hypothesis import strategies as st
from ropecheck.numeric.reference import DoubleDouble, mpmath_angles_mod_2pi
from ropecheck.numeric.reference.tolerances import REFERENCE_ANGLE_ABS_ERROR, largest_finite

#: Positions where precision changes: exact-integer limits of bfloat16 (256), float16 (2048), float16's largest
#: finite value, float32's limit, a typical long context, and the largest int32.
PINNED_POSITIONS = (0, 1, 256, 257, 2048, 2049, 65504, 2**24, 10**6, 2**31 - 1)

NUMPY_DTYPES: dict[str, np.dtype] = {
    "float16": np.dtype(np.float16),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
}

#: Hypothesis float widths: bfloat16 values are drawn as float32 and rounded (hypothesis has no bfloat16).
_WIDTHS = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}

AngleFunction = Callable[[np.ndarray, int, str], DoubleDouble]


def as_dtype(values: object, dtype: str) -> np.ndarray:
    """`values` as an array of the named dtype, checked to really have it."""
    array = np.asarray(values, dtype=NUMPY_DTYPES[dtype])
    assert array.dtype == NUMPY_DTYPES[dtype], (array.dtype, dtype)
    return array


def floats_in(dtype: str, low: float, high: float) -> st.SearchStrategy[float]:
    """Finite, normal floats in [low, high] (clipped to the dtype's range) that are exact in the dtype."""
    largest = largest_finite(dtype)
    strategy = st.floats(
        max(low, -largest),
        min(high, largest),
        width=_WIDTHS[dtype],
        allow_nan=False,
        allow_infinity=False,
        allow_subnormal=False,
    )
    return strategy.map(lambda value: float(as_dtype(value, dtype)))


def assert_angles_match_mpmath(
    compute: AngleFunction,
    positions: Sequence[int],
    d: int,
    base: str = "10000",
    *,
    tolerance: float = REFERENCE_ANGLE_ABS_ERROR,
) -> float:
    """Check a reference for p·θᵢ mod 2π against mpmath at 50 digits, scipy-style.

    **Arguments:**

    - `compute`: `(positions, d, base) -> DoubleDouble` of shape `(L, d/2)`, the reference under test.
    - `positions`, `d`, `base`: the grid.
    - `tolerance`: the largest absolute error allowed (differences are measured on the circle).

    **Returns:**

    The largest error found. Raises `AssertionError` listing every bad point (position, index, got, wanted,
    difference) when any exceeds the tolerance.
    """
    position_array = np.asarray(positions, dtype=np.int64)
    angles = compute(position_array, d, base)
    assert angles.hi.dtype == np.float64 and angles.lo.dtype == np.float64
    assert angles.shape == (len(positions), d // 2)
    wanted = mpmath_angles_mod_2pi(position_array, d, base, dps=50)
    bad, worst = [], 0.0
    with mpmath.workdps(60):
        two_pi = 2 * mpmath.pi
        for row, position in enumerate(positions):
            for index in range(d // 2):
                got = angles.to_mpmath((row, index))
                difference = got - wanted[row][index]
                difference -= two_pi * mpmath.floor((difference + mpmath.pi) / two_pi)
                worst = max(worst, float(abs(difference)))
                if abs(difference) > tolerance:
                    bad.append(f"p={position} i={index}: got {got}, wanted {wanted[row][index]}, diff {difference}")
    assert not bad, f"{len(bad)} angles off by more than {tolerance:g}:\n" + "\n".join(bad[:20])
    return worst
