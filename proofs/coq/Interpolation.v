(** * Interpolation: the linear-interpolation error of Positional Interpolation's score a(s)
    (Chen et al. 2023, Sec. 2.3, Theorem 2.1), bounded through a second-order Taylor remainder.
    The remainder comes from Coquelicot's mean value theorem (MVT_gen); the score's derivatives from
    Coquelicot's is_derive rules for cos and sin.  Restated in Scaling.v as PI-INTERPOLATION-BOUND's correction. *)

From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Rcomplements Hierarchy Derive ElemFct AutoDerive.
From Ropecheck Require Import Defs DefsScaling.
Local Open Scope R_scope.

(** ** A first-order Taylor expansion with a bounded second derivative *)

(* One side of the remainder: psi t = f y - f t - f1 t (y - t) - K/2 (y - t)^2 is monotone towards y,
   because its derivative (y - t)(K - f2 t) has the sign of y - t. *)
Lemma taylor1_upper (f f1 f2 : R -> R) (K x y : R) :
  (forall t, is_derive f t (f1 t)) -> (forall t, is_derive f1 t (f2 t)) -> (forall t, f2 t <= K) ->
  f y - f x - f1 x * (y - x) <= K / 2 * (y - x) ^ 2.
Proof.
  intros Df Df1 HK.
  set (psi := fun t => f y - f t - f1 t * (y - t) - K / 2 * (y - t) ^ 2).
  assert (Dpsi : forall t, is_derive psi t ((y - t) * (K - f2 t))).
  { intro t. unfold psi. auto_derive.
    - split; [exists (f1 t); apply Df|split; [exists (f2 t); apply Df1|exact I]].
    - replace (Derive (fun u => f u) t) with (f1 t) by (symmetry; apply is_derive_unique; apply Df).
      replace (Derive (fun u => f1 u) t) with (f2 t) by (symmetry; apply is_derive_unique; apply Df1).
      change (AbsRing.sort R_AbsRing) with R in *. lra. }
  destruct (MVT_gen psi x y (fun t => (y - t) * (K - f2 t))) as [c [Hc E]].
  - intros t _. apply Dpsi.
  - intros t _. apply continuity_pt_filterlim. apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)). eexists. apply Dpsi.
  - assert (Py : psi y = 0) by (unfold psi; ring).
    rewrite Py in E. specialize (HK c).
    assert (S : 0 <= (y - c) * (y - x)).
    { destruct (Rle_dec x y).
      - rewrite Rmin_left, Rmax_right in Hc by lra. apply Rmult_le_pos; lra.
      - rewrite Rmin_right, Rmax_left in Hc by lra. replace ((y - c) * (y - x)) with ((c - y) * (x - y)) by ring.
        apply Rmult_le_pos; lra. }
    assert (0 <= (y - c) * (K - f2 c) * (y - x)).
    { replace ((y - c) * (K - f2 c) * (y - x)) with ((y - c) * (y - x) * (K - f2 c)) by ring.
      apply Rmult_le_pos; lra. }
    unfold psi in E. lra.
Qed.

Lemma taylor1_bound (f f1 f2 : R -> R) (M x y : R) :
  (forall t, is_derive f t (f1 t)) -> (forall t, is_derive f1 t (f2 t)) -> (forall t, Rabs (f2 t) <= M) ->
  Rabs (f y - f x - f1 x * (y - x)) <= M / 2 * (y - x) ^ 2.
Proof.
  intros Df Df1 HM. apply Rabs_le_between. split.
  - assert (Dn : forall t, is_derive (fun u => - f u) t (- f1 t)) by (intro t; exact (is_derive_opp (K := R_AbsRing) (V := R_NormedModule) f t (f1 t) (Df t))).
    assert (Dn1 : forall t, is_derive (fun u => - f1 u) t (- f2 t)) by (intro t; exact (is_derive_opp (K := R_AbsRing) (V := R_NormedModule) f1 t (f2 t) (Df1 t))).
    pose proof (taylor1_upper (fun u => - f u) (fun u => - f1 u) (fun u => - f2 u) M x y Dn Dn1
      ltac:(intro t; specialize (HM t); apply Rabs_le_between in HM; lra)) as H. simpl in H. lra.
  - apply (taylor1_upper f f1 f2 M x y Df Df1). intro t. specialize (HM t). apply Rabs_le_between in HM. lra.
Qed.

(* The chord error of f on [s1, s2] at s: both endpoints expanded around s, the first-order terms cancel. *)
Lemma interpolation_error (f f1 f2 : R -> R) (M s1 s2 s : R) :
  (forall t, is_derive f t (f1 t)) -> (forall t, is_derive f1 t (f2 t)) -> (forall t, Rabs (f2 t) <= M) ->
  s1 < s2 -> s1 <= s <= s2 ->
  Rabs (f s - linear_interpolation f s1 s2 s) <= M / 2 * (s - s1) * (s2 - s).
Proof.
  intros Df Df1 HM H12 Hs.
  pose proof (taylor1_bound f f1 f2 M s s1 Df Df1 HM) as E1.
  pose proof (taylor1_bound f f1 f2 M s s2 Df Df1 HM) as E2.
  set (e1 := f s1 - f s - f1 s * (s1 - s)) in E1. set (e2 := f s2 - f s - f1 s * (s2 - s)) in E2.
  unfold linear_interpolation. set (l := (s - s1) / (s2 - s1)).
  assert (Hl : 0 <= l <= 1).
  { unfold l. split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|].
    apply Rmult_le_reg_r with (s2 - s1); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. }
  assert (El : l * (s2 - s1) = s - s1) by (unfold l; field; lra).
  assert (R : f s - ((1 - l) * f s1 + l * f s2) = - ((1 - l) * e1 + l * e2)).
  { unfold e1, e2. replace (f s1) with (e1 + f s + f1 s * (s1 - s)) by (unfold e1; ring).
    replace (f s2) with (e2 + f s + f1 s * (s2 - s)) by (unfold e2; ring).
    fold e1 e2. assert (C : (1 - l) * (s1 - s) + l * (s2 - s) = 0) by nra. nra. }
  rewrite R, Rabs_Ropp.
  apply Rle_trans with ((1 - l) * Rabs e1 + l * Rabs e2).
  { apply Rle_trans with (Rabs ((1 - l) * e1) + Rabs (l * e2)); [apply Rabs_triang|].
    rewrite !Rabs_mult, (Rabs_right (1 - l)), (Rabs_right l) by lra. lra. }
  assert (M0 : 0 <= M) by (specialize (HM s); pose proof (Rabs_pos (f2 s)); lra).
  apply Rle_trans with ((1 - l) * (M / 2 * (s1 - s) ^ 2) + l * (M / 2 * (s2 - s) ^ 2)).
  { apply Rplus_le_compat; apply Rmult_le_compat_l; lra. }
  (* (1 - l)(s - s1)^2 + l (s2 - s)^2 = (s - s1)(s2 - s) *)
  assert (Q : (1 - l) * (s1 - s) ^ 2 + l * (s2 - s) ^ 2 = (s - s1) * (s2 - s)).
  { unfold l. field. lra. }
  replace ((1 - l) * (M / 2 * (s1 - s) ^ 2) + l * (M / 2 * (s2 - s) ^ 2))
    with (M / 2 * ((1 - l) * (s1 - s) ^ 2 + l * (s2 - s) ^ 2)) by ring.
  rewrite Q. lra.
Qed.

(** ** The score's derivatives *)

Lemma is_derive_rsum (n : nat) (g dg : nat -> R -> R) (t : R) :
  (forall j, is_derive (g j) t (dg j t)) ->
  is_derive (fun s => rsum n (fun j => g j s)) t (rsum n (fun j => dg j t)).
Proof.
  intro D. induction n as [|n IH]; simpl.
  - exact (is_derive_const (K := R_AbsRing) (V := R_NormedModule) 0 t).
  - exact (is_derive_plus (K := R_AbsRing) (V := R_NormedModule) _ _ t _ _ IH (D n)).
Qed.

Definition pi_slope (hr hi : nat -> R) (c : R) (n : nat) (s : R) : R :=
  rsum n (fun j => - rope_frequency c (2 * n) j *
    (hr j * sin (s * rope_frequency c (2 * n) j) + hi j * cos (s * rope_frequency c (2 * n) j))).

Definition pi_curvature (hr hi : nat -> R) (c : R) (n : nat) (s : R) : R :=
  rsum n (fun j => - rope_frequency c (2 * n) j ^ 2 *
    (hr j * cos (s * rope_frequency c (2 * n) j) - hi j * sin (s * rope_frequency c (2 * n) j))).

Lemma pi_score_derive (hr hi : nat -> R) (c : R) (n : nat) (t : R) :
  is_derive (pi_score hr hi c n) t (pi_slope hr hi c n t).
Proof.
  unfold pi_score, pi_slope.
  refine (is_derive_rsum n (fun j s => hr j * cos (s * rope_frequency c (2 * n) j) -
                                        hi j * sin (s * rope_frequency c (2 * n) j))
    (fun j s => - rope_frequency c (2 * n) j *
      (hr j * sin (s * rope_frequency c (2 * n) j) + hi j * cos (s * rope_frequency c (2 * n) j))) t _).
  intro j. auto_derive; [exact I|change (AbsRing.sort R_AbsRing) with R in *; simpl; ring].
Qed.

Lemma pi_slope_derive (hr hi : nat -> R) (c : R) (n : nat) (t : R) :
  is_derive (pi_slope hr hi c n) t (pi_curvature hr hi c n t).
Proof.
  unfold pi_slope, pi_curvature.
  refine (is_derive_rsum n (fun j s => - rope_frequency c (2 * n) j *
    (hr j * sin (s * rope_frequency c (2 * n) j) + hi j * cos (s * rope_frequency c (2 * n) j)))
    (fun j s => - rope_frequency c (2 * n) j ^ 2 *
      (hr j * cos (s * rope_frequency c (2 * n) j) - hi j * sin (s * rope_frequency c (2 * n) j))) t _).
  intro j. auto_derive; [exact I|change (AbsRing.sort R_AbsRing) with R in *; simpl; ring].
Qed.

(** ** |a''| <= max_j |h_j| sum_j theta_j^2 *)

Lemma rsum_abs (n : nat) (f : nat -> R) : Rabs (rsum n f) <= rsum n (fun j => Rabs (f j)).
Proof.
  induction n as [|n IH]; simpl; [rewrite Rabs_R0; lra|].
  eapply Rle_trans; [apply Rabs_triang|lra].
Qed.

Lemma rsum_le_compat (n : nat) (f g : nat -> R) : (forall j, (j < n)%nat -> f j <= g j) -> rsum n f <= rsum n g.
Proof.
  intro H. induction n as [|n IH]; simpl; [lra|].
  apply Rplus_le_compat; [apply IH; intros; apply H; lia|apply H; lia].
Qed.

Lemma rsum_scal (n : nat) (k : R) (f : nat -> R) : rsum n (fun j => k * f j) = k * rsum n f.
Proof. induction n as [|n IH]; simpl; [ring|rewrite IH; ring]. Qed.

(* |a cos x - b sin x| <= |a + i b|: Cauchy-Schwarz with cos^2 + sin^2 = 1. *)
Lemma rotated_component_bound (a b x : R) : Rabs (a * cos x - b * sin x) <= sqrt (a ^ 2 + b ^ 2).
Proof.
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr.
  pose proof (sin2_cos2 x) as P. unfold Rsqr in P.
  assert (0 <= (a * sin x + b * cos x) ^ 2) by apply pow2_ge_0. nra.
Qed.

Lemma max_modulus_above (hr hi : nat -> R) (n j : nat) : (j < n)%nat ->
  sqrt (hr j ^ 2 + hi j ^ 2) <= max_modulus hr hi n.
Proof.
  induction n as [|n IH]; intro H; [lia|]. simpl.
  destruct (Nat.eq_dec j n) as [->|K]; [apply Rmax_r|].
  eapply Rle_trans; [apply IH; lia|apply Rmax_l].
Qed.

Lemma pi_curvature_bound (hr hi : nat -> R) (c : R) (n : nat) (t : R) :
  Rabs (pi_curvature hr hi c n t) <= max_modulus hr hi n * rsum n (fun j => rope_frequency c (2 * n) j ^ 2).
Proof.
  unfold pi_curvature. eapply Rle_trans; [apply rsum_abs|]. rewrite <- rsum_scal.
  apply rsum_le_compat. intros j Hj. rewrite Rabs_mult, Rabs_Ropp, Rabs_right by (apply Rle_ge, pow2_ge_0).
  rewrite Rmult_comm. apply Rmult_le_compat_r; [apply pow2_ge_0|].
  eapply Rle_trans; [apply rotated_component_bound|apply max_modulus_above; exact Hj].
Qed.

(** ** sum_j theta_j^2 <= 1 + d / (4 ln c): the j = 0 term 1 plus the integral the paper's proof uses *)

Lemma rsum_geometric (n : nat) (q : R) : q <> 1 -> rsum n (fun j => q ^ j) = (1 - q ^ n) / (1 - q).
Proof.
  intro Hq. induction n as [|n IH]; simpl; [field; lra|]. rewrite IH. field. lra.
Qed.

Lemma exp_pow (x : R) (j : nat) : exp x ^ j = exp (INR j * x).
Proof.
  induction j as [|j IH]; [simpl; rewrite Rmult_0_l, exp_0; ring|].
  rewrite <- tech_pow_Rmult, IH, <- exp_plus, S_INR. f_equal. ring.
Qed.

(* theta_j^2 = q^j with q = c^(-2/n) = exp(-2 ln c / n). *)
Lemma frequency_square (c : R) (n j : nat) : (1 <= n)%nat ->
  rope_frequency c (2 * n) j ^ 2 = exp (- (2 * ln c / INR n)) ^ j.
Proof.
  intros Hn. unfold rope_frequency, Rpower. rewrite !exp_pow. f_equal.
  assert (0 < INR n) by (apply lt_0_INR; lia). rewrite mult_INR. simpl INR. field. lra.
Qed.

Lemma rsum_ext (n : nat) (f g : nat -> R) : (forall j, (j < n)%nat -> f j = g j) -> rsum n f = rsum n g.
Proof.
  intro H. induction n as [|n IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma frequency_square_sum (c : R) (n : nat) : 1 < c -> (1 <= n)%nat ->
  rsum n (fun j => rope_frequency c (2 * n) j ^ 2) <= 1 + INR (2 * n) / (4 * ln c).
Proof.
  intros Hc Hn. assert (Hl : 0 < ln c) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (HnR : 0 < INR n) by (apply lt_0_INR; lia).
  rewrite (rsum_ext n _ (fun j => exp (- (2 * ln c / INR n)) ^ j)) by (intros; apply frequency_square; exact Hn).
  set (x := 2 * ln c / INR n). assert (Hx : 0 < x) by (unfold x; apply Rdiv_lt_0_compat; lra).
  assert (Hq : exp (- x) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
  assert (Hq0 : 0 < exp (- x)) by apply exp_pos.
  rewrite rsum_geometric by lra.
  assert (Hqn : 0 <= exp (- x) ^ n) by (apply pow_le; lra).
  assert (E1 : 1 + x < exp x) by (apply exp_ineq1; lra).
  assert (E2 : exp x * exp (- x) = 1) by (rewrite <- exp_plus, Rplus_opp_r; apply exp_0).
  assert (Hb : (1 + x) * exp (- x) <= 1) by nra.
  assert (Ex : INR (2 * n) / (4 * ln c) = / x) by (unfold x; rewrite mult_INR; simpl INR; field; lra).
  rewrite Ex. apply Rle_trans with (/ (1 - exp (- x))).
  - unfold Rdiv. rewrite <- (Rmult_1_l (/ (1 - exp (- x)))) at 2. apply Rmult_le_compat_r; [|lra].
    left; apply Rinv_0_lt_compat; lra.
  - apply Rmult_le_reg_l with (x * (1 - exp (- x))); [apply Rmult_lt_0_compat; lra|].
    rewrite Rmult_plus_distr_l. field_simplify; [nra|lra|lra].
Qed.

(** ** The corrected Theorem 2.1 *)

(* The tight constant: |a(s) - a_linear(s)| <= max_j |h_j| (sum_j theta_j^2 / 2) (s - s1)(s2 - s); and the
   published form with the missing j = 0 term, d/(8 ln c) + 1/2 in place of d/(8 ln c). *)
Theorem pi_interpolation_corrected : forall (n : nat) (c s1 s2 s : R) (hr hi : nat -> R),
  (1 <= n)%nat -> 1 < c -> s1 < s2 -> s1 <= s <= s2 ->
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= max_modulus hr hi n * (rsum n (fun j => rope_frequency c (2 * n) j ^ 2) / 2) * (s - s1) * (s2 - s) /\
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c)
       + max_modulus hr hi n * (s - s1) * (s2 - s) / 2.
Proof.
  intros n c s1 s2 s hr hi Hn Hc H12 Hs.
  set (S2 := rsum n (fun j => rope_frequency c (2 * n) j ^ 2)).
  assert (T : Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
              <= max_modulus hr hi n * S2 / 2 * (s - s1) * (s2 - s)).
  { apply (interpolation_error _ (pi_slope hr hi c n) (pi_curvature hr hi c n)); try assumption.
    - intro t. apply pi_score_derive.
    - intro t. apply pi_slope_derive.
    - intro t. apply pi_curvature_bound. }
  assert (Hm : 0 <= max_modulus hr hi n).
  { destruct n as [|k]; [lia|]. eapply Rle_trans; [apply sqrt_pos|apply (max_modulus_above hr hi (S k) 0); lia]. }
  assert (Hl : 0 < ln c) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (P : 0 <= (s - s1) * (s2 - s)) by (apply Rmult_le_pos; lra).
  pose proof (frequency_square_sum c n Hc Hn) as B. fold S2 in B.
  split.
  - replace (max_modulus hr hi n * (S2 / 2) * (s - s1) * (s2 - s))
      with (max_modulus hr hi n * S2 / 2 * (s - s1) * (s2 - s)) by (unfold Rdiv; ring). exact T.
  - eapply Rle_trans; [exact T|].
    replace (INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c)
             + max_modulus hr hi n * (s - s1) * (s2 - s) / 2)
      with (max_modulus hr hi n * (1 + INR (2 * n) / (4 * ln c)) / 2 * ((s - s1) * (s2 - s))) by (field; lra).
    replace (max_modulus hr hi n * S2 / 2 * (s - s1) * (s2 - s))
      with (max_modulus hr hi n * S2 / 2 * ((s - s1) * (s2 - s))) by ring.
    apply Rmult_le_compat_r; [exact P|]. unfold Rdiv. apply Rmult_le_compat_r; [lra|].
    apply Rmult_le_compat_l; assumption.
Qed.
