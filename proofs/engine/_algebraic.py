"""Decide whether a closed algebraic number is 0 through an exact annihilating polynomial.

For a closed expression built from rationals, `I`, `+`, `·`, rational powers and `cos`/`sin` of rational
multiples of π, an annihilating polynomial over ℚ is computed exactly, bottom-up: resultants for sums and
products, `P(x**q)` for `q`-th roots, Chebyshev polynomials `T_q(x) − (−1)**p` for `cos(pπ/q)`. After each
step the polynomial is factored over ℚ (exact) and the factors whose interval value at the number certainly
excludes 0 are dropped (certified, `ropecheck.proofs.engine._box`); only the degree shrinks, never soundness: the
number stays
a root of what is kept. Finally, with `P = x**m · Q(x)`, `Q(0) ≠ 0`:

- `m = 0`: 0 is not a root, so the number is not 0 (`False`);
- otherwise every non-zero root of `Q` has modulus at least `|q₀| / (|q₀| + max|qᵢ|)` (Cauchy's bound),
  so an interval enclosure of the number below that bound proves it is 0.

SymPy's `minimal_polynomial` is not used: it chooses among candidate factors with floating-point evaluation.
"""

from __future__ import annotations

import sympy as sp
from mpmath import iv

from . import _box as bx
from ._box import Box, NotEnclosable
from ._interval import enclose

MAX_DEGREE = 256  # an annihilator of higher degree gives up (unknown)
_X, _Y = sp.symbols("x y")


class _NotAlgebraic(Exception):
    """The expression is outside the supported algebraic fragment, or too large."""


def _poly(expr: sp.Expr) -> sp.Poly:
    p = sp.Poly(expr, _X, domain="QQ")
    if p.degree() > MAX_DEGREE:
        raise _NotAlgebraic("annihilating polynomial too large")
    return p


def _evaluate(p: sp.Poly, box: Box) -> Box:
    total = bx.real(iv.mpf(0))
    for c in p.all_coeffs():
        q = sp.Rational(c)
        total = bx.add(bx.mul(total, box), bx.real(iv.mpf(int(q.p)) / iv.mpf(int(q.q))))
    return total


def _select(p: sp.Poly, value: sp.Expr) -> sp.Poly:
    """Drop the irreducible factors of `p` that certainly do not vanish at `value`."""
    factors = [f for f, _ in p.factor_list()[1]]
    if len(factors) <= 1:
        return factors[0] if factors else p
    saved = iv.prec
    try:
        for bits in (64, 256, 1024):
            iv.prec = bits
            try:
                box = enclose(value)
            except NotEnclosable:
                continue
            kept = []
            for f in factors:
                try:
                    if _evaluate(f, box).excludes_zero():
                        continue
                except NotEnclosable:
                    pass
                kept.append(f)
            if len(kept) == 1:
                return kept[0]
            if kept:
                factors = kept
        product = factors[0]
        for f in factors[1:]:
            product = product * f
        return product
    finally:
        iv.prec = saved


def _sum(p: sp.Poly, q: sp.Poly) -> sp.Poly:
    shifted = q.as_expr().subs(_X, _X - _Y)
    return _poly(sp.resultant(p.as_expr().subs(_X, _Y), shifted, _Y))


def _product(p: sp.Poly, q: sp.Poly) -> sp.Poly:
    n = q.degree()
    scaled = sp.expand(_Y**n * q.as_expr().subs(_X, _X / _Y))
    return _poly(sp.resultant(p.as_expr().subs(_X, _Y), scaled, _Y))


def _power(p: sp.Poly, n: int) -> sp.Poly:
    if n < 0:
        if p.eval(0) == 0:
            raise _NotAlgebraic("inverse of a number that may be 0")
        reciprocal = _poly(sp.expand(_X ** p.degree() * p.as_expr().subs(_X, 1 / _X)))
        return _power(reciprocal, -n)
    if n == 0:
        return _poly(_X - 1)
    return _poly(sp.resultant(p.as_expr().subs(_X, _Y), _X - _Y**n, _Y))


def _cos_pi(r: sp.Rational) -> sp.Poly:
    p, q = int(r.p), int(r.q)
    if q > MAX_DEGREE:
        raise _NotAlgebraic("angle with a large denominator")
    return _poly(sp.chebyshevt_poly(q, _X) - (-1) ** (p % 2))


def _annihilator(e: sp.Expr) -> sp.Poly:
    if isinstance(e, sp.Rational):
        return _poly(_X - e)
    if e is sp.I:
        return _poly(_X**2 + 1)
    if isinstance(e, sp.Add | sp.Mul):
        combine = _sum if isinstance(e, sp.Add) else _product
        result = _annihilator(e.args[0])
        partial = e.args[0]
        for arg in e.args[1:]:
            partial = e.func(partial, arg)
            result = _select(combine(result, _annihilator(arg)), partial)
        return result
    if isinstance(e, sp.Pow) and isinstance(e.exp, sp.Rational):
        base = _annihilator(e.base)
        if e.exp.q != 1:
            base = _select(_poly(base.as_expr().subs(_X, _X ** int(e.exp.q))), e.base ** (1 / e.exp.q))
        return _select(_power(base, int(e.exp.p)), e)
    if isinstance(e, sp.cos | sp.sin):
        ratio = e.args[0] / sp.pi
        if not isinstance(ratio, sp.Rational):
            raise _NotAlgebraic("trigonometric function of a non-rational multiple of pi")
        angle = ratio if isinstance(e, sp.cos) else sp.Rational(1, 2) - ratio
        return _select(_cos_pi(angle), e)
    raise _NotAlgebraic(f"not in the algebraic fragment: {type(e).__name__}")


def is_zero_algebraic(expr: sp.Expr) -> bool:
    """True only when `expr` (closed) is proved to be 0 as described in the module docstring.

    **Arguments:**

    - `expr`: a SymPy expression without free symbols.

    **Returns:** `True` when proved 0; `False` when it is not 0, or when the fragment or the precision does
    not suffice (the caller treats `False` as "not proved").
    """
    try:
        p = _annihilator(expr)
    except (_NotAlgebraic, sp.PolynomialError, NotEnclosable):
        return False
    coefficients = [sp.Rational(c) for c in reversed(p.all_coeffs())]  # q0, q1, ...
    m = next((k for k, c in enumerate(coefficients) if c != 0), len(coefficients))
    if m == 0:
        return False
    rest = coefficients[m:]
    if len(rest) == 1:
        return True  # P = c·x**m: the only root is 0
    q0 = abs(rest[0])
    bound = q0 / (q0 + max(abs(c) for c in rest[1:]))
    saved = iv.prec
    try:
        for bits in (64, 256, 1024, 4096):
            iv.prec = bits
            try:
                modulus = bx.modulus(enclose(expr))
            except NotEnclosable:
                continue
            limit = iv.mpf(int(bound.p)) / iv.mpf(int(bound.q))
            if bx.endpoints(modulus)[1] < bx.endpoints(limit)[0]:
                return True
        return False
    finally:
        iv.prec = saved
