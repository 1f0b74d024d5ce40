"""One comparison evaluated in one format: the measured errors (or discrepancies), the model's bounds, and the
effect sizes against the format's resolution."""

from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Mapping

import mpmath
import numpy as np
import sympy as sp

from ..reference import tolerances
from ..reference.tolerances import MPMATH_DPS
from ._bounds import bounds_and_scale
from ._comparisons import Comparison
from ._inputs import _point_values, draw_points, store_in
from ._jax import run_jax_traced
from ._mpmath import run_mpmath
from ._program import NotEvaluable, Program

__all__ = ["Outcome", "compare"]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A comparison evaluated in one format.

    **Fields:**

    - `measured`: per case, the error (`holds`: |lhs − rhs| computed; witness: |computed − exact|) or, for
      `fails`, the discrepancy |lhs − rhs| computed.
    - `bounds`: per case, the model's bound (for `holds`, bound(lhs) + bound(rhs)).
    - `values`: for witnesses, the computed values (else empty).
    - `skipped`: cases out of the format's range (inputs or an intermediate value overflowed) or out of the
      model (infinite bound).
    - `overflows`: per skipped case whose computation left the finite range, the cause in words (the first
      operation that turned finite arguments into a NaN or an inf, or an exact value beyond float64): such a case
      is reported as an overflow, never measured against a bound (issue 23, point 5).
    - `effects`: per case, the exact size of what the comparison shows: |lhs − rhs| (0 for a true identity),
      or |value| of a witness.
    - `scales`: per case, the largest exact magnitude in the computation; the format resolves an effect only
      when it exceeds u·scale.
    - `ok`: whether the comparison agrees with its kind (see `ropecheck.numeric.mirrors._comparisons`).
    """

    comparison: Comparison
    fmt: str
    measured: np.ndarray
    bounds: np.ndarray
    values: np.ndarray
    skipped: int
    effects: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    scales: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    overflows: tuple[str, ...] = ()

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


_SEEDS: dict[tuple[str, int], tuple[tuple[sp.Basic, ...], int]] = {}


def _seed(comparison: Comparison) -> int:
    # Printing the expressions is most of the cost of a small comparison: once per (name, expressions).
    key = (comparison.name, id(comparison.exprs))
    cached = _SEEDS.get(key)
    if cached is None or cached[0] is not comparison.exprs:
        cached = (comparison.exprs, zlib.crc32(comparison.name.encode() + str(comparison.exprs).encode()[:2000]))
        _SEEDS[key] = cached
    return cached[1]


def _inputs(
    comparison: Comparison, program: Program, fmt: str, cases: int, points: Mapping[sp.Symbol, np.ndarray] | None
) -> dict:
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
    program: Program | None = None,
) -> Outcome:
    """Evaluate one comparison in one format.

    **Arguments:**

    - `comparison`: from `comparisons`.
    - `fmt`: one of `FORMATS`.
    - `cases`: sampled points for `holds` comparisons (mpmath uses at most 8 of them).
    - `points`: explicit points (symbol → array) instead of sampling, e.g. hypothesis draws or pinned positions.
    - `program`: the compiled program to run instead of `comparison.program` (the meta-tests pass perturbed
      programs: a sign flipped, a term dropped, a position off by one on one side).

    **Returns:**

    The `Outcome`.
    """
    program = comparison.program if program is None else program
    if fmt == "mpmath" and points is None:
        cases = min(cases, 8)
    inputs = _inputs(comparison, program, fmt, cases, points)
    size = len(next(iter(inputs.values()))) if inputs else 1
    finite = np.ones(size, dtype=bool)
    for values in inputs.values():
        finite &= np.isfinite(values.real) & np.isfinite(values.imag)
    inputs = {s: v[finite] for s, v in inputs.items()}
    kept = int(finite.sum())
    if kept == 0:
        empty = np.zeros(0)
        return Outcome(comparison, fmt, empty, empty, empty, size)
    bounds, scales = bounds_and_scale(program, inputs, fmt)
    if fmt == "mpmath":
        exact_values = run_mpmath(program, inputs)
        computed = [np.array([complex(v) for v in column]) for column in exact_values]
        causes = np.full(kept, None, dtype=object)
    else:
        computed, causes = run_jax_traced(program, inputs, fmt)
    for exact_value, _ in bounds:
        beyond = ~np.isfinite(np.broadcast_to(exact_value, (kept,))) & np.equal(causes, None)
        causes[beyond] = "the exact value is beyond float64's range"
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
        exact_gaps = np.stack([np.abs(bounds[j][0] - bounds[half + j][0]) for j in range(half)])
        effects = exact_gaps.max(axis=0)
    else:
        # The exact value for the mpmath column comes from a run 20 digits finer.
        exact = run_mpmath(program, inputs, dps=MPMATH_DPS + 20)[0]
        with mpmath.workdps(MPMATH_DPS + 20):
            got = exact_values[0] if fmt == "mpmath" else [mpmath.mpmathify(complex(c)) for c in computed[0]]
            measured = np.array([float(abs(g - e)) for g, e in zip(got, exact, strict=True)])
        values = computed[0].real if comparison.relation == "positive" else np.abs(computed[0])
        bound = bounds[0][1]
        effects = np.abs(bounds[0][0])
    measured = np.where(np.isnan(measured), np.inf, measured)
    overflowed = ~np.equal(causes, None)
    in_model = np.isfinite(bound) & ~overflowed
    return Outcome(
        comparison,
        fmt,
        measured[in_model],
        bound[in_model],
        values[in_model] if values.size else values,
        size - int(in_model.sum()),
        effects[in_model],
        scales[in_model],
        tuple(str(c) for c in causes[overflowed]),
    )
