"""vLLM (CPU build) probe, run by `vllm.py` in vLLM's own environment: the config loaded with the transformers
vLLM pins, `get_rope` called the way vLLM's model code calls it (head size, `max_position_embeddings`, NeoX
layout, the config's `rope_parameters`; DeepSeek's `yarn` as `deepseek_yarn`; M-RoPE with vLLM's default
`mrope_positions_factor`), then read: θᵢ = atan2(sin, cos) of the cos/sin cache at position 1, the attention factor
as cos at position 0, and the last position of each length regime run through `forward_native` (a cache too short
for the lengths vLLM allows raises there). Prints one JSON list of observations.

Standalone on purpose: it imports nothing from ropecheck. Request on stdin as for `_mlx_probe.py`.
"""

from __future__ import annotations

import inspect
import json
import math
import sys
from pathlib import Path


def _where(obj) -> str:
    try:
        import vllm

        _, start = inspect.getsourcelines(obj)
        file = Path(inspect.getsourcefile(obj)).relative_to(Path(vllm.__file__).parent.parent)
    except (OSError, TypeError, ValueError):
        return ""
    return f"{file}:{start}"


def _parameters(text, layer_type: str) -> dict:
    params = dict(getattr(text, "rope_parameters", None) or {})
    if layer_type in params and isinstance(params[layer_type], dict):
        params = dict(params[layer_type])
    if str(getattr(text, "model_type", "")).startswith("deepseek") and params.get("rope_type") == "yarn":
        params["rope_type"] = "deepseek_yarn"  # what vLLM's deepseek_v2.py passes
    return params


def main() -> None:
    import torch
    from transformers import AutoConfig
    from vllm.config import VllmConfig, set_current_vllm_config
    from vllm.model_executor.layers.rotary_embedding import get_rope

    request = json.loads(sys.stdin.read())
    config_path = Path(request["config"])
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    declared = json.loads((config_path if config_path.is_file() else config_path / "config.json").read_text())
    if declared.get("model_type") not in CONFIG_MAPPING_NAMES:  # remote code is never trusted, never asked for
        message = f"does not know model_type {declared.get('model_type')!r} (remote code is never trusted)"
        json.dump([{"layer_type": e["layer_type"], "regime": e["regime"], "error": message,
                    "unknown_model_type": True} for e in request["entries"]], sys.stdout)
        return
    config = AutoConfig.from_pretrained(str(config_path.parent if config_path.name == "config.json" else config_path),
                                        trust_remote_code=False)
    text = config.get_text_config()
    out = []
    for entry in request["entries"]:
        observation = {"layer_type": entry["layer_type"], "regime": entry["regime"], "dtype": "float32", "where": {}}
        if entry.get("rope_type") == "none":  # a layer without RoPE: no rotary module is asked for
            out.append(observation)
            continue
        try:
            params = _parameters(text, entry["layer_type"])
            engine_config = VllmConfig()
            if engine_config.model_config is None:
                # No model is loaded here: serve the config's whole context (what a long-context deployment sets;
                # LongRoPE picks its factor set from it once).
                from types import SimpleNamespace

                served = SimpleNamespace(max_model_len=text.max_position_embeddings)
                object.__setattr__(engine_config, "model_config", served)
            with set_current_vllm_config(engine_config):
                rope = get_rope(entry["head_dim"], text.max_position_embeddings, True, params, torch.float32)
            if hasattr(rope, "long_short_cos_sin_cache"):
                # LongRoPE: [short rows | long rows]; the set is chosen once, for every position (use_long_rope).
                start = rope.original_max_position_embeddings if rope.use_long_rope else 0
                cache = rope.long_short_cos_sin_cache[start:].float()
            else:
                cache = rope.cos_sin_cache.float()
            half = cache.shape[-1] // 2
            cos, sin = cache[:, :half], cache[:, half:]
            theta = torch.atan2(sin[1].double(), cos[1].double())
            observation.update(inv_freq=[float(v) for v in theta], attention_factor=float(cos[0, 0]))
            where = _where(type(rope))
            observation["where"] = {"spectrum": where, "attention_factor": where}
            last = max(entry["length"] - 1, 0)
            positions = torch.tensor([last])
            query = torch.zeros(1, entry["head_dim"])
            if params.get("mrope_section"):
                positions = positions.expand(3, 1)
            try:
                getattr(rope, "forward_native", rope.forward)(positions, query, query.clone())
            except Exception as error:
                message = str(error).splitlines()[0] if str(error) else ""
                observation["call_error"] = f"position {last}: {type(error).__name__}: {message}"[:300]
        except Exception as error:
            message = str(error).splitlines()[0] if str(error) else ""
            observation["error"] = f"{type(error).__name__}: {message}"[:300]
        if observation.get("inv_freq"):
            observation["inv_freq"] = [v if math.isfinite(v) else 0.0 for v in observation["inv_freq"]]
        out.append(observation)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
