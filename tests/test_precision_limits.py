"""Precision limits of RoPE's proved identities per dtype (ROPE-RELATIVE-MATRIX, ROPE-DOT-PROPERTY-003,
ROPE-PREFIX-REPHASE): measured largest positions within a relative score budget, against the error model."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.mirrors.precision_limits import _relative_errors, largest_position, position_grid, precision_limits_table
from numeric.reference import tolerances


@pytest.fixture(scope="module")
def table() -> dict:
    return precision_limits_table()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_measured_limit_is_not_below_the_model(table: dict, dtype: str) -> None:
    """The model bounds the worst case, so wherever it predicts the budget holds, the measurement must agree."""
    for mode in ("angles_in_dtype", "rephase"):
        row = table[dtype][mode]
        if row["predicted"] >= 0:
            grid = position_grid(dtype)
            predicted_on_grid = grid[grid <= row["predicted"]].max()
            assert row["measured"] >= predicted_on_grid, (mode, row)


def test_positions_stored_in_low_precision_stop_at_the_exact_integer_limit(table: dict) -> None:
    for dtype in ("float16", "bfloat16", "float32"):
        measured = table[dtype]["positions_in_dtype"]["measured"]
        limit = tolerances.exact_integer_limit(dtype)
        assert limit / 2 <= measured < limit, (dtype, measured)


def test_limits_grow_with_precision(table: dict) -> None:
    measured = [table[d]["angles_in_dtype"]["measured"] for d in ("bfloat16", "float32", "float64")]
    assert measured == sorted(measured) and measured[0] < measured[-1]
    assert table["float64"]["angles_in_dtype"]["measured"] > 1e12


def test_largest_position_meta() -> None:
    """The limit is the last grid point before the first failure, not the last passing point overall."""
    grid = np.array([0.0, 1.0, 2.0, 4.0, 8.0])
    assert largest_position(np.array([0, 0, 1, 0, 0]), grid, 0.5) == 1.0
    assert largest_position(np.array([1, 0, 0, 0, 0]), grid, 0.5) == -1.0
    assert largest_position(np.zeros(5), grid, 0.5) == 8.0


def test_float32_errors_grow_with_position() -> None:
    grid = np.array([16.0, 2.0**20, 2.0**24])
    errors = _relative_errors("relative", "float32", "angles_in_dtype", grid)
    assert errors[0] < 1e-5 < errors[-1]
