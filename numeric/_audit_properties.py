"""The audit's properties and the ledger claims each bears on (no imports: the pytest plugin loads this).

Stable names used in findings, JSON reports and pytest item names.
"""

from __future__ import annotations

__all__ = ["CLAIMS", "PROPERTIES"]

PROPERTIES = (
    "contract",
    "identity",
    "linearity",
    "norm",
    "pairing",
    "direction",
    "relative",
    "spectrum",
    "positions",
    "precision",
    "state",
)

#: The ledger claims each property bears on (a failure means the claim does not transfer to the target).
CLAIMS: dict[str, tuple[str, ...]] = {
    "contract": ("ROPE-KV-CACHE-REUSE",),
    "identity": ("ROPE-PAIR-FORMULA", "ROPE-RELATIVE-MATRIX"),
    "linearity": ("ROPE-PAIR-FORMULA", "ROPE-COMPLEX-IS-ROTATION"),
    "norm": ("ROPE-NORM-PRESERVING", "ROPE-COMPLEX-IS-ROTATION"),
    "pairing": ("ROPE-PAIR-FORMULA", "ROPE-COMPLEX-IS-ROTATION"),
    "direction": ("ROPE-PAIR-FORMULA", "ROPE-QK-RELATIVE"),
    "relative": (
        "ROPE-RELATIVE-MATRIX",
        "ROPE-QK-RELATIVE",
        "ROPE-KV-CACHE-REUSE",
        "ROPE-DOT-PROPERTY-003",
        "ROPE-SHIFT-INVARIANCE-003",
    ),
    "spectrum": ("ROPE-FREQUENCIES",),
    "positions": ("ROPE-KV-CACHE-REUSE", "ROPE-PREFIX-REPHASE"),
    "precision": ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA", "ROPE-RELATIVE-MATRIX"),
    "state": ("ROPE-KV-CACHE-REUSE",),
}
