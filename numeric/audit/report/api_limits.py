"""Documented API limits in the conformance table: what a library's positions API cannot express is shown as
"n/a (offset-only API)" rather than *fail* (issue #14). The audit itself is unchanged: its report still fails
`positions` for such a library, and the row keeps that verdict as `audit_verdict`."""

from __future__ import annotations

from typing import Any

__all__ = ["API_LIMITS", "apply_api_limits", "limits_summary"]

#: What a library's documented positions API cannot express, as the table shows it instead of *fail*.
API_LIMITS: dict[str, str] = {
    "offset": "n/a (offset-only API)",
    "none": "n/a (no positions argument: always 0…L−1)",
}


def _beyond_the_api(positions_api: str, failure: dict[str, Any]) -> bool:
    """Whether a failing finding only shows what the library's documented API cannot take.

    An offset-only API (mlx, rotary-embedding-torch, flash-attn) can express the `positions` property's offset
    probe but not its shuffled, repeated or non-contiguous ones: the finding is a limit of the API only when the
    offset probe passed (`numeric.audit.properties.positions` names each failing probe: "offset positions: …").
    A library that takes no positions (equinox) can express none of them.
    """
    if failure.get("property") != "positions" or positions_api not in API_LIMITS:
        return False
    return positions_api == "none" or "offset positions:" not in str(failure.get("detail", ""))


def apply_api_limits(row: dict[str, Any]) -> dict[str, Any]:
    """Move the failing findings a library's documented API cannot avoid out of `failures` (issue #14).

    **Arguments:**

    - `row`: a conformance row (`conformance_table`'s shape; also a row read from an older JSON file).

    **Returns:**

    The row with `api_limits` (those findings, each with `shown`: "n/a (offset-only API)" or the like) and,
    when nothing else fails, verdict "pass"; `audit_verdict` keeps the raw audit's verdict. Idempotent.
    """
    positions_api = str(row.get("positions_api") or "arbitrary")
    failures = list(row.get("failures") or [])
    limited = [failure for failure in failures if _beyond_the_api(positions_api, failure)]
    limits = list(row.get("api_limits") or [])
    if not limited and "audit_verdict" in row:
        return row
    row = dict(row)
    row["api_limits"] = limits + [{**failure, "shown": API_LIMITS[positions_api]} for failure in limited]
    row["failures"] = [failure for failure in failures if failure not in limited]
    row.setdefault("audit_verdict", row.get("verdict"))
    if row.get("verdict") == "fail" and not row["failures"]:
        row["verdict"] = "pass"
    return row


def limits_summary(limits: list[dict[str, Any]]) -> str:
    """`positions: n/a (offset-only API)`: each property a documented API cannot express, once."""
    shown = dict.fromkeys(f"{limit['property']}: {limit['shown']}" for limit in limits)
    return "; ".join(shown)
