(* Decay.v — long-range decay (RoFormer's Abel-summation bound), linear
   attention with RoPE and KV caching: the ROPE-DECAY-*, ROPE-LINEAR-* ,
   ROPE-KV-CACHE-* and ROPE-PREFIX-REPHASE claims.

   Vectors, dot products, the RoPE map and the spectrum come from Defs.v; the
   complex numbers of RoFormer section 3.4.3 are Coquelicot's C. *)

From Coq Require Import ZArith Reals Lra Lia.
From Coquelicot Require Import Complex.
From Ropecheck Require Import Defs.
From Ropecheck Require Attention.

Local Open Scope R_scope.
From Ropecheck Require Import DefsDecay.

(* ================================================================== Abel summation *)

(* Abel summation for lengths N >= 1, by induction from the length-1 case
   h_0 z_0 = h_1 S_1 - S_1 (h_1 - h_0). *)
Lemma abel_summation_succ (h z : nat -> C) (N : nat) :
  csum (S N) (fun i => h i * z i)%C
  = (h (S N) * partial_sum z (S N)
     - csum (S N) (fun i => partial_sum z (S i) * (h (S i) - h i)))%C.
Proof.
  induction N as [|N IH].
  - unfold partial_sum; simpl; ring.
  - change (csum (S (S N)) (fun i => h i * z i)%C)
      with (csum (S N) (fun i => h i * z i) + h (S N) * z (S N))%C.
    rewrite IH.
    change (partial_sum z (S (S N))) with (partial_sum z (S N) + z (S N))%C.
    change (csum (S (S N)) (fun i => partial_sum z (S i) * (h (S i) - h i))%C)
      with (csum (S N) (fun i => partial_sum z (S i) * (h (S i) - h i))
            + partial_sum z (S (S N)) * (h (S (S N)) - h (S N)))%C.
    change (partial_sum z (S (S N))) with (partial_sum z (S N) + z (S N))%C.
    ring.
Qed.

(* Abel summation for every length N:
   sum_{i<N} h_i z_i = h_N S_N - sum_{i<N} S_{i+1} (h_{i+1} - h_i). *)
Lemma abel_summation (h z : nat -> C) (N : nat) :
  csum N (fun i => h i * z i)%C
  = (h N * partial_sum z N - csum N (fun i => partial_sum z (S i) * (h (S i) - h i)))%C.
Proof.
  destruct N as [|N].
  - unfold partial_sum; simpl; ring.
  - apply abel_summation_succ.
Qed.

Lemma max_step_ge (h : nat -> C) (N i : nat) :
  (i < N)%nat -> Cmod (h (S i) - h i)%C <= max_step h N.
Proof.
  induction N as [|N IH]; intros Hi; [lia|]; simpl.
  destruct (Nat.eq_dec i N) as [->|Hne].
  - apply Rmax_r.
  - eapply Rle_trans; [apply IH; lia|apply Rmax_l].
Qed.

(* The triangle inequality for finite complex sums. *)
Lemma csum_Cmod_le (N : nat) (f : nat -> C) :
  Cmod (csum N f) <= sum N (fun i => Cmod (f i)).
Proof.
  induction N as [|N IH].
  - simpl; rewrite sum_0, Cmod_0; lra.
  - simpl; rewrite sum_S.
    eapply Rle_trans; [apply Cmod_triangle|lra].
Qed.

(* ROPE-DECAY-BOUND (RoFormer Eqs. 36-37), for every length N = d/2, all
   complex h with h_N = 0, all frequencies theta and every distance D = m - n:
     sum_i h_i e^{i D theta_i} = - sum_i S_{i+1} (h_{i+1} - h_i)   and
     |sum_i h_i e^{i D theta_i}| <= (max_i |h_{i+1} - h_i|) sum_{j=1}^{N} |S_j|. *)
Theorem rope_decay_bound :
  forall (N : nat) (h : nat -> C) (theta : nat -> R) (D : R),
    h N = RtoC 0 ->
    let z := fun i => phase (D * theta i) in
    csum N (fun i => h i * z i)%C
    = (- csum N (fun i => partial_sum z (S i) * (h (S i) - h i)))%C
    /\ Cmod (csum N (fun i => h i * z i)%C)
       <= max_step h N * sum N (fun j => Cmod (partial_sum z (S j))).
Proof.
  intros N h theta D HN z.
  assert (Habel : csum N (fun i => h i * z i)%C
                  = (- csum N (fun i => partial_sum z (S i) * (h (S i) - h i)))%C).
  { rewrite abel_summation, HN; ring. }
  split; [exact Habel|].
  rewrite Habel, Cmod_opp.
  eapply Rle_trans; [apply csum_Cmod_le|].
  rewrite <- sum_scal_l; apply sum_le; intros i Hi.
  rewrite Cmod_mult, Rmult_comm.
  apply Rmult_le_compat_r; [apply Cmod_ge_0|apply max_step_ge; exact Hi].
Qed.

(* ================================================================== the RoPE score *)

(* One pair: <R_a x, R_b y> = <x, R_{b-a} y>.  Every relative statement below
   (linear attention, cache reuse, re-phasing) goes through this. *)
Lemma rot_pair_dot_relative (a b : R) (x y : R * R) :
  fst (rot a x) * fst (rot b y) + snd (rot a x) * snd (rot b y)
  = fst x * fst (rot (b - a) y) + snd x * snd (rot (b - a) y).
Proof. destruct x, y; unfold rot; simpl; rewrite cos_minus, sin_minus; ring. Qed.

Lemma rope_relative (theta : nat -> R) (h : nat) (a b : R) (x y : vec) :
  dot (2 * h) (rope theta h a x) (rope theta h b y)
  = dot (2 * h) x (rope theta h (b - a) y).
Proof.
  rewrite !dot_pairs; apply sum_ext; intros i Hi.
  rewrite !rope_even, !rope_odd by exact Hi.
  replace ((b - a) * theta i) with (b * theta i - a * theta i) by ring.
  apply (rot_pair_dot_relative _ _ (x (2 * i)%nat, x (S (2 * i)))).
Qed.

Lemma rot_pair_dot_phase (a b : R) (x y : R * R) :
  fst (rot a x) * fst (rot b y) + snd (rot a x) * snd (rot b y)
  = fst ((x * Cconj y) * phase (a - b))%C.
Proof.
  destruct x, y; unfold rot, phase, Cconj; simpl.
  rewrite cos_minus, sin_minus; ring.
Qed.

Lemma fst_csum (N : nat) (f : nat -> C) : fst (csum N f) = sum N (fun i => fst (f i)).
Proof.
  induction N as [|N IH]; simpl; [rewrite sum_0; reflexivity|].
  rewrite sum_S, <- IH; reflexivity.
Qed.

Lemma csum_ext (N : nat) (f g : nat -> C) :
  (forall i, (i < N)%nat -> f i = g i) -> csum N f = csum N g.
Proof.
  induction N as [|N IH]; intros Hfg; simpl; [reflexivity|].
  rewrite IH by (intros; apply Hfg; lia).
  rewrite Hfg by lia; reflexivity.
Qed.

(* The real score is the real part of RoFormer's complex sum. *)
Lemma rope_score_as_phase_sum (theta : nat -> R) (h : nat) (m n : R) (q k : vec) :
  rope_score theta h m n q k
  = fst (csum h (fun i => cut_weight q k h i * phase ((m - n) * theta i))%C).
Proof.
  unfold rope_score; rewrite dot_pairs, fst_csum; apply sum_ext; intros i Hi.
  rewrite !rope_even, !rope_odd by exact Hi.
  unfold cut_weight; replace (Nat.ltb i h) with true by (symmetry; apply Nat.ltb_lt; exact Hi).
  replace ((m - n) * theta i) with (m * theta i - n * theta i) by ring.
  apply (rot_pair_dot_phase _ _ (q (2 * i)%nat, q (S (2 * i))) (k (2 * i)%nat, k (S (2 * i)))).
Qed.

Lemma Rabs_fst_le_Cmod (z : C) : Rabs (fst z) <= Cmod z.
Proof.
  destruct z as [a b]; unfold Cmod; simpl.
  rewrite <- sqrt_Rsqr_abs; apply sqrt_le_1_alt; unfold Rsqr; nra.
Qed.

(* The RoFormer bound applied to the real RoPE score of any q, k. *)
Lemma rope_score_bound (theta : nat -> R) (h : nat) (m n : R) (q k : vec) :
  Rabs (rope_score theta h m n q k)
  <= max_step (cut_weight q k h) h
     * sum h (fun j => Cmod (partial_sum (fun i => phase ((m - n) * theta i)) (S j))).
Proof.
  rewrite rope_score_as_phase_sum.
  assert (Hcut : cut_weight q k h h = RtoC 0).
  { unfold cut_weight; rewrite Nat.ltb_irrefl; reflexivity. }
  pose proof (rope_decay_bound h (cut_weight q k h) theta (m - n) Hcut) as Hb.
  cbv zeta in Hb; destruct Hb as [_ Hb].
  eapply Rle_trans; [apply Rabs_fst_le_Cmod|exact Hb].
Qed.

(* ================================================================== decay to zero *)

(* theta_0 = base^0 = 1 for every d: the first pair always turns at unit speed. *)
Lemma spectrum_first (h : nat) : rope_spectrum 10000 h 0 = 1.
Proof.
  unfold rope_spectrum, rope_frequency.
  replace (- (2 * INR 0) / INR (2 * h)) with 0 by (simpl; unfold Rdiv; ring).
  apply Rpower_O; lra.
Qed.

(* With q = k = e_0 in any d = 2h >= 2 the RoPE score is cos((m - n) theta_0):
   only the first pair of coordinates is nonzero. *)
Lemma rope_score_first_axis_any (theta : nat -> R) (h : nat) (m n : R) : (1 <= h)%nat ->
  rope_score theta h m n (basis 0) (basis 0) = cos (m * theta 0%nat - n * theta 0%nat).
Proof.
  intros Hh; destruct h as [|h']; [lia|].
  unfold rope_score; rewrite dot_pairs, sum_first.
  rewrite (sum_ext h' _ (fun _ => 0)).
  - rewrite sum_const_0, !rope_even, !rope_odd by lia.
    unfold basis, rot; simpl; rewrite cos_minus; ring.
  - intros i Hi; rewrite !rope_even, !rope_odd by lia.
    unfold basis, rot; simpl.
    replace (Nat.eqb (i + S (i + 0)) 0) with false by (symmetry; apply Nat.eqb_neq; lia).
    replace (Nat.eqb (S (i + S (i + 0))) 0) with false by (symmetry; apply Nat.eqb_neq; lia).
    ring.
Qed.

(* Exact bounds on cos 1, cos 2, cos 3 and sin 2 from the standard library's
   Taylor bounds, so that the refutations below need no floating-point checker
   (no `interval`: only the standard axioms of the reals). *)
(* cos(1/4) from the alternating Taylor bounds of the standard library. *)
Lemma cos_quarter_bounds : 31 / 32 <= cos (1 / 4) <= 31 / 32 + 1 / 6144.
Proof.
  destruct (pre_cos_bound (1 / 4) 0 ltac:(lra) ltac:(lra)) as [L U].
  unfold cos_approx, cos_term in L, U; simpl in L, U.
  split; [lra|lra].
Qed.

(* Doubling twice: cos 1 lies in [0.537, 0.542]. *)
Lemma cos_1_bounds : 537 / 1000 <= cos 1 <= 542 / 1000.
Proof.
  destruct cos_quarter_bounds as [L U].
  pose proof (cos_2a_cos (1 / 4)) as D1; pose proof (cos_2a_cos (1 / 2)) as D2.
  replace (2 * (1 / 4)) with (1 / 2) in D1 by field.
  replace (2 * (1 / 2)) with 1 in D2 by field.
  assert (H2 : 8769 / 10000 <= cos (1 / 2) <= 878 / 1000) by (split; nra).
  split; nra.
Qed.

(* cos 2 = 2 cos^2 1 - 1 and cos 3 = 4 cos^3 1 - 3 cos 1. *)
Lemma cos_2_bounds : -43 / 100 <= cos 2 <= -41 / 100.
Proof.
  destruct cos_1_bounds as [L U].
  pose proof (cos_2a_cos 1) as D; replace (2 * 1) with 2 in D by ring.
  split; nra.
Qed.

Lemma cos_3_upper : cos 3 <= - 98 / 100.
Proof.
  destruct cos_1_bounds as [L U].
  pose proof (cos_2a_cos 1) as D; replace (2 * 1) with 2 in D by ring.
  pose proof (sin_2a 1) as S2; replace (2 * 1) with 2 in S2 by ring.
  pose proof (sin2_cos2 1) as P; unfold Rsqr in P.
  replace 3 with (2 + 1) by ring; rewrite cos_plus, S2, D.
  nra.
Qed.

Lemma sin_2_pos : 0 < sin 2.
Proof. apply sin_gt_0; [lra|pose proof PI2_3_2; lra]. Qed.

(* Among three consecutive integer distances some |cos| is at least 1/2:
   cos^2 x + cos^2 (x+1) + cos^2 (x+2) = 3/2 + (1 + 2 cos 2) cos (2x+2) / 2
   and |1 + 2 cos 2| <= 1/5. *)
Lemma cos_window (x : R) :
  ~ (Rabs (cos x) < 1/2 /\ Rabs (cos (x + 1)) < 1/2 /\ Rabs (cos (x + 2)) < 1/2).
Proof.
  intros [H0 [H1 H2]].
  apply Rabs_def2 in H0; apply Rabs_def2 in H1; apply Rabs_def2 in H2.
  set (u := 2 * x + 2).
  assert (E0 : cos (2 * x) = cos u * cos 2 + sin u * sin 2).
  { replace (2 * x) with (u - 2) by (unfold u; ring); apply cos_minus. }
  assert (E1 : cos (2 * (x + 1)) = cos u) by (f_equal; unfold u; ring).
  assert (E2 : cos (2 * (x + 2)) = cos u * cos 2 - sin u * sin 2).
  { replace (2 * (x + 2)) with (u + 2) by (unfold u; ring); apply cos_plus. }
  pose proof (cos_2a_cos x) as C0; pose proof (cos_2a_cos (x + 1)) as C1.
  pose proof (cos_2a_cos (x + 2)) as C2.
  assert (W : -1/5 <= 1 + 2 * cos 2 <= 1/5) by (pose proof cos_2_bounds; lra).
  pose proof (COS_bound u) as U.
  nra.
Qed.

(* The cosine does not tend to 0 along the integers: past any M, one of the
   distances M + 1, M + 2, M + 3 has |cos| >= 1/2. *)
Lemma cos_not_to_zero (M : nat) : ~ (forall r : nat, Rabs (cos (INR (M + S r))) < 1/2).
Proof.
  intros Hcos; apply (cos_window (INR M + 1)); repeat split.
  - pose proof (Hcos 0%nat) as Hc; rewrite plus_INR in Hc; simpl in Hc; exact Hc.
  - pose proof (Hcos 1%nat) as Hc; rewrite plus_INR in Hc; simpl in Hc.
    replace (INR M + 1 + 1) with (INR M + (1 + 1)) by ring; exact Hc.
  - pose proof (Hcos 2%nat) as Hc; rewrite plus_INR in Hc; simpl in Hc.
    replace (INR M + 1 + 2) with (INR M + (1 + 1 + 1)) by ring; exact Hc.
Qed.

(* The distances M + 1 + r from position 0 all exceed M. *)
Lemma distance_past (M r : nat) : INR M < Rabs (INR (M + S r) - INR 0).
Proof.
  rewrite plus_INR, S_INR; simpl.
  rewrite Rminus_0_r, Rabs_pos_eq by (pose proof (pos_INR M); pose proof (pos_INR r); lra).
  pose proof (pos_INR r); lra.
Qed.

(* ROPE-DECAY-TO-ZERO as the seeds read it (000, 001), at EVERY fixed
   dimension d = 2h >= 2 with the RoPE spectrum (base 10000): for all q, k the
   attention score tends to 0 as |m - n| -> oo.  It fails for each d (d = 128
   included): with q = k = e_0 the score is cos(m - n) for every d. *)
Theorem rope_decay_to_zero_negation :
  forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (eps : R), 0 < eps ->
       exists M : nat, forall m n : nat, INR M < Rabs (INR m - INR n) ->
         Rabs (rope_score (rope_spectrum 10000 h) h (INR m) (INR n) q k) < eps).
Proof.
  intros h Hh H.
  destruct (H (basis 0) (basis 0) (1/2) ltac:(lra)) as [M HM].
  apply (cos_not_to_zero M); intros r.
  pose proof (HM _ _ (distance_past M r)) as Hr.
  rewrite rope_score_first_axis_any, spectrum_first in Hr by exact Hh.
  simpl in Hr; rewrite Rmult_0_l, Rminus_0_r, Rmult_1_r in Hr; exact Hr.
Qed.

(* With q = k = e_0 only the first pair contributes, in every d = 2h >= 2. *)
Lemma seed_score_first_axis_any (theta : nat -> R) (h : nat) (D : R) : (1 <= h)%nat ->
  seed_score theta h (basis 0) (basis 0) D = cos (D * theta 0%nat).
Proof.
  intros Hh; destruct h as [|h']; [lia|].
  unfold seed_score; rewrite sum_first.
  rewrite (sum_ext h' _ (fun _ => 0)).
  - rewrite sum_const_0; unfold basis; simpl; ring.
  - intros i Hi; unfold basis; simpl.
    replace (Nat.eqb (i + S (i + 0)) 0) with false by (symmetry; apply Nat.eqb_neq; lia).
    replace (Nat.eqb (S (i + S (i + 0))) 0) with false by (symmetry; apply Nat.eqb_neq; lia).
    ring.
Qed.

(* ROPE-DECAY-TO-ZERO, literal reading: the seeds' formula itself tends to 0
   for all q, k, at every fixed d = 2h >= 2; it fails at q = k = e_0,
   eps = 1/2 for each d. *)
Theorem rope_decay_to_zero_literal_negation :
  forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (eps : R), 0 < eps ->
       exists M : nat, forall m n : nat, INR M < Rabs (INR m - INR n) ->
         Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m - INR n)) < eps).
Proof.
  intros h Hh H.
  destruct (H (basis 0) (basis 0) (1/2) ltac:(lra)) as [M HM].
  apply (cos_not_to_zero M); intros r.
  pose proof (HM _ _ (distance_past M r)) as Hr.
  rewrite seed_score_first_axis_any, spectrum_first in Hr by exact Hh.
  simpl in Hr; rewrite Rminus_0_r, Rmult_1_r in Hr; exact Hr.
Qed.

(* ROPE-DECAY-TO-ZERO, corrected: what RoFormer proves is an upper bound on the
   score, for every d = 2h, all q, k, all frequencies and positions. *)
Theorem rope_decay_to_zero_correction :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
    Rabs (rope_score theta h m n q k)
    <= max_step (cut_weight q k h) h
       * sum h (fun j => Cmod (partial_sum (fun i => phase ((m - n) * theta i)) (S j))).
Proof. intros; apply rope_score_bound. Qed.

(* ================================================================== monotone decay *)

(* ROPE-DECAY-MONOTONE as read (000, 001, 004), at EVERY fixed dimension
   d = 2h >= 2 with the RoPE spectrum (base 10000): for given q, k the
   absolute score does not grow when the distance grows.  It fails for each d:
   with q = k = e_0 the score is cos(m - n), and |cos 3| > |cos 2|. *)
Theorem rope_decay_monotone_negation :
  forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (m n m' n' : nat),
       Rabs (INR m - INR n) < Rabs (INR m' - INR n') ->
       Rabs (rope_score (rope_spectrum 10000 h) h (INR m') (INR n') q k)
       <= Rabs (rope_score (rope_spectrum 10000 h) h (INR m) (INR n) q k)).
Proof.
  intros h Hh H.
  specialize (H (basis 0) (basis 0) 2%nat 0%nat 3%nat 0%nat).
  rewrite !rope_score_first_axis_any, !spectrum_first in H by exact Hh; simpl in H.
  assert (Hd : Rabs (1 + 1 - 0) < Rabs (1 + 1 + 1 - 0)) by (rewrite !Rabs_pos_eq; lra).
  specialize (H Hd).
  replace ((1 + 1) * 1 - 0 * 1) with 2 in H by ring.
  replace ((1 + 1 + 1) * 1 - 0 * 1) with 3 in H by ring.
  pose proof cos_2_bounds; pose proof cos_3_upper.
  rewrite !Rabs_left in H by lra; lra.
Qed.

(* ROPE-DECAY-MONOTONE, literal reading: the seeds' cosine-only formula
   decays monotonically in |m - n|, at every fixed d = 2h >= 2; it fails at
   the same point for each d. *)
Theorem rope_decay_monotone_literal_negation :
  forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (m n m' n' : nat),
       Rabs (INR m - INR n) < Rabs (INR m' - INR n') ->
       Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m' - INR n'))
       <= Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m - INR n))).
Proof.
  intros h Hh H.
  specialize (H (basis 0) (basis 0) 2%nat 0%nat 3%nat 0%nat).
  rewrite !seed_score_first_axis_any, !spectrum_first in H by exact Hh; simpl in H.
  assert (Hd : Rabs (1 + 1 - 0) < Rabs (1 + 1 + 1 - 0)) by (rewrite !Rabs_pos_eq; lra).
  specialize (H Hd).
  replace ((1 + 1 - 0) * 1) with 2 in H by ring.
  replace ((1 + 1 + 1 - 0) * 1) with 3 in H by ring.
  pose proof cos_2_bounds; pose proof cos_3_upper.
  rewrite !Rabs_left in H by lra; lra.
Qed.

(* ROPE-DECAY-MONOTONE, corrected: only the upper bound of RoFormer decays;
   the score itself is bounded by it (every d, q, k, frequencies, positions). *)
Theorem rope_decay_monotone_correction :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
    Rabs (rope_score theta h m n q k)
    <= max_step (cut_weight q k h) h
       * sum h (fun j => Cmod (partial_sum (fun i => phase ((m - n) * theta i)) (S j))).
Proof. intros; apply rope_score_bound. Qed.

(* ================================================================== the relative bound B *)

Lemma Cmod_phase (x : R) : Cmod (phase x) = 1.
Proof.
  unfold Cmod, phase; simpl.
  replace (cos x * (cos x * 1) + sin x * (sin x * 1)) with 1; [apply sqrt_1|].
  pose proof (sin2_cos2 x) as E; unfold Rsqr in E; nra.
Qed.

(* |S_j| <= j: the triangle inequality on j unit vectors. *)
Lemma partial_sum_phase_le (theta : nat -> R) (D : R) (j : nat) :
  Cmod (partial_sum (fun i => phase (D * theta i)) j) <= INR j.
Proof.
  unfold partial_sum; eapply Rle_trans; [apply csum_Cmod_le|].
  induction j as [|j IH]; [rewrite sum_0; simpl; lra|].
  rewrite sum_S, Cmod_phase, S_INR; lra.
Qed.

(* At distance 0 all phases are 1 and the bound is attained: S_j(0) = j. *)
Lemma partial_sum_at_zero (theta : nat -> R) (j : nat) :
  partial_sum (fun i => phase (0 * theta i)) j = RtoC (INR j).
Proof.
  unfold partial_sum; induction j as [|j IH]; [reflexivity|].
  change (csum (S j) (fun i => phase (0 * theta i)))
    with (csum j (fun i => phase (0 * theta i)) + phase (0 * theta j))%C.
  rewrite IH, S_INR, Rmult_0_l; unfold phase, RtoC, Cplus; simpl fst; simpl snd.
  rewrite cos_0, sin_0; f_equal; ring.
Qed.

Lemma sum_first_integers (h : nat) : sum h (fun j => INR (S j)) = INR h * (INR h + 1) / 2.
Proof.
  induction h as [|h IH]; [rewrite sum_0; simpl; lra|].
  rewrite sum_S, IH, !S_INR; field.
Qed.

(* ROPE-DECAY-BOUND-MONOTONE, corrected: for every d = 2h >= 2, all
   frequencies and every distance, B(D) <= B(0) = (h + 1)/2 = (d + 2)/4. *)
Theorem rope_decay_bound_monotone_correction :
  forall (h : nat) (theta : nat -> R) (D : R), (0 < h)%nat ->
    relative_bound theta h D <= relative_bound theta h 0
    /\ relative_bound theta h 0 = (INR h + 1) / 2.
Proof.
  intros h theta D Hh.
  assert (Hpos : 0 < INR h) by (apply lt_0_INR; exact Hh).
  assert (H0 : relative_bound theta h 0 = (INR h + 1) / 2).
  { unfold relative_bound.
    rewrite (sum_ext h _ (fun j => INR (S j))).
    - rewrite sum_first_integers; field; lra.
    - intros j _; rewrite partial_sum_at_zero, Cmod_R, Rabs_pos_eq; [reflexivity|apply pos_INR]. }
  split; [|exact H0].
  unfold relative_bound; apply Rmult_le_compat_r.
  - left; apply Rinv_0_lt_compat; exact Hpos.
  - apply sum_le; intros j _.
    rewrite partial_sum_at_zero, Cmod_R, Rabs_pos_eq by apply pos_INR.
    apply partial_sum_phase_le.
Qed.

(* The d = 4 spectrum is (1, 1/100): its second frequency exactly. *)
Lemma spectrum_d4_second : rope_spectrum 10000 2 1 = / 100.
Proof.
  unfold rope_spectrum, rope_frequency.
  replace (- (2 * INR 1) / INR (2 * 2)) with (- (/ 2)) by (simpl; field).
  rewrite Rpower_Ropp, Rpower_sqrt by lra.
  replace 10000 with (100 * 100) by ring; rewrite sqrt_square; lra.
Qed.

(* |e^{i x0} + e^{i x1}| = sqrt (2 + 2 cos (x0 - x1)). *)
Lemma two_phases_norm (x0 x1 : R) : Cmod (phase x0 + phase x1)%C = sqrt (2 + 2 * cos (x0 - x1)).
Proof.
  unfold Cmod, phase, Cplus; simpl; f_equal.
  rewrite cos_minus; pose proof (sin2_cos2 x0); pose proof (sin2_cos2 x1).
  unfold Rsqr in *; nra.
Qed.

(* 0 <= sin a <= a on [0, 1], from the Taylor bound of the standard library. *)
Lemma sin_small (a : R) : 0 <= a <= 1 -> 0 <= sin a <= a.
Proof.
  intros Ha; destruct (pre_sin_bound a 0 ltac:(pose proof PI2_3_2; lra) ltac:(pose proof PI2_3_2; lra)) as [L U].
  unfold sin_approx, sin_term in U; simpl in U.
  assert (U' : sin a <= a - a ^ 3 / 6 + a ^ 5 / 120) by (eapply Rle_trans; [exact U|]; right; field).
  split; [apply sin_ge_0; pose proof PI2_3_2; lra|].
  assert (0 <= a ^ 3) by (apply pow_le; lra).
  assert (0 <= 1 / 6 - a * a / 120) by nra.
  assert (0 <= a ^ 3 * (1 / 6 - a * a / 120)) by (apply Rmult_le_pos; lra).
  assert (a ^ 3 * (1 / 6 - a * a / 120) = a ^ 3 / 6 - a ^ 5 / 120) by field.
  lra.
Qed.

(* cos 2.97 <= -0.949 and cos 3.96 >= -0.704, from cos 2, cos 3 and small angles. *)
Lemma cos_297_upper : cos (3 - 3 / 100) <= - 949 / 1000.
Proof.
  rewrite cos_minus.
  pose proof cos_3_upper as C3; pose proof (SIN_bound 3) as S3.
  destruct (sin_small (3 / 100) ltac:(lra)) as [s0 s1].
  destruct (pre_cos_bound (3 / 100) 0 ltac:(lra) ltac:(lra)) as [L _].
  unfold cos_approx, cos_term in L; simpl in L.
  assert (Lc : 1 - (3 / 100) ^ 2 / 2 <= cos (3 / 100)) by (eapply Rle_trans; [|exact L]; right; field).
  nra.
Qed.

Lemma cos_396_lower : - 704 / 1000 <= cos (4 - 4 / 100).
Proof.
  rewrite cos_minus.
  pose proof cos_2_bounds as C2; pose proof (SIN_bound 4) as S4.
  pose proof (cos_2a_cos 2) as D; replace (2 * 2) with 4 in D by ring.
  destruct (sin_small (4 / 100) ltac:(lra)) as [s0 s1].
  pose proof (COS_bound (4 / 100)) as Cb.
  assert (C4 : - 664 / 1000 <= cos 4 <= 0) by (split; nra).
  nra.
Qed.

(* ROPE-DECAY-BOUND-MONOTONE, another reading (kept as a note): monotone for
   every even d.  It fails already at d = 4, where
   B(D) = (1 + 2 |cos(0.99 D / 2)|) / 2, so B(4) ~ 0.90 > B(3) ~ 0.59.  The
   verdict is on RoFormer's own d = 128 (Decay128.v). *)
Theorem rope_decay_bound_monotone_literal_every_d_negation : ~ bound_monotone_reading.
Proof.
  intros H; specialize (H 2%nat 3%nat 4%nat ltac:(lia) ltac:(lia)); revert H.
  unfold relative_bound, partial_sum.
  rewrite !sum_S, !sum_0; simpl csum.
  rewrite !Cplus_0_l, !two_phases_norm, !Cmod_phase, !spectrum_first, !spectrum_d4_second.
  replace ((1 + 1 + 1) * 1 - (1 + 1 + 1) * / 100) with (3 - 3 / 100) by field.
  replace ((1 + 1 + 1 + 1) * 1 - (1 + 1 + 1 + 1) * / 100) with (4 - 4 / 100) by field.
  pose proof cos_297_upper; pose proof cos_396_lower.
  assert (Hs : sqrt (2 + 2 * cos (3 - 3 / 100)) < sqrt (2 + 2 * cos (4 - 4 / 100))).
  { apply sqrt_lt_1_alt; split; [pose proof (COS_bound (3 - 3 / 100)); lra|lra]. }
  replace (INR 2) with 2 by (simpl; ring).
  lra.
Qed.

(* ================================================================== linear attention *)

(* d = 2, q = k = e_0, m = n = 0, delta = 2:
   exp(cos 2)^2 + (sin 2 + 1)^2 ~ 4.08 against 2^2 + 1^2 = 5. *)
Theorem rope_linear_attention_seed_negation : ~ linear_attention_seed_reading.
Proof.
  intros H; specialize (H 1%nat (basis 0) (basis 0) 0 0 2); revert H.
  rewrite !dot_pairs, !sum_S, !sum_0; unfold feature_map.
  rewrite !rope_even, !rope_odd by lia.
  rewrite !spectrum_first; unfold basis, rot; simpl.
  replace ((0 + 2) * 1) with 2 by ring; replace (0 * 1) with 0 by ring.
  rewrite cos_0, sin_0.
  replace (1 * cos 2 - 0 * sin 2) with (cos 2) by ring.
  replace (1 * sin 2 + 0 * cos 2) with (sin 2) by ring.
  replace (1 * 1 - 0 * 0) with 1 by ring; replace (1 * 0 + 0 * 1) with 0 by ring.
  pose proof cos_2_bounds as C2; pose proof sin_2_pos as S2; pose proof (SIN_bound 2) as B2.
  unfold elu_plus_one.
  destruct (Rlt_dec 0 (cos 2)) as [Ha|_]; [lra|].
  destruct (Rlt_dec 0 (sin 2)) as [_|Hb]; [|lra].
  destruct (Rlt_dec 0 1) as [_|Hc]; [|lra].
  destruct (Rlt_dec 0 0) as [Hd|_]; [lra|].
  (* exp(cos 2)^2 < 1 since cos 2 < 0, and (sin 2 + 1)^2 <= 4: below 5. *)
  assert (E : exp (cos 2) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
  pose proof (exp_pos (cos 2)) as Ep.
  rewrite exp_0; nra.
Qed.

(* The linear-time form: sum_j (u . w_j) v_j = u . (sum_j w_j v_j^T), for every
   dimension d and number N of keys. *)
Lemma linear_time_factorization (d N : nat) (u : vec) (w : nat -> vec) (v : nat -> vec) (c : nat) :
  sum N (fun j => dot d u (w j) * v j c) = dot d u (fun a => sum N (fun j => w j a * v j c)).
Proof.
  unfold dot.
  rewrite (sum_ext N _ (fun j => sum d (fun a => u a * w j a * v j c)))
    by (intros j _; rewrite <- sum_scal_r; reflexivity).
  rewrite sum_swap; apply sum_ext; intros a _.
  rewrite <- sum_scal_l; apply sum_ext; intros j _; ring.
Qed.

(* ROPE-LINEAR-ATTENTION-SEED, literal reading ("this allows RoPE to integrate
   into linear attention"): with phi(R_m q) as features the attention
   numerator has the linear-time form phi(Q) (phi(K)^T V), for any phi. *)
Theorem rope_linear_attention_seed_literal :
  forall (phi : R -> R) (theta : nat -> R) (h N : nat) (q : vec) (k v : nat -> vec) (m : R) (c : nat),
    sum N (fun j => dot (2 * h) (feature_map phi (rope theta h m q))
                                (feature_map phi (rope theta h (INR j) (k j))) * v j c)
    = dot (2 * h) (feature_map phi (rope theta h m q))
                  (fun a => sum N (fun j => feature_map phi (rope theta h (INR j) (k j)) a * v j c)).
Proof. intros; apply linear_time_factorization. Qed.

(* ROPE-LINEAR-ATTENTION-SEED, corrected: rotate after the feature map (as
   RoFormer Eq. 19 does); then the score is invariant under a common shift,
   for every d = 2h, all frequencies and all feature outputs a, b. *)
Theorem rope_linear_attention_seed_correction :
  forall (theta : nat -> R) (h : nat) (a b : vec) (m n delta : R),
    dot (2 * h) (rope theta h (m + delta) a) (rope theta h (n + delta) b)
    = dot (2 * h) (rope theta h m a) (rope theta h n b).
Proof.
  intros theta h a b m n delta.
  rewrite !rope_relative; replace (n + delta - (m + delta)) with (n - m) by ring.
  reflexivity.
Qed.

(* ROPE-LINEAR-ATTENTION-ROFORMER (Eq. 19): with rotated features the
   numerator score is q^T R_{n-m} k (relative), and the numerator sum has the
   linear-time form, for every d = 2h, feature map phi and number N of keys. *)
Theorem rope_linear_attention_roformer :
  forall (phi : R -> R) (theta : nat -> R) (h N : nat) (q : vec) (k v : nat -> vec) (m : R) (c : nat),
    (forall (n : R) (key : vec),
       dot (2 * h) (rope theta h m (feature_map phi q)) (rope theta h n (feature_map phi key))
       = dot (2 * h) (feature_map phi q) (rope theta h (n - m) (feature_map phi key)))
    /\ sum N (fun j => dot (2 * h) (rope theta h m (feature_map phi q))
                                   (rope theta h (INR j) (feature_map phi (k j))) * v j c)
       = dot (2 * h) (rope theta h m (feature_map phi q))
                     (fun a => sum N (fun j => rope theta h (INR j) (feature_map phi (k j)) a * v j c)).
Proof.
  intros; split; [intros; apply rope_relative|apply linear_time_factorization].
Qed.

(* ================================================================== KV cache *)

(* Rotations compose by adding angles: re-phasing a cached key by delta is
   rotating it to its new position. *)
Lemma rot_compose (a b : R) (p : R * R) : rot a (rot b p) = rot (a + b) p.
Proof.
  destruct p as [x y]; unfold rot; simpl.
  rewrite cos_plus, sin_plus; f_equal; ring.
Qed.

Lemma rope_compose (theta : nat -> R) (h : nat) (a b : R) (x : vec) (j : nat) :
  rope theta h a (rope theta h b x) j = rope theta h (a + b) x j.
Proof.
  unfold rope at 1 3.
  destruct (Nat.ltb (Nat.div2 j) h) eqn:E; [|reflexivity].
  apply Nat.ltb_lt in E.
  rewrite rope_even, rope_odd by exact E.
  rewrite <- surjective_pairing, rot_compose, Rmult_plus_distr_r; reflexivity.
Qed.

Lemma dot_ext_r (d : nat) (x y y' : vec) : (forall j, y j = y' j) -> dot d x y = dot d x y'.
Proof. intros E; unfold dot; apply sum_ext; intros j _; rewrite E; reflexivity. Qed.

(* ROPE-KV-CACHE-REUSE: for every number n of tokens, every d = 2h and all
   frequencies, the decode step of token t < n over the cache (keys rotated
   once at their own positions, the current token appended, values as they
   are) equals row t of full causal attention computed from scratch. *)
Theorem rope_kv_cache_reuse :
  forall (theta : nat -> R) (h n : nat) (Qs Ks : nat -> vec) (V : nat -> nat -> R) (t c : nat),
    (t < n)%nat ->
    Attention.masked_attention_row n (relative_scores theta h Qs Ks) V t c
    = Attention.causal_row (cached_scores theta h Qs Ks) V t c.
Proof.
  intros theta h n Qs Ks V t c Htn.
  rewrite Attention.masked_row_is_causal_row by exact Htn.
  apply Attention.causal_row_scores_ext; intros j.
  unfold relative_scores, cached_scores, cached_key; symmetry; apply rope_relative.
Qed.

(* ROPE-PREFIX-REPHASE (003): a cached key rotated at position n and moved by
   delta is re-phased by R(delta) instead of recomputed, and scores inside the
   moved block do not change; every d = 2h, all frequencies. *)
Theorem rope_prefix_rephase :
  forall (theta : nat -> R) (h : nat) (m n delta : R) (q k : vec),
    (forall j, rope theta h delta (rope theta h n k) j = rope theta h (n + delta) k j)
    /\ dot (2 * h) (rope theta h (m + delta) q) (rope theta h delta (rope theta h n k))
       = dot (2 * h) (rope theta h m q) (rope theta h n k).
Proof.
  intros theta h m n delta q k.
  assert (Hre : forall j, rope theta h delta (rope theta h n k) j = rope theta h (n + delta) k j).
  { intros j; rewrite rope_compose, Rplus_comm; reflexivity. }
  split; [exact Hre|].
  rewrite (dot_ext_r _ _ _ _ Hre).
  rewrite !rope_relative; replace (n + delta - (m + delta)) with (n - m) by ring.
  reflexivity.
Qed.

(* RoPE at position 0 is the identity on the d coordinates it reads. *)
Lemma rope_zero (theta : nat -> R) (h : nat) (x : vec) (j : nat) :
  (j < 2 * h)%nat -> rope theta h 0 x j = x j.
Proof.
  intros Hj; destruct (index_pair j) as [Ej|Ej]; rewrite Ej.
  - rewrite rope_even by lia; unfold rot; simpl.
    rewrite Rmult_0_l, cos_0, sin_0; ring.
  - rewrite rope_odd by lia; unfold rot; simpl.
    rewrite Rmult_0_l, cos_0, sin_0; ring.
Qed.

Lemma dot_basis (d i : nat) (c : vec) : (i < d)%nat -> dot d (basis i) c = c i.
Proof.
  intros Hi; unfold dot.
  rewrite (sum_single d i); [unfold basis; rewrite Nat.eqb_refl; ring|exact Hi|].
  intros j _ Hji; unfold basis; apply Nat.eqb_neq in Hji; rewrite Hji; ring.
Qed.

(* What the RoPE cache entry is good for, for every d = 2h (Cache.v decides
   ROPE-KV-CACHE-SIZE with it):
   (1) the score of query t against past key j is a function of the current
       query and the cached rotated key R_j k_j alone (nothing else per past
       token is needed), and
   (2) nothing in the cached d-vector can be dropped: two cache entries that
       give the same score against every query agree on all d coordinates. *)
Theorem rope_cached_key_determined :
  forall (theta : nat -> R) (h : nat),
    (forall (t j : R) (q k : vec),
       dot (2 * h) q (rope theta h (j - t) k) = dot (2 * h) (rope theta h t q) (rope theta h j k))
    /\ (forall (t : R) (c c' : vec),
          (forall q : vec, dot (2 * h) (rope theta h t q) c = dot (2 * h) (rope theta h t q) c') ->
          forall i, (i < 2 * h)%nat -> c i = c' i).
Proof.
  intros theta h; split.
  - intros; symmetry; apply rope_relative.
  - intros t c c' Hsame i Hi.
    specialize (Hsame (rope theta h (- t) (basis i))).
    assert (Hunrot : forall y : vec,
              dot (2 * h) (rope theta h t (rope theta h (- t) (basis i))) y = y i).
    { intros y; rewrite <- (dot_basis (2 * h) i y Hi); unfold dot; apply sum_ext; intros j Hj.
      rewrite rope_compose, Rplus_opp_r, rope_zero by exact Hj; reflexivity. }
    rewrite !Hunrot in Hsame; exact Hsame.
Qed.

(* ================================================================== strict decay from distance 0 *)

(* 10 is not the 16th power of a rational: 10 p^16 = q^16 forces p and q even
   (descent on |q|).  This is what keeps the RoPE phases from realigning. *)
Lemma no_sixteenth_root_of_ten_below (n : nat) (p q : Z) :
  (Z.abs_nat q < n)%nat -> q <> 0%Z -> (10 * p ^ 16)%Z <> (q ^ 16)%Z.
Proof.
  revert p q; induction n as [|n IH]; intros p q Hn Hq E; [lia|].
  assert (Hqe : Z.even q = true).
  { rewrite <- (Z.even_pow q 16) by lia; rewrite <- E, Z.even_mul; reflexivity. }
  apply Z.even_spec in Hqe; destruct Hqe as [q' ->].
  rewrite Z.pow_mul_l in E; change (2 ^ 16)%Z with 65536%Z in E.
  assert (Hpe : Z.even p = true).
  { rewrite <- (Z.even_pow p 16) by lia.
    replace (Z.even (p ^ 16)) with (Z.even (5 * p ^ 16)) by (rewrite Z.even_mul; reflexivity).
    replace (5 * p ^ 16)%Z with (2 * (16384 * q' ^ 16))%Z.
    - rewrite Z.even_mul; reflexivity.
    - generalize dependent (p ^ 16)%Z; generalize (q' ^ 16)%Z; intros; lia. }
  apply Z.even_spec in Hpe; destruct Hpe as [p' ->].
  rewrite Z.pow_mul_l in E; change (2 ^ 16)%Z with 65536%Z in E.
  apply (IH p' q'); [lia|lia|].
  generalize dependent (p' ^ 16)%Z; generalize (q' ^ 16)%Z; intros; lia.
Qed.

Lemma no_sixteenth_root_of_ten (p q : Z) : q <> 0%Z -> (10 * p ^ 16)%Z <> (q ^ 16)%Z.
Proof. apply (no_sixteenth_root_of_ten_below (S (Z.abs_nat q))); lia. Qed.

Lemma ratio_128_pos : 0 < ratio_128.
Proof. unfold ratio_128, Rpower; apply exp_pos. Qed.

Lemma spectrum_128 (i : nat) : rope_spectrum 10000 64 i = ratio_128 ^ i.
Proof.
  unfold rope_spectrum, rope_frequency, ratio_128.
  rewrite <- Rpower_pow by (unfold Rpower; apply exp_pos).
  rewrite Rpower_mult; f_equal.
  replace (INR (2 * 64)) with 128 by (rewrite INR_IZR_INZ; reflexivity).
  field.
Qed.

Lemma ratio_128_bounds : 0 < ratio_128 < 1.
Proof.
  split; [apply ratio_128_pos|].
  unfold ratio_128; rewrite <- (Rpower_O 10000) by lra.
  apply Rpower_lt; lra.
Qed.

(* t^16 = 10000^(-1/4) = 1/10. *)
Lemma ratio_128_pow16 : 10 * ratio_128 ^ 16 = 1.
Proof.
  unfold ratio_128.
  rewrite <- Rpower_pow by (unfold Rpower; apply exp_pos).
  rewrite Rpower_mult.
  replace 10000 with (Rpower 10 (INR 4)) by (rewrite Rpower_pow by lra; simpl; ring).
  rewrite Rpower_mult.
  replace (INR 4 * (-1 / 64 * INR 16)) with (Ropp 1) by (simpl; field).
  rewrite Rpower_Ropp, Rpower_1 by lra; field.
Qed.

(* A phase difference with cosine 1 is a multiple of pi. *)
Lemma cos_one_multiple_of_pi (x : R) : cos x = 1 -> exists k : Z, x = IZR k * PI.
Proof.
  intros C; apply sin_eq_0_0.
  pose proof (sin2_cos2 x) as E; unfold Rsqr in E; rewrite C in E; nra.
Qed.

(* |z0 + z1 + z2|^2 = 3 + 2 (cos(x0-x1) + cos(x0-x2) + cos(x1-x2)). *)
Lemma three_phases_norm2 (x0 x1 x2 : R) :
  let S := (phase x0 + phase x1 + phase x2)%C in
  fst S * fst S + snd S * snd S
  = 3 + 2 * (cos (x0 - x1) + cos (x0 - x2) + cos (x1 - x2)).
Proof.
  cbv zeta; unfold phase, Cplus; simpl; rewrite !cos_minus.
  pose proof (sin2_cos2 x0); pose proof (sin2_cos2 x1); pose proof (sin2_cos2 x2).
  unfold Rsqr in *; nra.
Qed.

(* At every nonzero distance the first three phases of the d = 128 spectrum
   are not all aligned, so |S_3(D)| < 3.  Alignment would make both
   D (1 - t) and D (1 - t^2) multiples of pi, hence 1 + t rational, and
   10 t^16 = 1 would give 10 p^16 = q^16 in integers. *)
Lemma third_partial_sum_short (D : R) : D <> 0 ->
  Cmod (partial_sum (fun i => phase (D * rope_spectrum 10000 64 i)) 3) < 3.
Proof.
  intros HD.
  destruct (Rlt_or_le (Cmod (partial_sum (fun i => phase (D * rope_spectrum 10000 64 i)) 3)) 3)
    as [Hlt|Hge]; [exact Hlt|exfalso].
  pose proof ratio_128_bounds as [Ht0 Ht1].
  unfold partial_sum in Hge; simpl csum in Hge; rewrite !spectrum_128, Cplus_0_l in Hge.
  set (S := (phase (D * ratio_128 ^ 0) + phase (D * ratio_128 ^ 1) + phase (D * ratio_128 ^ 2))%C) in Hge.
  assert (HS : 9 <= fst S * fst S + snd S * snd S).
  { unfold Cmod in Hge.
    assert (Hpos : 0 <= fst S ^ 2 + snd S ^ 2) by nra.
    pose proof (sqrt_sqrt _ Hpos) as Hsq.
    replace (fst S * fst S + snd S * snd S) with (fst S ^ 2 + snd S ^ 2) by ring.
    rewrite <- Hsq; nra. }
  unfold S in HS; rewrite three_phases_norm2 in HS.
  pose proof (COS_bound (D * ratio_128 ^ 0 - D * ratio_128 ^ 1)) as B01.
  pose proof (COS_bound (D * ratio_128 ^ 0 - D * ratio_128 ^ 2)) as B02.
  pose proof (COS_bound (D * ratio_128 ^ 1 - D * ratio_128 ^ 2)) as B12.
  destruct (cos_one_multiple_of_pi (D * ratio_128 ^ 0 - D * ratio_128 ^ 1) ltac:(lra)) as [k1 E1].
  destruct (cos_one_multiple_of_pi (D * ratio_128 ^ 0 - D * ratio_128 ^ 2) ltac:(lra)) as [k2 E2].
  simpl in E1, E2.
  set (t := ratio_128) in *.
  pose proof PI_RGT_0 as Hpi.
  assert (Hk1 : k1 <> 0%Z).
  { intros ->; simpl in E1.
    assert (D * (1 - t) = 0) by lra.
    apply Rmult_integral in H; destruct H; [contradiction|lra]. }
  assert (Hk1R : IZR k1 <> 0) by (apply not_0_IZR; exact Hk1).
  (* E2 / E1: 1 + t = k2 / k1. *)
  assert (Hratio : t * IZR k1 = IZR (k2 - k1)).
  { rewrite minus_IZR.
    assert (E2' : IZR k2 * PI = (IZR k1 * PI) * (1 + t)) by (rewrite <- E1; rewrite <- E2; ring).
    apply (Rmult_eq_reg_r PI); [|lra]; nra. }
  assert (Hint : IZR (10 * (k2 - k1) ^ Z.of_nat 16) = IZR (k1 ^ Z.of_nat 16)).
  { rewrite mult_IZR, <- !pow_IZR, <- Hratio, Rpow_mult_distr, <- Rmult_assoc.
    unfold t; rewrite ratio_128_pow16; ring. }
  apply eq_IZR in Hint.
  exact (no_sixteenth_root_of_ten (k2 - k1) k1 Hk1 Hint).
Qed.

(* A sum of terms each below its partner, one strictly, is strictly below. *)
Lemma sum_lt_at (n k : nat) (f g : nat -> R) :
  (k < n)%nat -> (forall i, (i < n)%nat -> f i <= g i) -> f k < g k -> sum n f < sum n g.
Proof.
  induction n as [|n IH]; intros Hk Hle Hlt; [lia|].
  rewrite !sum_S.
  destruct (Nat.eq_dec k n) as [->|Hne].
  - pose proof (sum_le n f g (fun i Hi => Hle i ltac:(lia))); lra.
  - pose proof (IH ltac:(lia) (fun i Hi => Hle i ltac:(lia)) Hlt).
    pose proof (Hle n ltac:(lia)); lra.
Qed.

(* ROPE-DECAY-BOUND-MONOTONE at RoFormer's Fig. 2 (d = 128, base 10000): the
   bound decays from its value at distance 0 -- at every nonzero distance it
   is strictly below B(0) = (d + 2)/4 = 65/2 (not monotonically: see
   Decay128.v and the d = 4 note above).  The first half of the trend reading
   (Decay128Trend.v). *)
Theorem rope_decay_bound_below_distance_0_d128 :
  forall D : R, D <> 0 ->
    relative_bound (rope_spectrum 10000 64) 64 D < relative_bound (rope_spectrum 10000 64) 64 0
    /\ relative_bound (rope_spectrum 10000 64) 64 0 = 65 / 2.
Proof.
  intros D HD.
  destruct (rope_decay_bound_monotone_correction 64 (rope_spectrum 10000 64) D ltac:(lia))
    as [_ Hzero].
  split; [|rewrite Hzero; simpl; lra].
  unfold relative_bound; apply Rmult_lt_compat_r.
  - apply Rinv_0_lt_compat, lt_0_INR; lia.
  - apply (sum_lt_at 64 2); [lia| |].
    + intros j _; rewrite partial_sum_at_zero, Cmod_R, Rabs_pos_eq by apply pos_INR.
      apply partial_sum_phase_le.
    + rewrite partial_sum_at_zero, Cmod_R, Rabs_pos_eq by apply pos_INR.
      replace (INR 3) with 3 by (simpl; ring).
      apply third_partial_sum_short; exact HD.
Qed.

(* The strong reading restricted to RoFormer's d = 128 is decided in
   Decay128.v: B(179) < B(183).  A single `interval` call over the 8,320
   cosine/sine leaves of the 64 nested partial sums took 52 s (plus 28 s at
   Qed); Decay128.v instead encloses the 128 phases of each distance one by
   one and reasons about the sums in exact integer arithmetic. *)

(* The definitions live in DefsDecay.v; these abbreviations keep `Decay.name` working for importers. *)
Notation csum := DefsDecay.csum (only parsing).
Notation phase := DefsDecay.phase (only parsing).
Notation partial_sum := DefsDecay.partial_sum (only parsing).
Notation max_step := DefsDecay.max_step (only parsing).
Notation rope_score := DefsDecay.rope_score (only parsing).
Notation pair_weight := DefsDecay.pair_weight (only parsing).
Notation cut_weight := DefsDecay.cut_weight (only parsing).
Notation seed_score := DefsDecay.seed_score (only parsing).
Notation relative_bound := DefsDecay.relative_bound (only parsing).
Notation bound_monotone_reading := DefsDecay.bound_monotone_reading (only parsing).
Notation elu_plus_one := DefsDecay.elu_plus_one (only parsing).
Notation feature_map := DefsDecay.feature_map (only parsing).
Notation linear_attention_seed_reading := DefsDecay.linear_attention_seed_reading (only parsing).
Notation relative_scores := DefsDecay.relative_scores (only parsing).
Notation cached_key := DefsDecay.cached_key (only parsing).
Notation cached_scores := DefsDecay.cached_scores (only parsing).
Notation ratio_128 := DefsDecay.ratio_128 (only parsing).
