"""transformers probe (run by `_engines.py` in the project's environment, through a subprocess like every engine):
loads the saved tiny model with `from_pretrained` in float32 (eager attention for a model that caps its attention
logits, as the reference: SDPA drops the cap) and runs each window with explicit `position_ids` (transformers' API
takes positions, so long positions need only a short prompt).

Faults (`fault` in a job; only the broken-engine tests set one): `base` (every rotary module built with
`rope_theta` × 2: the base's exponent field off by one), `yarn_truncate` (YaRN's `truncate` read inverted),
`layer_unrotated` (layer 1 applies no rotation), `nope_rotated` (a layer built without RoPE rotates),
`window_ignored` (the model's module builds its sliding-window mask as the full causal one), `norm_eps_zero` (every
RMS norm with ε = 0).
"""

from __future__ import annotations

import runpy
import time
from pathlib import Path
from typing import Any

common = runpy.run_path(str(Path(__file__).with_name("_probe_common.py")))
_LEAN = runpy.run_path(str(Path(__file__).parents[1] / "_lean_import.py"))
_PATCHED: list[tuple[Any, str, Any]] = []  # (module, name, original) of a fault, restored after its job


def _inject_yarn_truncate() -> None:
    from transformers import modeling_rope_utils as rope_utils

    original = rope_utils.ROPE_INIT_FUNCTIONS["yarn"]

    def inverted(config: Any, *args: Any, **kwargs: Any) -> Any:
        params = config.rope_parameters
        saved = params.get("truncate", True)
        params["truncate"] = not saved
        try:
            return original(config, *args, **kwargs)
        finally:
            params["truncate"] = saved
    rope_utils.ROPE_INIT_FUNCTIONS["yarn"] = inverted


def _vision_kept(config: Any) -> bool:
    return getattr(config, "vision_config", None) is not None


def _load(model_dir: str, fault: str | None) -> Any:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForImageTextToText

    if fault == "yarn_truncate":
        _inject_yarn_truncate()
    config = AutoConfig.from_pretrained(model_dir)
    if fault == "base":
        params = config.get_text_config().rope_parameters
        for holder in [params, *[v for v in params.values() if isinstance(v, dict)]]:
            if "rope_theta" in holder:
                holder["rope_theta"] = 2 * holder["rope_theta"]
    # The builder keeps the vision tower only for M-RoPE VLMs (attention/_configs.py, `KEEP_VISION`), whose text
    # model no causal-LM class holds: a saved `vision_config` says which.
    builder = AutoModelForImageTextToText if _vision_kept(config) else AutoModelForCausalLM
    # A model that caps its attention logits (Gemma 2's `attn_logit_softcapping`) runs eager attention, as the
    # reference does: transformers' SDPA path takes the cap as a keyword and drops it (5.3.0).
    capped = getattr(config.get_text_config(), "attn_logit_softcapping", None)
    settings = {"attn_implementation": "eager"} if capped else {}
    model = builder.from_pretrained(model_dir, config=config, dtype=torch.float32, **settings).eval()
    inner = getattr(model, "model", None)
    inner = getattr(inner, "language_model", inner)
    if fault == "layer_unrotated":
        attention = inner.layers[1].self_attn
        attention.register_forward_pre_hook(_identity_rotation, with_kwargs=True)
    if fault == "window_ignored":
        import sys

        source = sys.modules[type(inner).__module__]
        if not hasattr(source, "create_sliding_window_causal_mask"):
            raise RuntimeError("fault window_ignored: the model builds no sliding-window mask")
        _PATCHED.append((source, "create_sliding_window_causal_mask", source.create_sliding_window_causal_mask))
        source.create_sliding_window_causal_mask = source.create_causal_mask
    if fault == "norm_eps_zero":  # llama.cpp's Qwen2-VL: the config's RMS-norm ε never read
        for module in model.modules():
            if "norm" in type(module).__name__.lower() and isinstance(getattr(module, "variance_epsilon", None), float):
                module.variance_epsilon = 0.0
    if fault == "nope_rotated":
        flagged = [layer.self_attn for layer in inner.layers if getattr(layer.self_attn, "use_rope", True) is False]
        if not flagged:
            raise RuntimeError("fault nope_rotated: the model has no layer without RoPE")
        flagged[0].use_rope = True
    return model


def _identity_rotation(module: Any, args: Any, kwargs: Any) -> Any:
    import torch

    cos, sin = kwargs["position_embeddings"]
    return args, {**kwargs, "position_embeddings": (torch.ones_like(cos), torch.zeros_like(sin))}


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    from transformers import modeling_rope_utils as rope_utils

    saved = dict(rope_utils.ROPE_INIT_FUNCTIONS)
    try:
        return _run(job)
    finally:  # a fault never leaks into the next job
        rope_utils.ROPE_INIT_FUNCTIONS.clear()
        rope_utils.ROPE_INIT_FUNCTIONS.update(saved)
        while _PATCHED:
            module, name, original = _PATCHED.pop()
            setattr(module, name, original)


def _run(job: dict[str, Any]) -> dict[str, Any]:
    import torch

    began = time.perf_counter()
    with _LEAN["collection_paused"]():  # the first job of each model class imports its modeling module
        model = _load(job["model_dir"], job.get("fault"))
    loaded = time.perf_counter() - began
    windows = []
    for window in job["windows"]:
        tokens = window["tokens"]
        positions = torch.arange(window["start"], window["start"] + len(tokens))[None]
        if _vision_kept(model.config):
            positions = positions.expand(3, 1, len(tokens))
        with torch.no_grad():
            logits = model(input_ids=torch.tensor([tokens]), position_ids=positions, use_cache=False).logits[0]
        windows.append({"logprobs": [common["log_softmax"]([float(v) for v in row]) for row in logits]})
    return {"load_s": loaded, "run_s": time.perf_counter() - began - loaded, "windows": windows,
            "notes": [f"float32, explicit position_ids, attention {model.config._attn_implementation}"]}


def main() -> None:
    # The probe's process is ropecheck's own: transformers is imported as `audit-config` imports it
    # (`_lean_import.py`, copied in by `runpy` like `_probe_common.py`: scipy and torchao, which no unquantised tiny
    # model reaches, look absent to transformers; the garbage collector paused for the imports and each model's
    # load). The answers are bit-for-bit those of a plain import: the test module's eight jobs took 4.65 CPU-s
    # instead of 5.8.
    _LEAN["own_this_process"]()
    with _LEAN["lean_transformers"]():
        import torch
        import transformers
        from transformers import AutoConfig, AutoModelForCausalLM  # noqa: F401  # the modeling stack, lean too

    torch.set_num_threads(1)
    transformers.logging.set_verbosity_error()
    common["serve"]("transformers", transformers.__version__, run_job)


if __name__ == "__main__":
    main()
