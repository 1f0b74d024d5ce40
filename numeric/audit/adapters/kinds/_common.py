"""Helpers shared by the kinds' adapters: torch dtypes, contiguous runs, gathering key columns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["by_runs", "torch_dtype"]


def torch_dtype(name: str) -> Any:
    """The torch dtype of a dtype name."""
    import torch

    return getattr(torch, name)


def by_runs(positions: Any, call: Callable[[int, int], Any]) -> Any:
    """Rows for arbitrary positions from an API that takes (start, length): one call per run of consecutive
    positions, concatenated in the order given (shuffled positions make runs of one)."""
    import torch

    values = positions.tolist()
    pieces, start = [], 0
    for index in range(1, len(values) + 1):
        if index == len(values) or values[index] != values[index - 1] + 1:
            pieces.append(call(int(values[start]), index - start))
            start = index
    return torch.cat(pieces, dim=0)
