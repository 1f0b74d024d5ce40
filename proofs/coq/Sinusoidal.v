(** * Sinusoidal.v: the SPE-* claims of proofs/_claims_sinusoidal.py.

    The sinusoidal encoding of seed 001, for d = 2h:
      PE(p)_{2i} = sin(p * w_i),  PE(p)_{2i+1} = cos(p * w_i),  0 <= i < h,
    with w_i = 10000^(-2i/d) (Defs.rope_frequency, the same spectrum RoPE uses).
    Identities are proved for an arbitrary spectrum [w] and every real
    position, which covers the source's integer positions and its spectrum;
    refutations use the source's own spectrum at an explicit point. *)

From Coq Require Import Reals Lia Lra Classical_Prop.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs.

Open Scope R_scope.

(** ** The encoding *)

Definition pe (w : nat -> R) (p : R) : vec :=
  fun j => if Nat.even j then sin (p * w (Nat.div2 j)) else cos (p * w (Nat.div2 j)).

(* The encoding of the seeds: base 10000, dimension d = 2h. *)
Definition spe (h : nat) (p : R) : vec := pe (rope_spectrum 10000 h) p.

Definition vadd (x y : vec) : vec := fun j => x j + y j.

Lemma pe_even w p i : pe w p (2 * i)%nat = sin (p * w i).
Proof. unfold pe; rewrite even_double, div2_double; reflexivity. Qed.

Lemma pe_odd w p i : pe w p (S (2 * i)) = cos (p * w i).
Proof. unfold pe; rewrite even_double_S, div2_double_S; reflexivity. Qed.

(* The first frequency is exactly 1 for every d: the refutations evaluate it. *)
Lemma spectrum_0 h : rope_spectrum 10000 h 0 = 1.
Proof.
  unfold rope_spectrum, rope_frequency; change (INR 0) with 0.
  replace (- (2 * 0) / INR (2 * h)) with 0 by (unfold Rdiv; ring).
  apply Rpower_O; lra.
Qed.

Lemma spe_even h p : spe h p 0%nat = sin p.
Proof. unfold spe; rewrite (pe_even _ _ 0), spectrum_0, Rmult_1_r; reflexivity. Qed.

Lemma sin_1_pos : 0 < sin 1.
Proof. apply sin_gt_0; [lra|]. pose proof PI2_3_2; lra. Qed.

(** ** Linear algebra the claims need beyond Defs *)

Lemma dot_ext d x x' y y' :
  (forall j, (j < d)%nat -> x j = x' j /\ y j = y' j) -> dot d x y = dot d x' y'.
Proof.
  intros H; unfold dot; apply sum_ext; intros j Hj.
  destruct (H j Hj) as [-> ->]; reflexivity.
Qed.

Lemma dot_basis_l d k v : (k < d)%nat -> dot d (basis k) v = v k.
Proof.
  intros Hk; unfold dot.
  rewrite (sum_single d k); [unfold basis; rewrite Nat.eqb_refl; ring|exact Hk|].
  intros j _ Hjk; unfold basis; apply Nat.eqb_neq in Hjk; rewrite Hjk; ring.
Qed.

Lemma mat_vec_add d A x y j : mat_vec d A (vadd x y) j = mat_vec d A x j + mat_vec d A y j.
Proof. unfold mat_vec, vadd; rewrite <- sum_plus; apply sum_ext; intros; ring. Qed.

(* Associativity of matrix products, entrywise: how W_Q^T W_K enters a score. *)
Lemma mat_vec_mat_mul d A B x j :
  mat_vec d A (mat_vec d B x) j = mat_vec d (mat_mul d A B) x j.
Proof.
  unfold mat_vec, mat_mul.
  rewrite (sum_ext d _ (fun k => sum d (fun l => A j k * B k l * x l)))
    by (intros; rewrite <- sum_scal_l; apply sum_ext; intros; ring).
  rewrite sum_swap; apply sum_ext; intros; rewrite <- sum_scal_r; reflexivity.
Qed.

Definition identity : mat := fun i j => basis j i.

Lemma mat_vec_identity d x j : (j < d)%nat -> mat_vec d identity x j = x j.
Proof.
  intros Hj; unfold mat_vec, identity.
  rewrite (sum_single d j); [unfold basis; rewrite Nat.eqb_refl; ring|exact Hj|].
  intros k _ Hkj; unfold basis; apply not_eq_sym, Nat.eqb_neq in Hkj; rewrite Hkj; ring.
Qed.

(* The block-diagonal matrix of RoFormer Eq. (15) acts as the RoPE map: lets the
   shift theorems speak of a d x d matrix, as seed 001 does. *)
Lemma mat_vec_rope_matrix theta h m x j :
  (j < 2 * h)%nat -> mat_vec (2 * h) (rope_matrix theta h m) x j = rope theta h m x j.
Proof.
  intros Hj; unfold mat_vec, rope_matrix.
  assert (Hi : (Nat.div2 j < h)%nat) by (destruct (index_pair j) as [E|E]; lia).
  assert (Hcol : forall k, rope theta h m (basis k) j * x k
            = (basis k (2 * Nat.div2 j)%nat * x k) * (if Nat.even j then cos (m * theta (Nat.div2 j)) else sin (m * theta (Nat.div2 j)))
            + (basis k (S (2 * Nat.div2 j)) * x k) * (if Nat.even j then - sin (m * theta (Nat.div2 j)) else cos (m * theta (Nat.div2 j)))).
  { intros k; unfold rope; apply Nat.ltb_lt in Hi; rewrite Hi.
    destruct (Nat.even j); simpl; ring. }
  rewrite (sum_ext _ _ _ (fun k _ => Hcol k)), sum_plus, sum_scal_r, sum_scal_r.
  assert (Hb : forall k, (k < 2 * h)%nat -> sum (2 * h) (fun l => basis l k * x l) = x k).
  { intros k Hk; rewrite <- (dot_basis_l (2 * h) k x Hk); unfold dot, basis.
    apply sum_ext; intros l _; rewrite Nat.eqb_sym; reflexivity. }
  rewrite !Hb by lia.
  unfold rope; apply Nat.ltb_lt in Hi; rewrite Hi.
  destruct (Nat.even j); simpl; ring.
Qed.

(** ** SPE-DOT-RELATIVE *)

(* One (sin, cos) pair of two encodings: the trigonometric step of the claim. *)
Lemma pair_score a b : sin a * sin b + cos a * cos b = cos (a - b).
Proof. rewrite cos_minus; ring. Qed.

Theorem spe_dot_relative : forall (h : nat) (w : nat -> R) (p q : R),
  dot (2 * h) (pe w p) (pe w q) = sum h (fun i => cos (w i * (p - q))).
Proof.
  intros h w p q; rewrite dot_pairs; apply sum_ext; intros i _.
  rewrite !pe_even, !pe_odd, pair_score; f_equal; ring.
Qed.

Example spe_dot_relative_instance_d8 : forall p q,
  dot 8 (spe 4 p) (spe 4 q) = sum 4 (fun i => cos (rope_spectrum 10000 4 i * (p - q))).
Proof. intros p q; exact (spe_dot_relative 4 (rope_spectrum 10000 4) p q). Qed.

(** ** SPE-SHIFT-ROTATION (001) and SPE-SHIFT-LINEAR-004 *)

(* 001's matrix [[cos, sin], [-sin, cos]] is the counter-clockwise rotation by
   -w*D (Defs.rot), which is why the shift is a RoPE map at position -D. *)
Theorem spe_shift_rotation : forall (h : nat) (w : nat -> R) (p D : R),
  (forall i, (i < h)%nat ->
     pe w (p + D) (2 * i)%nat = cos (w i * D) * pe w p (2 * i)%nat + sin (w i * D) * pe w p (S (2 * i)) /\
     pe w (p + D) (S (2 * i)) = - sin (w i * D) * pe w p (2 * i)%nat + cos (w i * D) * pe w p (S (2 * i)))
  /\ (forall j, (j < 2 * h)%nat -> pe w (p + D) j = mat_vec (2 * h) (rope_matrix w h (- D)) (pe w p) j).
Proof.
  intros h w p D.
  assert (Hpair : forall i,
     pe w (p + D) (2 * i)%nat = cos (w i * D) * pe w p (2 * i)%nat + sin (w i * D) * pe w p (S (2 * i)) /\
     pe w (p + D) (S (2 * i)) = - sin (w i * D) * pe w p (2 * i)%nat + cos (w i * D) * pe w p (S (2 * i))).
  { intros i; rewrite !pe_even, !pe_odd.
    replace ((p + D) * w i) with (p * w i + w i * D) by ring.
    rewrite sin_plus, cos_plus; split; ring. }
  split; [intros i _; apply Hpair|].
  intros j Hj; rewrite mat_vec_rope_matrix by exact Hj.
  assert (Hi : (Nat.div2 j < h)%nat) by (destruct (index_pair j) as [E|E]; lia).
  destruct (index_pair j) as [E|E]; rewrite E.
  - rewrite rope_even by exact Hi; unfold rot; cbn [fst snd].
    replace (- D * w (Nat.div2 j)) with (- (w (Nat.div2 j) * D)) by ring.
    rewrite (proj1 (Hpair _)), cos_neg, sin_neg; ring.
  - rewrite rope_odd by exact Hi; unfold rot; cbn [fst snd].
    replace (- D * w (Nat.div2 j)) with (- (w (Nat.div2 j) * D)) by ring.
    rewrite (proj2 (Hpair _)), cos_neg, sin_neg; ring.
Qed.

Example spe_shift_rotation_instance_d8 : forall (p D : R) (j : nat), (j < 8)%nat ->
  spe 4 (p + D) j = mat_vec 8 (rope_matrix (rope_spectrum 10000 4) 4 (- D)) (spe 4 p) j.
Proof. intros p D; exact (proj2 (spe_shift_rotation 4 (rope_spectrum 10000 4) p D)). Qed.

Theorem spe_shift_linear_004 : forall (h : nat) (k : R),
  exists M : mat, forall (p : R) (j : nat), (j < 2 * h)%nat -> spe h (p + k) j = mat_vec (2 * h) M (spe h p) j.
Proof.
  intros h k; exists (rope_matrix (rope_spectrum 10000 h) h (- k)).
  intros p j Hj; exact (proj2 (spe_shift_rotation h _ p k) j Hj).
Qed.

Example spe_shift_linear_004_instance_d8 : forall k : R,
  exists M : mat, forall (p : R) (j : nat), (j < 8)%nat -> spe 4 (p + k) j = mat_vec 8 M (spe 4 p) j.
Proof. intros k; exact (spe_shift_linear_004 4 k). Qed.

(** ** SPE-SHIFT-ROTATION-004: (sin, cos) pairs shifted by the counter-clockwise R(k theta) *)

Theorem spe_shift_rotation_004_negation : ~ (forall (h p k i : nat), (i < h)%nat ->
  (spe h (INR (p + k)) (2 * i)%nat, spe h (INR (p + k)) (S (2 * i)))
  = rot (INR k * rope_spectrum 10000 h i) (spe h (INR p) (2 * i)%nat, spe h (INR p) (S (2 * i)))).
Proof.
  intros Hclaim; specialize (Hclaim 1%nat 0%nat 1%nat 0%nat ltac:(lia)).
  apply (f_equal fst) in Hclaim; unfold rot, spe in Hclaim; simpl in Hclaim.
  rewrite (pe_even _ _ 0), (pe_even _ _ 0), (pe_odd _ _ 0), spectrum_0 in Hclaim.
  rewrite Rmult_0_l, sin_0, cos_0, !Rmult_1_l in Hclaim.
  pose proof sin_1_pos; lra.
Qed.

(* R(k w)^T = R(-k w) (Defs.rot is counter-clockwise): the transpose serves
   004's (sin, cos) order, R(k w) itself serves the (cos, sin) order. *)
Theorem spe_shift_rotation_004_correction : forall (w : nat -> R) (p k : R) (i : nat),
  (pe w (p + k) (2 * i)%nat, pe w (p + k) (S (2 * i)))
    = rot (- (k * w i)) (pe w p (2 * i)%nat, pe w p (S (2 * i)))
  /\ (cos ((p + k) * w i), sin ((p + k) * w i)) = rot (k * w i) (cos (p * w i), sin (p * w i)).
Proof.
  intros w p k i; unfold rot; cbn [fst snd]; rewrite !pe_even, !pe_odd, cos_neg, sin_neg.
  replace ((p + k) * w i) with (p * w i + k * w i) by ring.
  rewrite sin_plus, cos_plus; split; f_equal; ring.
Qed.

(** ** SPE-FREQUENCY-004: 004 prints w_i = 10000^(2i/d) *)

Lemma rpower_10000_half : Rpower 10000 (/ 2) = 100.
Proof.
  rewrite Rpower_sqrt by lra.
  replace 10000 with (100 * 100) by ring; apply sqrt_square; lra.
Qed.

(* Counterexample inside the domain 0 <= i < d/2: d = 4, i = 1, p = 1. *)
Theorem spe_frequency_004_negation : ~ (forall (h i p : nat), (i < h)%nat ->
  sin (INR p * Rpower 10000 (2 * INR i / INR (2 * h)))
  = sin (INR p / Rpower 10000 (2 * INR i / INR (2 * h)))).
Proof.
  intros Hclaim; specialize (Hclaim 2%nat 1%nat 1%nat ltac:(lia)).
  replace (2 * INR 1 / INR (2 * 2)) with (/ 2) in Hclaim by (simpl; field).
  rewrite rpower_10000_half in Hclaim; simpl INR in Hclaim.
  assert (sin (1 * 100) < 0) by interval.
  assert (0 < sin (1 / 100)) by interval.
  lra.
Qed.

Theorem spe_frequency_004_correction : forall (d i : nat) (p : R),
  sin (p * rope_frequency 10000 d i) = sin (p / Rpower 10000 (2 * INR i / INR d)).
Proof.
  intros d i p; unfold rope_frequency; rewrite Ropp_div, Rpower_Ropp; reflexivity.
Qed.

(** ** SPE-WAVELENGTH-RANGE *)

Definition wavelength (d i : nat) : R := 2 * PI / rope_frequency 10000 d i.

Lemma wavelength_closed d i : wavelength d i = 2 * PI * Rpower 10000 (2 * INR i / INR d).
Proof.
  unfold wavelength, rope_frequency; rewrite Ropp_div, Rpower_Ropp.
  assert (0 < Rpower 10000 (2 * INR i / INR d)) by (unfold Rpower; apply exp_pos).
  field; lra.
Qed.

(* Strong reading: the longest wavelength of every even d is 10000 * 2pi. *)
Theorem spe_wavelength_range_negation : ~ (forall h : nat, (1 <= h)%nat ->
  wavelength (2 * h) 0 = 2 * PI /\ wavelength (2 * h) (h - 1) = 10000 * (2 * PI)).
Proof.
  intros Hclaim; destruct (Hclaim 2%nat ltac:(lia)) as [_ Hlong].
  rewrite wavelength_closed in Hlong.
  replace (2 * INR (2 - 1) / INR (2 * 2)) with (/ 2) in Hlong by (simpl; field).
  rewrite rpower_10000_half in Hlong; pose proof PI_RGT_0; lra.
Qed.

Lemma inr_double h : INR (2 * h) = 2 * INR h.
Proof. rewrite mult_INR; reflexivity. Qed.

Theorem spe_wavelength_range_correction : forall h : nat, (1 <= h)%nat ->
  wavelength (2 * h) 0 = 2 * PI
  /\ (forall i, wavelength (2 * h) (S i) = wavelength (2 * h) i * Rpower 10000 (2 / INR (2 * h)))
  /\ wavelength (2 * h) (h - 1) = 2 * PI * Rpower 10000 (1 - 2 / INR (2 * h)).
Proof.
  intros h Hh; assert (0 < INR h) by (apply lt_0_INR; lia).
  repeat split.
  - rewrite wavelength_closed; change (INR 0) with 0.
    replace (2 * 0 / INR (2 * h)) with 0 by (unfold Rdiv; ring).
    rewrite Rpower_O; lra.
  - intros i; rewrite !wavelength_closed.
    replace (2 * INR (S i) / INR (2 * h)) with (2 * INR i / INR (2 * h) + 2 / INR (2 * h))
      by (rewrite S_INR, inr_double; field; lra).
    rewrite Rpower_plus; ring.
  - rewrite wavelength_closed, minus_INR by lia; simpl (INR 1).
    f_equal; f_equal; rewrite inr_double; field; lra.
Qed.

(* Literal reading: every wavelength lies between 2pi and 10000 * 2pi. *)
Theorem spe_wavelength_range_literal : forall h i : nat, (i < h)%nat ->
  2 * PI <= wavelength (2 * h) i < 10000 * (2 * PI).
Proof.
  intros h i Hi; rewrite wavelength_closed, inr_double.
  assert (0 < INR h) by (apply lt_0_INR; lia).
  assert (INR i < INR h) by (apply lt_INR; exact Hi).
  assert (0 <= INR i) by apply pos_INR.
  assert (Hy : 0 <= 2 * INR i / (2 * INR h) < 1).
  { split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|].
    apply (Rmult_lt_reg_r (2 * INR h)); [lra|]; unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l by lra; lra. }
  pose proof PI_RGT_0.
  assert (1 <= Rpower 10000 (2 * INR i / (2 * INR h))).
  { rewrite <- (Rpower_O 10000) by lra; apply Rle_Rpower; lra. }
  assert (Rpower 10000 (2 * INR i / (2 * INR h)) < 10000).
  { rewrite <- (Rpower_1 10000) at 2 by lra; apply Rpower_lt; lra. }
  split; nra.
Qed.

(** ** SPE-ADDITIVE-EXPANSION-003 and SPE-QK-EXPANSION *)

Theorem spe_additive_expansion_003 : forall (d : nat) (q k pm pn : vec),
  dot d (vadd q pm) (vadd k pn) = dot d q k + dot d q pn + dot d pm k + dot d pm pn.
Proof. intros; unfold dot, vadd; rewrite <- !sum_plus; apply sum_ext; intros; ring. Qed.

Theorem spe_qk_expansion_correction : forall (d : nat) (WQ WK : mat) (xp xq u v : vec),
  dot d (mat_vec d WQ (vadd xp u)) (mat_vec d WK (vadd xq v))
  = dot d (mat_vec d WQ xp) (mat_vec d WK xq) + dot d (mat_vec d WQ xp) (mat_vec d WK v)
    + dot d (mat_vec d WQ u) (mat_vec d WK xq) + dot d (mat_vec d WQ u) (mat_vec d WK v).
Proof.
  intros; rewrite <- spe_additive_expansion_003.
  apply dot_ext; intros; split; rewrite mat_vec_add; reflexivity.
Qed.

Lemma sum_const_1 n : sum n (fun _ => 1) = INR n.
Proof. induction n as [|n IH]; [apply sum_0|rewrite sum_S, IH, S_INR; reflexivity]. Qed.

(* |PE(p)|^2 = d/2 at every position: the score of a position with itself. *)
Lemma dot_spe_self h p : dot (2 * h) (spe h p) (spe h p) = INR h.
Proof.
  unfold spe; rewrite spe_dot_relative, <- sum_const_1; apply sum_ext; intros.
  replace (p - p) with 0 by ring; rewrite Rmult_0_r; apply cos_0.
Qed.

Lemma dot_zero_l d y : dot d (fun _ => 0) y = 0.
Proof. unfold dot; rewrite (sum_ext d _ (fun _ => 0)) by (intros; ring); apply sum_const_0. Qed.

Lemma dot_zero_r d x : dot d x (fun _ => 0) = 0.
Proof. rewrite dot_comm; apply dot_zero_l. Qed.

Lemma dot_identity d x y : dot d (mat_vec d identity x) (mat_vec d identity y) = dot d x y.
Proof. apply dot_ext; intros; rewrite !mat_vec_identity by assumption; split; reflexivity. Qed.

(* 001 writes the four terms joined by '.', read as products. *)
Theorem spe_qk_expansion_negation : ~ (forall (h : nat) (WQ WK : mat) (xp xq : vec) (p q : R),
  dot (2 * h) (mat_vec (2 * h) WQ (vadd xp (spe h p))) (mat_vec (2 * h) WK (vadd xq (spe h q)))
  = dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK xq)
    * dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK (spe h q))
    * dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK xq)
    * dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q))).
Proof.
  intros Hclaim; specialize (Hclaim 1%nat identity identity (fun _ => 0) (fun _ => 0) 0 0).
  rewrite spe_qk_expansion_correction, !dot_identity, !dot_zero_l, dot_zero_r, dot_spe_self in Hclaim.
  change (INR 1) with 1 in Hclaim; lra.
Qed.

(** ** SPE-TOKEN-SUM-BREAKS *)

(* Two copies of the token e_0 at the same position p: the score moves with p. *)
Lemma token_score_same_position h p : (1 <= h)%nat ->
  dot (2 * h) (vadd (basis 0) (spe h p)) (vadd (basis 0) (spe h p)) = 1 + 2 * sin p + INR h.
Proof.
  intros Hh; rewrite spe_additive_expansion_003, dot_spe_self.
  rewrite (dot_comm _ (spe h p)), !dot_basis_l, spe_even by lia.
  unfold basis; rewrite Nat.eqb_refl; ring.
Qed.

Theorem spe_token_sum_breaks : forall h : nat, (1 <= h)%nat ->
  exists (xa xb : vec) (p q p' q' : nat),
    INR p - INR q = INR p' - INR q' /\
    dot (2 * h) (vadd xa (spe h (INR p))) (vadd xb (spe h (INR q)))
    <> dot (2 * h) (vadd xa (spe h (INR p'))) (vadd xb (spe h (INR q'))).
Proof.
  intros h Hh; exists (basis 0), (basis 0), 0%nat, 0%nat, 1%nat, 1%nat; split; [ring|].
  rewrite !token_score_same_position by exact Hh.
  change (INR 0) with 0; change (INR 1) with 1; rewrite sin_0.
  pose proof sin_1_pos; lra.
Qed.

(** ** SPE-LAST-TERM-RELATIVE *)

Definition e00 : mat := fun r c => basis 0 r * basis 0 c.

Lemma mat_vec_e00 d x j : (1 <= d)%nat -> mat_vec d e00 x j = basis 0 j * x 0%nat.
Proof.
  intros Hd; unfold mat_vec, e00.
  rewrite (sum_ext d _ (fun k => basis 0 j * (basis 0 k * x k))) by (intros; ring).
  rewrite sum_scal_l; f_equal; exact (dot_basis_l d 0 x ltac:(lia)).
Qed.

(* 001: "other than the last term depends on absolute positions", read as: the
   last term is shift-invariant for every pair of learned projections. *)
Theorem spe_last_term_relative_negation : ~ (forall (h : nat) (WQ WK : mat) (p q D : R),
  dot (2 * h) (mat_vec (2 * h) WQ (spe h (p + D))) (mat_vec (2 * h) WK (spe h (q + D)))
  = dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q))).
Proof.
  intros Hclaim; specialize (Hclaim 1%nat e00 identity 0 0 1).
  assert (Hscore : forall x y : vec, dot 2 (mat_vec 2 e00 x) (mat_vec 2 identity y) = x 0%nat * y 0%nat).
  { intros x y.
    rewrite (dot_ext 2 _ (fun j => x 0%nat * basis 0 j) _ y)
      by (intros j Hj; rewrite mat_vec_e00, mat_vec_identity by lia; split; ring).
    unfold dot; rewrite (sum_ext _ _ (fun j => x 0%nat * (basis 0 j * y j))) by (intros; ring).
    rewrite sum_scal_l; f_equal; exact (dot_basis_l 2 0 y ltac:(lia)). }
  change (2 * 1)%nat with 2%nat in Hclaim.
  rewrite !Hscore, !spe_even, !Rplus_0_l, sin_0 in Hclaim.
  pose proof sin_1_pos; nra.
Qed.

(* W_Q^T W_K built from scaled rotations [[a_i, -b_i], [b_i, a_i]], one per
   frequency and no coupling across frequencies: these commute with every shift
   of the encoding, which is what makes the last term relative. *)
Definition scaled_rotation_blocks (a b : nat -> R) : mat := fun r c =>
  if Nat.eqb (Nat.div2 r) (Nat.div2 c) then
    (if Nat.eqb r c then a (Nat.div2 r) else if Nat.even r then - b (Nat.div2 r) else b (Nat.div2 r))
  else 0.

Lemma blocks_row_even h a b v i : (i < h)%nat ->
  mat_vec (2 * h) (scaled_rotation_blocks a b) v (2 * i)%nat = a i * v (2 * i)%nat - b i * v (S (2 * i)).
Proof.
  intros Hi; unfold mat_vec; rewrite sum_pairs, (sum_single h i); [| exact Hi |].
  - unfold scaled_rotation_blocks; rewrite !div2_double, !div2_double_S, !Nat.eqb_refl, even_double.
    replace (Nat.eqb (2 * i) (S (2 * i))) with false by (symmetry; apply Nat.eqb_neq; lia); ring.
  - intros l _ Hli; unfold scaled_rotation_blocks; rewrite !div2_double, !div2_double_S.
    replace (Nat.eqb i l) with false by (symmetry; apply Nat.eqb_neq; lia); ring.
Qed.

Lemma blocks_row_odd h a b v i : (i < h)%nat ->
  mat_vec (2 * h) (scaled_rotation_blocks a b) v (S (2 * i)) = b i * v (2 * i)%nat + a i * v (S (2 * i)).
Proof.
  intros Hi; unfold mat_vec; rewrite sum_pairs, (sum_single h i); [| exact Hi |].
  - unfold scaled_rotation_blocks; rewrite !div2_double, !div2_double_S, !Nat.eqb_refl, even_double_S.
    replace (Nat.eqb (S (2 * i)) (2 * i)) with false by (symmetry; apply Nat.eqb_neq; lia); ring.
  - intros l _ Hli; unfold scaled_rotation_blocks; rewrite !div2_double, !div2_double_S.
    replace (Nat.eqb i l) with false by (symmetry; apply Nat.eqb_neq; lia); ring.
Qed.

Lemma blocks_score h w a b p q :
  dot (2 * h) (pe w p) (mat_vec (2 * h) (scaled_rotation_blocks a b) (pe w q))
  = sum h (fun i => a i * cos (w i * (p - q)) - b i * sin (w i * (p - q))).
Proof.
  rewrite dot_pairs; apply sum_ext; intros i Hi.
  rewrite blocks_row_even, blocks_row_odd by exact Hi; rewrite !pe_even, !pe_odd.
  replace (w i * (p - q)) with (p * w i - q * w i) by ring.
  rewrite cos_minus, sin_minus; ring.
Qed.

Theorem spe_last_term_relative_correction : forall (h : nat) (w a b : nat -> R) (WQ WK : mat),
  (forall r c, (r < 2 * h)%nat -> (c < 2 * h)%nat ->
     mat_mul (2 * h) (transpose WQ) WK r c = scaled_rotation_blocks a b r c) ->
  forall p q D : R,
  dot (2 * h) (mat_vec (2 * h) WQ (pe w (p + D))) (mat_vec (2 * h) WK (pe w (q + D)))
  = dot (2 * h) (mat_vec (2 * h) WQ (pe w p)) (mat_vec (2 * h) WK (pe w q)).
Proof.
  intros h w a b WQ WK HM p q D.
  assert (Hform : forall x y, dot (2 * h) (mat_vec (2 * h) WQ (pe w x)) (mat_vec (2 * h) WK (pe w y))
            = sum h (fun i => a i * cos (w i * (x - y)) - b i * sin (w i * (x - y)))).
  { intros x y; rewrite dot_mat_vec_transpose, <- blocks_score.
    apply dot_ext; intros j Hj; split; [reflexivity|].
    rewrite mat_vec_mat_mul; unfold mat_vec; apply sum_ext; intros k Hk.
    rewrite HM by assumption; reflexivity. }
  rewrite !Hform; apply sum_ext; intros.
  replace (p + D - (q + D)) with (p - q) by ring; reflexivity.
Qed.

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

(* The running mean of the score over the distances 0 .. N-1 from position p. *)
Definition mean_score (h : nat) (w : nat -> R) (p : R) (N : nat) : R :=
  sum N (fun D => dot (2 * h) (pe w p) (pe w (p + INR D))) / INR N.

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

(* Read as: the running mean over the distances 0 .. N-1 of the score
   <PE(p), PE(p + D)> tends to 0 as N grows, for every even d and every p. *)
Theorem spe_dot_averages_out : forall (h : nat) (p : R),
  Un_cv (mean_score h (rope_spectrum 10000 h) p) 0.
Proof.
  intros h p eps Heps.
  set (B := sum h (fun i => / Rabs (sin (rope_spectrum 10000 h i / 2)))).
  assert (HB : 0 <= B).
  { rewrite <- (sum_const_0 h); apply sum_le; intros i Hi.
    pose proof (spectrum_sin_half_pos h i Hi).
    left; apply Rinv_0_lt_compat, Rabs_pos_lt; lra. }
  destruct (archimed_cor1 (eps / (B + 1))) as [N [HN HN0]].
  { apply Rdiv_lt_0_compat; lra. }
  exists N; intros n Hn; unfold R_dist; rewrite Rminus_0_r.
  eapply Rle_lt_trans.
  { apply mean_score_bound; [|lia].
    intros i Hi; pose proof (spectrum_sin_half_pos h i Hi); lra. }
  fold B; assert (0 < INR N) by (apply lt_0_INR; lia).
  assert (/ INR n <= / INR N) by (apply Rinv_le_contravar; [lra|apply le_INR; lia]).
  assert (0 < / INR n) by (apply Rinv_0_lt_compat, lt_0_INR; lia).
  unfold Rdiv; apply Rle_lt_trans with ((B + 1) * / INR N).
  - apply Rmult_le_compat; lra.
  - replace eps with ((B + 1) * (eps / (B + 1))) by (field; lra).
    apply Rmult_lt_compat_l; lra.
Qed.

(** ** SPE-DOT-NONMONOTONE *)

(* The score <PE(p), PE(p + D)> of the seeds' encoding as a function of the distance D alone. *)
Definition distance_score (h D : nat) : R := sum h (fun i => cos (rope_spectrum 10000 h i * INR D)).

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

(* Dirichlet's bound read as a lower bound; the constant is 0 for w = 0, where
   the sum is N. *)
Definition dirichlet_constant (w : R) : R := / Rabs (sin (w / 2)).

Lemma cos_product_sum w v N :
  sum N (fun D => cos (w * INR D) * cos (v * INR D))
  = / 2 * sum N (fun D => cos ((w - v) * INR D)) + / 2 * sum N (fun D => cos ((w + v) * INR D)).
Proof.
  rewrite <- !sum_scal_l, <- sum_plus; apply sum_ext; intros D _.
  replace ((w - v) * INR D) with (w * INR D - v * INR D) by ring.
  replace ((w + v) * INR D) with (w * INR D + v * INR D) by ring.
  rewrite cos_minus, cos_plus; field.
Qed.

(* Per pair (i, j) of frequencies: a lower bound on sum_D cos(w_i D) cos(w_j D)
   that grows like N/2 on the diagonal and stays bounded off it. *)
Definition pair_constant (h i j : nat) : R :=
  let wi := rope_spectrum 10000 h i in let wj := rope_spectrum 10000 h j in
  (if Nat.eqb i j then 0 else dirichlet_constant (wi - wj) / 2) + dirichlet_constant (wi + wj) / 2.

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

(* A structurally recursive copy of [sum]: [cbv] unrolls it into the explicit
   terms that [interval] evaluates, which the bigop [sum] does not allow. *)
Fixpoint sum_unrolled (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S m => sum_unrolled m f + f m end.

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

(** ** SPE-LINEAR-ATTENTION-INCOMPATIBLE *)

(* Linear attention with a feature map phi : R^d -> R^m, query q, keys k_j and
   values v_j (j < n): coordinate c of the numerator and the normaliser, each in
   its quadratic form and in the factored form that makes it linear-time. *)
Definition linear_numerator_quadratic (m n : nat) (phi : vec -> vec) (q : vec) (k v : nat -> vec) : vec :=
  fun c => sum n (fun j => dot m (phi q) (phi (k j)) * v j c).

Definition linear_numerator_factored (m n : nat) (phi : vec -> vec) (q : vec) (k v : nat -> vec) : vec :=
  fun c => dot m (phi q) (fun a => sum n (fun j => phi (k j) a * v j c)).

Definition linear_normaliser_quadratic (m n : nat) (phi : vec -> vec) (q : vec) (k : nat -> vec) : R :=
  sum n (fun j => dot m (phi q) (phi (k j))).

Definition linear_normaliser_factored (m n : nat) (phi : vec -> vec) (q : vec) (k : nat -> vec) : R :=
  dot m (phi q) (fun a => sum n (fun j => phi (k j) a)).

(* The "old method" of seed 002: a position vector added to each token before
   the projection W (sinusoidal or learned: pos is arbitrary). *)
Definition additive_input (d : nat) (W : mat) (x pos : nat -> vec) (j : nat) : vec :=
  mat_vec d W (vadd (x j) (pos j)).

Lemma linear_numerator_factors m n phi q k v c :
  linear_numerator_quadratic m n phi q k v c = linear_numerator_factored m n phi q k v c.
Proof.
  unfold linear_numerator_quadratic, linear_numerator_factored, dot.
  rewrite (sum_ext n _ (fun j => sum m (fun a => phi q a * phi (k j) a * v j c)))
    by (intros; rewrite <- sum_scal_r; reflexivity).
  rewrite sum_swap; apply sum_ext; intros a _.
  rewrite <- sum_scal_l; apply sum_ext; intros; ring.
Qed.

Lemma linear_normaliser_factors m n phi q k :
  linear_normaliser_quadratic m n phi q k = linear_normaliser_factored m n phi q k.
Proof.
  unfold linear_normaliser_quadratic, linear_normaliser_factored, dot.
  rewrite sum_swap; apply sum_ext; intros a _.
  rewrite <- sum_scal_l; reflexivity.
Qed.

Theorem spe_linear_attention_incompatible_correction :
  forall (d m n t : nat) (phi : vec -> vec) (WQ WK WV : mat) (x pos : nat -> vec) (c : nat),
  linear_numerator_quadratic m n phi (additive_input d WQ x pos t)
      (additive_input d WK x pos) (additive_input d WV x pos) c
    = linear_numerator_factored m n phi (additive_input d WQ x pos t)
      (additive_input d WK x pos) (additive_input d WV x pos) c
  /\ linear_normaliser_quadratic m n phi (additive_input d WQ x pos t) (additive_input d WK x pos)
    = linear_normaliser_factored m n phi (additive_input d WQ x pos t) (additive_input d WK x pos).
Proof.
  intros; split; [apply linear_numerator_factors|apply linear_normaliser_factors].
Qed.

(* Read as: some additively position-encoded input makes the factored
   (linear-time) evaluation differ from linear attention's definition. *)
Theorem spe_linear_attention_incompatible_negation : ~ (exists (d m n t : nat) (phi : vec -> vec)
  (WQ WK WV : mat) (x pos : nat -> vec) (c : nat),
  linear_numerator_quadratic m n phi (additive_input d WQ x pos t)
      (additive_input d WK x pos) (additive_input d WV x pos) c
    <> linear_numerator_factored m n phi (additive_input d WQ x pos t)
      (additive_input d WK x pos) (additive_input d WV x pos) c
  \/ linear_normaliser_quadratic m n phi (additive_input d WQ x pos t) (additive_input d WK x pos)
    <> linear_normaliser_factored m n phi (additive_input d WQ x pos t) (additive_input d WK x pos)).
Proof.
  intros [d [m [n [t [phi [WQ [WK [WV [x [pos [c Hdiff]]]]]]]]]]].
  destruct (spe_linear_attention_incompatible_correction d m n t phi WQ WK WV x pos c) as [E1 E2].
  destruct Hdiff as [H|H]; contradiction.
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
(* UNKNOWN SPE-UNIQUE-POSITION: distinct vectors at all integer positions
   (every even d, p <> q in N) is not decided.  PE(p) = PE(q) forces
   cos(p - q) = 1 on the first pair (w_0 = 1), i.e. p - q a multiple of 2 pi;
   ruling that out for every nonzero integer p - q is the irrationality of pi,
   which Coq's standard library does not provide.  Proved above: every two real
   positions closer than 2 pi, and the integer positions 0 .. 43. *)
