"""Precision limits: the largest position at which RoPE's proved identities still hold to a score-error budget
(ROPE-RELATIVE-MATRIX, ROPE-DOT-PROPERTY-003, ROPE-PREFIX-REPHASE), per dtype, for d = 128, base 10000.

Three pipelines:

- `angles_in_dtype`: positions, frequencies, angles, cos/sin, rotations and the score all in the dtype;
- `positions_in_dtype`: positions stored in the dtype (rounded), everything else in float64;
- `rephase`: a key cached at a small position, re-phased by a shift Δ in the dtype, scored against a query at
  its new position, all in the dtype; the limit is on Δ. `worst_case` holds for keys cached at n ≤ 37 only;
  `every_key_limit` beside it for every key cached at n ≤ Δ (a block moved by Δ) — `REPHASE_SCOPE`.

Each row carries three figures (and `any_order_limit`: the worst case with the order-independent γ_d bound on the
score's sum, beside `worst_case`'s pairwise summation, the order `run_jax` and XLA's CPU reduction use; `summation`
says which order `worst_case` assumes):

- **`worst_case`** — the published, certified limit: for *every* unit q, k and every position up to it
  (`ropecheck.numeric.mirrors._worst_case_scan`: every position scanned, or the model's monotone bound bisected where a
  scan is unaffordable, labelled in `worst_case_method`). Seed-independent: no random input enters.
- **`typical`** — labelled *typical*: 4 Gaussian q, k (seed 0), offsets n − m ∈ {1, 5, 37}, positions on the
  grid 2ᵏ, 3·2ᵏ⁻¹ only (`ropecheck.numeric.mirrors._typical`). Users must not read it as a limit.
- **`predicted`** — the error model's worst-case prediction (`tolerances.largest_position_within`,
  `rephased_score_bound`); the certified limit is at least this wherever the model is sound.

Reproduce the table with `python -m numeric.mirrors.precision_limits` (`--json` for the JSON, `--budget`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from ..reference import tolerances
from ..reference.tolerances import DTYPES
from ._typical import DIMENSION, OFFSETS, _thetas, largest_position, position_grid, typical_relative_errors
from ._worst_case_scan import SCAN_LIMIT, worst_case_limit

__all__ = ["BUDGET", "MODES", "REPHASE_SCOPE", "largest_position", "main", "position_grid", "precision_limits_table"]

#: The default score-error budget, relative to ‖q‖·‖k‖.
BUDGET = 1e-3
MODES = ("angles_in_dtype", "positions_in_dtype", "rephase")
#: What the two re-phasing figures cover (issue 23, point 1).
REPHASE_SCOPE = (
    "worst_case: keys cached at n <= 37, queries at m + shift with m <= 37; "
    "every_key_limit: every key cached at n <= shift, queries at any position <= n + shift"
)


def _predicted(dtype: str, mode: str, budget: float) -> int:
    thetas = _thetas()
    if mode == "angles_in_dtype":
        return tolerances.largest_position_within(budget, thetas, dtype)
    if mode == "positions_in_dtype":
        # Once positions round, m and m + offset can land on one value: an angle error of a whole θ₀ = 1.
        return min(
            tolerances.exact_integer_limit(dtype) - max(OFFSETS),
            tolerances.largest_position_within(budget, thetas, "float64"),
        )
    return tolerances.largest_integer_where(
        lambda shift: tolerances.rephased_score_bound(1.0, 1.0, 0, shift, thetas, dtype) <= budget
    )


def _typical(dtype: str, mode: str, budget: float) -> float:
    grid = position_grid(dtype)
    kind = "rephase" if mode == "rephase" else "relative"
    pipeline = "positions_in_dtype" if mode == "positions_in_dtype" else "angles_in_dtype"
    return largest_position(typical_relative_errors(kind, dtype, pipeline, grid), grid, budget)


def precision_limits_table(budget: float = BUDGET, *, dtypes: tuple[str, ...] = DTYPES) -> dict[str, Any]:
    """The precision-limits table of the ledger JSON.

    **Arguments:**

    - `budget`: the relative score-error budget.
    - `dtypes`: the dtypes to tabulate.

    **Returns:**

    `{"budget", "d", "base", "offsets", "<dtype>": {"<mode>": {"worst_case", "worst_case_method",
    "rotation_error", "arithmetic_error", "typical", "predicted"}}}` (module docstring; −1 means no position at
    all stays within the budget).
    """
    table: dict[str, Any] = {
        "budget": budget,
        "d": DIMENSION,
        "base": 10000,
        "offsets": list(OFFSETS),
        "typical_note": "typical: 4 Gaussian q, k (seed 0) on the grid 2^k, 3*2^(k-1); not a limit",
    }
    for dtype in dtypes:
        row: dict[str, Any] = {}
        for mode in MODES:
            worst = worst_case_limit(dtype, mode, budget)
            row[mode] = {
                "worst_case": worst["limit"],
                "worst_case_method": worst["method"],
                "rotation_error": worst["rotation_error"],
                "arithmetic_error": worst["arithmetic_error"],
                "typical": _typical(dtype, mode, budget),
                "predicted": _predicted(dtype, mode, budget),
            }
            # Issue 23, point 4: the scan assumes pairwise summation of the score; the figure for any order beside it.
            scanned = worst["method"].startswith("scanned")
            any_order = worst_case_limit(dtype, mode, budget, summation="any", scan_limit=SCAN_LIMIT if scanned else 0)
            row[mode]["summation"] = "pairwise" if scanned else "any order (model bound, gamma_d)"
            row[mode]["any_order_limit"] = any_order["limit"]
            if mode == "rephase":
                row[mode]["every_key_limit"] = worst["every_key_limit"]
                row[mode]["scope"] = REPHASE_SCOPE
        table[dtype] = row
    return table


def _cell(value: float) -> str:
    return "none" if value < 0 else f"{value:.3g}" if value >= 1e6 else str(int(value))


def main(argv: list[str] | None = None) -> int:
    """`python -m numeric.mirrors.precision_limits [--json] [--budget B]`: print the table."""
    parser = argparse.ArgumentParser(prog="python -m numeric.mirrors.precision_limits")
    parser.add_argument("--json", action="store_true", help="print the JSON table")
    parser.add_argument("--budget", type=float, default=BUDGET, help="relative score-error budget (default 1e-3)")
    args = parser.parse_args(argv)
    table = precision_limits_table(args.budget)
    if args.json:
        print(json.dumps(table, indent=2, default=lambda v: v.item() if isinstance(v, np.generic) else str(v)))
        return 0
    print("| dtype | mode | worst case (certified) | method | typical (seeded sample) | model |")
    print("|---|---|---|---|---|---|")
    print(f"<!-- rephase: {REPHASE_SCOPE} -->")
    for dtype in DTYPES:
        for mode in MODES:
            cell = table[dtype][mode]
            print(
                f"| {dtype} | {mode} | {_cell(cell['worst_case'])} | {cell['worst_case_method']} | "
                f"{_cell(cell['typical'])} | {_cell(cell['predicted'])} |"
            )
            if mode == "rephase":
                print(f"| {dtype} | rephase, every key n ≤ Δ | {_cell(cell['every_key_limit'])} | "
                      f"{cell['worst_case_method']} | – | – |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
