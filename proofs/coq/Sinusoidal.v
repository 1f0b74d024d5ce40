(** * Sinusoidal.v: the SPE-* claims of proofs/claims/_claims_sinusoidal.py.

    The sinusoidal encoding of seed 001, for d = 2h:
      PE(p)_{2i} = sin(p * w_i),  PE(p)_{2i+1} = cos(p * w_i),  0 <= i < h,
    with w_i = 10000^(-2i/d) (Defs.rope_frequency, the same spectrum RoPE uses).
    Identities are proved for an arbitrary spectrum [w] and every real
    position, which covers the source's integer positions and its spectrum;
    refutations use the source's own spectrum at an explicit point.  The
    distance behaviour of the score (SPE-DOT-AVERAGES-OUT, SPE-DOT-NONMONOTONE)
    and the SPE-UNIQUE-POSITION evidence are in SinusoidalDecay.v. *)

From Coq Require Import Reals Lia Lra Classical_Prop.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs.

Open Scope R_scope.
From Ropecheck Require Import DefsSinusoidal.

(** ** The encoding *)

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

(* The literal reading, kept as a note: "omega_i = 10000^{2i/d}" as the angular
   frequency of PE_{p,2i} = sin(omega_i p).  Counterexample inside the domain
   0 <= i < d/2: d = 4, i = 1, p = 1. *)
Theorem spe_frequency_004_literal_negation : ~ (forall (h i p : nat), (i < h)%nat ->
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

(* SPE-FREQUENCY-004, the formula the author means: the same post writes
   PE_{p,2i} = sin(p / 10000^{2i/d}), so 10000^{2i/d} is the term the position
   is divided by, and the frequency of pair i is its reciprocal
   omega_i = 1 / 10000^{2i/d} = 10000^{-2i/d}, for every even d, 0 <= i < d/2
   and every real position. *)
Theorem spe_frequency_004 : forall h i : nat, (i < h)%nat ->
  rope_frequency 10000 (2 * h) i = / Rpower 10000 (2 * INR i / INR (2 * h))
  /\ (forall p : R,
      sin (p * rope_frequency 10000 (2 * h) i) = sin (p / Rpower 10000 (2 * INR i / INR (2 * h)))).
Proof.
  intros h i _; split.
  - unfold rope_frequency; rewrite Ropp_div, Rpower_Ropp; reflexivity.
  - intros; apply spe_frequency_004_correction.
Qed.

(** ** SPE-WAVELENGTH-RANGE *)

Lemma wavelength_closed d i : wavelength d i = 2 * PI * Rpower 10000 (2 * INR i / INR d).
Proof.
  unfold wavelength, rope_frequency; rewrite Ropp_div, Rpower_Ropp.
  assert (0 < Rpower 10000 (2 * INR i / INR d)) by (unfold Rpower; apply exp_pos).
  field; lra.
Qed.

(* The endpoint reading ("from 2pi up to 10000 * 2pi" with both ends attained):
   the longest wavelength of every even d is 10000 * 2pi -- refuted. *)
Theorem spe_wavelength_range_literal_negation : ~ (forall h : nat, (1 <= h)%nat ->
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

(* Every wavelength lies between 2pi and 10000 * 2pi. *)
Lemma wavelengths_in_range : forall h i : nat, (i < h)%nat ->
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

(* SPE-WAVELENGTH-RANGE, as a referee reads "the wavelengths form a geometric
   progression from 2pi up to 10000 * 2pi": for every even d the progression
   starts at 2pi, has ratio 10000^(2/d), and stays below 10000 * 2pi (the
   bound is approached as d grows, never reached). *)
Theorem spe_wavelength_range : forall h : nat, (1 <= h)%nat ->
  wavelength (2 * h) 0 = 2 * PI
  /\ (forall i, wavelength (2 * h) (S i) = wavelength (2 * h) i * Rpower 10000 (2 / INR (2 * h)))
  /\ (forall i, (i < h)%nat -> 2 * PI <= wavelength (2 * h) i < 10000 * (2 * PI)).
Proof.
  intros h Hh; destruct (spe_wavelength_range_correction h Hh) as [H0 [Hs _]].
  split; [exact H0|split; [exact Hs|]].
  intros i Hi; exact (wavelengths_in_range h i Hi).
Qed.


(** ** SPE-SLOWEST-WAVE-004 *)

(* "And the 10,000? Arbitrary. It just keeps the slowest waves slow enough for
   typical sequence lengths."  Read as: the slowest pair (i = d/2 - 1) does
   not complete one turn over a typical sequence -- its wavelength
   2 pi 10000^(1 - 2/d) exceeds every length L <= 8192 -- for every even
   d >= 16.  The exponent -(1 - 1/h) is at most -7/8 there, and
   8192 * 10000^(-7/8) ~ 2.59 < 2 pi.  (At d = 8 the slowest wavelength is
   2000 pi ~ 6283 < 8192: the claim is not made there.) *)
Theorem spe_slowest_wave_004 : forall (h : nat) (L : R), (8 <= h)%nat -> L <= 8192 ->
  L < wavelength (2 * h) (h - 1).
Proof.
  intros h L Hh HL; unfold wavelength, rope_frequency.
  assert (Hx : 8 <= INR h) by (replace 8 with (INR 8) by (simpl; ring); apply le_INR; exact Hh).
  replace (- (2 * INR (h - 1)) / INR (2 * h)) with (-1 + / INR h)
    by (rewrite minus_INR, mult_INR by lia; simpl; field; lra).
  assert (Hinv : / INR h <= / 8) by (apply Rinv_le_contravar; lra).
  assert (Hmono : Rpower 10000 (-1 + / INR h) <= Rpower 10000 (-7/8))
    by (apply Rle_Rpower; lra).
  assert (Hpos : 0 < Rpower 10000 (-1 + / INR h)) by (unfold Rpower; apply exp_pos).
  assert (Hnum : 8192 * Rpower 10000 (-7/8) < 2 * PI) by (unfold Rpower; interval).
  apply (Rmult_lt_reg_r (Rpower 10000 (-1 + / INR h))); [exact Hpos|].
  unfold Rdiv; rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  apply Rle_lt_trans with (8192 * Rpower 10000 (-7/8)); [|exact Hnum].
  destruct (Rle_or_lt 0 L) as [HL0|HL0].
  - apply Rmult_le_compat; lra.
  - assert (0 <= - L * Rpower 10000 (-1 + / INR h)) by (apply Rmult_le_pos; lra).
    assert (0 <= Rpower 10000 (-7/8)) by (unfold Rpower; apply Rlt_le, exp_pos).
    lra.
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

(* SPE-QK-EXPANSION, the formula the author means: 001 expands the score of
   two tokens with added sinusoidal positions into four terms (003 writes the
   same expansion with '+'); for every even d, W_Q, W_K, tokens and real
   positions the score is their sum. *)
Theorem spe_qk_expansion : forall (h : nat) (WQ WK : mat) (xp xq : vec) (p q : R),
  dot (2 * h) (mat_vec (2 * h) WQ (vadd xp (spe h p))) (mat_vec (2 * h) WK (vadd xq (spe h q)))
  = dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK xq)
    + dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK (spe h q))
    + dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK xq)
    + dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q)).
Proof. intros; apply spe_qk_expansion_correction. Qed.

(* The literal reading, kept as a note: 001 writes the four terms joined by
   '.', read as products. *)
Theorem spe_qk_expansion_literal_negation : ~ (forall (h : nat) (WQ WK : mat) (xp xq : vec) (p q : R),
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

(** ** SPE-LINEAR-ATTENTION-INCOMPATIBLE *)

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

(** ** SPE-FREQUENCIES-DECREASING (004) and SPE-DISTINCT-WAVELENGTHS (000, 001) *)

(* "Smaller indices wiggle fast ... while larger indices change slowly":
   w_i = 10000^(-2i/d) strictly decreases with i, for every even d. *)
Theorem spe_frequencies_decreasing : forall h i j : nat, (1 <= h)%nat -> (i < j)%nat ->
  rope_spectrum 10000 h j < rope_spectrum 10000 h i.
Proof.
  intros h i j Hh Hij; unfold rope_spectrum, rope_frequency.
  apply Rpower_lt; [lra|].
  assert (0 < INR (2 * h)) by (apply lt_0_INR; lia).
  assert (INR i < INR j) by (apply lt_INR; exact Hij).
  unfold Rdiv; apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|lra].
Qed.

(* "each pair of dimensions corresponds to a sinusoid at a distinct
   wavelength": two different pairs never share a wavelength 2 pi / w_i. *)
Theorem spe_distinct_wavelengths : forall h i j : nat, (1 <= h)%nat -> i <> j ->
  wavelength (2 * h) i <> wavelength (2 * h) j.
Proof.
  intros h i j Hh Hij E; unfold wavelength in E.
  assert (Hpos : forall n, 0 < rope_frequency 10000 (2 * h) n)
    by (intros n; unfold rope_frequency, Rpower; apply exp_pos).
  assert (Hw : rope_frequency 10000 (2 * h) i = rope_frequency 10000 (2 * h) j).
  { pose proof PI_RGT_0; unfold Rdiv in E.
    apply Rmult_eq_reg_l in E; [|lra].
    rewrite <- (Rinv_inv (rope_frequency 10000 (2 * h) i)), <- (Rinv_inv (rope_frequency 10000 (2 * h) j)), E.
    reflexivity. }
  assert (Hcases : (i < j \/ j < i)%nat) by lia; destruct Hcases as [Hlt|Hgt].
  - pose proof (spe_frequencies_decreasing h i j Hh Hlt); unfold rope_spectrum in *; lra.
  - pose proof (spe_frequencies_decreasing h j i Hh Hgt); unfold rope_spectrum in *; lra.
Qed.

(** ** SPE-ADD-CHANGES-NORM-DIRECTION-004 *)

(* "the position vector gets added to the token embedding.  This changes the
   direction of the embedding" and, against RoPE, "The magnitude is preserved,
   so no semantic information loss unlike the sinusoidal encoding": for every
   even d >= 2, |x + PE(p)|^2 = |x|^2 + 2 <x, PE(p)> + d/2, so the norm grows
   whenever <x, PE(p)> >= 0, and x + PE(p) points along x only when PE(p)
   itself does. *)
Theorem spe_add_changes_norm_direction_004 :
  forall (h : nat) (p : R) (x : vec),
    norm2 (2 * h) (vadd x (spe h p))
      = norm2 (2 * h) x + 2 * dot (2 * h) x (spe h p) + INR h
    /\ ((1 <= h)%nat -> 0 <= dot (2 * h) x (spe h p) ->
        norm2 (2 * h) x < norm2 (2 * h) (vadd x (spe h p)))
    /\ (forall c : R, (forall j, (j < 2 * h)%nat -> vadd x (spe h p) j = c * x j) ->
          forall j, (j < 2 * h)%nat -> spe h p j = (c - 1) * x j).
Proof.
  intros h p x.
  assert (E : norm2 (2 * h) (vadd x (spe h p))
              = norm2 (2 * h) x + 2 * dot (2 * h) x (spe h p) + INR h).
  { rewrite <- (dot_spe_self h p); unfold norm2, dot, vadd.
    rewrite <- sum_scal_l, <- !sum_plus; apply sum_ext; intros; ring. }
  split; [exact E|split].
  - intros Hh Hdot; rewrite E; assert (0 < INR h) by (apply lt_0_INR; lia); lra.
  - intros c Hc j Hj; specialize (Hc j Hj); unfold vadd in Hc; lra.
Qed.

(** ** SPE-SMOOTHNESS-004 *)

(* |sin y| <= |y|, squared: from sin y < y for y > 0. *)
Lemma sin_sq_le_sq_pos (y : R) : 0 < y -> sin y * sin y <= y * y.
Proof.
  intros Hy; pose proof (sin_lt_x y Hy); pose proof (SIN_bound y).
  destruct (Rle_or_lt 1 y) as [Hbig|Hsmall]; [nra|].
  assert (0 < sin y) by (apply sin_gt_0; [lra|pose proof PI2_3_2; lra]).
  nra.
Qed.

Lemma sin_sq_le_sq (y : R) : sin y * sin y <= y * y.
Proof.
  destruct (Rtotal_order y 0) as [Hn|[Hz|Hp]].
  - pose proof (sin_sq_le_sq_pos (- y) ltac:(lra)) as H; rewrite sin_neg in H; nra.
  - subst; rewrite sin_0; lra.
  - apply sin_sq_le_sq_pos; exact Hp.
Qed.

(* One (sin, cos) pair moves by at most the angle it turns through. *)
Lemma pair_step_le (a b : R) :
  (sin a - sin b) * (sin a - sin b) + (cos a - cos b) * (cos a - cos b) <= (a - b) * (a - b).
Proof.
  replace ((sin a - sin b) * (sin a - sin b) + (cos a - cos b) * (cos a - cos b))
    with (2 - 2 * cos (a - b))
    by (rewrite cos_minus; pose proof (sin2_cos2 a); pose proof (sin2_cos2 b); unfold Rsqr in *; nra).
  replace (a - b) with (2 * ((a - b) / 2)) at 1 by field; rewrite cos_2a_sin.
  pose proof (sin_sq_le_sq ((a - b) / 2)); nra.
Qed.

(* "Because sine and cosine are continuous, the encoding changes smoothly as p
   increments, satisfying the desire for small position shifts to cause small
   encoding shifts": |PE(p) - PE(q)|^2 <= (sum_i w_i^2) (p - q)^2, for every
   even d, every spectrum and every real p, q (a Lipschitz bound). *)
Theorem spe_smoothness_004 : forall (h : nat) (w : nat -> R) (p q : R),
  norm2 (2 * h) (fun j => pe w p j - pe w q j)
  <= sum h (fun i => w i * w i) * ((p - q) * (p - q)).
Proof.
  intros h w p q; unfold norm2; rewrite dot_pairs, <- sum_scal_r.
  apply sum_le; intros i _.
  rewrite !pe_even, !pe_odd.
  pose proof (pair_step_le (p * w i) (q * w i)) as H.
  replace ((p * w i - q * w i) * (p * w i - q * w i)) with (w i * w i * ((p - q) * (p - q))) in H by ring.
  lra.
Qed.

(* The definitions live in DefsSinusoidal.v; these abbreviations keep `Sinusoidal.name` working for importers. *)
Notation pe := DefsSinusoidal.pe (only parsing).
Notation spe := DefsSinusoidal.spe (only parsing).
Notation vadd := DefsSinusoidal.vadd (only parsing).
Notation identity := DefsSinusoidal.identity (only parsing).
Notation wavelength := DefsSinusoidal.wavelength (only parsing).
Notation e00 := DefsSinusoidal.e00 (only parsing).
Notation scaled_rotation_blocks := DefsSinusoidal.scaled_rotation_blocks (only parsing).
Notation linear_numerator_quadratic := DefsSinusoidal.linear_numerator_quadratic (only parsing).
Notation linear_numerator_factored := DefsSinusoidal.linear_numerator_factored (only parsing).
Notation linear_normaliser_quadratic := DefsSinusoidal.linear_normaliser_quadratic (only parsing).
Notation linear_normaliser_factored := DefsSinusoidal.linear_normaliser_factored (only parsing).
Notation additive_input := DefsSinusoidal.additive_input (only parsing).
