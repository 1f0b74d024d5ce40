"""The proof engine: decide `lhs == rhs` as proved, refuted or unknown (GUIDE.md §3).

- **proved** only when an exact procedure reduces the residual `lhs − rhs` to the literal `0`.
  Procedures, tried in order and recorded in the decision:
  `structural` (SymPy's automatic evaluation already gives 0), `expand`, `groebner-trig` (sin/cos of each
  distinct angle replaced by symbols `c, s`, the numerator reduced modulo the ideal of `c² + s² − 1`: a
  remainder of 0 is a certificate), `exp-rational` (trigonometric functions rewritten as exponentials, the
  residual treated as a rational function of `exp(·)` atoms, its numerator expanded to 0).
  Denominators that the procedure cleared are reported as side conditions (the identity holds where they
  do not vanish).
- **refuted** only from a point at which the residual is *certified* non-zero by interval arithmetic
  (`proofs._interval`); a point where the residual is undefined is skipped, never counted.
- **unknown** otherwise. `.equals()`, `simplify(e) != 0` and float agreement are never used to decide.
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence

import sympy as sp

from ._certificate import Counterexample, Decision, Verdict
from ._interval import Box, certify_nonzero

Point = Mapping[sp.Symbol, sp.Expr]


PROCEDURE_SECONDS = 8.0  # budget of one exact procedure; running out means "not proved by it", never "proved"


class _ProcedureTimeout(BaseException):
    """Raised inside a procedure that ran out of time (a BaseException so no `except Exception` swallows it)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the body after `seconds` (main thread only; elsewhere the body runs unlimited)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise _ProcedureTimeout

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------------------------- proving
def _numerator_and_conditions(expr: sp.Expr) -> tuple[sp.Expr, tuple[str, ...]]:
    numerator, denominator = sp.fraction(sp.together(expr))
    conditions: tuple[str, ...] = ()
    if denominator.free_symbols:
        try:
            factors = [f for f, _ in sp.factor_list(denominator)[1]]
        except sp.polys.polyerrors.BasePolynomialError:
            factors = list(sp.Mul.make_args(denominator))
        conditions = tuple(f"{sp.sstr(f)} != 0" for f in factors if f.free_symbols)
    return numerator, conditions


def _trig_atoms_to_symbols(expr: sp.Expr) -> tuple[sp.Expr, list[sp.Expr]]:
    """Replace `sin(u)`, `cos(u)` by fresh symbols per distinct `u`; return the relations `c² + s² − 1`."""
    arguments: list[sp.Expr] = []
    for atom in expr.atoms(sp.sin, sp.cos):
        if atom.args[0] not in arguments:
            arguments.append(atom.args[0])
    arguments.sort(key=sp.default_sort_key)
    substitutions: dict[sp.Expr, sp.Symbol] = {}
    relations: list[sp.Expr] = []
    for k, u in enumerate(arguments):
        c, s = sp.Dummy(f"c{k}"), sp.Dummy(f"s{k}")
        substitutions[sp.cos(u)] = c
        substitutions[sp.sin(u)] = s
        relations.append(c**2 + s**2 - 1)
    return expr.xreplace(substitutions), relations


def _prove_by_trig_expand(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """Angle-addition expansion alone (no use of sin² + cos² = 1)."""
    return sp.expand(sp.expand_trig(sp.expand(residual))) == 0, ()


def _prove_by_groebner_trig(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    split = sp.expand(sp.expand_trig(sp.expand(residual)))
    numerator, conditions = _numerator_and_conditions(split)
    polynomial, relations = _trig_atoms_to_symbols(sp.expand(numerator))
    if polynomial.has(sp.sin, sp.cos, sp.tan, sp.exp):
        return False, ()
    if not relations:
        return sp.expand(polynomial) == 0, conditions
    generators = sorted(polynomial.free_symbols | set().union(*(r.free_symbols for r in relations)), key=str)
    if not polynomial.is_polynomial(*generators):
        return False, ()  # other transcendental atoms (sqrt, Abs, re, …) would make the reduction inexact
    try:
        # The relations live in disjoint pairs of variables with coprime leading terms, so they already
        # form a Groebner basis; `groebner` recomputes it anyway, which also guards against that reasoning.
        basis = sp.groebner(relations, *generators, order="grevlex")
        _, remainder = basis.reduce(sp.expand(polynomial))
    except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
        return False, ()
    return sp.expand(remainder) == 0, conditions


def _prove_by_exp_rational(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    rewritten = residual.rewrite(sp.exp)
    rewritten = sp.expand(rewritten, power_exp=True, mul=True, multinomial=True, power_base=False, log=False)
    rewritten = sp.powsimp(rewritten, combine="exp")
    rewritten = sp.expand(rewritten, power_exp=True)
    numerator, conditions = _numerator_and_conditions(rewritten)
    numerator = sp.expand(numerator, power_exp=True)
    return numerator == 0, conditions


def _prove_by_complex_trig(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """Split into real and imaginary parts (`expand_complex`, exact), then decide each by `groebner-trig`."""
    if not residual.has(sp.I, sp.re, sp.im, sp.conjugate, sp.exp):
        return False, ()
    real_part, imaginary_part = sp.expand_complex(residual).as_real_imag()
    conditions: list[str] = []
    for part in (real_part, imaginary_part):
        ok, extra = _prove_by_groebner_trig(part)
        if not ok:
            return False, ()
        conditions.extend(c for c in extra if c not in conditions)
    return True, tuple(conditions)


_TRANSCENDENTAL = (sp.sin, sp.cos, sp.tan, sp.exp, sp.log, sp.re, sp.im, sp.conjugate, sp.Abs, sp.Piecewise)


def _is_rational_function(expr: sp.Expr) -> bool:
    """No transcendental functions and only integer powers: clearing denominators decides it."""
    if expr.has(*_TRANSCENDENTAL) or expr.has(sp.I):
        return False
    return all(power.exp.is_Integer for power in expr.atoms(sp.Pow))


def prove_zero(residual: sp.Expr) -> Decision:
    """Try to reduce `residual` to the literal 0 with exact procedures.

    **Arguments:**

    - `residual`: a SymPy expression (symbols carry their assumptions).

    **Returns:** a `Decision` that is `proved` (with the method and side conditions) or `unknown`.
    """
    residual = sp.sympify(residual)
    if residual == 0:
        return Decision(Verdict.PROVED, "structural")
    expanded = sp.expand(residual)
    if expanded == 0:
        return Decision(Verdict.PROVED, "expand")
    if _is_rational_function(residual):
        # A rational function of its symbols: clearing denominators and expanding decides it completely.
        if all(power.exp > 0 for power in expanded.atoms(sp.Pow)):
            return Decision(Verdict.UNKNOWN, "polynomial with a non-zero expansion")
        numerator, conditions = _numerator_and_conditions(expanded)
        if sp.expand(numerator) == 0:
            return Decision(Verdict.PROVED, "rational", conditions=conditions)
        return Decision(Verdict.UNKNOWN, "rational function with a non-zero numerator")
    attempts = (
        ("trig-expand", _prove_by_trig_expand),
        ("groebner-trig", _prove_by_groebner_trig),
        ("exp-rational", _prove_by_exp_rational),
        ("complex-trig", _prove_by_complex_trig),
    )
    for name, procedure in attempts:
        try:
            ok, conditions = procedure(residual)
        except Exception:
            continue
        if ok:
            return Decision(Verdict.PROVED, name, conditions=conditions)
    return Decision(Verdict.UNKNOWN, "no exact procedure reduced the residual to 0")


# ------------------------------------------------------------------------------------------ refuting
def _candidate_values(symbol: sp.Symbol) -> list[sp.Expr]:
    half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    if symbol.is_integer:
        values = [1, 2, 3, 0, 5, 7]
        if not symbol.is_nonnegative:
            values += [-1, -2]
        if symbol.is_positive:
            values = [v for v in values if v > 0]
        return [sp.Integer(v) for v in values]
    if symbol.is_positive:
        return [sp.Integer(1), sp.Integer(2), half, sp.Integer(3), third, sp.Rational(5, 4)]
    if symbol.is_nonnegative:
        return [sp.Integer(1), sp.Integer(0), half, sp.Integer(2)]
    if symbol.is_real:
        return [sp.Integer(1), -sp.Integer(1), half, sp.Integer(2), -sp.Rational(3, 2), third]
    return [sp.Integer(1), sp.I, 1 + sp.I, -sp.Integer(1), half - 2 * sp.I, -sp.Rational(3, 2) + sp.I / 3]


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


def certify_counterexample(residuals: Sequence[sp.Expr], point: Point, max_bits: int = 4096) -> Counterexample | None:
    """Certify that some residual is non-zero at `point` (exact substitution, then interval enclosure).

    A point that violates a symbol's assumptions (an odd value for an even `d`, a negative `θ`) is rejected.
    """
    if not all(satisfies_assumptions(symbol, value) for symbol, value in point.items()):
        return None
    for residual in residuals:
        value = sp.sympify(residual).xreplace(dict(point))
        if value.free_symbols:
            continue
        certified = certify_nonzero(value, max_bits=max_bits)
        if certified is None:
            continue
        box, bits = certified
        return counterexample_from(point, value, box, bits)
    return None


def search_counterexample(
    residuals: Sequence[sp.Expr], hints: Sequence[Point] = (), limit: int = 48, max_bits: int = 4096
) -> Counterexample | None:
    """Look for a certified counterexample: the given hints first, then deterministic sample points."""
    for hint in hints:
        found = certify_counterexample(residuals, hint, max_bits)
        if found is not None:
            return found
    symbols: set[sp.Symbol] = set()
    for r in residuals:
        symbols |= sp.sympify(r).free_symbols
    for point in candidate_points(list(symbols), limit=limit):
        found = certify_counterexample(residuals, point, max_bits)
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


def decide_identity(lhs: sp.Basic, rhs: sp.Basic, hints: Sequence[Point] = (), search: bool = True) -> Decision:
    """Decide `lhs == rhs` (scalars or matrices) for all values of the free symbols.

    **Arguments:**

    - `lhs`, `rhs`: SymPy expressions or matrices; symbols carry their domains as assumptions.
    - `hints`: exact points to try first as counterexamples (they are certified like any other point).
    - `search`: also walk deterministic sample points when the hints do not refute.

    **Returns:** a `Decision`.
    """
    residuals = residuals_of(lhs, rhs)
    if search or hints:
        # A cheap look for an obvious counterexample first, so false statements do not pay for proof attempts.
        quick = search_counterexample(residuals, hints, limit=3 if search else 0, max_bits=256)
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
        return Decision(Verdict.PROVED, "+".join(methods) or "structural", conditions=tuple(conditions))
    counterexample = search_counterexample(unproved, hints) if (hints or search) else None
    if counterexample is not None:
        return Decision(Verdict.REFUTED, "interval-counterexample", counterexample=counterexample)
    return Decision(Verdict.UNKNOWN, "neither an exact zero residual nor a certified counterexample was found")
