(** * SinusoidalDecay.v: how the sinusoidal score behaves over distance.

    The SPE-* claims of proofs/claims/_claims_sinusoidal.py about the score
    S(D) = <PE(p), PE(p + D)> as the distance D grows (SPE-DOT-AVERAGES-OUT,
    SPE-DOT-NONMONOTONE) and the evidence for SPE-UNIQUE-POSITION, on the
    encoding [pe]/[spe] of Sinusoidal.v (base 10000, d = 2h).  The tools are
    Dirichlet's bound on sum_D cos(w D) and its lower-bound form for the
    squared score. *)

From Coq Require Import Reals Lia Lra Classical_Prop.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs Sinusoidal.

Open Scope R_scope.
From Ropecheck Require Import DefsSinusoidalDecay.

(** ** SPE-DOT-AVERAGES-OUT *)

(* Dirichlet's kernel in closed form, multiplied out so that no division by
   sin(w/2) appears: the bound on the running sum comes from it. *)
Lemma dirichlet_sum w N :
  2 * sin (w / 2) * sum N (fun D => cos (w * INR D)) = sin ((INR N - / 2) * w) + sin (w / 2).
Proof.
  induction N as [|N IH].
  - rewrite sum_0; change (INR 0) with 0.
    replace ((0 - / 2) * w) with (- (w / 2)) by field; rewrite sin_neg; ring.
  - rewrite sum_S, Rmult_plus_distr_l, IH, S_INR.
    replace ((INR N + 1 - / 2) * w) with (w * INR N + w / 2) by field.
    replace ((INR N - / 2) * w) with (w * INR N - w / 2) by field.
    rewrite sin_plus, sin_minus; ring.
Qed.

Lemma dirichlet_bound w N : sin (w / 2) <> 0 ->
  Rabs (sum N (fun D => cos (w * INR D))) <= / Rabs (sin (w / 2)).
Proof.
  intros Hs; assert (Hpos : 0 < Rabs (sin (w / 2))) by (apply Rabs_pos_lt; exact Hs).
  assert (Hprod : 2 * Rabs (sin (w / 2)) * Rabs (sum N (fun D => cos (w * INR D))) <= 2).
  { replace 2 with (Rabs 2) at 1 by (apply Rabs_right; lra).
    rewrite <- !Rabs_mult, dirichlet_sum.
    eapply Rle_trans; [apply Rabs_triang|].
    pose proof (SIN_bound ((INR N - / 2) * w)); pose proof (SIN_bound (w / 2)).
    assert (Rabs (sin ((INR N - / 2) * w)) <= 1) by (apply Rabs_le; lra).
    assert (Rabs (sin (w / 2)) <= 1) by (apply Rabs_le; lra).
    lra. }
  apply (Rmult_le_reg_l (Rabs (sin (w / 2)))); [exact Hpos|].
  rewrite Rinv_r by lra; lra.
Qed.

Lemma mean_score_bound h w p N :
  (forall i, (i < h)%nat -> sin (w i / 2) <> 0) -> (1 <= N)%nat ->
  Rabs (mean_score h w p N) <= sum h (fun i => / Rabs (sin (w i / 2))) / INR N.
Proof.
  intros Hs HN; unfold mean_score.
  rewrite (sum_ext N _ (fun D => sum h (fun i => cos (w i * INR D)))).
  2: { intros D _; rewrite spe_dot_relative; apply sum_ext; intros i _.
       replace (w i * (p - (p + INR D))) with (- (w i * INR D)) by ring; apply cos_neg. }
  rewrite sum_swap; assert (0 < INR N) by (apply lt_0_INR; lia).
  unfold Rdiv; rewrite Rabs_mult, (Rabs_right (/ INR N)) by (left; apply Rinv_0_lt_compat; lra).
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
  eapply Rle_trans; [apply sum_abs_le|].
  apply sum_le; intros i Hi; apply dirichlet_bound, Hs, Hi.
Qed.

(* Every frequency of the seeds lies in (0, 1], so w_i / 2 lies in (0, pi). *)
Lemma spectrum_sin_half_pos h i : (i < h)%nat -> 0 < sin (rope_spectrum 10000 h i / 2).
Proof.
  intros Hi; unfold rope_spectrum, rope_frequency; rewrite Ropp_div.
  assert (0 < INR (2 * h)) by (apply lt_0_INR; lia).
  assert (0 <= 2 * INR i / INR (2 * h)).
  { apply Rmult_le_pos; [pose proof (pos_INR i); lra|left; apply Rinv_0_lt_compat; lra]. }
  assert (0 < Rpower 10000 (- (2 * INR i / INR (2 * h)))) by (unfold Rpower; apply exp_pos).
  assert (Rpower 10000 (- (2 * INR i / INR (2 * h))) <= 1).
  { rewrite <- (Rpower_O 10000) by lra; apply Rle_Rpower; lra. }
  pose proof PI2_3_2; apply sin_gt_0; lra.
Qed.

Lemma spectrum_dirichlet_sum_nonneg h : 0 <= spectrum_dirichlet_sum h.
Proof.
  rewrite <- (sum_const_0 h); apply sum_le; intros i Hi.
  pose proof (spectrum_sin_half_pos h i Hi).
  left; apply Rinv_0_lt_compat, Rabs_pos_lt; lra.
Qed.

(* Means over n terms bounded by C/n, for every window M, are below any eps
   from some length on, the same length for every window. *)
Lemma bounded_mean_small (C eps : R) (mean : nat -> nat -> R) : 0 <= C -> 0 < eps ->
  (forall M n, (1 <= n)%nat -> Rabs (mean M n) <= C / INR n) ->
  exists N : nat, forall n M : nat, (N <= n)%nat -> Rabs (mean M n) < eps.
Proof.
  intros HC Heps Hmean.
  destruct (archimed_cor1 (eps / (C + 1))) as [N [HN HN0]].
  { apply Rdiv_lt_0_compat; lra. }
  exists N; intros n M Hn.
  eapply Rle_lt_trans; [apply Hmean; lia|].
  assert (0 < INR N) by (apply lt_0_INR; lia).
  assert (/ INR n <= / INR N) by (apply Rinv_le_contravar; [lra|apply le_INR; lia]).
  assert (0 < / INR n) by (apply Rinv_0_lt_compat, lt_0_INR; lia).
  unfold Rdiv; apply Rle_lt_trans with ((C + 1) * / INR N).
  - apply Rmult_le_compat; lra.
  - replace eps with ((C + 1) * (eps / (C + 1))) by (field; lra).
    apply Rmult_lt_compat_l; lra.
Qed.

(* The running mean over the distances 0 .. N-1 of the score
   <PE(p), PE(p + D)> tends to 0 as N grows, for every even d and every p
   (the window from distance 0; Averages.v decides SPE-DOT-AVERAGES-OUT). *)
Theorem spe_dot_running_mean_to_zero : forall (h : nat) (p : R),
  Un_cv (mean_score h (rope_spectrum 10000 h) p) 0.
Proof.
  intros h p eps Heps.
  destruct (bounded_mean_small (spectrum_dirichlet_sum h) eps (fun _ => mean_score h (rope_spectrum 10000 h) p)
              (spectrum_dirichlet_sum_nonneg h) Heps) as [N HN].
  { intros _ n Hn; apply mean_score_bound; [|exact Hn].
    intros i Hi; pose proof (spectrum_sin_half_pos h i Hi); lra. }
  exists N; intros n Hn; unfold R_dist; rewrite Rminus_0_r; exact (HN n 0%nat Hn).
Qed.

(** ** SPE-DOT-NONMONOTONE *)

Lemma distance_score_dot h p D : dot (2 * h) (spe h p) (spe h (p + INR D)) = distance_score h D.
Proof.
  unfold spe, distance_score; rewrite spe_dot_relative; apply sum_ext; intros i _.
  replace (rope_spectrum 10000 h i * (p - (p + INR D))) with (- (rope_spectrum 10000 h i * INR D)) by ring.
  apply cos_neg.
Qed.

Lemma nat_unbounded A : exists N : nat, A < INR N.
Proof.
  destruct (archimed A) as [Hup _].
  destruct (Z_le_gt_dec 0 (up A)) as [Hle|Hgt].
  - exists (Z.to_nat (up A)); rewrite INR_IZR_INZ, Z2Nat.id by exact Hle; lra.
  - exists 0%nat; apply Z.gt_lt, IZR_lt in Hgt; simpl; lra.
Qed.

Lemma sum_const n c : sum n (fun _ => c) = c * INR n.
Proof. rewrite <- (sum_const_1 n), <- sum_scal_l; apply sum_ext; intros; ring. Qed.

Lemma spectrum_in_unit h i : (i < h)%nat -> 0 < rope_spectrum 10000 h i <= 1.
Proof.
  intros Hi; unfold rope_spectrum, rope_frequency; rewrite Ropp_div.
  assert (0 < INR (2 * h)) by (apply lt_0_INR; lia).
  assert (0 <= 2 * INR i / INR (2 * h)).
  { apply Rmult_le_pos; [pose proof (pos_INR i); lra|left; apply Rinv_0_lt_compat; lra]. }
  split; [unfold Rpower; apply exp_pos|].
  rewrite <- (Rpower_O 10000) by lra; apply Rle_Rpower; lra.
Qed.

(* Distinct pair indices have distinct frequencies: the cross terms of the
   squared score oscillate instead of adding up. *)
Lemma spectrum_injective h i j : (i < h)%nat -> (j < h)%nat -> i <> j ->
  rope_spectrum 10000 h i <> rope_spectrum 10000 h j.
Proof.
  intros Hi Hj Hij; unfold rope_spectrum, rope_frequency.
  assert (0 < INR (2 * h)) by (apply lt_0_INR; lia).
  assert (Hne : INR i <> INR j) by (apply not_INR; exact Hij).
  destruct (Rlt_or_le (INR i) (INR j)) as [Hlt|Hge].
  - apply Rgt_not_eq, Rpower_lt; [lra|].
    unfold Rdiv; apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|lra].
  - apply Rlt_not_eq, Rpower_lt; [lra|].
    unfold Rdiv; apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|lra].
Qed.

Lemma sin_half_ne_0 x : 0 < Rabs x < 2 * PI -> sin (x / 2) <> 0.
Proof.
  intros Hx; unfold Rabs in Hx; destruct (Rcase_abs x).
  - replace (x / 2) with (- (- x / 2)) by field; rewrite sin_neg.
    assert (0 < sin (- x / 2)) by (apply sin_gt_0; lra); lra.
  - assert (0 < sin (x / 2)) by (apply sin_gt_0; lra); lra.
Qed.

Lemma distance_score_le h D : distance_score h D <= INR h.
Proof.
  unfold distance_score; rewrite <- (sum_const_1 h); apply sum_le; intros i _.
  pose proof (COS_bound (rope_spectrum 10000 h i * INR D)); lra.
Qed.

Lemma distance_score_sum_bound h : exists B, forall N, Rabs (sum N (distance_score h)) <= B.
Proof.
  exists (sum h (fun i => / Rabs (sin (rope_spectrum 10000 h i / 2)))); intros N.
  unfold distance_score; rewrite sum_swap.
  eapply Rle_trans; [apply sum_abs_le|].
  apply sum_le; intros i Hi; apply dirichlet_bound.
  pose proof (spectrum_sin_half_pos h i Hi); lra.
Qed.

Lemma cos_product_sum w v N :
  sum N (fun D => cos (w * INR D) * cos (v * INR D))
  = / 2 * sum N (fun D => cos ((w - v) * INR D)) + / 2 * sum N (fun D => cos ((w + v) * INR D)).
Proof.
  rewrite <- !sum_scal_l, <- sum_plus; apply sum_ext; intros D _.
  replace ((w - v) * INR D) with (w * INR D - v * INR D) by ring.
  replace ((w + v) * INR D) with (w * INR D + v * INR D) by ring.
  rewrite cos_minus, cos_plus; field.
Qed.

Lemma pair_sum_lower h i j N : (i < h)%nat -> (j < h)%nat ->
  (if Nat.eqb i j then INR N / 2 else 0) - pair_constant h i j
  <= sum N (fun D => cos (rope_spectrum 10000 h i * INR D) * cos (rope_spectrum 10000 h j * INR D)).
Proof.
  intros Hi Hj; rewrite cos_product_sum; unfold pair_constant, dirichlet_constant.
  pose proof (spectrum_in_unit h i Hi); pose proof (spectrum_in_unit h j Hj).
  pose proof (spectrum_injective h i j Hi Hj) as Hinj.
  set (wi := rope_spectrum 10000 h i) in *; set (wj := rope_spectrum 10000 h j) in *.
  pose proof PI2_3_2.
  assert (Hplus : Rabs (sum N (fun D => cos ((wi + wj) * INR D))) <= / Rabs (sin ((wi + wj) / 2))).
  { apply dirichlet_bound, sin_half_ne_0; rewrite Rabs_right by lra; lra. }
  pose proof (Rle_abs (- sum N (fun D => cos ((wi + wj) * INR D)))); rewrite Rabs_Ropp in *.
  destruct (Nat.eqb_spec i j) as [<-|Hij].
  - rewrite (sum_ext N _ (fun _ => 1)) by (intros; rewrite Rminus_diag_eq, Rmult_0_l, cos_0; reflexivity).
    rewrite sum_const_1; lra.
  - assert (Hminus : Rabs (sum N (fun D => cos ((wi - wj) * INR D))) <= / Rabs (sin ((wi - wj) / 2))).
    { apply dirichlet_bound, sin_half_ne_0; split.
      - apply Rabs_pos_lt; intros E; apply (Hinj Hij); lra.
      - apply Rabs_def1; lra. }
    pose proof (Rle_abs (- sum N (fun D => cos ((wi - wj) * INR D)))); rewrite Rabs_Ropp in *.
    lra.
Qed.

Lemma distance_score_sq_sum_lower h : exists C, forall N,
  INR h * INR N / 2 - C <= sum N (fun D => distance_score h D * distance_score h D).
Proof.
  exists (sum h (fun i => sum h (fun j => pair_constant h i j))); intros N.
  rewrite (sum_ext N _ (fun D => sum h (fun i => sum h (fun j =>
             cos (rope_spectrum 10000 h i * INR D) * cos (rope_spectrum 10000 h j * INR D))))).
  2: { intros D _; unfold distance_score; rewrite <- sum_scal_r; apply sum_ext; intros i _.
       rewrite <- sum_scal_l; reflexivity. }
  rewrite (sum_swap N h).
  rewrite (sum_ext h
    (fun i => sum N (fun D => sum h (fun j =>
       cos (rope_spectrum 10000 h i * INR D) * cos (rope_spectrum 10000 h j * INR D))))
    (fun i => sum h (fun j => sum N (fun D =>
       cos (rope_spectrum 10000 h i * INR D) * cos (rope_spectrum 10000 h j * INR D)))))
    by (intros; apply sum_swap).
  assert (Hdiag : sum h (fun i => sum h (fun j => (if Nat.eqb i j then INR N / 2 else 0) - pair_constant h i j))
                  = INR h * INR N / 2 - sum h (fun i => sum h (fun j => pair_constant h i j))).
  { rewrite (sum_ext h (fun i => sum h (fun j => (if Nat.eqb i j then INR N / 2 else 0) - pair_constant h i j))
                       (fun i => INR N / 2 - sum h (fun j => pair_constant h i j))).
    - rewrite sum_minus, sum_const; field.
    - intros i Hi; rewrite sum_minus, (sum_single h i); [rewrite Nat.eqb_refl; reflexivity|exact Hi|].
      intros j _ Hji; apply not_eq_sym, Nat.eqb_neq in Hji; rewrite Hji; reflexivity. }
  rewrite <- Hdiag.
  apply sum_le; intros i Hi; apply sum_le; intros j Hj; apply pair_sum_lower; assumption.
Qed.

(* Read as: for every even d >= 2 and every position p, the score
   <PE(p), PE(p + D)> is not a non-increasing function of the distance D.
   Were it non-increasing, the bounded running sums would force it to stay
   >= 0, and then sum S^2 <= (d/2) sum S would stay bounded, while sum S^2
   grows like (d/2) N / 2. *)
Theorem spe_dot_nonmonotone : forall (h : nat) (p : R), (1 <= h)%nat ->
  exists D1 D2 : nat, (D1 < D2)%nat /\
  dot (2 * h) (spe h p) (spe h (p + INR D1)) < dot (2 * h) (spe h p) (spe h (p + INR D2)).
Proof.
  intros h p Hh; apply NNPP; intros Hmono.
  assert (Hdec : forall D1 D2, (D1 <= D2)%nat -> distance_score h D2 <= distance_score h D1).
  { intros D1 D2 Hle; destruct (Nat.eq_dec D1 D2) as [->|Hne]; [lra|].
    apply Rnot_lt_le; intros Hlt; apply Hmono; exists D1, D2; split; [lia|].
    rewrite !distance_score_dot; exact Hlt. }
  destruct (distance_score_sum_bound h) as [B HB].
  assert (Hnonneg : forall D, 0 <= distance_score h D).
  { intros D0; apply Rnot_lt_le; intros Hneg.
    destruct (nat_unbounded ((INR h * INR D0 + B) / (- distance_score h D0))) as [M HM].
    specialize (HB (D0 + M)%nat); rewrite sum_shift in HB.
    assert (sum D0 (distance_score h) <= INR h * INR D0).
    { rewrite <- sum_const; apply sum_le; intros; apply distance_score_le. }
    assert (sum M (fun i => distance_score h (D0 + i)%nat) <= distance_score h D0 * INR M).
    { rewrite <- sum_const; apply sum_le; intros; apply Hdec; lia. }
    assert (INR h * INR D0 + B < - distance_score h D0 * INR M).
    { apply (Rmult_lt_compat_r (- distance_score h D0)) in HM; [|lra].
      unfold Rdiv in HM; rewrite Rmult_assoc, Rinv_l in HM by lra; lra. }
    pose proof (Rle_abs (- (sum D0 (distance_score h) + sum M (fun i => distance_score h (D0 + i)%nat)))).
    rewrite Rabs_Ropp in *; lra. }
  destruct (distance_score_sq_sum_lower h) as [C HC].
  assert (0 < INR h) by (apply lt_0_INR; lia).
  destruct (nat_unbounded (2 * (INR h * B + C) / INR h)) as [N HN].
  specialize (HC N); specialize (HB N).
  assert (sum N (fun D => distance_score h D * distance_score h D) <= INR h * sum N (distance_score h)).
  { rewrite <- sum_scal_l; apply sum_le; intros D _.
    pose proof (Hnonneg D); pose proof (distance_score_le h D).
    apply Rmult_le_compat_r; lra. }
  pose proof (Rle_abs (sum N (distance_score h))).
  apply (Rmult_lt_compat_r (INR h)) in HN; [|lra].
  unfold Rdiv in HN; rewrite Rmult_assoc, Rinv_l in HN by lra.
  nra.
Qed.

(* -d/2 <= S(D) <= d/2: every term is a cosine. *)
Lemma distance_score_ge h D : - INR h <= distance_score h D.
Proof.
  unfold distance_score; rewrite <- (sum_const_1 h), <- sum_opp; apply sum_le; intros i _.
  pose proof (COS_bound (rope_spectrum 10000 h i * INR D)); lra.
Qed.

(* SPE-DOT-AVERAGES-OUT, literal reading "the score averages out to 0 at long
   distances" as: the score S(D) = <PE(p), PE(p + D)> itself tends to 0 as the
   distance D grows.  It does not, for every even d >= 2: were |S(D)| < 1/2
   from some M on, sum_{D < M+K} S^2 <= M (d/2)^2 + K/4, against the lower
   bound (d/2)(M + K)/2 - C of distance_score_sq_sum_lower. *)
Theorem spe_dot_averages_out_literal_negation : forall h : nat, (1 <= h)%nat ->
  ~ Un_cv (distance_score h) 0.
Proof.
  intros h Hh Hcv.
  destruct (Hcv (1 / 2) ltac:(lra)) as [M HM].
  destruct (distance_score_sq_sum_lower h) as [C HC].
  assert (Hh1 : 1 <= INR h) by (apply (le_INR 1); lia).
  destruct (nat_unbounded (4 * (INR M * (INR h * INR h) + C))) as [K HK].
  specialize (HC (M + K)%nat); rewrite sum_shift, plus_INR in HC.
  assert (H1 : sum M (fun D => distance_score h D * distance_score h D) <= (INR h * INR h) * INR M).
  { rewrite <- sum_const; apply sum_le; intros D _.
    pose proof (distance_score_ge h D); pose proof (distance_score_le h D); nra. }
  assert (H2 : sum K (fun i => distance_score h (M + i)%nat * distance_score h (M + i)%nat) <= / 4 * INR K).
  { rewrite <- sum_const; apply sum_le; intros i _.
    specialize (HM (M + i)%nat ltac:(lia)); unfold R_dist in HM; rewrite Rminus_0_r in HM.
    apply Rabs_def2 in HM; nra. }
  pose proof (pos_INR M); pose proof (pos_INR K).
  assert (INR K <= INR h * INR K) by nra.
  assert (0 <= INR h * INR M) by nra.
  lra.
Qed.

Example spe_dot_nonmonotone_instance_d128 : exists D1 D2 : nat, (D1 < D2)%nat /\
  dot 128 (spe 64 0) (spe 64 (0 + INR D1)) < dot 128 (spe 64 0) (spe 64 (0 + INR D2)).
Proof. exact (spe_dot_nonmonotone 64 0 ltac:(lia)). Qed.

Lemma sum_unrolled_izr n g :
  sum n (fun i => g (INR i)) = sum_unrolled n (fun i => g (IZR (Z.of_nat i))).
Proof.
  induction n as [|n IH]; [apply sum_0|].
  rewrite sum_S, IH, INR_IZR_INZ; reflexivity.
Qed.

(* The ledger's explicit witness, d = 128, base 10000: the score rises from
   distance 11 to distance 12. *)
Lemma spe_dot_rises_11_to_12_d128 : exists D1 D2 : nat, (D1 < D2)%nat /\
  dot 128 (spe 64 0) (spe 64 (INR D1)) < dot 128 (spe 64 0) (spe 64 (INR D2)).
Proof.
  exists 11%nat, 12%nat; split; [lia|].
  unfold spe; rewrite !(spe_dot_relative 64).
  unfold rope_spectrum, rope_frequency.
  rewrite !(sum_unrolled_izr 64 (fun x => cos (Rpower 10000 (- (2 * x) / INR (2 * 64)) * (0 - _)))).
  rewrite !INR_IZR_INZ.
  cbv beta iota zeta delta [sum_unrolled Z.of_nat Pos.of_succ_nat Pos.succ Nat.mul Nat.add].
  interval.
Qed.

(** ** SPE-UNIQUE-POSITION *)

Lemma spe_odd h p : spe h p 1%nat = cos p.
Proof.
  transitivity (cos (p * rope_spectrum 10000 h 0)); [exact (pe_odd _ p 0)|].
  rewrite spectrum_0, Rmult_1_r; reflexivity.
Qed.

(* cos x = 1 - 2 sin^2(x/2) < 1 when 0 < |x| < 2 pi: two positions closer
   than one period of the first pair are told apart by that pair. *)
Lemma cos_lt_1_near_0 x : 0 < Rabs x < 2 * PI -> cos x < 1.
Proof.
  intros Hx.
  assert (E : cos x = cos (Rabs x)).
  { unfold Rabs; destruct (Rcase_abs x); [rewrite cos_neg|]; reflexivity. }
  rewrite E; set (y := Rabs x) in *.
  replace y with (2 * (y / 2)) by field; rewrite cos_2a_sin.
  assert (0 < sin (y / 2)) by (apply sin_gt_0; lra).
  nra.
Qed.

(* Two encodings agree on the first pair only if cos(p - q) = 1: the one
   step both injectivity results below rest on. *)
Lemma spe_first_pair_separates h p q : (1 <= h)%nat -> cos (p - q) < 1 ->
  exists j, (j < 2 * h)%nat /\ spe h p j <> spe h q j.
Proof.
  intros Hh Hlt.
  destruct (Req_dec (sin p) (sin q)) as [Es|Ns].
  - destruct (Req_dec (cos p) (cos q)) as [Ec|Nc].
    + exfalso; rewrite cos_minus, <- Es, <- Ec in Hlt.
      pose proof (sin2_cos2 p); unfold Rsqr in *; lra.
    + exists 1%nat; split; [lia|]; rewrite !spe_odd; exact Nc.
  - exists 0%nat; split; [lia|]; rewrite !spe_even; exact Ns.
Qed.

Theorem spe_position_window : forall (h : nat) (p q : R), (1 <= h)%nat ->
  0 < Rabs (p - q) < 2 * PI -> exists j, (j < 2 * h)%nat /\ spe h p j <> spe h q j.
Proof.
  intros h p q Hh Hpq; apply spe_first_pair_separates; [exact Hh|].
  apply cos_lt_1_near_0; exact Hpq.
Qed.

Lemma PI_bounds : 3.14159 < PI < 3.1416.
Proof. split; interval. Qed.

(* No integer 1 .. 43 is a multiple of 2 pi: 2 pi k for k = 1 .. 6 falls
   strictly between two integers (7 * 2 pi > 43.98). *)
Lemma cos_integer_lt_1 n : (1 <= n <= 43)%nat -> cos (INR n) < 1.
Proof.
  intros Hn; destruct (Rlt_or_le (cos (INR n)) 1) as [Hlt|Hge]; [exact Hlt|exfalso].
  assert (Hc : cos (2 * (INR n / 2)) = 1)
    by (replace (2 * (INR n / 2)) with (INR n) by field; pose proof (COS_bound (INR n)); lra).
  rewrite cos_2a_sin in Hc.
  assert (Hs : sin (INR n / 2) = 0) by nra.
  destruct (sin_eq_0_0 _ Hs) as [k Hk].
  pose proof PI_bounds as [Hlo Hhi].
  rewrite INR_IZR_INZ in Hk.
  assert (Hrange : 1 <= IZR (Z.of_nat n) <= 43) by (split; apply IZR_le; lia).
  assert (Hkn : IZR (Z.of_nat n) = 2 * IZR k * PI) by lra.
  assert (Hk0 : (0 < k)%Z) by (apply lt_IZR; nra).
  assert (Hk7 : (k < 7)%Z) by (apply lt_IZR; nra).
  assert (Hcases : (k = 1 \/ k = 2 \/ k = 3 \/ k = 4 \/ k = 5 \/ k = 6)%Z) by lia.
  destruct Hcases as [-> | [-> | [-> | [-> | [-> | ->]]]]];
    [ assert (Hb : 6 < IZR (Z.of_nat n) < 7) by lra
    | assert (Hb : 12 < IZR (Z.of_nat n) < 13) by lra
    | assert (Hb : 18 < IZR (Z.of_nat n) < 19) by lra
    | assert (Hb : 25 < IZR (Z.of_nat n) < 26) by lra
    | assert (Hb : 31 < IZR (Z.of_nat n) < 32) by lra
    | assert (Hb : 37 < IZR (Z.of_nat n) < 38) by lra ];
    destruct Hb as [Hb1 Hb2]; apply lt_IZR in Hb1; apply lt_IZR in Hb2; lia.
Qed.

(* The integer positions 0 .. 43 get distinct vectors, for every even d >= 2. *)
Theorem spe_positions_below_44_distinct : forall (h p q : nat), (1 <= h)%nat ->
  (p <= 43)%nat -> (q <= 43)%nat -> p <> q -> exists j, (j < 2 * h)%nat /\ spe h (INR p) j <> spe h (INR q) j.
Proof.
  intros h p q Hh Hp Hq Hpq; apply spe_first_pair_separates; [exact Hh|].
  destruct (Nat.lt_ge_cases q p) as [Hqp|Hpq'].
  - replace (INR p - INR q) with (INR (p - q)) by (rewrite minus_INR by lia; reflexivity).
    apply cos_integer_lt_1; lia.
  - replace (INR p - INR q) with (- INR (q - p)) by (rewrite minus_INR by lia; ring).
    rewrite cos_neg; apply cos_integer_lt_1; lia.
Qed.
(* SPE-UNIQUE-POSITION is decided in Positions.v (spe_unique_position) for
   every even d other than 2, 4, 8, base 10000, for every real position.  The results above hold for
   every even d: real positions closer than 2 pi, and the integer positions
   0 .. 43.  At d = 2, 4, 8 all frequencies are rational and uniqueness over
   all integer positions is the irrationality of pi (not proved here). *)

(* The definitions live in DefsSinusoidalDecay.v; these abbreviations keep `SinusoidalDecay.name` working for importers. *)
Notation mean_score := DefsSinusoidalDecay.mean_score (only parsing).
Notation distance_score := DefsSinusoidalDecay.distance_score (only parsing).
Notation dirichlet_constant := DefsSinusoidalDecay.dirichlet_constant (only parsing).
Notation pair_constant := DefsSinusoidalDecay.pair_constant (only parsing).
Notation sum_unrolled := DefsSinusoidalDecay.sum_unrolled (only parsing).
Notation spectrum_dirichlet_sum := DefsSinusoidalDecay.spectrum_dirichlet_sum (only parsing).
