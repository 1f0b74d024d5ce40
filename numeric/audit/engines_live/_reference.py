"""The float64 reference: the tiny model's own weights, run in float64, with every layer's rotation (θᵢ and the
attention factor on cos/sin) and softmax scale taken from ropecheck's expected table (`model_config`, 60-digit
formulas), never from an engine's rotary code; a layer the table marks as not rotating (rope type "none") gets the
identity. Everything else (embeddings, norms, MLP, masks, sliding windows, sinks) is the transformers module in
float64, which every engine is meant to agree with.

The same pass gives, by autodiff, the first-order error bound of an engine's float32 forward (`_bounds`): the
Jacobian of every logit with respect to every cos/sin entry and to q, k and v.

Claims served: ROPE-FREQUENCIES, ROPE-QK-RELATIVE (the rotation each layer applies).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..attention._configs import KEEP_VISION
from ..model_config import Expected, ModelConfig, expected_values

__all__ = ["LayerRule", "ReferenceError", "ReferencePass", "layer_rules", "longrope_entry", "reference_pass",
           "sliding_layers"]


class ReferenceError(RuntimeError):
    """ropecheck cannot form the reference for this model (its own failure, never an engine's)."""


@dataclasses.dataclass(frozen=True)
class LayerRule:
    """What one layer applies in the reference: `layer_type`, `rotates`, `inv_freq` (θᵢ, float64), `attention_factor`
    (on cos and sin), `softmax_scale`, `rope_type`, `entry` (the `Expected` it comes from; None when switched),
    `windowed` (False: the layer's sliding window is not applied, full causal attention — a switched rule),
    `forced_window` (a window this layer applies although the model gives it none — a switched rule), `norm_eps`
    (the ε this layer's RMS norms use instead of the config's — a switched rule; when every layer's rule sets it, the
    final norm's too)."""

    layer_type: str
    rotates: bool
    inv_freq: tuple[float, ...]
    attention_factor: float
    softmax_scale: float
    rope_type: str
    entry: Expected | None = None
    windowed: bool = True
    forced_window: int | None = None
    norm_eps: float | None = None


def _entry_for(entries: list[Expected], end: int) -> Expected:
    """The table entry a call whose largest position + 1 is `end` uses (see `_expected`'s length regimes)."""
    if len(entries) == 1:
        return entries[0]
    layer = entries[0].layer
    if layer.rope_type == "longrope":
        return longrope_entry(entries, end)
    if end <= layer.max_position_embeddings:
        return entries[0]
    for entry in entries:
        if entry.length == end:
            return entry
    raise ReferenceError(f"no expected spectrum at length {end} for {layer.rope_type} (the table lists "
                         f"{[e.length for e in entries]})")


def longrope_entry(entries: list[Expected], end: int, other_regime: bool = False) -> Expected:
    """LongRoPE's entry for a call ending at `end`: the short factor set while `end` ≤ L₀, the long one past it
    (the table lists both regimes and a sweep of lengths in each; the entry of the nearest length at or past `end`
    in the regime, else the regime's longest); `other_regime`: the same, in the other factor set."""
    original = int(entries[0].layer.original or 0)
    short = [e for e in entries if (e.length or 0) <= original]
    long = [e for e in entries if (e.length or 0) > original]
    regime = short if (end <= original) != other_regime else long
    if not regime:
        raise ReferenceError(f"the expected table has no LongRoPE entry for length {end} (other regime: "
                             f"{other_regime})")
    later = [e for e in regime if (e.length or 0) >= end]
    return min(later, key=lambda e: e.length or 0) if later else max(regime, key=lambda e: e.length or 0)


def layer_rules(table: ModelConfig, end: int, layers: int) -> list[LayerRule]:
    """One `LayerRule` per layer index for a call whose largest position + 1 is `end`.

    **Arguments:** `table` (the tiny config, parsed), `end`, `layers` (the model's depth).

    **Returns:** the rules in layer order.

    **Raises:** `ReferenceError` when the table does not cover every layer.
    """
    rules: list[LayerRule | None] = [None] * layers
    for layer in table.layers:
        entry = _entry_for(expected_values(layer), end)
        rotates = layer.rope_type != "none" and layer.rotary_dim > 0
        rule = LayerRule(layer.layer_type, rotates, entry.inv_freq, entry.attention_factor, entry.softmax_scale,
                         layer.rope_type, entry)
        for index in layer.layer_indices:
            if index < layers:
                rules[index] = rule
    missing = [i for i, r in enumerate(rules) if r is None]
    if missing:
        raise ReferenceError(f"the expected table has no entry for layer(s) {missing}")
    return [r for r in rules if r is not None]


def sliding_layers(model: Any) -> tuple[int, ...]:
    """The indices of the layers whose attention applies a sliding window in transformers (the module's own
    `sliding_window`, else the config's window on every layer its `layer_types` marks sliding)."""
    config = model.config.get_text_config()
    types = getattr(config, "layer_types", None)
    out = []
    for index, layer in enumerate(decoder_layers(model)):
        attention = _attention(layer)
        if hasattr(attention, "sliding_window"):
            window = attention.sliding_window
        else:
            window = getattr(config, "sliding_window", None) if getattr(config, "use_sliding_window", True) else None
            window = window if not types or types[index] == "sliding_attention" else None
        if window:
            out.append(index)
    return tuple(out)


def _causal_like(mask: Any, query: Any, key: Any, window: int | None = None) -> Any:
    """A causal mask (within `window` of each query when given) in the form of `mask` (boolean: True attends;
    additive: 0 or the dtype's minimum; None: boolean, [1, 1, T, S])."""
    import torch

    rows, columns = query.shape[-2], key.shape[-2]
    allowed = torch.ones(rows, columns, dtype=torch.bool).tril(columns - rows)
    if window:
        allowed &= ~torch.ones(rows, columns, dtype=torch.bool).tril(columns - rows - int(window))
    if mask is None:
        return allowed[None, None]
    if mask.dtype == torch.bool:
        return allowed.expand(mask.shape)
    blocked = torch.zeros(rows, columns, dtype=mask.dtype).masked_fill(~allowed, torch.finfo(mask.dtype).min)
    return blocked.expand(mask.shape)


def decoder_layers(model: Any) -> list[Any]:
    """The text decoder's layers of a transformers causal LM (VLMs: the language model's)."""
    inner = getattr(model, "model", None) or model.transformer
    inner = getattr(inner, "language_model", inner)
    return list(inner.layers)


def _attention(layer: Any) -> Any:
    for name in ("self_attn", "attention", "attn"):
        if hasattr(layer, name):
            return getattr(layer, name)
    raise ReferenceError(f"no attention module on {type(layer).__name__}")


@dataclasses.dataclass
class ReferencePass:
    """The reference for one window: `logits` ([T, V] float64), `rules`, and the sensitivities (per logit row,
    flattened [T·V]): `angle` (Σ|∂ℓ/∂c|·e(c) over the cos/sin entries, e the float32 entry error bound), `operands`
    (Σ|∂ℓ/∂x|·|x| over q, k, v after the rotation and the attention output weighted by the attention of |v|: a
    relative rounding u of them moves ℓ by at most u times this)."""

    logits: Any
    rules: list[LayerRule]
    angle: Any = None
    operands: Any = None


def _cos_sin(rule: LayerRule, positions: Any, width: int, entry_error: Any) -> tuple[Any, Any, Any]:
    """cos and sin ([T, width], float64, half-split layout as transformers' rotary modules hand them over) and the
    float32 error bound of each entry."""
    import torch
    from ropecheck.numeric.reference._rope_bounds import angle_error_bound
    from ropecheck.numeric.reference.tolerances import trigonometric_error

    count = len(positions)
    if not rule.rotates:
        ones = torch.ones(count, width, dtype=torch.float64)
        return ones, torch.zeros_like(ones), np.zeros((count, width))
    theta = np.asarray(rule.inv_freq, dtype=np.float64)
    if width not in (len(theta), 2 * len(theta)):
        raise ReferenceError(f"the model's rotary width {width} is neither the table's {len(theta)} frequencies nor "
                             "twice that")
    halves = 2 if width == 2 * len(theta) else 1  # cat(freqs, freqs), or one half (gpt-oss) for half-split pairs
    angles = np.outer(np.asarray(positions, dtype=np.float64), theta)
    factor = rule.attention_factor
    cos = np.concatenate([np.cos(angles)] * halves, axis=-1) * factor
    sin = np.concatenate([np.sin(angles)] * halves, axis=-1) * factor
    # θᵢ formed in float32 by a power, or by a running product θᵢ = θᵢ₋₁·base^(−2/d) (llama.cpp's rope cache):
    # up to (i + 2)·u₃₂ relative for pair i.
    units = np.arange(len(theta), dtype=np.float64)[None, :] + 2.0
    error = angle_error_bound(np.asarray(positions)[:, None], theta[None, :], "float32", theta_error_units=units)
    entry = factor * trigonometric_error("float32", error)
    return (torch.tensor(cos), torch.tensor(sin), np.concatenate([entry] * halves, axis=-1) if entry_error else None)


_EPS_NAMES = ("variance_epsilon", "eps", "epsilon")


def _norms(module: Any) -> list[tuple[Any, str]]:
    """The normalisation modules under `module` with the attribute holding their ε."""
    out = []
    for child in module.modules():
        if "norm" in type(child).__name__.lower():
            name = next((n for n in _EPS_NAMES if isinstance(getattr(child, n, None), float)), None)
            if name:
                out.append((child, name))
    return out


def _set_norm_eps(model: Any, rules: list[LayerRule]) -> list[tuple[Any, str, float]]:
    """Give the norms of each layer whose rule sets `norm_eps` that ε (and the final norm when every rule sets it);
    returns (module, attribute, old value) to restore."""
    saved: list[tuple[Any, str, float]] = []
    layers = decoder_layers(model)
    targets = [(layer, rule.norm_eps) for layer, rule in zip(layers, rules, strict=True) if rule.norm_eps is not None]
    if targets and len(targets) == len(layers):
        inner = getattr(model, "model", None) or model.transformer
        inner = getattr(inner, "language_model", inner)
        final = getattr(inner, "norm", None)
        if final is not None:
            targets.append((final, targets[0][1]))
    for module, eps in targets:
        for norm, name in _norms(module):
            saved.append((norm, name, getattr(norm, name)))
            setattr(norm, name, float(eps))
    return saved


@contextlib.contextmanager
def _patched(model: Any, rules: list[LayerRule], positions: list[int], record: bool) -> Iterator[dict[str, Any]]:
    """The model with each layer's cos/sin and softmax scale from `rules`; with `record`, zero perturbations that
    require grad on every cos/sin entry and on q, k, v (for the sensitivities)."""
    import torch
    from transformers.modeling_utils import ALL_ATTENTION_FUNCTIONS

    state: dict[str, Any] = {"cs": [], "cs_error": [], "operands": [], "operand_size": []}
    handles = []
    saved_scaling = []
    saved_flags: list[tuple[Any, Any]] = []
    attentions = [_attention(layer) for layer in decoder_layers(model)]
    for index, (attention, rule) in enumerate(zip(attentions, rules, strict=True)):
        def pre_hook(module: Any, args: Any, kwargs: Any, rule: LayerRule = rule) -> Any:
            given = kwargs.get("position_embeddings")
            if given is None:
                return None
            if not isinstance(given, tuple) and given.is_complex():  # DeepSeek-V2: one tensor a·e^{iθp}, [B, T, d/2]
                cos, sin, error = _cos_sin(rule, positions, int(given.shape[-1]), record)
                if record:
                    dc = torch.zeros_like(cos, requires_grad=True)
                    ds = torch.zeros_like(sin, requires_grad=True)
                    state["cs"] += [dc, ds]
                    state["cs_error"] += [error, error]
                    cos, sin = cos + dc, sin + ds
                return args, {**kwargs, "position_embeddings": torch.complex(cos, sin).expand(given.shape)}
            cos, sin, error = _cos_sin(rule, positions, int(given[0].shape[-1]), record)
            shape = given[0].shape
            cos, sin = cos.to(given[0].dtype), sin.to(given[0].dtype)
            if record:
                dc = torch.zeros_like(cos, requires_grad=True)
                ds = torch.zeros_like(sin, requires_grad=True)
                state["cs"] += [dc, ds]
                state["cs_error"] += [error, error]
                cos, sin = cos + dc, sin + ds
            cos, sin = cos.expand(shape), sin.expand(shape)  # [B, T, D] or M-RoPE's [3, B, T, D] (equal streams)
            return args, {**kwargs, "position_embeddings": (cos, sin)}
        handles.append(attention.register_forward_pre_hook(pre_hook, with_kwargs=True))
        if rule.rotates and hasattr(attention, "use_rope") and not attention.use_rope:
            # A NoPE layer (SmolLM3's `use_rope`, 0 from the config's flags) skips the cos/sin it is handed: a rule
            # that rotates it (the attribution's switch) turns the flag on for this pass.
            saved_flags.append((attention, attention.use_rope))
            attention.use_rope = True
        if hasattr(attention, "scaling"):
            saved_scaling.append((attention, attention.scaling))
            attention.scaling = rule.softmax_scale
        elif index == 0:
            raise ReferenceError(f"{type(attention).__name__} has no `scaling`: the softmax scale cannot be set")

    saved_eps = _set_norm_eps(model, rules)
    unwindowed = {id(a) for a, rule in zip(attentions, rules, strict=True) if not rule.windowed}
    forced = {id(a): rule.forced_window for a, rule in zip(attentions, rules, strict=True) if rule.forced_window}

    def wrap(original: Any) -> Any:
        def attend(module: Any, query: Any, key: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
            if id(module) in unwindowed:  # the switched rule: this layer's window is not applied
                kwargs.pop("sliding_window", None)
                if args and args[0] is not None:
                    args = (_causal_like(args[0], query, key), *args[1:])
                elif kwargs.get("attention_mask") is not None:
                    kwargs["attention_mask"] = _causal_like(kwargs["attention_mask"], query, key)
            if id(module) in forced:  # the switched rule: this layer applies a window the model does not give it
                given = args[0] if args else kwargs.get("attention_mask")
                mask = _causal_like(given, query, key, forced[id(module)])
                if args:
                    args = (mask, *args[1:])
                else:
                    kwargs["attention_mask"] = mask
                kwargs["is_causal"] = False
            if record:
                perturbed = []
                for x in (query, key, value):
                    delta = torch.zeros_like(x, requires_grad=True)
                    state["operands"].append(delta)
                    state["operand_size"].append(x.detach().abs())
                    perturbed.append(x + delta)
                query, key, value = perturbed
            output, weights = original(module, query, key, value, *args, **kwargs)
            if record:
                # The probabilities rounded to float16 before they weight v (ggml's f16 matrix product): a relative
                # u of each pᵢⱼ·vⱼ is at most u·Σⱼ pᵢⱼ|vⱼ|, the attention of |v| (p ≥ 0).
                with torch.no_grad():
                    size, _ = original(module, query.detach(), key.detach(), value.detach().abs(), *args, **kwargs)
                delta = torch.zeros_like(output, requires_grad=True)
                state["operands"].append(delta)
                state["operand_size"].append(size.abs())
                output = output + delta
            return output, weights
        return attend

    sources = {sys.modules[type(a).__module__] for a in attentions}
    eager = [(s, s.eager_attention_forward) for s in sources if hasattr(s, "eager_attention_forward")]
    mapping = ALL_ATTENTION_FUNCTIONS._global_mapping
    sdpa = mapping.get("sdpa")
    for source, original in eager:
        source.eager_attention_forward = wrap(original)
    if sdpa is not None:
        mapping["sdpa"] = wrap(sdpa)
    try:
        yield state
    finally:
        for handle in handles:
            handle.remove()
        for attention, value in saved_scaling:
            attention.scaling = value
        for attention, flag in saved_flags:
            attention.use_rope = flag
        for norm, name, value in saved_eps:
            setattr(norm, name, value)
        for source, original in eager:
            source.eager_attention_forward = original
        if sdpa is not None:
            mapping["sdpa"] = sdpa


def float64_model(model: Any) -> Any:
    """A float64 copy of the float32 model (every weight exactly the one the engines load). A model whose attention
    caps its logits (Gemma 2's `attn_logit_softcapping`) runs transformers' eager attention: its SDPA path takes the
    cap as a keyword and drops it (transformers 5.3.0), so the reference would be a model without the cap."""
    import torch

    copied = copy.deepcopy(model).to(torch.float64).eval()
    if getattr(copied.config.get_text_config(), "attn_logit_softcapping", None):
        copied.set_attn_implementation("eager")
    return copied


def reference_pass(model64: Any, rules: list[LayerRule], tokens: list[int], start: int,
                   sensitivities: bool = True, rows: int | None = None) -> ReferencePass:
    """Run the float64 reference on one window.

    **Arguments:** `model64` (`float64_model`), `rules` (one per layer), `tokens`, `start` (the first position),
    `sensitivities` (also compute the Jacobian-based sensitivities, one batched backward pass), `rows` (only
    the last `rows` tokens: a prompt from position 0 whose earlier tokens only lead up to them).

    **Returns:** a `ReferencePass`.
    """
    import torch

    positions = list(range(start, start + len(tokens)))
    ids = torch.tensor([tokens])
    position_ids = torch.tensor([positions])
    if getattr(model64.config, "model_type", "") in KEEP_VISION:
        position_ids = position_ids.expand(3, 1, len(tokens))
    kwargs = {"input_ids": ids, "position_ids": position_ids, "use_cache": False}
    with _patched(model64, rules, positions, sensitivities) as state:
        if not sensitivities:
            with torch.no_grad():
                return ReferencePass(model64(**kwargs).logits[0, -(rows or len(tokens)):].double(), rules)
        with torch.enable_grad():
            logits = model64(**kwargs).logits[0, -(rows or len(tokens)):].double()
            rows = logits.reshape(-1)
            eye = torch.eye(rows.numel(), dtype=rows.dtype)
            leaves = state["cs"] + state["operands"]
            grads = torch.autograd.grad(rows, leaves, grad_outputs=eye, is_grads_batched=True, allow_unused=True)
    count = len(state["cs"])
    angle = np.zeros(rows.numel())
    operands = np.zeros(rows.numel())
    for number, grad in enumerate(grads):
        if grad is None:
            continue
        flat = grad.detach().abs().reshape(grad.shape[0], -1).numpy()
        if number < count:
            weight = np.broadcast_to(state["cs_error"][number], grad.shape[1:]).reshape(-1)
            angle += flat @ weight
        else:
            weight = state["operand_size"][number - count].reshape(-1).numpy()
            operands += flat @ weight
    return ReferencePass(logits.detach(), rules, angle, operands)
