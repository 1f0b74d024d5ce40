"""Where a length-dependent spectrum switches, observed in what each layer applies.

- **switch-point**: dynamic NTK (the base grows with the length beyond M = `max_position_embeddings`) and LongRoPE
  (short factors while the largest position + 1 ≤ L₀, long ones beyond) are probed with one prefill at each length
  n of M − 1, M, M + 1, 1.5·M, 2·M, 4·M and s·M (LongRoPE: L₀ − 1, L₀, L₀ + 1, 2·L₀), in increasing order; at
  each, the rotation every layer applies to q and k (`_applied`) must be the spectrum `audit-config`'s formulas
  give at length n (`ropecheck.numeric.audit.model_config.layer_scaling`, the project's scaling reference). A
  model that switches one token early or late applies, at M or M + 1, the spectrum of the neighbouring length, and
  the finding says so; a dynamic base right at M, 2·M and s·M but wrong at 1.5·M or 4·M fails at those lengths.

The rotary modules' state (a grown dynamic base, the long factors) is saved before the sweep and restored after
it, so the checks that follow see the model as it was.

Claims served: ROPE-FREQUENCIES (the spectrum at each length), ROPE-PAIR-FORMULA.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mpmath

from ._applied import _rotates, _spectrum, observe_layers
from ._model import TinyModel
from ._report import AttentionFinding
from ._sensitivity import rotary_modules

__all__ = ["check_switch_point", "probe_lengths"]

CLAIMS = ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA")


def probe_lengths(kind: str, switch: int, factor: float) -> list[int]:
    """The sequence lengths the sweep probes, increasing (see the module docstring)."""
    if kind == "dynamic":
        lengths = {switch - 1, switch, switch + 1, (3 * switch) // 2, 2 * switch, 4 * switch, round(factor * switch)}
    else:
        lengths = {switch - 1, switch, switch + 1, 2 * switch}
    return sorted(n for n in lengths if n >= 2)


def _switching_layer(tiny: TinyModel) -> Any:
    """The first expected entry whose spectrum depends on the length, or None."""
    for entry in tiny.expected:
        if entry is not None and entry.layer.rope_type in ("dynamic", "longrope"):
            return entry
    return None


def _spectrum_at(entry: Any, length: int) -> tuple[float, ...]:
    from ..function.scaling import scaled_inverse_frequencies_mp
    from ..model_config import layer_scaling

    with mpmath.workdps(60):
        values = scaled_inverse_frequencies_mp(entry.layer.rotary_dim, entry.layer.base, layer_scaling(entry.layer),
                                               length)
        return tuple(float(v) for v in values)


@contextmanager
def _rotary_state_kept(tiny: TinyModel) -> Iterator[None]:
    """Restore every rotary module's attributes and buffers after the block."""
    saved = [(m, copy.copy(m.__dict__), dict(m._buffers)) for m in rotary_modules(tiny)]
    try:
        yield
    finally:
        for module, attributes, buffers in saved:
            module.__dict__.clear()
            module.__dict__.update(attributes)
            module._buffers = buffers


def _worst_ratio(tiny: TinyModel, views: list[Any], theta: tuple[float, ...]) -> float:
    worst = 0.0
    for view in views:
        if view.expected is None or view.expected.layer.rope_type not in ("dynamic", "longrope") or \
                not _rotates(view):
            continue
        probe = dataclasses.replace(view, expected=dataclasses.replace(view.expected, inv_freq=theta))
        worst = max(worst, _spectrum(tiny, probe)[0])
    return worst


def check_switch_point(tiny: TinyModel) -> AttentionFinding:
    """At every probe length, each switching layer applies the spectrum of that length."""
    entry = _switching_layer(tiny)
    if entry is None:
        return AttentionFinding("switch-point", CLAIMS, "not applicable", "the spectrum does not depend on the length")
    kind = entry.layer.rope_type
    switch = int(entry.layer.max_position_embeddings if kind == "dynamic" else entry.layer.original)
    lengths = probe_lengths(kind, switch, float(entry.layer.factor or 1.0))
    wrong, ratios = [], {}
    with _rotary_state_kept(tiny):
        for length in lengths:
            views = observe_layers(tiny, length)
            ratio = _worst_ratio(tiny, views, _spectrum_at(entry, length))
            ratios[str(length)] = ratio
            if ratio <= 1:
                continue
            matches = [other for other in (length - 1, length + 1, 1)
                       if other >= 1 and _worst_ratio(tiny, views, _spectrum_at(entry, other)) <= 1]
            if matches and matches[0] == length - 1:
                wrong.append(f"at length {length} it applies the spectrum of length {length - 1} (switches one token "
                             "late)")
            elif matches and matches[0] == length + 1:
                wrong.append(f"at length {length} it applies the spectrum of length {length + 1} (switches one token "
                             "early)")
            elif matches:
                wrong.append(f"at length {length} it applies the unscaled spectrum")
            else:
                wrong.append(f"at length {length} it applies neither that length's spectrum nor a neighbour's "
                             f"(observed/bound ratio {ratio:.3g})")
    what = (f"{kind} switching at {switch} ({'M' if kind == 'dynamic' else 'L₀'}); lengths "
            f"{', '.join(map(str, lengths))}")
    if wrong:
        return AttentionFinding("switch-point", CLAIMS, "fail", f"{what}: " + "; ".join(wrong) +
                                " — the spectrum must follow the length as the formula says", max(ratios.values()),
                                1.0, {"ratios": ratios, "switch_length": switch})
    return AttentionFinding("switch-point", CLAIMS, "ok", f"{what}: each applies that length's spectrum (largest "
                            f"observed/bound ratio {max(ratios.values()):.3g})", max(ratios.values()), 1.0,
                            {"ratios": ratios, "switch_length": switch})
