"""M-RoPE 3-D position ids: the installed transformers' `get_rope_index` against tables computed here.

The reference (Qwen2-VL paper; transformers before the v5 refactor; vLLM's `get_input_positions`): text tokens
carry equal streams n, n, n; a vision block starting at `st` (the previous maximum + 1) has, for a merged grid
(T, H/m, W/m) in raster order, t = st + ⌊k·interval⌋, h = st + row, w = st + col; the next text starts at the
**maximum of all three streams + 1**; a decode step continues at max + 1 (`rope_delta = max + 1 − length`).
The interval is 1 for Qwen2-VL, `tokens_per_second · second_per_grid_t` for a Qwen2.5-VL video (multiplied
before rounding down) and 0 for a still image; Qwen3-VL and GLM-4V split a video into one-frame grids
separated by timestamp text, so each frame is a T = 1 block.

Claims served: ROPE-QK-RELATIVE (positions are what the relative property is about), ROPE-KV-CACHE-REUSE (the
decode delta continues the prefill).
"""

from __future__ import annotations

import math
import types
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._report import AttentionFinding

__all__ = ["CASES", "GENERATORS", "Segment", "audit_position_ids", "check_position_ids", "reference_positions",
           "split_video_frames"]

CLAIMS = ("ROPE-QK-RELATIVE", "ROPE-KV-CACHE-REUSE")

# model type → (the transformers model class that owns `get_rope_index`, whether a video is split into frames)
GENERATORS = {
    "qwen2_vl": ("Qwen2VLModel", False),
    "qwen2_5_vl": ("Qwen2_5_VLModel", False),
    "qwen3_vl": ("Qwen3VLModel", True),
    "glm4v": ("Glm4vModel", True),
}


@dataclass(frozen=True)
class Segment:
    """One piece of a prompt: `kind` "text" (`length` tokens), "image" or "video" (`grid` = (T, H, W) patches,
    `seconds` per temporal grid for a video)."""

    kind: str
    length: int = 0
    grid: tuple[int, int, int] = (1, 1, 1)
    seconds: float = 1.0


def reference_positions(segments: list[Segment], merge: int, interval_per_second: float | None,
                        split_frames: bool) -> np.ndarray:
    """The reference table [3, L] for a prompt.

    **Arguments:**

    - `segments`: the prompt.
    - `merge`: `spatial_merge_size`.
    - `interval_per_second`: Qwen2.5-VL's `tokens_per_second` (None: the temporal step is 1 per grid).
    - `split_frames`: a video is one T = 1 block per frame (Qwen3-VL, GLM-4V).

    **Returns:**

    int64 array of shape (3, number of tokens).
    """
    columns: list[np.ndarray] = []
    start = 0
    for segment in segments:
        if segment.kind == "text":
            block = np.tile(np.arange(start, start + segment.length), (3, 1))
            columns.append(block)
            start += segment.length
            continue
        frames, height, width = segment.grid[0], segment.grid[1] // merge, segment.grid[2] // merge
        blocks = [1] * frames if segment.kind == "video" and split_frames else [frames]
        for count in blocks:
            if segment.kind == "image" or count == 1:
                steps = np.zeros(count)
            elif interval_per_second is None:
                steps = np.arange(count, dtype=np.float64)
            else:
                steps = np.arange(count) * interval_per_second * segment.seconds
            t = np.repeat(start + np.floor(steps).astype(np.int64), height * width)
            h = np.tile(np.repeat(np.arange(height), width), count) + start
            w = np.tile(np.arange(width), height * count) + start
            block = np.stack([t, h, w])
            columns.append(block)
            start = int(block.max()) + 1
    return np.concatenate(columns, axis=1)


def split_video_frames(segments: list[Segment], separator: int = 2) -> list[Segment]:
    """Qwen3-VL and GLM-4V prompts: a video becomes one T = 1 grid per frame, with `separator` timestamp text
    tokens between frames (what their processors emit)."""
    out: list[Segment] = []
    for segment in segments:
        if segment.kind != "video":
            out.append(segment)
            continue
        for frame in range(segment.grid[0]):
            if frame:
                out.append(Segment("text", separator))
            out.append(Segment("video", grid=(1, *segment.grid[1:]), seconds=segment.seconds))
    return out


def _token_types(segments: list[Segment], merge: int) -> list[int]:
    out: list[int] = []
    for segment in segments:
        if segment.kind == "text":
            out += [0] * segment.length
        else:
            out += [1 if segment.kind == "image" else 2] * (math.prod(segment.grid) // merge ** 2)
    return out


def _generator(model_type: str, config: Any = None) -> tuple[Any, Any, bool]:
    import transformers
    from transformers import AutoConfig

    class_name, split = GENERATORS[model_type]
    owner = getattr(transformers, class_name)
    config = config if config is not None else AutoConfig.for_model(model_type)
    holder = types.SimpleNamespace(config=config)  # get_rope_index reads only the config (no weights built)
    holder.get_vision_position_ids = types.MethodType(owner.get_vision_position_ids, holder)
    return types.MethodType(owner.get_rope_index, holder), config, split


def _grids(segments: list[Segment], kind: str) -> Any:
    import torch

    grids = []
    for segment in segments:
        if segment.kind == kind:
            grids.append(segment.grid)
    return torch.tensor(grids) if grids else None


def check_position_ids(model_type: str, name: str, segments: list[Segment], pads: int = 0,
                       generator: Any = None, config: Any = None) -> AttentionFinding:
    """Compare `get_rope_index` with the reference table for one prompt (and its decode delta).

    **Arguments:**

    - `model_type`: a key of `GENERATORS`.
    - `name`: the case's name in the report.
    - `segments`: the prompt.
    - `pads`: left pads (mask 0) before the prompt.
    - `generator`: a replacement for the installed `get_rope_index` (tests pass broken ones).
    - `config`: the model's transformers config (merge size, `tokens_per_second`); the class default when None.

    **Returns:**

    One finding: `ok` when every real token's three streams and the decode delta match.
    """
    import torch

    installed, config, split = _generator(model_type, config)
    generator = generator or installed
    if split:
        segments = split_video_frames(segments)
    vision = config.vision_config
    merge = int(vision.spatial_merge_size)
    per_second = getattr(vision, "tokens_per_second", None) if model_type == "qwen2_5_vl" else None
    expected = reference_positions(segments, merge, per_second, split)
    kinds = _token_types(segments, merge)
    mask = torch.tensor([[0] * pads + [1] * len(kinds)])
    ids = torch.full(mask.shape, 7)
    token_types = torch.tensor([[0] * pads + kinds])
    kwargs: dict[str, Any] = {"image_grid_thw": _grids(segments, "image"),
                              "video_grid_thw": _grids(segments, "video"), "attention_mask": mask}
    seconds = [s.seconds for s in segments if s.kind == "video"]
    if model_type == "qwen2_5_vl" and seconds:
        kwargs["second_per_grid_ts"] = torch.tensor(seconds)
    try:
        positions, delta = generator(ids, token_types, **kwargs)
    except Exception as error:  # a generator that raises "could not be called": not a property failure
        return AttentionFinding(f"mrope-position-ids:{name}", CLAIMS, "info",
                                f"{model_type} get_rope_index could not be called: {type(error).__name__}: {error}")
    got = np.asarray(positions[:, 0, pads:])
    expected_delta = int(expected.max()) + 1 - expected.shape[1]
    wrong = np.argwhere(got != expected)
    details = {"got": got.tolist(), "expected": expected.tolist(), "delta": int(delta.reshape(-1)[0]),
               "expected_delta": expected_delta}
    if wrong.size == 0 and details["delta"] == expected_delta:
        return AttentionFinding(f"mrope-position-ids:{name}", CLAIMS, "ok",
                                f"{model_type}: every stream of every token and the decode delta match the reference",
                                details=details)
    resumed = _text_after_vision(segments, merge, got, expected)
    if resumed:
        details["text_after_vision"] = resumed
    if wrong.size:
        stream, token = (int(v) for v in wrong[0])
        first = (f"first at token {token}, stream {'thw'[stream]}: {int(got[stream, token])} where the reference "
                 f"has {int(expected[stream, token])}")
    else:
        first = f"decode delta {details['delta']} where the reference has {expected_delta}"
    if resumed and resumed["got"] != resumed["expected"]:
        first += (f"; text after the vision block resumes at {resumed['got']} instead of max of all streams + 1 = "
                  f"{resumed['expected']}")
    return AttentionFinding(f"mrope-position-ids:{name}", CLAIMS, "fail",
                            f"{model_type}: {len({int(t) for _, t in wrong})} tokens differ ({first})",
                            details=details)


def _text_after_vision(segments: list[Segment], merge: int, got: np.ndarray, expected: np.ndarray
                       ) -> dict[str, int] | None:
    """The temporal position of the first text token after the last vision block, got and expected."""
    index, last = 0, None
    for position, segment in enumerate(segments):
        size = segment.length if segment.kind == "text" else math.prod(segment.grid) // merge ** 2
        if segment.kind != "text" and position + 1 < len(segments) and segments[position + 1].kind == "text":
            last = index + size
        index += size
    if last is None or last >= got.shape[1]:
        return None
    return {"token": last, "got": int(got[0, last]), "expected": int(expected[0, last])}


#: The prompts every generator is checked on (T·interval > H/m in the videos, so text-after-video shows).
CASES: dict[str, tuple[list[Segment], int]] = {
    "image": ([Segment("text", 3), Segment("image", grid=(1, 4, 6)), Segment("text", 2)], 0),
    "two-images": ([Segment("text", 2), Segment("image", grid=(1, 4, 4)), Segment("text", 1),
                    Segment("image", grid=(1, 2, 4)), Segment("text", 2)], 0),
    "video-1s": ([Segment("text", 3), Segment("video", grid=(4, 4, 4), seconds=1.0), Segment("text", 2)], 0),
    "video-0.5s": ([Segment("text", 3), Segment("video", grid=(4, 4, 4), seconds=0.5), Segment("text", 2)], 0),
    "image-left-padded": ([Segment("text", 3), Segment("image", grid=(1, 4, 6)), Segment("text", 2)], 3),
}


def audit_position_ids(model_type: str, config: Any = None) -> list[AttentionFinding]:
    """Every case of `CASES` for one generator (a key of `GENERATORS`), with the model's config when given."""
    return [check_position_ids(model_type, name, segments, pads, config=config)
            for name, (segments, pads) in CASES.items()]
