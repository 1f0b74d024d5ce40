"""The fast angle reference (ROPE-FREQUENCIES, ROPE-RELATIVE-MATRIX, ROPE-PREFIX-REPHASE) against mpmath, and
meta-tests showing the validation rejects the naive references it replaces."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from ropecheck.numeric.reference import (
    DoubleDouble,
    angles_mod_2pi,
    inverse_frequencies,
    max_angle_error,
    mpmath_angles_mod_2pi,
    reference_cos_sin,
)
from ropecheck.numeric.reference._angles import ADVERSARIAL_CASES
from ropecheck.numeric.reference._double_double import two_product
from ropecheck.numeric.reference.tolerances import REFERENCE_ANGLE_ABS_ERROR, REFERENCE_COS_SIN_ABS_ERROR

from tests._reference_helpers import PINNED_POSITIONS, assert_angles_match_mpmath

NEGATIVE_AND_HUGE_POSITIONS = (-1, -2049, -(2**31), 2**40 + 3, 2**53 - 1, 2**53)


def fast_reference(positions: np.ndarray, d: int, base: str) -> DoubleDouble:
    return angles_mod_2pi(positions, inverse_frequencies(d, base))


def float64_product(positions: np.ndarray, d: int, base: str) -> DoubleDouble:
    """The naive reference: p·θ in float64, reduced with float64 2π."""
    theta = inverse_frequencies(d, base).hi
    angles = np.remainder(positions[:, None] * theta + math.pi, 2 * math.pi) - math.pi
    return DoubleDouble.from_float64(angles)


def float64_two_pi(positions: np.ndarray, d: int, base: str) -> DoubleDouble:
    """An exact double-double product, but reduced by a float64 2π."""
    frequencies = inverse_frequencies(d, base)
    high, low = two_product(positions[:, None].astype(np.float64), frequencies.hi[None, :])
    low = low + positions[:, None] * frequencies.lo[None, :]
    turns = np.rint(high / (2 * math.pi))
    return DoubleDouble.from_float64((high - turns * (2 * math.pi)) + low)


def two_limb_frequencies(positions: np.ndarray, d: int, base: str) -> DoubleDouble:
    """The fast reference with θ cut to two limbs (106 bits): not enough at p ≈ 2³¹."""
    frequencies = inverse_frequencies(d, base)
    return angles_mod_2pi(positions, DoubleDouble(hi=frequencies.hi, lo=frequencies.lo))


@pytest.mark.parametrize("d", [2, 64, 128])
def test_angles_match_mpmath_at_pinned_positions(d: int) -> None:
    assert_angles_match_mpmath(fast_reference, PINNED_POSITIONS, d)


@pytest.mark.parametrize("base", ["500000", "10000.5", "1e4"])
def test_angles_match_mpmath_for_other_bases_and_negative_or_huge_positions(base: str) -> None:
    assert_angles_match_mpmath(fast_reference, PINNED_POSITIONS + NEGATIVE_AND_HUGE_POSITIONS, 64, base)


def test_scaled_frequencies_match_mpmath() -> None:
    scale = [0.25] * 16 + [1 / 3] * 16
    positions = np.array(PINNED_POSITIONS, dtype=np.int64)
    angles = angles_mod_2pi(positions, inverse_frequencies(64, scale=scale))
    assert max_angle_error(angles, mpmath_angles_mod_2pi(positions, 64, scale=scale)) <= REFERENCE_ANGLE_ABS_ERROR


def test_float64_frequencies_are_taken_exactly() -> None:
    frequencies = np.array([1.0, 0.1, 1e-4, 3.0], dtype=np.float64)
    positions = np.array(PINNED_POSITIONS, dtype=np.int64)
    angles = angles_mod_2pi(positions, DoubleDouble.from_float64(frequencies))
    # Unreduced exact products (50 digits hold them exactly): max_angle_error compares on the circle.
    with mpmath.workdps(50):
        wanted = [[int(p) * mpmath.mpf(float(theta)) for theta in frequencies] for p in positions]
    assert max_angle_error(angles, wanted) <= REFERENCE_ANGLE_ABS_ERROR


def test_blocks_are_stitched_in_order() -> None:
    """Enough positions for several internal blocks; rows from each block are checked against mpmath."""
    positions = np.arange(0, 600 * 1667, 1667, dtype=np.int64)
    angles = angles_mod_2pi(positions, inverse_frequencies(128))
    rows = [0, 255, 256, 511, 512, 599]
    sample = DoubleDouble(hi=angles.hi[rows], lo=angles.lo[rows])
    assert max_angle_error(sample, mpmath_angles_mod_2pi(positions[rows], 128)) <= REFERENCE_ANGLE_ABS_ERROR


def test_angles_lie_in_the_half_open_principal_range() -> None:
    positions = np.arange(-5000, 5000, 7, dtype=np.int64)
    angles = angles_mod_2pi(positions, inverse_frequencies(128))
    with mpmath.workdps(50):
        pi_low = float(mpmath.pi - math.pi)
    below_pi = (angles.hi < math.pi) | ((angles.hi == math.pi) & (angles.lo < pi_low))
    from_minus_pi = (angles.hi > -math.pi) | ((angles.hi == -math.pi) & (angles.lo >= -pi_low))
    assert np.all(below_pi) and np.all(from_minus_pi)


def test_reference_cos_sin_is_within_the_float64_model() -> None:
    positions = np.array(PINNED_POSITIONS, dtype=np.int64)
    cos, sin = reference_cos_sin(positions, inverse_frequencies(64))
    assert cos.dtype == np.float64 and sin.dtype == np.float64
    wanted = mpmath_angles_mod_2pi(positions, 64)
    worst = 0.0
    with mpmath.workdps(50):
        for row in range(len(positions)):
            for index in range(32):
                angle = wanted[row][index]
                worst = max(worst, float(abs(mpmath.cos(angle) - cos[row, index])))
                worst = max(worst, float(abs(mpmath.sin(angle) - sin[row, index])))
    assert worst <= REFERENCE_COS_SIN_ABS_ERROR


def test_frequencies_carry_three_limbs_of_the_exact_value() -> None:
    frequencies = inverse_frequencies(128)
    assert frequencies.shape == (64,) and frequencies.hi[0] == 1.0
    with mpmath.workdps(60):
        wanted = mpmath.mpf(10000) ** (-mpmath.mpf(2 * 37) / 128)
        assert abs(frequencies.to_mpmath(37) - wanted) <= wanted * mpmath.mpf(2) ** -150


def test_positions_must_be_exact_integers() -> None:
    frequencies = inverse_frequencies(8)
    with pytest.raises(TypeError):
        angles_mod_2pi(np.array([1.5]), frequencies)
    with pytest.raises(ValueError):
        angles_mod_2pi(np.array([2**53 + 2], dtype=np.int64), frequencies)
    with pytest.raises(ValueError):
        inverse_frequencies(7)


@pytest.mark.parametrize("naive", [float64_product, float64_two_pi, two_limb_frequencies])
def test_validation_rejects_a_naive_reference(naive) -> None:
    with pytest.raises(AssertionError, match="angles off by more than"):
        assert_angles_match_mpmath(naive, PINNED_POSITIONS, 64)


# ------------------------------------------------------------------------------------------ the contract
def _mpmath_angles(positions: tuple[int, ...], thetas: tuple[float, ...]) -> list[list[mpmath.mpf]]:
    """p·θ mod 2π in [−π, π) at 80 digits, θ taken as the exact float64 values."""
    rows = []
    with mpmath.workdps(80):
        two_pi = 2 * mpmath.pi
        for position in positions:
            row = []
            for theta in thetas:
                angle = int(position) * mpmath.mpf(float(theta))
                row.append(angle - two_pi * mpmath.floor((angle + mpmath.pi) / two_pi))
            rows.append(row)
    return rows


@pytest.mark.parametrize("case", range(len(ADVERSARIAL_CASES)))
def test_adversarial_set_is_within_the_guarantee(case: int) -> None:
    positions, thetas = ADVERSARIAL_CASES[case]
    angles = angles_mod_2pi(np.array(positions, dtype=np.int64), DoubleDouble.from_float64(thetas))
    assert max_angle_error(angles, _mpmath_angles(positions, thetas)) <= REFERENCE_ANGLE_ABS_ERROR


@pytest.mark.parametrize(("position", "theta"), [(2**53, 2.0**20), (2**53 - 1, 2.0**20), (2**40, 2.0**33)])
def test_guarantee_holds_at_the_edge_of_the_contract(position: int, theta: float) -> None:
    """|p·θ| = 2⁷³ (or just under): the largest products the contract admits."""
    thetas = (theta, float(np.nextafter(theta, 0.0)))
    angles = angles_mod_2pi(np.array([position, -position]), DoubleDouble.from_float64(thetas))
    assert max_angle_error(angles, _mpmath_angles((position, -position), thetas)) <= REFERENCE_ANGLE_ABS_ERROR


@pytest.mark.parametrize(
    ("position", "theta"), [(2**53, 1e10), (2**53, float(np.nextafter(2.0**20, 3e6))), (2**30, 1e14)]
)
def test_beyond_the_contract_is_refused(position: int, theta: float) -> None:
    """θ ≥ 1e10 at p = 2⁵³ broke the 1e−25 guarantee (7·10⁻²³ measured): such inputs are refused, not answered."""
    with pytest.raises(ValueError, match="2\\^73"):
        angles_mod_2pi(np.array([position]), DoubleDouble.from_float64([theta]))


def test_contract_is_not_too_wide() -> None:
    """Meta-test: the error really grows past the guarantee beyond the contract (so the limit is not arbitrary):
    computed below the check, at |p·θ| ≈ 10²⁶, it exceeds 1e−25."""
    from ropecheck.numeric.reference import _angles

    position, theta = 2**53, 1e10
    original = _angles.LARGEST_PRODUCT
    try:
        _angles.LARGEST_PRODUCT = math.inf
        angles = angles_mod_2pi(np.array([position]), DoubleDouble.from_float64([theta]))
    finally:
        _angles.LARGEST_PRODUCT = original
    assert max_angle_error(angles, _mpmath_angles((position,), (theta,))) > REFERENCE_ANGLE_ABS_ERROR
