"""What each layer receives and applies: its rotation spectrum, its softmax scale, its sliding window.

- **per-layer-spectrum**: the cos/sin each attention layer receives at position 1 give its angles θᵢ and its
  attention factor; they must equal the spectrum its layer type declares (`_spectrum`, computed independently):
  Gemma 3's sliding layers at 1e4 unscaled and its global layers at 1e6 with linear 8, YaRN, llama3, LongRoPE.
- **softmax-scale**: the scale actually applied, recovered from the returned attention weights and the rotated
  q, k (log wᵢⱼ − log wᵢₖ = s·(qᵢ·kⱼ − qᵢ·kₖ)), equals 1/√d_qk (Gemma: `query_pre_attn_scalar`; DeepSeek: times
  g(s, mscale_all_dim)²).
- **sliding-window**: a sliding layer gives exactly zero weight to keys at distance ≥ window and positive weight
  to every key inside it.

Claims served: ROPE-FREQUENCIES, ROPE-PAIR-FORMULA (spectrum), ATT-CAUSAL-ROW (scale and window).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.reference.tolerances import angle_error_bound, gamma, trigonometric_error, unit_roundoff

from ._common import LENGTH, tokens
from ._model import TinyModel
from ._report import AttentionFinding, numeric_finding
from ._spectrum import expected_softmax_scale, expected_spectrum, rotary_dim

__all__ = ["check_per_layer_spectrum", "check_sliding_window", "check_softmax_scale"]


def _record(tiny: TinyModel, length: int = LENGTH) -> list[dict[str, Any]]:
    import torch

    ids = tokens(1, length, seed=9)
    with tiny.record_attention() as records:
        tiny.step(ids, position_ids=torch.arange(length)[None])
    return records


def check_per_layer_spectrum(tiny: TinyModel) -> AttentionFinding:
    """Each layer's angles at position 1 and its cos/sin amplitude against its declared type's spectrum."""
    if not tiny.rope:
        return AttentionFinding("per-layer-spectrum", ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA"), "not applicable",
                                "no rotary embedding")
    dim = rotary_dim(tiny.config)
    types = tiny.layer_types()
    worst, bound, where, details = 0.0, 1.0, None, {}
    for record in _record(tiny):
        layer = record["layer"]
        cos, sin = (np.asarray(t.detach(), dtype=np.float64) for t in record["position_embeddings"])
        cos, sin = cos.reshape(-1, *cos.shape[-2:])[0], sin.reshape(-1, *sin.shape[-2:])[0]  # stream 0, row 0
        half = dim // 2
        angle = np.arctan2(sin[1, :half], cos[1, :half])
        amplitude = np.hypot(sin[1, :half], cos[1, :half])
        rope = tiny.rope.get(types[layer], next(iter(tiny.rope.values())))
        theta, factor = expected_spectrum(rope, dim, int(tiny.config.max_position_embeddings))
        # θ built in float32 from base**(2i/d): pow's relative error grows with |exponent·ln base|.
        units = 4.0 + np.log(float(rope.get("rope_theta", 1e4)))
        angle_bound = angle_error_bound(1, theta, "float32", theta_error_units=units) + \
            trigonometric_error("float32")
        amplitude_bound = factor * 4 * unit_roundoff("float32")
        errors = np.concatenate([np.abs(angle - theta) / angle_bound, [abs(amplitude.max() - factor) /
                                                                       amplitude_bound]])
        ratio = float(np.max(errors)) if np.all(np.isfinite(errors)) else float("inf")
        details[f"layer {layer} ({types[layer]})"] = {"rope_type": rope.get("rope_type"), "largest_ratio": ratio}
        if ratio >= worst:
            worst, where = ratio, f"layer {layer} ({types[layer]})"
    return numeric_finding("per-layer-spectrum", ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA"), worst, bound,
                           f"each layer's angles and cos/sin factor vs its declared spectrum (worst: {where}; "
                           "observed/bound ratio)", "a layer receives another layer type's base or scale",
                           layers=details)


def check_softmax_scale(tiny: TinyModel) -> AttentionFinding:
    """The softmax scale recovered from the weights equals the declared one, relative error within the bound."""
    import torch

    if not tiny.rope:
        return AttentionFinding("softmax-scale", ("ATT-CAUSAL-ROW",), "not applicable",
                                "no rotary embedding (the scale is read where q and k are rotated)")
    expected = expected_softmax_scale(tiny.config)
    worst, bound = 0.0, 0.0
    for record in _record(tiny):
        query, key, weights = record["query"], record["key"], record["weights"]
        groups = query.shape[1] // key.shape[1]
        key = key.repeat_interleave(groups, dim=1)
        scores = torch.matmul(query, key.transpose(-1, -2))[0]  # [heads, T, T]
        logw = torch.log(weights[0])
        # Row i, keys 0 and i (both visible in every row i ≥ 1 of a causal mask and a window ≥ 2).
        rows = torch.arange(1, scores.shape[-1])
        dscore = scores[:, rows, rows] - scores[:, rows, 0]
        dlog = logw[:, rows, rows] - logw[:, rows, 0]
        if tiny.window:
            visible = rows < int(tiny.window)
            dscore, dlog = dscore[:, visible], dlog[:, visible]
        recovered = float((dlog * dscore).sum() / (dscore * dscore).sum())
        relative = abs(recovered - expected) / expected
        # Error model: HF's scores and mine are dot products of length d (γ_d·|q||k| each), the softmax and the
        # logs add γ of the row length to |log w|; the least-squares slope carries Σ|Δscore|·err / ΣΔscore².
        norms = query[0].norm(dim=-1)[:, rows] * (key[0].norm(dim=-1)[:, rows] + key[0].norm(dim=-1)[:, :1])
        logs = logw[:, rows, rows].abs() + logw[:, rows, 0].abs()
        if tiny.window:
            norms, logs = norms[:, visible], logs[:, visible]
        n = int(query.shape[-1]) + int(scores.shape[-1])
        # eager attention's softmax runs in float32: each weight carries γ_T(float32) relative error.
        error = 2 * gamma(n, "float64") * (logs + expected * norms) + 2 * gamma(int(scores.shape[-1]), "float32")
        limit = float((dscore.abs() * error).sum() / (dscore * dscore).sum()) / expected
        if relative / limit >= (worst / bound if bound else 0.0):
            worst, bound = relative, limit
    return numeric_finding("softmax-scale", ("ATT-CAUSAL-ROW",), worst, bound,
                           f"applied softmax scale vs the declared {expected:.6g} (relative)",
                           "the scale multiplying q·k is not the declared one (missing 1/√d or mscale²)",
                           expected=expected)


def check_sliding_window(tiny: TinyModel) -> AttentionFinding:
    """Sliding layers: zero weight at distance ≥ window, positive weight inside."""
    window = tiny.window
    types = tiny.layer_types()
    if not window or "sliding_attention" not in types:
        return AttentionFinding("sliding-window", ("ATT-CAUSAL-ROW",), "not applicable", "no sliding layers")
    length = max(LENGTH, 2 * int(window) + 2)
    leaked, missing = 0.0, 0
    for record in _record(tiny, length):
        if types[record["layer"]] != "sliding_attention":
            continue
        weights = np.asarray(record["weights"][0].detach(), dtype=np.float64)
        query, key = np.meshgrid(np.arange(length), np.arange(length), indexing="ij")
        distance = query - key
        outside = (distance >= window) | (distance < 0)
        leaked = max(leaked, float(weights[:, outside].max()))
        missing += int((weights[:, ~outside] <= 0).sum())
    held = leaked == 0 and missing == 0
    message = (f"window {window}: exactly zero weight beyond, positive weight inside" if held else
               f"window {window}: largest weight beyond the window {leaked:.3g}, {missing} keys inside with zero "
               "weight — the mask does not implement the declared window")
    return AttentionFinding("sliding-window", ("ATT-CAUSAL-ROW",), "ok" if held else "fail", message, leaked, 0.0,
                            {"window": int(window), "zero_inside": missing})
