"""Misreadings of a config that engines are known to make, each as a changed `RopeLayer`.

When an engine's value differs from the expected one, the comparison tries each misreading that applies to the
layer: if the engine then agrees within the bound, the difference is explained by that key, and the finding names
it ("`truncate` ignored: the YaRN correction range is always rounded"). A difference no misreading explains is
reported as it is. The list comes from the defects collected for issue #21 (D1–D18 of the research brief).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ._layer_rules import NO_ROPE
from ._parse import YARN_DEFAULT_BETAS, RopeLayer

__all__ = ["MISREADINGS", "Misreading", "misreadings_for"]


@dataclasses.dataclass(frozen=True)
class Misreading:
    """One way to misread a config: `key` (the config key misread), `words` (the finding, in words), `applies`
    (whether it changes this layer), `change` (the layer as the misreading sees it), `regime_swap` (for the
    LongRoPE switch: the regime whose spectrum the engine used instead), `quantities` (what it can explain)."""

    key: str
    words: str
    applies: Callable[[RopeLayer], bool]
    change: Callable[[RopeLayer], RopeLayer]
    regime_swap: bool = False
    quantities: tuple[str, ...] = ("spectrum",)


def _with(layer: RopeLayer, **parameters: object) -> RopeLayer:
    return dataclasses.replace(layer, parameters={**layer.parameters, **parameters})


def _drop(layer: RopeLayer, *keys: str) -> RopeLayer:
    return dataclasses.replace(layer, parameters={k: v for k, v in layer.parameters.items() if k not in keys})


def _plain(layer: RopeLayer) -> RopeLayer:
    return dataclasses.replace(layer, rope_type="default", factor=None, original=None, parameters={})


def _yarn(layer: RopeLayer) -> bool:
    return layer.rope_type == "yarn"


MISREADINGS: tuple[Misreading, ...] = (
    Misreading(
        "truncate", "`truncate: false` ignored: the YaRN correction range is always rounded (floor/ceil)",
        lambda la: _yarn(la) and la.parameters.get("truncate") is False, lambda la: _with(la, truncate=True),
    ),
    Misreading(
        "truncate", "YaRN correction range left fractional although `truncate` is true or absent",
        lambda la: _yarn(la) and la.parameters.get("truncate", True) is not False, lambda la: _with(la, truncate=False),
    ),
    Misreading(
        "beta_fast", "`beta_fast`/`beta_slow` ignored: YaRN's correction range from the defaults 32/1",
        lambda la: _yarn(la) and la.yarn_betas != YARN_DEFAULT_BETAS,
        lambda la: _with(la, beta_fast=YARN_DEFAULT_BETAS[0], beta_slow=YARN_DEFAULT_BETAS[1]),
    ),
    Misreading(
        "attention_factor", "explicit `attention_factor` ignored: the default 0.1·ln s + 1 is used",
        lambda la: la.rope_type in ("yarn", "longrope") and la.parameters.get("attention_factor") is not None,
        lambda la: _drop(la, "attention_factor"), quantities=("attention_factor",),
    ),
    Misreading(
        "mscale", "`mscale`/`mscale_all_dim` ignored: the attention factor is g(s, 1), not their ratio",
        lambda la: _yarn(la) and bool(la.parameters.get("mscale")) and bool(la.parameters.get("mscale_all_dim")),
        lambda la: _drop(la, "mscale", "mscale_all_dim"), quantities=("attention_factor",),
    ),
    Misreading(
        "mscale_all_dim", "`mscale_all_dim` ignored in the softmax scale (DeepSeek's g(s, mscale_all_dim)² missing)",
        lambda la: _yarn(la) and bool(la.parameters.get("mscale_all_dim")),
        lambda la: _drop(la, "mscale_all_dim"), quantities=("softmax_scale",),
    ),
    Misreading(
        "original_max_position_embeddings", "YaRN ramp computed with 4·L₀ (the M-RoPE cache length) instead of L₀",
        lambda la: _yarn(la) and la.original is not None,
        lambda la: dataclasses.replace(la, original=4 * int(la.original or 0)),
    ),
    Misreading(
        "original_max_position_embeddings", "L₀ taken as 4096 (a default) instead of the config's value",
        lambda la: la.rope_type in ("yarn", "llama3", "longrope") and la.original not in (None, 4096),
        lambda la: dataclasses.replace(la, original=4096),
    ),
    Misreading(
        "original_max_position_embeddings", "L₀ taken from rope_scaling, not the top-level key that overrides it",
        lambda la: any("overrides" in r for r in la.readings),
        lambda la: dataclasses.replace(la, original=int(la.parameters["original_max_position_embeddings"])),
        quantities=("spectrum", "attention_factor"),
    ),
    Misreading(
        "factor", "attention factor from max_position_embeddings / L₀, ignoring `factor`",
        lambda la: la.rope_type == "longrope" and la.parameters.get("factor") is not None
        and la.parameters.get("attention_factor") is None,
        lambda la: dataclasses.replace(la, factor=la.max_position_embeddings / int(la.original or 1)),
        quantities=("attention_factor",),
    ),
    Misreading(
        "short_factor", "LongRoPE switch: the other factor set is used in this length regime",
        lambda la: la.rope_type == "longrope", lambda la: la, regime_swap=True,
    ),
    Misreading(
        "rope_type", "dynamic NTK not applied: plain RoPE beyond max_position_embeddings",
        lambda la: la.rope_type == "dynamic", _plain,
    ),
    Misreading(
        "rope_scaling", "scaling dropped: plain RoPE with the config's base",
        lambda la: la.rope_type not in ("default", "dynamic"), _plain, quantities=("spectrum", "attention_factor"),
    ),
    Misreading(
        "partial_rotary_factor", "`partial_rotary_factor` ignored: the whole head is rotated",
        lambda la: la.rotary_dim != la.head_dim and la.rope_type != "proportional",
        lambda la: dataclasses.replace(la, rotary_dim=la.head_dim),
    ),
    Misreading(
        "rope_theta", "`rope_theta` ignored: base 10000 used",
        lambda la: la.base != 10000.0, lambda la: dataclasses.replace(la, base=10000.0),
    ),
)


def misreadings_for(layer: RopeLayer) -> list[Misreading]:
    """The misreadings that change `layer` (in the order they are tried).

    **Arguments:** `layer`.

    **Returns:** a list of `Misreading`.
    """
    if layer.rope_type == NO_ROPE:
        return []
    return [m for m in MISREADINGS if m.applies(layer)]
