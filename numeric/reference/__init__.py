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
