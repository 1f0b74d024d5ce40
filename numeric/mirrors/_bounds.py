"""The error model over a program, node by node (the node rules of `ropecheck.numeric.reference.tolerances`): the exact
value of every node and a bound on how far the computed value can be from it."""

from __future__ import annotations

import math
from collections.abc import Mapping

import ml_dtypes
import mpmath
import numpy as np
import sympy as sp

from ..reference import tolerances
from ..reference import tolerances as model
from ..reference.tolerances import MPMATH_DPS
from ._program import Node, Program, _table_values

__all__ = ["bounds_and_scale", "run_bounds"]

_NUMPY_DTYPES = {
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
    "float32": np.float32,
    "float64": np.float64,
}


def run_bounds(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], fmt: str
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The error model over a program: for every output, (exact value, bound on |computed − exact|) in the format.

    **Arguments:**

    - `program`: from `compile_program`.
    - `inputs`: symbol → values, as for `run_jax`.
    - `fmt`: one of `FORMATS`.

    **Returns:**

    One `(value, bound)` pair of arrays per output.
    """
    return bounds_and_scale(program, inputs, fmt)[0]


def bounds_and_scale(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], fmt: str
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The error model over a program: for every output, (exact value, bound on |computed − exact|) in the format.

    The exact values are carried in float64 (they only size the bounds); the rules are in
    the node rules of `ropecheck.numeric.tolerances`. Inputs are exact (already stored in the format).

    **Arguments:**

    - `program`: from `compile_program`.
    - `inputs`: symbol → values, as for `run_jax`.
    - `fmt`: one of `FORMATS`.

    **Returns:**

    `(pairs, scale)`: one `(value, bound)` pair of arrays per output, and per case the largest exact magnitude
    of any node (the scale against which the format's resolution, u·scale, is judged).
    """
    size = len(next(iter(inputs.values()))) if inputs else 1
    scale = np.zeros(size)
    u = model.format_unit_roundoff(fmt)
    largest = math.inf if fmt == "mpmath" else tolerances.largest_finite(fmt)
    values: list[np.ndarray] = []
    errors: list[np.ndarray] = []
    zero = np.zeros(size)
    for node in program.nodes:
        vals = [values[a] for a in node.args]
        errs = [errors[a] for a in node.args]
        mags = [np.abs(v) for v in vals]
        with np.errstate(all="ignore"):
            if node.op == "symbol":
                value = np.asarray(inputs[node.data], dtype=np.complex128)
                error = model.input_error(value, fmt)
            elif node.op == "const":
                exact, representable = node.data
                value = np.full(size, complex(exact))
                in_dtype = (
                    representable and _exact_in(complex(exact), fmt) and mpmath.mpmathify(complex(exact)) == exact
                )
                slack = 0.0 if fmt == "mpmath" else 2.0**-53
                error = zero if in_dtype else np.full(size, (u + slack) * abs(complex(exact)) + model.flush_error(fmt))
            elif node.op == "add":
                value, error = sum(vals[1:], vals[0]), model.add_error(mags, errs, fmt)
            elif node.op == "mul":
                value = vals[0]
                for v in vals[1:]:
                    value = value * v
                exact_factors = sum(1 for a in node.args if _is_unit_constant(program.nodes[a]))
                error = model.mul_error(mags, errs, fmt, complex_result=node.complex, exact_factors=exact_factors)
            elif node.op == "pow":
                exponent = node.data
                if exponent == 0:
                    value, error = np.ones(size, dtype=np.complex128), zero
                else:
                    power = vals[0] ** abs(exponent)
                    power_error = model.power_error(mags[0], errs[0], abs(exponent), fmt, complex_result=node.complex)
                    if exponent > 0:
                        value, error = power, power_error
                    else:
                        value = 1 / power
                        error = model.reciprocal_error(np.abs(power), power_error, fmt, complex_result=node.complex)
            elif node.op == "sqrt":
                value, error = np.sqrt(vals[0]), model.sqrt_error(mags[0], errs[0], fmt)
            elif node.op == "exp":
                value = np.exp(vals[0])
                error = model.exp_error(vals[0].real, errs[0], fmt, complex_argument=node.complex)
                if _imaginary_times_real(program, node.args[0]):
                    # e^(iφ̂) with φ̂ real: the computed real part of the argument is exactly 0, so the result
                    # stays on the unit circle up to its evaluation and moves by at most min(e, 2).
                    error = np.minimum(
                        error, np.minimum(errs[0], 2.0) + model.exp_error(zero, zero, fmt, complex_argument=True)
                    )
            elif node.op == "cos":
                value, error = np.cos(vals[0].real) + 0j, model.trig_error(errs[0], fmt)
            elif node.op == "sin":
                value, error = np.sin(vals[0].real) + 0j, model.sine_error(vals[0].real, errs[0], fmt)
            elif node.op == "abs":
                argument = program.nodes[node.args[0]]
                value = mags[0] + 0j
                error = model.modulus_error(mags[0], errs[0], fmt, complex_argument=argument.complex)
            elif node.op in {"re", "im"}:
                value, error = (vals[0].real if node.op == "re" else vals[0].imag) + 0j, errs[0]
            elif node.op == "conj":
                value, error = np.conj(vals[0]), errs[0]
            elif node.op == "table":
                argument = vals[0].real
                integral = np.isfinite(argument) & (argument == np.round(argument))
                value = _table_values(node.data, np.where(integral, argument, 0)) + 0j
                error = np.where(integral & (errs[0] == 0), 0.0, np.inf)
            elif node.op == "piecewise":
                value, error = _bounds_piecewise(node, vals, errs)
            else:  # pragma: no cover
                raise AssertionError(node.op)
        value = np.broadcast_to(np.asarray(value, dtype=np.complex128), (size,))
        error = np.broadcast_to(np.where(np.isnan(error), np.inf, error), (size,))
        if node.op in {"add", "mul", "pow"}:
            error = _integer_exactness(node.op, vals, errs, value, error, fmt)
        if fmt != "mpmath":
            with np.errstate(invalid="ignore"):
                error = np.where(np.abs(value) + error > largest, np.inf, error)  # overflow: out of the model
        values.append(value)
        errors.append(error)
        with np.errstate(invalid="ignore"):
            scale = np.fmax(scale, np.abs(value))
    return [(values[i], errors[i]) for i in program.outputs], scale


def _integer_exactness(
    op: str, vals: list[np.ndarray], errs: list[np.ndarray], value: np.ndarray, error: np.ndarray, fmt: str
) -> np.ndarray:
    """Sums and products of exact integers are exact while every partial result stays within the format's
    exact-integer limit (2048 in float16, 256 in bfloat16, …): positions and offsets such as n − m do not round."""
    limit = tolerances.exact_integer_limit(fmt) if fmt != "mpmath" else 10 ** (MPMATH_DPS - 10)
    exact = np.ones(value.shape, dtype=bool)
    for v, e in zip(vals, errs, strict=True):
        exact &= (e == 0) & (v.imag == 0) & (v.real == np.round(v.real))
    magnitudes = [np.abs(v) for v in vals]
    with np.errstate(over="ignore", invalid="ignore"):
        if op == "add":
            largest = np.sum(magnitudes, axis=0)
        elif op == "mul":
            largest = np.prod(magnitudes, axis=0)
        else:
            largest = np.abs(value)
        largest = np.maximum(largest, np.abs(value))
    return np.where(exact & (largest <= limit), 0.0, error)


def _imaginary_times_real(program: Program, index: int) -> bool:
    """Whether a node is i·(real factors): its computed real part is then exactly 0 (0·x does not round)."""
    node = program.nodes[index]
    if node.op != "mul":
        return False
    factors = [program.nodes[a] for a in node.args]
    unit = [f for f in factors if f.op == "const" and f.complex and complex(f.data[0]) == 1j]
    return len(unit) == 1 and all(not f.complex for f in factors if f is not unit[0])


def _is_unit_constant(node: Node) -> bool:
    return node.op == "const" and abs(complex(node.data[0])) == 1 and node.data[1] and not node.complex


def _bounds_piecewise(node: Node, vals: list[np.ndarray], errs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The branch the exact value takes; where a condition is within its error of the boundary, the computation
    may take a neighbouring branch, so the bound adds the gap between the branch values there."""
    branches: list[tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]] = []
    position = 0
    for relation in node.data:
        value, error = vals[position], errs[position]
        position += 1
        if relation is None:
            branches.append((value, error, None, None))
        else:
            test = vals[position].real
            taken = {"gt": test > 0, "ge": test >= 0, "lt": test < 0, "le": test <= 0}[relation]
            uncertain = np.abs(test) <= errs[position]
            branches.append((value, error, taken, uncertain))
            position += 1
    value, error = branches[-1][0].copy(), branches[-1][1].copy()
    for branch_value, branch_error, taken, _ in reversed(branches[:-1]):
        assert taken is not None
        value = np.where(taken, branch_value, value)
        error = np.where(taken, branch_error, error)
    worst = np.max([b[1] for b in branches], axis=0)
    for index, (_, _, _, uncertain) in enumerate(branches[:-1]):
        assert uncertain is not None
        gap = np.max([np.abs(branches[index][0] - other[0]) for other in branches], axis=0)
        error = np.where(uncertain, np.maximum(error, worst) + gap, error)
    return value, error


def _exact_in(value: complex, fmt: str) -> bool:
    if fmt == "mpmath":
        return True
    numpy_dtype = _NUMPY_DTYPES[fmt]
    parts = np.array([value.real, value.imag])
    return bool(np.all(parts.astype(numpy_dtype).astype(np.float64) == parts))
