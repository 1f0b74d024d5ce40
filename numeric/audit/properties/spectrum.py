"""Spectrum: the per-pair frequencies θᵢ against base^(−2i/r) with the declared scaling (ROPE-FREQUENCIES)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from numeric.audit import policy
from numeric.audit.context import AuditContext
from numeric.audit.extract import (
    Structure,
    block_angles,
    estimate_frequencies,
    nice_candidates,
)
from numeric.audit.ideal import (
    Ideal,
    bound_ratio,
)
from numeric.audit.scaling import scaled_inverse_frequencies_mp

__all__ = ["CLAIMS", "NAME"]

NAME = "spectrum"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-FREQUENCIES",)


def check_spectrum(
    ctx: AuditContext, ideal: Ideal, matrices: np.ndarray, positions: np.ndarray, dtype: str, structure: Structure
) -> Ideal:
    options = ctx.options
    phi, _ = block_angles(matrices, ideal.pairs)
    estimated = estimate_frequencies(phi[1:], positions[1:]) if positions.size > 3 else phi[-1]
    factor = 1.0 if options.scaling is None else options.scaling.factor

    def mismatch(candidate_base: float) -> tuple[float, int, int, float, float]:
        units = policy.frequency_error_units(candidate_base, factor)
        trial = dataclasses.replace(ideal, base=candidate_base, theta_units=units)
        thetas = trial.inverse_frequencies(positions).hi
        expected = positions[:, np.newaxis] * thetas
        error = np.abs(np.angle(np.exp(1j * (phi - expected))))
        beta = policy.output_bound(
            1.0, positions, thetas, dtype, theta_units=units, attention_factor=ideal.attention_factor
        )
        ratio = bound_ratio(error, policy.angle_tolerance(beta, ideal.attention_factor))
        row, column = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        return float(ratio.max()), int(positions[row]), int(column), float(error[row, column]), units

    base_source = "declared"
    if options.base is None:
        base_source = "inferred"
        fitted = fit_base(estimated, ideal)
        best = fitted
        for candidate in nice_candidates(fitted):
            if mismatch(candidate)[0] <= 1:
                best = candidate
                break
        ideal = dataclasses.replace(ideal, base=best)
    worst, position, pair, error, units = mismatch(ideal.base)
    ideal = dataclasses.replace(ideal, theta_units=units)
    ctx.base_source = base_source
    thetas = ideal.inverse_frequencies(positions).hi
    label = f"base {ideal.base:g} ({base_source})"
    if options.scaling is not None:
        label += f" with scaling {options.scaling.spec()}"
    if worst <= 1:
        detail = f"θᵢ follow {label} for all {len(thetas)} pairs (positions 0…{int(positions[-1])})."
    elif thetas[pair] and abs(estimated[pair] / thetas[pair] - 1) < 1e-4:
        detail = (
            f"θᵢ match {label}, but the angle of pair {pair} is off by {error:.3g} rad at position {position},"
            f" more than {dtype} allows under the policy (angles formed in a lower precision?)."
        )
    else:
        ratio_text = estimated[pair] / thetas[pair] if thetas[pair] else math.inf
        detail = (
            f"θ of pair {pair} is {estimated[pair]:.6g}, expected {thetas[pair]:.6g} for {label}"
            f" (ratio {ratio_text:.4g}); angle off by {error:.3g} rad at position {position}."
        )
        if options.scaling is None and abs(estimated[0] - 1) > 1e-3 and estimated[0] > 0:
            detail += f" θ₀ = {estimated[0]:.4g} ≠ 1: a scaling such as linear:{1 / estimated[0]:.4g} may apply."
    ctx.add("spectrum", worst <= 1, detail, max_error=error, position=position)
    return ideal


# -- per-dtype small checks ---------------------------------------------------------------------------


def fit_base(estimated: np.ndarray, ideal: Ideal) -> float:
    """The base whose (scaled) spectrum best fits the measured θ̂ᵢ (least squares on ln θ; golden section on
    ln base when a scaling is declared)."""
    r = ideal.rotary_dim
    index = np.arange(len(estimated))
    usable = (estimated > 0) & (index > 0)
    if not usable.any():
        return 10000.0
    exponents = 2 * index[usable] / r
    logs = np.log(estimated[usable])
    if ideal.scaling is None:
        value = float(-(exponents * logs).sum() / (exponents**2).sum())
        return float(math.exp(min(max(value, math.log(1.0001)), 700)))

    def loss(log_base: float) -> float:
        thetas = np.array(
            [float(t) for t in scaled_inverse_frequencies_mp(r, math.exp(log_base), ideal.scaling, 1)], dtype=float
        )
        return float(((np.log(thetas[usable]) - logs) ** 2).sum())

    grid = np.linspace(math.log(2.0), math.log(1e9), 60)
    values = [loss(v) for v in grid]
    best = int(np.argmin(values))
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if loss(left) < loss(right):
            high = right
        else:
            low = left
    return float(math.exp((low + high) / 2))
