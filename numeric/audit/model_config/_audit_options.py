"""`audit --config config.json` (and the plugin's `--rope-config`): the declared base, scaling, rotary dim, partial
placement and head dim of a RoPE function, filled from the model it serves.

`PATH` is a config.json or a directory holding one; `PATH#LAYER_TYPE` picks a layer type when the config's layer
types rotate differently (Gemma 3: `#sliding_attention` or `#full_attention`). Options the user gives explicitly
win over the config's.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from typing import Any

from ._expected import layer_scaling
from ._parse import ConfigError, load_config

__all__ = ["AUDIT_KEYS", "audit_options", "fill_audit_options"]

#: The audit options a config fills.
AUDIT_KEYS = ("base", "scaling", "rotary_dim", "partial", "head_dim")


def audit_options(spec: str) -> dict[str, Any]:
    """The audit options a config declares.

    **Arguments:** `spec`: `PATH` or `PATH#LAYER_TYPE`.

    **Returns:** `{"base", "scaling" (a `Scaling` or None), "rotary_dim", "partial", "head_dim"}`.

    **Raises:** `ConfigError` (one line): an unreadable config, an unknown layer type, layer types that rotate
    differently without `#LAYER_TYPE`, or a rope type the audit cannot express (proportional).
    """
    path, _, wanted = str(spec).partition("#")
    model = load_config(path)
    rotating = [layer for layer in model.layers if layer.rope_type != "none"]  # NoPE layers declare no RoPE
    if not rotating:
        raise ConfigError("no layer of the config rotates: there is no RoPE to declare")
    layers = {layer.layer_type: layer for layer in rotating}
    if wanted:
        if wanted not in layers:
            raise ConfigError(f"layer type {wanted!r} not in the config (it has {', '.join(layers)})")
        layer = layers[wanted]
    else:
        distinct = {(la.rope_type, la.base, la.rotary_dim, repr(la.parameters)) for la in rotating}
        if len(distinct) > 1:
            raise ConfigError(f"the config's layer types rotate differently: pick one with {path}#LAYER_TYPE "
                              f"({', '.join(layers)})")
        layer = rotating[0]
    if layer.rope_type == "proportional":
        raise ConfigError("proportional RoPE (Gemma 4) cannot be declared to `audit`; use `audit-config`")
    return {
        "base": layer.base,
        "scaling": layer_scaling(layer),
        "rotary_dim": layer.rotary_dim,
        "partial": "first" if layer.rotary_dim < layer.head_dim else None,
        "head_dim": layer.head_dim,
    }


def fill_audit_options(spec: str, given: dict[str, Any]) -> dict[str, Any]:
    """Fill the options of `given` that are None from the config (in place; also returned).

    **Arguments:** `spec` (as for `audit_options`), `given` (option name → value; None means "not given").

    **Returns:** `given`.
    """
    for key, value in audit_options(spec).items():
        if given.get(key) is None:
            given[key] = value
    return given
