(** * Averages.v: SPE-DOT-AVERAGES-OUT as the seed states it.

    Seed 001: "As |i - j| grows, the sum of cosines averages out, leading to
    lower dot product", after saying that in SPE the score decays "in a
    non-monotonic manner".  The score of two positions D apart is
    S(D) = <PE(p), PE(p + D)> = sum_k cos(w_k D) (Sinusoidal.spe_dot_relative).
    Read as two facts:
    - averages out: the mean of S over any window of n consecutive distances,
      wherever the window starts, is at most C/n — it tends to 0 uniformly in
      the window's start, for every even d;
    - lower dot product: at every nonzero distance (every real D) S(D) is
      strictly below S(0) = d/2, at d = 128, base 10000.
    S(D) itself does not tend to 0 (SinusoidalDecay.spe_dot_averages_out_literal_negation)
    and is not monotone (SPE-DOT-NONMONOTONE), as the seed itself says. *)

From Coq Require Import Reals Lia Lra.
From Ropecheck Require Import Defs DefsSinusoidal DefsAverages.
From Ropecheck Require Sinusoidal SinusoidalDecay Decay Positions.

Open Scope R_scope.

(* Dirichlet's kernel for a window starting at phase a, multiplied out so
   that no division by sin(w/2) appears. *)
Lemma dirichlet_window_sum a w N :
  2 * sin (w / 2) * sum N (fun D => cos (a + w * INR D)) = sin (a + (INR N - / 2) * w) - sin (a - w / 2).
Proof.
  induction N as [|N IH].
  - rewrite sum_0; change (INR 0) with 0.
    replace (a + (0 - / 2) * w) with (a - w / 2) by field; ring.
  - rewrite sum_S, Rmult_plus_distr_l, IH, S_INR.
    replace (a + (INR N + 1 - / 2) * w) with ((a + w * INR N) + w / 2) by field.
    replace (a + (INR N - / 2) * w) with ((a + w * INR N) - w / 2) by field.
    set (x := a + w * INR N).
    rewrite (sin_plus x (w / 2)), (sin_minus x (w / 2)); ring.
Qed.

Lemma dirichlet_window_bound a w N : sin (w / 2) <> 0 ->
  Rabs (sum N (fun D => cos (a + w * INR D))) <= / Rabs (sin (w / 2)).
Proof.
  intros Hs; assert (Hpos : 0 < Rabs (sin (w / 2))) by (apply Rabs_pos_lt; exact Hs).
  assert (Hprod : 2 * Rabs (sin (w / 2)) * Rabs (sum N (fun D => cos (a + w * INR D))) <= 2).
  { replace 2 with (Rabs 2) at 1 by (apply Rabs_right; lra).
    rewrite <- !Rabs_mult, dirichlet_window_sum.
    unfold Rminus; eapply Rle_trans; [apply Rabs_triang|]; rewrite Rabs_Ropp.
    pose proof (SIN_bound (a + (INR N + - / 2) * w)); pose proof (SIN_bound (a + - (w / 2))).
    assert (Rabs (sin (a + (INR N + - / 2) * w)) <= 1) by (apply Rabs_le; lra).
    assert (Rabs (sin (a + - (w / 2))) <= 1) by (apply Rabs_le; lra).
    lra. }
  apply (Rmult_le_reg_l (Rabs (sin (w / 2)))); [exact Hpos|].
  rewrite Rinv_r by lra; lra.
Qed.

Lemma window_mean_bound h p M n : (1 <= n)%nat ->
  Rabs (window_mean h p M n) <= SinusoidalDecay.spectrum_dirichlet_sum h / INR n.
Proof.
  intros Hn; unfold window_mean, Sinusoidal.spe.
  set (w := rope_spectrum 10000 h).
  rewrite (sum_ext n _ (fun D => sum h (fun i => cos (w i * INR M + w i * INR D)))).
  2: { intros D _; rewrite Sinusoidal.spe_dot_relative; apply sum_ext; intros i _.
       rewrite plus_INR, <- cos_neg; f_equal; ring. }
  rewrite sum_swap; assert (0 < INR n) by (apply lt_0_INR; lia).
  unfold Rdiv; rewrite Rabs_mult, (Rabs_right (/ INR n)) by (left; apply Rinv_0_lt_compat; lra).
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
  eapply Rle_trans; [apply sum_abs_le|].
  apply sum_le; intros i Hi; apply dirichlet_window_bound.
  pose proof (SinusoidalDecay.spectrum_sin_half_pos h i Hi); unfold w; lra.
Qed.

(* At d = 128 some pair of the score at a nonzero distance is below 1. *)
Lemma score_128_below (p D : R) : D <> 0 ->
  dot (2 * 64) (Sinusoidal.spe 64 p) (Sinusoidal.spe 64 (p + D))
  < dot (2 * 64) (Sinusoidal.spe 64 p) (Sinusoidal.spe 64 p).
Proof.
  intros HD; rewrite Sinusoidal.dot_spe_self, <- Sinusoidal.sum_const_1.
  unfold Sinusoidal.spe; rewrite Sinusoidal.spe_dot_relative.
  rewrite (sum_ext 64 _ (fun i => cos ((0 - D) * Decay.ratio_128 ^ i))).
  2: { intros i _; rewrite Decay.spectrum_128; f_equal; ring. }
  assert (Hle : forall i, (i < 64)%nat -> cos ((0 - D) * Decay.ratio_128 ^ i) <= 1)
    by (intros i _; pose proof (COS_bound ((0 - D) * Decay.ratio_128 ^ i)); lra).
  destruct (Rlt_or_le (cos ((0 - D) * Decay.ratio_128 ^ 0)) 1) as [H0|H0].
  - exact (Decay.sum_lt_at 64 0 _ _ ltac:(lia) Hle H0).
  - destruct (Rlt_or_le (cos ((0 - D) * Decay.ratio_128 ^ 1)) 1) as [H1|H1].
    + exact (Decay.sum_lt_at 64 1 _ _ ltac:(lia) Hle H1).
    + exfalso; apply HD.
      pose proof (Hle 0%nat ltac:(lia)); pose proof (Hle 1%nat ltac:(lia)).
      symmetry; apply (Positions.full_turns_128_same_position 0 D); lra.
Qed.

(* SPE-DOT-AVERAGES-OUT: the window means of the score tend to 0 uniformly
   in the window's start (every even d, every p), and at d = 128 the score
   at every nonzero distance is strictly below its value d/2 at distance 0. *)
Theorem spe_dot_averages_out :
  (forall (h : nat) (p eps : R), 0 < eps ->
     exists N : nat, forall n M : nat, (N <= n)%nat -> Rabs (window_mean h p M n) < eps)
  /\ (forall p D : R, D <> 0 ->
        dot 128 (Sinusoidal.spe 64 p) (Sinusoidal.spe 64 (p + D))
        < dot 128 (Sinusoidal.spe 64 p) (Sinusoidal.spe 64 p)).
Proof.
  split; [|exact score_128_below].
  intros h p eps Heps.
  apply (SinusoidalDecay.bounded_mean_small (SinusoidalDecay.spectrum_dirichlet_sum h) eps (window_mean h p)
           (SinusoidalDecay.spectrum_dirichlet_sum_nonneg h) Heps).
  intros M n Hn; apply window_mean_bound; exact Hn.
Qed.

(* The definitions live in DefsAverages.v; this abbreviation keeps `Averages.name` working for importers. *)
Notation window_mean := DefsAverages.window_mean (only parsing).
