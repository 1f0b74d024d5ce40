"""The auditor's tolerance policy: which computations an implementation may use, and the bounds that follow.

Every number here is derived from `numeric.tolerances` (unit roundoff, γ_n, the rotation and angle bounds); this
module only decides *which* dtype each bound is taken in, and adds the few terms the auditor's own measurement
contributes. Serves ROPE-FREQUENCIES, ROPE-PAIR-FORMULA, ROPE-NORM-PRESERVING and ROPE-RELATIVE-MATRIX (the audit
transfers them to an implementation with these bounds).

## Tolerance policy of `ropecheck audit`

An implementation conforms in a dtype when every output coordinate it returns is within the bound below of the
exact rotation of the same (exactly held) input, at every position audited.

- **Positions and inverse frequencies θᵢ**: accepted held in float32 or wider (float64 for float64 outputs);
  rejected held in float16 or bfloat16.
- **The angle m·θᵢ, its cos and sin**: accepted formed in float32 for float32, float16 and bfloat16 outputs, in
  float64 for float64 outputs; rejected formed in a 16-bit type.
- **The rotation** x₁cos − x₂sin, x₁sin + x₂cos: accepted in the output dtype or wider.
- **The output**: rounded once to the input's dtype (another dtype is a contract failure).

This is what careful libraries do (angles in float32 under autocast, cos/sin cast to the activations' dtype at the
end). Concretely the bound per output coordinate of a pair (x₁, x₂) at position m is

    g·[ rotation_output_bound(|x₁| + |x₂|, m, θᵢ, dtype, angle_dtype)
        + (|x₁| + |x₂|)·(k_θ − 1)·u_angle·|m·θᵢ|
        + (|x₁| + |x₂|)·REFERENCE_COS_SIN_ABS_ERROR ]
    + (|x₁| + |x₂|)·g·u_angle                          (only when an attention factor g ≠ 1 is declared)

where `angle_dtype` is float64 for float64 outputs and float32 otherwise, `u_angle` its unit roundoff, and
k_θ = `frequency_error_units(base)` the relative error, in units u_angle, that computing θᵢ = base^(−2i/d)
in the angle dtype may carry: the exponent −2i/d is rounded (relative u), which `pow`/`exp` amplifies by
|ln θᵢ| ≤ ln(base) (plus ln of a scaling factor), plus about two units for `pow` itself, one for a reciprocal and
two for a scaling formula. The reference (`ropecheck.numeric._reference.reference_cos_sin`) is itself within
`REFERENCE_COS_SIN_ABS_ERROR` of the exact cos/sin, so that term is added rather than ignored.

- **θ by repeated multiplication in float32** (llama.cpp's ggml: θ₀ = p, θᵢ = θᵢ₋₁·s with s = base^(−2/d) from
  `powf`) is accepted as a float32 class of its own, named in the precision finding: pair i carries i roundings
  and s's relative error (1 + |ln s|)·u amplified i times, so k_θ grows by 2i + |ln(θᵢ/θ₀)| + 1 for pair i — about
  2× to 10× the `pow`-per-pair recipe's angle error at the slowest pair, orders of magnitude below a 16-bit class.
  The finding reports the observed error as a multiple of the `pow`-per-pair float32 bound.
- **Measured classes.** A deviation beyond the policy is named by the finest class whose bound holds the whole
  sweep; positions exact up to 256 and off from 257 on (the first integer bfloat16 cannot hold) are named
  bfloat16 even when the looser float16 class's bound would also hold them.
- **Non-finite outputs** are a `contract` failure of their own (first position, count), never explained by a
  precision class or a wrong θ; the other properties are judged on the positions before the first of them.
- **Output rounding** to the target dtype is accepted: `rotation_output_bound` already charges the cast of
  cos/sin and the multiply-add in the data dtype.
- **Forming the angle in a 16-bit type** (or rounding positions or θ to one) is rejected: its error is about
  u₁₆·|m·θ| against the float32 u₃₂·|m·θ| accepted here, so it exceeds the bound as soon as m·θ is large
  (position 2049 in float16 is already 2048).
- **Pass-through coordinates** (partial rotary) must come back as they went in, up to one rounding:
  u_dtype·|x|.
- **Structure.** An entry of the per-position matrix that the ideal rotation has at 0 must be within the
  per-entry bound (a basis probe, |x₁| + |x₂| = 1) of 0. A 2×2 block is a rotation (cos on the diagonal twice,
  ±sin off it) when the two diagonal entries agree, and the off-diagonal ones cancel, within twice that bound.
- **Norm.** With entries off by at most β, the columns of g·R(m) have |‖col‖² − g²| and |col₁·col₂| at most
  2√2·g·β + 2β² (`orthogonality_bound`).
- **Scores.** A rotated vector off by at most bᵢ per coordinate is off by E = ‖b‖₂ in the 2-norm; a score
  ⟨M̂(m)q, M̂(n)k⟩ is then within ‖q‖·g·E_k + E_q·g·‖k‖ + E_q·E_k of g²·qᵀR(n−m)k (`score_bound`, the
  auditor computes scores in float64, whose rounding is charged with `tolerances.dot_product_bound`).
- **Certified context.** From the measured per-position matrix error ε(m) = max over pairs of the Frobenius
  norm of M̂ᵢ(m) − g·Rᵢ(m) (a bound on the spectral norm, so on every unit q), ROPE-RELATIVE-MATRIX gives, for
  unit q, k at positions m, n ≤ M, |score error| ≤ E(M)·(2g + E(M)) + the score's own accumulation
  (`tolerances.dot_product_bound`, in float32 for float32-and-narrower, float64 for float64), with
  E(M) = max_(m ≤ M) ε(m). The certified context length at a budget B is the largest M audited with that
  bound ≤ B. The default budget is `DEFAULT_SCORE_BUDGET` = 4·u_bfloat16 = 2⁻⁶: four roundings of the
  coarsest dtype audited, a relative score error a bfloat16 model already lives with.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from ropecheck.numeric.audit._numerics import tolerances

REFERENCE_COS_SIN_ABS_ERROR = tolerances.REFERENCE_COS_SIN_ABS_ERROR
rotation_output_bound = tolerances.rotation_output_bound
unit_roundoff = tolerances.unit_roundoff

__all__ = [
    "DEFAULT_SCORE_BUDGET",
    "RECURRENCE_CLASS",
    "PrecisionClass",
    "accepted_angle_dtype",
    "accumulation_dtype",
    "certified_position",
    "frequency_error_units",
    "orthogonality_bound",
    "output_bound",
    "passthrough_bound",
    "precision_classes",
    "score_bound",
]

#: Default relative score-error budget for the certified context length: 4·u_bfloat16 = 2⁻⁶.
DEFAULT_SCORE_BUDGET = 4 * unit_roundoff("bfloat16")

# Units of u_angle: pow/exp of the exponent (2), the reciprocal 1/base^(...) (1), a scaling formula (2).
_POW_UNITS = 2.0
_RECIPROCAL_UNITS = 1.0
_SCALING_UNITS = 2.0


@dataclasses.dataclass(frozen=True)
class PrecisionClass:
    """A way of computing a RoPE, as coarse as its bound: the policy's own, or a coarser one a target may have.

    Root-cause attribution: when outputs leave the policy bound but stay within a coarser class's bound, the
    deviation is *that* precision (named in the precision finding, with its fix); the other properties are then
    judged at the class's bound and read "ok at <class> precision".

    **Fields:**

    - `name`: what the target does, e.g. `"angles formed in float32"` (`"policy"` for the policy itself).
    - `bound_dtype`: the dtype the rotation's products are charged in.
    - `angle_dtype`: the dtype positions, θ, the angle and cos/sin are charged in.
    - `fix`: the fix in words.
    - `recurrence`: θᵢ formed by repeated multiplication θᵢ = θᵢ₋₁·s (ggml's `theta *= theta_scale`): pair i carries
      i roundings plus s's own error amplified i times, 2i + |ln(θᵢ/θ₀)| + 1 more units of u_angle than `pow`.
    - `accepted`: the policy accepts this class (an `ok` precision finding that names it).
    """

    name: str
    bound_dtype: str
    angle_dtype: str
    fix: str = ""
    recurrence: bool = False
    accepted: bool = False

    @property
    def is_policy(self) -> bool:
        """Whether this is the policy itself."""
        return self.name == "policy"


#: The name of the float32 recurrence class (documented in the audit guide's tolerance policy).
RECURRENCE_CLASS = "θ by repeated multiplication in float32"


def precision_classes(dtype: str) -> list[PrecisionClass]:
    """The policy for `dtype` outputs, then the coarser classes a target may have, finest first.

    **Arguments:**

    - `dtype`: the output dtype.

    **Returns:**

    A list of `PrecisionClass`, the policy first.
    """
    classes = [PrecisionClass("policy", dtype, accepted_angle_dtype(dtype))]
    if dtype == "float64":
        classes += [
            PrecisionClass(
                "angles formed in float32",
                "float64",
                "float32",
                "form positions·θ, cos and sin in float64 for float64 inputs (e.g. do not build θ or the cos/sin cache"
                " in float32)",
            ),
            PrecisionClass(
                "rotation computed in float32",
                "float32",
                "float32",
                "compute the rotation in x's dtype: float64 inputs are rotated in float32 and cast back",
            ),
        ]
    else:
        # Accepted: every operation is float32, the angle error grows with the pair index only (llama.cpp, ggml).
        classes.append(PrecisionClass(RECURRENCE_CLASS, dtype, "float32", recurrence=True, accepted=True))
    fix16 = "form positions, θ and the angles in float32 (cast cos/sin to x's dtype only at the end)"
    classes += [
        PrecisionClass("positions or angles held in float16", dtype, "float16", fix16),
        PrecisionClass("positions or angles held in bfloat16", dtype, "bfloat16", fix16),
    ]
    return classes


def accepted_angle_dtype(dtype: str) -> str:
    """The coarsest dtype an implementation may form angles (and hold positions, θ) in for this output dtype.

    **Arguments:**

    - `dtype`: the output dtype name (one of `tolerances.DTYPES`).

    **Returns:**

    `"float64"` for float64 outputs, `"float32"` otherwise.
    """
    return "float64" if dtype == "float64" else "float32"


def accumulation_dtype(dtype: str) -> str:
    """The dtype attention scores are taken to accumulate in when certifying a context length (float32 for
    float32-and-narrower activations, as attention kernels do; float64 for float64)."""
    return accepted_angle_dtype(dtype)


def frequency_error_units(base: float, scaling_factor: float = 1.0) -> float:
    """k_θ: the relative error of a computed θᵢ = base^(−2i/d) (scaled), in units u of the angle dtype.

    The rounded exponent (relative u) becomes a relative error |ln θᵢ|·u ≤ (ln base + |ln factor|)·u after
    `pow`/`exp`; `pow` itself, a reciprocal and a scaling formula add a few units (see the module docstring).

    **Arguments:**

    - `base`: the θ base (> 1).
    - `scaling_factor`: the context-extension factor of a declared scaling (1 when none).

    **Returns:**

    k_θ as a float (≥ 1).
    """
    amplification = math.log(max(base, math.e)) + abs(math.log(max(scaling_factor, 1e-300)))
    scaled = _SCALING_UNITS if scaling_factor != 1.0 else 0.0
    return amplification + _POW_UNITS + _RECIPROCAL_UNITS + scaled


def output_bound(
    x_abs_pair_sum: np.ndarray | float,
    positions: np.ndarray,
    thetas: np.ndarray,
    dtype: str,
    *,
    theta_units: float,
    attention_factor: float = 1.0,
    precision: PrecisionClass | None = None,
) -> np.ndarray:
    """Per-coordinate bound on |implementation output − g·exact rotation| under the audit policy (or under a coarser
    precision class, for root-cause attribution).

    **Arguments:**

    - `x_abs_pair_sum`: |x₁| + |x₂| per pair, broadcast against `(L, n)` (1 for a basis probe).
    - `positions`: integer positions, shape `(L,)`.
    - `thetas`: the exact inverse frequencies, shape `(n,)` (or `(L, n)` when they depend on the call).
    - `dtype`: the output dtype name.
    - `theta_units`: k_θ from `frequency_error_units`.
    - `attention_factor`: g, the declared scaling's attention factor (1 for none).
    - `precision`: a `PrecisionClass` to charge instead of the policy (None: the policy).

    **Returns:**

    The bound, float64 array of shape `(L, n)` (broadcast with `x_abs_pair_sum`'s shape).
    """
    angle_dtype = accepted_angle_dtype(dtype)
    if precision is not None and not precision.is_policy:
        dtype, angle_dtype = precision.bound_dtype, precision.angle_dtype
    position_column = np.asarray(positions, dtype=np.float64)[:, np.newaxis]
    thetas = np.asarray(thetas, dtype=np.float64)
    weight = np.asarray(x_abs_pair_sum, dtype=np.float64)
    base = np.asarray(rotation_output_bound(weight, position_column, thetas, dtype, angle_dtype=angle_dtype))
    u_angle = unit_roundoff(angle_dtype)
    units = max(theta_units - 1.0, 0.0)
    if precision is not None and precision.recurrence:
        units = units + _recurrence_units(thetas)
    frequency = weight * (units * u_angle) * np.abs(position_column * thetas)
    bound = base + frequency
    bound += weight * REFERENCE_COS_SIN_ABS_ERROR
    if attention_factor != 1.0:
        bound *= attention_factor
        bound += weight * attention_factor * u_angle
    shape = np.broadcast_shapes(weight.shape, position_column.shape, np.shape(thetas))
    if bound.shape == shape:
        return bound  # already a new float64 array of the full shape (the sweep's hot path: no copy)
    return np.broadcast_to(bound, shape).astype(np.float64)


def _recurrence_units(thetas: np.ndarray) -> np.ndarray:
    """Extra units of u per pair for θᵢ = θ₀·sⁱ formed by i float32 multiplications: i roundings, s's relative
    error (1 + |ln s|)·u amplified i times, i.e. 2i + |ln(θᵢ/θ₀)| + 1 (pairs in frequency order)."""
    thetas = np.abs(np.asarray(thetas, dtype=np.float64))
    index = np.arange(thetas.shape[-1], dtype=np.float64)
    with np.errstate(divide="ignore"):
        spread = np.abs(np.log(thetas / thetas[..., :1]))
    return 2 * index + np.nan_to_num(spread, nan=0.0, posinf=0.0) + 1.0


def passthrough_bound(x_abs: np.ndarray, dtype: str) -> np.ndarray:
    """Bound on a pass-through (non-rotated) coordinate: one rounding, u_dtype·|x|."""
    return unit_roundoff(dtype) * np.abs(np.asarray(x_abs, dtype=np.float64))


def orthogonality_bound(entry_bound: np.ndarray, attention_factor: float = 1.0) -> np.ndarray:
    """Bound on |‖col‖² − g²| and |col₁·col₂| for a 2×2 block of g·R(m) whose entries are off by ≤ β.

    **Arguments:**

    - `entry_bound`: β per block (array).
    - `attention_factor`: g.

    **Returns:**

    2√2·g·β + 2β², same shape as `entry_bound`.
    """
    beta = np.asarray(entry_bound, dtype=np.float64)
    return 2 * math.sqrt(2) * attention_factor * beta + 2 * beta**2


def score_bound(
    q_norm: float | np.ndarray,
    k_norm: float | np.ndarray,
    q_error: float | np.ndarray,
    k_error: float | np.ndarray,
    d: int,
    attention_factor: float = 1.0,
) -> np.ndarray:
    """Bound on |⟨q̂, k̂⟩ − g²·qᵀR(n−m)k| for rotated vectors off by `q_error`, `k_error` in the 2-norm, the score
    being computed in float64 by the auditor (`tolerances.dot_product_bound`).

    **Arguments:**

    - `q_norm`, `k_norm`: ‖q‖₂, ‖k‖₂.
    - `q_error`, `k_error`: E_q, E_k (2-norm bounds on the rotated vectors' errors).
    - `d`: the vector length.
    - `attention_factor`: g.

    **Returns:**

    The bound (float64 array or scalar array).
    """
    g = attention_factor
    q_norm, k_norm = np.asarray(q_norm, dtype=np.float64), np.asarray(k_norm, dtype=np.float64)
    q_error, k_error = np.asarray(q_error, dtype=np.float64), np.asarray(k_error, dtype=np.float64)
    rotation = g * q_norm * k_error + g * q_error * k_norm + q_error * k_error
    accumulation = tolerances.dot_product_bound((g * q_norm + q_error) * (g * k_norm + k_error), d, "float64")
    return rotation + accumulation


def certified_position(
    matrix_error: np.ndarray, d: int, dtype: str, budget: float, attention_factor: float = 1.0
) -> int:
    """The largest audited position M whose score-error bound E(M)·(2g + E(M)) + accumulation stays ≤ budget.

    **Arguments:**

    - `matrix_error`: ε(m) for m = 0, 1, …, N−1 (measured, see the module docstring).
    - `d`: head dimension (length of the score's dot product).
    - `dtype`: the data dtype (fixes the accumulation dtype).
    - `budget`: the relative score-error budget.
    - `attention_factor`: g; the budget is taken relative to g²·‖q‖·‖k‖.

    **Returns:**

    M, or −1 when even position 0 is over budget.
    """
    g = attention_factor
    running = np.maximum.accumulate(np.asarray(matrix_error, dtype=np.float64))
    accumulation = tolerances.dot_product_bound((g + running) ** 2, d, accumulation_dtype(dtype))
    score = (running * (2 * g + running) + accumulation) / (g * g)
    within = np.nonzero(~(score <= budget))[0]
    if within.size == 0:
        return int(running.size - 1)
    return int(within[0]) - 1


def describe_policy() -> dict[str, Any]:
    """The policy in a report: accepted angle dtype per output dtype and the default budget."""
    return {
        "angle_dtype": {dtype: accepted_angle_dtype(dtype) for dtype in tolerances.DTYPES},
        "default_score_budget": DEFAULT_SCORE_BUDGET,
    }


def angle_tolerance(entry_bound: np.ndarray, attention_factor: float = 1.0) -> np.ndarray:
    """Bound on the error of an angle read from a 2×2 block g·R(φ) whose entries are off by ≤ β: the angle of
    (c + e₁, s + e₂) moves by at most arcsin(√2·β/g) ≤ 2β/g for √2·β ≤ g/√2 (π when the block is too coarse).

    **Arguments:**

    - `entry_bound`: β (array).
    - `attention_factor`: g.

    **Returns:**

    The angle bound in radians, same shape as `entry_bound`.
    """
    beta = np.asarray(entry_bound, dtype=np.float64)
    return np.where(beta <= attention_factor / 2, 2 * beta / attention_factor, math.pi)
