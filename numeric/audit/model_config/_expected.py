"""What a config implies, independently of every engine: per layer type and length regime, the spectrum θᵢ, the
attention factor that multiplies cos and sin, and the softmax scale.

The spectra come from the project's high-precision scaling references (`ropecheck.numeric.audit.function.scaling`, 60
digits, the papers' formulas: Su et al. RoFormer; Chen et al. PI; bloc97 / HF dynamic NTK; Peng et al. YaRN incl.
`truncate`; Meta's Llama 3 bands; Ding et al. LongRoPE) plus Gemma 4's proportional form here. The factors:

- **YaRN** attention factor: `attention_factor` when given; else g(s, mscale)/g(s, mscale_all_dim) when both are
  non-zero (DeepSeek); else g(s, 1), with g(s, m) = 0.1·m·ln s + 1 (1 for s ≤ 1).
- **LongRoPE**: `attention_factor` when given; else √(1 + ln s / ln L₀) with s = `factor` or M/L₀ (1 for s ≤ 1).
- every other type: 1; a layer that does not rotate (rope type "none", `_layer_rules`): no θ, factor 1.
- **softmax scale**: the model family's rule (`_softmax`, each with its source file:line): MLA's
  g(s, mscale_all_dim)², Gemma's `query_pre_attn_scalar`, Gemma 3n's 1, Llama 4's and Ministral 3's
  position-dependent query scaling; 1/√head_dim for every other family.

A GGUF file's `rope_freqs` divisors λᵢ (llama.cpp's form of Llama 3 scaling) divide θᵢ after the rest.

Length regimes: dynamic NTK is plain up to M and grows with the length beyond it; LongRoPE uses the short factors
while the largest position + 1 ≤ L₀ and the long ones beyond. Both are swept across S−1, S, S+1, 1.5·S, 2·S, 4·S
and s·S, S the switch point (M, L₀; `sweep_lengths`): the entry at S is labelled `"short"`, LongRoPE's at S + 1
`"long"`, the others by their length. Every other type holds for any length (`"any"`).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import mpmath

from ..function.scaling import Scaling, scaled_inverse_frequencies_mp
from ._layer_rules import NO_ROPE
from ._parse import RopeLayer
from ._softmax import SoftmaxRule, softmax_rule, yarn_mscale

__all__ = ["Expected", "expected_values", "layer_scaling", "per_layer_table", "sweep_lengths", "yarn_mscale"]

_DIGITS = 60


@dataclasses.dataclass(frozen=True)
class Expected:
    """One (layer type, length regime): `layer` (the `RopeLayer`), `regime` ("any", "short", "long" or a length),
    `length` (the sequence length the spectrum is computed at), `inv_freq` (θᵢ as float64), `attention_factor`,
    `softmax_scale`, `softmax_multiplier` (the factor on 1/√d beyond it), `softmax_rule` and `softmax_source` (the
    family's rule in words and the engine file:line it was read from), `query_scaling` (a position-dependent factor
    on q, with its values at probe positions; None for most families)."""

    layer: RopeLayer
    regime: str | int
    length: int
    inv_freq: tuple[float, ...]
    attention_factor: float
    softmax_scale: float
    softmax_multiplier: float
    softmax_rule: str = ""
    softmax_source: str = ""
    query_scaling: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry of `layers` in `audit-config --json`."""
        rotates = self.layer.rope_type != NO_ROPE
        out: dict[str, Any] = {
            "layer_type": self.layer.layer_type,
            "layer_indices": list(self.layer.layer_indices),
            "rope_type": self.layer.rope_type,
            "rotates": rotates,
            "regime": self.regime,
            "rotary_dim": self.layer.rotary_dim,
            "inv_freq": list(self.inv_freq),
            "attention_factor": self.attention_factor,
            "softmax_scale": self.softmax_scale,
            "base": self.layer.base if rotates else None,
            "softmax_rule": self.softmax_rule,
            "softmax_source": self.softmax_source,
        }
        if self.query_scaling is not None:
            out["query_scaling"] = self.query_scaling
        if self.layer.rope_type in ("dynamic", "longrope"):
            out["length"] = self.length
        if self.layer.mrope_section is not None:
            out["mrope_section"] = list(self.layer.mrope_section)
            out["mrope_layout"] = "interleaved" if self.layer.mrope_interleaved else "chunked"
        if self.layer.readings:
            out["readings"] = list(self.layer.readings)
        return out


def layer_scaling(layer: RopeLayer) -> Scaling | None:
    """The project's `Scaling` for a layer (None for plain RoPE and for `proportional`, computed here).

    **Arguments:** `layer`.

    **Returns:** the `Scaling`, with the attention factor this module derives (so `audit --config` expects it).
    """
    p = layer.parameters
    kind = layer.rope_type
    if kind in ("default", "proportional", NO_ROPE):
        return None
    factor = float(layer.factor or 1.0)
    if kind == "linear":
        return Scaling("linear", factor)
    if kind == "dynamic":
        return Scaling("dynamic", factor, original=layer.max_position_embeddings)
    attention = float(attention_factor(layer))
    if kind == "yarn":
        return Scaling(
            "yarn", factor, original=layer.original, beta_fast=layer.yarn_betas[0], beta_slow=layer.yarn_betas[1],
            truncate=bool(p.get("truncate", True)), attention=attention,
        )
    if kind == "llama3":
        return Scaling(
            "llama3", factor, original=layer.original, low=float(p["low_freq_factor"]),
            high=float(p["high_freq_factor"]),
        )
    return Scaling(
        "longrope", factor, original=layer.original, attention=attention,
        short=tuple(float(v) for v in p["short_factor"]), long=tuple(float(v) for v in p["long_factor"]),
    )


def attention_factor(layer: RopeLayer) -> mpmath.mpf:
    """The factor on cos and sin (see the module docstring)."""
    p = layer.parameters
    if layer.rope_type not in ("yarn", "longrope"):
        return mpmath.mpf(1)
    if p.get("attention_factor") is not None:
        return mpmath.mpf(p["attention_factor"])
    factor = float(layer.factor or 1.0)
    if layer.rope_type == "yarn":
        if p.get("mscale") and p.get("mscale_all_dim"):
            return yarn_mscale(factor, p["mscale"]) / yarn_mscale(factor, p["mscale_all_dim"])
        return yarn_mscale(factor)
    if factor <= 1:
        return mpmath.mpf(1)
    return mpmath.sqrt(1 + mpmath.log(factor) / mpmath.log(mpmath.mpf(layer.original)))


def layer_softmax(layer: RopeLayer) -> SoftmaxRule:
    """The family's softmax rule for `layer` (`_softmax`: never implied by the rope type alone)."""
    return softmax_rule(layer.model_type, layer.rope_type, layer.parameters, layer.head_dim, layer.qk_head_dim,
                        {**layer.attention, **({"query_pre_attn_scalar": layer.query_pre_attn_scalar}
                                               if layer.query_pre_attn_scalar is not None else {})},
                        layer.factor)


def _proportional(layer: RopeLayer) -> list[mpmath.mpf]:
    """Gemma 4: k = int(p·H/2) rotated pairs at base^(−2i/H)/s (exponent over H, not d); the rest 0."""
    head = layer.head_dim
    rotated = layer.rotary_dim // 2
    factor = mpmath.mpf(layer.factor or 1.0)
    base = mpmath.mpf(layer.base)
    return [base ** (-mpmath.mpf(2 * i) / head) / factor if i < rotated else mpmath.mpf(0) for i in range(head // 2)]


def sweep_lengths(switch: int, factor: float) -> list[int]:
    """The lengths a length-dependent spectrum is checked at: one before, at and after its switch point S, then
    1.5·S, 2·S, 4·S and s·S (a base right at S but wrong at 1.5·S or 4·S, or a switch one token early or late, is
    then seen).

    **Arguments:** `switch` (S: M for dynamic NTK, L₀ for LongRoPE), `factor` (s).

    **Returns:** the sorted distinct lengths.
    """
    return sorted({max(switch - 1, 1), switch, switch + 1, round(1.5 * switch), 2 * switch, 4 * switch,
                   round(factor * switch)})


def _regimes(layer: RopeLayer) -> list[tuple[str | int, int]]:
    """(regime label, length): "short" at the switch point, "long" one past it for LongRoPE, the length itself
    for the rest of the sweep; "any" for a spectrum that holds at every length."""
    if layer.rope_type == "dynamic":
        switch = layer.max_position_embeddings
        labels = {switch: "short"}
    elif layer.rope_type == "longrope":
        switch = int(layer.original or 1)
        labels = {switch: "short", switch + 1: "long"}
    else:
        return [("any", 1)]
    return [(labels.get(length, length), length) for length in sweep_lengths(switch, float(layer.factor or 1))]


def per_layer_table(expected: list[Expected]) -> list[dict[str, Any]]:
    """The expected table per layer index: for each layer, its type, whether it rotates, its rope type, rotary dim,
    attention factor and softmax scale, and `entries` (the indices into `expected`, one per length regime, where
    its θᵢ are).

    **Arguments:** `expected` (every entry of one config, as `audit_config` lists them).

    **Returns:** one dict per layer index, in layer order.
    """
    rows: dict[int, dict[str, Any]] = {}
    for number, entry in enumerate(expected):
        layer = entry.layer
        for index in layer.layer_indices:
            row = rows.setdefault(index, {
                "layer": index, "layer_type": layer.layer_type, "rope_type": layer.rope_type,
                "rotates": layer.rope_type != NO_ROPE, "rotary_dim": layer.rotary_dim,
                "attention_factor": entry.attention_factor, "softmax_scale": entry.softmax_scale,
                "regimes": [], "entries": [],
            })
            row["regimes"].append(entry.regime)
            row["entries"].append(number)
    return [rows[index] for index in sorted(rows)]


def expected_values(layer: RopeLayer) -> list[Expected]:
    """The expected values of one layer type, one entry per length regime.

    **Arguments:** `layer`.

    **Returns:** a list of `Expected` (one for fixed spectra; two or three for dynamic NTK and LongRoPE).
    """
    with mpmath.workdps(_DIGITS):
        scaling = layer_scaling(layer)
        attention = attention_factor(layer)
        rule = layer_softmax(layer)
        out = []
        for regime, length in _regimes(layer):
            if layer.rope_type == NO_ROPE:
                values = []
            elif layer.rope_type == "proportional":
                values = _proportional(layer)
            else:
                values = scaled_inverse_frequencies_mp(layer.rotary_dim, layer.base, scaling, length)
            divisors = layer.parameters.get("freq_factors")
            if divisors is not None:  # GGUF's rope_freqs tensor (llama.cpp: θᵢ / λᵢ, Llama 3 baked in)
                values = [v / mpmath.mpf(d) for v, d in zip(values, divisors, strict=True)]
            out.append(
                Expected(layer, regime, length, tuple(float(v) for v in values), float(attention),
                         float(rule.scale), float(rule.multiplier), rule.words, rule.source, rule.query_scaling)
            )
    return out
