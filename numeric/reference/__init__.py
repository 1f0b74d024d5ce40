"""The reference arithmetic and the tolerance model.

- `inverse_frequencies`, `angles_mod_2pi`, `reference_cos_sin`, `DoubleDouble`: the fast high-precision reference
  for RoPE angles p·θ mod 2π (double-double arithmetic on NumPy float64), with its contract (ranges of θ and p
  where the 1e−25 guarantee holds) in `ropecheck.numeric.reference._angles`.
- `mpmath_angles_mod_2pi`, `max_angle_error`: the slow mpmath reference and the circle distance used to validate it.
- `worst_case_relative_error`: the worst case over unit q, k of the relative-identity error of computed angles —
  the one definition of a certified context shared by the precision limits and the audit.
- `tolerances`: the error model (formats, γₙ, the underflow term, library accuracy from one measured table,
  RoPE bounds, node rules for the mirrors); `library_accuracy`: that table and the command that measures it.
- `gappa/`: Gappa proofs of the angle-formation and rotation bounds per dtype (`run_gappa_proofs`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import library_accuracy, tolerances
    from ._angles import (
        DoubleDouble,
        angles_mod_2pi,
        inverse_frequencies,
        max_angle_error,
        mpmath_angles_mod_2pi,
        reference_cos_sin,
    )
    from ._worst_case import worst_case_relative_error

# Names load on first use: `from ropecheck.numeric.reference.tolerances import …` (the tolerance model, which
# `audit-config` and `audit-attention` need) then imports neither the double-double reference nor ml_dtypes
# (issue #32: each command ≤ 10 CPU-s).
_LAZY = {
    "DoubleDouble": "._angles",
    "angles_mod_2pi": "._angles",
    "inverse_frequencies": "._angles",
    "max_angle_error": "._angles",
    "mpmath_angles_mod_2pi": "._angles",
    "reference_cos_sin": "._angles",
    "worst_case_relative_error": "._worst_case",
    "library_accuracy": None,
    "tolerances": None,
}

__all__ = [
    "DoubleDouble",
    "angles_mod_2pi",
    "inverse_frequencies",
    "library_accuracy",
    "max_angle_error",
    "mpmath_angles_mod_2pi",
    "reference_cos_sin",
    "tolerances",
    "worst_case_relative_error",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name = _LAZY[name]
    if module_name is None:
        return import_module(f".{name}", __name__)
    return getattr(import_module(module_name, __name__), name)
