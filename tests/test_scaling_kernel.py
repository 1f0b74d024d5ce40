"""The literature claims' Coq statements (proofs/coq/Scaling.v, ISSUE #33) are rejected by the kernel once a constant
or an inequality in them is perturbed: each perturbation below makes the statement false (the reason is beside it),
so a proof that still went through would prove a false statement. One coqtop session checks them all."""

from __future__ import annotations

import pytest
from ropecheck.proofs import coq_available

from ._wrong_statements import check_wrong_statements

PERTURBATIONS: dict[str, list[tuple[str, str]]] = {
    # θ′ at the last pair is θ/s, not θ/(2s)
    "ntk_endpoints": [("(n - 1) / s", "(n - 1) / (2 * s)")],
    # i = 0 is not out of bound (θ′₀ = θ₀)
    "ntk_out_of_bound": [("(0 < i < n - 1)%nat", "(0 <= i < n - 1)%nat")],
    # (0.1 ln 16 + 1)² ≈ 1.6314
    "yarn_temperature": [("1631 / 1000 <", "1633 / 1000 <")],
    # paper and code differ at i = 21; they agree on every i < 21
    "yarn_ramp_code_correction": [("(i <= 20 \\/ 46 <= i)", "(i <= 21 \\/ 46 <= i)")],
    "yarn_ramp_code_negation": [("forall i : nat, (i < 64)%nat", "forall i : nat, (i < 21)%nat")],
    # with s = 1 the base is b; with i = 0 the readings agree
    "yarn_eq17_base_negation": [("1 < s ->", "1 = s ->")],
    "yarn_eq17_base_correction": [("<-> i = 0%nat", "<-> (i <= 1)%nat")],
    # with f = 1 the rules agree, so the negation is false; the excess is (f − 1)(x − 1)
    "yarn_dynamic_rule_negation": [("1 <= f ->", "1 = f ->")],
    "yarn_dynamic_rule_correction": [("(f - 1) * (x - 1)", "(f - 1) * (x + 1)")],
    # (0.0707 ln 40 + 1)² ≈ 1.5896, (0.1 ln 40 + 1)² ≈ 1.8739
    "deepseek_v2_mscale": [("1589 / 1000 <", "1591 / 1000 <")],
    "deepseek_v3_mscale": [("1873 / 1000 <", "1875 / 1000 <")],
    # doubling s changes the interpolated bands
    "llama3_band_edges": [("llama3_frequency_closed s lf", "llama3_frequency_closed (2 * s) lf")],
    "llama3_is_by_parts": [("(L0 / wavelength theta)", "(2 * L0 / wavelength theta)")],
    # ln 32 / ln 4096 = 5/12
    "longrope_attention_scale": [("sqrt (17 / 12)", "sqrt (18 / 12)")],
    # 2^(−2/p) is in neither list; with n = 1 only, the lists agree
    "alibi_slopes_general_correction": [("Rpower 2 (- 4 /", "Rpower 2 (- 2 /")],
    "alibi_slopes_general_negation": [("(1 <= n)%nat ->", "(n = 1)%nat ->")],
    # ids 2p are not position p
    "mrope_text_reduces": [("pos (section i) = p", "pos (section i) = 2 * p")],
    # bucket(90) = 14
    "t5_bucket_saturation": [("(91 <= n)%Z", "(90 <= n)%Z")],
    # ⌈45.03⌉ = 46
    "critical_dimension_liu": [("= 92%Z", "= 90%Z")],
    # on [0, 1] every cos(rθᵢ) decreases: the monotone claim holds there, so its negation is false
    "xiong_score_decay_negation": [("0 <= r <= r' ->", "0 <= r <= r' -> r' <= 1 ->")],
    "xiong_score_decay_correction": [("all_ones_score b n 0 = 2 * INR n", "all_ones_score b n 0 = INR n")],
    "xpos_relative_decay": [("xpos_zeta n 0 = 2 / 7", "xpos_zeta n 0 = 3 / 7")],
    # (2/7)^(3967/512) < 2^-14
    "xpos_fp16_range": [("(p <= 3966)%nat", "(p <= 3967)%nat")],
    # without the 1/(8 ln c) the bound holds (Σθ² ≤ n), so the negation is false
    "pi_interpolation_bound_negation": [("/ (8 * ln c)", "")],
    # at d = 2, c = 10⁴, h₀ = 1, s = 1/2 on [0, 1] the error 0.107 exceeds Σθ²/4 · (1/4) = 0.0625
    # with n̂ = 0 every position is past n̂: the rule is relative, so the negation is false
    "longrope_start_token_negation": [("0 < nhat ->", "nhat = 0 ->")],
    # across n̂ the extra term is mθ(1/λ − 1), not nθ(1/λ − 1)
    "longrope_start_token_correction": [("+ m * theta * (/ lambda - 1)", "+ n * theta * (/ lambda - 1)")],
    # for x ≤ 1 both α are 1, so the negation restricted there is false; α_Q(3/2) = 3 > 2·(3/2) − 1 + 1 …
    "qwen_dynamic_ntk_negation": [("0 < x ->", "0 < x <= 1 ->")],
    # at x = 2 Qwen's α is 3 = 2x − 1: the lower end is attained, so a strict lower bound is false
    "qwen_dynamic_ntk_correction": [("2 * x - 1 <= qwen_ntk_alpha x", "2 * x - 1 < qwen_ntk_alpha x")],
    # token t reads 1/(t+1), not 1/t
    "nope_position_readout": [("= 1 / INR (S t)", "= 1 / INR t")],
    # on [0, 12000] the 16k base keeps B ≥ 0 (first zero ≈ 12222.627), so the negation is false
    "men_table2_d128_negation": [("0 <= m <= 16000", "0 <= m <= 12000")],
    # one hundredth earlier B > 0: B(12222.62) ≈ +0.0079 (16k base), B(22465.54) ≈ +0.0034 (32k base); B(12222) ≈ +1.04
    "men_table2_d128_correction": [
        # the lower sides past the first zeros (B(12222.63) ≈ −0.0000, B(22465.55) ≈ −0.0000, negative)
        ("0 <= m <= 1222262 / 100 ->", "0 <= m <= 1222263 / 100 ->"),
        ("0 <= m <= 2246554 / 100 ->", "0 <= m <= 2246555 / 100 ->"),
        ("64 (1222263 / 100) < 0", "64 (1222262 / 100) < 0"),
        ("64 (2246555 / 100) < 0", "64 (2246554 / 100) < 0"),
        ("all_ones_score 310000 64 12223 < 0", "all_ones_score 310000 64 12222 < 0"),
    ],
    "pi_interpolation_bound_correction": [("j ^ 2) / 2) * (s - s1)", "j ^ 2) / 4) * (s - s1)")],
    # min B(s) over s < 4096 is 142.84 (s = 3643): B > 143 is false there
    "pi_b_exceeds_d": [("-> 128 < pi_b_sum", "-> 143 < pi_b_sum")],
    # the least ratio 16·B/Σθ² is ≈ 571.6 > 2·285: the negation of PI's ratio lowered to 2·285 is false
    "pi_extrapolation_ratio_negation": [("2 * (29473 / 100)", "2 * (28500 / 100)")],
    # 572 is above the least ratio ≈ 571.6
    "pi_extrapolation_ratio_correction": [("564 *", "572 *")],
    # PI's own arithmetic against B instead of 2B: 589.46·d/(32 ln c) ≈ 256 > B at s = 3643
    "pi_extrapolation_ratio_literal": [("< 2 * pi_b_sum", "< pi_b_sum")],
}


REPRESENTATIVE = ("pi_interpolation_bound_correction",)
"""The default tier's case (one coqtop session on the compiled development); the sweep over every statement is deep."""


def _rejected(names: list[str]) -> dict[str, list[str]]:
    outcomes = check_wrong_statements({name: PERTURBATIONS[name] for name in names})
    return {
        name: found
        for name, found in outcomes.items()
        if found != ["control accepted"] + ["rejected"] * len(PERTURBATIONS[name])
    }


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_a_scaling_statement_is_rejected_when_a_constant_is_perturbed() -> None:
    bad = _rejected(list(REPRESENTATIVE))
    assert not bad, bad


@pytest.mark.deep
@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_scaling_statements_rejected_when_a_constant_or_inequality_is_perturbed() -> None:
    bad = _rejected(list(PERTURBATIONS))
    assert not bad, bad


def test_every_bound_scaling_theorem_has_a_perturbation() -> None:
    from ropecheck.proofs.claims import _bound_scaling

    bound = {theorem for entries in _bound_scaling.BOUND.values() for _, theorem, _ in entries}
    assert bound == set(PERTURBATIONS), bound ^ set(PERTURBATIONS)
