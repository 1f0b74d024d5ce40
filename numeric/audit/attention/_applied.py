"""What each attention layer *applies*: q and k observed inside the layer before and after the rotation.

Each attention layer is run twice on the input it received in one prefill: as the model ran it, and with the
rotation taken out — its `position_embeddings` replaced by the identity rotation (cos = 1, sin = 0; Llama 4's
complex form: e^{i·0}) and the rotation functions of its module (`apply_rotary_pos_emb`, `apply_rotary_emb`,
`apply_multimodal_rotary_pos_emb`, …) replaced by one that returns q and k untouched. The query and key that reach
the attention function in the second run are the un-rotated q, k of the same weights and hidden states; in the
first, the rotated ones. Their relation, token by token, is what the layer applies, and it
is held against the expected table of `audit-config` (`ropecheck.numeric.audit.model_config`: the model's own
rules, NoPE layers included) for that layer index:

- **rope-presence**: a layer rotates q and k iff the table says it does (RoPE forced onto a NoPE layer, or dropped
  from a RoPE layer, fails here).
- **per-layer-spectrum**: on each rotating layer, every declared pair (i, partner) of q and k turns by p·θᵢ at
  position p, the dims outside the rotary slice are untouched (a wrong base, scaling or slice fails here; the
  pairing may be half-split, interleaved, or DeepSeek's interleaved-in/half-split-out — the one found is
  reported).
- **attention-factor**: the norm factor the rotation gives q, and the one it gives k, each equal the declared
  attention factor (YaRN's factor on q only fails here).
- **softmax-scale**: the scale recovered from the attention weights against scores formed from the *un-rotated*
  q, k with the declared rotation and attention factor (log wᵢⱼ − log wᵢₖ = s·(Sᵢⱼ − Sᵢₖ)) equals the declared
  softmax scale; a deviation that the measured q and k factors explain is reported as explained by
  attention-factor (one root cause, one failing finding).

A layer that rotates by other means than these (its own cos/sin and its own function names) shows the same q
before and after: it is reported as applying no rotation, never passed silently — except on a NoPE layer, where
such a hidden rotation is not seen (said in docs/attention-audit.md).

Claims served: ROPE-FREQUENCIES, ROPE-PAIR-FORMULA (presence, spectrum, factor), ATT-CAUSAL-ROW (softmax scale).
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
from ropecheck.numeric.reference.tolerances import angle_error_bound, gamma, trigonometric_error, unit_roundoff

from ._common import LENGTH, tokens
from ._model import TinyModel
from ._report import AttentionFinding, numeric_finding

__all__ = ["LayerView", "check_attention_factor", "check_per_layer_spectrum", "check_rope_presence",
           "check_softmax_scale", "observe_layers"]

ROTATION_CLAIMS = ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA")
NO_ROPE = "none"
#: The pairings a rotation may use: which dims of the un-rotated vector form pair i, and where the rotated pair is
#: written. DeepSeek's `rope_interleave` reads interleaved pairs and writes them half-split (a fixed relabelling
#: of the rope dims that its weights are stored for).
LAYOUTS = {"half-split": ("half-split", "half-split"), "interleaved": ("interleaved", "interleaved"),
           "interleaved in, half-split out": ("interleaved", "half-split")}


@dataclass
class LayerView:
    """One attention layer in one prefill: `index`, `layer_type`, `expected` (the table's `Expected`), the rotated
    `query` [H, T, D] and `key` [Hkv, T, D] that reached the attention function, the un-rotated `query_before`,
    `key_before` of the identity re-run, the returned `weights` [H, T, T], and the `positions` [T]."""

    index: int
    layer_type: str
    expected: Any
    query: np.ndarray
    key: np.ndarray
    query_before: np.ndarray
    key_before: np.ndarray
    weights: np.ndarray
    positions: np.ndarray


def _identity_rotation(embeddings: Any) -> Any:
    """The `position_embeddings` of angle 0 and factor 1 in the form the layer received them."""
    import torch

    if embeddings is None:
        return None
    if isinstance(embeddings, tuple | list) and len(embeddings) == 2:
        cos, sin = embeddings
        return torch.ones_like(cos), torch.zeros_like(sin)
    if torch.is_tensor(embeddings):
        return torch.ones_like(embeddings)  # complex e^{i·0} (Llama 4) or a real table of ones
    return embeddings


def _identity_function(original: Any) -> Any:
    """A stand-in for a rotation function that returns its q and k (or its one tensor) untouched: what the
    function returns for the identity rotation when it is right, and the un-rotated q, k whatever it does."""
    try:
        names = list(inspect.signature(original).parameters)
    except (TypeError, ValueError):
        names = []
    pair = len(names) >= 2 and names[1] in {"k", "xk", "key", "key_states", "k_states"}

    def untouched(*args: Any, **kwargs: Any) -> Any:
        values = list(args) + [kwargs[n] for n in names[len(args):2] if n in kwargs]
        return (values[0], values[1]) if pair else values[0]
    return untouched


def _rotation_functions(sources: set[Any]) -> dict[tuple[Any, str], Any]:
    """The module-level rotation functions of the attention layers' modules (`apply_rotary_pos_emb`,
    `apply_rotary_emb`, `apply_multimodal_rotary_pos_emb`, `apply_rotary_pos_emb_interleave`, …)."""
    found = {}
    for source in sources:
        for name, value in vars(source).items():
            if name.startswith(("apply_rotary", "apply_multimodal_rotary")) and "vision" not in name and \
                    callable(value):
                found[(source, name)] = value
    return found


def observe_layers(tiny: TinyModel, length: int = LENGTH) -> list[LayerView]:
    """One prefill at positions 0 … length − 1; per layer, q and k before and after the rotation (see the module
    docstring), with eager attention (the implementation that returns its weights).

    **Arguments:** `tiny`, `length` (tokens).

    **Returns:** one `LayerView` per attention layer that was called.
    """
    import torch

    modules = tiny.attention_modules()
    calls: dict[int, dict[str, Any]] = {}
    state: dict[str, Any] = {"layer": None, "rerun": False}
    handles = []
    for index, module in enumerate(modules):
        def pre_hook(mod: Any, args: Any, kwargs: Any, index: int = index) -> None:
            state["layer"] = index
            if not state["rerun"]:
                calls[index] = {"args": args, "kwargs": dict(kwargs)}
        handles.append(module.register_forward_pre_hook(pre_hook, with_kwargs=True))
    sources = {sys.modules[type(m).__module__] for m in modules}
    patched = {s: s.eager_attention_forward for s in sources if hasattr(s, "eager_attention_forward")}

    def wrap(original: Any) -> Any:
        def recorded(module: Any, query: Any, key: Any, value: Any, attention_mask: Any, **kwargs: Any) -> Any:
            output, weights = original(module, query, key, value, attention_mask, **kwargs)
            entry = calls.setdefault(state["layer"], {})
            if state["rerun"]:
                entry.update(query_before=query.detach(), key_before=key.detach())
            else:
                entry.update(query=query.detach(), key=key.detach(), weights=weights.detach())
            return output, weights
        return recorded

    implementation = tiny.config._attn_implementation
    tiny.model.set_attn_implementation("eager")
    for source, original in patched.items():
        source.eager_attention_forward = wrap(original)
    ids = tokens(1, length, seed=9)
    positions = torch.arange(length)[None]
    inputs: dict[str, Any] = {"input_ids": ids, "attention_mask": torch.ones(1, length, dtype=torch.long),
                              "use_cache": False}
    if tiny.takes_positions:
        inputs["position_ids"] = positions
    try:
        with torch.no_grad():
            tiny.model(**inputs)
            state["rerun"] = True
            rotations = _rotation_functions(sources)
            for (source, name), original in rotations.items():
                setattr(source, name, _identity_function(original))
            for index, module in enumerate(modules):
                call = calls.get(index)
                if call is None or "args" not in call:
                    continue
                bound = inspect.signature(module.forward).bind_partial(*call["args"], **call["kwargs"])
                arguments = bound.arguments
                extra = arguments.get("kwargs") if isinstance(arguments.get("kwargs"), dict) else {}
                if "position_embeddings" in arguments:
                    arguments["position_embeddings"] = _identity_rotation(arguments["position_embeddings"])
                elif "position_embeddings" in extra:
                    extra["position_embeddings"] = _identity_rotation(extra["position_embeddings"])
                for holder in (arguments, extra):
                    if "past_key_values" in holder:
                        holder["past_key_values"] = None
                state["layer"] = index
                module(*bound.args, **bound.kwargs)
    finally:
        for (source, name), original in locals().get("rotations", {}).items():
            setattr(source, name, original)
        for source, original in patched.items():
            source.eager_attention_forward = original
        for handle in handles:
            handle.remove()
        tiny.model.set_attn_implementation(implementation)
    types = tiny.layer_types()
    views = []
    for index in sorted(calls):
        entry = calls[index]
        if not {"query", "query_before", "weights"} <= set(entry):
            continue
        def first(name: str, entry: dict[str, Any] = entry) -> np.ndarray:
            return np.asarray(entry[name][0].to(torch.float64), dtype=np.float64)
        views.append(LayerView(index, types[index] if index < len(types) else "full_attention",
                               tiny.expected[index] if index < len(tiny.expected) else None,
                               first("query"), first("key"), first("query_before"), first("key_before"),
                               first("weights"), np.arange(length, dtype=np.float64)))
    return views


# ------------------------------------------------------------------------------------------------ the geometry
def _rotates(view: LayerView) -> bool:
    return view.expected.layer.rope_type != NO_ROPE and len(view.expected.inv_freq) > 0


def _slice(tiny: TinyModel, view: LayerView) -> tuple[int, int]:
    """(first rotary dim, number of pairs): the table's pairs, at the head's end for DeepSeek's MLA (whose rope
    part follows the nope part), else at its start."""
    pairs = len(view.expected.inv_freq)
    head = view.query.shape[-1]
    start = head - 2 * pairs if getattr(tiny.config, "qk_rope_head_dim", None) else 0
    return start, pairs


def _pair_indices(start: int, pairs: int, layout: str) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(pairs)
    if layout == "half-split":
        return start + i, start + pairs + i
    return start + 2 * i, start + 2 * i + 1


def _amplitude(before: np.ndarray, after: np.ndarray, dims: np.ndarray) -> float:
    """The norm factor from before to after over `dims` (a rotation by any angle keeps each pair's norm)."""
    denominator = float((before[..., dims] ** 2).sum())
    return float(np.sqrt((after[..., dims] ** 2).sum() / denominator)) if denominator > 0 else 1.0


def _pair_bound(view: LayerView) -> np.ndarray:
    """[T, pairs] bound on a pair's relative deviation from the ideal rotation: transformers forms p·θᵢ and cos/sin
    in float32 (θ through pow: error growing with ln base) and multiplies the attention factor into cos and sin
    in float32 (2u per entry)."""
    theta = np.asarray(view.expected.inv_freq, dtype=np.float64)
    units = 4.0 + np.log(max(float(view.expected.layer.base), np.e))
    if view.expected.layer.rope_type not in ("default", NO_ROPE):
        # A scaled θ takes a few more float32 roundings (the division by the factor, YaRN's and Llama 3's blend
        # θ/s·(1 − r) + θ·r with a ramp r ∈ [0, 1] itself rounded, LongRoPE's division by its factor).
        units += 8.0
    angle = angle_error_bound(view.positions[:, None], theta[None, :], "float32", theta_error_units=units)
    return np.asarray(angle, dtype=np.float64) + trigonometric_error("float32") + 4 * unit_roundoff("float32") + \
        gamma(8, "float64")


def _rotate(before: np.ndarray, view: LayerView, start: int, layout: str, amplitude: float) -> np.ndarray:
    """The declared rotation applied to un-rotated vectors [..., T, D] (dims outside the pairs untouched)."""
    theta = np.asarray(view.expected.inv_freq, dtype=np.float64)
    read, write = LAYOUTS[layout]
    first, second = _pair_indices(start, len(theta), read)
    out_first, out_second = _pair_indices(start, len(theta), write)
    angle = view.positions[:, None] * theta[None, :]
    cos, sin = np.cos(angle), np.sin(angle)
    out = before.copy()
    x, y = before[..., first], before[..., second]
    out[..., out_first] = amplitude * (x * cos - y * sin)
    out[..., out_second] = amplitude * (x * sin + y * cos)
    return out


def _layout_ratio(view: LayerView, before: np.ndarray, after: np.ndarray, start: int, layout: str,
                  amplitude: float) -> tuple[float, tuple[int, int] | None]:
    """Largest observed/bound ratio of one side under one pairing, and the (position, pair) where it is."""
    theta = view.expected.inv_freq
    read, write = (_pair_indices(start, len(theta), side) for side in LAYOUTS[layout])
    first, second = write
    reference = _rotate(before, view, start, layout, amplitude)
    deviation = np.hypot(after[..., first] - reference[..., first], after[..., second] - reference[..., second])
    size = amplitude * np.hypot(before[..., read[0]], before[..., read[1]])
    ratio = deviation / (size * _pair_bound(view) + 1e-300)  # [H, T, pairs]
    rest = np.setdiff1d(np.arange(before.shape[-1]), np.concatenate([first, second]))
    if rest.size:
        moved = np.abs(after[..., rest] - before[..., rest]).max(axis=-1) / \
            (np.abs(before[..., rest]).max(axis=-1) * gamma(8, "float64") + 1e-300)
        ratio = np.concatenate([ratio, moved[..., None]], axis=-1)
    worst = np.unravel_index(int(np.nanargmax(ratio)), ratio.shape)
    value = float(ratio[worst]) if np.all(np.isfinite(ratio)) else float("inf")
    return value, (int(worst[1]), int(worst[2]))


def _movement(view: LayerView, before: np.ndarray, after: np.ndarray, dims: np.ndarray) -> float:
    """How far the layer moves q (or k) beyond a common factor, relative to the vector: max over heads and
    positions ≥ 1 of |after − a·before| / (a·|before|) over `dims`."""
    amplitude = _amplitude(before, after, dims)
    b, a = before[..., 1:, :][..., dims], after[..., 1:, :][..., dims]
    norm = np.linalg.norm(b, axis=-1)
    return float((np.linalg.norm(a - amplitude * b, axis=-1) / (amplitude * norm + 1e-300)).max())


def _unavailable(name: str, claims: tuple[str, ...], tiny: TinyModel, views: list[LayerView]
                 ) -> AttentionFinding | None:
    if not tiny.expected:
        return AttentionFinding(name, claims, "not applicable", f"not evaluated: {tiny.expected_error}")
    if not views:
        return AttentionFinding(name, claims, "not applicable",
                                "not evaluated: no layer's q and k could be observed (no eager attention function)")
    return None


def _views(tiny: TinyModel) -> list[LayerView]:
    if tiny.layer_views is None:
        tiny.layer_views = observe_layers(tiny) if tiny.expected else []  # the four properties share one run
    return tiny.layer_views


# -------------------------------------------------------------------------------------------------- properties
def _presence(_tiny: TinyModel, view: LayerView) -> tuple[bool, float, float]:
    """(whether the layer rotates as declared, its movement, the movement it must stay under / exceed)."""
    dims = np.arange(view.query.shape[-1])  # the whole head: a rotation of other dims than declared still rotates
    moved = max(_movement(view, view.query_before, view.query, dims),
                _movement(view, view.key_before, view.key, dims))
    threshold = 4 * unit_roundoff("float32")  # what a layer that does not rotate may move (factor rounding)
    return (moved > threshold) == _rotates(view), moved, threshold


def check_rope_presence(tiny: TinyModel) -> AttentionFinding:
    """Each layer rotates q and k iff the expected table says so (NoPE layers: `rope_type` "none")."""
    views = _views(tiny)
    missing = _unavailable("rope-presence", ROTATION_CLAIMS, tiny, views)
    if missing:
        return missing
    wrong, details = [], {}
    for view in views:
        held, moved, threshold = _presence(tiny, view)
        declared = "RoPE" if _rotates(view) else "NoPE"
        details[f"layer {view.index} ({view.layer_type})"] = {"declared": declared, "movement": moved,
                                                              "threshold": threshold}
        if not held:
            wrong.append(f"layer {view.index} ({view.layer_type}) is declared {declared} but "
                         + ("applies no rotation to q and k" if _rotates(view) else
                            f"rotates q and k (they move by {moved:.3g} of their norm)"))
    layers = ", ".join(f"{v.index}:{'RoPE' if _rotates(v) else 'NoPE'}" for v in views)
    if wrong:
        return AttentionFinding("rope-presence", ROTATION_CLAIMS, "fail", "; ".join(wrong) + " — the layer's "
                                "rotation does not follow the model's NoPE rule", None, None, details)
    return AttentionFinding("rope-presence", ROTATION_CLAIMS, "ok",
                            f"each layer rotates q and k iff declared (layers {layers})", None, None, details)


def _spectrum(tiny: TinyModel, view: LayerView) -> tuple[float, str, str]:
    """(largest ratio over q and k, the pairing found, where the worst deviation is)."""
    start, pairs = _slice(tiny, view)
    best: tuple[float, str, str] = (float("inf"), "", "")
    for layout in LAYOUTS:
        worst, where = 0.0, ""
        for side, before, after in (("q", view.query_before, view.query), ("k", view.key_before, view.key)):
            dims = np.arange(start, start + 2 * pairs)
            ratio, (position, pair) = _layout_ratio(view, before, after, start, layout, _amplitude(before, after, dims))
            if ratio >= worst:
                worst = ratio
                where = (f"{side} at position {position}, " + (f"pair {pair}" if pair < pairs else
                                                               "a dim outside the rotary pairs"))
        if worst < best[0]:
            best = (worst, layout, where)
    return best


def _moving_dims(view: LayerView) -> str:
    """The dims whose value changes from before to after at some position ≥ 1 (in words)."""
    change = np.abs(view.query[:, 1:] - view.query_before[:, 1:]).max(axis=(0, 1))
    scale = np.abs(view.query_before).max()
    moving = np.flatnonzero(change > 1e-6 * scale)
    if moving.size == 0:
        return "none"
    return f"{moving.size} dims from {int(moving.min())} to {int(moving.max())}"


def check_per_layer_spectrum(tiny: TinyModel) -> AttentionFinding:
    """On each rotating layer, the rotation applied to q and k turns each declared pair by p·θᵢ (θ from the
    expected table) and leaves the other dims alone, within the float32-angle bound."""
    views = _views(tiny)
    missing = _unavailable("per-layer-spectrum", ROTATION_CLAIMS, tiny, views)
    if missing:
        return missing
    worst, where, details, explained = 0.0, "", {}, []
    for view in views:
        label = f"layer {view.index} ({view.layer_type})"
        if not _presence(tiny, view)[0]:
            explained.append(label)
            continue
        if not _rotates(view):
            details[label] = {"rope_type": NO_ROPE}
            continue
        ratio, layout, at = _spectrum(tiny, view)
        start, pairs = _slice(tiny, view)
        details[label] = {"rope_type": view.expected.layer.rope_type, "largest_ratio": ratio, "pairing": layout,
                          "rotary_dims": [start, start + 2 * pairs], "moving_dims": _moving_dims(view)}
        if ratio >= worst:
            worst, where = ratio, f"{label}: {at}" + ("" if ratio <= 1 else
                                                      f"; moving: {_moving_dims(view)}, declared: {2 * pairs} dims "
                                                      f"from {start}")
    note = f" ({', '.join(explained)}: explained by rope-presence)" if explained else ""
    if not details:
        return AttentionFinding("per-layer-spectrum", ROTATION_CLAIMS, "explained" if explained else "not applicable",
                                "no layer rotates as declared" + note, None, None, {})
    return numeric_finding("per-layer-spectrum", ROTATION_CLAIMS, worst, 1.0,
                           f"the rotation each layer applies to q and k vs its declared spectrum (worst: {where}; "
                           f"observed/bound ratio){note}",
                           "a layer rotates other dims, or by other angles, than its declared spectrum",
                           layers=details)


def _factors(tiny: TinyModel, view: LayerView) -> tuple[float, float, np.ndarray]:
    """(measured factor on q, on k, the dims it is measured on)."""
    if _rotates(view):
        start, pairs = _slice(tiny, view)
        dims = np.arange(start, start + 2 * pairs)
    else:
        dims = np.arange(view.query.shape[-1])
    return _amplitude(view.query_before, view.query, dims), _amplitude(view.key_before, view.key, dims), dims


def _declared_factor(view: LayerView) -> float:
    return float(view.expected.attention_factor) if _rotates(view) else 1.0


def check_attention_factor(tiny: TinyModel) -> AttentionFinding:
    """The norm factor the rotation gives q, and the one it gives k, each equal the declared attention factor
    (1 on NoPE layers)."""
    views = _views(tiny)
    claims = ROTATION_CLAIMS
    missing = _unavailable("attention-factor", claims, tiny, views)
    if missing:
        return missing
    worst, bound, where, details = 0.0, 1.0, "", {}
    for view in views:
        if not _presence(tiny, view)[0]:
            continue
        on_q, on_k, _ = _factors(tiny, view)
        declared = _declared_factor(view)
        limit = declared * (4 * unit_roundoff("float32") + gamma(8, "float64"))
        label = f"layer {view.index} ({view.layer_type})"
        details[label] = {"declared": declared, "q": on_q, "k": on_k}
        deviation = max(abs(on_q - declared), abs(on_k - declared))
        if deviation / limit >= worst / bound:
            worst, bound = deviation, limit
            where = f"{label}: q × {on_q:.9g}, k × {on_k:.9g}, declared × {declared:.9g} on both"
    if not details:
        return AttentionFinding("attention-factor", claims, "explained",
                                "no layer rotates as declared (explained by rope-presence)")
    return numeric_finding("attention-factor", claims, worst, bound, f"the factor on q and on k ({where})",
                           "q and k must carry the same declared factor (cos and sin of both are scaled)",
                           layers=details)


def _fit_scale(view: LayerView, scores: np.ndarray, window: int | None) -> tuple[float, np.ndarray, np.ndarray]:
    """Least-squares s in log wᵢᵢ − log wᵢ₀ = s·(Sᵢᵢ − Sᵢ₀) over rows i ≥ 1 (keys 0 and i are both visible)."""
    with np.errstate(divide="ignore"):  # masked (future) keys have weight 0
        logw = np.log(view.weights)
    rows = np.arange(1, scores.shape[-1])
    if window:
        rows = rows[rows < int(window)]
    dscore = scores[:, rows, rows] - scores[:, rows, 0]
    dlog = logw[:, rows, rows] - logw[:, rows, 0]
    return float((dlog * dscore).sum() / (dscore * dscore).sum()), dscore, rows


def _scores(tiny: TinyModel, view: LayerView, factor_q: float, factor_k: float) -> tuple[np.ndarray, np.ndarray,
                                                                                          np.ndarray]:
    """Scores [H, T, T] from the un-rotated q, k rotated here by the declared spectrum with the given factors;
    and the rotated q, k."""
    if _rotates(view):
        start, _ = _slice(tiny, view)
        _, layout, _ = _spectrum(tiny, view)
        query = _rotate(view.query_before, view, start, layout, factor_q)
        key = _rotate(view.key_before, view, start, layout, factor_k)
    else:
        query, key = factor_q * view.query_before, factor_k * view.key_before
    key = np.repeat(key, query.shape[0] // key.shape[0], axis=0)
    return query @ key.transpose(0, 2, 1), query, key


def check_softmax_scale(tiny: TinyModel) -> AttentionFinding:
    """The scale the softmax applies, recovered from the weights against scores of the un-rotated q, k under the
    declared rotation and factor, equals the declared softmax scale (relative error within the bound)."""
    views = _views(tiny)
    claims = ("ATT-CAUSAL-ROW",)
    missing = _unavailable("softmax-scale", claims, tiny, views)
    if missing:
        return missing
    worst, bound, where, explained_by_factor, skipped = 0.0, 0.0, "", [], []
    expected_scale = 0.0
    for view in views:
        label = f"layer {view.index} ({view.layer_type})"
        if not _presence(tiny, view)[0] or (_rotates(view) and _spectrum(tiny, view)[0] > 1):
            skipped.append(label)
            continue
        declared = _declared_factor(view)
        expected = float(view.expected.softmax_scale)
        scores, query, key = _scores(tiny, view, declared, declared)
        recovered, dscore, rows = _fit_scale(view, scores, tiny.window)
        relative = abs(recovered - expected) / expected
        # Error model: transformers' scores differ from these by the float32 rotation of each side (the pair
        # bound, relative to |q|, |k|) and a float64 dot product of length d; the weights' float32 softmax and the
        # logs add γ of the row length to |log w|; the least-squares slope carries Σ|Δscore|·err / ΣΔscore².
        with np.errstate(divide="ignore"):  # masked (future) keys have weight 0
            logw = np.log(view.weights)
        rotation = _pair_bound(view).max(axis=-1) if _rotates(view) else np.zeros(len(view.positions))
        norm_q, norm_k = np.linalg.norm(query, axis=-1), np.linalg.norm(key, axis=-1)
        length = scores.shape[-1]
        per_score = (2 * gamma(query.shape[-1], "float64") + rotation[rows][None, :]) * norm_q[:, rows] * \
            (norm_k[:, rows] + norm_k[:, :1]) + rotation[0] * norm_q[:, rows] * norm_k[:, :1]
        logs = np.abs(logw[:, rows, rows]) + np.abs(logw[:, rows, 0])
        error = 2 * gamma(length, "float64") * logs + expected * per_score + 2 * gamma(length, "float32")
        limit = float((np.abs(dscore) * error).sum() / (dscore * dscore).sum()) / expected
        if not relative <= limit:
            on_q, on_k, _ = _factors(tiny, view)
            measured, _, _ = _scores(tiny, view, on_q, on_k)
            again, _, _ = _fit_scale(view, measured, tiny.window)
            if abs(again - expected) / expected <= limit:
                explained_by_factor.append(f"{label} (q × {on_q:.6g}, k × {on_k:.6g})")
                continue
        if relative / limit >= (worst / bound if bound else 0.0):
            worst, bound, where, expected_scale = relative, limit, label, expected
    note = ""
    if skipped:
        note += f"; {', '.join(skipped)} not measured (their rotation fails rope-presence or per-layer-spectrum)"
    if explained_by_factor and worst <= bound:
        return AttentionFinding("softmax-scale", claims, "explained",
                                "the scale on the un-rotated q·k differs from the declared one exactly as the factors "
                                f"measured on q and k predict: {', '.join(explained_by_factor)} — explained by "
                                f"attention-factor{note}", None, None, {"explained": explained_by_factor})
    if not bound:
        return AttentionFinding("softmax-scale", claims, "explained" if skipped else "not applicable",
                                f"no layer measured{note}")
    return numeric_finding("softmax-scale", claims, worst, bound,
                           f"applied softmax scale on the un-rotated q·k vs the declared {expected_scale:.6g} "
                           f"× factor² (relative; worst: {where}){note}",
                           "the scale multiplying q·k is not the declared one (missing 1/√d, mscale² or the "
                           "attention factor inside the rotation)", expected=expected_scale)
