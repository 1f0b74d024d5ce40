"""A GGUF file's RoPE metadata (llama.cpp's format, read with the `gguf` package) as a config dict `_parse` reads.

What llama.cpp's converter writes, key by key (`gguf.Keys`): `{arch}.context_length` → M; `{arch}.rope.freq_base`
→ base; `{arch}.rope.dimension_count` → the rotary dim; `{arch}.attention.key_length` or embedding / heads → the
head dim; `{arch}.rope.scaling.type` `linear` / `yarn` / `longrope` with `.factor`, `.original_context_length`,
`.yarn_beta_fast/slow`, `.attn_factor` (→ `attention_factor`); `{arch}.rope.freq_base_swa` → the sliding layers'
base; `{arch}.rope.dimension_sections` → `mrope_section`; the tensors `rope_freqs` (Llama 3's per-pair divisors:
θᵢ/λᵢ) and `rope_factors_short/long` (LongRoPE). GGUF has no `truncate` key: YaRN reads as truncated, llama.cpp's
only behaviour — compare the file's expected values with its source config's to see what conversion lost.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._errors import ConfigError

__all__ = ["gguf_config"]


def _field(reader: Any, key: str) -> Any:
    field = reader.get_field(key)
    if field is None:
        return None
    value = field.contents()
    return value


def _tensor(reader: Any, name: str) -> list[float] | None:
    for tensor in reader.tensors:
        if tensor.name in (name, f"{name}.weight"):
            return [float(v) for v in tensor.data.reshape(-1)]
    return None


def gguf_config(path: str | Path) -> dict[str, Any]:
    """The RoPE-relevant config a GGUF file declares.

    **Arguments:** `path` (a `.gguf` file).

    **Returns:** a config dict in Hugging Face's vocabulary (see the module docstring).

    **Raises:** `ConfigError` when the `gguf` package is missing or the file is not GGUF.
    """
    try:
        import gguf
    except ImportError:
        raise ConfigError("reading GGUF needs the 'gguf' package (pip install gguf)") from None
    try:
        reader = gguf.GGUFReader(str(path))
    except (ValueError, OSError) as error:
        raise ConfigError(f"{str(path)!r} is not a readable GGUF file: {error}") from None
    arch = _field(reader, "general.architecture")
    if not isinstance(arch, str):
        raise ConfigError(f"{str(path)!r} has no general.architecture")

    def key(template: str) -> Any:
        return _field(reader, template.format(arch=arch))

    config: dict[str, Any] = {"model_type": arch, "max_position_embeddings": key(gguf.Keys.LLM.CONTEXT_LENGTH)}
    heads = key(gguf.Keys.Attention.HEAD_COUNT)
    width = key(gguf.Keys.LLM.EMBEDDING_LENGTH)
    head_dim = key(gguf.Keys.Attention.KEY_LENGTH) or (width // heads if width and heads else None)
    config.update(head_dim=head_dim, num_attention_heads=heads, hidden_size=width,
                  num_hidden_layers=key(gguf.Keys.LLM.BLOCK_COUNT) or 1)
    rotary = key(gguf.Keys.Rope.DIMENSION_COUNT)
    if rotary and head_dim and rotary != head_dim:
        config["partial_rotary_factor"] = rotary / head_dim
    config["rope_theta"] = key(gguf.Keys.Rope.FREQ_BASE) or 10000.0
    kind = key(gguf.Keys.Rope.SCALING_TYPE) or "none"
    scaling: dict[str, Any] = {}
    if kind in ("linear", "yarn", "longrope"):
        scaling = {"rope_type": kind}
        for name, template in (("factor", gguf.Keys.Rope.SCALING_FACTOR),
                               ("original_max_position_embeddings", gguf.Keys.Rope.SCALING_ORIG_CTX_LEN),
                               ("beta_fast", gguf.Keys.Rope.SCALING_YARN_BETA_FAST),
                               ("beta_slow", gguf.Keys.Rope.SCALING_YARN_BETA_SLOW),
                               ("attention_factor", gguf.Keys.Rope.SCALING_ATTN_FACTOR)):
            value = key(template)
            if value is not None:
                scaling[name] = value
    elif kind != "none":
        raise ConfigError(f"GGUF rope scaling type {kind!r} is not read (known: none, linear, yarn, longrope)")
    if kind == "longrope":
        scaling["short_factor"] = _tensor(reader, gguf.TENSOR_NAMES[gguf.MODEL_TENSOR.ROPE_FACTORS_SHORT])
        scaling["long_factor"] = _tensor(reader, gguf.TENSOR_NAMES[gguf.MODEL_TENSOR.ROPE_FACTORS_LONG])
    divisors = _tensor(reader, gguf.TENSOR_NAMES[gguf.MODEL_TENSOR.ROPE_FREQS])
    if divisors is not None:
        scaling.setdefault("rope_type", "default")
        scaling["freq_factors"] = divisors
    sections = key(gguf.Keys.Rope.DIMENSION_SECTIONS)
    if sections:
        scaling["mrope_section"] = [int(s) for s in sections if s][:3]
    config["rope_parameters"] = scaling or None
    local = key(gguf.Keys.Rope.FREQ_BASE_SWA)
    if local:
        config["rope_local_base_freq"] = local
    return config
