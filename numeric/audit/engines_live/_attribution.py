"""Attribution: which config key or layer explains an engine's difference, numerically. Each suspect rule is switched
in the float64 reference (one layer type or one layer at a time), the reference is re-run on the windows where the
engine differed, and the suspect explains the difference when the engine then agrees within the same bound.

Suspects, in the order they are tried: the sliding window not applied (all sliding layers at once), a layer
without a window run as a sliding layer (its window and rotation, per layer); the known misreadings of
`model_config` (`truncate` ignored, an explicit `attention_factor` dropped, the LongRoPE factor set of the other
regime, L₀ × 4, scaling dropped, …) per layer type, then each in every layer type it applies to at once; a layer
left unrotated, or a layer without RoPE rotated, per layer; the softmax scale 1/√head_dim; the RMS norms' ε not read
(0: llama.cpp's Qwen2-VL loader); and last a one-parameter fit of `rope_theta` per layer type (the base the
engine's rotation matches).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..model_config import ModelConfig, RopeLayer, expected_values
from ..model_config._readings import misreadings_for
from ._reference import LayerRule, _entry_for, longrope_entry

__all__ = ["Attribution", "Suspect", "attribute", "suspects"]

Switch = Callable[[list[LayerRule], int], list[LayerRule]]


@dataclasses.dataclass(frozen=True)
class Suspect:
    """A rule to switch: `key` (the config key, or "layer N"), `words`, `layers` (the indices it changes), `switch`
    (rules, window end → switched rules)."""

    key: str
    words: str
    layers: tuple[int, ...]
    switch: Switch


@dataclasses.dataclass(frozen=True)
class Attribution:
    """The suspect that explains (or comes closest to explaining) a difference: `key`, `words`, `layers`, `ratio`
    (largest difference / bound after switching it: ≤ 1 explains), `explained`, `ratio_before`."""

    key: str
    words: str
    layers: tuple[int, ...]
    ratio: float
    explained: bool
    ratio_before: float

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _rule(layer: RopeLayer, end: int, regime_swap: bool = False) -> LayerRule:
    entries = expected_values(layer)
    entry = _entry_for(entries, end)
    if regime_swap and layer.rope_type == "longrope":
        entry = longrope_entry(entries, end, other_regime=True)
    elif regime_swap and len(entries) > 1:
        entry = next(e for e in entries if e is not entry)
    rotates = layer.rope_type != "none" and layer.rotary_dim > 0
    return LayerRule(layer.layer_type, rotates, entry.inv_freq, entry.attention_factor, entry.softmax_scale,
                     layer.rope_type, entry)


def _replace(rules: list[LayerRule], indices: tuple[int, ...], make: Callable[[LayerRule], LayerRule]
             ) -> list[LayerRule]:
    return [make(rule) if index in indices else rule for index, rule in enumerate(rules)]


def suspects(table: ModelConfig, layers: int, sliding: tuple[int, ...] = (), window: int | None = None,
             eps: float | None = None) -> list[Suspect]:
    """Every suspect for a model of `layers` layers read from `table`, whose layers `sliding` apply a sliding
    window of `window` and whose RMS norms use `eps` (see the module docstring)."""
    out: list[Suspect] = []
    if sliding:
        def unwindowed(rules: list[LayerRule], end: int) -> list[LayerRule]:
            return _replace(rules, sliding, lambda r: dataclasses.replace(r, windowed=False))
        out.append(Suspect("sliding_window", f"the sliding window is not applied: full causal attention on layer(s) "
                           f"{', '.join(map(str, sliding))}", sliding, unwindowed))
        donor = sliding[0]
        for index in (i for i in range(layers) if i not in sliding):
            def as_sliding(rules: list[LayerRule], end: int, index: int = index) -> list[LayerRule]:
                return _replace(rules, (index,), lambda r: dataclasses.replace(rules[donor], forced_window=window))
            out.append(Suspect("sliding_window_pattern", f"layer {index} ({rules_type(table, index)}) is run as a "
                               f"sliding layer (window {window}, the sliding layers' rotation)", (index,),
                               as_sliding))
    # The same misreading in every layer type it applies to (gpt-oss's sliding and full layers share one YaRN
    # block: an engine that ignores `truncate` ignores it in both), after each layer type alone.
    shared: dict[str, list[tuple[RopeLayer, tuple[int, ...], Any]]] = {}
    for layer in table.layers:
        indices = tuple(i for i in layer.layer_indices if i < layers)
        if layer.rope_type == "none" or not indices:
            continue
        for misreading in misreadings_for(layer):
            changed = misreading.change(layer)
            swap = misreading.regime_swap
            shared.setdefault(misreading.words, []).append((changed, indices, misreading))

            def switch(rules: list[LayerRule], end: int, changed: RopeLayer = changed, swap: bool = swap,
                       indices: tuple[int, ...] = indices) -> list[LayerRule]:
                new = _rule(changed, end, swap)
                return _replace(rules, indices, lambda _: new)
            out.append(Suspect(misreading.key, f"{layer.layer_type}: {misreading.words}", indices, switch))
    for words, group in shared.items():
        if len(group) < 2:
            continue

        def switch_all(rules: list[LayerRule], end: int,
                       group: list[tuple[RopeLayer, tuple[int, ...], Any]] = group) -> list[LayerRule]:
            for changed, indices, misreading in group:
                new = _rule(changed, end, misreading.regime_swap)
                rules = _replace(rules, indices, lambda _, new=new: new)
            return rules
        every = tuple(sorted(i for _, indices, _ in group for i in indices))
        types = ", ".join(changed.layer_type for changed, _, _ in group)
        out.append(Suspect(group[0][2].key, f"{types}: {words}", every, switch_all))
    for index in range(layers):
        def unrotated(rules: list[LayerRule], end: int, index: int = index) -> list[LayerRule]:
            return _replace(rules, (index,), lambda r: dataclasses.replace(r, rotates=False))

        def rotated(rules: list[LayerRule], end: int, index: int = index) -> list[LayerRule]:
            donor = next((r for r in rules if r.rotates), None)
            if donor is None:
                return rules
            return _replace(rules, (index,), lambda r: dataclasses.replace(donor, layer_type=r.layer_type))
        owner = next((la for la in table.layers if index in la.layer_indices), None)
        if owner is not None and owner.rope_type != "none":
            out.append(Suspect(f"layer {index}", f"layer {index} ({owner.layer_type}) applies no rotation", (index,),
                               unrotated))
        elif owner is not None:
            out.append(Suspect(f"layer {index}", f"layer {index} ({owner.layer_type}) is rotated although the model's "
                               "rule leaves it without RoPE", (index,), rotated))
    head = {la.qk_head_dim for la in table.layers}
    if len(head) == 1:
        plain = 1 / math.sqrt(head.pop())

        def plain_softmax(rules: list[LayerRule], end: int) -> list[LayerRule]:
            return [dataclasses.replace(r, softmax_scale=plain) for r in rules]
        if any(abs(la_scale - plain) > 1e-12 * plain for la_scale in
               (expected_values(la)[0].softmax_scale for la in table.layers)):
            out.append(Suspect("softmax scale", "softmax scale 1/√head_dim (the config's scale inputs ignored)",
                               tuple(range(layers)), plain_softmax))
    if eps:
        def no_eps(rules: list[LayerRule], end: int) -> list[LayerRule]:
            return [dataclasses.replace(r, norm_eps=0.0) for r in rules]
        out.append(Suspect("rms_norm_eps", f"`rms_norm_eps` not read: every RMS norm runs with ε = 0, not {eps:g}",
                           tuple(range(layers)), no_eps))
    return out


def rules_type(table: ModelConfig, index: int) -> str:
    """The layer type `table` gives layer `index`."""
    return next((la.layer_type for la in table.layers if index in la.layer_indices), "?")


def _base_switch(layer: RopeLayer, indices: tuple[int, ...], log_kappa: float) -> Switch:
    """The layer type re-read with `rope_theta` × e^log_kappa (its scaling recomputed from that base)."""
    changed = dataclasses.replace(layer, base=layer.base * math.exp(log_kappa))

    def switch(rules: list[LayerRule], end: int) -> list[LayerRule]:
        new = _rule(changed, end)
        return _replace(rules, indices, lambda _: new)
    return switch


def attribute(table: ModelConfig, layers: int, rules_at: Callable[[int], list[LayerRule]],
              ratio_of: Callable[[Switch], float], ratio_before: float, sliding: tuple[int, ...] = (),
              window: int | None = None, eps: float | None = None) -> Attribution | None:
    """The first suspect that explains the difference, else the closest one (or None when there is none).

    **Arguments:** `table`, `layers`, `rules_at` (window end → the table's rules), `ratio_of` (a switch → the
    largest difference / bound over the differing windows with it applied), `ratio_before`, `sliding` (the layers
    that apply a sliding window), `window` (its size), `eps` (the config's RMS-norm ε, None: not a suspect).

    **Returns:** an `Attribution`.
    """
    best: Attribution | None = None
    for suspect in suspects(table, layers, sliding, window, eps):
        ratio = ratio_of(suspect.switch)
        found = Attribution(suspect.key, suspect.words, suspect.layers, ratio, ratio <= 1.0, ratio_before)
        if found.explained:
            return found
        if best is None or ratio < best.ratio:
            best = found
    for layer in table.layers:
        indices = tuple(i for i in layer.layer_indices if i < layers)
        if layer.rope_type == "none" or not indices:
            continue
        low, high = math.log(0.25), math.log(4.0)
        golden = (math.sqrt(5) - 1) / 2
        a, b = high - golden * (high - low), low + golden * (high - low)
        fa, fb = ratio_of(_base_switch(layer, indices, a)), ratio_of(_base_switch(layer, indices, b))
        for _ in range(30):
            if fa < fb:
                high, b, fb = b, a, fa
                a = high - golden * (high - low)
                fa = ratio_of(_base_switch(layer, indices, a))
            else:
                low, a, fa = a, b, fb
                b = low + golden * (high - low)
                fb = ratio_of(_base_switch(layer, indices, b))
        kappa = math.exp(a if fa < fb else b)
        ratio = min(fa, fb)
        words = (f"{layer.layer_type}: the engine rotates as if `rope_theta` were {layer.base * kappa:.6g} "
                 f"(× {kappa:.4g} the config's {layer.base:g})")
        found = Attribution("rope_theta", words, indices, ratio, ratio <= 1.0 and abs(kappa - 1) > 1e-3,
                            ratio_before)
        if found.explained:
            return found
        if best is None or ratio < best.ratio:
            best = found
    return best if best is None or np.isfinite(best.ratio) else None
