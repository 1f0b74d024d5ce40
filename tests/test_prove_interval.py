"""Certified enclosures used by `ropecheck prove`: complex log and roots, floor/ceiling/sign, algebraic zeros."""

from __future__ import annotations

import pytest
import sympy as sp
from mpmath import iv
from ropecheck.proofs.engine import _box as bx
from ropecheck.proofs.engine._algebraic import is_zero_algebraic
from ropecheck.proofs.engine._box import Box, NotEnclosable
from ropecheck.proofs.engine._functions import Ceiling, Floor, Sign
from ropecheck.proofs.engine._interval import certify_nonzero, enclose


def _box(re: tuple[str, str], im: tuple[str, str]) -> Box:
    return Box(iv.mpf(list(re)), iv.mpf(list(im)))


def test_mpmath_atan2_is_unsound_on_the_real_axis_and_ours_refuses() -> None:
    # mpmath's interval atan2 answers π for the real interval [−1, 1], whose arguments are 0 and π.
    assert iv.atan2(iv.mpf(0), iv.mpf([-1, 1])) == iv.pi
    with pytest.raises(NotEnclosable):
        bx.arg(_box(("-1", "1"), ("0", "0")))
    with pytest.raises(NotEnclosable):  # straddles the cut (negative real axis)
        bx.arg(_box(("-2", "-1"), ("-0.1", "0.1")))


@pytest.mark.parametrize(
    ("z", "expected"),
    [(1 + sp.I, sp.pi / 4), (-1 + sp.I, 3 * sp.pi / 4), (-1 - sp.I, -3 * sp.pi / 4), (sp.Integer(-2), sp.pi)],
)
def test_principal_argument_matches_sympy(z: sp.Expr, expected: sp.Expr) -> None:
    iv.prec = 128
    box = bx.arg(enclose(z))
    lo, hi = bx.endpoints(box)
    value = enclose(expected).re
    assert lo <= bx.endpoints(value)[0] and bx.endpoints(value)[1] <= hi


def test_complex_log_and_roots_are_certified() -> None:
    assert certify_nonzero(sp.log(sp.exp(4 * sp.I)) - 4 * sp.I) is not None  # log(exp(4i)) = (4 − 2π)i
    assert certify_nonzero(sp.Pow(-1, sp.Rational(1, 3)) + 1) is not None  # principal cube root of −1
    assert certify_nonzero(sp.log(-2) - sp.log(2) - sp.I * sp.pi) is None  # exactly 0
    assert certify_nonzero(sp.sqrt(-4) - 2 * sp.I) is None


def test_floor_ceiling_sign_need_a_whole_cell() -> None:
    tiny = sp.cos(sp.Rational(1, 10**200))  # 1 − 5·10⁻⁴⁰¹
    assert certify_nonzero(Floor(tiny)) is None  # floor is 0 (needs > 1333 bits to see)
    assert certify_nonzero(Floor(tiny) - 1) is not None
    assert certify_nonzero(Ceiling(-tiny)) is None
    assert certify_nonzero(Sign(tiny - 1) + 1) is None
    with pytest.raises(NotEnclosable):
        bx.floor_box(_box(("0.5", "1.5"), ("0", "0")))


def test_algebraic_zero_test_is_exact_not_numeric() -> None:
    assert is_zero_algebraic(sp.cos(sp.pi / 7) - sp.cos(2 * sp.pi / 7) + sp.cos(3 * sp.pi / 7) - sp.Rational(1, 2))
    near = sp.sqrt(2) + sp.sqrt(3) - sp.sqrt(5 + 2 * sp.sqrt(6)) + sp.Rational(1, 10**300)
    assert not is_zero_algebraic(near)
    assert not is_zero_algebraic(sp.sqrt(2) - sp.Rational(14142135623730951, 10**16))
    assert not is_zero_algebraic(sp.pi - sp.pi + sp.E - sp.E + sp.exp(1) - sp.E + sp.log(2))
