"""Spectrum: the per-pair frequencies θᵢ against base^(−2i/r) with the declared scaling (ROPE-FREQUENCIES)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    Structure,
    block_angles,
    estimate_frequencies,
    nice_candidates,
)
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    bound_ratio,
)
from ropecheck.numeric.audit.function.scaling import Scaling, parse_scaling, scaled_inverse_frequencies_mp

__all__ = ["CLAIMS", "NAME"]

NAME = "spectrum"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-FREQUENCIES",)


#: Bases of known model families (the summary says whether an inferred base matches one).
KNOWN_BASES = {
    10000.0: "RoFormer, Llama 1/2, GPT-NeoX, Mistral 7B v0.1, Gemma",
    500000.0: "Llama 3",
    1000000.0: "Code Llama, Qwen2, Mistral (v0.2+)",
}


#: A θ̂ᵢ further than this from θᵢ (relative) is wrong mathematics, not precision: rounding θ to any dtype audited
#: (bfloat16: 2⁻⁹) moves it by less than half of this.
THETA_RELATIVE_TOLERANCE = 2.0**-7


@dataclasses.dataclass
class PendingSpectrum:
    """The spectrum's measurement, judged after the sweep has found the primary dtype's precision class."""

    dtype: str
    label: str
    worst: dict[str, tuple[float, int, int, float]]
    estimated: np.ndarray
    thetas: np.ndarray
    positions: np.ndarray
    reported: bool = False

    def report(self, ctx: AuditContext) -> None:
        """Add the spectrum finding (unless the root cause was already reported)."""
        if self.reported:
            return
        ratio, position, _pair, error = self.worst["policy"]
        last = int(self.positions[-1])
        found = f"θᵢ follow {self.label} for all {len(self.thetas)} pairs (positions 0…{last})"
        if ratio <= 1:
            ctx.add("spectrum", True, found + ".", max_error=error, position=position)
            return
        precision = ctx.precision_class.get(self.dtype)
        if precision is not None and not precision.is_policy and self.worst[precision.name][0] <= 1:
            ctx.add(
                "spectrum",
                True,
                f"ok at {precision.name} precision (see precision): {found}.",
                status="explained",
                explained_by="precision",
                max_error=error,
                position=position,
            )
            return
        detail, fix = _mismatch_message(
            self.worst, self.estimated, self.thetas, self.label, ctx.options.scaling is None
        )
        ctx.add("spectrum", False, detail, fix=fix, max_error=error, position=position)


def check_spectrum(
    ctx: AuditContext, ideal: Ideal, matrices: np.ndarray, positions: np.ndarray, dtype: str, structure: Structure
) -> tuple[Ideal, PendingSpectrum]:
    """Measure θ̂ᵢ and compare with the declared (or inferred) base and scaling (ROPE-FREQUENCIES).

    A θ mismatch is a root cause reported now (and the ideal takes the base that fits, so later properties are
    judged against what the target computes); an angle error that a precision class explains is judged after the
    sweep (`PendingSpectrum.report`). An undeclared base is said loudly (a note; a failure with `strict`).

    **Returns:**

    `(ideal, pending)`.
    """
    options = ctx.options
    if ideal.pairs.size == 0 or structure.rotary_dim == 0:
        ctx.base_source = "none"
        pending = PendingSpectrum(dtype, "", {}, np.zeros(0), np.zeros(0), positions, reported=True)
        ctx.add(
            "spectrum",
            True,
            "see pairing: nothing rotates, so there is no spectrum.",
            status="explained",
            explained_by="pairing",
        )
        return dataclasses.replace(ideal, base=float("nan")), pending
    phi, _ = block_angles(matrices, ideal.pairs)
    phi = ideal.sign * phi
    estimated = estimate_frequencies(phi[1:], positions[1:]) if positions.size > 3 else phi[-1]
    factor = 1.0 if options.scaling is None else options.scaling.factor
    classes = policy.precision_classes(dtype)

    def mismatch(
        candidate_base: float, scaling: Scaling | None = None
    ) -> tuple[dict[str, tuple[float, int, int, float]], float]:
        scale = factor if scaling is None else scaling.factor
        units = policy.frequency_error_units(candidate_base, scale)
        trial = dataclasses.replace(ideal, base=candidate_base, theta_units=units)
        if scaling is not None:
            trial = dataclasses.replace(trial, scaling=scaling)
        thetas = trial.inverse_frequencies(positions).hi
        expected = (positions[:, np.newaxis] + ideal.offset) * thetas
        error = np.abs(np.angle(np.exp(1j * (phi - expected))))
        out = {}
        for precision in classes:
            beta = policy.output_bound(
                1.0,
                positions + ideal.offset,
                thetas,
                dtype,
                theta_units=units,
                attention_factor=ideal.attention_factor,
                precision=precision,
            )
            ratio = bound_ratio(error, policy.angle_tolerance(beta, ideal.attention_factor))
            row, column = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
            out[precision.name] = (float(ratio.max()), int(positions[row]), int(column), float(error[row, column]))
        return out, units

    # The classes a base may be inferred under: the policy and float32 angles (never a 16-bit class).
    inference_classes = [c.name for c in classes if c.angle_dtype in ("float32", "float64")]

    def fits(candidate_base: float) -> bool:
        worst, _ = mismatch(candidate_base)
        return any(worst[name][0] <= 1 for name in inference_classes)

    def best_fitting_base() -> float:
        fitted = fit_base(estimated, ideal)
        return next((candidate for candidate in nice_candidates(fitted) if fits(candidate)), fitted)

    base_source = "declared"
    if options.base is None:
        base_source = "inferred"
        ideal = dataclasses.replace(ideal, base=best_fitting_base())
        _note_inferred_base(ctx, ideal.base)
    worst, units = mismatch(ideal.base)
    ideal = dataclasses.replace(ideal, theta_units=units)
    ctx.base_source = base_source
    thetas = ideal.inverse_frequencies(positions).hi
    label = f"base {ideal.base:g} ({base_source})"
    if options.scaling is not None:
        label += f" with scaling {options.scaling.spec()}"
    pending = PendingSpectrum(dtype, label, worst, estimated, thetas, positions)
    if options.base is None and options.strict:
        pending.reported = True
        ctx.add(
            "spectrum",
            False,
            f"The base is not declared (--strict): the spectrum fits base {ideal.base:g}, but an undeclared base"
            " cannot be certified.",
            fix=f"declare the base the model was trained with, e.g. --base {ideal.base:g}",
        )
        return ideal, pending
    relative = np.abs(estimated / np.where(thetas != 0, thetas, np.inf) - 1)
    systematic = bool(np.nanmax(relative, initial=0.0) > THETA_RELATIVE_TOLERANCE)
    if any(worst[c.name][0] <= 1 for c in classes) and not systematic:
        return ideal, pending
    # Wrong mathematics: θ itself differs by more than rounding θ to any dtype could.
    detail, fix = _mismatch_message(worst, estimated, thetas, label, options.scaling is None)
    corrected = False
    hint = None
    if options.scaling is None:
        hint = suggest_scaling(
            estimated, thetas, lambda spec: _fits_spec(mismatch, ideal.base, spec, inference_classes)
        )
    if hint:
        detail += (
            f" The measured θ are those of base {ideal.base:g} with --scaling {hint} (the fitted ratio of the slowest"
            f" pair is {estimated[-1] / thetas[-1]:.4g})."
        )
        fix += f", or declare --scaling {hint} if the model uses it"
        corrected = True
        scaling = parse_scaling(hint)
        ideal = dataclasses.replace(
            ideal, scaling=scaling, theta_units=policy.frequency_error_units(ideal.base, scaling.factor)
        )
    elif options.base is not None:
        fitted = best_fitting_base()
        if fits(fitted):
            corrected = True
            detail += f" The spectrum fits base {fitted:g}."
            fix += f", or declare --base {fitted:g} if that is the model's base"
            ideal = dataclasses.replace(ideal, base=fitted, theta_units=policy.frequency_error_units(fitted, factor))
    pending.reported = True
    finding = ctx.add("spectrum", False, detail, fix=fix, max_error=worst["policy"][3], position=worst["policy"][1])
    finding.corrected = corrected
    return ideal, pending


def _mismatch_message(
    worst: dict[str, tuple[float, int, int, float]], estimated: np.ndarray, thetas: np.ndarray, label: str, bare: bool
) -> tuple[str, str]:
    """(detail, fix) of a θ that is not the declared one."""
    relative = np.abs(estimated / np.where(thetas != 0, thetas, np.inf) - 1)
    pair = int(np.nanargmax(relative)) if relative.size and not np.isnan(relative).all() else 0
    _ratio, position, _pair, error = worst["policy"]
    ratio_text = estimated[pair] / thetas[pair] if thetas[pair] else math.inf
    detail = (
        f"θ of pair {pair} is {estimated[pair]:.6g}, expected {thetas[pair]:.6g} for {label}"
        f" (ratio {ratio_text:.4g}); angle off by {error:.3g} rad at position {position}."
    )
    fix = "compute θᵢ = base^(−2i/r) with the declared base and scaling"
    half = estimated.size // 2
    if half >= 2 and estimated.size % 2 == 0 and np.allclose(estimated[half:], estimated[:half], rtol=1e-3):
        detail = (
            f"pairs {half}–{estimated.size - 1} repeat pairs 0–{half - 1}: a half-layout table (cat(freqs, freqs))"
            f" indexed as interleaved — " + detail[0].lower() + detail[1:]
        )
        fix = (
            "index a cat(freqs, freqs) cos/sin table with half-split pairs (i, i + d/2), or build it with"
            " repeat_interleave(freqs, 2) for interleaved pairs"
        )
        return detail[0].upper() + detail[1:], fix
    if bare and abs(estimated[0] - 1) > 1e-3 and estimated[0] > 0:
        detail += f" θ₀ = {estimated[0]:.4g} ≠ 1: a scaling such as linear:{1 / estimated[0]:.4g} may apply."
        fix += ", or declare the scaling the target applies (--scaling)"
    return detail, fix


def _fits_spec(mismatch: Callable[..., Any], base: float, spec: str, classes: list[str]) -> bool:
    worst, _ = mismatch(base, parse_scaling(spec))
    return any(worst[name][0] <= 1 for name in classes)


def suggest_scaling(estimated: np.ndarray, thetas: np.ndarray, fits: Callable[[str], bool]) -> str | None:
    """A `--scaling` spec that explains the measured θ with the declared base, from the fitted ratio of the slowest
    pair (a scaling divides the slow pairs by its factor F): llama3:F, linear:F, yarn:F, ntk:F — the first that fits.

    **Arguments:**

    - `estimated`, `thetas`: measured and expected θᵢ (no scaling).
    - `fits`: spec → whether the ideal with that scaling fits the measured angles.
    """
    if not estimated.size or not thetas[-1] or not np.isfinite(estimated[-1]) or estimated[-1] <= 0:
        return None
    ratio = thetas[-1] / estimated[-1]
    if not 1.5 <= ratio <= 1024:
        return None
    factor = round(ratio)
    if abs(ratio - factor) > 0.05 * factor:
        return None
    for kind in ("llama3", "linear", "yarn", "ntk"):
        spec = f"{kind}:{factor}"
        try:
            if fits(spec):
                return spec
        except ValueError:
            continue
    return None


def _note_inferred_base(ctx: AuditContext, base: float) -> None:
    family = KNOWN_BASES.get(float(base))
    if family:
        match = f"it matches the base of {family}"
    else:
        known = ", ".join(f"{b:g}" for b in KNOWN_BASES)
        match = f"it matches no known model family's base ({known})"
    ctx.notes.append(
        f"Base not declared: inferred {base:g} from the spectrum; {match}. An undeclared base is audited against"
        " what the target computes — declare --base (and --strict) to certify the model's base."
    )


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
