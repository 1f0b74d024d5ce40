"""The property names of the sinusoidal, bias and scores kinds, in evaluation order (no imports: the pytest
plugin reads them at collection). These are the JSON `findings[].property` values of issue #13."""

from __future__ import annotations

__all__ = ["KIND_PROPERTIES"]

KIND_PROPERTIES: dict[str, tuple[str, ...]] = {
    "sinusoidal": ("contract", "state", "layout", "spectrum", "positions", "precision", "relative", "shift"),
    "bias": ("contract", "relative", "sign", "buckets", "slopes", "cache", "precision"),
    "scores": ("contract", "relative", "linearity", "clipping", "cache"),
}
