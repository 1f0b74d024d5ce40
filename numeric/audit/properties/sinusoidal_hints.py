"""Hints of the sinusoidal kind: name what a failing table does (a 16-bit position class, a column-indexed
frequency), and the in-place write that probes aliasing. Used by `ropecheck.numeric.audit.properties.sinusoidal`."""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.audit.properties.sinusoidal_structure import Structure, expected_table

__all__ = ["column_indexed", "position_rounding_hint", "write_into"]


def write_into(raw: Any) -> bool:
    """Add 1 in place to a returned array if the framework allows it; whether it was written."""
    try:
        if type(raw).__module__.startswith("torch"):
            import torch

            with torch.no_grad():
                raw.add_(1.0)
            return True
        if isinstance(raw, np.ndarray) and raw.flags.writeable:
            raw += raw.dtype.type(1)
            return True
    except Exception:  # a read-only or inference tensor: nothing to alias
        return False
    return False


def column_indexed(rows: np.ndarray, base: float) -> bool:
    """Whether the rows match the 'index j instead of j // 2' table in either layout (a hint only)."""
    length, d = rows.shape
    p = np.arange(length)[:, None]
    j = np.arange(d)[None, :]
    angles = p * base ** (-2.0 * j / d)
    interleaved = np.where(j % 2 == 0, np.sin(angles), np.cos(angles))
    concat_angles = p * base ** (-2.0 * (j % (d // 2)) / d * 2)
    concat = np.where(j < d // 2, np.sin(concat_angles), np.cos(concat_angles))
    return bool(np.allclose(rows, interleaved, atol=1e-3) or np.allclose(rows, concat, atol=1e-3))


def position_rounding_hint(table_for: Any, position: int, structure: Structure, d: int, base: float, scheme: str,
                            offset: int) -> str:
    """' (positions held in float16)' when the failing row is the exact row of the rounded position."""
    row = table_for(np.array([position]))
    import ml_dtypes

    for name, kind in (("float16", np.float16), ("bfloat16", ml_dtypes.bfloat16)):
        rounded = int(np.array(position + offset, dtype=np.float64).astype(kind).astype(np.float64)) - offset
        if rounded != position:
            wanted = expected_table(np.array([rounded]), structure, d, base, scheme, offset)
            if np.max(np.abs(row - wanted)) < 1e-2 * structure.scale:
                return f" — row {position} is the exact row of position {rounded}: positions are held in {name}"
    return ""
