"""The audit's properties: one module each (its check, its bound, its message, the claims it cites).

This package's `__init__` imports nothing heavy (the pytest plugin loads it): `PROPERTIES` are the stable names
used in findings, JSON reports and pytest item names; `claims_of(name)` and `CLAIMS` load the property modules.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["CLAIMS", "PROPERTIES", "claims_of"]

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


def claims_of(name: str) -> tuple[str, ...]:
    """The ledger claims property `name` bears on (its module's `CLAIMS`)."""
    return tuple(import_module(f"{__name__}.{name}").CLAIMS)


def __getattr__(name: str) -> Any:
    if name == "CLAIMS":
        return {prop: claims_of(prop) for prop in PROPERTIES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
