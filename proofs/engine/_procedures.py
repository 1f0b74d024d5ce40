"""Exact procedures that reduce a residual to the literal 0 (GUIDE.md §3): the "proved" half of the engine.

Each procedure returns `(True, conditions)` only when an exact computation reached 0; anything else is
"not proved by this procedure", never a verdict. Cleared denominators are checked before they are
reported: a constant one must be certified non-zero by interval arithmetic, a non-constant one must not
vanish identically (zero modulo the ideal `c² + s² − 1` of each angle, or in the exponential form). A
denominator that fails either check makes the procedure fail — a division by 0 never proves anything.

Procedures, tried in order: `structural`, `expand`, `rational` (rational functions), `trig-expand` and
`groebner-trig` (angle addition first; skipped for multiples above `MAX_TRIG_MULTIPLE`),
`groebner-trig-atoms` (sin/cos of each distinct angle as a point on the circle, no angle addition), `exp-rational`
(trigonometric and hyperbolic functions as exponentials, a rational function of `exp(·)` atoms),
`complex-trig` (real and imaginary parts), `positive-powers` (powers of positive bases as
`exp(exponent·log base)` with `log` split only where SymPy's assumptions allow), `algebraic` (closed
algebraic numbers through an exact annihilating polynomial, `ropecheck.proofs.engine._algebraic`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

import sympy as sp

from ._certificate import Decision, Verdict
from ._certified_values import resolve_integer_valued
from ._functions import EXACT_ONLY
from ._interval import certify_nonzero
from ._smooth import (
    connected_domain_point,
    log_of_positive,
    positive_where_defined,
    smooth_everywhere,
)

MAX_TRIG_MULTIPLE = 64  # angle-addition expansion of sin(n·x) is skipped for |n| above this

# Budget of one procedure in seconds; `None` (the default, used by the ledger) means unlimited. The
# `ropecheck prove` worker sets it so that one slow procedure cannot starve the others; running out means
# "not proved by this procedure", never "proved".
procedure_seconds: float | None = None

Procedure = Callable[[sp.Expr], tuple[bool, tuple[str, ...]]]


class _ProcedureTimeout(BaseException):
    """Raised inside a procedure that ran out of time (a BaseException so no `except Exception` swallows it)."""


class _Unusable(Exception):
    """A cleared denominator is zero or not certified non-zero: the procedure proves nothing."""


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the body after `seconds` (main thread only; elsewhere, or for `None`, no limit)."""
    if seconds is None or seconds <= 0 or threading.current_thread() is not threading.main_thread():
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


# ------------------------------------------------------------------------------------- denominators
def vanishes_identically(expr: sp.Expr) -> bool:
    """True when a cheap exact check shows `expr` ≡ 0 (expansion, the circle relations, exponentials)."""
    expr = sp.sympify(expr)
    if expr == 0 or sp.expand(expr) == 0:
        return True
    for check in (_reduce_by_trig_atoms, _exp_numerator):
        try:
            if check(expr) == 0:
                return True
        except Exception:  # a failed check is no evidence either way
            continue
    return False


def checked_conditions(denominators: list[sp.Expr]) -> tuple[str, ...]:
    """Side conditions `f != 0` for the non-constant factors; `_Unusable` for a zero or uncertified one."""
    conditions: list[str] = []
    for denominator in denominators:
        if denominator.is_Rational:
            factors, constant = [], denominator
        else:
            try:
                constant, factored = sp.factor_list(denominator)
                factors = [f for f, _ in factored]
            except (sp.PolynomialError, sp.polys.polyerrors.BasePolynomialError):
                factors, constant = list(sp.Mul.make_args(denominator)), sp.Integer(1)
        for factor in [*factors, constant]:
            if factor.is_Rational:
                if factor == 0:
                    raise _Unusable("a cleared denominator is 0")
                continue
            if not factor.free_symbols:
                if certify_nonzero(factor) is None:
                    raise _Unusable(f"a cleared constant denominator is not certified non-zero: {factor}")
                continue
            if vanishes_identically(factor):
                raise _Unusable(f"a cleared denominator vanishes identically: {factor}")
            if factor.is_nonzero:
                continue
            text = f"{sp.sstr(factor)} != 0"
            if text not in conditions:
                conditions.append(text)
    return tuple(conditions)


def _numerator_and_conditions(expr: sp.Expr) -> tuple[sp.Expr, tuple[str, ...]]:
    numerator, denominator = sp.fraction(sp.together(expr))
    return numerator, checked_conditions([denominator])


# ---------------------------------------------------------------------------------------- trig ideal
def _trig_atoms_to_symbols(expr: sp.Expr) -> tuple[sp.Expr, list[sp.Expr], list[sp.Symbol]]:
    """Replace `sin(u)`, `cos(u)` by fresh symbols per distinct `u`; return the relations `c² + s² − 1`."""
    arguments: list[sp.Expr] = []
    for atom in expr.atoms(sp.sin, sp.cos):
        if atom.args[0] not in arguments:
            arguments.append(atom.args[0])
    arguments.sort(key=sp.default_sort_key)
    substitutions: dict[sp.Expr, sp.Symbol] = {}
    relations: list[sp.Expr] = []
    fresh: list[sp.Symbol] = []
    for k, u in enumerate(arguments):
        c, s = sp.Dummy(f"c{k}"), sp.Dummy(f"s{k}")
        substitutions[sp.cos(u)] = c
        substitutions[sp.sin(u)] = s
        relations.append(c**2 + s**2 - 1)
        fresh += [c, s]
    return expr.xreplace(substitutions), relations, fresh


_EXACT_DOMAINS = ("ZZ", "QQ", "ZZ_I", "QQ_I")


def _reduce_modulo_circle(polynomial: sp.Expr, relations: list[sp.Expr]) -> sp.Expr | None:
    """The remainder of `polynomial` modulo the circle relations, or `None` when the reduction would not be
    exact. Every remaining non-polynomial atom (`exp(x)`, `sqrt(y)`, `Abs(z)`, …) is first replaced by an
    independent variable: an identity that holds for independent values holds for the actual ones."""
    atoms = [a for a in polynomial.atoms(sp.Function, sp.Pow) if not (a.is_Pow and a.exp.is_Integer)]
    abstracted = polynomial.xreplace({a: sp.Dummy("t") for a in atoms})
    if abstracted.atoms(sp.Function) or any(not p.exp.is_Integer for p in abstracted.atoms(sp.Pow)):
        return None  # nested atoms that the replacement did not reach
    generators = sorted(abstracted.free_symbols, key=sp.default_sort_key)
    if not generators:
        return sp.expand(abstracted)
    if not abstracted.is_polynomial(*generators):
        return None
    domain = sp.Poly(abstracted, *generators).domain
    if str(domain) not in _EXACT_DOMAINS and not domain.is_AlgebraicField:
        return None
    if not relations:
        return sp.expand(abstracted)
    # The relations live in disjoint pairs of variables with coprime leading terms, so they already form a
    # Groebner basis; `groebner` recomputes it anyway, which also guards against that reasoning.
    basis = sp.groebner(relations, *generators, order="grevlex", domain=domain)
    _, remainder = basis.reduce(sp.expand(abstracted))
    return sp.expand(remainder)


def _reduce_by_trig_atoms(expr: sp.Expr) -> sp.Expr | None:
    numerator, _ = sp.fraction(sp.together(sp.expand(expr)))
    polynomial, relations, _ = _trig_atoms_to_symbols(sp.expand(numerator))
    return _reduce_modulo_circle(polynomial, relations)


def _groebner_after(residual: sp.Expr, prepare: Callable[[sp.Expr], sp.Expr]) -> tuple[bool, tuple[str, ...]]:
    split = prepare(residual)
    numerator, conditions = _numerator_and_conditions(split)
    polynomial, relations, _ = _trig_atoms_to_symbols(sp.expand(numerator))
    remainder = _reduce_modulo_circle(polynomial, relations)
    return remainder == 0, conditions


def _largest_multiple(expr: sp.Expr) -> int:
    largest = 0
    for atom in expr.atoms(sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc):
        for term in sp.Add.make_args(atom.args[0]):
            coefficient = term.as_coeff_Mul()[0]
            if coefficient.is_Rational:
                largest = max(largest, abs(int(coefficient.p)))
    return largest


def _prove_by_trig_atoms(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    return _groebner_after(residual, lambda r: sp.expand(r))


def _prove_by_trig_expand(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """Angle-addition expansion alone (no use of sin² + cos² = 1)."""
    if _largest_multiple(residual) > MAX_TRIG_MULTIPLE:
        return False, ()
    return sp.expand(sp.expand_trig(sp.expand(residual))) == 0, ()


def _prove_by_groebner_trig(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    if _largest_multiple(residual) > MAX_TRIG_MULTIPLE:
        return False, ()
    return _groebner_after(residual, lambda r: sp.expand(sp.expand_trig(sp.expand(r))))


# --------------------------------------------------------------------------------------- exponentials
def _exp_form(expr: sp.Expr) -> sp.Expr:
    rewritten = expr.rewrite(sp.exp)
    rewritten = sp.expand(rewritten, power_exp=True, mul=True, multinomial=True, power_base=False, log=False)
    rewritten = sp.powsimp(rewritten, combine="exp")
    return sp.expand(rewritten, power_exp=True)


def _exp_numerator(expr: sp.Expr) -> sp.Expr:
    numerator, _ = sp.fraction(sp.together(_exp_form(expr)))
    return sp.expand(numerator, power_exp=True)


def _prove_by_exp_rational(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    numerator, conditions = _numerator_and_conditions(_exp_form(residual))
    return sp.expand(numerator, power_exp=True) == 0, conditions


def _prove_by_complex_trig(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """Split into real and imaginary parts (`expand_complex`, exact), then decide each by `groebner-trig`."""
    if not residual.has(sp.I, sp.re, sp.im, sp.conjugate, sp.exp):
        return False, ()
    real_part, imaginary_part = sp.expand_complex(residual).as_real_imag()
    conditions: list[str] = []
    for part in (real_part, imaginary_part):
        ok, extra = _prove_by_groebner_trig(part)
        if not ok:
            ok, extra = _prove_by_trig_atoms(part)
        if not ok:
            return False, ()
        conditions.extend(c for c in extra if c not in conditions)
    return True, tuple(conditions)


def _powers_as_exponentials(e: sp.Expr) -> sp.Expr:
    """Bottom-up: `B**E → exp(E·log B)` for every non-integer power of a base positive where defined (the
    principal power is defined so), with `log B` split by `log_of_positive`; exponents put in lowest terms."""
    if not e.args:
        return e
    args = [_powers_as_exponentials(a) for a in e.args]
    rebuilt = e.func(*args) if args != list(e.args) else e
    if isinstance(rebuilt, sp.Pow) and not rebuilt.exp.is_Integer and positive_where_defined(rebuilt.base):
        return sp.exp(sp.cancel(sp.expand(rebuilt.exp * log_of_positive(rebuilt.base))))
    if isinstance(rebuilt, sp.exp):
        return sp.exp(sp.cancel(sp.expand(rebuilt.args[0])))
    return rebuilt


def _prove_by_positive_powers(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """Powers of positive bases as exponentials of sums of logarithms (`(b·s**a)**c = b**c·s**(a·c)` for
    positive `b`, `s` and real `a`), then the exponential form."""
    if not any(not p.exp.is_Integer for p in residual.atoms(sp.Pow)):
        return False, ()
    rewritten = _powers_as_exponentials(residual)
    if rewritten == 0:
        return True, ()
    rewritten = sp.powsimp(sp.expand(rewritten, power_exp=False), combine="exp")
    rewritten = rewritten.xreplace({e: sp.exp(sp.cancel(sp.expand(e.args[0]))) for e in rewritten.atoms(sp.exp)})
    numerator, conditions = _numerator_and_conditions(rewritten)
    return sp.expand(numerator) == 0, conditions


def _prove_by_algebraic(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    if residual.free_symbols:
        return False, ()
    from ._algebraic import is_zero_algebraic

    return is_zero_algebraic(residual), ()


_derivative_depth = 0


def _prove_by_derivative(residual: sp.Expr) -> tuple[bool, tuple[str, ...]]:
    """One real variable on a connected open domain, `f` smooth on all of it (`ropecheck.proofs.engine._smooth`), `f′`
    proved 0 and `f(x₀) = 0` proved at a point of the domain: then `f ≡ 0` there."""
    global _derivative_depth
    if len(residual.free_symbols) != 1 or _derivative_depth > 0:
        return False, ()
    (x,) = residual.free_symbols
    x0 = connected_domain_point(x)
    if x0 is None or not smooth_everywhere(residual, x):
        return False, ()
    _derivative_depth += 1
    try:
        slope = prove_zero(sp.diff(residual, x))
        value = prove_zero(residual.xreplace({x: x0})) if slope.verdict is Verdict.PROVED else slope
    finally:
        _derivative_depth -= 1
    return slope.verdict is Verdict.PROVED and value.verdict is Verdict.PROVED, ()


_TRANSCENDENTAL = (sp.Function, sp.Piecewise)


def _is_rational_function(expr: sp.Expr) -> bool:
    """No function applications at all (not even cosh) and only integer powers: clearing denominators
    decides it completely."""
    if expr.atoms(*_TRANSCENDENTAL) or expr.has(sp.I):
        return False
    return all(power.exp.is_Integer for power in expr.atoms(sp.Pow))


_PROCEDURES: tuple[tuple[str, Procedure], ...] = (
    ("trig-expand", _prove_by_trig_expand),
    ("groebner-trig", _prove_by_groebner_trig),
    ("groebner-trig-atoms", _prove_by_trig_atoms),
    ("exp-rational", _prove_by_exp_rational),
    ("complex-trig", _prove_by_complex_trig),
    ("positive-powers", _prove_by_positive_powers),
    ("algebraic", _prove_by_algebraic),
    ("derivative", _prove_by_derivative),
)


def prove_zero(residual: sp.Expr) -> Decision:
    """Try to reduce `residual` to the literal 0 with exact procedures.

    **Arguments:**

    - `residual`: a SymPy expression (symbols carry their assumptions).

    **Returns:** a `Decision` that is `proved` (with the method and side conditions) or `unknown`.
    """
    residual = sp.sympify(residual)
    if residual.has(sp.Float):
        return Decision(Verdict.UNKNOWN, "floating-point numbers are not exact; write decimals as rationals")
    residual, certified = resolve_integer_valued(residual)
    if certified:
        decision = prove_zero(residual)
        method = f"certified-values+{decision.method}" if decision.verdict is Verdict.PROVED else decision.method
        return Decision(decision.verdict, method, conditions=decision.conditions)
    if residual == 0:
        return Decision(Verdict.PROVED, "structural")
    expanded = sp.expand(residual)
    if expanded == 0:
        return Decision(Verdict.PROVED, "expand")
    if _is_rational_function(residual):
        # A rational function of its symbols: clearing denominators and expanding decides it completely.
        if all(power.exp > 0 for power in expanded.atoms(sp.Pow)):
            return Decision(Verdict.UNKNOWN, "polynomial with a non-zero expansion")
        try:
            numerator, conditions = _numerator_and_conditions(expanded)
        except _Unusable as why:
            return Decision(Verdict.UNKNOWN, str(why))
        if sp.expand(numerator) == 0:
            return Decision(Verdict.PROVED, "rational", conditions=conditions)
        return Decision(Verdict.UNKNOWN, "rational function with a non-zero numerator")
    skip_integer_valued = residual.has(*EXACT_ONLY)
    for name, procedure in _PROCEDURES:
        if skip_integer_valued and name in ("exp-rational", "positive-powers"):
            continue  # rewriting would unfold the opaque atoms
        try:
            with _time_limit(procedure_seconds):
                ok, conditions = procedure(residual)
        except (_ProcedureTimeout, RecursionError):
            continue
        except Exception:  # a procedure that fails proves nothing
            continue
        if ok:
            return Decision(Verdict.PROVED, name, conditions=conditions)
    return Decision(Verdict.UNKNOWN, "no exact procedure reduced the residual to 0")
