"""The fast high-precision reference for RoPE angles: p·θᵢ reduced mod 2π, vectorised, to 1e−25 absolute.

Serves ROPE-FREQUENCIES (θᵢ = base^(−2i/d)), ROPE-RELATIVE-MATRIX and ROPE-PREFIX-REPHASE: the numeric mirrors
and the auditor compare float16/bfloat16/float32 rotations against `reference_cos_sin`, which needs the angle
p·θᵢ mod 2π far more accurately than float64 alone can give it (p·θ reaches 10⁶ and more, so a float64 product
already loses ~10⁻¹⁰ before any reduction).

How the accuracy is reached:

- **Frequencies in three float64 limbs.** θᵢ is computed with mpmath at 60 digits and split into
  `hi + lo + tail` (about 159 bits). Two limbs (106 bits) are not enough: at p = 2³¹ the representation error
  of θ alone would be 2³¹·2⁻¹⁰⁷ ≈ 10⁻²³.
- **Work in turns.** The frequencies are converted once (mpmath, O(d)) to τᵢ = θᵢ/2π, again in three limbs.
  Reducing p·τ mod 1 is exact in float64: subtracting the nearest integer from a float64 never rounds.
- **Exact products.** p is an integer (exact in float64 up to 2⁵³); p·τ_hi and p·τ_lo are formed without
  rounding by Dekker's product (Veltkamp splitting of both factors into 26-bit halves, so p > 2²⁶ is split
  too); p·τ_tail is far below the target and is rounded once.
- **Double-double accumulation** of the fractional parts (Knuth's two-sum), then one multiplication of the
  fraction of a turn, in [−½, ½], by 2π held in double-double (2π itself is kept in three limbs for the rare
  ±2π correction that makes the range exactly **[−π, π)**).

**The contract.** The error grows with the size of the product, about |p·θ|·2⁻¹⁶⁰ (the trailing limb of θ/2π
and the rounded p·τ_tail), on top of ~10⁻³¹. The 10⁻²⁵ guarantee (`tolerances.REFERENCE_ANGLE_ABS_ERROR`) holds

- for integer positions |p| ≤ 2⁵³ (the largest float64 holds exactly), and
- for frequencies with |p|·θ ≤ 2⁷³ ≈ 9.4·10²¹ (every RoPE frequency θ ≤ 1 at every such position; θ up to 10⁶
  at p = 2⁵³). Beyond, the error reaches 6·10⁻²⁵ at |p·θ| ≈ 10²⁴ (θ = 10⁸, p = 2⁵³) and 7·10⁻²³ at 10²⁶
  (θ = 10¹⁰): `angles_mod_2pi` raises `ValueError` there rather than return a value outside its guarantee.

Measured (`tests/test_reference.py`, at both edges and on the adversarial set `ADVERSARIAL_CASES`): ≤ 10⁻³⁰ for
|p·θ| ≤ 2³¹·θ with θ ≤ 1, ≤ 7·10⁻²⁷ at the edge |p·θ| = 2⁷³.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

import mpmath
import numpy as np

from ._double_double import accumulate, fast_two_sum, split, two_product, two_sum

_FREQUENCY_DIGITS = 60
# Angles per block: keeps the temporaries of a block (about ten float64 arrays) in cache-sized
# pieces instead of allocating them for all 10⁷ angles at once.
_ANGLES_PER_BLOCK = 1 << 14
_LARGEST_EXACT_POSITION = 2**53
#: The largest |p|·θ for which the 1e−25 guarantee holds (module docstring).
LARGEST_PRODUCT = 2.0**73


def _limbs(value: mpmath.mpf, count: int = 3) -> tuple[float, ...]:
    """Split a high-precision number into `count` non-overlapping float64 limbs, leading limb first."""
    limbs = []
    remainder = value
    for _ in range(count):
        limb = float(remainder)
        limbs.append(limb)
        remainder = remainder - limb
    return tuple(limbs)


with mpmath.workdps(_FREQUENCY_DIGITS):
    _TWO_PI = _limbs(2 * mpmath.pi)
    _PI_HIGH, _PI_LOW = _limbs(mpmath.pi, 2)
    _INVERSE_TWO_PI = float(1 / (2 * mpmath.pi))


@dataclasses.dataclass(frozen=True)
class DoubleDouble:
    """Float64 arrays whose sum `hi + lo (+ tail)` holds a value to about 106 (159) bits.

    **Fields:**

    - `hi`: float64 array, the value rounded to float64.
    - `lo`: float64 array of the same shape, the next 53 bits (`|lo| ≤ ulp(hi)/2`).
    - `tail`: optional third limb of the same shape; inverse frequencies carry it (see the module docstring),
      reduced angles and values built by `from_float64` leave it `None`, meaning zero.
    """

    hi: np.ndarray
    lo: np.ndarray
    tail: np.ndarray | None = None

    @classmethod
    def from_float64(cls, values: np.ndarray | Sequence[float]) -> DoubleDouble:
        """Take float64 values as exact, e.g. the inverse frequencies an implementation under audit uses.

        **Arguments:**

        - `values`: array-like of float64 values, taken exactly.

        **Returns:**

        A `DoubleDouble` with `hi = values`, `lo = 0`.
        """
        hi = np.array(values, dtype=np.float64)
        return cls(hi=hi, lo=np.zeros_like(hi))

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of every limb."""
        return self.hi.shape

    def limbs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The three limbs, with a missing `tail` given as zeros."""
        tail = np.zeros_like(self.hi) if self.tail is None else self.tail
        return self.hi, self.lo, tail

    def to_mpmath(self, index: int | tuple[int, ...]) -> mpmath.mpf:
        """The exact value of one element as an mpmath number (the limbs are added without rounding).

        **Arguments:**

        - `index`: an index into the arrays, e.g. `3` or `(row, column)`.

        **Returns:**

        `mpf(hi[index]) + mpf(lo[index]) + mpf(tail[index])`, exact.
        """
        with mpmath.workprec(3 * 1100):
            return sum((mpmath.mpf(float(limb[index])) for limb in self.limbs()), mpmath.mpf(0))


def _mpmath_inverse_frequencies(d: int, base: float | str, scale: Sequence[float] | None) -> list[mpmath.mpf]:
    """θᵢ = base^(−2i/d)·scaleᵢ at the current mpmath precision."""
    if d <= 0 or d % 2:
        raise ValueError(f"the head dimension d must be a positive even integer, got {d}")
    count = d // 2
    if scale is not None and len(scale) != count:
        raise ValueError(f"scale needs one multiplier per frequency ({count}), got {len(scale)}")
    multipliers = [mpmath.mpf(float(value)) for value in scale] if scale is not None else [mpmath.mpf(1)] * count
    base_value = mpmath.mpf(base)
    return [base_value ** (-mpmath.mpf(2 * i) / d) * multipliers[i] for i in range(count)]


def inverse_frequencies(d: int, base: float | str = 10000, *, scale: Sequence[float] | None = None) -> DoubleDouble:
    """The RoPE inverse frequencies θᵢ = base^(−2i/d), i = 0…d/2−1, to about 159 bits (ROPE-FREQUENCIES).

    **Arguments:**

    - `d`: the head dimension, a positive even integer.
    - `base`: the frequency base; a float is taken as its exact binary value, a string (e.g. `"500000"` or
      `"1e4"`) as the exact decimal.
    - `scale`: optional per-frequency multipliers, each taken as an exact float64 (for scaled variants such as
      linear position interpolation, pass `1/factor` for every frequency). To audit an implementation's own
      float64 frequencies exactly, use `DoubleDouble.from_float64` instead.

    **Returns:**

    A `DoubleDouble` of shape `(d/2,)` with all three limbs set.
    """
    with mpmath.workdps(_FREQUENCY_DIGITS):
        limbs = [_limbs(theta) for theta in _mpmath_inverse_frequencies(d, base, scale)]
    hi, lo, tail = (np.array(column, dtype=np.float64) for column in zip(*limbs, strict=True))
    return DoubleDouble(hi=hi, lo=lo, tail=tail)


def _turn_limbs(inv_freq: DoubleDouble) -> tuple[np.ndarray, ...]:
    """θ/2π for every frequency, in three float64 limbs (rows), plus the Veltkamp halves of the first two."""
    hi, lo, tail = (np.ascontiguousarray(limb, dtype=np.float64).tobytes() for limb in inv_freq.limbs())
    return _turn_limbs_of(hi, lo, tail)


@functools.lru_cache(maxsize=64)
def _turn_limbs_of(hi: bytes, lo: bytes, tail: bytes) -> tuple[np.ndarray, ...]:
    """`_turn_limbs` keyed by the exact bytes of θ's limbs: the mpmath conversion (O(d) at 60 digits) is done once
    per set of frequencies, not once per call (the audit asks for the same θ at every chunk of positions)."""
    frequencies = DoubleDouble(*(np.frombuffer(limb, dtype=np.float64) for limb in (hi, lo, tail)))
    with mpmath.workdps(_FREQUENCY_DIGITS):
        two_pi = 2 * mpmath.pi
        limbs = [_limbs(frequencies.to_mpmath(i) / two_pi) for i in range(frequencies.shape[0])]
    first, second, third = (np.array(column, dtype=np.float64).reshape(1, -1) for column in zip(*limbs, strict=True))
    turns = (first, *split(first), second, *split(second), third)
    for turn in turns:
        turn.flags.writeable = False  # shared between calls
    return turns


def _exact_product(
    position: tuple[np.ndarray, np.ndarray, np.ndarray], turn: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's product of positions (column) and turns (row), both given with their Veltkamp halves."""
    value, value_high, value_low = position
    factor, factor_high, factor_low = turn
    product = value * factor
    error = value_high * factor_high
    error -= product
    error += value_high * factor_low
    error += value_low * factor_high
    error += value_low * factor_low
    return product, error


def _reduce_block(position: tuple[np.ndarray, ...], turns: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
    """p·θ mod 2π for one block of positions (a column) against every frequency (a row), in [−π, π).

    Works in turns (θ/2π), where reducing mod 1 is exact: subtracting the nearest integer from a float64 never
    rounds. Only the final fraction of a turn is multiplied by 2π, in double-double.
    """
    first, first_high, first_low, second, second_high, second_low, third = turns
    leading, leading_error = _exact_product(position, (first, first_high, first_low))
    middle, middle_error = _exact_product(position, (second, second_high, second_low))
    leading -= np.rint(leading)
    # p·(second limb) stays below 2^-22 unless |p| is beyond 2^31; only then can it hold whole turns.
    if np.abs(middle).max(initial=0.0) >= 0.25:
        middle -= np.rint(middle)
    fraction, error = two_sum(leading, middle)
    fraction, error_more = two_sum(fraction, leading_error)
    error += error_more
    error += middle_error
    error += position[0] * third
    fraction, error = fast_two_sum(fraction, error)
    fraction -= np.rint(fraction)
    return _multiply_by_two_pi(fraction, error)


def _multiply_by_two_pi(fraction: np.ndarray, error: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fraction + error)·2π in double-double for fractions in [−½, ½], then ties at ±π moved to −π."""
    high, low = two_product(fraction, _TWO_PI[0])
    low += fraction * _TWO_PI[1]
    low += error * _TWO_PI[0]
    high, low = fast_two_sum(high, low)
    edge = np.flatnonzero(np.abs(high) >= _PI_HIGH)
    if edge.size:
        flat_high, flat_low = high.reshape(-1), low.reshape(-1)
        flat_high[edge], flat_low[edge] = _wrap_into_principal_range(flat_high[edge], flat_low[edge])
    return high, low


def _wrap_into_principal_range(high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Move values within 3π of the range into [−π, π) with one ±2π step in double-double."""
    above = (high > _PI_HIGH) | ((high == _PI_HIGH) & (low >= _PI_LOW))
    below = (high < -_PI_HIGH) | ((high == -_PI_HIGH) & (low < -_PI_LOW))
    step = below.astype(np.float64) - above.astype(np.float64)
    if not step.any():
        return high, low
    return accumulate([high, step * _TWO_PI[0], low, step * _TWO_PI[1], step * _TWO_PI[2]])


def angles_mod_2pi(positions: np.ndarray, inv_freq: DoubleDouble) -> DoubleDouble:
    """Every RoPE angle p·θᵢ reduced to [−π, π), in double-double, within 1e−25 absolute.

    **Arguments:**

    - `positions`: integer array of shape `(L,)`, |p| ≤ 2⁵³ (negative positions are allowed), and
      max|p|·max θ ≤ 2⁷³ (`LARGEST_PRODUCT`; the module docstring states the contract).
    - `inv_freq`: the inverse frequencies, shape `(n,)`, from `inverse_frequencies` or
      `DoubleDouble.from_float64`.

    **Returns:**

    A `DoubleDouble` of shape `(L, n)` (no `tail`) whose value lies in [−π, π); error ≤ 1e−25 absolute against
    the exact p·θᵢ mod 2π (about 1e−31 in practice; see the module docstring).

    **Raises:** `ValueError` outside the contract (|p| > 2⁵³ or |p|·θ > 2⁷³).
    """
    positions = np.asarray(positions)
    if positions.ndim != 1 or not np.issubdtype(positions.dtype, np.integer):
        raise TypeError(f"positions must be a 1-d integer array, got {positions.dtype} of shape {positions.shape}")
    largest = max(-int(positions.min()), int(positions.max())) if positions.size else 0
    if largest > _LARGEST_EXACT_POSITION:
        raise ValueError("positions beyond 2^53 are not exact in float64 and are not supported")
    theta_size = float(np.max(np.abs(inv_freq.hi), initial=0.0))
    if largest * theta_size > LARGEST_PRODUCT:
        raise ValueError(
            f"|p|·θ up to {largest * theta_size:.3g} exceeds 2^73, beyond which the 1e-25 guarantee does not hold"
        )
    turns = _turn_limbs(inv_freq)
    column = positions.astype(np.float64)[:, np.newaxis]
    column_high, column_low = split(column)
    count = inv_freq.shape[0]
    hi = np.empty((positions.size, count), dtype=np.float64)
    lo = np.empty_like(hi)
    rows_per_block = max(1, _ANGLES_PER_BLOCK // max(count, 1))
    for start in range(0, positions.size, rows_per_block):
        rows = slice(start, start + rows_per_block)
        hi[rows], lo[rows] = _reduce_block((column[rows], column_high[rows], column_low[rows]), turns)
    return DoubleDouble(hi=hi, lo=lo)


def reference_cos_sin(positions: np.ndarray, inv_freq: DoubleDouble) -> tuple[np.ndarray, np.ndarray]:
    """Float64 cos and sin of every RoPE angle p·θᵢ: the ground truth for lower-precision rotations.

    cos(hi + lo) = cos(hi) − sin(hi)·lo and sin(hi + lo) = sin(hi) + cos(hi)·lo up to lo²/2 ≈ 10⁻³², so each
    value is within the float64 library's own error (about one unit roundoff) plus one rounding of the
    correction: `tolerances.REFERENCE_COS_SIN_ABS_ERROR`.

    **Arguments:**

    - `positions`: integer array of shape `(L,)`.
    - `inv_freq`: the inverse frequencies, shape `(n,)`.

    **Returns:**

    `(cos, sin)`, float64 arrays of shape `(L, n)`.
    """
    angles = angles_mod_2pi(positions, inv_freq)
    cos_hi = np.cos(angles.hi)
    sin_hi = np.sin(angles.hi)
    return cos_hi - sin_hi * angles.lo, sin_hi + cos_hi * angles.lo


#: The documented adversarial set of the accuracy figures (benchmark and tests): (positions, θ values) pairs that
#: stress each step — the contract's edges (|p| = 2⁵³, |p·θ| = 2⁷³), positions that split into two 26-bit halves
#: (2²⁶ ± 1, 2³¹ ± 1), products landing near half-integers of a turn (p·θ/2π ≈ k + ½, where the ±π wrap acts),
#: the smallest d = 128 frequency, θ = 1 and θ just below powers of two.
ADVERSARIAL_CASES: tuple[tuple[tuple[int, ...], tuple[float, ...]], ...] = (
    ((2**53, 2**53 - 1, -(2**53), 2**52 + 1), (1.0, 0.5, 1.1547819846894582e-4, float(np.nextafter(1.0, 0.0)))),
    ((2**53, 2**53 - 1), (2.0**20, 1048575.9999999999)),
    ((2**26 - 1, 2**26, 2**26 + 1, 2**31 - 1, 2**31, 2**31 + 1, -(2**31)), (1.0, 0.75, 1e-4, 0.1)),
    ((355, 710, 104348, 208341, 833719, 1146408), (1.0, 0.5, 2.0)),
    ((1, 2, 3, 6, 7, 22, 44, 311), (3.141592653589793, 1.5707963267948966, 6.283185307179586)),
)


def mpmath_angles_mod_2pi(
    positions: Sequence[int] | np.ndarray,
    d: int,
    base: float | str = 10000,
    dps: int = 50,
    *,
    scale: Sequence[float] | None = None,
) -> list[list[mpmath.mpf]]:
    """The slow reference: p·θᵢ mod 2π in [−π, π) with mpmath at `dps` digits.

    Used to validate `angles_mod_2pi` and by the benchmark. With `dps = 50` and |p·θ| ≤ 2⁵³ the result is
    accurate to about 10⁻³⁴.

    **Arguments:**

    - `positions`: integer positions.
    - `d`, `base`, `scale`: as for `inverse_frequencies`.
    - `dps`: mpmath working precision in decimal digits.

    **Returns:**

    A list with one row per position, each a list of d/2 `mpf` angles.
    """
    with mpmath.workdps(dps):
        thetas = _mpmath_inverse_frequencies(d, base, scale)
        two_pi = 2 * mpmath.pi
        pi = +mpmath.pi
        rows = []
        for position in positions:
            row = []
            for theta in thetas:
                angle = int(position) * theta
                row.append(angle - two_pi * mpmath.floor((angle + pi) / two_pi))
            rows.append(row)
        return rows


def max_angle_error(angles: DoubleDouble, reference: list[list[mpmath.mpf]]) -> float:
    """The largest absolute difference between angles and a reference, measured on the circle.

    The difference is wrapped into [−π, π) before taking its size, so two representations of one angle on
    either side of ±π do not count as an error of 2π.

    **Arguments:**

    - `angles`: a `DoubleDouble` of shape `(L, n)`.
    - `reference`: `L` rows of `n` mpmath angles, e.g. from `mpmath_angles_mod_2pi`.

    **Returns:**

    The maximum absolute error, as a float.
    """
    worst = mpmath.mpf(0)
    with mpmath.workdps(60):
        two_pi = 2 * mpmath.pi
        for row_index, row in enumerate(reference):
            for column_index, wanted in enumerate(row):
                difference = angles.to_mpmath((row_index, column_index)) - wanted
                difference -= two_pi * mpmath.floor((difference + mpmath.pi) / two_pi)
                worst = max(worst, abs(difference))
        return float(worst)
