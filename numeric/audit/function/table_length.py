"""Fixed-length tables, shared by every kind: find how many positions a target's table holds, and the finding when
that is fewer than the context the audit was asked for.

A target built on a cos/sin or sinusoidal table of N rows raises for positions ≥ N (IndexError, a length check).
The audit finds N by bisection on single-position calls, audits positions 0…N−1, and — unless the user accepts a
shorter table explicitly (`--accept-short-table`, `accept_short_table=True`) — fails `contract` with "the table
holds N positions; the model needs M": in CI a silently shorter table hides a context-length bug.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SHORT_TABLE_PREFIX", "find_table_length", "note_table", "short_table_message"]

#: How the short-table finding begins (root-cause attribution: it explains no other finding).
SHORT_TABLE_PREFIX = "The table holds"


def find_table_length(accepts: Callable[[int], bool], max_position: int) -> int | None:
    """N when `accepts(p)` is False for p ≥ N and N < `max_position`, else None (position 0 must be accepted).

    **Arguments:**

    - `accepts`: whether a single-position call at p succeeds.
    - `max_position`: the positions asked for, 0…max_position − 1.

    **Returns:**

    N, or None when the last position asked for is accepted.
    """
    if accepts(max_position - 1):
        return None
    low, high = 0, max_position - 1  # accepts(low), not accepts(high)
    while high - low > 1:
        middle = (low + high) // 2
        if accepts(middle):
            low = middle
        else:
            high = middle
    return low + 1


def short_table_message(table: int, needed: int) -> tuple[str, str]:
    """(detail, fix) of the short-table `contract` finding.

    **Arguments:**

    - `table`: N, the positions the table holds.
    - `needed`: M, the positions asked for (`--max-position`).
    """
    detail = (
        f"{SHORT_TABLE_PREFIX} {table} positions; the model needs {needed} (--max-position): positions {table}…"
        f"{needed - 1} raise. Positions 0…{table - 1} were audited."
    )
    fix = (
        f"build the table for at least {needed} positions, or audit with --accept-short-table"
        f" (accept_short_table=True) if the model never sees more than {table}"
    )
    return detail, fix


def note_table(report: Any, table: int | None) -> Any:
    """Record a found table length on a kind's report (field, note and summary sentence); returns the report."""
    if table is not None:
        report.table_positions = table
        note = f"The table holds {table} positions: audited 0…{report.max_position - 1}."
        report.notes.append(note)
        report.summary += f" {note}"
    return report
