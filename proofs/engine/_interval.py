"""Certified evaluation of closed SymPy expressions with mpmath interval arithmetic.

A residual at a concrete point is enclosed in a complex interval box (real interval, imaginary interval;
`ropecheck.proofs.engine._box`); if the box excludes 0 the residual is *certified* non-zero (GUIDE.md §3). Anything the
evaluator cannot enclose rigorously (an unsupported function, a division by an interval containing 0, a log
or root on its branch cut, a `floor` whose argument is not inside one integer cell, a floating-point number)
raises `NotEnclosable`: the caller then treats the point as inconclusive, never as a counterexample.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from mpmath import iv

from . import _box as bx
from ._box import Box, NotEnclosable, Unsupported, endpoints, real
from ._functions import Ceiling, Floor, Frac, Max, Min, Sign

__all__ = ["Box", "NotEnclosable", "certify_nonzero", "certify_positive", "enclose"]


def _one() -> Box:
    return real(iv.mpf(1))


def _quotient(f: Callable[[Box], Box], g: Callable[[Box], Box]) -> Callable[[Box], Box]:
    return lambda a: bx.mul(f(a), bx.reciprocal(g(a)))


def _inverse(f: Callable[[Box], Box]) -> Callable[[Box], Box]:
    return lambda a: bx.reciprocal(f(a))


def _frac(a: Box) -> Box:
    return bx.add(a, Box(-bx.floor_box(a).re, bx.zero()))


_FUNCTIONS: dict[type, Callable[[Box], Box]] = {
    sp.exp: bx.exp,
    sp.sin: bx.sin,
    sp.cos: bx.cos,
    sp.tan: _quotient(bx.sin, bx.cos),
    sp.cot: _quotient(bx.cos, bx.sin),
    sp.sec: _inverse(bx.cos),
    sp.csc: _inverse(bx.sin),
    sp.sinh: bx.sinh,
    sp.cosh: bx.cosh,
    sp.tanh: _quotient(bx.sinh, bx.cosh),
    sp.coth: _quotient(bx.cosh, bx.sinh),
    sp.sech: _inverse(bx.cosh),
    sp.csch: _inverse(bx.sinh),
    sp.atan: bx.atan,
    sp.acot: lambda a: bx.atan(bx.reciprocal(a)),
    sp.asin: bx.asin,
    sp.acos: lambda a: bx.add(real(iv.pi / 2), bx.mul(real(iv.mpf(-1)), bx.asin(a))),
    sp.Abs: lambda a: real(bx.modulus(a)),
    sp.re: lambda a: real(a.re),
    sp.im: lambda a: real(a.im),
    sp.conjugate: lambda a: Box(a.re, -a.im),
    sp.log: bx.log,
    Floor: bx.floor_box,
    Ceiling: bx.ceiling_box,
    Frac: _frac,
    Sign: bx.sign_box,
}


def enclose(expr: sp.Expr) -> Box:
    """Enclose a closed SymPy expression (no free symbols) in a complex interval box.

    **Arguments:**

    - `expr`: a SymPy expression with no free symbols.

    **Returns:** a `Box` guaranteed to contain the exact value at the current `iv.prec`.

    Raises `NotEnclosable` when no rigorous enclosure is available.
    """
    if expr.free_symbols:
        raise Unsupported(f"free symbols left: {sorted(map(str, expr.free_symbols))}")
    return _enclose(expr)


def _enclose(e: sp.Basic) -> Box:
    if e in (sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise Unsupported("undefined value (division by zero or infinity)")
    if isinstance(e, sp.Integer):
        return real(iv.mpf(int(e)))
    if isinstance(e, sp.Rational):
        return real(iv.mpf(int(e.p)) / iv.mpf(int(e.q)))
    if isinstance(e, sp.Float):
        raise Unsupported("floating-point numbers are not exact; write decimals as rationals")
    if e is sp.pi:
        return real(iv.pi)
    if e is sp.E:
        return real(iv.e)
    if e is sp.I:
        return Box(bx.zero(), iv.mpf(1))
    if isinstance(e, sp.Add):
        total = Box(bx.zero(), bx.zero())
        for arg in e.args:
            total = bx.add(total, _enclose(arg))
        return total
    if isinstance(e, sp.Mul):
        total = _one()
        for arg in e.args:
            total = bx.mul(total, _enclose(arg))
        return total
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if isinstance(exponent, sp.Integer):
            return bx.integer_power(_enclose(base), int(exponent))
        if isinstance(exponent, sp.Rational) and exponent.q == 2:
            return bx.integer_power(bx.sqrt(_enclose(base)), int(exponent.p))
        if base is sp.E:
            return bx.exp(_enclose(exponent))
        return bx.power(_enclose(base), _enclose(exponent))
    if isinstance(e, sp.Piecewise):
        for value, condition in e.args:
            if condition is sp.true or _certify_condition(condition):
                return _enclose(value)
            if not _certify_condition(sp.Not(condition)):
                raise NotEnclosable("piecewise condition not decidable at this precision")
        raise NotEnclosable("no piecewise branch applies")
    if isinstance(e, Min | Max):
        return bx.extremum([_enclose(a) for a in e.args], largest=isinstance(e, Max))
    function = _FUNCTIONS.get(type(e))
    if function is not None and len(e.args) == 1:
        return function(_enclose(e.args[0]))
    raise Unsupported(f"no interval rule for {type(e).__name__}")


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
        lo, hi = endpoints(diff.re)
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
            except NotEnclosable as error:
                if isinstance(error, Unsupported):
                    return None
                bits *= 4  # a division by an interval around 0, a floor on a cell boundary: try more bits
                continue
            except Exception:  # anything else is inconclusive, never a verdict
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
        lo, hi = endpoints(box.re)
        return True if lo > 0 else (False if hi < 0 else None)

    return _certify(expr, verdict, max_bits)
