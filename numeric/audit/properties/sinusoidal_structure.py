"""What a sinusoidal table is made of: scale, pairing, orientation, per-pair angles, frequencies and offset.

Serves the `layout`, `spectrum`, `positions` and `relative` properties of the sinusoidal kind (SPE-FREQUENCY-004,
SPE-WAVELENGTH-RANGE, SPE-DOT-RELATIVE). Everything here works on float64 copies of the target's rows:

- **scale g**: ‖PE(p)‖² = g²·d/2 for every position when each pair is (sin, cos) of one angle; g = 1 in the seeds,
  d^(−1/2) at initialisation in x-transformers' `ScaledSinusoidalEmbedding`.
- **pairing**: the layout whose pairs (interleaved (2i, 2i+1), or concat (i, i + d/2)) keep a² + b² = g² at every
  probed position; pairs that keep it in neither layout are *broken* (the two coordinates are not the sine and
  cosine of one angle).
- **orientation**: which member holds the sine, read from the first intact pair (pair 0 has frequency 1 in every
  scheme, base⁰ = 1), whose angle grows by ω ∈ (0, 1] rad per position.
- **frequencies** ω̂ᵢ: from the angle differences φᵢ(p) − φᵢ(0) at p = 1, 2, 4, … (exact in every dtype),
  unwrapped by doubling; the spectrum is compared with the reference there, in double-double.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from ropecheck.numeric._encoding_reference import LAYOUTS, SCHEMES, sinusoidal_frequencies, sinusoidal_table
from ropecheck.numeric.audit.function.policy import accepted_angle_dtype, frequency_error_units, output_bound
from ropecheck.numeric.reference import DoubleDouble, angles_mod_2pi, tolerances

__all__ = [
    "Structure",
    "angle_bound",
    "find_offset",
    "find_structure",
    "frequency_units",
    "match_spectrum",
    "spectrum_positions",
]

_TWO_PI = 2 * math.pi
#: Smallest |a² + b² − g²|/g² that counts as a broken pair: above any rounding (a bfloat16 table shows about
#: 4·u_bfloat16 ≈ 0.016 at most), far below what two different angles give over the audited positions.
STRUCTURE_TOLERANCE = 2.0**-6


@dataclasses.dataclass
class Structure:
    """The pairing found in a table.

    **Fields:**

    - `scale`: g.
    - `layout`: `"interleaved"` or `"concat"` (the pairing with the most intact pairs).
    - `sin_first`: whether each pair stores the sine first (orientation).
    - `intact`: boolean per pair: a² + b² = g² at every probed position.
    - `norm_deviation`: per pair, the largest |a² + b² − g²|/g² observed.
    - `other_intact`: how many pairs the other layout keeps intact.
    """

    scale: float
    layout: str
    sin_first: bool
    intact: np.ndarray
    norm_deviation: np.ndarray
    other_intact: int

    def split(self, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The sine and cosine members of every pair, divided by g: two `(L, d/2)` arrays."""
        first, second = pairs_of(table, self.layout)
        first, second = first / self.scale, second / self.scale
        return (first, second) if self.sin_first else (second, first)

    def angles(self, table: np.ndarray) -> np.ndarray:
        """φᵢ(p) = atan2(sin member, cos member), in (−π, π], shape `(L, d/2)`."""
        sines, cosines = self.split(table)
        return np.arctan2(sines, cosines)


def pairs_of(table: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """The two members of every pair of a layout, as stored."""
    half = table.shape[-1] // 2
    if layout == "interleaved":
        return table[..., 0::2], table[..., 1::2]
    return table[..., :half], table[..., half:]


def frequency_units(base: float, scheme: str = "standard") -> float:
    """k_θ, the relative error of a computed ωᵢ in units u of the angle dtype, for the scheme's usual formula.

    `standard`: one pow (or exp of a rounded exponent) of base^(−2i/d): `frequency_error_units(base)`
    (ln base + 3). `t2t`: tensor2tensor's exp(−i·(ln base / (n − 1))) rounds the exponent three times (the log,
    the division, the product), each amplified by |exponent| ≤ ln base, plus exp itself: 3·ln base + 3.
    """
    if scheme == "t2t":
        return 3 * math.log(max(base, math.e)) + 3
    return frequency_error_units(base)


def angle_bound(positions: np.ndarray, omegas: np.ndarray, dtype: str, base: float,
                scheme: str = "standard") -> np.ndarray:
    """Per-entry bound `(L, n)` on |table − exact| for a table that conforms to the policy (unit scale).

    The table entry sin(p·ωᵢ) or cos(p·ωᵢ) is the rotation of a basis vector, so the RoPE output bound applies
    with |x₁| + |x₂| = 1 (`ropecheck.numeric.audit.function.policy.output_bound`): angle formed in float32 (float64
    for float64
    tables) with ωᵢ computed by the scheme's formula (`frequency_units`), cos/sin in the angle dtype, one rounding
    to the table's dtype, plus the reference's own error.
    """
    units = frequency_units(base, scheme)
    return output_bound(1.0, np.asarray(positions), np.asarray(omegas), dtype, theta_units=units)


def find_structure(
    table: np.ndarray, bound: np.ndarray, declared_layout: str | None, far_rows: np.ndarray | None = None
) -> Structure:
    """Scale, pairing and orientation of the rows of `table` (positions 0…L−1, L ≥ 3).

    **Arguments:**

    - `table`: float64 `(L, d)`, the target's rows for positions 0…L−1.
    - `bound`: per-entry bound `(L, d/2)` of a conforming table (`angle_bound`).
    - `declared_layout`: used only to break a tie.
    - `far_rows`: rows of a few far positions, for the pair norms only (slow pairs that mix two frequencies
      drift apart only there).
    """
    # |a² + b² − g²| for a, b within β·g of g·sin, g·cos is at most (2·√2·β + 2β²)·g². Pairing is structure,
    # not precision: a table computed in a coarser dtype than the policy allows still pairs up (its precision
    # finding says how far off it is), so the tolerance is at least STRUCTURE_TOLERANCE; broken pairs deviate by
    # O(1).
    tolerance = np.maximum(np.max(2 * math.sqrt(2) * bound + 2 * bound**2, axis=0) * 2, STRUCTURE_TOLERANCE)
    deviations, scales, counts = {}, {}, {}
    everything = table if far_rows is None else np.concatenate([table, far_rows])
    for layout in LAYOUTS:
        first, second = pairs_of(everything, layout)
        norms = first**2 + second**2
        middle = np.median(norms, axis=0)
        constant = np.max(np.abs(norms - middle), axis=0) <= tolerance * np.maximum(middle, 1e-300)
        scale_squared = float(np.median(middle[constant])) if constant.any() else float(np.median(middle))
        scale_squared = scale_squared if scale_squared > 0 and math.isfinite(scale_squared) else 1.0
        deviations[layout] = np.max(np.abs(norms / scale_squared - 1.0), axis=0)
        scales[layout] = math.sqrt(scale_squared)
        counts[layout] = int(np.sum(deviations[layout] <= tolerance))
    order = sorted(LAYOUTS, key=lambda name: (-counts[name], name != (declared_layout or "interleaved")))
    layout = order[0]
    scale = scales[layout]
    intact = deviations[layout] <= tolerance
    first, second = pairs_of(table / scale, layout)
    reader = int(np.flatnonzero(intact)[0]) if intact.any() else 0
    sin_first = _first_is_sine(first[:, reader], second[:, reader])
    return Structure(scale, layout, sin_first, intact, deviations[layout], counts[order[1]])


def _first_is_sine(first: np.ndarray, second: np.ndarray) -> bool:
    """With the sine stored first a pair's angle grows by +ω per position (ω in (0, 1] for the first intact pair
    of every scheme: pair 0 has frequency base⁰ = 1)."""
    steps = np.angle(np.exp(1j * np.diff(np.arctan2(first, second))))
    return bool(np.median(steps) > 0)


def spectrum_positions(max_position: int) -> np.ndarray:
    """The positions at which the spectrum is read: 0, 1, 2, 3, 4, 8, 16, …, 1024 (below `max_position`).

    Powers of two are exact in every dtype, so rounding of positions (a precision matter) does not show here.
    """
    powers = [2**k for k in range(11)]
    return np.array(sorted({0, 1, 2, 3, *powers}), dtype=np.int64)[: np.searchsorted(
        np.array(sorted({0, 1, 2, 3, *powers})), max_position)]


def estimate_frequencies(angles: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """ω̂ᵢ ≥ 0 from φ(p) − φ(0) at p = 1, 2, 4, …: each doubling unwraps with the previous estimate.

    Frequencies above π alias at p = 1 and come out reduced mod 2π (the spectrum check sees the mismatch).
    """
    index = {int(p): k for k, p in enumerate(positions)}
    estimate = np.angle(np.exp(1j * (angles[index[1]] - angles[index[0]])))
    p = 2
    while p in index:
        observed = angles[index[p]] - angles[index[0]]
        turns = np.round((estimate * p - observed) / _TWO_PI)
        estimate = (observed + turns * _TWO_PI) / p
        p *= 2
    return estimate


def _phase_error(angles: np.ndarray, positions: np.ndarray, omegas: DoubleDouble) -> np.ndarray:
    """|wrap(φ(p) − φ(0) − p·ω)| per position and pair, with p·ω reduced in double-double."""
    reference = angles_mod_2pi(positions, omegas)
    difference = (angles - angles[:1]) - reference.hi - reference.lo
    return np.abs(np.angle(np.exp(1j * difference)))


def _phase_tolerance(positions: np.ndarray, omegas: np.ndarray, dtype: str, base: float,
                     scheme: str = "standard") -> np.ndarray:
    """Twice the angle-level bound: an entry error β moves atan2 by at most √2·β (unit pairs), at p and at 0.

    The bound is that of a float32 table at least: a float64 table whose angles were formed in float32 has the
    right spectrum and fails precision, not spectrum.
    """
    entry = angle_bound(positions, omegas, "float32" if dtype == "float64" else dtype, base, scheme)
    return 2 * math.sqrt(2) * (entry + entry[:1]) + 8 * tolerances.unit_roundoff("float64")


def match_spectrum(
    angles: np.ndarray, positions: np.ndarray, intact: np.ndarray, d: int, base: float, schemes: tuple[str, ...],
    dtype: str,
) -> tuple[str | None, dict[str, tuple[float, int]]]:
    """Which frequency scheme (among `schemes`) the intact pairs follow, in double-double.

    **Returns:**

    `(scheme or None, misfit)`: misfit maps each scheme to (largest phase error / tolerance, first failing pair).
    """
    misfit: dict[str, tuple[float, int]] = {}
    for scheme in schemes:
        omegas = sinusoidal_frequencies(d, base, scheme)
        ratio = _phase_error(angles, positions, omegas) / _phase_tolerance(positions, omegas.hi, dtype, base, scheme)
        per_pair = np.where(intact, np.max(ratio, axis=0), 0.0)
        bad = np.flatnonzero(per_pair > 1)
        misfit[scheme] = (float(per_pair.max(initial=0.0)), int(bad[0]) if bad.size else -1)
        if not bad.size:
            return scheme, misfit
    return None, misfit


def explain_spectrum(estimated: np.ndarray, intact: np.ndarray, d: int, base: float) -> str:
    """Name what the measured frequencies are instead, when recognisable (flipped exponent, other scheme/base)."""
    n = d // 2
    i = np.arange(n)
    candidates = {
        f"ωᵢ = {base:g}^(+2i/d): the sign of the exponent is flipped (SPE-FREQUENCY-004 prints this formula)":
            np.angle(np.exp(1j * base ** (2 * i / d))),
        "tensor2tensor's log-spaced frequencies base^(−i/(d/2−1))": base ** (-i / max(n - 1, 1)),
        "the standard frequencies base^(−2i/d)": base ** (-2 * i / d),
        "ωᵢ = base^(−2i/(d−2)) (the exponent's denominator off by one)": base ** (-2 * i / max(d - 2, 1)),
    }
    flipped = next(iter(candidates))
    for text, values in candidates.items():
        if np.allclose(np.abs(estimated[intact]), np.abs(values[intact]), rtol=1e-3, atol=1e-6):
            return text
    # The flipped exponent's ωᵢ = base^(+2i/d) exceed 2π and are read modulo 2π, with the table's own rounding of
    # p·ωᵢ: compare on the circle, on the pairs whose ω a float32 table still holds to 1e-3 rad per position.
    growing = base ** (2 * i / d)
    usable = intact & (growing < 2.0**10)
    if usable.sum() >= 2:
        gap = np.abs(np.angle(np.exp(1j * (np.abs(estimated[usable]) - growing[usable]))))
        mirrored = np.abs(np.angle(np.exp(1j * (np.abs(estimated[usable]) + growing[usable]))))
        if np.all(np.minimum(gap, mirrored) <= 1e-3 * np.maximum(growing[usable], 1.0)):
            return flipped
    if n >= 2 and estimated[1] > 0 and estimated[1] < 1:
        fitted = float(np.exp(-math.log(estimated[1]) * d / 2))
        if np.allclose(estimated[intact], fitted ** (-2 * i[intact] / d), rtol=1e-3):
            return f"the standard frequencies of base {fitted:.6g} instead of {base:g}"
    return "of no known scheme"


def find_offset(row: np.ndarray, d: int, base: float, scheme: str, layout: str, low: int, high: int) -> int | None:
    """The offset K with row = PE(K) (the target's row for position 0), searched in [low, high), or None."""
    candidates = np.arange(low, high, dtype=np.int64)
    table = sinusoidal_table(candidates, d, base, scheme, layout)
    errors = np.max(np.abs(table - row[np.newaxis, :]), axis=1)
    best = int(np.argmin(errors))
    return int(candidates[best]) if errors[best] < 1e-2 else None


def expected_table(positions: np.ndarray, structure: Structure, d: int, base: float, scheme: str,
                   offset: int) -> np.ndarray:
    """The reference rows in the target's own pairing, orientation and scale (for precision and positions)."""
    table = sinusoidal_table(positions, d, base, scheme, "concat", offset)
    sines, cosines = table[:, : d // 2], table[:, d // 2:]
    first, second = (sines, cosines) if structure.sin_first else (cosines, sines)
    out = np.empty_like(table)
    if structure.layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = first, second
    else:
        out[:, : d // 2], out[:, d // 2:] = first, second
    return out * structure.scale


def accepted_angle(dtype: str) -> str:
    """The angle dtype the policy accepts for a table of this dtype."""
    return accepted_angle_dtype(dtype)


SCHEME_NAMES = SCHEMES
