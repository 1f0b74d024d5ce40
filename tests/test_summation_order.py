"""Precision limits do not depend on an unstated summation order (issue 23, point 4): the certified scan assumes
pairwise summation of the score and says so; the figure with the order-independent bound γ_d sits beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from ropecheck.numeric._ledger_cache import numeric_tables
from ropecheck.numeric.mirrors import precision_limits
from ropecheck.numeric.mirrors._worst_case_scan import arithmetic_bound, worst_case_limit


def test_any_order_bound_is_wider_than_pairwise() -> None:
    for dtype in ("float16", "float32", "float64"):
        assert arithmetic_bound(dtype, 1.0, 2, "any") > arithmetic_bound(dtype, 1.0, 2, "pairwise")
    with pytest.raises(ValueError):
        arithmetic_bound("float32", 1.0, 2, "sorted")


def test_float32_limits_pinned_in_both_orders() -> None:
    """The review's figures: 10488 with pairwise summation, 10286 with the bound every order meets."""
    pairwise = worst_case_limit("float32", "angles_in_dtype", precision_limits.BUDGET)
    any_order = worst_case_limit("float32", "angles_in_dtype", precision_limits.BUDGET, summation="any")
    assert (pairwise["limit"], any_order["limit"]) == (10488, 10286)


def test_table_states_the_order() -> None:
    table = numeric_tables()["precision_limits"]
    for mode in precision_limits.MODES:
        row = table["float32"][mode]
        assert row["any_order_limit"] <= row["worst_case"]
        assert row["summation"] in {"pairwise", "any order (model bound, gamma_d)"}
    assert table["float32"]["angles_in_dtype"]["any_order_limit"] == 10286


def test_docs_state_the_order_and_the_any_order_figure() -> None:
    text = (Path(__file__).parents[1] / "docs" / "numerics.md").read_text()
    assert "pairwise summation" in text and "10286" in text
