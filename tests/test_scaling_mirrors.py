"""Numeric mirrors of the literature claims (ISSUE #33 item 3): every format against mpmath within the error model,
and the kernel-checked conclusions recomputed in each format (numeric/mirrors/_scaling.py)."""

from __future__ import annotations

import numpy as np
import pytest
from ropecheck.numeric.mirrors._scaling import (
    SCALING_MIRRORED,
    _check,
    evaluate_formula,
    scaling_evidence,
    yarn_gammas,
)
from ropecheck.numeric.reference.tolerances import DTYPES
from ropecheck.proofs.claims import _scaling_formulas as formulas

from ._checker_twin import independent_b

# What the kernel decided (Scaling.v / ScalingSizes.v), recomputed in float64 and mpmath.
KERNEL = {
    "YARN-TEMPERATURE": True,
    "DEEPSEEK-V2-MSCALE": True,
    "DEEPSEEK-V3-MSCALE": True,
    "LONGROPE-ATTENTION-SCALE": True,
    "CRITICAL-DIMENSION-LIU": [92, 64, 62],
    "XIONG-SCORE-DECAY": True,
    "PI-INTERPOLATION-BOUND": True,
    "NTK-OUT-OF-BOUND": 62,
}


# the newest mirrors evaluate 64-term sums or 1500 tokens in five formats (≈ 1.5 CPU-s each): deep; QWEN-DYNAMIC-NTK
# stays in the default tier as the cheap representative of the literature mirrors added with them
_DEEP = {"MEN-TABLE2-D128", "NOPE-POSITION-READOUT", "PI-B-EXCEEDS-D", "PI-EXTRAPOLATION-RATIO"}


@pytest.mark.parametrize(
    "claim_id", [pytest.param(c, marks=pytest.mark.deep) if c in _DEEP else c for c in SCALING_MIRRORED]
)
def test_scaling_mirror_within_the_error_model(claim_id: str) -> None:
    evidence = scaling_evidence(claim_id)
    if claim_id in KERNEL:
        for fmt in ("float64", "mpmath"):
            assert evidence[fmt]["conclusion"] == KERNEL[claim_id], (fmt, evidence[fmt])
        for fmt in DTYPES:
            assert evidence[fmt]["max_error"] <= evidence[fmt]["bound"], (fmt, evidence[fmt])
    elif claim_id == "YARN-RAMP-CODE":
        agree = [*range(21), *range(46, 64)]
        for fmt in ("float32", "float64", "mpmath"):
            assert (evidence[fmt]["lo"], evidence[fmt]["hi"], evidence[fmt]["agree"]) == (20, 46, agree), fmt
        # bfloat16 rounds i_c(32) ≈ 20.94 and i_c(1) ≈ 45.03 across the integers: the band edges move
        assert (evidence["bfloat16"]["lo"], evidence["bfloat16"]["hi"]) == (21, 45)
    elif claim_id == "NOPE-POSITION-READOUT":
        # exact read-outs are distinct (Coq); rounded to bf16/fp16, tokens 189/190 and 1463/1464 read the same
        found = {fmt: evidence[fmt]["first_collision"] for fmt in evidence}
        assert found == {"float16": 1463, "bfloat16": 189, "float32": None, "float64": None, "mpmath": None}
    elif claim_id == "MEN-TABLE2-D128":
        # float32/64 and mpmath find Coq's sign changes in both readings (real m on a grid of hundredths, integer m);
        # float16 and bfloat16 round the positions and bases away
        found = {fmt: (evidence[fmt]["real"], evidence[fmt]["integer"]) for fmt in evidence}
        exact = ([12222.63, 22465.55], [12223, 27685])
        assert found == {
            "float16": ([12222.5, None], [12220, None]),
            "bfloat16": ([None, None], [None, None]),
            "float32": exact,
            "float64": exact,
            "mpmath": exact,
        }
    elif claim_id in ("PI-B-EXCEEDS-D", "PI-EXTRAPOLATION-RATIO"):
        # one table for both (the ratio is 16·B/Σθ²): mpmath's least B over s < 4096 is the independent mpmath
        # sum's B(3643) ≈ 142.836; float32/64 certify B > d at every s (bound ≪ margin 14.8); float16/bfloat16
        # round s and θ so far that their bounds cannot tell
        exact = evidence["mpmath"]
        assert exact["argmin"] == 3643 and abs(exact["minimum"] - float(independent_b(3643))) < 1e-9, exact
        assert 564 < exact["ratio_minimum"] < 2 * 294.73
        found = {fmt: evidence[fmt]["conclusion"] for fmt in evidence}
        assert found == {"float16": False, "bfloat16": False, "float32": True, "float64": True, "mpmath": True}
        for fmt in DTYPES:
            assert evidence[fmt]["within"] and evidence[fmt]["max_error"] <= evidence[fmt]["bound"], fmt
    elif claim_id == "QWEN-DYNAMIC-NTK":
        # α at l′/L = 0.5 … 16 (QWEN_RATIOS): 1 up to L, then the proved band, in every format
        for fmt in evidence:
            assert evidence[fmt] == {"alphas": [1.0, 1.0, 3.0, 3.0, 7.0, 7.0, 15.0, 15.0, 31.0], "conclusion": True}
    else:  # XPOS-FP16-RANGE: exact thresholds from Coq; float16 loses one and two positions to rounding
        assert evidence["mpmath"] == {"normal_until": 3966, "finite_until": 4532}
        assert evidence["float16"] == {"normal_until": 3965, "finite_until": 4530}


def test_the_mirror_check_fails_on_a_wrong_formula() -> None:
    """A mirror that evaluates a perturbed formula (0.11 instead of 0.1 in YaRN's mscale) is out of the bound."""
    right = formulas.mscale() ** 2
    wrong = (formulas.mu * 11 * formulas.sp.log(formulas.s) / 100 + 1) ** 2
    inputs = {formulas.s: [16.0], formulas.mu: [1.0]}
    _, check = _check(right, inputs, "float32")
    computed_wrong = evaluate_formula(wrong, inputs, "float32")
    exact = evaluate_formula(right, inputs, "mpmath")
    assert check.ok and not np.all(np.abs(computed_wrong - exact) <= check.bound)


def test_the_ramp_mirror_sees_a_code_ramp_with_other_band_edges() -> None:
    """yarn_gammas at another length moves the code's band, and the agreement set with it (the set is computed)."""
    assert yarn_gammas("float64", length=8192)["agree"] != yarn_gammas("float64")["agree"]
