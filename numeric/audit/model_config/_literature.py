"""What the context-extension literature's claims imply for one config (ISSUE #33 item 5): findings about the
config, not about any engine ("the config implies X" is not "the engine is wrong"). Each line cites the ledger claim
it applies; the formulas are `ropecheck.proofs.claims._scaling_formulas`, evaluated in float64.

- CRITICAL-DIMENSION-LIU: Liu et al.'s d_extra = 2⌈i_c(1)⌉ at L₀, and the pairs whose wavelength exceeds L₀.
- YARN-RAMP-CODE: the code's band (lo, hi: kept / ramped / interpolated pairs) and the largest paper-vs-code
  difference of γ over the pairs.
- LLAMA3-IS-BY-PARTS: the llama3 band (pairs kept, blended, divided by s).
- LONGROPE-ATTENTION-SCALE: the factor lists against the paper's constraints and √(1 + ln s/ln L₀).
- MROPE-TEXT-REDUCES: Σ mrope_section against d/2.
- DEEPSEEK-V3-MSCALE / YARN-TEMPERATURE: the logit multipliers on the rotated and unrotated parts.
- ALIBI-SLOPES-GENERAL: whether the paper's and the reference code's slopes agree for the head count.
- MEN-TABLE2-D128: Men et al.'s criterion B_m = Σᵢ cos(m θ′ᵢ) ≥ 0 on the effective spectrum (after the config's
  scaling, at the longest regime) for every integer m ≤ max_position_embeddings; the first m where it fails.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from ._parse import ModelConfig, RopeLayer

__all__ = ["literature_lines", "literature_markdown"]


@functools.lru_cache(maxsize=64)
def _compiled(expr: sp.Expr) -> tuple[list[sp.Symbol], Callable[..., float]]:
    """`expr` as a Python function of its free symbols (sorted by name), built once per expression: YaRN's ratio is
    evaluated at every pair, and `lambdify` writes and compiles a function each time it is called (issue #32)."""
    symbols = sorted(expr.free_symbols, key=lambda x: x.name)
    return symbols, sp.lambdify(symbols, expr, modules="math")


def _value(expr: sp.Expr, inputs: dict[sp.Symbol, float]) -> float:
    """The ledger's formula at one point, in float64 (Python's floats and `math`: a handful of scalars per config
    need no array library, and importing JAX for them was 2 of `audit-config`'s CPU-seconds, issue #32)."""
    symbols, function = _compiled(expr)
    return float(function(*(float(inputs[x]) for x in symbols)))


def _line(claim: str, text: str, **values: Any) -> dict[str, Any]:
    return {"claim": claim, "text": text, "values": values}


def _critical(layer: RopeLayer, f: Any, pairs: int, length: int) -> dict[str, Any]:
    index = _value(f.correction_dim(sp.Integer(1)), {f.half: pairs, f.base: layer.base, f.length: length})
    d_extra = 2 * math.ceil(index)
    beyond = pairs - min(pairs, max(0, math.ceil(index)))
    shown = f"{min(d_extra, 2 * pairs)}" + (
        f" (Liu et al.'s formula: {d_extra}, beyond d)" if d_extra > 2 * pairs else ""
    )
    return _line(
        "CRITICAL-DIMENSION-LIU",
        f"critical dimension d_extra = {shown} of d = {2 * pairs} at L₀ = {length}: {beyond} of {pairs} pairs have "
        "wavelengths beyond L₀ (they never completed a turn in training)",
        d_extra=d_extra,
        pairs_beyond=beyond,
        critical_index=index,
    )


def _yarn(layer: RopeLayer, f: Any, pairs: int, length: int) -> dict[str, Any]:
    fast, slow = layer.yarn_betas
    edges = {f.half: pairs, f.base: layer.base, f.length: length}
    low = max(0, math.floor(_value(f.correction_dim(sp.Float(fast)), edges)))
    high = min(2 * pairs - 1, math.ceil(_value(f.correction_dim(sp.Float(slow)), edges)))
    index = np.arange(pairs, dtype=np.float64)
    ratio = np.array([_value(f.wavelength_ratio(), {**edges, f.pair: float(i)}) for i in index])
    if fast != slow:
        paper = np.clip((ratio - slow) / (fast - slow), 0, 1)
    else:  # α = β (Kimi K2 as released: beta_fast = beta_slow = 1): the paper's γ(r) is a step at r = β
        paper = (ratio > slow).astype(np.float64)
    code = 1 - np.clip((index - low) / max(high - low, 1e-3), 0, 1)
    worst = int(np.argmax(np.abs(paper - code)))
    kept, interpolated = min(low, pairs), max(0, pairs - min(high, pairs))
    return _line(
        "YARN-RAMP-CODE",
        f"YaRN band (code: floor/ceil of i_c at β = {fast:g}, {slow:g}): pairs 0…{low - 1} kept, {low}…{high - 1} "
        f"ramped, {high}…{pairs - 1} interpolated; the paper's γ(r) differs from the code's ramp by up to "
        f"{abs(paper[worst] - code[worst]):.3f} (pair {worst})",
        low=low,
        high=high,
        kept=kept,
        interpolated=interpolated,
        largest_difference=float(abs(paper[worst] - code[worst])),
        at_pair=worst,
    )


def _llama3(layer: RopeLayer, pairs: int, length: int) -> dict[str, Any]:
    low_factor = float(layer.parameters.get("low_freq_factor", 1.0))
    high_factor = float(layer.parameters.get("high_freq_factor", 4.0))
    wavelengths = 2 * math.pi * layer.base ** (np.arange(pairs) / pairs)
    kept = int(np.sum(wavelengths < length / high_factor))
    divided = int(np.sum(wavelengths > length / low_factor))
    return _line(
        "LLAMA3-IS-BY-PARTS",
        f"llama3 band (YaRN's paper ramp with α = {low_factor:g}, β = {high_factor:g}): {kept} pairs kept, "
        f"{pairs - kept - divided} blended, {divided} divided by s = {layer.factor:g}",
        kept=kept,
        blended=pairs - kept - divided,
        divided=divided,
    )


def _longrope(layer: RopeLayer, f: Any, pairs: int, length: int) -> list[dict[str, Any]]:
    scale = layer.max_position_embeddings / length
    lines = []
    for name in ("short_factor", "long_factor"):
        factors = [float(x) for x in layer.parameters.get(name) or []]
        monotone = all(a <= b for a, b in itertools.pairwise(factors))
        inside = all(1.0 <= x <= 1.25 * scale for x in factors)
        lines.append(
            _line(
                "LONGROPE-ATTENTION-SCALE",
                f"LongRoPE {name}: {len(factors)} factors for {pairs} pairs, "
                f"{'non-decreasing' if monotone else 'not monotone'}, "
                f"{'within' if inside else 'outside'} the paper's search space [1, 1.25·s] (s = M/L₀ = {scale:g})",
                length_ok=len(factors) == pairs,
                monotone=monotone,
                within_search_space=inside,
            )
        )
    factor = _value(f.longrope_factor(), {f.s: scale, f.length: length}) if scale > 1 else 1.0
    lines.append(
        _line("LONGROPE-ATTENTION-SCALE", f"LongRoPE attention factor √(1 + ln s/ln L₀) = {factor:.6f}", factor=factor)
    )
    return lines


def first_negative_base_criterion(inv_freq: np.ndarray, limit: int, chunk: int = 8192) -> int | None:
    """The first integer m in [0, limit] with Σᵢ cos(m θᵢ) < 0 (Men et al.'s B_{m,θ}), None if there is none.

    **Arguments:** `inv_freq`: the θᵢ (float64); `limit`: the last position checked. **Returns:** m or None.
    """
    for start in range(0, limit + 1, chunk):
        positions = np.arange(start, min(limit, start + chunk - 1) + 1, dtype=np.float64)
        negative = np.flatnonzero(np.cos(np.outer(positions, inv_freq)).sum(axis=1) < 0)
        if negative.size:
            return int(positions[negative[0]])
    return None


def _base_criterion(layer: RopeLayer) -> dict[str, Any] | None:
    from ._expected import expected_values

    entries = [e for e in expected_values(layer) if e.inv_freq]
    if not entries:
        return None
    inv_freq = np.asarray(entries[-1].inv_freq, dtype=np.float64)
    limit = layer.max_position_embeddings
    first = first_negative_base_criterion(inv_freq, limit)
    head = f"Men et al.'s base criterion on the effective spectrum ({len(inv_freq)} pairs)"
    text = (
        f"{head}: B_m = Σcos(mθ′ᵢ) ≥ 0 at every integer m ≤ {limit}"
        if first is None
        else f"{head} fails first at m = {first} < M = {limit} (B_m < 0)"
    )
    return _line("MEN-TABLE2-D128", text, first_negative=first, limit=limit)


def literature_lines(model: ModelConfig) -> list[dict[str, Any]]:
    """The literature's per-config lines for every layer type of `model`.

    **Arguments:** `model`: the parsed config.

    **Returns:** `[{"layer", "claim", "text", "values"}]`, one entry per line, each citing its claim ID.
    """
    from ropecheck.proofs.claims import _scaling_formulas as f

    out: list[dict[str, Any]] = []
    for layer in model.layers:
        pairs = layer.rotary_dim // 2
        length = layer.original or layer.max_position_embeddings
        lines = [_critical(layer, f, pairs, length)] if pairs >= 2 and layer.base > 1 else []
        criterion = _base_criterion(layer) if pairs >= 1 and layer.max_position_embeddings else None
        lines += [criterion] if criterion else []
        if layer.rope_type == "yarn" and layer.factor:
            lines.append(_yarn(layer, f, pairs, length))
            ms, msa = layer.parameters.get("mscale"), layer.parameters.get("mscale_all_dim")
            if ms is not None and msa is not None:
                rotated = _value(f.mscale() ** 2, {f.s: layer.factor, f.mu: float(ms)})
                unrotated = _value(f.mscale() ** 2, {f.s: layer.factor, f.mu: float(msa)})
                lines.append(
                    _line(
                        "DEEPSEEK-V3-MSCALE",
                        f"logit multipliers: rotated part g(s, mscale)² = {rotated:.6f}, unrotated part "
                        f"g(s, mscale_all_dim)² = {unrotated:.6f}"
                        + (" (one factor)" if ms == msa else " (they differ)"),
                        rotated=rotated,
                        unrotated=unrotated,
                    )
                )
            else:
                multiplier = _value(f.mscale() ** 2, {f.s: layer.factor, f.mu: 1.0})
                lines.append(
                    _line(
                        "YARN-TEMPERATURE",
                        f"YaRN's √(1/t) = 0.1 ln s + 1 scales every logit by {multiplier:.6f} (s = {layer.factor:g})",
                        multiplier=multiplier,
                    )
                )
        if layer.rope_type == "llama3" and layer.factor:
            lines.append(_llama3(layer, pairs, length))
        if layer.rope_type == "longrope":
            lines += _longrope(layer, f, pairs, length)
        if layer.mrope_section:
            total = sum(layer.mrope_section)
            lines.append(
                _line(
                    "MROPE-TEXT-REDUCES",
                    f"M-RoPE sections {list(layer.mrope_section)} sum to {total}; d/2 = {pairs}: "
                    + (
                        "every pair belongs to one section" if total == pairs else "the sections do not cover the pairs"
                    ),
                    section_sum=total,
                    pairs=pairs,
                )
            )
        out += [{"layer": layer.layer_type, **line} for line in lines if line["text"] not in {o["text"] for o in out}]
    heads = model.text.get("num_attention_heads") or model.text.get("n_head")
    if heads and (model.text.get("alibi") or model.text.get("position_embedding_type") == "alibi"):
        power = heads & (heads - 1) == 0
        out.append(
            {
                "layer": "all",
                **_line(
                    "ALIBI-SLOPES-GENERAL",
                    f"ALiBi with {heads} heads: the paper's 2^(−8h/n) and the reference get_slopes "
                    + ("agree (a power of 2)" if power else "differ (not a power of 2)"),
                    heads=heads,
                    agree=power,
                ),
            }
        )
    return out


def literature_markdown(model: ModelConfig) -> str:
    """The lines of `literature_lines` as a Markdown list under the config's path (for `audit-config --markdown`)."""
    return f"\n{model.path}:\n" + "".join(f"- {x['claim']}: {x['text']}\n" for x in literature_lines(model))
