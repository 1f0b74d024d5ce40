"""The KV re-phasing limit states its scope (issue 23, point 1): the published 6955 (float32) holds for keys cached
at n ≤ 37 only; beside it, the figure for every key cached at n ≤ Δ (a block moved by Δ)."""

from __future__ import annotations

import pytest
from ropecheck.numeric._ledger_cache import numeric_tables
from ropecheck.numeric.mirrors import precision_limits

#: The outside review's failing block: keys at n ≤ Δ moved by Δ = 5294 exceed 10⁻³ (key 5294, query 9491).
REVIEW_FAILING_SHIFT = 5294


def _rephase_row(dtype: str) -> dict:
    """`worst_case_limit(dtype, "rephase", BUDGET)` as the ledger's table holds it (`precision_limits_table` calls
    it with these arguments; the table is computed once per code version and cached: `numeric_tables`)."""
    row = numeric_tables()["precision_limits"][dtype]["rephase"]
    return {"method": row["worst_case_method"], "limit": row["worst_case"], "every_key_limit": row["every_key_limit"]}


def test_float32_rephase_pins_both_figures() -> None:
    row = _rephase_row("float32")
    assert row["method"] == "scanned every position"
    assert row["limit"] == 6955  # keys cached at n ≤ 37
    assert row["every_key_limit"] == 3496  # every key cached at n ≤ Δ, queries up to n + Δ
    # The every-key figure must exclude the review's counterexample, which the n ≤ 37 figure does not.
    assert row["every_key_limit"] < REVIEW_FAILING_SHIFT < row["limit"]
    # Both come from one running bound: positions ≤ 2·every_key (+1) stay within, as do positions ≤ limit + 37.
    assert 2 * row["every_key_limit"] + 1 <= row["limit"] + 37 + 1


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_every_key_limit_never_exceeds_the_small_key_limit(dtype: str) -> None:
    row = _rephase_row(dtype)
    assert row["every_key_limit"] <= row["limit"]
    if row["limit"] > 0:
        assert row["every_key_limit"] < row["limit"]


def test_table_states_the_scope() -> None:
    """The table names both scopes and carries the every-key figure beside the re-phasing limit."""
    assert "n <= 37" in precision_limits.REPHASE_SCOPE and "n <= shift" in precision_limits.REPHASE_SCOPE
    table = numeric_tables()["precision_limits"]
    assert table["float32"]["rephase"]["scope"] == precision_limits.REPHASE_SCOPE
    assert table["float32"]["rephase"]["every_key_limit"] == 3496
