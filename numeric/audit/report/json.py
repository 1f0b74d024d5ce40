"""The report as strict JSON: non-finite floats as strings, so `--json` output parses everywhere."""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "json_safe"]


def json_safe(value: Any) -> Any:
    """Non-finite floats as strings ("inf", "nan"), recursively, so the output is strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    """`value` as strict JSON text (UTF-8 characters kept)."""
    return json.dumps(json_safe(value), indent=indent, ensure_ascii=False)
