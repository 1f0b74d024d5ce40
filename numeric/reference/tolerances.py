"""Every tolerance in ropecheck, derived from one floating-point error model.

No other module may hold an ad-hoc tolerance constant: a check asks this module for the bound that fits the
computation it mirrors, and reports observed error, bound and their ratio (`Check`). A ratio far below 1 in every
case means the bound is loose for that computation; the reports say so rather than tightening by hand.

## The model

**Formats.** Each dtype rounds to nearest with unit roundoff u (half the spacing of the numbers just above 1):

| dtype | u | integers exact up to | largest finite |
| --- | --- | --- | --- |
| float16 | 2⁻¹¹ | 2048 | 65504 |
| bfloat16 | 2⁻⁸ | 256 | ≈ 3.39·10³⁸ |
| float32 | 2⁻²⁴ | 2²⁴ | ≈ 3.40·10³⁸ |
| float64 | 2⁻⁵³ | 2⁵³ | ≈ 1.80·10³⁰⁸ |

**One operation** (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §2.2):
fl(a ∘ b) = (a ∘ b)(1 + δ) + η with |δ| ≤ u and |η| ≤ `underflow_error(dtype)`. XLA on CPU flushes subnormal
inputs and results to zero in bfloat16, float32 and float64 (measured: `library_accuracy.flushes_subnormals`),
so there η is the smallest normal number and applies to every operation, additions and inputs included; float16
keeps gradual underflow (η = half the smallest subnormal). Results beyond the largest finite number overflow;
every bound then becomes `inf` (no claim is made).

**Chains of operations.** n roundings compound to at most γ_n = n·u/(1 − n·u) (Higham Lemma 3.1), so
recursive summation of n terms is off by at most γ_(n−1)·Σ|terms| and a dot product of length n by at most
γ_n·Σ|xᵢ·yᵢ| (Higham §3.1, any summation order). γ_n is infinite once n·u ≥ 1 (a bfloat16 sum of 256 terms
already carries no guarantee).

**Elementary functions.** Nothing is assumed: cos, sin, exp, log and sqrt are charged the error *measured* on
this backend per dtype against mpmath on hard arguments (`ropecheck.numeric.reference.library_accuracy`, one committed
table, re-measured by a test): absolute for cos and sin (values in [−1, 1]), relative for sin on |x| ≤ 1, exp,
log and sqrt (`library_error_units`). The RoPE bounds, which also serve the audit of implementations whose
libraries cannot be measured here, take the larger of that and one ulp (`implementation_units`).

**RoPE angles.** An angle formed in dtype T as fl(fl(m)·fl(θ)) is off by about u_T·|m·θ|: one rounding for
the product, one for θ itself, and one more for the position m once it exceeds T's exact-integer limit (2049
is already 2048 in float16). An angle error Δφ moves cos and sin by at most Δφ each, so a 2×2 rotation of a pair
(x₁, x₂) is off per coordinate by (|x₁| + |x₂|)·(Δφ + cos/sin error + cast of cos/sin to the data dtype), plus
the multiply-add, γ₂ in the data dtype.

**Ground truth.** mpmath at ≥ 50 digits, or the fast reference (`ropecheck.numeric.reference`) within
`REFERENCE_ANGLE_ABS_ERROR` of it; mpmath checks themselves use `mpmath_tolerance(dps)`, which follows the
working precision.
"""

from __future__ import annotations

from ._formats import (
    DTYPES,
    MPMATH_GUARD_DIGITS,
    REFERENCE_ANGLE_ABS_ERROR,
    REFERENCE_COS_SIN_ABS_ERROR,
    Check,
    dot_product_bound,
    exact_integer_limit,
    expression_bound,
    gamma,
    largest_finite,
    largest_integer_where,
    mpmath_tolerance,
    smallest_normal,
    summation_bound,
    trigonometric_error,
    underflow_error,
    unit_roundoff,
)
from ._library import (
    IMPLEMENTATION_ERROR_UNITS,
    implementation_units,
    library_error_units,
    trigonometric_units,
)
from ._model_bounds import reordered_logits_bound, rounded_angle_entry_error, rounded_angle_logits_bound
from ._node_rules import (
    FORMATS,
    MPMATH_DPS,
    add_error,
    exp_error,
    flush_error,
    format_gamma,
    format_unit_roundoff,
    input_error,
    modulus_error,
    mul_error,
    power_error,
    reciprocal_error,
    sine_error,
    sqrt_error,
    trig_error,
)
from ._rope_bounds import (
    angle_error_bound,
    angle_relative_error,
    largest_position_within,
    partial_sums_modulus_bound,
    relative_score_bound,
    rephased_score_bound,
    rotation_output_bound,
    softmax_row_bound,
)

__all__ = [
    "DTYPES",
    "FORMATS",
    "IMPLEMENTATION_ERROR_UNITS",
    "MPMATH_DPS",
    "MPMATH_GUARD_DIGITS",
    "REFERENCE_ANGLE_ABS_ERROR",
    "REFERENCE_COS_SIN_ABS_ERROR",
    "Check",
    "add_error",
    "angle_error_bound",
    "angle_relative_error",
    "dot_product_bound",
    "exact_integer_limit",
    "exp_error",
    "expression_bound",
    "flush_error",
    "format_gamma",
    "format_unit_roundoff",
    "gamma",
    "implementation_units",
    "input_error",
    "largest_finite",
    "largest_integer_where",
    "largest_position_within",
    "library_error_units",
    "modulus_error",
    "mpmath_tolerance",
    "mul_error",
    "partial_sums_modulus_bound",
    "power_error",
    "reciprocal_error",
    "relative_score_bound",
    "reordered_logits_bound",
    "rephased_score_bound",
    "rotation_output_bound",
    "rounded_angle_entry_error",
    "rounded_angle_logits_bound",
    "sine_error",
    "smallest_normal",
    "softmax_row_bound",
    "sqrt_error",
    "summation_bound",
    "trig_error",
    "trigonometric_error",
    "trigonometric_units",
    "underflow_error",
    "unit_roundoff",
]
