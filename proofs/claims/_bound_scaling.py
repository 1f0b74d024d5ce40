"""Bound statements of the context-extension literature's claims (`_claims_scaling`), proved in Scaling.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "NTK-ENDPOINTS": (
        ("Scaling", "ntk_endpoints", r"""
forall (b s : R) (n : nat), 0 < b -> 0 < s -> (2 <= n)%nat ->
  rope_frequency (ntk_base b s n) (2 * n) 0 = rope_frequency b (2 * n) 0 /\
  rope_frequency (ntk_base b s n) (2 * n) (n - 1) = rope_frequency b (2 * n) (n - 1) / s
"""),
    ),
    "NTK-OUT-OF-BOUND": (
        ("Scaling", "ntk_out_of_bound", r"""
forall (b s L : R) (n i : nat), 0 < b -> 1 < s -> 0 < L -> (0 < i < n - 1)%nat ->
  rope_frequency b (2 * n) i / s < rope_frequency (ntk_base b s n) (2 * n) i < rope_frequency b (2 * n) i /\
  L * rope_frequency b (2 * n) i < s * L * rope_frequency (ntk_base b s n) (2 * n) i
"""),
    ),
    "YARN-TEMPERATURE": (
        ("Scaling", "yarn_temperature", r"""
(forall (c : R) (theta : nat -> R) (h : nat) (m n : R) (q k : vec),
     dot (2 * h) (rope_scaled c theta h m q) (rope_scaled c theta h n k) =
     c ^ 2 * dot (2 * h) (rope theta h m q) (rope theta h n k)) /\
  (forall s : R, 1 <= s -> 1 <= yarn_mscale s ^ 2 /\ (yarn_mscale s ^ 2 = 1 <-> s = 1)) /\
  (1631 / 1000 < yarn_mscale 16 ^ 2 < 1632 / 1000)
"""),
    ),
    "YARN-RAMP-CODE": (
        ("Scaling", "yarn_ramp_code_negation", r"""
~ (forall i : nat, (i < 64)%nat ->
       yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i)
"""),
        ("Scaling", "yarn_ramp_code_correction", r"""
forall i : nat, (i < 64)%nat ->
  (yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i <->
   (i <= 20 \/ 46 <= i)%nat)
"""),
    ),
    "YARN-EQ17-BASE": (
        ("Scaling", "yarn_eq17_base_negation", r"""
~ (forall (L b s : R) (n i : nat), 0 < L -> 1 < b -> 1 < s -> (2 <= n)%nat -> (i < n)%nat ->
     yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i)
"""),
        ("Scaling", "yarn_eq17_base_correction", r"""
forall (L b s : R) (n i : nat), 0 < L -> 1 < b -> 1 < s -> (2 <= n)%nat ->
  yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i * Rpower s (- INR i / (INR n - 1)) /\
  (yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i <-> i = 0%nat)
"""),
    ),
    "YARN-DYNAMIC-RULE": (
        ("Scaling", "yarn_dynamic_rule_negation", r"""
~ (forall f x : R, 1 <= f -> 1 <= x -> dynamic_alpha_hf f x = dynamic_alpha_paper x)
"""),
        ("Scaling", "yarn_dynamic_rule_correction", r"""
(forall f x : R, 1 <= x -> dynamic_alpha_hf f x = dynamic_alpha_paper x + (f - 1) * (x - 1)) /\
  (forall f x : R, 1 <= x -> (dynamic_alpha_hf f x = dynamic_alpha_paper x <-> f = 1 \/ x = 1)) /\
  (forall f : R, dynamic_alpha_vllm f = dynamic_alpha_hf f f) /\
  (forall f x : R, 1 <= x -> (dynamic_alpha_vllm f = dynamic_alpha_paper x <-> x = f * f - f + 1))
"""),
    ),
    "DEEPSEEK-V2-MSCALE": (
        ("Scaling", "deepseek_v2_mscale", r"""
(forall s : R, 1 < s -> deepseek_mscale s (707 / 1000) = 707 / 10000 * ln s + 1) /\
  (forall rp np : R, mla_logit 40 (707 / 1000) (707 / 1000) rp np = (707 / 10000 * ln 40 + 1) ^ 2 * (rp + np)) /\
  (1589 / 1000 < (707 / 10000 * ln 40 + 1) ^ 2 < 1590 / 1000)
"""),
    ),
    "DEEPSEEK-V3-MSCALE": (
        ("Scaling", "deepseek_v3_mscale", r"""
(forall s ms msa rp np : R, 1 < s -> 0 <= ms -> 0 <= msa ->
     mla_logit s ms msa rp np = deepseek_mscale s ms ^ 2 * rp + deepseek_mscale s msa ^ 2 * np /\
     ((forall rp' np', mla_logit s ms msa rp' np' = deepseek_mscale s ms ^ 2 * (rp' + np')) <-> ms = msa)) /\
  (forall rp np : R, mla_logit 40 1 1 rp np = yarn_mscale 40 ^ 2 * (rp + np)) /\
  (1873 / 1000 < yarn_mscale 40 ^ 2 < 1874 / 1000)
"""),
    ),
    "LLAMA3-BAND-EDGES": (
        ("Scaling", "llama3_band_edges", r"""
forall s lf hf L0 theta : R, 0 < lf < hf -> 0 < L0 -> 0 < theta ->
  llama3_frequency s lf hf L0 theta = llama3_frequency_closed s lf hf L0 theta
"""),
    ),
    "LLAMA3-IS-BY-PARTS": (
        ("Scaling", "llama3_is_by_parts", r"""
forall s lf hf L0 theta : R, 0 < lf < hf -> 0 < L0 -> 0 < theta ->
  llama3_frequency s lf hf L0 theta = by_parts s theta (ramp_gamma lf hf (L0 / wavelength theta))
"""),
    ),
    "LONGROPE-ATTENTION-SCALE": (
        ("Scaling", "longrope_attention_scale", r"""
(forall s L0 : R, 1 < L0 -> 1 <= s ->
     1 <= longrope_attention_factor s L0 /\ (longrope_attention_factor s L0 = 1 <-> s = 1)) /\
  longrope_attention_factor 32 4096 = sqrt (17 / 12) /\
  (forall s L0 : R, 1 < s -> exp 5 < L0 -> longrope_attention_factor s L0 < yarn_mscale s)
"""),
    ),
    "ALIBI-SLOPES-GENERAL": (
        ("Scaling", "alibi_slopes_general_negation", r"""
~ (forall n : nat, (1 <= n)%nat -> alibi_reference_slopes n = alibi_slopes n)
"""),
        ("Scaling", "alibi_slopes_general_correction", r"""
(forall k : nat, alibi_reference_slopes (2 ^ k) = alibi_slopes (2 ^ k)) /\
  (forall n : nat, (1 <= n)%nat -> (2 ^ Nat.log2 n <> n)%nat ->
     List.In (Rpower 2 (- 4 / INR (2 ^ Nat.log2 n))) (alibi_reference_slopes n) /\
     ~ List.In (Rpower 2 (- 4 / INR (2 ^ Nat.log2 n))) (alibi_slopes n))
"""),
    ),
    "MROPE-TEXT-REDUCES": (
        ("Scaling", "mrope_text_reduces", r"""
forall (theta : nat -> R) (h : nat) (pos : nat -> R) (section : nat -> nat) (p : R) (x : vec),
  (forall i : nat, (i < h)%nat -> pos (section i) = p) ->
  forall j : nat, mrope theta h pos section x j = rope theta h p x j
"""),
    ),
    "T5-BUCKET-SATURATION": (
        ("Scaling", "t5_bucket_saturation", r"""
(forall nb md n : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (md <= n)%Z -> t5_bucket nb md n = (nb - 1)%Z) /\
  (forall nb md n n' : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (0 <= n <= n')%Z ->
     (t5_bucket nb md n <= t5_bucket nb md n')%Z) /\
  (forall nb md n : Z, (2 <= nb)%Z -> (0 <= n < nb / 2)%Z -> t5_bucket nb md n = n) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 16 128 n = 15%Z <-> (91 <= n)%Z)) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 32 128 n = 31%Z <-> (113 <= n)%Z))
"""),
    ),
    "CRITICAL-DIMENSION-LIU": (
        ("Scaling", "critical_dimension_liu", r"""
(forall (b T : R) (n : nat), 1 < b -> critical_dimension b T n = (2 * Raux.Zceil (correction_dim T b n 1))%Z) /\
  critical_dimension 10000 4096 64 = 92%Z /\ critical_dimension 500000 4096 64 = 64%Z /\
  critical_dimension 1000000 4096 64 = 62%Z
"""),
    ),
    "XIONG-SCORE-DECAY": (
        ("Scaling", "xiong_score_decay_negation", r"""
~ (forall r r' : R, 0 <= r <= r' -> all_ones_score 10000 64 r' <= all_ones_score 10000 64 r)
"""),
        ("Scaling", "xiong_score_decay_correction", r"""
forall (b r : R) (n : nat), 0 < b -> (1 <= n)%nat ->
  all_ones_score b n r <= all_ones_score b n 0 /\ all_ones_score b n 0 = 2 * INR n /\
  (0 < Rabs r < 2 * PI -> all_ones_score b n r < all_ones_score b n 0)
"""),
    ),
    "XPOS-RELATIVE-DECAY": (
        ("Scaling", "xpos_relative_decay", r"""
(forall zeta B n m c : R, 0 < zeta -> B <> 0 ->
     xpos_scale zeta B (n + c) * xpos_scale zeta B (- (m + c)) = xpos_scale zeta B (n - m)) /\
  (forall L j : Z, ((L - 1 + (- L) / 2) - (j + (- L) / 2) = L - 1 - j)%Z) /\
  (forall n : nat, (1 <= n)%nat -> xpos_zeta n 0 = 2 / 7) /\
  (forall n i : nat, (i < n)%nat -> 0 < xpos_zeta n i < 1)
"""),
    ),
    "XPOS-FP16-RANGE": (
        ("Scaling", "xpos_fp16_range", r"""
(forall p : nat, (p <= 3966)%nat <-> Rpower 2 (-14) <= xpos_scale (2 / 7) 512 (INR p)) /\
  (forall p : nat, (p <= 4532)%nat <-> xpos_scale (2 / 7) 512 (- INR p) <= 65504)
"""),
    ),
    "PI-INTERPOLATION-BOUND": (
        ("Scaling", "pi_interpolation_bound_negation", r"""
~ (forall (n : nat) (c s1 s2 s : R) (hr hi : nat -> R), (1 <= n)%nat -> 1 < c -> s1 < s2 -> s1 <= s <= s2 ->
       Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
       <= INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c))
"""),
        ("Scaling", "pi_interpolation_bound_correction", r"""
forall (n : nat) (c s1 s2 s : R) (hr hi : nat -> R), (1 <= n)%nat -> 1 < c -> s1 < s2 -> s1 <= s <= s2 ->
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= max_modulus hr hi n * (rsum n (fun j => rope_frequency c (2 * n) j ^ 2) / 2) * (s - s1) * (s2 - s) /\
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c)
       + max_modulus hr hi n * (s - s1) * (s2 - s) / 2
"""),
    ),
    "PI-B-EXCEEDS-D": (
        ("InterpolationSizes", "pi_b_exceeds_d", r"""
forall s : nat, (s < 4096)%nat -> 128 < pi_b_sum 10000 64 (INR s)
"""),
    ),
    "PI-EXTRAPOLATION-RATIO": (
        ("InterpolationSizes", "pi_extrapolation_ratio_negation", r"""
~ (forall s : nat, (s < 4096)%nat ->
       2 * (29473 / 100) * (rsum 64 (fun j => rope_frequency 10000 (2 * 64) j ^ 2) / 8)
       <= 2 * pi_b_sum 10000 64 (INR s))
"""),
        ("InterpolationSizes", "pi_extrapolation_ratio_correction", r"""
forall s : nat, (s < 4096)%nat ->
  564 * (rsum 64 (fun j => rope_frequency 10000 (2 * 64) j ^ 2) / 8) < 2 * pi_b_sum 10000 64 (INR s)
"""),
        ("InterpolationSizes", "pi_extrapolation_ratio_literal", r"""
forall s : nat, (s < 4096)%nat -> 2 * (29473 / 100) * (128 / (32 * ln 10000)) < 2 * pi_b_sum 10000 64 (INR s)
"""),
    ),
    "LONGROPE-START-TOKEN": (
        ("Scaling", "longrope_start_token_negation", r"""
~ (forall lambda theta nhat n m k : R, 1 < lambda -> 0 < theta -> 0 < nhat -> 0 <= m <= n -> 0 <= k ->
       longrope_angle lambda theta nhat (n + k) - longrope_angle lambda theta nhat (m + k) =
       longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m)
"""),
        ("Scaling", "longrope_start_token_correction", r"""
(forall lambda theta nhat n m : R, 0 < lambda -> nhat <= m -> nhat <= n ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m = (n - m) * theta / lambda) /\
  (forall lambda theta nhat n m : R, m < nhat -> n < nhat ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m = (n - m) * theta) /\
  (forall lambda theta nhat n m : R, 0 < lambda -> m < nhat <= n ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m =
     (n - m) * theta / lambda + m * theta * (/ lambda - 1))
"""),
    ),
    "QWEN-DYNAMIC-NTK": (
        ("Scaling", "qwen_dynamic_ntk_negation", r"""
~ (forall x : R, 0 < x -> qwen_ntk_alpha x = dynamic_alpha_paper x)
"""),
        ("Scaling", "qwen_dynamic_ntk_correction", r"""
(forall x : R, 0 < x <= 1 -> qwen_ntk_alpha x = 1) /\
  (forall x : R, 1 < x -> 2 * x - 1 <= qwen_ntk_alpha x < 4 * x - 1) /\
  (forall x : R, 1 < x -> dynamic_alpha_paper x < qwen_ntk_alpha x)
"""),
    ),
    "NOPE-POSITION-READOUT": (
        ("Scaling", "nope_position_readout", r"""
forall (c : R) (v : nat -> R), v 0%nat = 1 -> (forall j, (1 <= j)%nat -> v j = 0) ->
  (forall t : nat, causal_readout (fun _ => c) v t = 1 / INR (S t)) /\
  (forall t t' : nat, causal_readout (fun _ => c) v t = causal_readout (fun _ => c) v t' -> t = t')
"""),
    ),
    "MEN-TABLE2-D128": (
        ("Scaling", "men_table2_d128_negation", r"""
~ (forall m : R, 0 <= m <= 16000 -> 0 <= all_ones_score 310000 64 m)
"""),
        ("Scaling", "men_table2_d128_correction", r"""
((forall m : R, 0 <= m <= 1222262 / 100 -> 0 <= all_ones_score 310000 64 m) /\
   (forall m : R, 0 <= m <= 2246554 / 100 -> 0 <= all_ones_score 640000 64 m)) /\
  (all_ones_score 310000 64 (1222263 / 100) < 0 /\ all_ones_score 640000 64 (2246555 / 100) < 0) /\
  (all_ones_score 310000 64 12223 < 0 /\ all_ones_score 640000 64 27685 < 0)
"""),
    ),
}
