"""Points for `ropecheck prove`: where a statement is defined (a witness for its domain) and wide counterexample
sampling.

A theorem `forall x, H(x) -> lhs = rhs` whose hypotheses hold nowhere is vacuously true: Coq would accept it
for `(sin(x)**2 + cos(x)**2 - 1)/(sin(x)**2 + cos(x)**2 - 1) == 2`. So `prove` first looks for an exact point
at which every hypothesis is *certified* by interval arithmetic (`ropecheck.proofs.engine._interval`); the kernel
then checks `exists x, H(x)` at that point. No such point means *unknown* ("undefined everywhere" when the
engine shows a denominator vanishes identically), never *proved*.

The counterexample search of the engine samples small values; `wide_points` adds magnitudes up to 10⁶ and
points next to 0, ±1 (branch points of `sqrt`, `log`, `asin`) and next to π/2, π (poles of `tan`, `cot`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence

import sympy as sp
from mpmath.libmp import NoConvergence

from ..engine._engine import candidate_points, certify_counterexample, satisfies_assumptions
from ..engine._interval import certify_nonzero, certify_positive
from ._prove_print import Hypothesis

__all__ = ["defined_point", "holds_at", "near_roots", "search_wide", "wide_points"]

_NEAR = [sp.Rational(1, 10**k) for k in (1, 3, 6)]
_WIDE = [
    sp.Integer(4), sp.Integer(-4), sp.Integer(10), sp.Integer(-7), sp.Rational(355, 113), sp.Rational(355, 226),
    sp.Integer(100), sp.Integer(-1000), sp.Integer(10**4), sp.Integer(10**6), sp.Integer(-(10**6)), sp.Integer(31),
    *_NEAR, *(-v for v in _NEAR), *(1 + v for v in _NEAR), *(1 - v for v in _NEAR), *(-1 - v for v in _NEAR),
    *(sp.Rational(355, 226) + v for v in _NEAR),
]


def _value_at(value: sp.Expr, point: dict[sp.Symbol, sp.Expr]) -> sp.Expr | None:
    result = sp.sympify(sp.sympify(value).xreplace(point))
    if result.free_symbols or result.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    return result


def _positive(value: sp.Expr) -> bool:
    return certify_positive(value, max_bits=1024) is not None


def holds_at(hypothesis: Hypothesis, point: dict[sp.Symbol, sp.Expr]) -> bool:
    """Whether `hypothesis` is certified to hold at the exact `point` (undecided counts as not holding, and so
    does an evaluation that fails: mpmath's `NoConvergence`, an overflow)."""
    try:
        return _certified_at(hypothesis, point)
    except (ArithmeticError, ValueError, TypeError, RecursionError, sp.SympifyError, NoConvergence):
        return False


def _certified_at(hypothesis: Hypothesis, point: dict[sp.Symbol, sp.Expr]) -> bool:
    value = _value_at(hypothesis.value, point)
    if value is None:
        return False
    if hypothesis.kind == "nonzero":
        return certify_nonzero(value, max_bits=1024) is not None
    if hypothesis.kind == "positive":
        return _positive(value)
    if hypothesis.kind == "nonnegative":
        return value == 0 or _positive(value)
    return (value == 1 or _positive(1 - value)) and (value == -1 or _positive(1 + value))


def wide_points(symbols: Sequence[sp.Symbol]) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    """Exact points across magnitudes (to 10⁶) and near branch points and poles, within each symbol's domain."""
    ordered = sorted(symbols, key=str)
    if not ordered:
        return
    pools = []
    for symbol in ordered:
        pool = [v for v in _WIDE if satisfies_assumptions(symbol, v)]
        pool += [v * sp.I for v in _WIDE[:6] if satisfies_assumptions(symbol, v * sp.I)]
        pools.append(pool or [sp.Integer(2)])
    width = max(len(p) for p in pools)
    for shift in range(width):
        yield {s: pool[(shift + k) % len(pool)] for k, (s, pool) in enumerate(zip(ordered, pools, strict=True))}
    if len(ordered) > 1:
        for combo in itertools.islice(itertools.product(*(p[:8] for p in pools)), 64):
            yield dict(zip(ordered, combo, strict=True))


def defined_point(
    hypotheses: Sequence[Hypothesis], symbols: Sequence[sp.Symbol], limit: int = 96
) -> dict[sp.Symbol, sp.Expr] | None:
    """An exact point of the symbols' domains at which every hypothesis is certified, or None."""
    if not symbols:
        return {} if all(holds_at(h, {}) for h in hypotheses) else None
    points = itertools.chain(candidate_points(list(symbols), limit=limit), wide_points(symbols))
    for point in points:
        if all(holds_at(h, point) for h in hypotheses):
            return point
    return None


def near_roots(hypotheses: Sequence[Hypothesis], symbols: Sequence[sp.Symbol]) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    """Exact points within 10⁻³ of the real zeros of the constrained expressions (a denominator, the argument of
    `sqrt` or `log`) when the statement has one real symbol and they are polynomials in it."""
    if len(symbols) != 1 or not symbols[0].is_real:
        return
    (symbol,) = symbols
    for hypothesis in hypotheses:
        try:
            polynomial = sp.Poly(hypothesis.value, symbol)
            if not 0 < polynomial.degree() <= 8 or not all(c.is_Rational for c in polynomial.coeffs()):
                continue
            roots = [r for r in polynomial.nroots(n=15) if r.is_real]
        except (sp.PolynomialError, sp.polys.polyerrors.BasePolynomialError, ValueError):
            continue
        for root in roots:
            centre = sp.Rational(round(float(root) * 10**6), 10**6)
            for offset in (sp.Rational(-1, 1000), sp.Rational(1, 1000)):
                if satisfies_assumptions(symbol, centre + offset):
                    yield {symbol: centre + offset}


def search_wide(
    residuals: Sequence[sp.Expr], symbols: Iterable[sp.Symbol], hypotheses: Sequence[Hypothesis]
) -> tuple[dict[sp.Symbol, sp.Expr], object] | None:
    """A certified counterexample at a wide point or next to a zero of a constrained expression, inside the
    domain (every hypothesis holds there), or None."""
    symbols = list(symbols)
    for point in itertools.chain(near_roots(hypotheses, symbols), wide_points(symbols)):
        if not all(holds_at(h, point) for h in hypotheses):
            continue
        try:
            found = certify_counterexample(residuals, point, max_bits=1024)
        except (ArithmeticError, ValueError, TypeError, RecursionError, NoConvergence):
            continue  # this point cannot be certified: try the next
        if found is not None:
            return point, found
    return None
