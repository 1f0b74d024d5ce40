"""Which layers rotate at all: each model family's own rule for layers without RoPE ("NoPE"), and the layer types it
implies, read from the modeling code of the transformers the project pins (5.3.0; file:line below, relative to
`site-packages/`). A layer that does not rotate gets `rope_type: "none"` and an empty spectrum in the expected table.

- `llama4_text`: a layer rotates iff `no_rope_layers[i] == 1`; `no_rope_layers` absent or `[]`: every
  `no_rope_layer_interval`-th layer (default 4) is NoPE (`models/llama4/configuration_llama4.py:333-340`,
  `models/llama4/modeling_llama4.py:338,370`).
- `smollm3`: `no_rope_layers[i] == 1`; absent (`null`): every `no_rope_layer_interval`-th layer (default 4) is NoPE;
  an explicit `[]` is kept (and fails) (`models/smollm3/configuration_smollm3.py:179-184`,
  `models/smollm3/modeling_smollm3.py:211,234`).
- `exaone4`: `sliding_window` is null, or the layer is `sliding_attention`: global layers are NoPE, and
  `sliding_window` defaults to 4096 (`models/exaone4/modeling_exaone4.py:252-254`,
  `models/exaone4/configuration_exaone4.py:150`).
- `cohere2`: the layer is `sliding_attention` and `sliding_window` is not null (default 4096): global layers are
  NoPE (`models/cohere2/modeling_cohere2.py:212,244`, `models/cohere2/configuration_cohere2.py:141`).
- Llama 4's `interleave_moe_layer_step` / `moe_layers` choose which layers carry experts, not which rotate
  (`configuration_llama4.py:342-352`): they do not enter this table.
- every other type, Gemma 3n included (q and k of every layer rotate, `models/gemma3n/modeling_gemma3n.py:1232,1244`):
  every layer.

Layer types the config does not list are derived as the family's config class derives them: Llama 4 labels rotating
layers `chunked_attention` and NoPE layers `full_attention` (`configuration_llama4.py:356-360`); SmolLM3 labels NoPE
layers `sliding_attention` when `use_sliding_window` and `sliding_window` are set, else every layer
`full_attention` (`configuration_smollm3.py:188-196`); EXAONE 4 makes every `sliding_window_pattern`-th layer global
(default 4, `configuration_exaone4.py:175-183`).

Claims served: ROPE-FREQUENCIES (which layers the spectrum applies to at all).
"""

from __future__ import annotations

from typing import Any

from ._errors import ConfigError

__all__ = ["NO_ROPE", "derived_layer_types", "rotating_layers"]

#: The rope type of a layer that applies no rotation.
NO_ROPE = "none"

_INTERVAL_DEFAULT = 4  # configuration_llama4.py:290, configuration_smollm3.py:145
_SLIDING_DEFAULT = 4096  # configuration_exaone4.py:150, configuration_cohere2.py:141


def _flags(value: Any, count: int, model_type: str) -> list[bool]:
    if not isinstance(value, list) or len(value) != count or not all(v in (0, 1) for v in value):
        raise ConfigError(f"config key 'no_rope_layers' of {model_type} must list 0 or 1 for each of the {count} "
                          f"layers, got {value!r}")
    return [bool(v) for v in value]


def _interval(text: dict[str, Any], count: int) -> list[bool]:
    interval = text.get("no_rope_layer_interval", _INTERVAL_DEFAULT)
    if isinstance(interval, bool) or not isinstance(interval, int) or interval < 1:
        raise ConfigError(f"config key 'no_rope_layer_interval' must be a positive integer, got {interval!r}")
    return [(i + 1) % interval != 0 for i in range(count)]


def rotating_layers(
    text: dict[str, Any], model_type: str, layer_types: list[str] | None, count: int
) -> tuple[list[bool], str]:
    """Whether each layer applies RoPE, by the family's rule (see the module docstring).

    **Arguments:** `text` (the text config), `model_type`, `layer_types` (as derived, or None), `count` (layers).

    **Returns:** (one flag per layer, the rule in words with its source; "" when every layer rotates by default).

    **Raises:** `ConfigError` for a `no_rope_layers` or `no_rope_layer_interval` the rule cannot read.
    """
    if model_type in ("llama4_text", "llama4"):
        listed = text.get("no_rope_layers")
        if listed:  # `[]` and absent both mean the default pattern (configuration_llama4.py:333-340)
            return _flags(listed, count, model_type), (
                "Llama 4: `no_rope_layers[i]` = 1 rotates (modeling_llama4.py:338)")
        return _interval(text, count), ("Llama 4: no `no_rope_layers`: every `no_rope_layer_interval`-th layer is "
                                        "NoPE (configuration_llama4.py:333-340)")
    if model_type == "smollm3":
        listed = text.get("no_rope_layers")
        if listed is not None:
            return _flags(listed, count, model_type), (
                "SmolLM3: `no_rope_layers[i]` = 1 rotates (modeling_smollm3.py:211)")
        return _interval(text, count), ("SmolLM3: no `no_rope_layers`: every `no_rope_layer_interval`-th layer is "
                                        "NoPE (configuration_smollm3.py:179-184)")
    types = layer_types or ["full_attention"] * count
    if model_type == "exaone4":
        if text.get("sliding_window", _SLIDING_DEFAULT) is None:
            return [True] * count, ""
        return [t == "sliding_attention" for t in types], (
            "EXAONE 4: global layers carry no rotation when `sliding_window` is set (modeling_exaone4.py:252-254)")
    if model_type == "cohere2":
        window = text.get("sliding_window", _SLIDING_DEFAULT)
        return [window is not None and t == "sliding_attention" for t in types], (
            "Cohere2: only sliding layers rotate (modeling_cohere2.py:212,244)")
    return [True] * count, ""


def derived_layer_types(text: dict[str, Any], model_type: str, count: int) -> list[str] | None:
    """The layer types a family's config class derives when the config lists none (None: no family rule).

    **Arguments:** `text`, `model_type`, `count`.

    **Returns:** one layer type per layer, or None.
    """
    if text.get("layer_types") is not None:
        return None
    if model_type in ("llama4_text", "llama4"):
        flags, _ = rotating_layers(text, model_type, None, count)
        return ["chunked_attention" if rotates else "full_attention" for rotates in flags]
    if model_type == "smollm3":
        flags, _ = rotating_layers(text, model_type, None, count)
        sliding = bool(text.get("use_sliding_window")) and text.get("sliding_window") is not None
        return ["sliding_attention" if sliding and not rotates else "full_attention" for rotates in flags]
    if model_type == "exaone4":
        pattern = text.get("sliding_window_pattern", _INTERVAL_DEFAULT)
        if text.get("sliding_window", _SLIDING_DEFAULT) is None:
            return ["full_attention"] * count
        if isinstance(pattern, bool) or not isinstance(pattern, int) or pattern < 1:
            raise ConfigError(f"exaone4 config key 'sliding_window_pattern' must be a positive integer when "
                              f"'layer_types' is absent, got {pattern!r}")
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(count)]
    return None
