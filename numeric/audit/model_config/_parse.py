"""Read a model's `config.json` into one `RopeLayer` per layer type: what positions mean in that model.

The reading follows the Hugging Face configuration documentation (transformers' `RotaryEmbeddingConfigMixin`,
the reference most configs are written for), made explicit key by key so an engine that reads a key otherwise
can be named:

- VLM configs keep the language model in `text_config`; it is read when present.
- keys the config lacks are filled from the model class's defaults (`_defaults`: the installed transformers'
  config class, else ropecheck's table; the report names which).
- `rope_parameters` (transformers v5) or `rope_scaling` (v4; `null` is plain RoPE); `rope_type`, else the legacy
  `type`; `mrope` means plain RoPE with `mrope_section`, `su` means `longrope`.
- `rope_theta` inside `rope_parameters`, else at the top level, else 10000.
- `original_max_position_embeddings` at the **top level overrides** the one inside `rope_scaling` (the Phi-3 rule);
  absent both, `max_position_embeddings` (so YaRN's implicit factor is 1).
- rotary dim d = int(head_dim · `partial_rotary_factor`) (aliases `rotary_pct`, `rotary_emb_fraction`); head_dim is
  `head_dim`, else `hidden_size // num_attention_heads`; DeepSeek's MLA rotates `qk_rope_head_dim`.
- layer types: `layer_types`, else Gemma 3's `sliding_window_pattern` (every n-th layer global), else Gemma 2's
  alternation; sliding layers of Gemma 3 use `rope_local_base_freq` unscaled; a `rope_parameters` dict keyed by layer
  type gives each type its own parameters (v5 nested form); families that derive their layer types in their config
  class (Llama 4, SmolLM3, EXAONE 4) get them derived the same way (`_layer_rules`).
- which layers rotate at all: each family's NoPE rule (`_layer_rules`): a layer type split into its rotating layers
  and its layers with rope type "none".
- HunYuan (`hunyuan*` model types): `dynamic` with `alpha` is NTK-alpha, a fixed base base·α^(d/(d−2)) at every
  length, read as plain RoPE with that base (transformers `models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py:419-423`
  and `hunyuan_v1_dense`, Tencent's own `modeling_hunyuan.py` `HunYuanDynamicNTKAlphaRotaryEmbedding`); a null
  `qk_rope_head_dim` (its configs carry the MLA keys as null) is an absent one.

Claims served: ROPE-FREQUENCIES (θᵢ = base^(−2i/d) and its scalings).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from ._defaults import ClassDefaults, class_defaults
from ._errors import ConfigError
from ._layer_rules import NO_ROPE, derived_layer_types, rotating_layers

__all__ = ["ROPE_TYPES", "YARN_DEFAULT_BETAS", "ConfigError", "ModelConfig", "RopeLayer", "load_config", "parse_config"]

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3", "longrope", "proportional")
_ALIASES = {"mrope": "default", "su": "longrope", "deepseek_yarn": "yarn"}
_NEEDS_ORIGINAL = ("yarn", "llama3", "longrope")
_DEFAULT_THETA = 10000.0
# Keys a config may carry that bear on positions; anything else in rope_parameters is reported as unread.
_KNOWN_KEYS = {
    "rope_type", "type", "rope_theta", "factor", "original_max_position_embeddings", "low_freq_factor",
    "high_freq_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate",
    "short_factor", "long_factor", "partial_rotary_factor", "mrope_section", "mrope_interleaved", "freq_factors",
    "llama_4_scaling_beta",
}
# Keys of the rope parameters that only a family reads: model type prefix → keys.
_FAMILY_KEYS = {"hunyuan": {"alpha"}}
# Text config keys the family softmax rules read (`_softmax`).
_ATTENTION_KEYS = ("query_pre_attn_scalar", "attn_temperature_tuning", "floor_scale", "attn_scale")


#: YaRN's (β_fast, β_slow) where a config gives none: the YaRN paper's, and the default of transformers, vLLM, MLX-LM
#: and llama.cpp (`yarn_beta_fast = 32.0f`, `yarn_beta_slow = 1.0f`: src/llama-hparams.h:161-162).
YARN_DEFAULT_BETAS = (32.0, 1.0)


@dataclasses.dataclass(frozen=True)
class RopeLayer:
    """The rotary embedding of one layer type, as the config declares it.

    **Fields:** `layer_type` ("all" without layer types), `layer_indices`, `rope_type` (one of `ROPE_TYPES`, or
    "none" for layers the family's rule leaves unrotated: see `_layer_rules`; their `rotary_dim` is 0),
    `base`, `head_dim`, `rotary_dim`, `max_position_embeddings` (M), `original` (L₀, for llama3/yarn/longrope),
    `factor` (s, None where the type has none), `parameters` (the normalised rope dict), `mrope_section` and
    `mrope_interleaved`, `qk_head_dim` (the width of q·k, for the softmax scale), `query_pre_attn_scalar`
    (Gemma's explicit scale), `readings` (how a loose key was read, in words), `model_type` (the family, whose
    softmax rule applies: `_softmax`), `attention` (the keys that rule reads).
    """

    layer_type: str
    layer_indices: tuple[int, ...]
    rope_type: str
    base: float
    head_dim: int
    rotary_dim: int
    max_position_embeddings: int
    original: int | None
    factor: float | None
    parameters: dict[str, Any]
    mrope_section: tuple[int, ...] | None
    mrope_interleaved: bool
    qk_head_dim: int
    query_pre_attn_scalar: float | None
    readings: tuple[str, ...] = ()
    model_type: str = ""
    attention: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def yarn_betas(self) -> tuple[float, float]:
        """YaRN's (β_fast, β_slow) as every formula here reads them: the config's, or `YARN_DEFAULT_BETAS` where
        absent (or 0)."""
        fast, slow = YARN_DEFAULT_BETAS
        return (float(self.parameters.get("beta_fast") or fast), float(self.parameters.get("beta_slow") or slow))


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    """A parsed config: `path`, `model_type`, `layers` (one `RopeLayer` per layer type and rotation), `text` (the
    text config dict, with the class defaults it lacked filled in), `raw` (the whole file, as given), `unread_keys`
    (rope keys no formula reads), `defaults` (the class defaults used, and where they were read)."""

    path: str
    model_type: str
    layers: tuple[RopeLayer, ...]
    text: dict[str, Any]
    raw: dict[str, Any]
    unread_keys: tuple[str, ...] = ()
    defaults: ClassDefaults | None = None


def load_config(path: str | Path) -> ModelConfig:
    """Read and parse `path`: a `config.json`, a directory holding one, or a GGUF file (its RoPE metadata).

    **Arguments:** `path`.

    **Returns:** the `ModelConfig`.

    **Raises:** `ConfigError` (one line) for a missing file, invalid JSON or a config that cannot be read.
    """
    file = Path(path)
    if file.suffix == ".gguf" and file.is_file():
        from ._gguf import gguf_config

        return parse_config(gguf_config(file), str(file))
    if file.is_dir():
        file = file / "config.json"
    if not file.is_file():
        raise ConfigError(f"no config file at {str(path)!r} (give a config.json or a directory holding one)")
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{str(file)!r} is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ConfigError(f"{str(file)!r} is not valid JSON: {error.msg} (line {error.lineno})") from None
    return parse_config(raw, str(file))


def _number(value: Any, key: str, *, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"config key {key!r} must be a number, got {value!r}")
    if positive and value <= 0:
        raise ConfigError(f"config key {key!r} must be positive, got {value!r}")
    return float(value)


def _integer(value: Any, key: str) -> int:
    number = _number(value, key)
    if number != int(number):
        raise ConfigError(f"config key {key!r} must be an integer, got {value!r}")
    return int(number)


def _layer_types(text: dict[str, Any], model_type: str, count: int) -> list[str] | None:
    declared = text.get("layer_types")
    if declared is not None:
        if not isinstance(declared, list) or not all(isinstance(t, str) for t in declared):
            raise ConfigError("config key 'layer_types' must be a list of strings")
        return declared
    pattern = text.get("sliding_window_pattern")
    if pattern is not None:
        period = _integer(pattern, "sliding_window_pattern")
        return ["sliding_attention" if (i + 1) % period else "full_attention" for i in range(count)]
    if model_type.startswith("gemma2"):
        return ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(count)]
    return None


def _rope_dict(text: dict[str, Any], layer_types: list[str] | None) -> tuple[dict[str, Any], bool]:
    """The rope parameters and whether they are nested per layer type."""
    source = text.get("rope_parameters")
    if source is None:
        source = text.get("rope_scaling")
    if source is None:
        return {}, False
    if not isinstance(source, dict):
        raise ConfigError(f"rope parameters must be an object, got {source!r}")
    names = set(layer_types or ()) | {"full_attention", "sliding_attention"}
    nested = bool(source) and set(source) <= names and all(isinstance(v, dict) for v in source.values())
    return source, nested


def _head_dims(text: dict[str, Any]) -> tuple[int, int]:
    """(rotary head width, q·k width)."""
    if text.get("qk_rope_head_dim") is not None:  # DeepSeek MLA: only the rope part of q and k rotates
        rope = _integer(text["qk_rope_head_dim"], "qk_rope_head_dim")
        nope = text.get("qk_nope_head_dim") or 0
        return rope, rope + (_integer(nope, "qk_nope_head_dim") if nope else 0)
    head = text.get("head_dim")
    if head is None:
        try:
            head = _integer(text["hidden_size"], "hidden_size") // _integer(
                text["num_attention_heads"], "num_attention_heads"
            )
        except KeyError as missing:
            raise ConfigError(f"config has neither 'head_dim' nor {missing.args[0]!r}") from None
    head = _integer(head, "head_dim")
    return head, head


def _partial(params: dict[str, Any], text: dict[str, Any]) -> float:
    for key in ("partial_rotary_factor", "rotary_pct", "rotary_emb_fraction"):
        for holder in (params, text):
            if holder.get(key) is not None:
                value = _number(holder[key], key)
                if value > 1:
                    raise ConfigError(f"config key {key!r} must be in (0, 1], got {value!r}")
                return value
    return 1.0


def _layer(
    text: dict[str, Any], params: dict[str, Any], layer_type: str, indices: tuple[int, ...], base_default: float
) -> RopeLayer:
    readings: list[str] = []
    raw_type = params.get("rope_type", params.get("type", "default"))
    if "rope_type" not in params and "type" in params:
        readings.append("rope type from the legacy key 'type'")
    if not isinstance(raw_type, str):
        raise ConfigError(f"rope type must be a string, got {raw_type!r}")
    rope_type = _ALIASES.get(raw_type, raw_type)
    if rope_type not in ROPE_TYPES:
        raise ConfigError(f"unknown rope type {raw_type!r} (known: {', '.join(ROPE_TYPES)}, mrope, su)")
    if raw_type == "mrope":
        readings.append("'mrope' read as plain RoPE with mrope_section")
    base = _number(params.get("rope_theta", text.get("rope_theta", base_default)), "rope_theta")
    head_dim, qk_head_dim = _head_dims(text)
    partial = _partial(params, text)
    rotary_dim = int(head_dim * partial)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ConfigError(f"rotary dimension {rotary_dim} (head_dim {head_dim} × {partial}) must be even and ≥ 2")
    max_positions = _integer(text.get("max_position_embeddings", 2048), "max_position_embeddings")
    alpha = _ntk_alpha(params, text)
    if alpha is not None:  # HunYuan's NTK-alpha: one fixed base, no length regime, no factor
        base = base * alpha ** (rotary_dim / (rotary_dim - 2))
        rope_type, params = "default", {k: v for k, v in params.items() if k not in ("factor", "alpha")}
        readings.append(f"HunYuan NTK-alpha: 'dynamic' with alpha {alpha:g} is a fixed base rope_theta·α^(d/(d−2)) "
                        f"= {base:.6g} at every length (transformers models/hunyuan_v1_moe/"
                        "modeling_hunyuan_v1_moe.py:419-423)")
    original = None
    if rope_type in _NEEDS_ORIGINAL:
        top = text.get("original_max_position_embeddings")
        inner = params.get("original_max_position_embeddings")
        if top is not None:
            original = _integer(top, "original_max_position_embeddings")
            if inner is not None and inner != top:
                readings.append(f"top-level original_max_position_embeddings {top} overrides {inner} in rope_scaling")
            elif inner is None:
                readings.append("original_max_position_embeddings from the top level (the Phi-3 rule)")
        elif inner is not None:
            original = _integer(inner, "original_max_position_embeddings")
        else:
            original = max_positions
            readings.append("no original_max_position_embeddings: max_position_embeddings used (transformers' rule)")
    factor = params.get("factor")
    if factor is not None:
        factor = _number(factor, "factor")
    elif rope_type in ("linear", "dynamic", "llama3"):
        raise ConfigError(f"rope type {rope_type!r} needs 'factor'")
    elif rope_type in ("yarn", "longrope") and original:
        factor = max_positions / original
        readings.append(f"no factor: max_position_embeddings / original = {factor:g}")
    section = params.get("mrope_section", text.get("mrope_section"))
    if section is not None:
        if not isinstance(section, list) or not all(isinstance(s, int) and s >= 0 for s in section):
            raise ConfigError(f"mrope_section must be a list of non-negative integers, got {section!r}")
        if sum(section) != rotary_dim // 2:
            raise ConfigError(f"mrope_section {section} sums to {sum(section)}, not rotary_dim/2 = {rotary_dim // 2}")
    for key in ("short_factor", "long_factor"):
        values = params.get(key)
        if rope_type == "longrope" and (not isinstance(values, list) or len(values) != rotary_dim // 2):
            raise ConfigError(f"longrope needs {key!r}: a list of {rotary_dim // 2} numbers (rotary_dim/2)")
        if rope_type == "longrope":
            for value in values:
                _number(value, key)
    divisors = params.get("freq_factors")
    if divisors is not None and (not isinstance(divisors, list) or len(divisors) != rotary_dim // 2):
        raise ConfigError(f"freq_factors must list {rotary_dim // 2} divisors (rotary_dim/2)")
    scalar = text.get("query_pre_attn_scalar")
    return RopeLayer(
        layer_type=layer_type,
        layer_indices=indices,
        rope_type=rope_type,
        base=base,
        head_dim=head_dim,
        rotary_dim=rotary_dim,
        max_position_embeddings=max_positions,
        original=original,
        factor=factor,
        parameters=dict(params),
        mrope_section=tuple(section) if section is not None else None,
        mrope_interleaved=bool(params.get("mrope_interleaved", text.get("mrope_interleaved", False))),
        qk_head_dim=qk_head_dim,
        query_pre_attn_scalar=_number(scalar, "query_pre_attn_scalar") if scalar is not None else None,
        readings=tuple(readings),
        model_type=str(text.get("model_type") or ""),
        attention={
            **{key: text[key] for key in _ATTENTION_KEYS if text.get(key) is not None},
            **{key: params[key] for key in ("llama_4_scaling_beta", "original_max_position_embeddings")
               if params.get(key) is not None},
        },
    )


def _ntk_alpha(params: dict[str, Any], text: dict[str, Any]) -> float | None:
    """HunYuan's NTK-alpha (`rope_type` dynamic with a non-zero `alpha`, in a `hunyuan*` model), else None."""
    family = str(text.get("model_type") or "").startswith("hunyuan")
    kind = params.get("rope_type", params.get("type"))
    if not family or kind != "dynamic" or not params.get("alpha"):
        return None
    return _number(params["alpha"], "alpha")


def _none_layer(layer: RopeLayer, indices: tuple[int, ...], rule: str) -> RopeLayer:
    """The layers of `layer`'s type that the family's rule leaves unrotated: rope type "none", no rotary dims."""
    return dataclasses.replace(layer, layer_indices=indices, rope_type=NO_ROPE, rotary_dim=0, original=None,
                               factor=None, parameters={}, mrope_section=None, readings=(rule,))


def _split_by_rotation(layer: RopeLayer, rotates: list[bool], rule: str) -> list[RopeLayer]:
    """`layer` (one layer type) as its rotating layers and its NoPE layers (either may be absent)."""
    rotating = tuple(i for i in layer.layer_indices if rotates[i])
    still = tuple(i for i in layer.layer_indices if not rotates[i])
    out = []
    if rotating:
        out.append(dataclasses.replace(layer, layer_indices=rotating))
    if still:
        out.append(_none_layer(layer, still, rule))
    return out


def parse_config(raw: Any, path: str = "<config>") -> ModelConfig:
    """Parse a config dict (see the module docstring for the reading).

    **Arguments:** `raw` (the decoded JSON), `path` (for the report).

    **Returns:** the `ModelConfig`: one `RopeLayer` per layer type and per rotation (a layer type whose layers
    partly rotate and partly do not, by the family's rule, gives two: the second with rope type "none").

    **Raises:** `ConfigError` (one line).
    """
    if not isinstance(raw, dict):
        raise ConfigError(f"{path!r} must hold a JSON object, got {type(raw).__name__}")
    text = raw.get("text_config") if isinstance(raw.get("text_config"), dict) else raw
    model_type = str(text.get("model_type") or raw.get("model_type") or "unknown")
    defaults = class_defaults(text, model_type)
    text = {**text, **defaults.values}
    count = _integer(text.get("num_hidden_layers", 1), "num_hidden_layers")
    layer_types = derived_layer_types(text, model_type, count) or _layer_types(text, model_type, count)
    if layer_types is not None and len(layer_types) != count:
        raise ConfigError(f"config key 'layer_types' lists {len(layer_types)} layers, num_hidden_layers is {count}")
    rotates, rule = rotating_layers(text, model_type, layer_types, count)
    rope, nested = _rope_dict(text, layer_types)
    unread = sorted(
        f"{name}.{key}" if nested else key
        for name, block in (rope.items() if nested else [("", rope)])
        for key in block
        if key not in _KNOWN_KEYS
        and not any(model_type.startswith(family) and key in keys for family, keys in _FAMILY_KEYS.items())
    )
    if layer_types is None:
        groups = [_layer(text, rope, "all", tuple(range(count)), _DEFAULT_THETA)]
    else:
        groups = []
        for layer_type in dict.fromkeys(layer_types):
            indices = tuple(i for i, t in enumerate(layer_types) if t == layer_type)
            if nested:
                if layer_type not in rope:
                    raise ConfigError(f"rope_parameters has no entry for layer type {layer_type!r}")
                params = rope[layer_type]
            elif layer_type == "sliding_attention" and "rope_local_base_freq" in text:
                # Gemma 3: sliding layers rotate with the local base and no scaling.
                local = _number(text["rope_local_base_freq"], "rope_local_base_freq")
                params = {"rope_type": "default", "rope_theta": local}
            else:
                params = rope
            groups.append(_layer(text, params, layer_type, indices, _DEFAULT_THETA))
    layers = [part for group in groups for part in _split_by_rotation(group, rotates, rule)]
    return ModelConfig(path, model_type, tuple(layers), text, raw, tuple(unread), defaults)
