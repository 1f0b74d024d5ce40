"""ALiBi checks: the per-head slope and the form of the bias, against Press et al.

ALiBi adds m_h·(k − q) for past keys (k ≤ q): a penalty that grows with distance, m_h > 0. Implementations
write it as −m_h·|k − q| (symmetric; x-transformers), m_h·(k − q) with the future masked, or m_h·k (Bloom,
Falcon, MPT: a constant per query row away from the relative form, which softmax ignores). The slope of each head
is read from the past side, f_h(0) − f_h(−R) = m_h·R, and compared with `alibi_slopes(H)`.

Serves the `slopes` and `sign` properties (RPE-SHIFT-INVARIANCE).
"""

from __future__ import annotations

import numpy as np
from ropecheck.numeric._encoding_reference import alibi_slopes, naive_alibi_slopes

__all__ = ["SLOPE_FIXES", "describe_form", "explain_slopes", "measure_slopes", "slope_tolerance"]


def measure_slopes(values: np.ndarray, relative: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per head, m̂_h = (f(0) − f(−R))/R from the past side, and the largest misfit of the line m̂·r + f(0).

    **Arguments:**

    - `values`: `(H, len(relative))` bias values of one query row.
    - `relative`: r = k − q for each column; must include 0 and negative values.
    """
    zero = int(np.flatnonzero(relative == 0)[0])
    past = relative <= 0
    far = int(np.flatnonzero(relative == relative[past].min())[0])
    span = float(-relative[far])
    slopes = (values[:, zero] - values[:, far]) / span
    line = values[:, [zero]] + slopes[:, None] * relative[None, past]
    misfit = np.max(np.abs(values[:, past] - line), axis=1)
    return slopes, misfit


def slope_tolerance(values: np.ndarray, span: float, u_out: float, u_work: float) -> np.ndarray:
    """|m̂ − m| a conforming bias may show: the two values read (rounded to the output, formed in the work dtype)
    divided by the span, plus the slope's own computation (a few units of the work dtype)."""
    # Masked entries (−inf for future keys) are not values the slope is read from: ignore them.
    largest = np.max(np.where(np.isfinite(values), np.abs(values), 0.0), axis=1)
    return 4 * (u_out + 2 * u_work) * largest / span + 0.0


def describe_form(
    values: np.ndarray, relative: np.ndarray, slopes: np.ndarray, tolerance: np.ndarray, value_bound: np.ndarray
) -> str:
    """How the future side (k > q) is written: symmetric, same line (key-position form), masked, or other.

    `tolerance`: per head, the slope's uncertainty; `value_bound`: per entry, the rounding bound of two values.
    """
    future = relative > 0
    if not future.any():
        return "past only"
    zero = int(np.flatnonzero(relative == 0)[0])
    ahead = values[:, future] - values[:, [zero]]
    if np.all(np.isneginf(values[:, future])):
        return "causal (future masked with −inf)"
    scale = tolerance[:, None] * np.abs(relative[None, future]) + value_bound[:, future]
    if np.all(np.abs(ahead + slopes[:, None] * relative[None, future]) <= scale):
        return "symmetric −m·|k − q|"
    if np.all(np.abs(ahead - slopes[:, None] * relative[None, future]) <= scale):
        return "one line m·(k − q) (key-position form; the future is left to the causal mask)"
    return "other values for future keys"


#: The fix for each recognised slope defect (`explain_slopes` returns the key with its description).
SLOPE_FIXES = {
    "naive": "Use get_slopes(n) of Press et al.: for n not a power of two, the slopes of the closest power of two c,"
    " then get_slopes(2c)[0::2][: n − c]",
    "off by one": "Start the geometric sequence at 2^(−8/n): head h (from 0) gets 2^(−8(h + 1)/n)",
    "order": "Assign slope h to head h (Press et al.'s order: the largest slope first)",
    "sign": "Use positive slopes m on k − q for past keys (m·(k − q) ≤ 0)",
    "other": "Use get_slopes(n) of Press et al. (2^(−8(h + 1)/n) for a power of two n, the closest-power-of-two rule"
    " otherwise)",
}


def explain_slopes(measured: np.ndarray) -> tuple[str, str]:
    """Name what the measured slopes are instead of Press et al.'s, when recognisable.

    **Returns:**

    `(description, key)`, the key into `SLOPE_FIXES`.
    """
    heads = measured.size
    wanted = alibi_slopes(heads)
    power_of_two = heads & (heads - 1) == 0
    for shift in (-1, 1):
        shifted = np.array([2.0 ** (-8.0 * (h + 1 + shift) / heads) for h in range(heads)])
        if np.allclose(measured, shifted, rtol=1e-3):
            start = "h" if shift < 0 else "(h + 2)"
            return (f"2^(−8{start}/{heads}) for head h = 0…{heads - 1}: the exponent is off by one (Press et al. use"
                    f" 2^(−8(h + 1)/{heads}), head 0 gets {wanted[0]:.6g})", "off by one")
    if not power_of_two and np.allclose(measured, naive_alibi_slopes(heads), rtol=1e-3):
        return (f"the geometric 2^(−8(h+1)/{heads}) for all heads: Press et al. use the slopes of the closest power of "
                f"two ({2 ** int(np.floor(np.log2(heads)))}) and then every other slope of twice that", "naive")
    if np.allclose(measured, wanted[::-1], rtol=1e-3):
        return "Press et al.'s slopes in reverse head order", "order"
    if np.allclose(np.sort(measured), np.sort(wanted), rtol=1e-3):
        return "Press et al.'s slopes in another head order", "order"
    if np.allclose(measured, -wanted, rtol=1e-3):
        return "Press et al.'s slopes with the sign flipped", "sign"
    return "slopes that match no known rule", "other"
