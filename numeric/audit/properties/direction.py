"""Direction: the sign of the sine term — counter-clockwise (x₁cos − x₂sin, x₁sin + x₂cos) as RoFormer."""

from __future__ import annotations

from numeric.audit.context import AuditContext
from numeric.audit.extract import (
    Structure,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "direction"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-QK-RELATIVE")


def check_direction(ctx: AuditContext, structure: Structure) -> None:
    ok = structure.direction == "counter-clockwise"
    if ok:
        detail = "Counter-clockwise (x₁cos − x₂sin, x₁sin + x₂cos), as RoFormer and every major library."
    elif structure.direction == "unknown":
        detail = "Direction could not be read: no pair shows a sine term at position 1."
    else:
        detail = (
            f"The rotation is {structure.direction}: the sine term has the opposite sign of RoFormer's "
            "(x₁cos + x₂sin, −x₁sin + x₂cos); scores then depend on m − n instead of n − m."
        )
    ctx.add("direction", ok, detail)
