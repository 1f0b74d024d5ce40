"""The model class's defaults for the keys a released config leaves out (Gemma 3 4B's `text_config` names neither
its head width, its heads, its bases nor its layer pattern: transformers fills them from `Gemma3TextConfig`).

Where they come from, in this order, and the report says which was used:

1. **the installed transformers' config class** for the config's `model_type` (when transformers can be imported):
   its `__init__` signature defaults and its `default_theta` (transformers' default `rope_theta`; Gemma 3's is a
   `{"global", "local"}` pair, the second the sliding layers' base);
2. **ropecheck's table** below, for what a class derives outside its signature (Gemma 3's `sliding_window_pattern`
   6 is read from `kwargs`) and for every key when transformers is absent — each value with the file:line of
   transformers 5.3.0 it was read from (a test compares the table with the installed classes).

Only the keys that bear on positions are filled, and only where the config lacks the key: a key present with
`null` stays null, as released. A key the reading needs that neither the config nor a default gives is still a
one-line error naming the key (exit 2).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import inspect
from importlib import import_module
from typing import Any

__all__ = ["POSITION_KEYS", "TABLE", "ClassDefaults", "class_defaults"]

#: The keys whose defaults bear on the per-layer table.
POSITION_KEYS = (
    "head_dim", "hidden_size", "num_attention_heads", "num_hidden_layers", "max_position_embeddings",
    "query_pre_attn_scalar", "sliding_window", "sliding_window_pattern", "rope_theta", "rope_local_base_freq",
    "no_rope_layer_interval", "attn_temperature_tuning", "floor_scale", "attn_scale", "partial_rotary_factor",
    "use_sliding_window",
)

_GEMMA3 = "transformers 5.3.0 models/gemma3/configuration_gemma3.py"
_GEMMA3N = "transformers 5.3.0 models/gemma3n/configuration_gemma3n.py"
_LLAMA4 = "transformers 5.3.0 models/llama4/configuration_llama4.py"

#: model_type → {key: (value, where it was read)}; the fallback when the class cannot be imported, and the
#: defaults a class derives outside its signature (marked "derived").
TABLE: dict[str, dict[str, tuple[Any, str]]] = {
    "gemma3_text": {
        "hidden_size": (2304, f"{_GEMMA3}:138"), "num_hidden_layers": (26, f"{_GEMMA3}:140"),
        "num_attention_heads": (8, f"{_GEMMA3}:141"), "head_dim": (256, f"{_GEMMA3}:143"),
        "max_position_embeddings": (131072, f"{_GEMMA3}:145"), "query_pre_attn_scalar": (256, f"{_GEMMA3}:154"),
        "sliding_window": (4096, f"{_GEMMA3}:155"), "rope_theta": (1_000_000.0, f"{_GEMMA3}:133"),
        "rope_local_base_freq": (10_000.0, f"{_GEMMA3}:133"),
        "sliding_window_pattern": (6, f"{_GEMMA3}:193 (derived: read from kwargs, default 6)"),
    },
    "gemma3n_text": {
        "num_attention_heads": (8, f"{_GEMMA3N}:173"), "head_dim": (256, f"{_GEMMA3N}:175"),
        "max_position_embeddings": (32768, f"{_GEMMA3N}:177"),
    },
    "llama4_text": {
        "no_rope_layer_interval": (4, f"{_LLAMA4}:290"), "attn_temperature_tuning": (True, f"{_LLAMA4}:293"),
        "floor_scale": (8192, f"{_LLAMA4}:294"), "attn_scale": (0.1, f"{_LLAMA4}:295"),
    },
    "smollm3": {"no_rope_layer_interval": (4, "transformers 5.3.0 models/smollm3/configuration_smollm3.py:145")},
    "exaone4": {
        "sliding_window": (4096, "transformers 5.3.0 models/exaone4/configuration_exaone4.py:150"),
        "sliding_window_pattern": (4, "transformers 5.3.0 models/exaone4/configuration_exaone4.py:151"),
    },
    "cohere2": {
        "sliding_window": (4096, "transformers 5.3.0 models/cohere2/configuration_cohere2.py:141"),
        "sliding_window_pattern": (4, "transformers 5.3.0 models/cohere2/configuration_cohere2.py:176 (derived)"),
    },
}


@dataclasses.dataclass(frozen=True)
class ClassDefaults:
    """The defaults used for one config: `values` (key → value, only keys the config lacks), `sources` (key → where
    the value was read: the class, or the table with its file:line), `source` (in words, for the report)."""

    values: dict[str, Any]
    sources: dict[str, str]
    source: str

    def to_json(self) -> dict[str, Any]:
        """The `config.defaults` entry of the JSON report."""
        return {"source": self.source, "keys": {k: {"value": v, "from": self.sources[k]} for k, v in
                                                self.values.items()}}


def _installed_class(model_type: str) -> tuple[type | None, str]:
    """The installed transformers' config class for `model_type`, and its version (None when unavailable)."""
    try:
        import transformers
        from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES, model_type_to_module_name
    except ImportError:
        return None, ""
    name = CONFIG_MAPPING_NAMES.get(model_type)
    if name is None:
        return None, str(transformers.__version__)
    try:
        module = import_module(f"transformers.models.{model_type_to_module_name(model_type)}.configuration_"
                               f"{model_type_to_module_name(model_type).split('.')[-1]}")
        return getattr(module, name), str(transformers.__version__)
    except (ImportError, AttributeError):
        return None, str(transformers.__version__)


def _signature_defaults(cls: type) -> dict[str, Any]:
    out = {
        key: parameter.default for key, parameter in inspect.signature(cls.__init__).parameters.items()
        if key in POSITION_KEYS and parameter.default is not inspect.Parameter.empty and parameter.default is not None
    }
    theta = getattr(cls, "default_theta", None)
    if isinstance(theta, dict):
        out["rope_theta"], out["rope_local_base_freq"] = theta.get("global"), theta.get("local")
    elif isinstance(theta, int | float):
        out["rope_theta"] = float(theta)
    return {k: v for k, v in out.items() if v is not None}


def class_defaults(text: dict[str, Any], model_type: str, *, use_installed: bool = True) -> ClassDefaults:
    """The defaults for the position keys `text` lacks.

    **Arguments:** `text` (the text config), `model_type`, `use_installed` (False: the table only).

    **Returns:** the `ClassDefaults` (empty `values` when the config lacks nothing a source gives).
    """
    cls, version = _installed_class(model_type) if use_installed else (None, "")
    table = TABLE.get(model_type, {})
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if cls is not None:
        for key, value in _signature_defaults(cls).items():
            if key not in text:
                values[key] = value
                sources[key] = f"transformers {version} {cls.__name__}"
    for key, (value, where) in table.items():
        derived = "derived" in where
        if key not in text and (key not in values) and (cls is None or derived):
            values[key] = value
            sources[key] = f"ropecheck's table ({where})"
    used = sorted(set(sources.values()))
    if cls is not None:
        source = f"transformers {version} {cls.__name__}" + (" and ropecheck's table" if len(used) > 1 or any(
            s.startswith("ropecheck") for s in used) else "")
    else:
        source = "ropecheck's table (transformers not importable or no class)" if table else "none"
    return ClassDefaults(values, sources, source if values else "none needed")
