"""Direction: the sign of the sine term — counter-clockwise (x₁cos − x₂sin, x₁sin + x₂cos) as RoFormer, or the
clockwise convention when declared (`--direction clockwise`: equivalent up to the sign of W_k, so a model trained
with it is consistent; the audit then holds the target to the clockwise rotation).

Root cause: a direction that differs from the declared one is one failing finding; the ideal then takes the
detected direction, so spectrum, precision and relative are judged against it and do not fail again.
"""

from __future__ import annotations

import dataclasses

from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import Structure
from ropecheck.numeric.audit.function.ideal import Ideal

__all__ = ["CLAIMS", "NAME", "check_direction"]

NAME = "direction"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-QK-RELATIVE")

_FORMULA = {
    "counter-clockwise": "(x₁cos − x₂sin, x₁sin + x₂cos)",
    "clockwise": "(x₁cos + x₂sin, −x₁sin + x₂cos)",
}


def check_direction(ctx: AuditContext, structure: Structure, ideal: Ideal) -> Ideal:
    """Compare the detected direction with the declared one; return the ideal with the detected direction.

    **Arguments:**

    - `ctx`: the audit.
    - `structure`: the detected structure (its `direction`).
    - `ideal`: the ideal so far.

    **Returns:**

    The ideal, with `sign` −1 when the target turns clockwise.
    """
    declared = ctx.options.direction
    found = structure.direction
    if found == declared:
        detail = f"{found.capitalize()} {_FORMULA[found]}" + (
            ", as RoFormer and every major library." if found == "counter-clockwise" else ", as declared."
        )
        ctx.add("direction", True, detail)
    elif found == "unknown":
        ctx.add("direction", True, "Direction could not be read: no pair shows a clear sine term at small positions.")
    elif found == "mixed":
        ctx.add(
            "direction",
            False,
            "Some pairs turn counter-clockwise and others clockwise: the sine term's sign differs between pairs.",
            fix="use one sign of the sine term for every pair",
        )
    else:
        ctx.add(
            "direction",
            False,
            f"The rotation is {found} {_FORMULA[found]}, declared {declared}: scores then depend on m − n instead"
            " of n − m.",
            fix=(
                "swap the sign of the sine term (rotate_half must return cat(−x₂, x₁)), or declare --direction"
                f" {found} if this convention is intended"
            ),
        )
    sign = -1.0 if found == "clockwise" else 1.0
    return dataclasses.replace(ideal, sign=sign)
