"""The ideal an implementation is held to, g·R(m) over its pairs, and the array helpers every property uses."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from ropecheck.numeric.audit._numerics import reference_cos_sin
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.calls import numpy_dtype
from ropecheck.numeric.audit.function.extract import Structure
from ropecheck.numeric.audit.function.scaling import Scaling, scaled_inverse_frequencies

__all__ = [
    "Ideal",
    "as_index",
    "bound_ratio",
    "framework_copy",
    "half_pairs",
    "interleaved_pairs",
    "largest",
    "layout_name",
    "layout_of",
    "round_to",
    "sample_positions",
    "scaling_factor",
    "structure_of",
]


@dataclasses.dataclass
class Ideal:
    """The ideal the target is held to: g·R(s·(m + δ)) with θ from base/scaling, over the detected pairing.

    Root-cause attribution adjusts the ideal to what the target was found to do (the detected direction s, a
    position offset δ, a measured gain, the measured base, a precision class per dtype), so that the properties
    after a root cause are judged against it and read "see <root cause>" instead of failing again.

    **Fields:** `d`, `pairs` `(n, 2)`, `passthrough`, `base`, `scaling`, `theta_units` (k_θ); `sign` (+1
    counter-clockwise, −1 clockwise); `offset` δ; `gain` (a measured g overriding the scaling's); `frequency_dim`
    (the d in θᵢ = base^(−2i/d): the rotary dimension, or the head dimension for p-RoPE); `classes` (dtype →
    `policy.PrecisionClass` the bounds are charged at).
    """

    d: int
    pairs: np.ndarray
    passthrough: np.ndarray
    base: float
    scaling: Scaling | None
    theta_units: float
    sign: float = 1.0
    offset: int = 0
    gain: float | None = None
    frequency_dim: int | None = None
    classes: dict[str, policy.PrecisionClass] = dataclasses.field(default_factory=dict)

    @property
    def rotary_dim(self) -> int:
        return 2 * len(self.pairs)

    @property
    def attention_factor(self) -> float:
        if self.gain is not None:
            return self.gain
        return 1.0 if self.scaling is None else self.scaling.attention_factor()

    def inverse_frequencies(self, positions: np.ndarray) -> Any:
        length = int(positions.max()) + 1 + self.offset if positions.size else 1
        dim = self.frequency_dim or self.rotary_dim
        frequencies = scaled_inverse_frequencies(dim, self.base, self.scaling, max(length, 1))
        if dim == self.rotary_dim:
            return frequencies
        count = len(self.pairs)
        return dataclasses.replace(
            frequencies, hi=frequencies.hi[:count], lo=frequencies.lo[:count], tail=frequencies.tail[:count]
        )

    def cos_sin(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, Any]:
        """(cos, s·sin, θ) of the ideal at `positions` (offset and direction applied), float64 `(L, n)`."""
        frequencies = self.inverse_frequencies(positions)
        cosine, sine = reference_cos_sin(np.asarray(positions) + self.offset, frequencies)
        return cosine, self.sign * sine, frequencies

    def bound(self, weight: Any, positions: np.ndarray, thetas: np.ndarray, dtype: str) -> np.ndarray:
        """The per-pair output bound at this ideal's precision class for `dtype` (the policy when none)."""
        return policy.output_bound(
            weight,
            np.asarray(positions) + self.offset,
            thetas,
            dtype,
            theta_units=self.theta_units,
            attention_factor=self.attention_factor,
            precision=self.classes.get(dtype),
        )

    def expected(self, x: np.ndarray, positions: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray]:
        """(exact g·R(m)x, per-coordinate bound), both of x's shape `(..., L, d)`, x held exactly."""
        cosine, sine, frequencies = self.cos_sin(positions)
        g = self.attention_factor
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        xa, xb = x[..., a], x[..., b]
        expected = x.copy()
        expected[..., a] = g * (xa * cosine - xb * sine)
        expected[..., b] = g * (xa * sine + xb * cosine)
        bound = np.empty_like(x)
        pair_bound = self.bound(np.abs(xa) + np.abs(xb), positions, frequencies.hi, dtype)
        bound[..., a] = pair_bound
        bound[..., b] = pair_bound
        bound[..., self.passthrough] = policy.passthrough_bound(x[..., self.passthrough], dtype)
        return expected, bound


def round_to(x: np.ndarray, dtype: str) -> np.ndarray:
    """x rounded to the dtype, back in float64 (the exact value the target receives)."""
    return x.astype(numpy_dtype(dtype)).astype(np.float64)


def bound_ratio(error: np.ndarray, bound: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bound > 0, error / bound, np.where(error > 0, np.inf, 0.0))
    return np.where(np.isnan(error), np.inf, ratio)


def half_pairs(rotary_dim: int) -> np.ndarray:
    index = np.arange(rotary_dim // 2)
    return np.stack([index, index + rotary_dim // 2], axis=1)


def interleaved_pairs(rotary_dim: int) -> np.ndarray:
    index = np.arange(rotary_dim // 2)
    return np.stack([2 * index, 2 * index + 1], axis=1)


def as_index(index: np.ndarray) -> slice | np.ndarray:
    """An index array as a slice when it is an arithmetic progression (a view instead of a gathered copy)."""
    if index.size > 1:
        step = int(index[1] - index[0])
        if step > 0 and np.array_equal(index, index[0] + step * np.arange(index.size)):
            return slice(int(index[0]), int(index[-1]) + 1, step)
    return index


def scaling_factor(ideal: Ideal) -> float:
    return 1.0 if ideal.scaling is None else ideal.scaling.factor


def layout_of(ideal: Ideal) -> str | None:
    """The layout name ("half" or "interleaved") when the pairs are exactly that layout, else None."""
    rotary = ideal.rotary_dim
    for name, pairs in (("half", half_pairs(rotary)), ("interleaved", interleaved_pairs(rotary))):
        if np.array_equal(ideal.pairs, pairs):
            return name
    return None


def structure_of(ideal: Ideal) -> Structure:
    return Structure(ideal.pairs, ideal.passthrough, "", ideal.rotary_dim, "", [], 0.0)


def framework_copy(x: Any) -> np.ndarray:
    """A float64 NumPy snapshot of a framework array (to see whether the target modified it)."""
    if type(x).__module__.startswith("torch"):
        return x.detach().cpu().float().numpy().astype(np.float64).copy()
    return np.array(x, dtype=np.float64, copy=True)


def largest(values: np.ndarray) -> float:
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return 0.0
    return float(np.inf) if np.isnan(values).any() else float(values.max())


def sample_positions(n: int, start: int) -> np.ndarray:
    """Positions beyond the small block for the structure probe: powers of two, their neighbours, the largest."""
    candidates = {n - 1, n // 2, 2049, 65504}
    for exponent in range(6, 32):
        for delta in (-1, 0, 1):
            candidates.add(2**exponent + delta)
    return np.array(sorted(p for p in candidates if start <= p < n), dtype=np.int64)


def layout_name(layout: str) -> str:
    return {
        "interleaved": "interleaved pairs (2i, 2i+1)",
        "half": "half-split pairs (i, i + d/2)",
        "p-rope": "p-RoPE pairs (i, i + d/2) for i < r/2, θᵢ = base^(−2i/d), the rest passed through",
        "other": "a pairing that is neither interleaved nor half-split",
        "none": "no pairs",
    }.get(layout, layout)
