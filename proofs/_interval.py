"""Certified evaluation of closed SymPy expressions with mpmath interval arithmetic.

A residual at a concrete point is enclosed in a complex interval box (real interval, imaginary interval);
if the box excludes 0 the residual is *certified* non-zero (GUIDE.md §3). Anything the evaluator cannot
enclose rigorously (an unsupported function, a division by an interval containing 0, a root of a
possibly-negative number) raises `NotEnclosable`: the caller then treats the point as inconclusive, never as
a counterexample.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import iv


class NotEnclosable(Exception):
    """The expression cannot be enclosed rigorously at this point."""


@dataclass(frozen=True)
class Box:
    """A complex interval `re + i·im` (both mpmath `iv.mpf`)."""

    re: object
    im: object

    def excludes_zero(self) -> bool:
        return not (_contains_zero(self.re) and _contains_zero(self.im))

    def is_real(self) -> bool:
        lo, hi = _endpoints(self.im)
        return bool(lo == 0 and hi == 0)

    def describe(self) -> dict[str, str]:
        out = {"re": _fmt(self.re)}
        if not self.is_real():
            out["im"] = _fmt(self.im)
        return out


def _endpoints(x: object) -> tuple[mpmath.mpf, mpmath.mpf]:
    lo, hi = x._mpi_  # type: ignore[attr-defined]
    return mpmath.mpf(lo), mpmath.mpf(hi)


def _fmt(x: object) -> str:
    lo, hi = _endpoints(x)
    return f"[{mpmath.nstr(lo, 15)}, {mpmath.nstr(hi, 15)}]"


def _contains_zero(x: object) -> bool:
    lo, hi = _endpoints(x)
    return bool(lo <= 0 <= hi)


def _zero() -> object:
    return iv.mpf(0)


def _add(a: Box, b: Box) -> Box:
    return Box(a.re + b.re, a.im + b.im)


def _mul(a: Box, b: Box) -> Box:
    if a.is_real() and b.is_real():
        return Box(a.re * b.re, _zero())
    return Box(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)


def _reciprocal(a: Box) -> Box:
    if a.is_real():
        if _contains_zero(a.re):
            raise NotEnclosable("division by an interval that contains 0")
        return Box(1 / a.re, _zero())
    den = a.re * a.re + a.im * a.im
    if _contains_zero(den):
        raise NotEnclosable("division by an interval that contains 0")
    return Box(a.re / den, -a.im / den)


def _integer_power(a: Box, n: int) -> Box:
    if n < 0:
        return _integer_power(_reciprocal(a), -n)
    result = Box(iv.mpf(1), _zero())
    base = a
    while n:
        if n & 1:
            result = _mul(result, base)
        base = _mul(base, base)
        n >>= 1
    return result


def _exp(a: Box) -> Box:
    if a.is_real():
        return Box(iv.exp(a.re), _zero())
    m = iv.exp(a.re)
    return Box(m * iv.cos(a.im), m * iv.sin(a.im))


def _cosh_sinh(x: object) -> tuple[object, object]:
    e, f = iv.exp(x), iv.exp(-x)
    return (e + f) / 2, (e - f) / 2


def _sin(a: Box) -> Box:
    if a.is_real():
        return Box(iv.sin(a.re), _zero())
    ch, sh = _cosh_sinh(a.im)
    return Box(iv.sin(a.re) * ch, iv.cos(a.re) * sh)


def _cos(a: Box) -> Box:
    if a.is_real():
        return Box(iv.cos(a.re), _zero())
    ch, sh = _cosh_sinh(a.im)
    return Box(iv.cos(a.re) * ch, -iv.sin(a.re) * sh)


def _positive_real(a: Box, what: str) -> object:
    if not a.is_real() or _endpoints(a.re)[0] <= 0:
        raise NotEnclosable(f"{what} of an argument not certified positive real")
    return a.re


def _abs(a: Box) -> Box:
    if a.is_real():
        return Box(abs(a.re), _zero())
    return Box(iv.sqrt(a.re * a.re + a.im * a.im), _zero())


def _real_only(f: Callable[[object], object], name: str) -> Callable[[Box], Box]:
    def apply(a: Box) -> Box:
        if not a.is_real():
            raise NotEnclosable(f"{name} of a complex argument is not supported")
        return Box(f(a.re), _zero())

    return apply


_FUNCTIONS: dict[type, Callable[[Box], Box]] = {
    sp.exp: _exp,
    sp.sin: _sin,
    sp.cos: _cos,
    sp.Abs: _abs,
    sp.re: lambda a: Box(a.re, _zero()),
    sp.im: lambda a: Box(a.im, _zero()),
    sp.conjugate: lambda a: Box(a.re, -a.im),
    sp.log: lambda a: Box(iv.log(_positive_real(a, "log")), _zero()),
    sp.tan: lambda a: _mul(_sin(a), _reciprocal(_cos(a))),
}


def enclose(expr: sp.Expr) -> Box:
    """Enclose a closed SymPy expression (no free symbols) in a complex interval box.

    **Arguments:**

    - `expr`: a SymPy expression with no free symbols.

    **Returns:** a `Box` guaranteed to contain the exact value at the current `iv.prec`.

    Raises `NotEnclosable` when no rigorous enclosure is available.
    """
    if expr.free_symbols:
        raise NotEnclosable(f"free symbols left: {sorted(map(str, expr.free_symbols))}")
    return _enclose(expr)


def _enclose(e: sp.Basic) -> Box:
    if e in (sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise NotEnclosable("undefined value (division by zero or infinity)")
    if isinstance(e, sp.Integer):
        return Box(iv.mpf(int(e)), _zero())
    if isinstance(e, sp.Rational):
        return Box(iv.mpf(int(e.p)) / iv.mpf(int(e.q)), _zero())
    if isinstance(e, sp.Float):
        # A SymPy Float is an exact binary number; enclose it exactly.
        return Box(iv.mpf(mpmath.mpf(e._mpf_)), _zero())
    if e is sp.pi:
        return Box(iv.pi, _zero())
    if e is sp.E:
        return Box(iv.e, _zero())
    if e is sp.I:
        return Box(_zero(), iv.mpf(1))
    if isinstance(e, sp.Add):
        total = Box(_zero(), _zero())
        for arg in e.args:
            total = _add(total, _enclose(arg))
        return total
    if isinstance(e, sp.Mul):
        total = Box(iv.mpf(1), _zero())
        for arg in e.args:
            total = _mul(total, _enclose(arg))
        return total
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if isinstance(exponent, sp.Integer):
            return _integer_power(_enclose(base), int(exponent))
        if isinstance(exponent, sp.Rational) and exponent.q == 2:
            root = Box(iv.sqrt(_positive_real(_enclose(base), "sqrt")), _zero())
            return _integer_power(root, int(exponent.p))
        if base is sp.E:
            return _exp(_enclose(exponent))
        b = _positive_real(_enclose(base), "power")
        return _exp(_mul(Box(iv.log(b), _zero()), _enclose(exponent)))
    if isinstance(e, sp.Piecewise):
        for value, condition in e.args:
            if condition is sp.true or _certify_condition(condition):
                return _enclose(value)
            if not _certify_condition(sp.Not(condition)):
                raise NotEnclosable("piecewise condition not decidable at this precision")
        raise NotEnclosable("no piecewise branch applies")
    for cls, fn in _FUNCTIONS.items():
        if isinstance(e, cls):
            return fn(_enclose(e.args[0]))
    raise NotEnclosable(f"no interval rule for {type(e).__name__}")


def _certify_condition(cond: sp.Basic) -> bool:
    """True only if `cond` is certified to hold (a strict/non-strict real comparison or a negation)."""
    if cond is sp.true:
        return True
    if cond is sp.false:
        return False
    if isinstance(cond, sp.Not):
        inner = cond.args[0]
        if isinstance(inner, sp.core.relational.Relational):
            return _certify_condition(inner.negated)
        return False
    if isinstance(cond, sp.And):
        return all(_certify_condition(c) for c in cond.args)
    if isinstance(cond, sp.core.relational.Relational):
        diff = _enclose(cond.lhs - cond.rhs)
        if not diff.is_real():
            return False
        lo, hi = _endpoints(diff.re)
        if isinstance(cond, sp.StrictGreaterThan):
            return bool(lo > 0)
        if isinstance(cond, sp.GreaterThan):
            return bool(lo >= 0)
        if isinstance(cond, sp.StrictLessThan):
            return bool(hi < 0)
        if isinstance(cond, sp.LessThan):
            return bool(hi <= 0)
    return False


def _certify(expr: sp.Expr, verdict: Callable[[Box], bool | None], max_bits: int) -> tuple[Box, int] | None:
    """Raise the interval precision (64, 256, 1024, … bits) until `verdict(box)` is True (certified) or False
    (certified not to hold); `None` from `verdict` means "undecided at this precision"."""
    bits = 64
    saved = iv.prec
    try:
        while bits <= max_bits:
            iv.prec = bits
            try:
                box = enclose(expr)
            except (NotEnclosable, ZeroDivisionError, ValueError):
                return None
            decided = verdict(box)
            if decided is True:
                return box, bits
            if decided is False:
                return None
            bits *= 4
        return None
    finally:
        iv.prec = saved


def certify_nonzero(expr: sp.Expr, max_bits: int = 4096) -> tuple[Box, int] | None:
    """Certify that a closed expression is non-zero, raising the precision until the box excludes 0.

    **Returns:** `(box, bits)` on success, or `None` when no precision up to `max_bits` separates it from 0
    (which is *not* evidence that it is zero).
    """
    return _certify(expr, lambda box: True if box.excludes_zero() else None, max_bits)


def certify_positive(expr: sp.Expr, max_bits: int = 4096) -> tuple[Box, int] | None:
    """Certify that a closed expression is real and strictly positive."""

    def verdict(box: Box) -> bool | None:
        if not box.is_real():
            return None
        lo, hi = _endpoints(box.re)
        return True if lo > 0 else (False if hi < 0 else None)

    return _certify(expr, verdict, max_bits)
