"""Piecewise-constant and order functions that evaluate **only on exact rationals**.

SymPy's own `floor`, `ceiling`, `frac`, `sign`, `Min` and `Max` evaluate closed arguments at construction
with low-precision numerics: `floor(cos(10**-200))` becomes `1` (it is 0). The classes here never do that:
on an exact rational they evaluate exactly, on an argument with free symbols they use only what the declared
domains imply (`floor(n) = n` for an integer `n`, `sign(x) = 1` for a positive `x`); otherwise they stay
unevaluated atoms, which the exact procedures
treat as opaque and `ropecheck.proofs.engine._interval` encloses only when the argument's interval lies strictly
inside one
integer cell (for `sign`: strictly on one side of 0). They print as the usual names.
"""

from __future__ import annotations

from typing import Any

import sympy as sp


class _ExactOnly(sp.Function):
    """Base: print as `printed_name`; subclasses evaluate exact rationals only."""

    printed_name = ""

    def _sympystr(self, printer: Any) -> str:
        return f"{self.printed_name}({', '.join(printer._print(a) for a in self.args)})"

    def _latex(self, printer: Any) -> str:
        return rf"\operatorname{{{self.printed_name}}}\left({', '.join(printer._print(a) for a in self.args)}\right)"

    def _eval_is_real(self) -> bool | None:
        return True if all(a.is_extended_real for a in self.args) else None


def _symbolic_integer(arg: sp.Expr) -> bool:
    """An argument with free symbols that the declared domains make an integer (`floor(n) = n`)."""
    return bool(arg.free_symbols) and arg.is_integer is True


class Floor(_ExactOnly):
    """`floor(x)`: the greatest integer ≤ x (real x)."""

    printed_name = "floor"
    nargs = 1

    @classmethod
    def eval(cls, arg: sp.Expr) -> sp.Expr | None:
        if isinstance(arg, sp.Rational):
            return sp.Integer(arg.p // arg.q)
        return arg if _symbolic_integer(arg) else None

    def _eval_is_integer(self) -> bool | None:
        return True if self.args[0].is_extended_real else None


class Ceiling(_ExactOnly):
    """`ceiling(x)`: the least integer ≥ x (real x)."""

    printed_name = "ceiling"
    nargs = 1

    @classmethod
    def eval(cls, arg: sp.Expr) -> sp.Expr | None:
        if isinstance(arg, sp.Rational):
            return sp.Integer(-((-arg.p) // arg.q))
        return arg if _symbolic_integer(arg) else None

    def _eval_is_integer(self) -> bool | None:
        return True if self.args[0].is_extended_real else None


class Frac(_ExactOnly):
    """`frac(x) = x − floor(x)` (real x)."""

    printed_name = "frac"
    nargs = 1

    @classmethod
    def eval(cls, arg: sp.Expr) -> sp.Expr | None:
        if isinstance(arg, sp.Rational):
            return arg - sp.Integer(arg.p // arg.q)
        return sp.Integer(0) if _symbolic_integer(arg) else None


class Sign(_ExactOnly):
    """`sign(z)`: −1, 0, 1 for real z; `z/|z|` for complex z ≠ 0."""

    printed_name = "sign"
    nargs = 1

    @classmethod
    def eval(cls, arg: sp.Expr) -> sp.Expr | None:
        if isinstance(arg, sp.Rational):
            return sp.Integer((arg.p > 0) - (arg.p < 0))
        if arg.free_symbols:  # the declared domains decide it (x positive: sign(x) = 1)
            for test, value in ((arg.is_extended_positive, 1), (arg.is_extended_negative, -1), (arg.is_zero, 0)):
                if test is True:
                    return sp.Integer(value)
        return None


class Min(_ExactOnly):
    """`Min(a, b, …)` of real arguments."""

    printed_name = "Min"

    @classmethod
    def eval(cls, *args: sp.Expr) -> sp.Expr | None:
        return min(args) if all(isinstance(a, sp.Rational) for a in args) else None


class Max(_ExactOnly):
    """`Max(a, b, …)` of real arguments."""

    printed_name = "Max"

    @classmethod
    def eval(cls, *args: sp.Expr) -> sp.Expr | None:
        return max(args) if all(isinstance(a, sp.Rational) for a in args) else None


EXACT_ONLY: tuple[type[sp.Function], ...] = (Floor, Ceiling, Frac, Sign, Min, Max)
