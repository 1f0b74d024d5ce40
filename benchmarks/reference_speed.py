"""How much faster the vectorised angle reference is than mpmath, and how close it stays to it.

Times `angles_mod_2pi` on ≥ 10⁷ angles (d = 128, positions spread up to 10⁶), times
`mpmath_angles_mod_2pi` at 50 digits on a random sample of a few thousand angles and extrapolates its rate.
The accuracy figure is the largest absolute error against mpmath over two documented sets, reported separately
and together: the random sample above, and the adversarial set `ropecheck.numeric.reference._angles.ADVERSARIAL_CASES`
(the contract's edges |p| = 2⁵³ and |p·θ| = 2⁷³, positions that split into 26-bit halves, products near the ±π
wrap), against mpmath at 80 digits.

    python benchmarks/reference_speed.py          # a short table
    python benchmarks/reference_speed.py --json   # one JSON object
"""

from __future__ import annotations

import argparse
import json
import time

import mpmath
import numpy as np
from ropecheck.numeric.reference import (
    DoubleDouble,
    angles_mod_2pi,
    inverse_frequencies,
    max_angle_error,
    mpmath_angles_mod_2pi,
)
from ropecheck.numeric.reference._angles import ADVERSARIAL_CASES
from ropecheck.numeric.reference.tolerances import REFERENCE_ANGLE_ABS_ERROR

HEAD_DIMENSION = 128
LARGEST_POSITION = 10**6
MPMATH_DIGITS = 50
SEED = 20240607


def adversarial_error() -> tuple[float, int]:
    """The largest error over `ADVERSARIAL_CASES` against mpmath at 80 digits, and the number of angles."""
    worst, count = 0.0, 0
    for positions, thetas in ADVERSARIAL_CASES:
        angles = angles_mod_2pi(np.array(positions, dtype=np.int64), DoubleDouble.from_float64(thetas))
        with mpmath.workdps(80):
            two_pi = 2 * mpmath.pi
            reference = [
                [
                    int(p) * mpmath.mpf(t) - two_pi * mpmath.floor((int(p) * mpmath.mpf(t) + mpmath.pi) / two_pi)
                    for t in thetas
                ]
                for p in positions
            ]
        worst = max(worst, max_angle_error(angles, reference))
        count += len(positions) * len(thetas)
    return worst, count


def measure(n_positions: int, n_sample_positions: int, repeats: int) -> dict[str, float | int]:
    """Run the benchmark.

    **Arguments:**

    - `n_positions`: positions for the fast path (each gives d/2 = 64 angles).
    - `n_sample_positions`: positions for the mpmath sample (all 64 frequencies each).
    - `repeats`: timings of the fast path; the best one counts.

    **Returns:**

    The figures: `angles_per_s`, `mpmath_angles_per_s`, `speedup`, `max_abs_error_vs_mpmath` (over both sets),
    `random_sample_error`, `adversarial_error`, `angles`, `mpmath_samples`, `adversarial_angles`.
    """
    generator = np.random.default_rng(SEED)
    positions = generator.integers(0, LARGEST_POSITION + 1, size=n_positions, dtype=np.int64)
    frequencies = inverse_frequencies(HEAD_DIMENSION)
    angles_count = positions.size * frequencies.shape[0]

    best_seconds = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        angles = angles_mod_2pi(positions, frequencies)
        best_seconds = min(best_seconds, time.perf_counter() - start)

    sample_rows = generator.choice(positions.size, size=n_sample_positions, replace=False)
    sample_positions = positions[sample_rows]
    start = time.perf_counter()
    reference = mpmath_angles_mod_2pi(sample_positions, HEAD_DIMENSION, 10000, dps=MPMATH_DIGITS)
    mpmath_seconds = time.perf_counter() - start
    mpmath_count = n_sample_positions * frequencies.shape[0]

    sample_angles = type(angles)(hi=angles.hi[sample_rows], lo=angles.lo[sample_rows])
    fast_rate = angles_count / best_seconds
    mpmath_rate = mpmath_count / mpmath_seconds
    sample_error = max_angle_error(sample_angles, reference)
    worst_adversarial, adversarial_count = adversarial_error()
    return {
        "angles_per_s": fast_rate,
        "mpmath_angles_per_s": mpmath_rate,
        "speedup": fast_rate / mpmath_rate,
        "max_abs_error_vs_mpmath": max(sample_error, worst_adversarial),
        "random_sample_error": sample_error,
        "adversarial_error": worst_adversarial,
        "angles": angles_count,
        "mpmath_samples": mpmath_count,
        "adversarial_angles": adversarial_count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--positions", type=int, default=160_000, help="positions for the fast path (×64 angles)")
    parser.add_argument("--sample-positions", type=int, default=64, help="positions for mpmath (×64 angles)")
    parser.add_argument("--repeats", type=int, default=3, help="fast-path timings; the best counts")
    arguments = parser.parse_args()
    figures = measure(arguments.positions, arguments.sample_positions, arguments.repeats)
    if arguments.json:
        print(json.dumps(figures))
        return
    print(f"fast reference   {figures['angles_per_s']:>14.3e} angles/s  ({figures['angles']} angles)")
    print(f"mpmath, 50 dps   {figures['mpmath_angles_per_s']:>14.3e} angles/s  ({figures['mpmath_samples']} angles)")
    print(f"speedup          {figures['speedup']:>14.1f} ×")
    error = figures["max_abs_error_vs_mpmath"]
    print(f"max |error|      {error:>14.3e}     (target ≤ {REFERENCE_ANGLE_ABS_ERROR:.0e})")
    print(f"  random sample  {figures['random_sample_error']:>14.3e}     ({figures['mpmath_samples']} angles)")
    print(f"  adversarial    {figures['adversarial_error']:>14.3e}     ({figures['adversarial_angles']} angles)")


if __name__ == "__main__":
    main()
