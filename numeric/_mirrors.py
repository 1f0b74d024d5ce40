"""Numeric mirrors of the ledger: the registry's own SymPy statements evaluated in JAX (four dtypes) and mpmath.

A mirror never restates a formula. `compile_program` turns the SymPy objects a claim holds (`proofs._statements`)
into a straight-line program, one operation per SymPy node (common subexpressions shared); three backends run
that program:

- **JAX** (`run_jax`) in float16, bfloat16, float32 or float64 (x64 enabled), rounding after every operation as
  the dtype does. Complex values are carried as (real, imaginary) pairs of the dtype, because JAX has no complex
  float16/bfloat16 and a user of those dtypes does complex arithmetic on pairs too. Constant leaves (10000^(−1/64),
  π, 1/2) are computed exactly and rounded once into the dtype; cos, sin and exp of constants are computed in it.
  Operations run eagerly: per-operation rounding is exactly what the error model describes (a fused, jitted
  float16 kernel may keep intermediates in float32, which only rounds less).
- **bounds** (`run_bounds`): the error model of `numeric.tolerances`, node by node (its node rules):
  the exact value of every node and a bound on how far the computed value can be from it.
- **mpmath** (`run_mpmath`) at `MPMATH_DPS` digits: the ground truth, and the fifth column of the evidence.

`sympy.lambdify` would print the same program as source code; it cannot carry complex pairs in float16 and
would hide the per-node structure the bounds need, so the program is interpreted instead. Tests cross-check the
interpreter against `lambdify(..., modules="mpmath")`.

`comparisons(claim)` extracts what a claim asserts numerically (claim IDs: every ledger entry):

- `holds`: an identity, lhs and rhs evaluated at sampled points; the residual |lhs − rhs| computed in the format
  must stay within bound(lhs) + bound(rhs).
- `fails`: a refuted identity at its certified counterexample; the computed discrepancy must exceed its
  bound by `REFUTATION_FACTOR`.
- `witness`: a certified value (`Witness`) that must stay within its bound of the exact value *and* be certified
  (positive / non-zero) by the computation itself: |value| > bound. Inside a refutation (a witness of the negation)
  and for a refuted `NonPositive`, the value must exceed `REFUTATION_FACTOR` × bound.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import ml_dtypes
import mpmath
import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef

from . import tolerances
from . import tolerances as model
from .tolerances import FORMATS, MPMATH_DPS

jax.config.update("jax_enable_x64", True)

__all__ = [
    "DTYPES",
    "FORMATS",
    "MPMATH_DPS",
    "REFUTATION_FACTOR",
    "Comparison",
    "NotEvaluable",
    "Outcome",
    "Program",
    "compare",
    "comparisons",
    "compile_program",
    "draw_points",
    "run_bounds",
    "run_jax",
    "run_mpmath",
    "statement_comparisons",
    "store_in",
]

DTYPES = FORMATS[:4]
#: A refutation is numerically solid when the discrepancy exceeds the rounding bound by this factor.
REFUTATION_FACTOR = 100.0
#: At most this many parts of a long conjunction (or blocks of an explicit instance) are mirrored, evenly spread.
MAX_PARTS = 6

_JAX_DTYPES = {
    "float16": jnp.float16,
    "bfloat16": jnp.bfloat16,
    "float32": jnp.float32,
    "float64": jnp.float64,
}
_NUMPY_DTYPES = {
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
    "float32": np.float32,
    "float64": np.float64,
}
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


# ------------------------------------------------------------------------------------------- programs
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
    """Compile SymPy expressions (scalars or matrices, flattened) into one program with shared subexpressions.

    **Arguments:**

    - `exprs`: the expressions, e.g. `[lhs, rhs]` of an identity.

    **Returns:**

    A `Program` whose outputs are the flattened entries of each expression in order.

    **Raises:** `NotEvaluable` for parts with no finite numeric form.
    """
    compiler = _Compiler()
    outputs = [compiler.visit(entry) for expr in exprs for entry in _flatten(expr)]
    symbols = tuple(sorted(compiler.symbols, key=str))
    return Program(tuple(compiler.nodes), tuple(outputs), symbols)


def _table_values(name: str, arguments: np.ndarray) -> np.ndarray:
    """An arbitrary but fixed learned table, value(k) ∈ {−3, …, 3} in steps of 1/16 (exact in every dtype)."""
    offset = zlib.crc32(name.encode()) % 97
    return (((37 * arguments.astype(np.int64) + offset) % 97) - 48) / 16.0


# ---------------------------------------------------------------------------------------------- JAX
@dataclasses.dataclass(frozen=True)
class _Pair:
    re: jax.Array
    im: jax.Array | None

    def imag(self) -> jax.Array:
        return self.im if self.im is not None else jnp.zeros_like(self.re)


def _jax_add(a: _Pair, b: _Pair) -> _Pair:
    if a.im is None and b.im is None:
        return _Pair(a.re + b.re, None)
    if a.im is None:
        return _Pair(a.re + b.re, b.im)
    if b.im is None:
        return _Pair(a.re + b.re, a.im)
    return _Pair(a.re + b.re, a.im + b.im)


def _jax_mul(a: _Pair, b: _Pair) -> _Pair:
    if a.im is None and b.im is None:
        return _Pair(a.re * b.re, None)
    if a.im is None:
        return _Pair(a.re * b.re, a.re * b.im)
    if b.im is None:
        return _Pair(a.re * b.re, a.im * b.re)
    return _Pair(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)


def _jax_reciprocal(a: _Pair) -> _Pair:
    if a.im is None:
        return _Pair(1 / a.re, None)
    scale = a.re * a.re + a.im * a.im
    return _Pair(a.re / scale, -a.im / scale)


def _jax_power(a: _Pair, exponent: int, dtype: Any, size: int) -> _Pair:
    if exponent == 0:
        return _Pair(jnp.ones(size, dtype), None)
    result = a
    for _ in range(abs(exponent) - 1):
        result = _jax_mul(result, a)
    return _jax_reciprocal(result) if exponent < 0 else result


def _jax_condition(value: jax.Array, relation: str) -> jax.Array:
    return {"gt": value > 0, "ge": value >= 0, "lt": value < 0, "le": value <= 0}[relation]


def run_jax(program: Program, inputs: Mapping[sp.Symbol, np.ndarray], dtype: str) -> list[np.ndarray]:
    """Evaluate a program in a JAX dtype, rounding after every operation.

    **Arguments:**

    - `program`: from `compile_program`.
    - `inputs`: symbol → values (complex128 for complex symbols), already representable in the dtype
      (`store_in`); all of one batch length.
    - `dtype`: one of `DTYPES`.

    **Returns:**

    One complex128 (or float64) NumPy array per output, converted exactly from the dtype.
    """
    jax_dtype = _JAX_DTYPES[dtype]
    size = len(next(iter(inputs.values()))) if inputs else 1
    values: list[_Pair] = []
    for node in program.nodes:
        args = [values[a] for a in node.args]
        if node.op == "symbol":
            raw = np.asarray(inputs[node.data])
            re = jnp.asarray(raw.real.astype(np.float64)).astype(jax_dtype)
            im = jnp.asarray(raw.imag.astype(np.float64)).astype(jax_dtype) if node.complex else None
            value = _Pair(re, im)
        elif node.op == "const":
            exact = node.data[0]
            re = jnp.full(size, float(mpmath.re(exact)), dtype=jnp.float64).astype(jax_dtype)
            im = jnp.full(size, float(mpmath.im(exact)), dtype=jnp.float64).astype(jax_dtype) if node.complex else None
            value = _Pair(re, im)
        elif node.op == "add":
            value = args[0]
            for other in args[1:]:
                value = _jax_add(value, other)
        elif node.op == "mul":
            value = args[0]
            for other in args[1:]:
                value = _jax_mul(value, other)
        elif node.op == "pow":
            value = _jax_power(args[0], node.data, jax_dtype, size)
        elif node.op == "sqrt":
            value = _Pair(jnp.sqrt(args[0].re), None)
        elif node.op == "exp":
            (a,) = args
            if a.im is None:
                value = _Pair(jnp.exp(a.re), None)
            else:
                scale = jnp.exp(a.re)
                value = _Pair(scale * jnp.cos(a.im), scale * jnp.sin(a.im))
        elif node.op in {"cos", "sin"}:
            value = _Pair(getattr(jnp, node.op)(args[0].re), None)
        elif node.op == "abs":
            (a,) = args
            value = _Pair(jnp.abs(a.re) if a.im is None else jnp.sqrt(a.re * a.re + a.im * a.im), None)
        elif node.op == "re":
            value = _Pair(args[0].re, None)
        elif node.op == "im":
            value = _Pair(args[0].imag(), None)
        elif node.op == "conj":
            a = args[0]
            value = a if a.im is None else _Pair(a.re, -a.im)
        elif node.op == "table":
            argument = np.asarray(args[0].re, dtype=np.float64)
            table = _table_values(node.data, np.where(np.isfinite(argument), argument, 0))
            value = _Pair(jnp.asarray(table).astype(jax_dtype), None)
        elif node.op == "piecewise":
            value = _jax_piecewise(node, args)
        else:  # pragma: no cover - the compiler emits no other operation
            raise AssertionError(node.op)
        if value.re.dtype != jax_dtype:
            raise AssertionError(f"{node.op} produced {value.re.dtype}, wanted {dtype}")
        values.append(value)
    out = []
    for index in program.outputs:
        pair = values[index]
        re = np.asarray(pair.re.astype(jnp.float64))
        out.append(re if pair.im is None else re + 1j * np.asarray(pair.im.astype(jnp.float64)))
    return [np.broadcast_to(o, (size,)) for o in out]


def _jax_piecewise(node: Node, args: list[_Pair]) -> _Pair:
    branches: list[tuple[_Pair, jax.Array | None]] = []
    position = 0
    for relation in node.data:
        value = args[position]
        position += 1
        if relation is None:
            branches.append((value, None))
        else:
            branches.append((value, _jax_condition(args[position].re, relation)))
            position += 1
    result_re = branches[-1][0].re
    result_im = branches[-1][0].imag() if node.complex else None
    for value, condition in reversed(branches[:-1]):
        assert condition is not None
        result_re = jnp.where(condition, value.re, result_re)
        if result_im is not None:
            result_im = jnp.where(condition, value.imag(), result_im)
    return _Pair(result_re, result_im)


# ------------------------------------------------------------------------------------------- bounds
def run_bounds(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], fmt: str
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The error model over a program: for every output, (exact value, bound on |computed − exact|) in the format.

    The exact values are carried in float64 (they only size the bounds); the rules are in
    the node rules of `numeric.tolerances`. Inputs are exact (already stored in the format).

    **Arguments:**

    - `program`: from `compile_program`.
    - `inputs`: symbol → values, as for `run_jax`.
    - `fmt`: one of `FORMATS`.

    **Returns:**

    One `(value, bound)` pair of arrays per output.
    """
    size = len(next(iter(inputs.values()))) if inputs else 1
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
                value, error = np.asarray(inputs[node.data], dtype=np.complex128), zero
            elif node.op == "const":
                exact, representable = node.data
                value = np.full(size, complex(exact))
                in_dtype = (
                    representable and _exact_in(complex(exact), fmt) and mpmath.mpmathify(complex(exact)) == exact
                )
                slack = 0.0 if fmt == "mpmath" else 2.0**-53
                error = zero if in_dtype else np.full(size, (u + slack) * abs(complex(exact)))
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
    return [(values[i], errors[i]) for i in program.outputs]


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


# ------------------------------------------------------------------------------------------- mpmath
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


# -------------------------------------------------------------------------------------------- inputs
def store_in(values: np.ndarray, fmt: str) -> np.ndarray:
    """Round values (real or complex) into a format and back to float64/complex128, exactly.

    Values beyond the format's range become ±inf; the caller drops such cases (out of the dtype's range).
    """
    values = np.asarray(values)
    if fmt == "mpmath":
        return values.astype(np.complex128) if np.iscomplexobj(values) else values.astype(np.float64)
    numpy_dtype = _NUMPY_DTYPES[fmt]
    with np.errstate(over="ignore"):
        real = values.real.astype(np.float64).astype(numpy_dtype).astype(np.float64)
        if np.iscomplexobj(values):
            return real + 1j * values.imag.astype(np.float64).astype(numpy_dtype).astype(np.float64)
        return real


def draw_points(
    symbols: Sequence[sp.Symbol], cases: int, seed: int, *, position_limit: int = 256
) -> dict[sp.Symbol, np.ndarray]:
    """Sample points from each symbol's domain (its SymPy assumptions), deterministically.

    Integers: positions in [−`position_limit`, `position_limit`], non-negative indices in [0, 7], positive
    counts in [1, `position_limit`], even dimensions in {2, …, 16}. Positive reals in [1/64, 1] (frequencies,
    scales), reals in [−2, 2], complex numbers with both parts in [−2, 2].

    **Arguments:**

    - `symbols`: the program's inputs.
    - `cases`: how many points.
    - `seed`: the random seed.
    - `position_limit`: the largest |position|; `compare` passes a sixteenth of the dtype's exact-integer limit
      (at most 256), so sums of positions stay exact and angles informative (larger positions are the subject
      of `numeric._precision_limits`).

    **Returns:**

    symbol → float64 (complex128 for complex symbols) array of length `cases`.
    """
    rng = np.random.default_rng(seed)
    points: dict[sp.Symbol, np.ndarray] = {}
    for symbol in symbols:
        if symbol.is_integer:
            if symbol.is_even and symbol.is_positive:
                values = 2.0 * rng.integers(1, 9, cases)
            elif symbol.is_positive:
                values = rng.integers(1, position_limit + 1, cases).astype(np.float64)
            elif symbol.is_nonnegative:
                values = rng.integers(0, 8, cases).astype(np.float64)
            else:
                values = rng.integers(-position_limit, position_limit + 1, cases).astype(np.float64)
        elif symbol.is_positive:
            values = rng.uniform(1 / 64, 1, cases)
        elif symbol.is_real:
            values = rng.uniform(-2, 2, cases)
        else:
            values = rng.uniform(-2, 2, cases) + 1j * rng.uniform(-2, 2, cases)
        points[symbol] = values
    return points


def _point_values(point: Mapping[str, str], symbols: Sequence[sp.Symbol]) -> dict[sp.Symbol, np.ndarray]:
    """An exact counterexample/witness point (SymPy strings) as one-case input arrays."""
    by_name = {str(k): sp.sympify(v) for k, v in point.items()}
    values: dict[sp.Symbol, np.ndarray] = {}
    for symbol in symbols:
        if str(symbol) not in by_name:
            raise NotEvaluable(f"the point does not fix {symbol}")
        values[symbol] = np.array([complex(sp.N(by_name[str(symbol)], 30))])
        if symbol.is_real:
            values[symbol] = values[symbol].real
    return values


# --------------------------------------------------------------------------------------- comparisons
@dataclasses.dataclass(frozen=True)
class Comparison:
    """One numeric assertion taken from a statement.

    **Fields:**

    - `name`: the statement part it comes from.
    - `kind`: `holds` (identity at sampled points), `fails` (refuted identity at its counterexample) or
      `witness` (a certified value).
    - `exprs`: `(lhs, rhs)` for identities, `(value,)` for witnesses.
    - `point`: the exact point (symbol name → SymPy string) for `fails` and `witness`; None to sample.
    - `relation`: for witnesses, `positive` or `nonzero`.
    - `factor`: how far a `fails` discrepancy (or a witness value) must exceed its bound: `REFUTATION_FACTOR`
      when it refutes a claim, 1 for a witness of a proved existence claim.
    """

    name: str
    kind: str
    exprs: tuple[sp.Basic, ...]
    point: Mapping[str, str] | None = None
    relation: str = "nonzero"
    factor: float = 1.0

    @property
    def program(self) -> Program:
        return _program_of(self.exprs)


_PROGRAMS: dict[int, tuple[tuple[sp.Basic, ...], Program]] = {}


def _program_of(exprs: tuple[sp.Basic, ...]) -> Program:
    key = id(exprs)
    cached = _PROGRAMS.get(key)
    if cached is None or cached[0] is not exprs:
        cached = (exprs, compile_program(exprs))
        _PROGRAMS[key] = cached
    return cached[1]


def _spread(items: Sequence[Any], limit: int = MAX_PARTS) -> list[Any]:
    if len(items) <= limit:
        return list(items)
    picks = sorted({round(i * (len(items) - 1) / (limit - 1)) for i in range(limit)})
    return [items[i] for i in picks]


def statement_comparisons(
    statement: Any, verdict: str, counterexample_point: Mapping[str, str] | None, *, refuting: bool = False
) -> list[Comparison]:
    """The comparisons a statement asserts, given how the engine decided it.

    **Arguments:**

    - `statement`: a `proofs._statements` statement.
    - `verdict`: the engine's verdict for it (`proved`, `refuted`, `unknown`).
    - `counterexample_point`: the decision's counterexample point, for refuted statements.
    - `refuting`: the statement is the witness of a negation (inside a `Refutation`): its witnesses must then
      clear `REFUTATION_FACTOR`.

    **Returns:**

    The comparisons; parts with no numeric form (symbolic sums, indexed objects) are left out.
    """
    from proofs._statements import (
        AllOf,
        BlockInstances,
        Claimed,
        Derivation,
        Identity,
        Induction,
        NonPositive,
        Refutation,
        Witness,
    )

    out: list[Comparison] = []
    if isinstance(statement, Identity):
        if verdict == "refuted" and counterexample_point is not None:
            out.append(
                Comparison(
                    statement.name,
                    "fails",
                    (statement.lhs, statement.rhs),
                    counterexample_point,
                    factor=REFUTATION_FACTOR,
                )
            )
        else:
            out.append(Comparison(statement.name, "holds", (statement.lhs, statement.rhs)))
    elif isinstance(statement, Witness):
        point = {str(k): str(v) for k, v in statement.point.items()}
        factor = REFUTATION_FACTOR if refuting else 1.0
        out.append(Comparison(statement.name, "witness", (statement.expr,), point, statement.relation, factor))
    elif isinstance(statement, NonPositive):
        if verdict == "refuted" and counterexample_point is not None:
            out.append(
                Comparison(
                    statement.name, "witness", (statement.expr,), counterexample_point, "positive", REFUTATION_FACTOR
                )
            )
    elif isinstance(statement, AllOf):
        refuted_parts = [p for p in statement.parts if verdict == "refuted" and _part_refuted(p)]
        parts = refuted_parts[:1] + _spread([p for p in statement.parts if p not in refuted_parts])
        for part in parts:
            part_verdict = "refuted" if part in refuted_parts else "proved"
            out += statement_comparisons(part, part_verdict, counterexample_point, refuting=refuting)
    elif isinstance(statement, Derivation):
        for step in statement.steps:
            out += statement_comparisons(step, "proved", None, refuting=refuting)
    elif isinstance(statement, Induction):
        out += statement_comparisons(statement.base, "proved", None)
        out += statement_comparisons(statement.step, "proved", None)
    elif isinstance(statement, Refutation):
        out += statement_comparisons(statement.against, "proved", None, refuting=True)
    elif isinstance(statement, BlockInstances):
        for frequency in _spread(list(statement.frequencies)):
            lhs, rhs = statement.build(frequency)
            out.append(Comparison(f"{statement.name}, block {frequency}", "holds", (lhs, rhs)))
    elif isinstance(statement, Claimed):
        pass
    kept = []
    for comparison in out:
        try:
            _program_of(comparison.exprs)
        except NotEvaluable:
            continue
        kept.append(comparison)
    return kept


def _part_refuted(part: Any) -> bool:
    """Whether a conjunct is the refuted one (decided again: conjuncts are small)."""
    return str(part.decide().verdict) == "refuted"


def comparisons(claim: Any) -> list[Comparison]:
    """The comparisons of a ledger claim (all claim IDs), using the engine's decision for the verdict."""
    decision = claim.decide()
    point = decision.counterexample.point if decision.counterexample is not None else None
    return statement_comparisons(claim.statement, str(decision.verdict), point)


# ------------------------------------------------------------------------------------------ outcomes
@dataclasses.dataclass(frozen=True)
class Outcome:
    """A comparison evaluated in one format.

    **Fields:**

    - `measured`: per case, the error (`holds`: |lhs − rhs| computed; witness: |computed − exact|) or, for
      `fails`, the discrepancy |lhs − rhs| computed.
    - `bounds`: per case, the model's bound (for `holds`, bound(lhs) + bound(rhs)).
    - `values`: for witnesses, the computed values (else empty).
    - `skipped`: cases out of the format's range (inputs overflowed) or out of the model (infinite bound).
    - `ok`: whether the comparison agrees with its kind (see the module docstring).
    """

    comparison: Comparison
    fmt: str
    measured: np.ndarray
    bounds: np.ndarray
    values: np.ndarray
    skipped: int

    @property
    def ok(self) -> bool:
        kind, factor = self.comparison.kind, self.comparison.factor
        if self.measured.size == 0:
            return False
        if kind == "holds":
            return bool(np.all(self.measured <= self.bounds))
        if kind == "fails":
            return bool(np.all(self.measured >= factor * self.bounds))
        consistent = bool(np.all(self.measured <= self.bounds))
        if self.comparison.relation == "positive":
            certified = np.all(self.values > factor * self.bounds)
        else:
            certified = np.all(np.abs(self.values) > factor * self.bounds)
        return consistent and bool(certified)

    def error(self) -> tuple[float, float, float]:
        """(error, bound, ratio) of the case with the largest error/bound (for `fails`, the discrepancy)."""
        if self.measured.size == 0:
            return math.nan, math.nan, math.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(self.bounds > 0, self.measured / self.bounds, np.where(self.measured > 0, np.inf, 0.0))
        index = int(np.argmax(ratios))
        return float(self.measured[index]), float(self.bounds[index]), float(ratios[index])

    def margin(self) -> tuple[float, float, float]:
        """(size, bound, ratio) of the case with the smallest size/bound, where size is the discrepancy of a
        `fails` comparison or |value| of a witness: how far beyond rounding the statement is shown."""
        if self.measured.size == 0:
            return math.nan, math.nan, math.nan
        size = self.measured if self.comparison.kind == "fails" else np.abs(self.values)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(self.bounds > 0, size / self.bounds, np.inf)
        index = int(np.argmin(ratios))
        return float(size[index]), float(self.bounds[index]), float(ratios[index])


def _seed(comparison: Comparison) -> int:
    return zlib.crc32(comparison.name.encode() + str(comparison.exprs).encode()[:2000])


def _inputs(comparison: Comparison, fmt: str, cases: int, points: Mapping[sp.Symbol, np.ndarray] | None) -> dict:
    program = comparison.program
    if points is not None:
        raw = {s: np.asarray(points[s]) for s in program.symbols}
    elif comparison.point is not None:
        raw = _point_values(comparison.point, program.symbols)
    else:
        limit = 256 if fmt == "mpmath" else min(256, tolerances.exact_integer_limit(fmt) // 16)
        raw = draw_points(program.symbols, cases, _seed(comparison), position_limit=limit)
    return {s: store_in(v, fmt) for s, v in raw.items()}


def compare(
    comparison: Comparison,
    fmt: str,
    *,
    cases: int = 64,
    points: Mapping[sp.Symbol, np.ndarray] | None = None,
) -> Outcome:
    """Evaluate one comparison in one format.

    **Arguments:**

    - `comparison`: from `comparisons`.
    - `fmt`: one of `FORMATS`.
    - `cases`: sampled points for `holds` comparisons (mpmath uses at most 8 of them).
    - `points`: explicit points (symbol → array) instead of sampling, e.g. hypothesis draws or pinned positions.

    **Returns:**

    The `Outcome`.
    """
    program = comparison.program
    if fmt == "mpmath" and points is None:
        cases = min(cases, 8)
    inputs = _inputs(comparison, fmt, cases, points)
    size = len(next(iter(inputs.values()))) if inputs else 1
    finite = np.ones(size, dtype=bool)
    for values in inputs.values():
        finite &= np.isfinite(values.real) & np.isfinite(values.imag)
    inputs = {s: v[finite] for s, v in inputs.items()}
    kept = int(finite.sum())
    if kept == 0:
        empty = np.zeros(0)
        return Outcome(comparison, fmt, empty, empty, empty, size)
    bounds = run_bounds(program, inputs, fmt)
    if fmt == "mpmath":
        exact_values = run_mpmath(program, inputs)
        computed = [np.array([complex(v) for v in column]) for column in exact_values]
    else:
        computed = run_jax(program, inputs, fmt)
    outputs = len(program.outputs)
    values = np.zeros(0)
    if comparison.kind in {"holds", "fails"}:
        half = outputs // 2
        if fmt == "mpmath":
            with mpmath.workdps(MPMATH_DPS):
                measured_columns = [
                    np.array([float(abs(a - b)) for a, b in zip(exact_values[j], exact_values[half + j], strict=True)])
                    for j in range(half)
                ]
        else:
            measured_columns = [np.abs(computed[j] - computed[half + j]) for j in range(half)]
        bound_columns = [bounds[j][1] + bounds[half + j][1] for j in range(half)]
        if half * 2 != outputs:  # shapes differ: the statement itself is malformed for the mirror
            raise NotEvaluable(f"{comparison.name}: lhs and rhs have different sizes")
        measured = np.stack(measured_columns)
        bound = np.stack(bound_columns)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(bound > 0, measured / bound, np.where(measured > 0, np.inf, 0.0))
        pick = np.argmax(ratios, axis=0) if comparison.kind == "holds" else np.argmax(measured - bound, axis=0)
        columns = np.arange(measured.shape[1])
        measured, bound = measured[pick, columns], bound[pick, columns]
    else:
        # The exact value for the mpmath column comes from a run 20 digits finer.
        exact = run_mpmath(program, inputs, dps=MPMATH_DPS + 20)[0]
        with mpmath.workdps(MPMATH_DPS + 20):
            got = exact_values[0] if fmt == "mpmath" else [mpmath.mpmathify(complex(c)) for c in computed[0]]
            measured = np.array([float(abs(g - e)) for g, e in zip(got, exact, strict=True)])
        values = computed[0].real if comparison.relation == "positive" else np.abs(computed[0])
        bound = bounds[0][1]
    measured = np.where(np.isnan(measured), np.inf, measured)
    in_model = np.isfinite(bound)
    return Outcome(
        comparison,
        fmt,
        measured[in_model],
        bound[in_model],
        values[in_model] if values.size else values,
        size - int(in_model.sum()),
    )
