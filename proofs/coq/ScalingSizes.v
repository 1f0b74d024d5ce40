(** * ScalingSizes: YaRN's ramp decided at Llama 2's sizes (d = 128, b = 10^4, L = 4096, s = 16,
    alpha = 1, beta = 32; beta_fast = 32, beta_slow = 1), pair by pair with `interval`. *)

From Coq Require Import ZArith Reals Lra Lia List.
From Flocq Require Import Raux.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs DefsScaling.
Local Open Scope R_scope.

Lemma llama2_ramp_low : ramp_low 4096 10000 64 32 = 20%Z.
Proof.
  unfold ramp_low, correction_dim. rewrite (Zfloor_imp 20).
  - reflexivity.
  - rewrite INR_IZR_INZ. change (Z.of_nat (2 * 64)) with 128%Z. split; interval.
Qed.

Lemma llama2_ramp_high : ramp_high 4096 10000 64 1 = 46%Z.
Proof.
  unfold ramp_high, correction_dim. rewrite (Zceil_imp 46).
  - reflexivity.
  - rewrite INR_IZR_INZ. change (Z.of_nat (2 * 64)) with 128%Z. split; interval.
Qed.

(* The code's frequency equals the paper's exactly when 1 - ramp equals gamma (theta > 0, s = 16). *)
Lemma code_paper_gamma (i : nat) :
  yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i <->
  1 - code_ramp 20 46 i = ramp_gamma 1 32 (yarn_ratio 4096 10000 64 i).
Proof.
  unfold yarn_code_frequency, yarn_paper_frequency, by_parts. cbv zeta.
  rewrite llama2_ramp_low, llama2_ramp_high.
  assert (Ht : 0 < rope_frequency 10000 (2 * 64) i) by (unfold rope_frequency, Rpower; apply exp_pos).
  set (t := rope_frequency 10000 (2 * 64) i) in *. set (g := ramp_gamma 1 32 (yarn_ratio 4096 10000 64 i)).
  set (r := code_ramp 20 46 i). split; intro E.
  - assert (t * (15 / 16) * (1 - r - g) = 0) by (unfold Rdiv in E; lra).
    apply Rmult_integral in H. destruct H as [H|H]; [nra|lra].
  - rewrite <- E. unfold Rdiv. ring.
Qed.

Ltac refute_by_interval :=
  match goal with
  | H : ?a < ?b |- _ => assert (b <= a) by interval; lra
  | H : ~ ?a < ?b |- _ => assert (a < b) by interval; lra
  end.

Ltac split_branches :=
  repeat match goal with
         | |- context [Rlt_dec ?a ?b] => destruct (Rlt_dec a b)
         | |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b)
         | H : context [Rlt_dec ?a ?b] |- _ => destruct (Rlt_dec a b)
         | H : context [Rle_dec ?a ?b] |- _ => destruct (Rle_dec a b)
         end.

Ltac numerals :=
  repeat match goal with
         | |- context [INR ?k] => rewrite (INR_IZR_INZ k); let v := eval vm_compute in (Z.of_nat k) in
                                  change (Z.of_nat k) with v
         | H : context [INR ?k] |- _ => rewrite (INR_IZR_INZ k) in H; let v := eval vm_compute in (Z.of_nat k) in
                                  change (Z.of_nat k) with v in H
         end.

Ltac ramp_at :=
  rewrite code_paper_gamma; unfold code_ramp, ramp_gamma, yarn_ratio, wavelength, rope_frequency, Rpower, Rmax, Rmin;
  numerals;
  first
    [ split; [intros _; lia|intros _; split_branches; try lra; try refute_by_interval; lra]
    | split; [intro E; exfalso; split_branches; try lra; try refute_by_interval;
              match goal with H : @eq R ?a ?b |- False => first [assert (a < b) by interval | assert (b < a) by interval]; lra end
             |lia] ].

Theorem yarn_ramp_llama2 : forall i : nat, (i < 64)%nat ->
  (yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i <->
   (i <= 20 \/ 46 <= i)%nat).
Proof.
  intros i Hi.
  do 64 (destruct i as [|i]; [ramp_at|]). lia.
Qed.

(** ** T5's buckets: monotone, saturating, and where the last bucket starts at T5's sizes *)

Lemma t5_large (nb md n : Z) : (2 <= nb)%Z -> (nb / 2 <= n)%Z ->
  t5_bucket nb md n = Z.min (nb - 1)
    (nb / 2 + Zfloor (ln (IZR n / IZR (nb / 2)) / ln (IZR md / IZR (nb / 2)) * IZR (nb - nb / 2)))%Z.
Proof.
  intros Hnb Hn. unfold t5_bucket. destruct (Z.ltb_spec n (nb / 2)); [lia|reflexivity].
Qed.

Lemma t5_half (nb : Z) : (2 <= nb)%Z -> (1 <= nb / 2 /\ nb / 2 <= nb - 1 /\ nb / 2 < nb - nb / 2 + 1)%Z.
Proof. intro. split; [|split]; [apply Z.div_le_lower_bound|apply Z.div_le_upper_bound|]; try lia.
  pose proof (Z.mul_div_le nb 2). lia. Qed.

Lemma t5_log_nonneg (nb md n : Z) : (2 <= nb)%Z -> (nb / 2 < md)%Z -> (nb / 2 <= n)%Z ->
  0 <= ln (IZR n / IZR (nb / 2)) / ln (IZR md / IZR (nb / 2)) * IZR (nb - nb / 2).
Proof.
  intros Hnb Hmd Hn. destruct (t5_half nb Hnb) as [H1 [H2 H3]].
  apply IZR_le in H1. apply IZR_le in Hn. apply IZR_lt in Hmd.
  assert (1 <= IZR n / IZR (nb / 2)) by (apply Rmult_le_reg_r with (IZR (nb / 2)); [lra|];
    unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
  assert (1 < IZR md / IZR (nb / 2)) by (apply Rmult_lt_reg_r with (IZR (nb / 2)); [lra|];
    unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
  assert (0 <= ln (IZR n / IZR (nb / 2))) by (rewrite <- ln_1; destruct H; [left; apply ln_increasing; lra|rewrite <- H; lra]).
  assert (0 < ln (IZR md / IZR (nb / 2))) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (0 <= IZR (nb - nb / 2)) by (apply IZR_le; lia).
  apply Rmult_le_pos; [|assumption]. apply Rmult_le_pos; [assumption|left; apply Rinv_0_lt_compat; assumption].
Qed.

Theorem t5_monotone (nb md n n' : Z) : (2 <= nb)%Z -> (nb / 2 < md)%Z -> (0 <= n <= n')%Z ->
  (t5_bucket nb md n <= t5_bucket nb md n')%Z.
Proof.
  intros Hnb Hmd Hn. destruct (t5_half nb Hnb) as [H1 [H2 H3]].
  destruct (Z.ltb_spec n' (nb / 2)).
  - unfold t5_bucket. destruct (Z.ltb_spec n (nb / 2)); destruct (Z.ltb_spec n' (nb / 2)); lia.
  - rewrite (t5_large nb md n') by lia.
    pose proof (Zfloor_le _ _ (t5_log_nonneg nb md n' Hnb Hmd ltac:(lia))) as F. rewrite Zfloor_IZR in F.
    destruct (Z.ltb_spec n (nb / 2)).
    + unfold t5_bucket. destruct (Z.ltb_spec n (nb / 2)); [|lia]. lia.
    + rewrite (t5_large nb md n) by lia. apply Z.min_le_compat_l. apply Z.add_le_mono_l. apply Zfloor_le.
      destruct (t5_half nb Hnb) as [K1 _]. apply IZR_le in K1.
      assert (Hq : IZR n / IZR (nb / 2) <= IZR n' / IZR (nb / 2)).
      { unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|apply IZR_le; lia]. }
      assert (1 <= IZR n / IZR (nb / 2)) by (apply Rmult_le_reg_r with (IZR (nb / 2)); [lra|];
        unfold Rdiv; rewrite Rmult_assoc, Rinv_l; [rewrite Rmult_1_l, Rmult_1_r; apply IZR_le; lia|lra]).
      assert (1 < IZR md / IZR (nb / 2)) by (apply Rmult_lt_reg_r with (IZR (nb / 2)); [lra|];
        unfold Rdiv; rewrite Rmult_assoc, Rinv_l; [rewrite Rmult_1_l, Rmult_1_r; apply IZR_lt; lia|lra]).
      assert (0 < ln (IZR md / IZR (nb / 2))) by (rewrite <- ln_1; apply ln_increasing; lra).
      assert (0 <= IZR (nb - nb / 2)) by (apply IZR_le; lia).
      apply Rmult_le_compat_r; [assumption|]. unfold Rdiv at 1 3. apply Rmult_le_compat_r;
        [left; apply Rinv_0_lt_compat; assumption|].
      destruct Hq as [Hq|Hq]; [left; apply ln_increasing; lra|rewrite Hq; lra].
Qed.

Theorem t5_saturates (nb md n : Z) : (2 <= nb)%Z -> (nb / 2 < md)%Z -> (md <= n)%Z -> t5_bucket nb md n = (nb - 1)%Z.
Proof.
  intros Hnb Hmd Hn. destruct (t5_half nb Hnb) as [H1 [H2 H3]].
  rewrite t5_large by lia. apply Z.min_l.
  assert (K : IZR (nb - nb / 2) <= ln (IZR n / IZR (nb / 2)) / ln (IZR md / IZR (nb / 2)) * IZR (nb - nb / 2)).
  { apply IZR_le in H1. 
    assert (1 < IZR md / IZR (nb / 2)) by (apply Rmult_lt_reg_r with (IZR (nb / 2)); [lra|];
        unfold Rdiv; rewrite Rmult_assoc, Rinv_l; [rewrite Rmult_1_l, Rmult_1_r; apply IZR_lt; lia|lra]).
    assert (Hq : IZR md / IZR (nb / 2) <= IZR n / IZR (nb / 2)).
    { unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|apply IZR_le; lia]. }
    assert (0 < ln (IZR md / IZR (nb / 2))) by (rewrite <- ln_1; apply ln_increasing; lra).
    assert (ln (IZR md / IZR (nb / 2)) <= ln (IZR n / IZR (nb / 2)))
      by (destruct Hq as [Hq|Hq]; [left; apply ln_increasing; lra|rewrite Hq; lra]).
    assert (0 <= IZR (nb - nb / 2)) by (apply IZR_le; lia).
    rewrite <- (Rmult_1_l (IZR (nb - nb / 2))) at 1. apply Rmult_le_compat_r; [assumption|].
    apply Rmult_le_reg_r with (ln (IZR md / IZR (nb / 2))); [assumption|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  apply Zfloor_le in K. rewrite Zfloor_IZR in K. lia.
Qed.

Lemma t5_encoder_90 : t5_bucket 16 128 90 = 14%Z.
Proof.
  rewrite t5_large by (vm_compute; congruence). change (16 / 2)%Z with 8%Z. change (16 - 8)%Z with 8%Z.
  rewrite (Zfloor_imp 6); [reflexivity|]. change (6 + 1)%Z with 7%Z. split; interval.
Qed.

Lemma t5_encoder_91 : t5_bucket 16 128 91 = 15%Z.
Proof.
  rewrite t5_large by (vm_compute; congruence). change (16 / 2)%Z with 8%Z. change (16 - 8)%Z with 8%Z.
  rewrite (Zfloor_imp 7); [reflexivity|]. change (7 + 1)%Z with 8%Z. split; interval.
Qed.

Lemma t5_decoder_112 : t5_bucket 32 128 112 = 30%Z.
Proof.
  rewrite t5_large by (vm_compute; congruence). change (32 / 2)%Z with 16%Z. change (32 - 16)%Z with 16%Z.
  rewrite (Zfloor_imp 14); [reflexivity|]. change (14 + 1)%Z with 15%Z. split; interval.
Qed.

Lemma t5_decoder_113 : t5_bucket 32 128 113 = 31%Z.
Proof.
  rewrite t5_large by (vm_compute; congruence). change (32 / 2)%Z with 16%Z. change (32 - 16)%Z with 16%Z.
  rewrite (Zfloor_imp 15); [reflexivity|]. change (15 + 1)%Z with 16%Z. split; interval.
Qed.

Lemma t5_cap (nb md n : Z) : (2 <= nb)%Z -> (t5_bucket nb md n <= nb - 1)%Z \/ (n < nb / 2)%Z.
Proof.
  intros Hnb. unfold t5_bucket. destruct (Z.ltb_spec n (nb / 2)); [right; lia|left; apply Z.le_min_l].
Qed.

Theorem t5_buckets_at_sizes :
  (forall nb md n : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (md <= n)%Z -> t5_bucket nb md n = (nb - 1)%Z) /\
  (forall nb md n n' : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (0 <= n <= n')%Z ->
     (t5_bucket nb md n <= t5_bucket nb md n')%Z) /\
  (forall nb md n : Z, (2 <= nb)%Z -> (0 <= n < nb / 2)%Z -> t5_bucket nb md n = n) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 16 128 n = 15%Z <-> (91 <= n)%Z)) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 32 128 n = 31%Z <-> (113 <= n)%Z)).
Proof.
  split; [exact t5_saturates|split; [exact t5_monotone|split; [|split]]].
  - intros nb md n Hnb Hn. unfold t5_bucket. destruct (Z.ltb_spec n (nb / 2)); lia.
  - intros n Hn. split; intro H.
    + destruct (Z.le_gt_cases 91 n) as [K|K]; [exact K|].
      pose proof (t5_monotone 16 128 n 90 ltac:(lia) ltac:(vm_compute; reflexivity) ltac:(lia)).
      rewrite t5_encoder_90 in H0. lia.
    + pose proof (t5_monotone 16 128 91 n ltac:(lia) ltac:(vm_compute; reflexivity) ltac:(lia)).
      rewrite t5_encoder_91 in H0. destruct (t5_cap 16 128 n ltac:(lia)) as [C|C]; [lia|].
      change (16 / 2)%Z with 8%Z in C. lia.
  - intros n Hn. split; intro H.
    + destruct (Z.le_gt_cases 113 n) as [K|K]; [exact K|].
      pose proof (t5_monotone 32 128 n 112 ltac:(lia) ltac:(vm_compute; reflexivity) ltac:(lia)).
      rewrite t5_decoder_112 in H0. lia.
    + pose proof (t5_monotone 32 128 113 n ltac:(lia) ltac:(vm_compute; reflexivity) ltac:(lia)).
      rewrite t5_decoder_113 in H0. destruct (t5_cap 32 128 n ltac:(lia)) as [C|C]; [lia|].
      change (32 / 2)%Z with 16%Z in C. lia.
Qed.

(** ** xPos: the scale zeta_0^(pos/512) = (2/7)^(pos/512) in float16 *)

Lemma exp_le_mono (x y : R) : x <= y -> exp x <= exp y.
Proof. intros [H|H]; [left; apply exp_increasing; exact H|rewrite H; lra]. Qed.

(* (2/7)^(x/512) = exp(x * (ln(2/7)/512)): decreasing in x. *)
Lemma xpos_scale_exp (x : R) : xpos_scale (2 / 7) 512 x = exp (x * (ln (2 / 7) / 512)).
Proof. unfold xpos_scale, Rpower. f_equal. field. Qed.

Lemma ln_two_sevenths : ln (2 / 7) < 0.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Theorem xpos_range_fp16_at_sizes :
  (forall p : nat, (p <= 3966)%nat <-> Rpower 2 (-14) <= xpos_scale (2 / 7) 512 (INR p)) /\
  (forall p : nat, (p <= 4532)%nat <-> xpos_scale (2 / 7) 512 (- INR p) <= 65504).
Proof.
  pose proof ln_two_sevenths as L. split; intro p; rewrite xpos_scale_exp; split; intro H.
  - apply Rle_trans with (exp (3966 * (ln (2 / 7) / 512))); [unfold Rpower; interval|].
    apply exp_le_mono. apply le_INR in H. replace (INR 3966) with 3966 in H by (rewrite INR_IZR_INZ; reflexivity).
    assert (ln (2 / 7) / 512 < 0) by lra. nra.
  - destruct (le_lt_dec p 3966) as [K|K]; [exact K|exfalso].
    assert (INR p >= 3967) by (assert (INR p >= INR 3967) by (apply Rle_ge, le_INR; lia);
      replace (INR 3967) with 3967 in * by (rewrite INR_IZR_INZ; reflexivity); lra).
    assert (exp (INR p * (ln (2 / 7) / 512)) <= exp (3967 * (ln (2 / 7) / 512))) by (apply exp_le_mono; nra).
    assert (exp (3967 * (ln (2 / 7) / 512)) < Rpower 2 (-14)) by (unfold Rpower; interval). lra.
  - apply Rle_trans with (exp (- 4532 * (ln (2 / 7) / 512))); [|interval].
    apply exp_le_mono. apply le_INR in H. replace (INR 4532) with 4532 in H by (rewrite INR_IZR_INZ; reflexivity).
    nra.
  - destruct (le_lt_dec p 4532) as [K|K]; [exact K|exfalso].
    assert (INR p >= 4533) by (assert (INR p >= INR 4533) by (apply Rle_ge, le_INR; lia);
      replace (INR 4533) with 4533 in * by (rewrite INR_IZR_INZ; reflexivity); lra).
    assert (exp (- 4533 * (ln (2 / 7) / 512)) <= exp (- INR p * (ln (2 / 7) / 512))) by (apply exp_le_mono; nra).
    assert (65504 < exp (- 4533 * (ln (2 / 7) / 512))) by interval. lra.
Qed.

(** ** Xiong et al.: the all-ones score at d = 128, b = 10^4 rises from distance 11 to 12 *)

Lemma xiong_rises_11_to_12 : all_ones_score 10000 64 11 < all_ones_score 10000 64 12.
Proof.
  unfold all_ones_score. cbn [rsum]. unfold rope_frequency, Rpower. numerals. interval.
Qed.

(** ** Liu et al.: the critical dimension at d = 128, T = 4096 *)

Lemma critical_dimension_llama2 :
  critical_dimension 10000 4096 64 = 92%Z /\ critical_dimension 500000 4096 64 = 64%Z /\
  critical_dimension 1000000 4096 64 = 62%Z.
Proof.
  unfold critical_dimension. rewrite INR_IZR_INZ. change (Z.of_nat 64) with 64%Z. split; [|split].
  - rewrite (Zceil_imp 46); [reflexivity|]. change (46 - 1)%Z with 45%Z. split; interval.
  - rewrite (Zceil_imp 32); [reflexivity|]. change (32 - 1)%Z with 31%Z. split; interval.
  - rewrite (Zceil_imp 31); [reflexivity|]. change (31 - 1)%Z with 30%Z. split; interval.
Qed.

(** ** Men et al.: B_{m,theta} = sum_i cos(m theta_i) (half the all-ones score) at d = 128 for Table 2's
    16k and 32k bases: negative before the context length, at real m one hundredth past the first zero
    (12222.6266.., 22465.5468..; B(12222.62) > 0 and B(22465.54) > 0: the perturbations) and at the first
    negative integers (B(12222) > 0; every integer below 27685 has B > 0 with the 32k base, numerically) *)

(* Both points of a base in one lemma: the sum is unfolded and its numerals computed once (about half the
   cost of one lemma per point). *)
Lemma men_table2_16k_at (m : R) : m = 1222263 / 100 \/ m = 12223 -> all_ones_score 310000 64 m < 0.
Proof.
  intros Hm. unfold all_ones_score. cbn [rsum]. unfold rope_frequency, Rpower. numerals.
  destruct Hm as [-> | ->]; interval.
Qed.

Lemma men_table2_32k_at (m : R) : m = 2246555 / 100 \/ m = 27685 -> all_ones_score 640000 64 m < 0.
Proof.
  intros Hm. unfold all_ones_score. cbn [rsum]. unfold rope_frequency, Rpower. numerals.
  destruct Hm as [-> | ->]; interval.
Qed.

Lemma men_table2_16k : all_ones_score 310000 64 12223 < 0.
Proof. apply men_table2_16k_at; right; reflexivity. Qed.

Lemma men_table2_32k : all_ones_score 640000 64 27685 < 0.
Proof. apply men_table2_32k_at; right; reflexivity. Qed.

Lemma men_table2_16k_real : all_ones_score 310000 64 (1222263 / 100) < 0.
Proof. apply men_table2_16k_at; left; reflexivity. Qed.

Lemma men_table2_32k_real : all_ones_score 640000 64 (2246555 / 100) < 0.
Proof. apply men_table2_32k_at; left; reflexivity. Qed.
