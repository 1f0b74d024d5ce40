"""Strict JSON for every command's `--json` output: non-finite floats become strings (JSON has no NaN)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["finite_json"]


def finite_json(value: Any) -> Any:
    """`value` with non-finite floats replaced by the strings "inf", "-inf", "nan" (recursively; NumPy scalars
    become Python numbers).

    **Arguments:** `value`: a JSON-able document (dicts, lists, tuples, numbers, strings, NumPy scalars).

    **Returns:** the same document, safe for `json.dump(..., allow_nan=False)`.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # NumPy scalars
        return finite_json(value.item())
    return value
