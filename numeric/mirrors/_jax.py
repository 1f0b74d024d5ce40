"""The JAX backend of the mirrors: a program evaluated in float16, bfloat16, float32 or float64, rounding after
every operation as the dtype does.

Complex values are carried as (real, imaginary) pairs of the dtype, because JAX has no complex float16/bfloat16
and a user of those dtypes does complex arithmetic on pairs too. Constant leaves (10000^(−1/64), π, 1/2) are
computed exactly and rounded once into the dtype; cos, sin and exp of constants are computed in it. A sum of
k terms is accumulated pairwise *in the dtype* (a tree of k − 1 additions, each rounded to the dtype), as a
hardware reduction does, never in a wider accumulator. Operations run eagerly: per-operation rounding is exactly
what the error model describes.

float64 needs JAX's x64 mode; it is switched on only inside `x64_enabled()` (a scoped `jax.enable_x64`), never
globally: importing `numeric` leaves `jax.config.jax_enable_x64` as the user set it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import operator
from collections.abc import Iterator, Mapping
from typing import Any

import jax
import jax.numpy as jnp
import mpmath
import numpy as np
import sympy as sp

from ._program import Node, Program, _table_values

__all__ = ["BATCH", "JAX_DTYPES", "SMALL_BATCH", "run_jax", "run_jax_in_batches", "run_jax_traced", "x64_enabled"]

JAX_DTYPES = {
    "float16": jnp.float16,
    "bfloat16": jnp.bfloat16,
    "float32": jnp.float32,
    "float64": jnp.float64,
}


@contextlib.contextmanager
def x64_enabled() -> Iterator[None]:
    """A scope in which JAX creates float64 arrays (`jax.enable_x64(True)`); the previous setting is restored on
    exit, exception or not."""
    with jax.enable_x64(True):
        yield


def pairwise_sum(values: list[Any], add: Any) -> Any:
    """Σ values as a balanced tree of `add` (depth ⌈log₂ k⌉), the order a hardware reduction uses."""
    while len(values) > 1:
        paired = [add(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
        values = paired + ([values[-1]] if len(values) % 2 else [])
    return values[0]


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


_RELATIONS = {"gt": operator.gt, "ge": operator.ge, "lt": operator.lt, "le": operator.le}


def _jax_condition(value: jax.Array, relation: str) -> jax.Array:
    # Only the asked comparison: each one is a JAX dispatch (and a compilation per new shape and dtype).
    return _RELATIONS[relation](value, 0)


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
    with x64_enabled():
        return _run_jax(program, inputs, dtype)


#: The batch lengths of `run_jax_in_batches`. Eager JAX compiles every operation once per shape and dtype (about
#: 40 ms of CPU each), so the ledger's numeric tables run their long sweeps (worst-case scan, typical case, cosine
#: sums) in batches of `BATCH` cases and their short curves and sums in batches of `SMALL_BATCH`: each operation
#: compiles once or twice per dtype instead of once per length.
BATCH = 2**15
SMALL_BATCH = 2**9


def run_jax_in_batches(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], dtype: str, batch: int = BATCH
) -> list[np.ndarray]:
    """`run_jax` over consecutive blocks of exactly `batch` cases, the last block padded with copies of its last
    case and the padding dropped. Every case is evaluated on its own, so the values are `run_jax`'s; only the
    shapes JAX sees are fewer.

    **Arguments:** as for `run_jax`, and `batch`, the block length.

    **Returns:**

    `run_jax`'s outputs for all the cases, concatenated.
    """
    size = len(next(iter(inputs.values())))
    if size == 0:
        return run_jax(program, inputs, dtype)
    blocks = []
    for start in range(0, size, batch):
        block = {}
        for symbol, values in inputs.items():
            part = np.asarray(values)[start : start + batch]
            block[symbol] = part if part.size == batch else np.pad(part, (0, batch - part.size), mode="edge")
        blocks.append(run_jax(program, block, dtype))
    return [np.concatenate(parts)[:size] for parts in zip(*blocks, strict=True)]


def run_jax_traced(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], dtype: str
) -> tuple[list[np.ndarray], np.ndarray]:
    """`run_jax`, and per case the first operation whose value left the finite range (issue 23, point 5).

    **Arguments:** as for `run_jax`.

    **Returns:**

    `(outputs, causes)`: the outputs of `run_jax`; `causes` an object array, per case `None` when every
    intermediate value stayed finite, else the cause in words ("add of finite arguments (largest |argument|
    6e+04) gives inf: float16 overflows above 65504"). A NaN or inf that merely propagates is not a cause.
    """
    size = len(next(iter(inputs.values()))) if inputs else 1
    causes = np.full(size, None, dtype=object)
    with x64_enabled():
        return _run_jax(program, inputs, dtype, causes), causes


def _finite(pair: _Pair, size: int) -> np.ndarray:
    finite = np.isfinite(np.asarray(pair.re, dtype=np.float64))
    if pair.im is not None:
        finite &= np.isfinite(np.asarray(pair.im, dtype=np.float64))
    return np.broadcast_to(finite, (size,))


def _magnitude(pair: _Pair, size: int) -> np.ndarray:
    size_re = np.abs(np.asarray(pair.re, dtype=np.float64))
    if pair.im is not None:
        size_re = np.maximum(size_re, np.abs(np.asarray(pair.im, dtype=np.float64)))
    return np.broadcast_to(size_re, (size,))


def _trace_overflow(causes: np.ndarray, node: Node, args: list[_Pair], value: _Pair, dtype: str,
                    finite: np.ndarray, finite_args: list[np.ndarray]) -> None:
    """Record, for each case not yet traced, a node that turns finite arguments into a NaN or an inf (`finite`:
    `_finite` of the value, `finite_args` of each argument, computed once per node by the caller)."""
    size = causes.size
    new = ~finite & np.equal(causes, None)
    for arg_finite in finite_args:
        new &= arg_finite
    if not np.any(new):
        return
    largest = np.max([_magnitude(a, size) for a in args], axis=0) if args else np.zeros(size)
    got = np.asarray(value.re, dtype=np.float64)
    limit = float(jnp.finfo(JAX_DTYPES[dtype]).max)
    for i in np.flatnonzero(new):
        what = "nan" if np.isnan(np.broadcast_to(got, (size,))[i]) else "inf"
        causes[i] = (
            f"{node.op} of finite arguments (largest |argument| {largest[i]:.4g}) gives {what}:"
            f" {dtype} overflows above {limit:.6g}"
        )


def _run_jax(
    program: Program, inputs: Mapping[sp.Symbol, np.ndarray], dtype: str, causes: np.ndarray | None = None
) -> list[np.ndarray]:
    jax_dtype = JAX_DTYPES[dtype]
    size = len(next(iter(inputs.values()))) if inputs else 1
    values: list[_Pair] = []
    finites: list[np.ndarray] = []  # per node, which cases are finite (traced runs only)
    for node in program.nodes:
        args = [values[a] for a in node.args]
        if node.op == "symbol":
            raw = np.asarray(inputs[node.data])
            re = jnp.asarray(np.asarray(raw.real, dtype=np.float64)).astype(jax_dtype)
            im = jnp.asarray(np.asarray(raw.imag, dtype=np.float64)).astype(jax_dtype) if node.complex else None
            value = _Pair(re, im)
        elif node.op == "const":
            exact = node.data[0]
            re = jnp.full(size, float(mpmath.re(exact)), dtype=jnp.float64).astype(jax_dtype)
            im = jnp.full(size, float(mpmath.im(exact)), dtype=jnp.float64).astype(jax_dtype) if node.complex else None
            value = _Pair(re, im)
        elif node.op == "add":
            value = pairwise_sum(args, _jax_add)
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
        if causes is not None:
            finite = _finite(value, size)
            _trace_overflow(causes, node, args, value, dtype, finite, [finites[a] for a in node.args])
            finites.append(finite)
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
