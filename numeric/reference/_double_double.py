"""Error-free transformations on float64 NumPy arrays: the few primitives double-double arithmetic needs.

NumPy has no fused multiply-add ufunc and no maintained double-double package is part of the project's
dependencies (`numpy-quaddtype` would provide a vectorised 113-bit dtype, but it is not installed), so the
classic FMA-free algorithms are written out here (Dekker 1971; Knuth, TAOCP vol. 2, 4.2.2; Shewchuk 1997):

- `two_sum(a, b)` returns `s, e` with `s = fl(a + b)` and `a + b = s + e` exactly;
- `fast_two_sum(a, b)` is the same when `|a| ≥ |b|`, with fewer operations;
- `two_product(a, b)` returns `p, e` with `p = fl(a·b)` and `a·b = p + e` exactly, by Veltkamp splitting each
  factor into two 26-bit halves.

All are exact as long as nothing overflows or underflows (inputs here are angles, frequencies and positions,
far from both limits). Each works elementwise on broadcastable arrays.
"""

from __future__ import annotations

import numpy as np

# Veltkamp's constant 2^27 + 1 splits a 53-bit significand into two halves of at most 26 bits each, so that
# every partial product of the halves is exact in float64.
_SPLITTER = float(2**27 + 1)


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's branch-free exact sum.

    **Arguments:**

    - `a`, `b`: float64 arrays (broadcastable).

    **Returns:**

    `(s, e)`: `s = fl(a + b)` and the rounding error `e`, so that `a + b = s + e` exactly.
    """
    s = a + b
    b_virtual = s - a
    a_virtual = s - b_virtual
    return s, (a - a_virtual) + (b - b_virtual)


def fast_two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's exact sum, valid when `|a| ≥ |b|` elementwise (or `a` is zero).

    **Arguments:**

    - `a`, `b`: float64 arrays (broadcastable) with `|a| ≥ |b|`.

    **Returns:**

    `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly.
    """
    s = a + b
    return s, b - (s - a)


def split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp's split of each float64 into two non-overlapping halves of at most 26 significant bits.

    **Arguments:**

    - `a`: float64 array with `|a| < 2^996` (so the scaled copy cannot overflow).

    **Returns:**

    `(high, low)` with `a = high + low` exactly.
    """
    scaled = _SPLITTER * a
    high = scaled - (scaled - a)
    return high, a - high


def two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's exact product without FMA.

    **Arguments:**

    - `a`, `b`: float64 arrays (broadcastable), products far from overflow and underflow.

    **Returns:**

    `(p, e)` with `p = fl(a·b)` and `a·b = p + e` exactly.
    """
    p = a * b
    a_high, a_low = split(a)
    b_high, b_low = split(b)
    e = ((a_high * b_high - p) + a_high * b_low + a_low * b_high) + a_low * b_low
    return p, e


def accumulate(terms: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Sum float64 arrays into one double-double `(high, low)`, largest term first.

    Each term is added with `two_sum` and the running error is renormalised with `fast_two_sum`, so the
    result is within about `2^-104 · max|partial sum|` of the exact sum (Shewchuk's accumulation; the
    terms callers pass are ordered by decreasing magnitude, which keeps the partial sums near the result).

    **Arguments:**

    - `terms`: float64 arrays of one broadcastable shape, in order of decreasing magnitude.

    **Returns:**

    `(high, low)`: the sum as a normalised double-double (`|low| ≤ ulp(high)/2`).
    """
    high = terms[0]
    low = np.zeros_like(high)
    for term in terms[1:]:
        high, error = two_sum(high, term)
        high, low = fast_two_sum(high, error + low)
    return high, low
