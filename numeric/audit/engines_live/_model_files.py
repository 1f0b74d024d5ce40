"""The tiny model every engine loads: built once from a config by the attention audit's builder (every field that
decides positions kept, widths shrunk, one layer of each layer type), saved once in float32 as safetensors with its
`config.json`, and the position windows that cover each length regime the config defines.

Claims served: ROPE-FREQUENCIES (through the comparison that uses the model).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ..model_config import ModelConfig, expected_values, load_config

__all__ = ["MLX_LAYOUT", "TOKENS_PER_WINDOW", "ModelFiles", "Window", "save_tiny_model"]

#: Tokens per position window: longer than the builder's largest sliding window (6), so the window mask acts.
TOKENS_PER_WINDOW = 12


@dataclasses.dataclass(frozen=True)
class Window:
    """One prompt: `name` (what it covers, in words), `start` (the first position), `tokens` (the ids; positions
    `start … start + len(tokens) − 1`), `regime` (the length regime of the expected table it exercises)."""

    name: str
    start: int
    tokens: tuple[int, ...]
    regime: str | int

    @property
    def end(self) -> int:
        """The largest position + 1 (the sequence length the engines see)."""
        return self.start + len(self.tokens)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "tokens": list(self.tokens), "regime": self.regime}


@dataclasses.dataclass
class ModelFiles:
    """A saved tiny model: `directory` (config.json + model.safetensors), `name`, `source` (the config given),
    `table` (the parsed tiny config: `ModelConfig`), `windows`, `notes` (what the builder changed), `model` (the
    float32 torch module, in memory for the reference)."""

    directory: Path
    name: str
    source: str
    table: ModelConfig
    windows: list[Window]
    notes: list[str]
    model: Any
    vocabulary: int

    def expected(self) -> list[Any]:
        """The expected table of the tiny config (one `Expected` per layer type and regime)."""
        return [entry for layer in self.table.layers for entry in expected_values(layer)]


def _tokens(count: int, vocabulary: int, seed: int) -> tuple[int, ...]:
    import random

    generator = random.Random(seed)
    return tuple(generator.randrange(3, vocabulary) for _ in range(count))


def plan_windows(table: ModelConfig, vocabulary: int, length: int = TOKENS_PER_WINDOW,
                 reach: int | None = None) -> list[Window]:
    """The position windows of one config: the start (positions 0 …), and per length regime of the expected table
    a window ending at that regime's length (the LongRoPE switch on both sides, dynamic NTK beyond M), and for fixed
    spectra a window ending at `max_position_embeddings` (long angles, where scalings act most).

    **Arguments:** `table` (the tiny config, parsed), `vocabulary`, `length` (tokens per window), `reach` (the
    largest position + 1 an engine can be given; None: any).

    **Returns:** the windows, without repeats.
    """
    windows = [Window("start", 0, _tokens(length, vocabulary, 0), "short")]
    seen = {0}
    for layer in table.layers:
        for entry in expected_values(layer):
            if entry.regime == "any":
                end, name = layer.max_position_embeddings, "max_position_embeddings"
            elif entry.regime == "short" and layer.rope_type != "longrope":
                continue
            else:
                end = entry.length
                name = {"short": "just below the switch", "long": "just past the switch"}.get(
                    str(entry.regime), f"length {entry.length}")
            start = max(end - length, 0)
            if start in seen or (reach is not None and end > reach):
                continue
            seen.add(start)
            windows.append(Window(name, start, _tokens(length, vocabulary, start), entry.regime))
    return windows


def _sharpen(model: Any, seed: int) -> Any:
    """Weights drawn with unit-variance activations (std 1/√fan-in, q and k twice that), so attention is sharp and
    the logits are O(1): a rotation error then shows in the logits instead of vanishing under uniform attention."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if parameter.ndim < 2:
                continue
            std = parameter.shape[-1] ** -0.5 * (2.0 if any(k in name for k in ("q_proj", "k_proj")) else 1.0)
            parameter.copy_(torch.randn(parameter.shape, generator=generator, dtype=torch.float64) * std)
    return model


def _legacy_rope_keys(config: dict[str, Any]) -> None:
    """transformers 5 writes `rope_parameters` only; released checkpoints (and engines that read them: MLX-LM
    0.32.2 reads `rope_scaling` and a top-level `rope_theta`) carry the v4 keys. Both are written, with the same
    values, so every engine reads the config a released checkpoint would give it. Gemma 3's layer pattern is
    written as `sliding_window_pattern` too (MLX-LM indexes its layers by it), and its per-layer-type
    `rope_parameters` as the released `rope_theta`, `rope_local_base_freq` and `rope_scaling`. A vision-language
    config's `text_config` gets the same (released Qwen2.5-VL configs carry `rope_scaling` and `rope_theta` flat,
    where MLX-LM's qwen2_vl reads them: mlx_lm/models/qwen2_vl.py:19-22 → qwen2.py:27-29; transformers 5 nests
    them)."""
    if isinstance(config.get("text_config"), dict):
        _legacy_rope_keys(config["text_config"])
    params = config.get("rope_parameters")
    nested = isinstance(params, dict) and params and all(isinstance(v, dict) for v in params.values())
    if isinstance(params, dict) and params and not nested:
        config.setdefault("rope_theta", params.get("rope_theta"))
        if params.get("rope_type", "default") != "default" or "mrope_section" in params:
            config.setdefault("rope_scaling", {k: v for k, v in params.items() if k != "rope_theta"})
    elif nested and isinstance(params.get("full_attention"), dict):
        # Gemma 3 as released: the global layers' base and scaling flat, the local base apart (v4 keys).
        full, local = params["full_attention"], params.get("sliding_attention") or {}
        config.setdefault("rope_theta", full.get("rope_theta"))
        if local.get("rope_theta") is not None:
            config.setdefault("rope_local_base_freq", local["rope_theta"])
        if full.get("rope_type", "default") != "default":
            config.setdefault("rope_scaling", {k: v for k, v in full.items() if k != "rope_theta"})
    types = config.get("layer_types")
    if str(config.get("model_type", "")).startswith("gemma3") and isinstance(types, list) and types:
        if types[-1] == "full_attention" and all(t == "sliding_attention" for t in types[:-1]):
            config["sliding_window_pattern"] = len(types)


def _released_aliases(config: dict[str, Any], given: str) -> None:
    """The keys the released config names by an alias of its transformers class (`attribute_map`; Qwen3-MoE's
    `num_experts`, which transformers 5 saves as `num_local_experts` and MLX-LM's qwen3_moe requires:
    mlx_lm/models/qwen3_moe.py:23) written under that name too, with the tiny model's value."""
    from transformers import AutoConfig

    from ..attention._configs import load_config as load_raw

    _, raw = load_raw(given)
    for holder, released in ((config, raw), (config.get("text_config"), raw.get("text_config") or raw)):
        if not isinstance(holder, dict) or "model_type" not in holder:
            continue
        try:
            aliases = AutoConfig.for_model(holder["model_type"]).attribute_map
        except (KeyError, ValueError):
            continue
        for alias, target in aliases.items():
            if alias in released and target in holder and alias not in holder:
                holder[alias] = holder[target]


def _released_ties(given: str) -> bool:
    """Whether the released model's output projection is its token embedding matrix: the config's
    `tie_word_embeddings` (its text config's first), else its transformers class default (Gemma's is True)."""
    from ..attention._configs import load_config

    _, raw = load_config(given)
    for holder in (raw.get("text_config") or {}, raw):
        if isinstance(holder, dict) and holder.get("tie_word_embeddings") is not None:
            return bool(holder["tie_word_embeddings"])
    from transformers import AutoConfig

    try:
        made = AutoConfig.for_model(raw["model_type"])
    except (KeyError, ValueError):
        return False
    return bool(getattr(made.get_text_config(), "tie_word_embeddings", False))


def _tie(model: Any) -> None:
    """Tie `model`'s output projection to its token embeddings (saved once, as a tied checkpoint is)."""
    for config in {id(c): c for c in (model.config, model.config.get_text_config())}.values():
        config.tie_word_embeddings = True
    model.get_output_embeddings().weight = model.get_input_embeddings().weight


#: Subfolder holding the same weights in MLX-LM's own layout, for the model types whose transformers layout MLX-LM
#: cannot read (the MLX probe loads it when present).
MLX_LAYOUT = "mlx-lm"


def _write_mlx_layout(directory: Path, model: Any, config: dict[str, Any]) -> str | None:
    """For gpt-oss, the same float32 weights in the layout MLX-LM 0.32.2's `gpt_oss.Model` loads; returns a note.

    MLX-LM's `sanitize` (mlx_lm/models/gpt_oss.py:220-256) maps the released MXFP4 checkpoint (`*_blocks`,
    `*_scales`: rows = outputs) to `experts.{gate,up,down}_proj.weight`, and returns any state dict that already
    names `gate_proj.weight` untouched (:221-222); an unquantised transformers checkpoint (`experts.gate_up_proj`,
    shape experts × hidden × 2·intermediate: rows = inputs) gets no `.weight` suffix there, so MLX-LM refuses it
    ("Received 6 parameters not in model"). Written here: MLX-LM's own sanitized layout — gate and up
    de-interleaved (transformers' `gate_up[..., ::2]`, `[..., 1::2]`, modeling_gpt_oss.py:83) and every expert
    matrix transposed to outputs × inputs — an exact permutation of the same numbers."""
    if config.get("model_type") != "gpt_oss":
        return None
    from safetensors.torch import save_file

    weights = {}
    for name, tensor in model.state_dict().items():
        tensor = tensor.detach().contiguous()
        if name.endswith("experts.gate_up_proj"):
            stem = name[: -len("gate_up_proj")]
            weights[stem + "gate_proj.weight"] = tensor[..., ::2].transpose(1, 2).contiguous()
            weights[stem + "up_proj.weight"] = tensor[..., 1::2].transpose(1, 2).contiguous()
        elif name.endswith("experts.gate_up_proj_bias"):
            stem = name[: -len("gate_up_proj_bias")]
            weights[stem + "gate_proj.bias"] = tensor[..., ::2].contiguous()
            weights[stem + "up_proj.bias"] = tensor[..., 1::2].contiguous()
        elif name.endswith("experts.down_proj"):
            weights[name + ".weight"] = tensor.transpose(1, 2).contiguous()
        elif name.endswith("experts.down_proj_bias"):
            weights[name[: -len("_bias")] + ".bias"] = tensor
        else:
            weights[name] = tensor
    folder = directory / MLX_LAYOUT
    folder.mkdir(exist_ok=True)
    save_file(weights, str(folder / "model.safetensors"), metadata={"format": "mlx"})
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    return (f"MLX-LM loads the same weights from {MLX_LAYOUT}/ in its own gpt-oss layout (experts' gate/up "
            "de-interleaved, matrices transposed): its sanitize reads only the MXFP4 keys or its own layout "
            "(mlx_lm/models/gpt_oss.py:220-256)")


#: Model types released with fused experts in another packing than transformers 5.3.0 saves: Qwen3-VL-MoE's
#: `experts.gate_up_proj` is experts × hidden × 2·intermediate and `experts.down_proj` experts × intermediate ×
#: hidden as released, transposed in transformers (modeling_qwen3_vl_moe.py:83), which reads either packing
#: (`Transpose(1, 2, check_dims=True)`, transformers/conversion_mapping.py:151-162) but saves its own.
_RELEASED_EXPERT_PACKING = {"qwen3_vl_moe": ("mlp.experts.gate_up_proj", "mlp.experts.down_proj")}


def _write_released_expert_packing(directory: Path, config: dict[str, Any]) -> str | None:
    """Rewrite the saved fused experts in the packing the model was released in (`_RELEASED_EXPERT_PACKING`), the
    one MLX-LM and llama.cpp read (llama.cpp: conversion/qwen3vl.py:323-349, "Qwen3VL has transposed packed
    tensors"); returns a note, or None for a model type released as saved."""
    suffixes = _RELEASED_EXPERT_PACKING.get(str(config.get("model_type")))
    if suffixes is None:
        return None
    from safetensors.torch import load_file, save_file

    path = directory / "model.safetensors"
    weights = load_file(str(path))
    for name in [n for n in weights if n.endswith(suffixes)]:
        weights[name] = weights[name].transpose(1, 2).contiguous()
    save_file(weights, str(path), metadata={"format": "pt"})
    return ("fused experts written in the released packing (experts × hidden × 2·intermediate, experts × "
            "intermediate × hidden; transformers 5.3.0 saves them transposed and reads either)")


def save_tiny_model(config: str | Path, directory: Path, seed: int = 0) -> ModelFiles:
    """Build the tiny model of `config`, save it in float32 under `directory`, and plan its windows.

    **Arguments:** `config` (a config.json, a directory holding one, or a built-in name of the attention audit),
    `directory` (created), `seed` (the random initialisation).

    **Returns:** the `ModelFiles`.

    **Raises:** `ConfigError` of the attention audit when transformers cannot build the config.
    """
    import torch

    from ..attention import build_tiny_model

    source = Path(config)
    given = str(source / "config.json") if source.is_dir() else str(config)
    tiny = build_tiny_model(given, seed=seed)
    notes = list(tiny.notes)
    text = tiny.config
    head = getattr(text, "head_dim", None)
    if head and int(head) * int(text.num_attention_heads) != int(text.hidden_size) and tiny.model.config is text:
        # Some engines derive head_dim from the width (MLX-LM's Qwen2 ignores `head_dim`): the tiny model keeps
        # hidden_size = heads × head_dim, as the released configs do, so every engine reads the same head.
        from transformers import AutoModelForCausalLM

        text.hidden_size = int(head) * int(text.num_attention_heads)
        tiny.model = AutoModelForCausalLM.from_config(text).to(torch.float64).eval()
        notes.append(f"hidden_size = heads × head_dim = {text.hidden_size} (engines that derive head_dim from the "
                     "width read the same head)")
    if _released_ties(given):
        _tie(tiny.model)
        notes.append("output projection tied to the token embeddings, as the released config ties them (the "
                     "builder unties them; llama.cpp's and vLLM's Gemma read no lm_head)")
    model = _sharpen(tiny.model, seed).to(torch.float32)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory, safe_serialization=True)
    written = json.loads((directory / "config.json").read_text())
    written.pop("_attn_implementation", None)
    written.pop("_experts_implementation", None)
    written["torch_dtype"] = written["dtype"] = "float32"
    _legacy_rope_keys(written)
    _released_aliases(written, given)
    (directory / "config.json").write_text(json.dumps(written, indent=2))
    for note in (_write_released_expert_packing(directory, written), _write_mlx_layout(directory, model, written)):
        if note:
            notes.append(note)
    table = load_config(directory / "config.json")
    vocabulary = int(tiny.config.vocab_size)
    name = source.name if source.is_dir() else (source.parent.name if source.name == "config.json" else str(config))
    return ModelFiles(directory, name, given, table, plan_windows(table, min(vocabulary, 40)), notes, model,
                      vocabulary)
