"""M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, GLM-4V): three position streams (t, h, w) share the pairs.

- **mrope-text-reduction**: with equal streams P = (p, p, p) the rotation a layer applies equals 1-D RoPE at p
  with the declared base (computed independently here), for every pair.
- **mrope-section-map**: moving one stream at a time (P = p·e_a) and reading each pair's angle from the rotated
  query of the first layer recovers which stream drives each pair; it must be the declared layout (chunked
  sections for Qwen2/2.5-VL and GLM-4V, interleaved for Qwen3-VL).
- **mrope-stream-relative**: shifting one stream (or all three) by Δ for every token leaves the logits unchanged
  within the rounded-angle bound (each stream's relative property).

The first layer's input does not depend on positions, so its rotated query at P is R(P)·q with q the query at
P = 0: the angle of each pair is read from the two, grey-box, through the model's own attention path.

Claims served: ROPE-QK-RELATIVE (per stream), ROPE-PAIR-FORMULA and ROPE-FREQUENCIES (per pair).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.reference.tolerances import (
    angle_error_bound,
    rounded_angle_entry_error,
    rounded_angle_logits_bound,
    trigonometric_error,
)

from ._common import LENGTH, largest_difference, reorder_bound, tokens
from ._model import TinyModel
from ._offset import ROWS, attention_factor
from ._report import AttentionFinding, numeric_finding
from ._sensitivity import logit_sensitivity

__all__ = ["check_mrope_section_map", "check_mrope_stream_relative", "check_mrope_text_reduction",
           "declared_streams", "mrope_sections"]

STREAMS = ("t", "h", "w")


def mrope_sections(tiny: TinyModel) -> list[int] | None:
    """The declared `mrope_section`, or None for a 1-D model."""
    rope = next(iter(tiny.rope.values()), {})
    section = rope.get("mrope_section")
    return [int(s) for s in section] if section else None


def declared_streams(sections: list[int], pairs: int, interleaved: bool) -> np.ndarray:
    """The stream (0 t, 1 h, 2 w) of each pair j: chunked sections in order, or Qwen3-VL's interleaving
    (h at j ≡ 1, w at j ≡ 2 (mod 3) below 3·sections[1] and 3·sections[2], t elsewhere)."""
    if not interleaved:
        return np.repeat(np.arange(3), sections)[:pairs]
    out = np.zeros(pairs, dtype=int)
    for stream in (1, 2):
        lanes = np.arange(stream, 3 * sections[stream], 3)
        out[lanes[lanes < pairs]] = stream
    return out


def _interleaved(tiny: TinyModel) -> bool:
    rope = next(iter(tiny.rope.values()))
    return bool(rope.get("mrope_interleaved")) or str(tiny.config.model_type).startswith("qwen3_vl")


def _declared_theta(tiny: TinyModel) -> np.ndarray:
    """θⱼ of the (first) layer from `audit-config`'s expected table."""
    if not tiny.expected:
        raise ValueError(f"no expected spectrum: {tiny.expected_error}")
    return np.asarray(tiny.expected[0].inv_freq, dtype=np.float64)


def _not_mrope(name: str, claims: tuple[str, ...]) -> AttentionFinding:
    return AttentionFinding(name, claims, "not applicable", "1-D RoPE (no mrope_section)")


def _first_layer_query(tiny: TinyModel, positions: Any, ids: Any) -> np.ndarray:
    with tiny.record_attention() as records:
        tiny.step(ids, position_ids=positions)
    return np.asarray(records[0]["query"][0].detach(), dtype=np.float64)  # [heads, T, d]


def _pair_angles(tiny: TinyModel, positions: Any, ids: Any) -> np.ndarray:
    """The angle each half-split pair is turned by, per token: [heads, T, d/2]."""
    import torch

    moved = _first_layer_query(tiny, positions, ids)
    still = _first_layer_query(tiny, torch.zeros_like(positions), ids)
    half = len(_declared_theta(tiny))
    a1, a2 = still[..., :half], still[..., half:2 * half]
    b1, b2 = moved[..., :half], moved[..., half:2 * half]
    return np.arctan2(a1 * b2 - a2 * b1, a1 * b1 + a2 * b2)


def _wrapped(angle: np.ndarray) -> np.ndarray:
    return (angle + np.pi) % (2 * np.pi) - np.pi


def check_mrope_text_reduction(tiny: TinyModel) -> AttentionFinding:
    """Equal streams (p, p, p): each pair turns by p·θⱼ of the declared 1-D spectrum."""
    import torch

    claims = ("ROPE-PAIR-FORMULA", "ROPE-FREQUENCIES")
    if mrope_sections(tiny) is None:
        return _not_mrope("mrope-text-reduction", claims)
    ids = tokens(1, LENGTH, seed=10)
    p = torch.arange(LENGTH) * 37
    angles = _pair_angles(tiny, p.view(1, 1, -1).expand(3, 1, -1), ids)
    theta = _declared_theta(tiny)
    exact = _wrapped(p.numpy()[:, None].astype(np.float64) * theta[None, :])
    bound = 2 * trigonometric_error("float32", angle_error_bound(p.numpy()[:, None], theta[None, :], "float32",
                                                                 theta_error_units=4 + np.log(1e7)))
    ratio = np.abs(_wrapped(angles - exact[None])) / bound
    worst = float(ratio.max())
    return numeric_finding("mrope-text-reduction", claims, worst, 1.0,
                           "equal t/h/w positions vs 1-D RoPE at p (observed/bound ratio over every pair)",
                           "with equal streams the layer is not 1-D RoPE (base, pairing or a stream's frequencies)")


def check_mrope_section_map(tiny: TinyModel) -> AttentionFinding:
    """Move one stream at a time: the stream that turns each pair is the declared one."""
    import torch

    claims = ("ROPE-PAIR-FORMULA",)
    sections = mrope_sections(tiny)
    if sections is None:
        return _not_mrope("mrope-section-map", claims)
    theta = _declared_theta(tiny)
    half = len(theta)
    ids = tokens(1, 4, seed=11)
    bound = 2 * trigonometric_error("float32", angle_error_bound(1, theta, "float32",
                                                                 theta_error_units=4 + np.log(1e7)))
    turned = np.zeros((3, half), dtype=bool)
    for stream in range(3):
        positions = torch.zeros(3, 1, 4, dtype=torch.long)
        positions[stream, 0, :] = 1
        angle = _pair_angles(tiny, positions, ids)[:, 0, :]  # token 0, every head
        matches = np.abs(angle - theta[None]) <= bound
        still = np.abs(angle) <= bound
        if not np.all(matches | still):
            return AttentionFinding("mrope-section-map", claims, "fail",
                                    f"moving stream {STREAMS[stream]} turns some pair by an angle that is neither 0 "
                                    "nor its θⱼ — the pairing or the spectrum of that stream is wrong")
        turned[stream] = matches.all(axis=0)
    recovered = np.where(turned.sum(axis=0) == 1, turned.argmax(axis=0), -1)
    expected = declared_streams(sections, half, _interleaved(tiny))
    wrong = np.flatnonzero(recovered != expected)
    layout = "interleaved" if _interleaved(tiny) else "chunked"
    if wrong.size == 0:
        return AttentionFinding("mrope-section-map", claims, "ok",
                                f"every pair is driven by its declared stream ({layout} {sections})",
                                details={"recovered": recovered.tolist()})
    first = int(wrong[0])
    got = STREAMS[recovered[first]] if recovered[first] >= 0 else "no single stream"
    return AttentionFinding("mrope-section-map", claims, "fail",
                            f"{wrong.size} pairs driven by the wrong stream (first: pair {first} by {got}, declared "
                            f"{STREAMS[expected[first]]}; {layout} {sections}) — the section map is not the declared "
                            "one",
                            details={"recovered": recovered.tolist(), "declared": expected.tolist()})


def check_mrope_stream_relative(tiny: TinyModel) -> AttentionFinding:
    """Shift each stream (and all three) by Δ for every token: the last rows' logits are unchanged."""
    import torch

    claims = ("ROPE-QK-RELATIVE",)
    if mrope_sections(tiny) is None:
        return _not_mrope("mrope-stream-relative", claims)
    ids = tokens(1, LENGTH, seed=12)
    generator = torch.Generator().manual_seed(13)
    positions = torch.randint(0, 40, (3, 1, LENGTH), generator=generator)
    base, _ = tiny.step(ids, position_ids=positions)
    sensitivity = logit_sensitivity(tiny, ids, positions, rows=ROWS)
    entry = rounded_angle_entry_error(float(positions.max()) + 100, "float32", attention_factor(tiny))
    worst, bound, where = 0.0, 1.0, None
    for stream, name in ((0, "t"), (1, "h"), (2, "w"), (None, "all")):
        shifted = positions.clone()
        if stream is None:
            shifted += 100
        else:
            shifted[stream] += 100
        moved, _ = tiny.step(ids, position_ids=shifted)
        observed = largest_difference(base[:, -ROWS:], moved[:, -ROWS:])
        sens = max(sensitivity, logit_sensitivity(tiny, ids, shifted, rows=ROWS))
        limit = rounded_angle_logits_bound(sens, entry, reorder_bound(tiny, LENGTH, base, moved))
        if not observed <= limit or observed / limit >= worst / bound:
            worst, bound, where = observed, limit, name
            if not observed <= limit:
                break
    return numeric_finding("mrope-stream-relative", claims, worst, bound,
                           f"one stream shifted by 100 for every token (worst: {where})",
                           "a stream's rotation is not relative (absolute positions leak into the scores)")
