"""The proof engine: decide `lhs == rhs` as proved, refuted or unknown (GUIDE.md §3).

- **proved** only when an exact procedure (`ropecheck.proofs.engine._procedures`) reduces the residual `lhs − rhs` to
  the
  literal `0`, and the statement is defined: every denominator of the statement as written (and every
  denominator a procedure cleared) is either a constant certified non-zero, or a non-constant expression
  that does not vanish identically — reported as a side condition `f != 0` (the identity holds where the
  conditions hold). A denominator that is identically 0 makes the statement undefined: *unknown*.
- **refuted** only from a point at which the residual is *certified* non-zero by interval
  arithmetic
  (`ropecheck.proofs.engine._interval`), inside every symbol's domain and where every denominator is certified
  non-zero; a
  point where the statement is undefined is skipped, never counted. Sample points include 0, negative
  values, points with |Im| > π for complex symbols and the branch points of `log` and roots.
- **unknown** otherwise. `.equals()`, `simplify(e) != 0` and float agreement are never used to decide.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

import sympy as sp

from ._certificate import Counterexample, Decision, Verdict
from ._interval import Box, certify_nonzero
from ._procedures import prove_zero, vanishes_identically

__all__ = [
    "candidate_points",
    "certify_counterexample",
    "counterexample_from",
    "decide_identity",
    "denominators_of",
    "expression_text",
    "prove_zero",
    "residuals_of",
    "search_counterexample",
]

Point = Mapping[sp.Symbol, sp.Expr]


# ------------------------------------------------------------------------------------------ refuting
def _candidate_values(symbol: sp.Symbol) -> list[sp.Expr]:
    half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    if symbol.is_integer:
        values = [1, 2, 3, 0, 5, 7, -1, -2, 4, 6, 8, 12]
        return [sp.Integer(v) for v in values]
    if symbol.is_positive:
        return [sp.Integer(1), sp.Integer(2), half, sp.Integer(3), third, sp.Rational(5, 4), sp.Integer(7)]
    if symbol.is_real:
        return [sp.Integer(1), -sp.Integer(1), half, sp.Integer(0), sp.Integer(2), -sp.Rational(3, 2), third, -third]
    # Complex: 1, i, the branch points 0 and −1 of log and roots, negative reals, |Im| > π (4i, where
    # log(exp(z)) ≠ z), and points in every quadrant.
    return [
        sp.Integer(1),
        sp.I,
        1 + sp.I,
        -sp.Integer(1),
        half - 2 * sp.I,
        sp.Integer(0),
        4 * sp.I,
        -sp.Rational(3, 2) + sp.I / 3,
        -sp.Integer(2),
        sp.Integer(3) - 4 * sp.I,
        -sp.Integer(1) - 5 * sp.I,
        half,
    ]


_CHECKED_ASSUMPTIONS = (
    "integer",
    "rational",
    "real",
    "even",
    "odd",
    "positive",
    "negative",
    "nonnegative",
    "nonpositive",
    "nonzero",
    "zero",
)


def satisfies_assumptions(symbol: sp.Symbol, value: sp.Expr) -> bool:
    """True when the exact `value` is certainly allowed for `symbol` (every stated assumption decided)."""
    for key in _CHECKED_ASSUMPTIONS:
        required = symbol.assumptions0.get(key)
        if required is None:
            continue
        if getattr(sp.sympify(value), f"is_{key}") is not required:
            return False
    return True


def candidate_points(symbols: Sequence[sp.Symbol], limit: int = 48) -> Iterable[dict[sp.Symbol, sp.Expr]]:
    """Deterministic exact sample points respecting each symbol's assumptions."""
    ordered = sorted(symbols, key=str)
    if not ordered:
        yield {}
        return
    pools = [[v for v in _candidate_values(s) if satisfies_assumptions(s, v)] or [sp.Integer(2)] for s in ordered]
    # Diagonal walks first (cheap, varied), then a bounded slice of the product.
    width = max(len(p) for p in pools)
    seen = 0
    for shift in range(width):
        yield {
            s: pool[(k * (shift + 1) + shift) % len(pool)]
            for k, (s, pool) in enumerate(zip(ordered, pools, strict=True))
        }
        seen += 1
    for combo in itertools.product(*pools):
        if seen >= limit:
            return
        yield dict(zip(ordered, combo, strict=True))
        seen += 1


def expression_text(expr: sp.Basic, limit: int = 600) -> str:
    """Short SymPy text for reports (unsorted printing: sorting a large sum evaluates every term)."""
    text = sp.sstr(expr, order="none")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def counterexample_from(point: Point, value: sp.Expr, box: Box, bits: int, description: str = "") -> Counterexample:
    """Package a certified point (exact value, enclosing box, precision) as a `Counterexample`."""
    return Counterexample(
        point={str(k): expression_text(v) for k, v in point.items()},
        residual=expression_text(value),
        interval=box.describe(),
        precision_bits=bits,
        description=description,
    )


def _defined_at(denominators: Sequence[sp.Expr], point: Point, max_bits: int) -> bool:
    """Every denominator is certified non-zero at `point` (else the statement is undefined there)."""
    for denominator in denominators:
        value = sp.sympify(sp.sympify(denominator).xreplace(dict(point)))
        if value.free_symbols or value.has(sp.zoo, sp.nan) or certify_nonzero(value, max_bits=max_bits) is None:
            return False
    return True


def certify_counterexample(
    residuals: Sequence[sp.Expr], point: Point, max_bits: int = 4096, denominators: Sequence[sp.Expr] = ()
) -> Counterexample | None:
    """Certify that some residual is non-zero at `point` (exact substitution, then interval enclosure).

    A point that violates a symbol's assumptions (an odd value for an even `d`, a negative `θ`), or at which
    some denominator of the statement is not certified non-zero, is rejected.
    """
    if not all(satisfies_assumptions(symbol, value) for symbol, value in point.items()):
        return None
    defined: bool | None = None
    for residual in residuals:
        value = sp.sympify(sp.sympify(residual).xreplace(dict(point)))
        if value.free_symbols or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            continue
        certified = certify_nonzero(value, max_bits=max_bits)
        if certified is None:
            continue
        if defined is None:
            defined = _defined_at(denominators, point, max_bits)
        if not defined:
            return None
        box, bits = certified
        return counterexample_from(point, value, box, bits)
    return None


def search_counterexample(
    residuals: Sequence[sp.Expr],
    hints: Sequence[Point] = (),
    limit: int = 48,
    max_bits: int = 4096,
    denominators: Sequence[sp.Expr] = (),
) -> Counterexample | None:
    """Look for a certified counterexample: the given hints first, then deterministic sample points."""
    for hint in hints:
        found = certify_counterexample(residuals, hint, max_bits, denominators)
        if found is not None:
            return found
    symbols: set[sp.Symbol] = set()
    for r in residuals:
        symbols |= sp.sympify(r).free_symbols
    for point in candidate_points(list(symbols), limit=limit):
        found = certify_counterexample(residuals, point, max_bits, denominators)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------------------ deciding
def residuals_of(lhs: sp.Basic, rhs: sp.Basic) -> list[sp.Expr]:
    """Entry-wise residuals `lhs − rhs` for scalars or matrices of equal shape."""
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        if not (isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase)):
            raise ValueError("one side is a matrix and the other is not")
        if lhs.shape != rhs.shape:
            raise ValueError(f"shape mismatch: {lhs.shape} vs {rhs.shape}")
        return [sp.sympify(a - b) for a, b in zip(lhs, rhs, strict=True)]
    return [sp.sympify(lhs - rhs)]


_POLES = {sp.tan: sp.cos, sp.sec: sp.cos, sp.cot: sp.sin, sp.csc: sp.sin}
_HYPERBOLIC_POLES = {sp.tanh: sp.cosh, sp.sech: sp.cosh, sp.coth: sp.sinh, sp.csch: sp.sinh}


def denominators_of(expr: sp.Basic) -> list[sp.Expr]:
    """The expressions `expr` divides by as it stands: bases of negative powers, the cosine under `tan`
    (sine under `cot`, …), the argument of `log`."""
    found: list[sp.Expr] = []
    for node in sp.preorder_traversal(expr):
        candidate = None
        if isinstance(node, sp.Pow) and node.exp.is_number and node.exp.is_extended_negative:
            candidate = node.base
        elif type(node) in _POLES:
            candidate = _POLES[type(node)](node.args[0])
        elif type(node) in _HYPERBOLIC_POLES:
            candidate = _HYPERBOLIC_POLES[type(node)](node.args[0])
        elif isinstance(node, sp.log):
            candidate = node.args[0]
        if candidate is not None and not candidate.is_Rational and candidate not in found:
            found.append(candidate)
    return found


def _definedness(denominators: Sequence[sp.Expr]) -> tuple[tuple[str, ...], str | None]:
    """Side conditions for the denominators, or the reason the statement is undefined / not certified."""
    conditions: list[str] = []
    for denominator in denominators:
        if not denominator.free_symbols:
            if certify_nonzero(denominator) is None:
                if vanishes_identically(denominator):
                    return (), f"undefined: the denominator {expression_text(denominator, 120)} is 0"
                return (), f"the denominator {expression_text(denominator, 120)} is not certified non-zero"
            continue
        if vanishes_identically(denominator):
            return (), f"undefined: the denominator {expression_text(denominator, 120)} vanishes identically"
        if denominator.is_nonzero:
            continue  # the declared domains already exclude 0 (x positive, x**2 + 1 for real x, exp(x))
        text = f"{sp.sstr(denominator)} != 0"
        if text not in conditions:
            conditions.append(text)
    return tuple(conditions), None


def decide_identity(
    lhs: sp.Basic,
    rhs: sp.Basic,
    hints: Sequence[Point] = (),
    search: bool = True,
    denominators: Sequence[sp.Expr] = (),
) -> Decision:
    """Decide `lhs == rhs` (scalars or matrices) for all values of the free symbols.

    **Arguments:**

    - `lhs`, `rhs`: SymPy expressions or matrices; symbols carry their domains as assumptions.
    - `hints`: exact points to try first as counterexamples (they are certified like any other point).
    - `search`: also walk deterministic sample points when the hints do not refute.
    - `denominators`: expressions the statement divides by that SymPy may have simplified away while
      building it (`ropecheck.proofs.parse_identity` records them); they become side conditions, and a
      counterexample must avoid their zeros.

    **Returns:** a `Decision`.
    """
    if any(sp.sympify(side).has(sp.Float) for side in (lhs, rhs)):  # before subtracting: 1.0*x - x is 0
        return Decision(Verdict.UNKNOWN, "floating-point numbers are not exact; write decimals as rationals")
    residuals = residuals_of(lhs, rhs)
    for residual in residuals:
        if residual.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            return Decision(Verdict.UNKNOWN, "undefined or infinite values in the statement")
    every_denominator = list(denominators)
    for residual in residuals:
        every_denominator += [d for d in denominators_of(residual) if d not in every_denominator]
    defined, undefined = _definedness(every_denominator)
    if undefined is not None:
        return Decision(Verdict.UNKNOWN, undefined)
    if search or hints:
        # A cheap look for an obvious counterexample first, so false statements do not pay for proof attempts.
        quick = search_counterexample(
            residuals, hints, limit=3 if search else 0, max_bits=256, denominators=every_denominator
        )
        if quick is not None:
            return Decision(Verdict.REFUTED, "interval-counterexample", counterexample=quick)
    methods: list[str] = []
    conditions: list[str] = []
    unproved: list[sp.Expr] = []
    for residual in residuals:
        decision = prove_zero(residual)
        if decision.verdict is Verdict.PROVED:
            if decision.method not in methods:
                methods.append(decision.method)
            conditions.extend(c for c in decision.conditions if c not in conditions)
        else:
            unproved.append(residual)
    if not unproved:
        conditions = [*defined, *(c for c in conditions if c not in defined)]
        return Decision(Verdict.PROVED, "+".join(methods) or "structural", conditions=tuple(conditions))
    counterexample = (
        search_counterexample(unproved, hints, denominators=every_denominator) if (hints or search) else None
    )
    if counterexample is not None:
        return Decision(Verdict.REFUTED, "interval-counterexample", counterexample=counterexample)
    return Decision(Verdict.UNKNOWN, "neither an exact zero residual nor a certified counterexample was found")
