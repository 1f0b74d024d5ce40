"""Compare an engine's observations with the expected values, and name the misread key when one explains them.

**Error model** (tolerances from `ropecheck.numeric.reference.tolerances`, u the unit roundoff of the format the
engine forms θ in, float32 for every engine here): θᵢ = base^(−2i/d) formed as a power costs the rounding of the
exponent 2i/d, which the power multiplies by |ln base|, one rounding of ln base inside the power and the measured
exp allowance; a reciprocal, a division by s and a blend (YaRN, Llama 3, LongRoPE: ramp, two products, a sum)
cost at most six more roundings, and a linear ramp's own two. So

    |θ̂ᵢ − θᵢ| / θᵢ ≤ (2·|ln base| + X_exp + 8)·u.

The attention factor is a short chain (a log, a product, a ratio or a square root) formed in float64 and cast to
cos/sin's format: (X_exp + 4)·u of that format. The softmax scale: a power and up to two products, in float64.
An engine whose value is outside the bound differs; the report gives the observed error, the bound and their
ratio.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ropecheck.numeric.reference.tolerances import implementation_units, unit_roundoff

from ._expected import Expected, expected_values
from ._layer_rules import NO_ROPE
from ._readings import misreadings_for
from .engines._base import Observation

__all__ = ["Finding", "compare", "spectrum_bound", "verdict_of"]


@dataclasses.dataclass(frozen=True)
class Finding:
    """One difference: `engine`, `layer_type`, `regime`, `quantity` (spectrum / attention_factor / softmax_scale /
    query_scaling / rotation / call / build / model_type), `message` (in words), `key` (the config key misread, ""
    when none explains it), `where` (the engine's file:line), `observed_error`, `bound`."""

    engine: str
    layer_type: str
    regime: str | int
    quantity: str
    message: str
    key: str = ""
    where: str = ""
    observed_error: float = math.nan
    bound: float = math.nan

    def to_json(self) -> dict[str, Any]:
        """The finding as plain data."""
        return dataclasses.asdict(self)


def spectrum_bound(base: float, dtype: str = "float32") -> float:
    """The relative bound on θᵢ formed in `dtype` (see the module docstring)."""
    return (2 * abs(math.log(base)) + implementation_units("exp", dtype) + 8) * unit_roundoff(dtype)


def factor_bound(dtype: str = "float32") -> float:
    """The relative bound on an attention factor or softmax scale carried in `dtype`."""
    return (implementation_units("exp", dtype) + 4) * unit_roundoff(dtype)


def _spectrum_error(observed: list[float], wanted: tuple[float, ...]) -> tuple[float, int]:
    """Largest relative difference and its pair (a length mismatch is an infinite error at the first missing pair)."""
    if len(observed) != len(wanted):
        return math.inf, min(len(observed), len(wanted))
    worst, where = 0.0, 0
    for i, (got, want) in enumerate(zip(observed, wanted, strict=True)):
        error = abs(got - want) / abs(want) if want else abs(got)
        if not math.isfinite(got):
            error = math.inf
        if error > worst:
            worst, where = error, i
    return worst, where


def _scalar_error(observed: float, wanted: float) -> float:
    return abs(observed - wanted) / abs(wanted) if math.isfinite(observed) else math.inf


def _alternative(expected: Expected, layer_change: Any, swap: bool) -> Expected:
    entries = expected_values(layer_change(expected.layer))
    if swap:  # the other LongRoPE factor set: "long" for any length up to L₀, "short" beyond
        other = "long" if expected.length <= int(expected.layer.original or 0) else "short"
        others = [e for e in entries if e.regime == other]
        return others[0] if others else entries[0]
    matching = [e for e in entries if e.regime == expected.regime]
    return matching[0] if matching else entries[-1]


def _explain(expected: Expected, quantity: str, matches: Any) -> tuple[str, str] | None:
    for misreading in misreadings_for(expected.layer):
        if quantity not in misreading.quantities:
            continue
        try:
            alternative = _alternative(expected, misreading.change, misreading.regime_swap)
        except (ValueError, KeyError, ZeroDivisionError):
            continue
        if matches(alternative):
            return misreading.key, misreading.words
    return None


def compare(engine: str, expected: Expected, observed: Observation) -> list[Finding]:
    """The findings of one engine on one (layer type, regime).

    **Arguments:** `engine` (its name), `expected`, `observed`.

    **Returns:** a list of `Finding` (empty when the engine conforms on everything it exposes).
    """
    common = {"engine": engine, "layer_type": expected.layer.layer_type, "regime": expected.regime}
    if observed.error is not None:
        if observed.unknown_model_type:
            return [Finding(**common, quantity="model_type", message=observed.error)]
        return [Finding(**common, quantity="build", message=f"could not be built or called: {observed.error}")]
    findings = []
    should_rotate = expected.layer.rope_type != NO_ROPE
    if observed.rotates is not None and observed.rotates != should_rotate:
        message = ("applies RoPE on a layer the model's rule leaves unrotated" if observed.rotates else
                   "applies no RoPE on a layer the model's rule rotates")
        layers = ", ".join(map(str, expected.layer.layer_indices[:8]))
        findings.append(Finding(**common, quantity="rotation", message=f"{message} (layers {layers})",
                                where=observed.where.get("rotates", "")))
    if observed.call_error is not None:
        findings.append(Finding(**common, quantity="call", message=f"raises at a length the regime needs: "
                                f"{observed.call_error}", where=observed.where.get("spectrum", "")))
    bound = spectrum_bound(expected.layer.base, observed.dtype)
    if observed.inv_freq is not None:
        error, pair = _spectrum_error(observed.inv_freq, expected.inv_freq)
        if error > bound:
            inv = observed.inv_freq
            why = _explain(expected, "spectrum", lambda alt: _spectrum_error(inv, alt.inv_freq)[0] <= bound)
            detail = (f"θ differs: max relative difference {error:.3g} at pair {pair} (bound {bound:.2g})"
                      if math.isfinite(error) else f"θ has {len(inv)} pairs, {len(expected.inv_freq)} expected")
            findings.append(Finding(**common, quantity="spectrum",
                                    message=f"{why[1]} — {detail}" if why else detail, key=why[0] if why else "",
                                    where=observed.where.get("spectrum", ""), observed_error=error, bound=bound))
    for quantity in ("attention_factor", "softmax_scale"):
        got = getattr(observed, quantity)
        if got is None:
            continue
        dtype = observed.dtype if quantity == "attention_factor" else "float64"
        limit = factor_bound(dtype)
        want = getattr(expected, quantity)
        error = _scalar_error(got, want)
        if error > limit:
            why = _explain(
                expected, quantity, lambda alt, q=quantity, g=got, b=limit: _scalar_error(g, getattr(alt, q)) <= b
            )
            detail = f"{quantity.replace('_', ' ')} {got:.6g}, expected {want:.6g}"
            findings.append(Finding(**common, quantity=quantity,
                                    message=f"{why[1]} — {detail}" if why else detail, key=why[0] if why else "",
                                    where=observed.where.get(quantity, ""), observed_error=error, bound=limit))
    if expected.query_scaling is not None and observed.query_factors is not None:
        findings += _query_findings(common, expected, observed)
    return findings


def _query_findings(common: dict[str, Any], expected: Expected, observed: Observation) -> list[Finding]:
    """The position-dependent factor on q (Llama 4's NoPE layers, Ministral 3) at each position the table lists:
    formed in float32 (a floor, a log, a product and a sum, like an attention factor)."""
    limit = factor_bound("float32")
    wanted: dict[str, float] = expected.query_scaling["factors"] if expected.query_scaling else {}
    got = observed.query_factors or {}
    errors = {p: _scalar_error(got.get(p, math.nan), w) for p, w in wanted.items()}
    worst = max(errors, key=lambda p: errors[p])
    if errors[worst] <= limit:
        return []
    off = [p for p, e in errors.items() if e > limit]
    detail = (f"factor on q at position {worst}: {got.get(worst, math.nan):.6g}, expected {wanted[worst]:.6g} "
              f"({expected.query_scaling['words'] if expected.query_scaling else ''}; off at positions "
              f"{', '.join(off[:6])})")
    return [Finding(**common, quantity="query_scaling", message=detail, where=observed.where.get("query_scaling", ""),
                    observed_error=errors[worst], bound=limit)]


def verdict_of(findings: list[Finding]) -> str:
    """"does not know model_type" when the engine has no class for the config's type; "differs" when a value
    differs; "could not be built" when the engine failed on the config; else "conforms"."""
    if any(f.quantity == "model_type" for f in findings):
        return "does not know model_type"
    if any(f.quantity != "build" for f in findings):
        return "differs"
    return "could not be built" if findings else "conforms"
