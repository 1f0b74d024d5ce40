"""Domain facts read from the expression tree and the declared assumptions, for two procedures.

`positive-powers`: `positive_where_defined`, `real_where_defined`, `log_of_positive` (a sign that holds
wherever the expression is defined; the undefined points are the reported side conditions).

`derivative` — when is a one-variable residual smooth on its whole (connected) domain?

If `f` is differentiable on a connected domain (all of ℝ, or (0, ∞)), `f′ ≡ 0` there and `f(x₀) = 0` at one
point of it, then `f ≡ 0` on the domain. This module decides the first hypothesis conservatively from the
expression tree and SymPy's assumptions (`is_positive`, `is_real`, `is_nonzero`, which follow from the
symbol's declared domain); anything it does not recognise is "not known smooth".
"""

from __future__ import annotations

import sympy as sp

_ENTIRE = (sp.sin, sp.cos, sp.exp, sp.sinh, sp.cosh, sp.atan)


def connected_domain_point(symbol: sp.Symbol) -> sp.Expr | None:
    """A point of the symbol's domain if the domain is connected and open (ℝ or (0, ∞)), else `None`."""
    if symbol.is_integer or not symbol.is_real:
        return None
    if symbol.is_positive:
        return sp.Integer(1)
    if symbol.is_negative:
        return sp.Integer(-1)
    if symbol.is_nonnegative or symbol.is_nonpositive or symbol.is_nonzero:
        return None  # a closed half-line or ℝ \ {0}: not handled
    return sp.Integer(1)


def smooth_everywhere(expr: sp.Expr, symbol: sp.Symbol) -> bool:
    """True when `expr` is real and differentiable at every point of `symbol`'s domain (conservative)."""
    if not expr.has(symbol):
        return bool(expr.is_extended_real) and expr.is_finite is not False
    if expr == symbol:
        return True
    if isinstance(expr, sp.Add | sp.Mul):
        return all(smooth_everywhere(a, symbol) for a in expr.args)
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent.has(symbol):
            return bool(base.is_positive) and smooth_everywhere(base, symbol) and smooth_everywhere(exponent, symbol)
        if exponent.is_Integer and exponent >= 0:
            return smooth_everywhere(base, symbol)
        if exponent.is_Integer:
            return bool(base.is_nonzero) and bool(base.is_real) and smooth_everywhere(base, symbol)
        return bool(base.is_positive) and bool(exponent.is_real) and smooth_everywhere(base, symbol)
    if isinstance(expr, sp.log):
        return bool(expr.args[0].is_positive) and smooth_everywhere(expr.args[0], symbol)
    if isinstance(expr, _ENTIRE):
        return bool(expr.args[0].is_real) and smooth_everywhere(expr.args[0], symbol)
    return False


def real_where_defined(e: sp.Expr) -> bool:
    """Real at every point where it is defined (rational functions of real symbols, logs of positives, …)."""
    if e.is_extended_real or e.is_Rational:
        return True
    if isinstance(e, sp.Add | sp.Mul):
        return all(real_where_defined(a) for a in e.args)
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer:
            return real_where_defined(e.base)
        return positive_where_defined(e.base) and real_where_defined(e.exp)
    if isinstance(e, sp.log):
        return positive_where_defined(e.args[0])
    if isinstance(e, sp.exp):
        return real_where_defined(e.args[0])
    return False


def positive_where_defined(e: sp.Expr) -> bool:
    """Positive at every point where it is defined."""
    if e.is_positive:
        return True
    if isinstance(e, sp.Rational):
        return e > 0
    if isinstance(e, sp.Mul | sp.Add):
        return all(positive_where_defined(a) for a in e.args)
    if isinstance(e, sp.Pow):
        return positive_where_defined(e.base) and real_where_defined(e.exp)
    if isinstance(e, sp.exp):
        return real_where_defined(e.args[0])
    return False


def log_of_positive(b: sp.Expr) -> sp.Expr:
    """`log b` for `b` positive where defined, split over products and real powers (valid there)."""
    if isinstance(b, sp.Mul) and all(positive_where_defined(a) for a in b.args):
        return sp.Add(*(log_of_positive(a) for a in b.args))
    if isinstance(b, sp.Pow) and positive_where_defined(b.base) and real_where_defined(b.exp):
        return b.exp * log_of_positive(b.base)
    if isinstance(b, sp.exp) and real_where_defined(b.args[0]):
        return b.args[0]
    return sp.log(b)
