"""MLX-LM probe (run in `.venv-engines/mlx`): loads the saved tiny model with `mlx_lm.utils.load_model` (float32
safetensors, MLX-LM's own model classes) and runs each window. MLX-LM takes positions through the `offset` its
attention layers pass to their rope module (the KV cache's length); the probe moves that offset to the window's
first position, so the engine's own rope code runs at the window's positions with a short prompt.

Faults (only the broken-engine tests set one), injected in this process around MLX's `mx.fast.rope` kernel:
`base` (the base doubled: θᵢ × 2^(−2i/d)), `layer_unrotated` (layer 1 applies no rotation).
"""

from __future__ import annotations

import runpy
import time
from pathlib import Path
from typing import Any

common = runpy.run_path(str(Path(__file__).with_name("_probe_common.py")))
# audit-config's MLX probe knows where MLX-LM keeps the decoder layers and their attention (standalone like this one).
config_probe = runpy.run_path(str(Path(__file__).parents[1] / "model_config" / "engines" / "_mlx_probe.py"))
_layers, _attention = config_probe["_layers"], config_probe["_attention"]


class _Shifted:
    """A rope module called at offset + start (positions of the window)."""

    def __init__(self, rope: Any, start: int, identity: bool = False) -> None:
        self.rope, self.start, self.identity = rope, start, identity

    def __call__(self, x: Any, offset: int = 0) -> Any:
        if self.identity:
            return x
        return self.rope(x, offset=offset + self.start)


def _double_base() -> Any:
    """Patch the kernel; returns the original (restored after the job, so a fault never leaks into the next)."""
    import mlx.core as mx

    kernel = mx.fast.rope

    def doubled(x: Any, dims: int, *, traditional: bool, base: Any, scale: float, offset: Any,
                freqs: Any = None, **rest: Any) -> Any:
        if freqs is not None:
            freqs = freqs * mx.power(2.0, mx.arange(0, dims, 2, dtype=mx.float32) / dims)
        elif base is not None:
            base = 2 * base
        return kernel(x, dims, traditional=traditional, base=base, scale=scale, offset=offset, freqs=freqs, **rest)
    mx.fast.rope = doubled
    return kernel


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    import mlx.core as mx

    kernel = mx.fast.rope
    try:
        return _run(job)
    finally:
        mx.fast.rope = kernel


def _run(job: dict[str, Any]) -> dict[str, Any]:
    import mlx.core as mx
    from mlx_lm.utils import load_model

    began = time.perf_counter()
    if job.get("fault") == "base":
        _double_base()
    directory = Path(job["model_dir"])
    # The writer's copy in MLX-LM's own layout, for a model type whose transformers layout MLX-LM cannot read.
    own_layout = (directory / "mlx-lm").is_dir()
    model, _ = load_model(directory / "mlx-lm" if own_layout else directory)
    loaded = time.perf_counter() - began
    attentions = [_attention(layer) for layer in _layers(model)]
    ropes = []
    for attention in attentions:
        name = "rope" if "rope" in attention else "rotary_emb"  # MLX modules are dicts
        ropes.append((attention, name, attention[name] if name in attention else None))
    windows = []
    for window in job["windows"]:
        for index, (attention, name, rope) in enumerate(ropes):
            if rope is not None:
                identity = job.get("fault") == "layer_unrotated" and index == 1
                setattr(attention, name, _Shifted(rope, window["start"], identity))
        try:
            logits = model(mx.array([window["tokens"]]))
            mx.eval(logits)
        finally:
            for attention, name, rope in ropes:
                if rope is not None:
                    setattr(attention, name, rope)
        rows = logits[0].astype(mx.float32).tolist()
        windows.append({"logprobs": [common["log_softmax"](row) for row in rows]})
    return {"load_s": loaded, "run_s": time.perf_counter() - began - loaded, "windows": windows,
            "notes": ["float32 (mlx cpu); positions through the rope offset"
                      + ("; the same weights in MLX-LM's own layout (mlx-lm/)" if own_layout else "")]}


def main() -> None:
    import importlib.metadata as metadata

    common["serve"]("mlx-lm", metadata.version("mlx-lm"), run_job)


if __name__ == "__main__":
    main()
