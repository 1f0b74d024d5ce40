"""The library allowances the error model charges per call, from the measured table of
`numeric.reference.library_accuracy` (the mirrors' node rules), and at least one ulp for the RoPE bounds that also
serve the audit of implementations whose libraries cannot be measured here."""

from __future__ import annotations

from . import library_accuracy

__all__ = ["IMPLEMENTATION_ERROR_UNITS", "implementation_units", "library_error_units", "trigonometric_units"]


def library_error_units(function: str, fmt: str) -> float:
    """The error of one library call, in units u, that the model allows: from the measured table of
    `ropecheck.numeric.reference.library_accuracy` (absolute for cos/sin, relative for sin on |x| ≤ 1, exp, log, sqrt).

    **Arguments:**

    - `function`: `cos`, `sin`, `sin_small`, `exp`, `log` or `sqrt`.
    - `fmt`: one of `DTYPES`, or `"mpmath"` (correct to its working precision: 1 unit).

    **Returns:**

    The allowance in units u.
    """
    if fmt == "mpmath":
        return 1.0
    return library_accuracy.allowed_units(function, fmt)


#: What a RoPE bound assumes of a library it cannot measure (an implementation under audit): within one ulp, i.e.
#: two units u near values of magnitude 1. The mirrors' node rules, which run on this backend, use the measured
#: table alone; the RoPE bounds (rotation, relative score, decay sums, softmax) use the larger of the two.
IMPLEMENTATION_ERROR_UNITS = 2.0


def implementation_units(function: str, dtype: str) -> float:
    """The allowance of a RoPE bound for one library call: max(measured on this backend, one ulp = 2 units).

    **Arguments:**

    - `function`: `cos/sin` or `exp`.
    - `dtype`: one of `DTYPES`.

    **Returns:**

    The allowance in units u.
    """
    measured = trigonometric_units(dtype) if function == "cos/sin" else library_error_units(function, dtype)
    return max(measured, IMPLEMENTATION_ERROR_UNITS)


def trigonometric_units(fmt: str) -> float:
    """The absolute error of one cos or sin in units u: the larger of the two measured allowances."""
    return max(library_error_units("cos", fmt), library_error_units("sin", fmt))
