"""Pairing: which coordinates mix — one 2×2 rotation per pair, the rest passed through (partial rotary)."""

from __future__ import annotations

import numpy as np
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    Structure,
)
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    half_pairs,
    interleaved_pairs,
    layout_name,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "pairing"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-COMPLEX-IS-ROTATION")


def check_pairing(ctx: AuditContext, structure: Structure) -> Ideal:
    """Compare the detected pairing (`extract.mixing_support`) with what is declared; build the ideal from it.

    Partial rotary in both placements: the first r coordinates (half-split or interleaved among them, θ from r)
    or p-RoPE's (i, i + d/2) for i < r/2 with θᵢ = base^(−2i/d) (`--partial p-rope`).

    **Returns:**

    The `Ideal` every later property is judged against (the detected structure when it is one).
    """
    options = ctx.options
    problems = list(structure.problems) + ([ctx.output_order_problem] if ctx.output_order_problem else [])
    fix = "make each position apply one 2×2 rotation per pair of coordinates, and nothing else"
    found = structure.layout
    if structure.rotary_dim == 0 and not problems:
        if structure.unchanged:
            problems.append("no coordinates mix at any position: nothing is rotated")
            fix = "apply the rotation (the target returns x unrotated)"
        else:
            problems.append(
                "no coordinates mix at any position, yet x is not returned unchanged: each coordinate is scaled by a"
                " position-dependent factor (a rotation without its sine term?)"
            )
            fix = "add the sine term: out = x·cos + rotate_half(x)·sin (each pair a 2×2 rotation)"
    compatible = {options.layout, "none"} | ({"p-rope"} if options.layout == "half" else set())
    if ctx.output_order_problem:
        fix = "write the output as declared, or leave --output-layout out to have the order detected"
    if options.layout and found not in compatible and not structure.problems:
        problems.append(f"declared layout {layout_name(options.layout)}, found {layout_name(found)}")
        fix = f"pair coordinates as {layout_name(options.layout)}, or declare --layout {found} if that is intended"
    if options.rotary_dim and structure.rotary_dim and structure.rotary_dim != options.rotary_dim:
        problems.append(f"declared rotary dimension {options.rotary_dim}, found {structure.rotary_dim}")
        fix = f"rotate {options.rotary_dim} coordinates, or declare --rotary-dim {structure.rotary_dim}"
    if options.partial and structure.passthrough.size and not structure.problems:
        placement = "p-rope" if found == "p-rope" else "first"
        if placement != options.partial:
            problems.append(f"declared partial rotary placement {options.partial}, found {placement}")
            fix = f"declare --partial {placement} if that is intended"
    usable_structure = not structure.problems and structure.rotary_dim > 0
    frequency_dim = None
    if usable_structure:
        pairs, passthrough = structure.pairs, structure.passthrough
        if found == "p-rope":
            frequency_dim = ctx.d
    else:
        rotary = options.rotary_dim or ctx.d
        if options.partial == "p-rope" and rotary < ctx.d:
            index = np.arange(rotary // 2)
            pairs = np.stack([index, index + ctx.d // 2], axis=1)
            passthrough = np.setdiff1d(np.arange(ctx.d), pairs.reshape(-1))
            frequency_dim = ctx.d
        else:
            pairs = (interleaved_pairs if options.layout == "interleaved" else half_pairs)(rotary)
            passthrough = np.arange(rotary, ctx.d)
    if not problems:
        parts = f"{structure.rotary_dim // 2} pairs, {layout_name(found)}"
        if structure.passthrough.size:
            parts += f", {structure.passthrough.size} coordinates passed through (partial rotary)"
        detail = f"Each position applies one 2×2 rotation per pair: {parts}."
        if ctx.output_order_text:
            detail += f" {ctx.output_order_text[0].upper()}{ctx.output_order_text[1:]}."
    else:
        detail = "; ".join(problems) + "."
        if not usable_structure:
            detail += f" Later checks assume the {layout_name(options.layout or 'half')} pairing."
    ctx.add("pairing", not problems, detail[0].upper() + detail[1:], fix=fix)
    return Ideal(
        ctx.d,
        pairs,
        passthrough,
        options.base or 10000.0,
        options.scaling,
        ctx.theta_units,
        frequency_dim=frequency_dim,
    )
