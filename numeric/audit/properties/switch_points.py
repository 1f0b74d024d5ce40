"""Switch points of length-dependent scalings (dynamic NTK, LongRoPE): calls whose largest position is N − 1, N and
N + 1 (N the original context length) against the scaling's rule for that call.

A sweep in chunks almost never ends a call exactly at the switch, so an off-by-one there (vLLM's older Phi-3
LongRoPE rotated token N as position 0 in any call whose largest position is exactly N) passes every other
property. The finding is recorded under `positions` (the positions of such a call are not rotated as the rule
says); when the rows match the rule of the other side of the switch, it says the switch is off by one and in which
direction. Serves ROPE-FREQUENCIES and ROPE-KV-CACHE-REUSE (through `positions`).
"""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit._numerics import reference_cos_sin
from ropecheck.numeric.audit.function.attribution import RULE_PREFIX, SWITCH_PREFIX
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import sweep_probes
from ropecheck.numeric.audit.function.ideal import Ideal, bound_ratio, round_to, structure_of
from ropecheck.numeric.audit.function.scaling import _DEFAULT_ORIGINAL

__all__ = ["check_switch_points", "switch_lengths"]


def switch_lengths(ideal: Ideal, n: int) -> tuple[int, list[int]]:
    """(N, the largest positions N − 1, N, N + 1 of the switch probes below n), or (0, []) for a scaling that does
    not depend on the call."""
    scaling = ideal.scaling
    if scaling is None or not scaling.depends_on_call:
        return 0, []
    original = scaling.original or _DEFAULT_ORIGINAL[scaling.kind]
    return original, [last for last in (original - 1, original, original + 1) if 0 < last < n]


def _expected(ideal: Ideal, x: np.ndarray, positions: np.ndarray, sequence_length: int) -> np.ndarray:
    """g·R(m)x with θ of a call of `sequence_length` positions (the rule of either side of the switch)."""
    frequencies = ideal.inverse_frequencies(np.array([sequence_length - 1 - ideal.offset]))
    cosine, sine = reference_cos_sin(positions + ideal.offset, frequencies)
    sine = ideal.sign * sine
    g, a, b = ideal.attention_factor, ideal.pairs[:, 0], ideal.pairs[:, 1]
    out = x.copy()
    out[..., a] = g * (x[..., a] * cosine - x[..., b] * sine)
    out[..., b] = g * (x[..., a] * sine + x[..., b] * cosine)
    return out


def _expected_rescaled(ideal: Ideal, x: np.ndarray, positions: np.ndarray, sequence_length: int,
                       factor: float) -> np.ndarray:
    """g·R(m/F)x with θ of a call of `sequence_length` positions: positions divided by the factor (float64 is
    ample: the comparison is at the audited dtype's bound)."""
    frequencies = ideal.inverse_frequencies(np.array([sequence_length - 1 - ideal.offset]))
    theta = np.asarray(frequencies.hi, dtype=np.float64) + np.asarray(frequencies.lo, dtype=np.float64)
    angles = (positions[:, None] + ideal.offset) / factor * theta[None, :]
    cosine, sine = np.cos(angles), ideal.sign * np.sin(angles)
    g, a, b = ideal.attention_factor, ideal.pairs[:, 0], ideal.pairs[:, 1]
    out = x.copy()
    out[..., a] = g * (x[..., a] * cosine - x[..., b] * sine)
    out[..., b] = g * (x[..., a] * sine + x[..., b] * cosine)
    return out


def check_switch_points(ctx: AuditContext, ideal: Ideal, dtype: str) -> None:
    """Calls 0…L for L = N − 1, N, N + 1 against the rule for each call (a `positions` finding)."""
    original, lengths = switch_lengths(ideal, ctx.finite_n(dtype))
    if not lengths:
        return
    probes, _ = sweep_probes(ctx.d, structure_of(ideal))
    problems, worst, failing = [], (0.0, 0.0, 0.0), 0
    factor = float(ideal.scaling.factor) if ideal.scaling and ideal.scaling.factor > 1 else 0.0
    rescaled = bool(factor)  # every call follows the rule at positions divided by the factor
    for last in lengths:
        positions = np.arange(last + 1)
        x = round_to(np.broadcast_to(probes[:2, np.newaxis, :], (2, positions.size, ctx.d)), dtype)
        y = ctx.call(dtype, np.ascontiguousarray(x), positions, "positions")
        if y is None:
            return
        _, bound = ideal.expected(x, positions, dtype)
        own_error = np.abs(y - _expected(ideal, x, positions, last + 1))
        other_side = original if last + 1 > original else original + 1
        other_error = np.abs(y - _expected(ideal, x, positions, other_side))
        ratio = bound_ratio(own_error, bound)
        if rescaled:
            rescaled_error = np.abs(y - _expected_rescaled(ideal, x, positions, last + 1, factor))
            rescaled = bool(bound_ratio(rescaled_error, bound).max() <= 1)
        if ratio.max() > worst[0]:
            worst = (float(ratio.max()), float(own_error.max()), float(bound.max()))
        rows = np.flatnonzero(ratio.max(axis=(0, 2)) > 1)
        # Measured, whatever precision class the bound is taken at: a call clearly closer to the other side's
        # rule than to its own took the wrong side of the switch.
        follows_other = bool(other_error.max() * 4 < own_error.max())
        if not rows.size and not follows_other:
            continue
        failing += 1
        side, other = ("long", "short") if last + 1 > original else ("short", "long")
        text = f"a call whose largest position is {last} is not rotated by the {side}-context rule"
        other_rows = bound_ratio(other_error, bound).max(axis=(0, 2)) <= 1
        if follows_other or other_rows.all():
            text += f" but by the {other}-context rule: the switch is off by one"
        elif other_rows[:-1].all():
            text += f": positions 0…{last - 1} follow the {other}-context rule"
        as_zero = [
            int(row)
            for row in rows
            if row and bound_ratio(np.abs(y[:, row] - ideal.attention_factor * x[:, row]), bound[:, row]).max() <= 1
        ]
        if as_zero:
            text += f"; position {as_zero[0]} is rotated as position 0"
        problems.append(text)
    kind = ideal.scaling.kind if ideal.scaling else ""
    rule = f"{kind} switches when the call's largest position + 1 exceeds N = {original}"
    ok = not problems
    fix = (f"switch to the long-context factors exactly when max(position) + 1 > {original} (e.g. compare"
           f" positions >= {original}, not > {original})")
    short, long = [last for last in lengths if last + 1 <= original], [last for last in lengths if last + 1 > original]
    if ok:
        detail = f"Calls whose largest position is {', '.join(map(str, lengths))} follow the scaling's rule ({rule})."
    elif failing == len(lengths) and short and long and rescaled:
        # Both sides follow the rule once positions are divided by F: the linear rule's step on top of the rule.
        detail = (f"{RULE_PREFIX} a {kind} rule that rescales positions — calls whose largest position is"
                  f" {', '.join(map(str, lengths))} are rotated by the {kind} rule's frequencies for their length at"
                  f" positions divided by the factor {factor:g} (p/{factor:g}, the linear rule's step), on both sides"
                  f" of N = {original}, so the defect is the rule, not where it switches ({rule}).")
        fix = (f"leave the positions unscaled under {kind}: it changes θ alone (past N, the base"
               f" base·(F·L/N − (F − 1))^(d/(d−2)) for dynamic NTK); dividing positions by F is the linear rule"
               " (text-generation-inference's b5087c4f removed `t /= self.scaling_factor` from its dynamic class)")
    elif failing == len(lengths) and short and long and not any("off by one" in text for text in problems):
        # No side passes: moving the switch would not help; the rule itself is another one.
        detail = (f"{RULE_PREFIX} calls whose largest position is {', '.join(map(str, lengths))} follow neither"
                  f" the short- nor the long-context rule of {kind}, so the defect is the rule, not where it switches"
                  f" ({rule}).")
        fix = (f"implement the declared {kind} rule on both sides of N = {original}, or declare the scaling the"
               " target implements (a fixed NTK base is --base base·F^(d/(d−2)), not dynamic)")
    else:
        detail = f"{SWITCH_PREFIX} {'; '.join(problems)} ({rule})."
    ctx.add(
        "positions",
        ok,
        detail,
        fix=fix,
        dtype=dtype,
        max_error=worst[1],
        bound=worst[2],
    )
