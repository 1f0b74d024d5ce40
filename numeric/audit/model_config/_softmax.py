"""The softmax scale each model family applies to q·k, and its position-dependent query scaling — a rule of the
family, never implied by the rope type alone. Each rule names the engine code it was read from (transformers
5.3.0, paths relative to `site-packages/`).

- **DeepSeek-V2/V3, Kimi-K2 (MLA)**: 1/√(qk_nope_head_dim + qk_rope_head_dim), times g(s, mscale_all_dim)² when the
  rope type is not default and `mscale_all_dim` is non-zero (g(s, m) = 0.1·m·ln s + 1): the half of YaRN's
  correction DeepSeek moves into the softmax (`models/deepseek_v3/modeling_deepseek_v3.py:408-414`; transformers'
  own DeepSeek-V2 class lacks the factor, `models/deepseek_v2/modeling_deepseek_v2.py:335`, fixed upstream in
  transformers PR #47435 — an engine that omits it is reported with the key `mscale_all_dim`). GLM-4.7-Flash
  (`glm4_moe_lite`) has the same MLA attention and rule (`models/glm4_moe_lite/modeling_glm4_moe_lite.py:273-278`).
- **Gemma 2 / Gemma 3**: 1/√`query_pre_attn_scalar` (`models/gemma3/modeling_gemma3.py:323`,
  `models/gemma2/modeling_gemma2.py:240`).
- **Gemma 3n**: 1 (q and k are RMS-normalised; `models/gemma3n/modeling_gemma3n.py:1180`).
- **Llama 4**: 1/√head_dim (`models/llama4/modeling_llama4.py:332`), and on NoPE layers, when
  `attn_temperature_tuning`, q is multiplied by 1 + `attn_scale`·ln(1 + ⌊(p + 1)/`floor_scale`⌋) at position p
  (`models/llama4/modeling_llama4.py:380-384`).
- **Ministral 3**: 1/√head_dim (`models/ministral3/modeling_ministral3.py:120`), and q is multiplied by
  1 + β·ln(1 + ⌊p/L₀⌋) with β = `llama_4_scaling_beta` and L₀ = `original_max_position_embeddings` of the rope
  parameters (`models/ministral3/modeling_ministral3.py:105-107,146-149`).
- **every other family**: 1/√head_dim (e.g. `models/llama/modeling_llama.py:234`).

Claims served: ROPE-FREQUENCIES (the logit scale the spectrum's relative property is read under).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import mpmath

__all__ = ["SoftmaxRule", "query_scale", "softmax_rule"]

#: MLA families → the file:line their softmax rule was read from.
_MLA = dict.fromkeys(("deepseek_v2", "deepseek_v3", "kimi_k2"),
                     "transformers/models/deepseek_v3/modeling_deepseek_v3.py:408-414")
_MLA["glm4_moe_lite"] = "transformers/models/glm4_moe_lite/modeling_glm4_moe_lite.py:273-278"
_GEMMA_SCALAR = ("gemma2", "gemma3", "gemma3_text")
#: The positions at which a position-dependent query scaling is tabulated (multiples of its period are added).
_PROBES = (0, 1)


@dataclasses.dataclass(frozen=True)
class SoftmaxRule:
    """A family's softmax rule for one layer: `scale` (the factor on q·k), `multiplier` (its part beyond 1/√d),
    `words`, `source` (file:line), `query_scaling` (None, or `{"words", "source", "parameters", "factors"}` with
    the factor on q at probe positions)."""

    scale: mpmath.mpf
    multiplier: mpmath.mpf
    words: str
    source: str
    query_scaling: dict[str, Any] | None = None


def yarn_mscale(factor: float, mscale: float = 1.0) -> mpmath.mpf:
    """g(s, m) = 0.1·m·ln s + 1, and 1 for s ≤ 1 (YaRN §3.4; DeepSeek's `yarn_get_mscale`)."""
    if factor <= 1:
        return mpmath.mpf(1)
    return mpmath.mpf("0.1") * mpmath.mpf(mscale) * mpmath.log(mpmath.mpf(factor)) + 1


def query_scale(kind: str, position: int, parameters: dict[str, float]) -> mpmath.mpf:
    """The factor on q at `position` of a position-dependent query scaling (`kind`: "llama4" or "ministral3")."""
    if kind == "llama4":
        steps = mpmath.floor(mpmath.mpf(position + 1) / parameters["floor_scale"])
        return 1 + mpmath.mpf(parameters["attn_scale"]) * mpmath.log(1 + steps)
    steps = mpmath.floor(mpmath.mpf(position) / parameters["original_max_position_embeddings"])
    return 1 + mpmath.mpf(parameters["llama_4_scaling_beta"]) * mpmath.log(1 + steps)


def _query_scaling(kind: str, words: str, source: str, parameters: dict[str, float]) -> dict[str, Any]:
    period = int(parameters["floor_scale"] if kind == "llama4" else parameters["original_max_position_embeddings"])
    offset = 1 if kind == "llama4" else 0  # Llama 4 counts p + 1
    positions = sorted({*_PROBES, period - offset - 1, period - offset, 2 * period - offset, 4 * period - offset})
    factors = {str(p): float(query_scale(kind, p, parameters)) for p in positions if p >= 0}
    return {"words": words, "source": source, "parameters": parameters, "factors": factors}


def softmax_rule(
    model_type: str, rope_type: str, parameters: dict[str, Any], head_dim: int, qk_head_dim: int,
    attention: dict[str, Any], factor: float | None,
) -> SoftmaxRule:
    """The family's softmax rule for a layer (see the module docstring).

    **Arguments:** `model_type`, `rope_type` (the layer's; "none" for NoPE), `parameters` (its rope parameters),
    `head_dim`, `qk_head_dim` (the q·k width), `attention` (the text config's keys that bear on attention:
    `query_pre_attn_scalar`, `attn_temperature_tuning`, `floor_scale`, `attn_scale`, and the top-level rope
    parameters' `llama_4_scaling_beta` / `original_max_position_embeddings`), `factor` (the rope factor s).

    **Returns:** the `SoftmaxRule`.
    """
    one = mpmath.mpf(1)
    if model_type in _MLA:
        base = 1 / mpmath.sqrt(qk_head_dim)
        all_dim = parameters.get("mscale_all_dim")
        multiplier = one
        if rope_type not in ("default", "none") and all_dim:
            multiplier = yarn_mscale(float(factor or 1.0), all_dim) ** 2
        return SoftmaxRule(base * multiplier, multiplier,
                           "MLA: 1/√(qk_nope + qk_rope head dims) × g(s, mscale_all_dim)²", _MLA[model_type])
    if model_type in _GEMMA_SCALAR and attention.get("query_pre_attn_scalar") is not None:
        scalar = mpmath.mpf(attention["query_pre_attn_scalar"])
        return SoftmaxRule(1 / mpmath.sqrt(scalar), one, "Gemma: 1/√query_pre_attn_scalar",
                           "transformers/models/gemma3/modeling_gemma3.py:323")
    if model_type in ("gemma3n", "gemma3n_text"):
        return SoftmaxRule(one, one, "Gemma 3n: 1 (q and k are RMS-normalised)",
                           "transformers/models/gemma3n/modeling_gemma3n.py:1180")
    base = 1 / mpmath.sqrt(head_dim)
    if model_type in ("llama4", "llama4_text"):
        scaling = None
        if rope_type == "none" and attention.get("attn_temperature_tuning", True):
            scaling = _query_scaling(
                "llama4", "q × (1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋)) on NoPE layers",
                "transformers/models/llama4/modeling_llama4.py:380-384",
                {"floor_scale": float(attention.get("floor_scale", 8192)),
                 "attn_scale": float(attention.get("attn_scale", 0.1))})
        return SoftmaxRule(base, one, "Llama 4: 1/√head_dim", "transformers/models/llama4/modeling_llama4.py:332",
                           scaling)
    if model_type == "ministral3":
        scaling = None
        beta = attention.get("llama_4_scaling_beta")
        original = attention.get("original_max_position_embeddings")
        if beta is not None and original:
            scaling = _query_scaling(
                "ministral3", "q × (1 + β·ln(1 + ⌊p/L₀⌋)), β = llama_4_scaling_beta",
                "transformers/models/ministral3/modeling_ministral3.py:105-107,146-149",
                {"llama_4_scaling_beta": float(beta), "original_max_position_embeddings": float(original)})
        return SoftmaxRule(base, one, "Ministral 3: 1/√head_dim",
                           "transformers/models/ministral3/modeling_ministral3.py:120", scaling)
    return SoftmaxRule(base, one, "1/√head_dim", "transformers/models/llama/modeling_llama.py:234")
