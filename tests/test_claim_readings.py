"""The readings decided in ISSUE #18: each verdict theorem fails on the statement a wrong reading would give.

`test_claims.py` checks every claim's verdict; here the proofs behind the re-decided claims are compiled
against wrong statements — the claim at d = 8, where every frequency is rational (so uniqueness fails and the
proof must too), a score not lower at distance 0, a cache entry one real short — and the kernel must refuse
each, after accepting the unchanged statement in the same harness.
"""

from __future__ import annotations

import pytest
from ropecheck.proofs import coq_available, get_claim
from ropecheck.proofs.claims._decay128_gen import (
    ANCHOR_STEP,
    PHASE_RADIUS,
    modulus_bounds,
    phase_centres,
    unit_phase_centres,
)

from ._wrong_statements import check_wrong_statements

_CENTRE_183_5 = phase_centres(183)[5]
_TOTAL_183 = sum(modulus_bounds(phase_centres(183), "lower")[1:])
_UNIT_5 = unit_phase_centres()[5]
_ANCHOR_5 = unit_phase_centres(ANCHOR_STEP)[5]

pytestmark = pytest.mark.skipif(not coq_available(), reason="coqc is not installed")

WRONG = {
    # d = 8 allowed: frequencies 1, 1/10, 1/100, 1/1000 — positions 0 and 2000π share every pair.
    "spe_unique_position": [("h <> 4%nat ->", "")],
    "rope_abs_and_rel": [("h <> 4%nat ->", "")],
    # at D = 0 the score equals its value at distance 0; the window means do not tend to d/2.
    "spe_dot_averages_out": [("D <> 0 ->", ""), ("Rabs (window_mean h p M n)", "Rabs (window_mean h p M n - INR h)")],
    # an entry one real shorter than d + d_v.
    "rope_kv_cache_size": [("(2 * h + dv)%nat", "(2 * h + dv - 1)%nat")],
    # ISSUE #18 point 9 (Relative.v, Sinusoidal.v, Binary.v, Cache.v, Rope.v): an offset one short of the window,
    # one offset too many, equal indices, half the Lipschitz constant squared, the 8-bit reading, a table one row
    # off, d = 0 (nothing stored), cosine for sine, one more in the norm, d = 8.
    "rpe_clip_indistinguishable": [("(K <= j' - i')%Z", "(K - 1 <= j' - i')%Z")],
    "rpe_offset_count": [("= 2 * L - 1)%Z", "= 2 * L)%Z")],
    "spe_frequencies_decreasing": [("(i < j)%nat", "(i <= j)%nat")],
    "spe_distinct_wavelengths": [("i <> j ->", "")],
    "spe_smoothness_004": [("((p - q) * (p - q))", "((p - q) * (p - q)) / 2")],
    "binary_3_to_4_flips_004": [("flipped_bits 3 3 4 = 3%nat", "flipped_bits 8 3 4 = 8%nat")],
    "binary_table_004": [("seq 0 12", "seq 1 12")],
    "rope_cached_key_positional_003": [("(1 <= h)%nat", "(0 <= h)%nat")],
    "rope_sine_term_whole_score_003": [("cross_pair q k i * sin", "cross_pair q k i * cos")],
    "spe_add_changes_norm_direction_004": [("+ INR h", "+ INR h + 1")],
    # d = 8 allowed (uniqueness fails there); the first-layer correction with the old encoding added, not removed.
    "ape_prefix_stale_003": [
        ("h <> 4%nat ->", ""),
        ("(n + delta) i - Sinusoidal.spe h n i", "(n + delta) i + Sinusoidal.spe h n i"),
    ],
    # LinearBias.v: an affine bias (second difference 0), a window of 0 (every offset reads row 0), and the
    # two-token weights required to factor at a single pair only.
    "rpe_breaks_linear_attention": [
        ("b 1%Z + b (-1)%Z <> 2 * b 0%Z ->", "b 1%Z + b (-1)%Z = 2 * b 0%Z ->"),
        ("(1 <= K)%Z", "(0 <= K)%Z"),
        (
            "(0 <= i <= 1)%Z -> (0 <= j <= 1)%Z -> biased_weight kappa b i j",
            "(i = 0)%Z -> (j = 1)%Z -> biased_weight kappa b i j",
        ),
        # the rank reading with window 0: every offset reads row 0, the weights e·J have rank 1.
        ("(clipped_bias 1 one_hot_bias)", "(clipped_bias 0 one_hot_bias)"),
    ],
    # ISSUE #35 readings: the slowest wave at d = 8 (2000π < 8192) or over 32768 tokens; the frequency equal to
    # 10000^{2i/d} itself (the printed formula); the fourth term multiplied; the same-token score strictly below
    # its value at m = n (false at m = n); the normaliser over no key (0 ≥ 0 holds).
    "spe_slowest_wave_004": [("(8 <= h)%nat", "(4 <= h)%nat"), ("L <= 8192", "L <= 32768")],
    "spe_frequency_004": [("= / Rpower", "= Rpower")],
    "spe_qk_expansion": [
        (
            "+ dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q))",
            "* dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q))",
        )
    ],
    "rope_full_strength_at_zero": [
        ("<= dot (2 * h) (rope theta h n q) (rope theta h n q)", "< dot (2 * h) (rope theta h n q) (rope theta h n q)")
    ],
    "rope_linear_attention_004_negation": [("(1 <= N)%nat", "(N <= 0)%nat")],
    # ROPE-DECAY-BOUND-MONOTONE at d = 128 (Decay128.v): the distances swapped, the order of distances turned
    # round, a phase centre moved by 2/100 (past the enclosure's 1/100), a sum bound raised by 1/1000.
    "relative_bound_179_below_183": [
        (
            "64 179 < relative_bound (rope_spectrum 10000 64) 64 183",
            "64 183 < relative_bound (rope_spectrum 10000 64) 64 179",
        )
    ],
    "rope_decay_bound_monotone_literal_negation": [("(D1 < D2)%nat", "(D2 < D1)%nat")],
    # ROPE-DECAY-BOUND-MONOTONE's trend reading (Decay128Trend.v): a unit-phase centre moved past its enclosure.
    # The checker's own wrong statements (the blocks through k = 8, …) cost a table each: test_decay128.py, --deep.
    "unit_phase_5": [(f"IZR ({_UNIT_5[0]})", f"IZR ({_UNIT_5[0] + 2 * PHASE_RADIUS})")],
    "phase183_5": [(f"({_CENTRE_183_5[0]}) /\\", f"({_CENTRE_183_5[0] + 20}) /\\")],
    "bound183": [(f"IZR {_TOTAL_183}", f"IZR {_TOTAL_183 + 1}")],
    # PI-B-EXCEEDS-D (InterpolationSizes.v): an anchor phase e^(i 256 θ_5) moved past its enclosure; for
    # PI-EXTRAPOLATION-RATIO, PI's 2·294.73 lowered to 2·285 (below the least ratio ≈ 571.6: the negation is false).
    # The checker's own wrong statements (B > 143, ratio 572, s < 4352) cost it whole: test_pi_b_exceeds_d.py, --deep.
    "anchor_phase_5": [(f"IZR ({_ANCHOR_5[0]})", f"IZR ({_ANCHOR_5[0] + 2 * PHASE_RADIUS})")],
    "pi_extrapolation_ratio_negation": [("2 * (29473 / 100)", "2 * (28500 / 100)")],
}


def test_readings_fail_on_wrong_statements() -> None:
    # One coqtop session for all 13 files (each file's candidates in a module of their own, `_coq_mutants`): the
    # libraries are loaded once, 6.4 CPU-s in all instead of 16.6 with a session per file (issue 36).
    outcomes = check_wrong_statements(WRONG)
    assert outcomes
    for name, results in outcomes.items():
        assert results[0] == "control accepted", (name, results)
        assert all(r == "rejected" for r in results[1:]), (name, results)


def test_binary_flips_keep_the_8_bit_reading_as_a_refuted_note() -> None:
    kernel = get_claim("BINARY-3-TO-4-FLIPS-004").kernel()
    assert kernel.verdict == "proved" and kernel.literal == "refuted", kernel.reason


def test_averages_out_keeps_the_pointwise_reading_as_a_refuted_note() -> None:
    kernel = get_claim("SPE-DOT-AVERAGES-OUT").kernel()
    assert kernel.verdict == "proved" and kernel.literal == "refuted", kernel.reason
