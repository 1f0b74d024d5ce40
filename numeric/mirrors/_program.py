"""Straight-line programs compiled from SymPy statements: one operation per SymPy node.

Each expression given to `compile_program` (each side of a comparison) is compiled on its own: subexpressions are
shared within one side, never across sides, so the two sides of a comparison are computed independently and a
mirror can fail. A comparison whose sides are structurally equal SymPy expressions is not compiled at all
(`ropecheck.numeric.mirrors._comparisons` reports it "not numerically tested").
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef

from ..reference.tolerances import MPMATH_DPS

__all__ = ["Node", "NotEvaluable", "Program", "compile_program"]

# Functions whose value a mirror must compute in the format (not fold into a rounded constant).
_COMPUTED = (sp.cos, sp.sin, sp.exp, sp.Abs, sp.re, sp.im, sp.conjugate, sp.Piecewise)
_RELATIONS = {
    sp.StrictGreaterThan: "gt",
    sp.GreaterThan: "ge",
    sp.StrictLessThan: "lt",
    sp.LessThan: "le",
}


class NotEvaluable(ValueError):
    """A statement part with no finite numeric form (symbolic sums, indexed objects, unknown functions)."""


@dataclasses.dataclass(frozen=True)
class Node:
    """One operation: `op` on the values of the nodes `args`, with static `data` (constant, exponent, …)."""

    op: str
    args: tuple[int, ...]
    data: Any
    complex: bool


@dataclasses.dataclass(frozen=True)
class Program:
    """A straight-line program for a list of SymPy expressions (matrix entries flattened, row-major).

    **Fields:**

    - `nodes`: operations in evaluation order.
    - `outputs`: the node of each expression.
    - `symbols`: the free symbols, the program's inputs.
    """

    nodes: tuple[Node, ...]
    outputs: tuple[int, ...]
    symbols: tuple[sp.Symbol, ...]


class _Compiler:
    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.memo: dict[sp.Basic, int] = {}
        self.symbols: dict[sp.Symbol, int] = {}

    def add(self, op: str, args: tuple[int, ...], data: Any, is_complex: bool) -> int:
        self.nodes.append(Node(op, args, data, is_complex))
        return len(self.nodes) - 1

    def complex_of(self, args: Sequence[int]) -> bool:
        return any(self.nodes[a].complex for a in args)

    def constant(self, expr: sp.Expr) -> int:
        value = sp.N(expr, MPMATH_DPS + 20)
        real, imag = (sp.Float(part, MPMATH_DPS + 20) for part in value.as_real_imag())
        is_complex = not imag.is_zero
        with mpmath.workdps(MPMATH_DPS + 20):
            exact = mpmath.mpc(str(real), str(imag)) if is_complex else mpmath.mpf(str(real))
        representable = bool(expr.is_Rational) or expr == sp.I
        return self.add("const", (), (exact, representable), is_complex)

    def visit(self, expr: sp.Basic) -> int:
        if expr in self.memo:
            return self.memo[expr]
        index = self._visit(expr)
        self.memo[expr] = index
        return index

    def _visit(self, expr: sp.Basic) -> int:
        if isinstance(expr, sp.Symbol):
            index = self.add("symbol", (), expr, not bool(expr.is_real))
            self.symbols[expr] = index
            return index
        if isinstance(expr, sp.Expr) and not expr.free_symbols and not expr.has(*_COMPUTED, AppliedUndef):
            if expr.has(sp.Sum, sp.Product, sp.Integral, sp.Indexed, sp.zoo, sp.nan, sp.oo):
                raise NotEvaluable(f"no finite value: {expr}")
            return self.constant(expr)
        if isinstance(expr, sp.Add | sp.Mul):
            args = tuple(self.visit(a) for a in expr.args)
            return self.add("add" if isinstance(expr, sp.Add) else "mul", args, None, self.complex_of(args))
        if isinstance(expr, sp.Pow):
            return self._power(expr)
        for function, op in ((sp.cos, "cos"), (sp.sin, "sin"), (sp.exp, "exp"), (sp.Abs, "abs")):
            if isinstance(expr, function):
                (arg,) = (self.visit(a) for a in expr.args)
                if op in {"cos", "sin"} and self.nodes[arg].complex:
                    raise NotEvaluable(f"{op} of a complex argument")
                return self.add(op, (arg,), None, op == "exp" and self.nodes[arg].complex)
        for function, op in ((sp.re, "re"), (sp.im, "im"), (sp.conjugate, "conj")):
            if isinstance(expr, function):
                arg = self.visit(expr.args[0])
                return self.add(op, (arg,), None, op == "conj" and self.nodes[arg].complex)
        if isinstance(expr, sp.Piecewise):
            return self._piecewise(expr)
        if isinstance(expr, AppliedUndef) and len(expr.args) == 1:
            arg = self.visit(expr.args[0])
            return self.add("table", (arg,), expr.func.__name__, False)
        raise NotEvaluable(f"no numeric form for {type(expr).__name__}: {expr}")

    def _power(self, expr: sp.Pow) -> int:
        base, exponent = expr.args
        if exponent.free_symbols:
            if base.free_symbols:
                raise NotEvaluable(f"power with symbolic base and exponent: {expr}")
            # b^e = exp(e·log b) for a constant positive base: how a framework forms base^(−2i/d).
            log_base = self.constant(sp.log(base))
            product = self.add("mul", (self.visit(exponent), log_base), None, False)
            return self.add("exp", (product,), None, False)
        base_index = self.visit(base)
        is_complex = self.nodes[base_index].complex
        if exponent.is_Integer:
            return self.add("pow", (base_index,), int(exponent), is_complex)
        if exponent in (sp.Rational(1, 2), sp.Rational(-1, 2)) and not is_complex:
            root = self.add("sqrt", (base_index,), None, False)
            return root if exponent > 0 else self.add("pow", (root,), -1, False)
        raise NotEvaluable(f"no numeric form for the power {expr}")

    def _piecewise(self, expr: sp.Piecewise) -> int:
        args: list[int] = []
        spec: list[str | None] = []
        for value, condition in expr.args:
            args.append(self.visit(value))
            if condition is sp.true:
                spec.append(None)
                continue
            relation = _RELATIONS.get(type(condition))
            if relation is None:
                raise NotEvaluable(f"piecewise condition {condition}")
            args.append(self.visit(condition.lhs - condition.rhs))
            spec.append(relation)
        return self.add("piecewise", tuple(args), tuple(spec), self.complex_of(args))


def _flatten(expr: sp.Basic) -> list[sp.Expr]:
    if isinstance(expr, sp.MatrixBase):
        return list(expr)
    return [sp.sympify(expr)]


def compile_program(exprs: Sequence[sp.Basic]) -> Program:
    """Compile SymPy expressions (scalars or matrices, flattened) into one program, each expression on its own.

    Subexpressions are shared within one expression (the entries of one matrix side share their cos/sin), never
    between two expressions: the nodes reachable from the outputs of `exprs[0]` and of `exprs[1]` are disjoint,
    so the two sides of a comparison are computed independently.

    **Arguments:**

    - `exprs`: the expressions, e.g. `[lhs, rhs]` of an identity.

    **Returns:**

    A `Program` whose outputs are the flattened entries of each expression in order.

    **Raises:** `NotEvaluable` for parts with no finite numeric form.
    """
    compiler = _Compiler()
    outputs = []
    for expr in exprs:
        compiler.memo = {}
        outputs += [compiler.visit(entry) for entry in _flatten(expr)]
    symbols = tuple(sorted(compiler.symbols, key=str))
    return Program(tuple(compiler.nodes), tuple(outputs), symbols)


def _table_values(name: str, arguments: np.ndarray) -> np.ndarray:
    """An arbitrary but fixed learned table, value(k) ∈ {−3, …, 3} in steps of 1/16 (exact in every dtype)."""
    offset = zlib.crc32(name.encode()) % 97
    return (((37 * arguments.astype(np.int64) + offset) % 97) - 48) / 16.0
