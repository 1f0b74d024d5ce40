"""Reference math for the audited encodings other than RoPE: sinusoidal tables, T5 buckets, ALiBi slopes, Shaw clipping.

One place for each formula the `sinusoidal`, `bias` and `scores` audit kinds compare against:

- **Sinusoidal tables** (Vaswani et al. 2017, §3.5; SPE-FREQUENCY-004, SPE-WAVELENGTH-RANGE): ωᵢ for the two
  frequency schemes in use, held in three float64 limbs (`ropecheck.numeric._reference.DoubleDouble`), and the table
  itself through the double-double angle reduction of `ropecheck.numeric._reference` (p·ωᵢ mod 2π to 1e−25):
  - `standard`: ωᵢ = base^(−2i/d), i = 0…d/2−1 (the seeds, Vaswani et al., Hugging Face Marian, x-transformers);
  - `t2t`: tensor2tensor's `get_timing_signal_1d` (also fairseq and Hugging Face M2M100/Speech2Text):
    ωᵢ = base^(−i/(n−1)), n = d/2, log-spaced timescales from 1 to base, so the last one is exactly 1/base.
  - layouts: `interleaved` (PE[p, 2i] = sin, PE[p, 2i+1] = cos) and `concat` (all sines, then all cosines).
- **T5 relative buckets** (Raffel et al. 2020; mesh-tensorflow `_relative_position_bucket`, copied by
  transformers' `T5Attention._relative_position_bucket`): for r = k − q, an exact region |r| < max_exact, log
  buckets up to max_distance, clamped at the last bucket; bidirectional: half the buckets for r > 0. The floor of
  the log formula is decided in exact integer arithmetic; where the real value is an integer, a float32 log may
  land on either side, so both neighbours are returned.
- **ALiBi slopes** (Press et al. 2022, `get_slopes` in github.com/ofirpress/attention_with_linear_biases):
  geometric 2^(−8k/n) for n a power of two; otherwise the slopes of the closest power of two 2^⌊log₂ n⌋ followed
  by every other slope of twice that power.
- **Shaw et al. 2018** relative keys: the distance j − i clipped to [−k, k].
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

import mpmath
import numpy as np
from ropecheck.numeric.reference import DoubleDouble, inverse_frequencies, reference_cos_sin
from ropecheck.numeric.reference._angles import _limbs

__all__ = [
    "LAYOUTS",
    "SCHEMES",
    "alibi_slope_exponents",
    "alibi_slopes",
    "naive_alibi_slopes",
    "shaw_clip",
    "sinusoidal_frequencies",
    "sinusoidal_table",
    "t5_buckets",
]

LAYOUTS = ("interleaved", "concat")
SCHEMES = ("standard", "t2t")
Scheme = Literal["standard", "t2t"]
Layout = Literal["interleaved", "concat"]
_DIGITS = 60


# ------------------------------------------------------------------------------------------------ sinusoidal
def sinusoidal_frequencies(d: int, base: float = 10000.0, scheme: str = "standard") -> DoubleDouble:
    """ωᵢ of a sinusoidal table of width d, i = 0…d/2−1, to about 159 bits.

    **Arguments:**

    - `d`: the table width, a positive even integer.
    - `base`: the base (10000 in the seeds); the largest wavelength is about 2π·base.
    - `scheme`: `"standard"` (base^(−2i/d)) or `"t2t"` (base^(−i/(d/2−1)), reaching exactly 1/base).

    **Returns:**

    A `DoubleDouble` of shape `(d/2,)`. Serves SPE-FREQUENCY-004 and SPE-WAVELENGTH-RANGE.
    """
    if scheme == "standard":
        return inverse_frequencies(d, base)
    if scheme != "t2t":
        raise ValueError(f"unknown frequency scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    if d <= 0 or d % 2:
        raise ValueError(f"the table width must be a positive even integer, got {d}")
    count = d // 2
    with mpmath.workdps(_DIGITS):
        step = mpmath.mpf(1) / max(count - 1, 1)
        omegas = [mpmath.mpf(base) ** (-i * step) for i in range(count)]
        limbs = [_limbs(value) for value in omegas]
    hi, lo, tail = (np.array(column, dtype=np.float64) for column in zip(*limbs, strict=True))
    return DoubleDouble(hi=hi, lo=lo, tail=tail)


def arrange_pairs(sines: np.ndarray, cosines: np.ndarray, layout: str) -> np.ndarray:
    """Put per-frequency sines and cosines `(L, n)` into a table `(L, 2n)` of the given layout."""
    if layout == "concat":
        return np.concatenate([sines, cosines], axis=-1)
    if layout != "interleaved":
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    table = np.empty((sines.shape[0], 2 * sines.shape[1]), dtype=np.float64)
    table[:, 0::2], table[:, 1::2] = sines, cosines
    return table


def sinusoidal_table(
    positions: np.ndarray, d: int, base: float = 10000.0, scheme: str = "standard", layout: str = "interleaved",
    offset: int = 0,
) -> np.ndarray:
    """The exact table rows PE(p + offset) for integer positions, rounded once to float64.

    **Arguments:**

    - `positions`: integer array `(L,)`.
    - `d`, `base`, `scheme`: as for `sinusoidal_frequencies`.
    - `layout`: `"interleaved"` or `"concat"`.
    - `offset`: added to every position (fairseq-style tables start at padding_idx + 1).

    **Returns:**

    float64 array `(L, d)`, each entry within `tolerances.REFERENCE_COS_SIN_ABS_ERROR` of the exact value.
    """
    shifted = np.asarray(positions, dtype=np.int64) + int(offset)
    cos, sin = reference_cos_sin(shifted, sinusoidal_frequencies(d, base, scheme))
    return arrange_pairs(sin, cos, layout)


# ------------------------------------------------------------------------------------------------ T5 buckets
def _log_floor(n: int, max_exact: int, max_distance: int, span: int) -> tuple[int, bool]:
    """⌊span·log(n/max_exact)/log(max_distance/max_exact)⌋ exactly, and whether the real value is an integer.

    v ≥ k ⟺ (n/e)^span ≥ (D/e)^k ⟺ n^span·e^k ≥ D^k·e^span (integers; D > e ≥ 1, n ≥ e).
    """
    guess = math.floor(span * math.log(n / max_exact) / math.log(max_distance / max_exact))
    left = n**span

    def at_least(k: int) -> bool:
        return left * max_exact**k >= max_distance**k * max_exact**span if k >= 0 else True

    k = max(guess, 0)
    while not at_least(k):
        k -= 1
    while at_least(k + 1):
        k += 1
    exact = left * max_exact**k == max_distance**k * max_exact**span
    return k, exact


def t5_buckets(
    relative: np.ndarray, num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """The T5 bucket of each relative position r = k − q (Raffel et al.; mesh-tensorflow, transformers).

    **Arguments:**

    - `relative`: integer array of key position minus query position.
    - `num_buckets`, `max_distance`, `bidirectional`: the T5 configuration.

    **Returns:**

    `(bucket, alternative)`: integer arrays of `relative`'s shape. `alternative` equals `bucket` except where
    the log formula's real value is an integer (e.g. r = 16, 32, 64 for the defaults), where a float32 log may
    round below it: there it holds the bucket one lower, which an implementation may return as well.
    """
    relative = np.asarray(relative, dtype=np.int64)
    buckets = num_buckets // 2 if bidirectional else num_buckets
    if buckets < 2:
        raise ValueError(f"num_buckets must leave at least two buckets per direction, got {num_buckets}")
    max_exact = buckets // 2
    if max_distance <= max_exact:
        raise ValueError(f"max_distance ({max_distance}) must exceed the exact region ({max_exact})")
    upper = np.where(relative > 0, buckets, 0) if bidirectional else np.zeros_like(relative)
    n = np.abs(relative) if bidirectional else np.maximum(-relative, 0)
    bucket = n.copy()
    alternative = n.copy()
    span = buckets - max_exact
    large = n >= max_exact
    cache: dict[int, tuple[int, int]] = {}
    for index in np.flatnonzero(large.reshape(-1)):
        value = int(n.reshape(-1)[index])
        if value not in cache:
            if value >= max_distance:
                cache[value] = (buckets - 1, buckets - 1)
            else:
                k, exact = _log_floor(value, max_exact, max_distance, span)
                first = min(max_exact + k, buckets - 1)
                cache[value] = (first, min(max_exact + k - 1, buckets - 1) if exact and k > 0 else first)
        bucket.reshape(-1)[index], alternative.reshape(-1)[index] = cache[value]
    return bucket + upper, alternative + upper


# ------------------------------------------------------------------------------------------------ ALiBi slopes
def alibi_slope_exponents(heads: int) -> list[Fraction]:
    """e_h with slope_h = 2^(−e_h), head h = 0…heads−1, by Press et al.'s rule (exact rationals).

    **Arguments:**

    - `heads`: the number of attention heads (≥ 1).

    **Returns:**

    `heads` exponents: 8(h+1)/n for n a power of two; otherwise those of the closest power of two c below n,
    then 4(2j+1)/c for j = 0…n−c−1 (every other slope of 2c).
    """
    if heads < 1:
        raise ValueError(f"heads must be at least 1, got {heads}")
    closest = 2 ** math.floor(math.log2(heads))
    exponents = [Fraction(8 * (h + 1), closest) for h in range(closest)]
    exponents += [Fraction(8 * (2 * j + 1), 2 * closest) for j in range(heads - closest)]
    return exponents


def alibi_slopes(heads: int) -> np.ndarray:
    """Press et al.'s slopes 2^(−e_h) correctly rounded to float64 (see `alibi_slope_exponents`)."""
    with mpmath.workdps(_DIGITS):
        return np.array([float(mpmath.mpf(2) ** (-mpmath.mpf(e.numerator) / e.denominator))
                         for e in alibi_slope_exponents(heads)])


def naive_alibi_slopes(heads: int) -> np.ndarray:
    """The geometric 2^(−8(h+1)/n) for every n: Press et al.'s rule only when n is a power of two."""
    return np.array([2.0 ** (-8.0 * (h + 1) / heads) for h in range(heads)])


# ------------------------------------------------------------------------------------------------ Shaw et al.
def shaw_clip(relative: np.ndarray, clip: int) -> np.ndarray:
    """Shaw et al.'s clip(j − i, k) = max(−k, min(k, j − i)): the index into a table of 2k + 1 rows minus k."""
    return np.clip(np.asarray(relative, dtype=np.int64), -clip, clip)
