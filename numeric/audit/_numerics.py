"""The one place the audit imports the project's numerics: the high-precision reference and the tolerance model.

Everything the audit needs from `numeric.tolerances`, `numeric._reference` and `numeric._double_double` is
re-exported here, so a move of those modules changes one import block.
"""

from __future__ import annotations

from ropecheck.numeric.reference import DoubleDouble, reference_cos_sin, tolerances

__all__ = ["DoubleDouble", "reference_cos_sin", "tolerances"]
