"""Numeric mirrors of the ledger: the registry's own SymPy statements evaluated in JAX (float16, bfloat16, float32,
float64) and mpmath, with the error model of `ropecheck.numeric.reference.tolerances` applied node by node.

A mirror never restates a formula. `compile_program` turns the SymPy objects a claim holds into a straight-line
program, each side of a comparison on its own (no node shared between the sides); three backends run it:
`run_jax` (rounding after every operation in the dtype, sums accumulated pairwise in the dtype, x64 only inside
`x64_enabled()`), `run_bounds` (the model, node by node, flush-to-zero aware) and `run_mpmath` (the ground truth).
`sympy.lambdify` would print the same program as source; it cannot carry complex pairs in float16 and would hide
the per-node structure the bounds need, so the program is interpreted (tests cross-check it against lambdify).

- `comparisons` / `untested_parts`: what a claim asserts numerically, and what it does not (with reasons).
- `compare`: one comparison in one format → `Outcome`; `numeric_evidence`: the per-claim JSON column with its
  mark (✓ ~ ? ✗, or "not numerically tested").
- `decay_table`, `precision_limits_table`: the ledger's numeric tables (`python -m numeric.mirrors.precision_limits`
  reproduces the precision limits).
"""

from __future__ import annotations

from ..reference.tolerances import FORMATS, MPMATH_DPS
from ._bounds import bounds_and_scale, run_bounds
from ._compare import Outcome, compare
from ._comparisons import (
    REFUTATION_FACTOR,
    Comparison,
    Untested,
    claim_untested_parts,
    comparisons,
    statement_comparisons,
    untested_parts,
)
from ._evidence import claim_outcomes, ledger_numeric_tables, numeric_evidence, summarise
from ._inputs import draw_points, store_in
from ._jax import JAX_DTYPES, run_jax, x64_enabled
from ._mpmath import run_mpmath
from ._program import Node, NotEvaluable, Program, compile_program

DTYPES = FORMATS[:4]

__all__ = [
    "DTYPES",
    "FORMATS",
    "JAX_DTYPES",
    "MPMATH_DPS",
    "REFUTATION_FACTOR",
    "Comparison",
    "Node",
    "NotEvaluable",
    "Outcome",
    "Program",
    "Untested",
    "bounds_and_scale",
    "claim_outcomes",
    "claim_untested_parts",
    "compare",
    "comparisons",
    "compile_program",
    "draw_points",
    "ledger_numeric_tables",
    "numeric_evidence",
    "run_bounds",
    "run_jax",
    "run_mpmath",
    "statement_comparisons",
    "store_in",
    "summarise",
    "untested_parts",
    "x64_enabled",
]
