"""The mpmath backend of the mirrors: a program evaluated at `MPMATH_DPS` digits, the ground truth."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from ..reference.tolerances import MPMATH_DPS
from ._program import Node, Program, _table_values

__all__ = ["run_mpmath"]


def run_mpmath(program: Program, inputs: Mapping[sp.Symbol, np.ndarray], dps: int = MPMATH_DPS) -> list[list[Any]]:
    """Evaluate a program with mpmath at `dps` digits, case by case.

    **Arguments:**

    - `program`: from `compile_program`.
    - `inputs`: symbol → values (float64 / complex128 arrays; converted exactly).
    - `dps`: working precision in decimal digits.

    **Returns:**

    One list of mpmath numbers (one per case) per output.
    """
    size = len(next(iter(inputs.values()))) if inputs else 1
    results: list[list[Any]] = [[] for _ in program.outputs]
    with mpmath.workdps(dps):
        for case in range(size):
            values: list[Any] = []
            for node in program.nodes:
                values.append(_mpmath_node(node, [values[a] for a in node.args], inputs, case))
            for slot, index in enumerate(program.outputs):
                results[slot].append(values[index])
    return results


def _mpmath_node(node: Node, args: list[Any], inputs: Mapping[sp.Symbol, np.ndarray], case: int) -> Any:
    op = node.op
    if op == "symbol":
        raw = complex(np.asarray(inputs[node.data])[case])
        return mpmath.mpc(raw.real, raw.imag) if node.complex else mpmath.mpf(raw.real)
    if op == "const":
        return +node.data[0]
    if op == "add":
        return mpmath.fsum(args)
    if op == "mul":
        result = args[0]
        for a in args[1:]:
            result = result * a
        return result
    if op == "pow":
        return args[0] ** node.data
    if op == "sqrt":
        return mpmath.sqrt(args[0])
    if op in {"exp", "cos", "sin"}:
        return getattr(mpmath, op)(args[0])
    if op == "abs":
        return abs(args[0])
    if op == "re":
        return mpmath.re(args[0])
    if op == "im":
        return mpmath.im(args[0])
    if op == "conj":
        return mpmath.conj(args[0])
    if op == "table":
        argument = mpmath.re(args[0])
        if argument != mpmath.nint(argument):
            return mpmath.nan
        return mpmath.mpf(float(_table_values(node.data, np.array([int(argument)]))[0]))
    if op == "piecewise":
        position = 0
        for relation in node.data:
            value = args[position]
            position += 1
            if relation is None:
                return value
            test = mpmath.re(args[position])
            position += 1
            if {"gt": test > 0, "ge": test >= 0, "lt": test < 0, "le": test <= 0}[relation]:
                return value
        return mpmath.nan
    raise AssertionError(op)  # pragma: no cover
