"""Precision limits of RoPE's proved identities per dtype (ROPE-RELATIVE-MATRIX, ROPE-DOT-PROPERTY-003,
ROPE-PREFIX-REPHASE): the certified worst case over unit q, k and every position, the labelled typical case, the
model's prediction, and the one definition of the worst case (`numeric.reference.worst_case_relative_error`)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from ropecheck.numeric._ledger_cache import numeric_tables
from ropecheck.numeric.mirrors._typical import typical_relative_errors
from ropecheck.numeric.mirrors._worst_case_scan import worst_case_limit
from ropecheck.numeric.mirrors.precision_limits import MODES, largest_position, position_grid
from ropecheck.numeric.reference import tolerances, worst_case_relative_error


@pytest.fixture(scope="module")
def table() -> dict:
    """The ledger's table as `ropecheck claims --json` publishes it (computed once per code version and cached,
    `numeric._ledger_cache.numeric_tables`; the xdist workers and the CLI share it)."""
    return numeric_tables()["precision_limits"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_certified_limit_is_covered_by_the_typical_sample(table: dict, dtype: str) -> None:
    """The worst case bounds every q, k, so the sampled (typical) figure can never be below it on the grid. The
    typical sample at m also uses n = m + 37 (the relative modes), so it is covered up to worst_case − 37."""
    for mode in MODES:
        row = table[dtype][mode]
        grid = position_grid(dtype)
        covered = row["worst_case"] - (0 if mode == "rephase" else max(table["offsets"]))
        if covered >= 0:
            assert row["typical"] >= grid[grid <= covered].max(), (mode, row)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_scanned_limit_is_where_the_budget_breaks(table: dict, dtype: str) -> None:
    for mode in MODES:
        row = table[dtype][mode]
        if row["worst_case_method"] == "scanned every position":
            assert row["rotation_error"] + row["arithmetic_error"] > table["budget"], (mode, row)


def test_published_limits_are_worst_case_and_labelled(table: dict) -> None:
    float32 = table["float32"]["angles_in_dtype"]
    # Issue 15: the seeded figure (524288) overstated the limit; over unit q, k the budget breaks below 2·10⁴.
    assert float32["worst_case"] < 20000 < float32["typical"]
    assert float32["worst_case"] >= float32["predicted"]  # the model's bound is sound
    assert "typical" in table["typical_note"] and "not a limit" in table["typical_note"]
    assert table["float16"]["positions_in_dtype"]["worst_case"] == tolerances.exact_integer_limit("float16")
    assert table["bfloat16"]["positions_in_dtype"]["worst_case"] == tolerances.exact_integer_limit("bfloat16")


def test_worst_case_is_seed_independent() -> None:
    """No random input enters the certified figure: two runs agree exactly (and the typical figure is the only
    one that takes a seed)."""
    first = worst_case_limit("float16", "positions_in_dtype", 1e-3)
    np.random.default_rng(1).standard_normal(10)
    assert worst_case_limit("float16", "positions_in_dtype", 1e-3) == first


def _brute_force(cos_hat: np.ndarray, sin_hat: np.ndarray, angles: np.ndarray) -> float:
    """max over position pairs and blocks of ‖R̂(m)ᵀR̂(n) − R(n − m)‖₂ by explicit 2×2 matrices."""
    worst = 0.0
    for m, n in itertools.product(range(angles.shape[0]), repeat=2):
        for pair in range(angles.shape[1]):

            def block(c: float, s: float) -> np.ndarray:
                return np.array([[c, -s], [s, c]])

            computed = block(cos_hat[m, pair], sin_hat[m, pair]).T @ block(cos_hat[n, pair], sin_hat[n, pair])
            difference = angles[n, pair] - angles[m, pair]
            exact = block(np.cos(difference), np.sin(difference))
            worst = max(worst, float(np.linalg.norm(computed - exact, 2)))
    return worst


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_worst_case_definition_bounds_the_brute_force_maximum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    angles = rng.uniform(-3, 3, (6, 3))
    errors = rng.uniform(-1e-3, 1e-3, angles.shape)
    scale = 1 + rng.uniform(-1e-4, 1e-4, angles.shape)
    cos_hat, sin_hat = scale * np.cos(angles + errors), scale * np.sin(angles + errors)
    bound = worst_case_relative_error(cos_hat, sin_hat, angles)
    brute = _brute_force(cos_hat, sin_hat, angles)
    assert brute <= bound <= brute + 4e-4  # exact up to the modulus term
    exact_rotations = worst_case_relative_error(np.cos(angles + errors), np.sin(angles + errors), angles)
    assert exact_rotations == pytest.approx(_brute_force(np.cos(angles + errors), np.sin(angles + errors), angles))


def test_worst_case_definition_meta() -> None:
    """Exact rotations give 0; one angle off by δ gives 2·sin(δ/2)."""
    angles = np.linspace(0, 2, 12).reshape(4, 3)
    assert worst_case_relative_error(np.cos(angles), np.sin(angles), angles) == pytest.approx(0, abs=1e-15)
    moved = angles.copy()
    moved[2, 1] += 1e-3
    assert worst_case_relative_error(np.cos(moved), np.sin(moved), angles) == pytest.approx(2 * np.sin(5e-4))


def test_largest_position_meta() -> None:
    """The limit is the last grid point before the first failure, not the last passing point overall."""
    grid = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
    assert largest_position(np.array([0, 0, 1, 0, 0]), grid, 0.5) == 1.0
    assert largest_position(np.array([1, 0, 0, 0, 0]), grid, 0.5) == -1.0
    assert largest_position(np.zeros(5), grid, 0.5) == 8.0


def test_float32_errors_grow_with_position() -> None:
    grid = np.array([16.0, 2.0**20, 2.0**24])
    errors = typical_relative_errors("relative", "float32", "angles_in_dtype", grid)
    assert errors[0] < 1e-5 < errors[-1]


def _cell(value: float) -> str:
    import math

    if value < 0:
        return "none"
    if value >= 1e6:
        exponent = math.log2(value)
        if abs(exponent - round(exponent)) < 1e-12:
            return f"2^{round(exponent)}"
        return f"{value:.3g}".replace("e+", "·10^").replace("·10^0", "·10^")
    return str(int(value))


def test_docs_and_readme_show_the_computed_limits(table: dict) -> None:
    """The published tables (docs/numerics.md and docs/reference.md) are this table, worst case first."""
    from pathlib import Path

    root = Path(__file__).parents[1]
    for document in (root / "docs" / "numerics.md", root / "docs" / "reference.md"):
        text = document.read_text()
        for dtype in ("float16", "bfloat16", "float32", "float64"):
            cells = []
            for mode in MODES:
                row = table[dtype][mode]
                mark = "" if row["worst_case_method"].startswith("scanned") else "†"
                typical, model = _cell(row["typical"]), _cell(row["predicted"])
                cells.append(f"**{_cell(row['worst_case'])}**{mark} (typical {typical}; model {model})")
                if mode == "rephase":  # issue 23, point 1: the every-key figure beside the n ≤ 37 one
                    cells[-1] += f" · every key **{_cell(row['every_key_limit'])}**{mark}"
            assert f"| {dtype} | " + " | ".join(cells) + " |" in text, (document.name, dtype)
