"""Pairing: which coordinates mix — one 2×2 rotation per pair, the rest passed through (partial rotary)."""

from __future__ import annotations

import numpy as np

from numeric.audit.context import AuditContext
from numeric.audit.extract import (
    Structure,
)
from numeric.audit.ideal import (
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
    options = ctx.options
    problems = list(structure.problems)
    if structure.rotary_dim == 0 and not problems:
        problems.append("no coordinates mix at any position: nothing is rotated")
    if options.layout and structure.layout not in (options.layout, "none") and not structure.problems:
        problems.append(f"declared layout {layout_name(options.layout)}, found {layout_name(structure.layout)}")
    if options.rotary_dim and structure.rotary_dim and structure.rotary_dim != options.rotary_dim:
        problems.append(f"declared rotary dimension {options.rotary_dim}, found {structure.rotary_dim}")
    usable_structure = not structure.problems and structure.rotary_dim > 0
    if usable_structure:
        pairs, passthrough = structure.pairs, structure.passthrough
    else:
        rotary = options.rotary_dim or ctx.d
        pairs = (interleaved_pairs if options.layout == "interleaved" else half_pairs)(rotary)
        passthrough = np.arange(rotary, ctx.d)
    if not problems:
        parts = f"{structure.rotary_dim // 2} pairs, {layout_name(structure.layout)}"
        if structure.passthrough.size:
            parts += f", {structure.passthrough.size} coordinates passed through (partial rotary)"
        detail = f"Each position applies one 2×2 rotation per pair: {parts}."
    else:
        detail = "; ".join(problems) + "."
        if not usable_structure:
            detail += f" Later checks assume the {layout_name(options.layout or 'half')} pairing."
    ctx.add("pairing", not problems, detail[0].upper() + detail[1:])
    return Ideal(ctx.d, pairs, passthrough, options.base or 10000.0, options.scaling, ctx.theta_units)
