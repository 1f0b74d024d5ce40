"""Complex interval boxes and rigorous enclosures of the elementary functions (mpmath `iv`, outward rounding).

A `Box` is `re + i·im` with both parts mpmath intervals; every function here returns a box that contains
the exact value of the function at every point of its argument box, or raises `NotEnclosable`. Principal
branches follow SymPy: `log z = log|z| + i·arg z` with `arg z ∈ (−π, π]`, `z**w = exp(w·log z)`. A box that
touches the branch cut of `log` (the non-positive real axis) is enclosed only when its imaginary part is
exactly 0 and its real part is strictly negative (`arg = π`); otherwise `NotEnclosable`. mpmath's own
`iv.atan2` is not used: on a box straddling 0 on the real axis it returns `π`, which is unsound.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from mpmath import iv
from mpmath.libmp.libmpi import mpi_atan


class NotEnclosable(Exception):
    """The expression cannot be enclosed rigorously at this point (more precision may help)."""


class Unsupported(NotEnclosable):
    """No enclosure rule applies at any precision (an unsupported function or a complex argument)."""


@dataclass(frozen=True)
class Box:
    """A complex interval `re + i·im` (both mpmath `iv.mpf`)."""

    re: object
    im: object

    def excludes_zero(self) -> bool:
        return not (contains_zero(self.re) and contains_zero(self.im))

    def is_real(self) -> bool:
        lo, hi = endpoints(self.im)
        return bool(lo == 0 and hi == 0)

    def describe(self) -> dict[str, str]:
        out = {"re": _fmt(self.re)}
        if not self.is_real():
            out["im"] = _fmt(self.im)
        return out


def endpoints(x: object) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The exact endpoints (`make_mpf` keeps every bit; `mpmath.mpf(raw)` would round them to 53 bits)."""
    lo, hi = x._mpi_  # type: ignore[attr-defined]
    return mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi)


def _fmt(x: object) -> str:
    lo, hi = endpoints(x)
    return f"[{mpmath.nstr(lo, 15)}, {mpmath.nstr(hi, 15)}]"


def contains_zero(x: object) -> bool:
    lo, hi = endpoints(x)
    return bool(lo <= 0 <= hi)


def zero() -> object:
    return iv.mpf(0)


def real(x: object) -> Box:
    return Box(x, zero())


def add(a: Box, b: Box) -> Box:
    return Box(a.re + b.re, a.im + b.im)


def mul(a: Box, b: Box) -> Box:
    if a.is_real() and b.is_real():
        return real(a.re * b.re)
    return Box(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)


def reciprocal(a: Box) -> Box:
    if a.is_real():
        if contains_zero(a.re):
            raise NotEnclosable("division by an interval that contains 0")
        return real(1 / a.re)
    den = a.re * a.re + a.im * a.im
    if contains_zero(den):
        raise NotEnclosable("division by an interval that contains 0")
    return Box(a.re / den, -a.im / den)


def integer_power(a: Box, n: int) -> Box:
    if n < 0:
        return integer_power(reciprocal(a), -n)
    result = real(iv.mpf(1))
    base = a
    while n:
        if n & 1:
            result = mul(result, base)
        n >>= 1
        if n:
            base = mul(base, base)
    return result


def positive_real(a: Box, what: str) -> object:
    if not a.is_real() or endpoints(a.re)[0] <= 0:
        raise NotEnclosable(f"{what} of an argument not certified positive real")
    return a.re


def _atan(x: object) -> object:
    return iv.make_mpf(mpi_atan(x._mpi_, iv.prec))  # type: ignore[attr-defined]


def arg(a: Box) -> object:
    """Principal argument in (−π, π], or `NotEnclosable` where the box meets the cut or the origin."""
    re_lo, re_hi = endpoints(a.re)
    im_lo, im_hi = endpoints(a.im)
    if im_lo == 0 and im_hi == 0:
        if re_lo > 0:
            return zero()
        if re_hi < 0:
            return iv.pi
        raise NotEnclosable("arg of a real interval that contains 0")
    if im_lo > 0:
        return iv.pi / 2 - _atan(a.re / a.im)
    if im_hi < 0:
        return -iv.pi / 2 - _atan(a.re / a.im)
    if re_lo > 0:
        return _atan(a.im / a.re)
    raise NotEnclosable("the box meets the branch cut of log (the non-positive real axis)")


def modulus(a: Box) -> object:
    if a.is_real():
        return abs(a.re)
    return iv.sqrt(a.re * a.re + a.im * a.im)


def log(a: Box) -> Box:
    if a.is_real() and endpoints(a.re)[0] > 0:
        return real(iv.log(a.re))
    m = modulus(a)
    if endpoints(m)[0] <= 0:
        raise NotEnclosable("log of an interval that contains 0")
    return Box(iv.log(m), arg(a))


def exp(a: Box) -> Box:
    if a.is_real():
        return real(iv.exp(a.re))
    m = iv.exp(a.re)
    return Box(m * iv.cos(a.im), m * iv.sin(a.im))


def power(base: Box, exponent: Box) -> Box:
    """Principal `base**exponent = exp(exponent·log(base))` (non-integer exponents)."""
    if base.is_real() and exponent.is_real():
        lo, _ = endpoints(base.re)
        if lo > 0:
            return real(iv.exp(exponent.re * iv.log(base.re)))
    return exp(mul(exponent, log(base)))


def sqrt(a: Box) -> Box:
    if a.is_real():
        lo, hi = endpoints(a.re)
        if lo >= 0:
            return real(iv.sqrt(a.re))
        if hi < 0:
            return Box(zero(), iv.sqrt(-a.re))
    return power(a, real(iv.mpf(1) / 2))


def _cosh_sinh(x: object) -> tuple[object, object]:
    e, f = iv.exp(x), iv.exp(-x)
    return (e + f) / 2, (e - f) / 2


def sin(a: Box) -> Box:
    if a.is_real():
        return real(iv.sin(a.re))
    ch, sh = _cosh_sinh(a.im)
    return Box(iv.sin(a.re) * ch, iv.cos(a.re) * sh)


def cos(a: Box) -> Box:
    if a.is_real():
        return real(iv.cos(a.re))
    ch, sh = _cosh_sinh(a.im)
    return Box(iv.cos(a.re) * ch, -iv.sin(a.re) * sh)


def sinh(a: Box) -> Box:
    e, f = exp(a), exp(Box(-a.re, -a.im))
    return Box((e.re - f.re) / 2, (e.im - f.im) / 2)


def cosh(a: Box) -> Box:
    e, f = exp(a), exp(Box(-a.re, -a.im))
    return Box((e.re + f.re) / 2, (e.im + f.im) / 2)


def atan(a: Box) -> Box:
    if not a.is_real():
        raise Unsupported("atan of a complex argument is not supported")
    return real(_atan(a.re))


def asin(a: Box) -> Box:
    """Real `asin` on (−1, 1) as `atan(x/√(1 − x²))`."""
    if not a.is_real():
        raise Unsupported("asin of a complex argument is not supported")
    lo, hi = endpoints(a.re)
    if not (lo > -1 and hi < 1):
        raise NotEnclosable("asin needs an argument certified inside (-1, 1)")
    return real(_atan(a.re / iv.sqrt(1 - a.re * a.re)))


def real_only(a: Box, what: str) -> tuple[mpmath.mpf, mpmath.mpf]:
    if not a.is_real():
        raise NotEnclosable(f"{what} of an argument not certified real")
    return endpoints(a.re)


def _exact_floor(x: mpmath.mpf, ceiling: bool = False) -> int:
    """Exact floor (or ceiling) of a finite mpf from its raw mantissa and exponent (no rounding anywhere:
    `mpmath.floor`, and even `-x`, round to the 53-bit working precision of `mpmath.mp`)."""
    if not mpmath.isfinite(x):
        raise NotEnclosable("an infinite interval endpoint")
    sign, man, exp, _ = x._mpf_  # value = (−1)**sign · man · 2**exp, man ≥ 0
    signed = -int(man) if sign else int(man)
    if ceiling:
        signed = -signed
    floor = signed << int(exp) if exp >= 0 else signed >> -int(exp)
    return -floor if ceiling else floor


def floor_box(a: Box) -> Box:
    """`floor`, only when the interval lies inside one cell `[n, n + 1)`."""
    lo, hi = real_only(a, "floor")
    n = _exact_floor(lo)
    if _exact_floor(hi) == n:
        return real(iv.mpf(n))
    raise NotEnclosable("floor: the interval is not inside one integer cell")


def ceiling_box(a: Box) -> Box:
    """`ceiling`, only when the interval lies inside one cell `(n − 1, n]`."""
    lo, hi = real_only(a, "ceiling")
    n = _exact_floor(hi, ceiling=True)
    if _exact_floor(lo, ceiling=True) == n:
        return real(iv.mpf(n))
    raise NotEnclosable("ceiling: the interval is not inside one integer cell")


def sign_box(a: Box) -> Box:
    """`sign`: ±1 when the real interval is strictly on one side of 0; `z/|z|` for a complex box off 0."""
    if a.is_real():
        lo, hi = endpoints(a.re)
        if lo > 0:
            return real(iv.mpf(1))
        if hi < 0:
            return real(iv.mpf(-1))
        raise NotEnclosable("sign of an interval that contains 0")
    m = modulus(a)
    if endpoints(m)[0] <= 0:
        raise NotEnclosable("sign of a box that contains 0")
    return Box(a.re / m, a.im / m)


def extremum(boxes: list[Box], largest: bool) -> Box:
    ends = [real_only(b, "Min/Max") for b in boxes]
    pick = max if largest else min
    return real(iv.mpf([pick(lo for lo, _ in ends), pick(hi for _, hi in ends)]))
