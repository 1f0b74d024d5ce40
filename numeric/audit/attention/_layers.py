"""The sliding window each sliding layer applies (the rotation, its factor and the softmax scale each layer applies
are `_applied`'s).

- **sliding-window**: a sliding layer gives exactly zero weight to keys at distance ≥ window and positive weight
  to every key inside it.

Claims served: ATT-CAUSAL-ROW.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import LENGTH, tokens
from ._model import TinyModel
from ._report import AttentionFinding

__all__ = ["check_sliding_window"]


def _record(tiny: TinyModel, length: int = LENGTH) -> list[dict[str, Any]]:
    import torch

    ids = tokens(1, length, seed=9)
    with tiny.record_attention() as records:
        tiny.step(ids, position_ids=torch.arange(length)[None])
    return records


def check_sliding_window(tiny: TinyModel) -> AttentionFinding:
    """Sliding layers: zero weight at distance ≥ window, positive weight inside."""
    window = tiny.window
    types = tiny.layer_types()
    if not window or "sliding_attention" not in types:
        return AttentionFinding("sliding-window", ("ATT-CAUSAL-ROW",), "not applicable", "no sliding layers")
    length = max(LENGTH, 2 * int(window) + 2)
    leaked, missing = 0.0, 0
    for record in _record(tiny, length):
        if types[record["layer"]] != "sliding_attention":
            continue
        weights = np.asarray(record["weights"][0].detach(), dtype=np.float64)
        query, key = np.meshgrid(np.arange(length), np.arange(length), indexing="ij")
        distance = query - key
        outside = (distance >= window) | (distance < 0)
        leaked = max(leaked, float(weights[:, outside].max()))
        missing += int((weights[:, ~outside] <= 0).sum())
    held = leaked == 0 and missing == 0
    message = (f"window {window}: exactly zero weight beyond, positive weight inside" if held else
               f"window {window}: largest weight beyond the window {leaked:.3g}, {missing} keys inside with zero "
               "weight — the mask does not implement the declared window")
    return AttentionFinding("sliding-window", ("ATT-CAUSAL-ROW",), "ok" if held else "fail", message, leaked, 0.0,
                            {"window": int(window), "zero_inside": missing})
