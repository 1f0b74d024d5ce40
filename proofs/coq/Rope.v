(** * Rope: the RoPE claims of proofs/claims/_claims_rope.py, decided by the kernel.

    One theorem per verdict, named after the claim ID.  Every universal claim
    is proved for every even dimension d = 2h (every [h : nat]), every
    position (real [m], [n]) and every frequency function [theta : nat -> R];
    the d = 4 and d = 8 instances at base 10000 are [Example]s that apply the
    general theorem.  Complex numbers are Coquelicot's [C] (pairs of reals);
    [cis a] is e^{ia}. *)

From Coq Require Import Reals Lia Lra.
From Coquelicot Require Import Complex.
From Ropecheck Require Import Defs.

Open Scope R_scope.
From Ropecheck Require Import DefsRope.

(** ** Shared pieces *)

(** ** The pair identity every relative claim rests on *)

(* Rotating both members of a pair score by a and b equals rotating the key
   alone by b - a: the 2x2 fact behind R(m)^T R(n) = R(n - m). *)
Lemma rot_pair_relative a b p r :
  fst (rot a p) * fst (rot b r) + snd (rot a p) * snd (rot b r)
  = fst p * fst (rot (b - a) r) + snd p * snd (rot (b - a) r).
Proof. unfold rot; simpl; rewrite cos_minus, sin_minus; ring. Qed.

Lemma pair_score_relative theta h m n q k i :
  (i < h)%nat ->
  pair_score theta h m n q k i
  = q (2 * i)%nat * rope theta h (n - m) k (2 * i)%nat
    + q (S (2 * i)) * rope theta h (n - m) k (S (2 * i)).
Proof.
  intros Hi; unfold pair_score.
  rewrite !rope_even, !rope_odd by exact Hi.
  replace ((n - m) * theta i) with (n * theta i - m * theta i) by ring.
  apply rot_pair_relative.
Qed.

(* The full score is the sum of the pair scores. *)
Lemma dot_rope_pairs theta h m n q k :
  dot (2 * h) (rope theta h m q) (rope theta h n k) = sum h (pair_score theta h m n q k).
Proof. rewrite dot_pairs; reflexivity. Qed.

(* <R_m q, R_n k> = <q, R_{n-m} k> for every even d: the engine of
   ROPE-DOT-PROPERTY-003, ROPE-RELATIVE-MATRIX, ROPE-QK-RELATIVE and the
   shift and norm claims. *)
Lemma rope_dot_relative theta h m n q k :
  dot (2 * h) (rope theta h m q) (rope theta h n k) = dot (2 * h) q (rope theta h (n - m) k).
Proof.
  rewrite dot_rope_pairs, dot_pairs.
  apply sum_ext; intros i Hi; apply pair_score_relative; exact Hi.
Qed.

(* Position 0 is the identity on the d coordinates. *)
Lemma rope_at_zero theta h x j : (j < 2 * h)%nat -> rope theta h 0 x j = x j.
Proof.
  intros Hj.
  assert (Hi : (Nat.div2 j < h)%nat)
    by (destruct (index_pair j) as [E|E]; rewrite E in Hj; lia).
  destruct (index_pair j) as [E|E]; rewrite E.
  - rewrite rope_even by exact Hi; unfold rot; simpl.
    rewrite Rmult_0_l, cos_0, sin_0; ring.
  - rewrite rope_odd by exact Hi; unfold rot; simpl.
    rewrite Rmult_0_l, cos_0, sin_0; ring.
Qed.

(* A column of basis indicators picks one coordinate out of a sum. *)
Lemma sum_pick d p (x : vec) :
  (p < d)%nat -> sum d (fun l => (if Nat.eqb p l then 1 else 0) * x l) = x p.
Proof.
  intros Hp; rewrite (sum_single d p) by
    (exact Hp || (intros l _ Hl; replace (Nat.eqb p l) with false
                    by (symmetry; apply Nat.eqb_neq; lia); ring)).
  rewrite Nat.eqb_refl; ring.
Qed.

(* The matrix R^d_{Theta,m} acts as the RoPE map: this ties the matrix
   statements of the sources to the map of Defs.v. *)
Lemma rope_matrix_apply theta h m x j :
  mat_vec (2 * h) (rope_matrix theta h m) x j = rope theta h m x j.
Proof.
  unfold mat_vec, rope_matrix, rope, rot, basis; cbn [fst snd].
  destruct (Nat.ltb (Nat.div2 j) h) eqn:E.
  2: { rewrite (sum_ext _ _ (fun _ => 0)); [apply sum_const_0|intros; ring]. }
  apply Nat.ltb_lt in E.
  set (i := Nat.div2 j) in *; set (a := m * theta i).
  destruct (Nat.even j); cbn [fst snd].
  - rewrite (sum_ext _ _ (fun l => cos a * ((if Nat.eqb (2 * i) l then 1 else 0) * x l)
                                   - sin a * ((if Nat.eqb (S (2 * i)) l then 1 else 0) * x l)))
      by (intros; ring).
    rewrite sum_minus, !sum_scal_l, !sum_pick by lia; ring.
  - rewrite (sum_ext _ _ (fun l => sin a * ((if Nat.eqb (2 * i) l then 1 else 0) * x l)
                                   + cos a * ((if Nat.eqb (S (2 * i)) l then 1 else 0) * x l)))
      by (intros; ring).
    rewrite sum_plus, !sum_scal_l, !sum_pick by lia; ring.
Qed.

Lemma Cmult_pair a b z : Cmult (a, b) z = (a * fst z - b * snd z, a * snd z + b * fst z).
Proof. reflexivity. Qed.

Lemma dot_2 x y : dot 2 x y = x 0%nat * y 0%nat + x 1%nat * y 1%nat.
Proof. unfold dot; rewrite !sum_S, sum_0; ring. Qed.

(** ** Counterexamples at the RoPE spectrum (base 10000, integer positions) *)

(* theta_0 = 10000^0 = 1 for every d: the first pair of the RoFormer spectrum
   turns at unit speed, so the refutations below evaluate sin 1 and cos 2. *)
Lemma rope_spectrum_first h : rope_spectrum 10000 h 0 = 1.
Proof.
  unfold rope_spectrum, rope_frequency.
  replace (- (2 * INR 0) / INR (2 * h)) with 0 by (simpl; unfold Rdiv; ring).
  apply Rpower_O; lra.
Qed.

(* The scores of e_0 against e_1 and against e_0, every even d >= 2, every theta. *)
Lemma rope_score_e0_e1 theta h m n : (1 <= h)%nat ->
  dot (2 * h) (rope theta h m (basis 0)) (rope theta h n (basis 1)) = sin ((m - n) * theta 0%nat).
Proof.
  intros Hh; rewrite rope_dot_relative, dot_basis_l by lia.
  pose proof (rope_even theta h (n - m) (basis 1) 0 Hh) as E; simpl Nat.mul in E; rewrite E.
  unfold rot, basis; cbn [fst snd Nat.eqb].
  replace ((n - m) * theta 0%nat) with (- ((m - n) * theta 0%nat)) by ring; rewrite sin_neg; ring.
Qed.

Lemma rope_score_e0_e0 theta h m n : (1 <= h)%nat ->
  dot (2 * h) (rope theta h m (basis 0)) (rope theta h n (basis 0)) = cos ((m - n) * theta 0%nat).
Proof.
  intros Hh; rewrite rope_dot_relative, dot_basis_l by lia.
  pose proof (rope_even theta h (n - m) (basis 0) 0 Hh) as E; simpl Nat.mul in E; rewrite E.
  unfold rot, basis; cbn [fst snd Nat.eqb].
  replace ((n - m) * theta 0%nat) with (- ((m - n) * theta 0%nat)) by ring; rewrite cos_neg; ring.
Qed.

Lemma sin_1_positive : 0 < sin 1.
Proof. apply sin_gt_0; [lra|]. pose proof PI2_3_2; lra. Qed.

(* cos 2 = 2 cos^2 1 - 1 < 0, from the standard library's Taylor bounds
   1/2 <= cos 1 <= 13/24 (no floating-point checker). *)
Lemma cos_2_negative : cos 2 < 0.
Proof.
  destruct (pre_cos_bound 1 0) as [L U]; [pose proof PI2_1; lra|pose proof PI2_1; lra|].
  unfold cos_approx, cos_term in L, U; simpl in L, U.
  pose proof (cos_2a_cos 1) as D; replace (2 * 1) with 2 in D by ring.
  rewrite D; nra.
Qed.

(** ** ROPE-COMPLEX-INNER-PRODUCT *)

(* Reading: <.,.> is the Hermitian product sum_j z_j conj(w_j); q, k in C^d
   for every d (this covers the seeds' q, k in R^d), one theta for all
   coordinates as in f(x, l) = x e^{i l theta}. *)
Theorem rope_complex_inner_product :
  forall (d : nat) (q k : nat -> C) (m n theta : R),
    hdot d (fun j => Cmult (q j) (cis (m * theta))) (fun j => Cmult (k j) (cis (n * theta)))
    = Cmult (hdot d q k) (cis ((m - n) * theta)).
Proof.
  intros d q k m n theta; unfold hdot; rewrite Cmult_pair; cbn [fst snd].
  rewrite <- !sum_scal_r, <- sum_minus, <- sum_plus.
  replace ((m - n) * theta) with (m * theta - n * theta) by ring.
  f_equal; apply sum_ext; intros j _; unfold cis, Cmult, Cconj, Re, Im; cbn [fst snd];
    rewrite cos_minus, sin_minus; ring.
Qed.

(** ** ROPE-REAL-PART-COS-ONLY *)

(* Reading fixed by issue #10: seeds 000/001 declare q, k in R^d, so <q, k>
   is the real dot product and the identity holds for every d. *)
Theorem rope_real_part_cos_only :
  forall (d : nat) (q k : vec) (m n theta : R),
    Re (Cmult (RtoC (dot d q k)) (cis ((m - n) * theta))) = dot d q k * cos ((m - n) * theta).
Proof. intros; unfold Re, Cmult, RtoC, cis; cbn [fst snd]; ring. Qed.

(* An alternative reading, NOT the literal one (the seeds declare q, k in R^d,
   so the real reading above is the literal reading): <q, k> = q conj(k) for
   complex q, k.  Named outside the claim's naming scheme (no role) on purpose.
   Read as an equation of complex numbers it fails, with <q, k> = -i at m = n. *)
Theorem rope_real_part_cos_only_complex_negation :
  ~ (forall (z w : C) (m n theta : R),
        RtoC (Re (Cmult (Cmult z (Cconj w)) (cis ((m - n) * theta))))
        = Cmult (Cmult z (Cconj w)) (RtoC (cos ((m - n) * theta)))).
Proof.
  intros H; specialize (H (1, 0) (0, 1) 0 0 0).
  unfold Re, Cmult, Cconj, RtoC, cis in H; cbn [fst snd] in H.
  replace ((0 - 0) * 0) with 0 in H by ring; rewrite cos_0, sin_0 in H.
  injection H; lra.
Qed.

(* The complex reading corrected: the imaginary part of <q, k> brings a sine
   term (also outside the naming scheme). *)
Theorem rope_real_part_cos_only_complex_correction :
  forall (z : C) (phi : R), Re (Cmult z (cis phi)) = Re z * cos phi - Im z * sin phi.
Proof. intros; unfold Re, Im, Cmult, cis; cbn [fst snd]; ring. Qed.

(** ** ROPE-KV-COS-ONLY *)

(* Reading: q, k in R^d (seeds 000/001), R_m the RoPE rotation with the one
   angle theta the seeds write (constant frequency), integer positions m, n.
   It fails for every even d >= 2, already at theta = theta_0 = 1, the first
   frequency of the RoPE spectrum: q = e_0, k = e_1, m = 1, n = 0 give the
   score sin 1 against <q, k> cos 1 = 0. *)
Theorem rope_kv_cos_only_negation : forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (m n : nat) (theta : R),
        dot (2 * h) (rope (fun _ => theta) h (INR m) q) (rope (fun _ => theta) h (INR n) k)
        = dot (2 * h) q k * cos ((INR m - INR n) * theta)).
Proof.
  intros h Hh H; specialize (H (basis 0) (basis 1) 1%nat 0%nat (rope_spectrum 10000 h 0)).
  rewrite rope_score_e0_e1, dot_basis_l in H by lia; cbv beta in H.
  rewrite rope_spectrum_first in H; unfold basis in H; cbn [Nat.eqb] in H.
  replace ((INR 1 - INR 0) * 1) with 1 in H by (simpl; ring).
  pose proof sin_1_positive; lra.
Qed.

(* Correction: the rotation mixes the two coordinates of each pair and adds a
   sine term weighted by the cross product; still a function of m - n. *)
Theorem rope_kv_cos_only_correction :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
    dot (2 * h) (rope theta h m q) (rope theta h n k)
    = sum h (fun i => dot_pair q k i * cos ((m - n) * theta i) + cross_pair q k i * sin ((m - n) * theta i)).
Proof.
  intros; rewrite dot_rope_pairs; apply sum_ext; intros i Hi.
  unfold pair_score, dot_pair, cross_pair; rewrite !rope_even, !rope_odd by exact Hi.
  unfold rot; cbn [fst snd].
  replace ((m - n) * theta i) with (m * theta i - n * theta i) by ring.
  rewrite cos_minus, sin_minus; ring.
Qed.

(** ** ROPE-COMPLEX-IS-ROTATION *)

(* Reading: (x1 + i x2) e^{ia}, written back as a pair, is the 2x2 rotation
   matrix R(a) applied to (x1, x2); and for every even d the RoPE of pair i
   is pair i times e^{i m theta_i} (the complex form of Meta's code). *)
Theorem rope_complex_is_rotation :
  (forall (a : R) (x : vec),
      Cmult (x 0%nat, x 1%nat) (cis a) = (mat_vec 2 (rot_matrix a) x 0%nat, mat_vec 2 (rot_matrix a) x 1%nat))
  /\ (forall (h : nat) (theta : nat -> R) (m : R) (x : vec) (i : nat),
        (i < h)%nat ->
        Cmult (pair_of x i) (cis (m * theta i)) = (rope theta h m x (2 * i)%nat, rope theta h m x (S (2 * i)))).
Proof.
  split.
  - intros; unfold mat_vec, Cmult, cis; rewrite !sum_S, !sum_0; simpl; f_equal; ring.
  - intros h theta m x i Hi; rewrite rope_even, rope_odd by exact Hi.
    unfold Cmult, cis, pair_of, rot; simpl; f_equal; ring.
Qed.

(** ** ROPE-PAIR-FORMULA *)

(* Reading: for every even d and every pair i (0-based (2i, 2i+1), 001's
   (2i-1, 2i) 1-based), the block-diagonal matrix R^d_{Theta,m} applied to x
   gives the displayed pair; its block i is the drawn 2x2 rotation matrix. *)
Theorem rope_pair_formula :
  forall (h : nat) (theta : nat -> R) (m : R) (x : vec) (i : nat),
    (i < h)%nat ->
    mat_vec (2 * h) (rope_matrix theta h m) x (2 * i)%nat
      = x (2 * i)%nat * cos (m * theta i) - x (S (2 * i)) * sin (m * theta i)
    /\ mat_vec (2 * h) (rope_matrix theta h m) x (S (2 * i))
      = x (2 * i)%nat * sin (m * theta i) + x (S (2 * i)) * cos (m * theta i).
Proof.
  intros h theta m x i Hi; rewrite !rope_matrix_apply.
  rewrite rope_even, rope_odd by exact Hi; split; reflexivity.
Qed.

(* The block structure the sources draw: block i of R^d_{Theta,m} is
   R(m theta_i), and entries outside the diagonal blocks are 0. *)
Lemma rope_matrix_block theta h m i r s :
  (i < h)%nat -> (r < 2)%nat -> (s < 2)%nat ->
  rope_matrix theta h m (2 * i + r)%nat (2 * i + s)%nat = rot_matrix (m * theta i) r s.
Proof.
  intros Hi Hr Hs; unfold rope_matrix, basis.
  destruct r as [|[|r]]; [|  |lia]; destruct s as [|[|s]]; try lia;
    rewrite ?Nat.add_0_r, ?Nat.add_1_r;
    first [rewrite rope_even by exact Hi | rewrite rope_odd by exact Hi];
    unfold rot; cbn [fst snd];
    rewrite ?Nat.eqb_refl;
    repeat match goal with
           | |- context [Nat.eqb ?a ?b] =>
               replace (Nat.eqb a b) with false by (symmetry; apply Nat.eqb_neq; lia)
           end;
    simpl; ring.
Qed.

Lemma rope_matrix_off_block theta h m a b :
  Nat.div2 a <> Nat.div2 b -> rope_matrix theta h m a b = 0.
Proof.
  intros Hab; unfold rope_matrix, rope, basis, rot.
  destruct (Nat.ltb (Nat.div2 a) h); [|reflexivity].
  replace (Nat.eqb (2 * Nat.div2 a) b) with false
    by (symmetry; apply Nat.eqb_neq; intros E; apply Hab; rewrite <- E, div2_double; reflexivity).
  replace (Nat.eqb (S (2 * Nat.div2 a)) b) with false
    by (symmetry; apply Nat.eqb_neq; intros E; apply Hab; rewrite <- E, div2_double_S; reflexivity).
  destruct (Nat.even a); simpl; ring.
Qed.

(** ** ROPE-RELATIVE-MATRIX *)

(* Reading: for every even d = 2h, every frequency function and all real
   m, n, the d x d matrices agree entrywise (every index pair; entries beyond
   d are 0 on both sides). *)
Theorem rope_relative_matrix :
  forall (h : nat) (theta : nat -> R) (m n : R) (i j : nat),
    mat_mul (2 * h) (transpose (rope_matrix theta h m)) (rope_matrix theta h n) i j
    = rope_matrix theta h (n - m) i j.
Proof.
  intros h theta m n i j.
  change (dot (2 * h) (rope theta h m (basis i)) (rope theta h n (basis j)) = rope_matrix theta h (n - m) i j).
  rewrite rope_dot_relative; unfold rope_matrix.
  destruct (Nat.lt_ge_cases i (2 * h)) as [Hi|Hi].
  - apply dot_basis_l; exact Hi.
  - rewrite dot_basis_l_beyond, rope_beyond by exact Hi; reflexivity.
Qed.

(** ** ROPE-QK-RELATIVE *)

(* Reading (issue #10): q_m = R_m W_q x_m and k_n = R_n W_k x_n with W_q, W_k
   ANY real d x e matrices (not block-diagonal) and x in R^e; the step is the
   substitution of ROPE-RELATIVE-MATRIX, here through rope_dot_relative and
   moving W_q across the dot product. *)
Theorem rope_qk_relative :
  forall (h e : nat) (theta : nat -> R) (Wq Wk : mat) (xm xn : vec) (m n : R),
    dot (2 * h) (mat_vec (2 * h) (rope_matrix theta h m) (mat_vec e Wq xm))
                (mat_vec (2 * h) (rope_matrix theta h n) (mat_vec e Wk xn))
    = dot e xm (mat_vec (2 * h) (transpose Wq)
                  (mat_vec (2 * h) (rope_matrix theta h (n - m)) (mat_vec e Wk xn))).
Proof.
  intros h e theta Wq Wk xm xn m n.
  transitivity (dot (2 * h) (rope theta h m (mat_vec e Wq xm)) (rope theta h n (mat_vec e Wk xn))).
  { unfold dot; apply sum_ext; intros; rewrite !rope_matrix_apply; reflexivity. }
  rewrite rope_dot_relative, dot_mat_vec_transpose_rect.
  unfold dot, mat_vec at 1 3; apply sum_ext; intros; f_equal.
  apply sum_ext; intros; rewrite rope_matrix_apply; reflexivity.
Qed.

(** ** ROPE-GENERAL-FORM *)

(* Reading: RoFormer Eq. (12) pair by pair, for every even d: with
   q = W_q x_m and k = W_k x_n (any vectors, so any W and x), pair i read as
   a complex number, the RoPE score is the sum over pairs of
   Re[q_i conj(k_i) e^{i(m-n) theta_i}]; d = 2 is the source's 2-D case. *)
Theorem rope_general_form :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
    dot (2 * h) (rope theta h m q) (rope theta h n k)
    = sum h (fun i => Re (Cmult (Cmult (pair_of q i) (Cconj (pair_of k i))) (cis ((m - n) * theta i)))).
Proof.
  intros; rewrite rope_kv_cos_only_correction; apply sum_ext; intros i _.
  unfold Re, Cmult, Cconj, cis, pair_of, dot_pair, cross_pair; cbn [fst snd]; ring.
Qed.

(** ** ROPE-DOT-PROPERTY-003 *)

(* Reading: 003's RoPE(x, m, i) rotates (x_{2i}, x_{2i+1}) counter-clockwise
   by m theta_i (its displayed matrix); the property holds for every pair of
   every even d, and summed over pairs as <R_m q, R_n k> = q^T R_{n-m} k. *)
Theorem rope_dot_property_003 :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R) (i : nat),
      (i < h)%nat ->
      pair_score theta h m n q k i
      = dot 2 (slice q i) (mat_vec 2 (rot_matrix ((n - m) * theta i)) (slice k i)))
  /\ (forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
      dot (2 * h) (rope theta h m q) (rope theta h n k)
      = dot (2 * h) q (mat_vec (2 * h) (rope_matrix theta h (n - m)) k)).
Proof.
  split.
  - intros h theta q k m n i Hi; rewrite pair_score_relative by exact Hi.
    rewrite rope_even, rope_odd by exact Hi.
    rewrite dot_2; unfold slice, mat_vec; rewrite !sum_S, !sum_0.
    rewrite Nat.add_0_r, Nat.add_1_r; unfold rot; simpl; ring.
  - intros; rewrite rope_dot_relative; unfold dot; apply sum_ext; intros.
    rewrite rope_matrix_apply; reflexivity.
Qed.

(** ** ROPE-SCORE-SINE-TERM-003 *)

(* Reading: as 003 defines RoPE (counter-clockwise), (q_{i,1}, q_{i,2}) the
   two coordinates of pair i; the universal statement over every even d,
   every pair, every position and frequency. *)
(* It fails for every even d >= 2 at the RoPE spectrum (base 10000) and
   integer positions: pair 0, q = e_0, k = e_1, m = 0, n = 1 give -sin 1 on
   the left and sin 1 on the right. *)
Theorem rope_score_sine_term_003_negation : forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (m n i : nat), (i < h)%nat ->
        pair_score (rope_spectrum 10000 h) h (INR m) (INR n) q k i
        = dot_pair q k i * cos ((INR n - INR m) * rope_spectrum 10000 h i)
          + cross_pair q k i * sin ((INR n - INR m) * rope_spectrum 10000 h i)).
Proof.
  intros h Hh H; specialize (H (basis 0) (basis 1) 0%nat 1%nat 0%nat ltac:(lia)).
  rewrite pair_score_relative in H by lia.
  pose proof (rope_even (rope_spectrum 10000 h) h (INR 1 - INR 0) (basis 1) 0 ltac:(lia)) as E0.
  pose proof (rope_odd (rope_spectrum 10000 h) h (INR 1 - INR 0) (basis 1) 0 ltac:(lia)) as E1.
  rewrite E0, E1 in H; rewrite rope_spectrum_first in H.
  unfold rot, dot_pair, cross_pair, basis in H; cbn [fst snd Nat.mul Nat.add Nat.eqb] in H.
  replace ((INR 1 - INR 0) * 1) with 1 in H by (simpl; ring).
  pose proof sin_1_positive; lra.
Qed.

(* Correction: the sine term carries the opposite cross product. *)
Theorem rope_score_sine_term_003_correction :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R) (i : nat),
    (i < h)%nat ->
    pair_score theta h m n q k i
    = dot_pair q k i * cos ((n - m) * theta i)
      + (q (S (2 * i)) * k (2 * i)%nat - q (2 * i)%nat * k (S (2 * i))) * sin ((n - m) * theta i).
Proof.
  intros h theta q k m n i Hi; rewrite pair_score_relative by exact Hi.
  rewrite rope_even, rope_odd by exact Hi; unfold rot, dot_pair; simpl; ring.
Qed.

(** ** ROPE-SHIFT-INVARIANCE-003 *)

(* Reading: the full score of every even d, any shift delta of both
   positions (real, so integers included). *)
Theorem rope_shift_invariance_003 :
  forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),
    dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k)
    = dot (2 * h) (rope theta h m q) (rope theta h n k).
Proof.
  intros; rewrite !rope_dot_relative.
  replace (n + delta - (m + delta)) with (n - m) by ring; reflexivity.
Qed.

(** ** ROPE-NORM-PRESERVING *)

Lemma rope_norm2 theta h m x : norm2 (2 * h) (rope theta h m x) = norm2 (2 * h) x.
Proof.
  unfold norm2; rewrite rope_dot_relative; replace (m - m) with 0 by ring.
  unfold dot; apply sum_ext; intros j Hj; rewrite rope_at_zero by exact Hj; reflexivity.
Qed.

(* Reading: 'neither explodes nor vanishes' as exact norm preservation at
   every position of every even d, plus R_m^T R_m = I_d (orthogonal) and
   det = 1 for every block (a rotation, not a reflection). *)
Theorem rope_norm_preserving :
  (forall (h : nat) (theta : nat -> R) (m : R) (x : vec),
      sqrt (norm2 (2 * h) (rope theta h m x)) = sqrt (norm2 (2 * h) x))
  /\ (forall (h : nat) (theta : nat -> R) (m : R) (i j : nat),
      mat_mul (2 * h) (transpose (rope_matrix theta h m)) (rope_matrix theta h m) i j
      = if Nat.ltb i (2 * h) then (if Nat.eqb i j then 1 else 0) else 0)
  /\ (forall a : R,
      rot_matrix a 0%nat 0%nat * rot_matrix a 1%nat 1%nat - rot_matrix a 0%nat 1%nat * rot_matrix a 1%nat 0%nat = 1).
Proof.
  split; [|split].
  - intros; rewrite rope_norm2; reflexivity.
  - intros h theta m i j; rewrite rope_relative_matrix; replace (m - m) with 0 by ring.
    unfold rope_matrix.
    destruct (Nat.lt_ge_cases i (2 * h)) as [Hi|Hi].
    + rewrite rope_at_zero by exact Hi; apply Nat.ltb_lt in Hi; rewrite Hi; reflexivity.
    + rewrite rope_beyond by exact Hi; apply Nat.ltb_ge in Hi; rewrite Hi; reflexivity.
  - intros a; simpl; rewrite <- (sin2_cos2 a); unfold Rsqr; ring.
Qed.

(** ** ROPE-FREQUENCIES *)

Lemma rope_frequency_shift d j : rope_frequency_1based d (S j) = sinusoidal_omega d j.
Proof.
  unfold rope_frequency_1based, sinusoidal_omega; rewrite S_INR.
  replace (INR j + 1 - 1) with (INR j) by ring; reflexivity.
Qed.

(* Reading: 'same spectrum as sinusoidal PE' as equality of the two sets of
   frequencies for every even d = 2h; also the 0-based spectrum of Defs.v is
   omega term by term. *)
Theorem rope_frequencies :
  (forall (h : nat) (r : R),
      (exists i, (1 <= i <= h)%nat /\ r = rope_frequency_1based (2 * h) i)
      <-> (exists j, (j < h)%nat /\ r = sinusoidal_omega (2 * h) j))
  /\ (forall (h j : nat), rope_spectrum 10000 h j = sinusoidal_omega (2 * h) j).
Proof.
  split.
  - intros h r; split.
    + intros [i [Hi ->]]; destruct i as [|j]; [lia|].
      exists j; split; [lia|]; apply rope_frequency_shift.
    + intros [j [Hj ->]]; exists (S j); split; [lia|]; symmetry; apply rope_frequency_shift.
  - intros; reflexivity.
Qed.

(** ** ROPE-FULL-STRENGTH-AT-ZERO (new; seeds 000, 001) *)

(* "When m = n, we get the full attention strength and conversely as |m - n|
   increases cos oscillates."  Strong reading, in the domain the seeds declare
   (q, k in R^d, R_m the RoPE rotation with the RoFormer spectrum, base
   10000, integer positions): for every q, k the score at m = n is the
   largest over positions, <R_m q, R_n k> <= <R_n q, R_n k>.  It fails for
   every even d >= 2: for q = e_0, k = e_1 the score is 0 at m = n = 0 and
   sin 1 > 0 at m = 1, n = 0 (theta_0 = 1). *)
Theorem rope_full_strength_at_zero_literal_negation : forall h : nat, (1 <= h)%nat ->
  ~ (forall (q k : vec) (m n : nat),
        dot (2 * h) (rope (rope_spectrum 10000 h) h (INR m) q) (rope (rope_spectrum 10000 h) h (INR n) k)
        <= dot (2 * h) (rope (rope_spectrum 10000 h) h (INR n) q) (rope (rope_spectrum 10000 h) h (INR n) k)).
Proof.
  intros h Hh H; specialize (H (basis 0) (basis 1) 1%nat 0%nat).
  rewrite !rope_score_e0_e1, rope_spectrum_first in H by exact Hh.
  replace ((INR 1 - INR 0) * 1) with 1 in H by (simpl; ring).
  replace ((INR 0 - INR 0) * 1) with 0 in H by ring; rewrite sin_0 in H.
  pose proof sin_1_positive; lra.
Qed.

(* ROPE-FULL-STRENGTH-AT-ZERO, as a referee reads it on RoPE's own score
   <R_m q, R_n k> (the seeds' cosine-only formula <q, k> cos((m - n) theta)
   is not RoPE's score: ROPE-KV-COS-ONLY): at m = n the rotations cancel and
   the score is the unrotated <q, k> -- nothing is lost -- for every even d and
   every spectrum; and the score of a vector with itself is largest at m = n,
   <R_m q, R_n q> <= <R_n q, R_n q> = |q|^2 (full strength at zero offset).
   The reading "for every q, k the score is the maximum over positions at
   m = n" is refuted above. *)
Theorem rope_full_strength_at_zero :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m : R),
      dot (2 * h) (rope theta h m q) (rope theta h m k) = dot (2 * h) q k)
  /\ (forall (h : nat) (theta : nat -> R) (q : vec) (m n : R),
      dot (2 * h) (rope theta h m q) (rope theta h n q)
      <= dot (2 * h) (rope theta h n q) (rope theta h n q)).
Proof.
  split.
  - intros; rewrite rope_dot_relative; replace (m - m) with 0 by ring.
    unfold dot; apply sum_ext; intros j Hj; rewrite rope_at_zero by exact Hj; reflexivity.
  - intros h theta q m n; rewrite !rope_dot_relative, !dot_pairs.
    apply sum_le; intros i Hi; rewrite !rope_even, !rope_odd by exact Hi.
    replace ((n - n) * theta i) with 0 by ring; unfold rot; cbn [fst snd].
    rewrite cos_0, sin_0.
    set (a := q (2 * i)%nat); set (b := q (S (2 * i))); set (c := cos ((n - m) * theta i)).
    replace (a * (a * c - b * sin ((n - m) * theta i)) + b * (a * sin ((n - m) * theta i) + b * c))
      with ((a * a + b * b) * c) by ring.
    replace (a * (a * 1 - b * 0) + b * (a * 0 + b * 1)) with ((a * a + b * b) * 1) by ring.
    apply Rmult_le_compat_l; [|apply COS_bound].
    pose proof (Rle_0_sqr a); pose proof (Rle_0_sqr b); unfold Rsqr in *; lra.
Qed.


(** ** ROPE-LINEAR-ATTENTION-004 (new; seed 004) *)

(* Rotating nonnegative features can make a linear-attention weight negative:
   u = v = e_0 at positions 2 and 0 have the product cos 2 < 0 (theta_0 = 1). *)
Lemma rotated_nonnegative_features_negative : forall h : nat, (1 <= h)%nat ->
  dot (2 * h) (rope (rope_spectrum 10000 h) h (INR 2) (basis 0))
    (rope (rope_spectrum 10000 h) h (INR 0) (basis 0)) < 0.
Proof.
  intros h Hh; rewrite rope_score_e0_e0, rope_spectrum_first by exact Hh.
  replace ((INR 2 - INR 0) * 1) with 2 by (simpl; ring); exact cos_2_negative.
Qed.

(* ROPE-LINEAR-ATTENTION-004, what the sentence says: "Because rotation
   preserves norms, RoPE works seamlessly even in linear-time attention
   mechanisms (e.g. Performers)".  Linear attention divides by the normaliser
   sum_n phi(q)^T phi(k_n), a sum of nonnegative terms for nonnegative
   features; the sentence says that since the rotation preserves norms,
   rotating the features keeps it nonnegative.  Refuted: the rotation preserves norms (first
   conjunct), and yet for every even d, at the RoFormer spectrum (base 10000)
   and integer key positions, nonnegative features whose rotated normaliser is
   negative exist (N = 1, phi(q) = phi(k_0) = e_0, query at position 2: cos 2).
   RoFormer Eq. (19) keeps the normaliser unrotated for this reason. *)
Theorem rope_linear_attention_004_negation :
  (forall (h : nat) (theta : nat -> R) (m : R) (x : vec),
      norm2 (2 * h) (rope theta h m x) = norm2 (2 * h) x)
  /\ (forall h : nat, (1 <= h)%nat ->
      ~ (forall (N : nat) (m : R) (phi_q : vec) (phi_k : nat -> vec),
            (1 <= N)%nat -> (forall j, 0 <= phi_q j) -> (forall n j, 0 <= phi_k n j) ->
            0 <= sum N (fun n => dot (2 * h) (rope (rope_spectrum 10000 h) h m phi_q)
                                  (rope (rope_spectrum 10000 h) h (INR n) (phi_k n))))).
Proof.
  split; [intros; apply rope_norm2|].
  intros h Hh H.
  assert (Hnonneg : forall j, 0 <= basis 0 j) by (intros j; unfold basis; destruct (Nat.eqb j 0); lra).
  specialize (H 1%nat (INR 2) (basis 0) (fun _ => basis 0) (le_n 1) Hnonneg (fun _ => Hnonneg)).
  rewrite sum_S, sum_0, Rplus_0_l in H.
  pose proof (rotated_nonnegative_features_negative h Hh); lra.
Qed.

(* The numerator factorises: RoPE can be used in linear-time attention.  For every
   even d, every length N and every output coordinate c, the rotated
   numerator sum_n <R_m phi(q), R_n phi(k_n)> v_n,c factorises as
   <R_m phi(q), S> with S = sum_n R_n phi(k_n) v_n,c independent of the query
   position m, so it costs O(N d) instead of O(N^2 d) over all queries. *)
Lemma rope_linear_time_factorization :
  forall (N h : nat) (theta : nat -> R) (m : R) (phi_q : vec) (phi_k values : nat -> vec) (c : nat),
    sum N (fun n => dot (2 * h) (rope theta h m phi_q) (rope theta h (INR n) (phi_k n)) * values n c)
    = dot (2 * h) (rope theta h m phi_q)
        (fun j => sum N (fun n => rope theta h (INR n) (phi_k n) j * values n c)).
Proof.
  intros; unfold dot.
  rewrite (sum_ext N _ (fun n => sum (2 * h) (fun j => rope theta h m phi_q j
                                   * (rope theta h (INR n) (phi_k n) j * values n c))))
    by (intros; rewrite <- sum_scal_r; apply sum_ext; intros; ring).
  rewrite sum_swap; apply sum_ext; intros; apply sum_scal_l.
Qed.

(* Correction: RoPE fits linear attention because the rotation is linear
   (the numerator factorises, the literal theorem) while the normaliser is
   kept unrotated, as in RoFormer Eq. (19), where nonnegative features give
   nonnegative terms; norm preservation is not what makes it work. *)
Theorem rope_linear_attention_004_correction :
  (forall (N h : nat) (theta : nat -> R) (m : R) (phi_q : vec) (phi_k values : nat -> vec) (c : nat),
      sum N (fun n => dot (2 * h) (rope theta h m phi_q) (rope theta h (INR n) (phi_k n)) * values n c)
      = dot (2 * h) (rope theta h m phi_q)
          (fun j => sum N (fun n => rope theta h (INR n) (phi_k n) j * values n c)))
  /\ (forall (N d : nat) (phi_q : vec) (phi_k : nat -> vec),
      (forall j, 0 <= phi_q j) -> (forall n j, 0 <= phi_k n j) ->
      0 <= sum N (fun n => dot d phi_q (phi_k n))).
Proof.
  split; [exact rope_linear_time_factorization|].
  intros N d phi_q phi_k Hq Hk.
  rewrite <- (sum_const_0 N); apply sum_le; intros n _.
  rewrite <- (sum_const_0 d); apply sum_le; intros j _.
  apply Rmult_le_pos; [apply Hq|apply Hk].
Qed.

(* ROPE-LINEAR-ATTENTION-004, a weaker reading kept as a note: the
   conclusion alone, "RoPE works in linear-time attention".  With the rotation
   applied to the features, the numerator factorises into the linear-time form
   for every even d, length N and spectrum, and each of its terms is still a
   RoPE score, unchanged when both positions shift.  It needs neither the
   rotation nor norm preservation (bilinearity alone). *)
Theorem rope_linear_attention_004_literal :
  (forall (N h : nat) (theta : nat -> R) (m : R) (phi_q : vec) (phi_k values : nat -> vec) (c : nat),
      sum N (fun n => dot (2 * h) (rope theta h m phi_q) (rope theta h (INR n) (phi_k n)) * values n c)
      = dot (2 * h) (rope theta h m phi_q)
          (fun j => sum N (fun n => rope theta h (INR n) (phi_k n) j * values n c)))
  /\ (forall (h : nat) (theta : nat -> R) (u w : vec) (m n delta : R),
      dot (2 * h) (rope theta h (m + delta) u) (rope theta h (n + delta) w)
      = dot (2 * h) (rope theta h m u) (rope theta h n w)).
Proof.
  split; [exact rope_linear_time_factorization|].
  (* From rope_dot_relative directly, not rope_shift_invariance_003: each
     claim's proof stands on its own (tests/test_kernel_binding.py attacks
     that theorem and expects the others in Rope.v to compile). *)
  intros; rewrite !rope_dot_relative.
  replace (n + delta - (m + delta)) with (n - m) by ring; reflexivity.
Qed.


(** ** ROPE-ABS-AND-REL (new; seeds 002, 004) *)

(* ROPE-ABS-AND-REL is decided in Positions.v (rope_abs_and_rel): the
   relative half for every even d (rope_shift_invariance_003), the absolute
   half for every even d other than 2, 4, 8, base 10000, every real position.  Kept here as the
   statement for every even d over positions less than 2 pi apart: pair 0
   alone tells them apart. *)

(* A nonzero angle of magnitude below 2 pi is not a full turn. *)
Lemma cos_ne_1_window t : 0 < Rabs t < 2 * PI -> cos t <> 1.
Proof.
  intros [Hpos Hlt] Hc.
  assert (Hs : sin t = 0).
  { pose proof (sin2_cos2 t) as P; rewrite Hc in P; unfold Rsqr in P.
    apply Rsqr_0_uniq; unfold Rsqr; lra. }
  destruct (Rle_or_lt 0 t) as [Ht|Ht].
  - rewrite Rabs_right in Hpos, Hlt by lra.
    destruct (sin_eq_O_2PI_0 t) as [E|[E|E]]; try lra.
    rewrite E, cos_PI in Hc; lra.
  - rewrite Rabs_left in Hpos, Hlt by lra.
    rewrite <- cos_neg in Hc; rewrite <- (Ropp_involutive t), sin_neg in Hs.
    destruct (sin_eq_O_2PI_0 (- t)) as [E|[E|E]]; try lra.
    rewrite E, cos_PI in Hc; lra.
Qed.

(* Evidence for the absolute half of ROPE-ABS-AND-REL: with theta_0 = 1 (the
   RoFormer spectrum's first frequency), two positions less than 2 pi apart
   give different rotated vectors whenever pair 0 of x is nonzero. *)
Lemma rope_position_window theta h m m' x :
  (0 < h)%nat -> theta 0%nat = 1 -> (x 0%nat <> 0 \/ x 1%nat <> 0) ->
  0 < Rabs (m - m') < 2 * PI -> rope theta h m x <> rope theta h m' x.
Proof.
  intros Hh Htheta Hx Hwindow E.
  pose proof (f_equal (fun f => f 0%nat) E) as E0; pose proof (f_equal (fun f => f 1%nat) E) as E1.
  cbv beta in E0, E1.
  pose proof (rope_even theta h m x 0 Hh) as Am; pose proof (rope_even theta h m' x 0 Hh) as Am'.
  pose proof (rope_odd theta h m x 0 Hh) as Bm; pose proof (rope_odd theta h m' x 0 Hh) as Bm'.
  simpl Nat.mul in Am, Am', Bm, Bm'; rewrite Am, Am' in E0; rewrite Bm, Bm' in E1.
  unfold rot in E0, E1; cbn [fst snd] in E0, E1; rewrite Htheta, !Rmult_1_r in E0, E1.
  set (a := x 0%nat) in *; set (b := x 1%nat) in *.
  assert (Hpos : 0 < a * a + b * b).
  { destruct Hx as [Ha|Hb].
    - pose proof (Rsqr_pos_lt a Ha); pose proof (Rle_0_sqr b); unfold Rsqr in *; lra.
    - pose proof (Rsqr_pos_lt b Hb); pose proof (Rle_0_sqr a); unfold Rsqr in *; lra. }
  assert (K : (a * a + b * b) * (cos (m - m') - 1) = 0).
  { rewrite cos_minus.
    replace ((a * a + b * b) * (cos m * cos m' + sin m * sin m' - 1))
      with ((a * cos m - b * sin m) * (a * cos m' - b * sin m')
            + (a * sin m + b * cos m) * (a * sin m' + b * cos m') - (a * a + b * b)) by ring.
    rewrite E0, E1; pose proof (sin2_cos2 m') as P; unfold Rsqr in P.
    replace ((a * cos m' - b * sin m') * (a * cos m' - b * sin m')
             + (a * sin m' + b * cos m') * (a * sin m' + b * cos m') - (a * a + b * b))
      with ((a * a + b * b) * (sin m' * sin m' + cos m' * cos m' - 1)) by ring.
    rewrite P; ring. }
  apply Rmult_integral in K; destruct K as [K|K]; [lra|].
  apply (cos_ne_1_window (m - m') Hwindow); lra.
Qed.

(** ** Explicit instances: d = 4 and d = 8, base 10000, from the general theorems *)

Example rope_relative_matrix_instance_d4 :
  forall (m n : R) (i j : nat),
    mat_mul 4 (transpose (rope_matrix (roformer_theta 2) 2 m)) (rope_matrix (roformer_theta 2) 2 n) i j
    = rope_matrix (roformer_theta 2) 2 (n - m) i j.
Proof. intros; apply (rope_relative_matrix 2). Qed.

Example rope_relative_matrix_instance_d8 :
  forall (m n : R) (i j : nat),
    mat_mul 8 (transpose (rope_matrix (roformer_theta 4) 4 m)) (rope_matrix (roformer_theta 4) 4 n) i j
    = rope_matrix (roformer_theta 4) 4 (n - m) i j.
Proof. intros; apply (rope_relative_matrix 4). Qed.

Example rope_qk_relative_instance_d4 :
  forall (Wq Wk : mat) (xm xn : vec) (m n : R),
    dot 4 (mat_vec 4 (rope_matrix (roformer_theta 2) 2 m) (mat_vec 4 Wq xm))
          (mat_vec 4 (rope_matrix (roformer_theta 2) 2 n) (mat_vec 4 Wk xn))
    = dot 4 xm (mat_vec 4 (transpose Wq) (mat_vec 4 (rope_matrix (roformer_theta 2) 2 (n - m)) (mat_vec 4 Wk xn))).
Proof. intros; apply (rope_qk_relative 2 4). Qed.

Example rope_qk_relative_instance_d8 :
  forall (Wq Wk : mat) (xm xn : vec) (m n : R),
    dot 8 (mat_vec 8 (rope_matrix (roformer_theta 4) 4 m) (mat_vec 8 Wq xm))
          (mat_vec 8 (rope_matrix (roformer_theta 4) 4 n) (mat_vec 8 Wk xn))
    = dot 8 xm (mat_vec 8 (transpose Wq) (mat_vec 8 (rope_matrix (roformer_theta 4) 4 (n - m)) (mat_vec 8 Wk xn))).
Proof. intros; apply (rope_qk_relative 4 8). Qed.

Example rope_norm_preserving_instance_d4 :
  forall (m : R) (x : vec), sqrt (norm2 4 (rope (roformer_theta 2) 2 m x)) = sqrt (norm2 4 x).
Proof. intros; apply (proj1 rope_norm_preserving 2%nat). Qed.

Example rope_norm_preserving_instance_d8 :
  forall (m : R) (x : vec), sqrt (norm2 8 (rope (roformer_theta 4) 4 m x)) = sqrt (norm2 8 x).
Proof. intros; apply (proj1 rope_norm_preserving 4%nat). Qed.

Example rope_dot_property_003_instance_d4 :
  forall (q k : vec) (m n : R),
    dot 4 (rope (roformer_theta 2) 2 m q) (rope (roformer_theta 2) 2 n k)
    = dot 4 q (mat_vec 4 (rope_matrix (roformer_theta 2) 2 (n - m)) k).
Proof. intros; apply (proj2 rope_dot_property_003 2%nat). Qed.

Example rope_dot_property_003_instance_d8 :
  forall (q k : vec) (m n : R),
    dot 8 (rope (roformer_theta 4) 4 m q) (rope (roformer_theta 4) 4 n k)
    = dot 8 q (mat_vec 8 (rope_matrix (roformer_theta 4) 4 (n - m)) k).
Proof. intros; apply (proj2 rope_dot_property_003 4%nat). Qed.

Example rope_shift_invariance_003_instance_d4 :
  forall (q k : vec) (m n delta : R),
    dot 4 (rope (roformer_theta 2) 2 (m + delta) q) (rope (roformer_theta 2) 2 (n + delta) k)
    = dot 4 (rope (roformer_theta 2) 2 m q) (rope (roformer_theta 2) 2 n k).
Proof. intros; apply (rope_shift_invariance_003 2). Qed.

Example rope_shift_invariance_003_instance_d8 :
  forall (q k : vec) (m n delta : R),
    dot 8 (rope (roformer_theta 4) 4 (m + delta) q) (rope (roformer_theta 4) 4 (n + delta) k)
    = dot 8 (rope (roformer_theta 4) 4 m q) (rope (roformer_theta 4) 4 n k).
Proof. intros; apply (rope_shift_invariance_003 4). Qed.

Example rope_kv_cos_only_correction_instance_d4 :
  forall (q k : vec) (m n : R),
    dot 4 (rope (roformer_theta 2) 2 m q) (rope (roformer_theta 2) 2 n k)
    = sum 2 (fun i => dot_pair q k i * cos ((m - n) * roformer_theta 2 i)
                      + cross_pair q k i * sin ((m - n) * roformer_theta 2 i)).
Proof. intros; apply (rope_kv_cos_only_correction 2). Qed.

Example rope_kv_cos_only_correction_instance_d8 :
  forall (q k : vec) (m n : R),
    dot 8 (rope (roformer_theta 4) 4 m q) (rope (roformer_theta 4) 4 n k)
    = sum 4 (fun i => dot_pair q k i * cos ((m - n) * roformer_theta 4 i)
                      + cross_pair q k i * sin ((m - n) * roformer_theta 4 i)).
Proof. intros; apply (rope_kv_cos_only_correction 4). Qed.

(** ** ROPE-SINE-TERM-WHOLE-SCORE-003 *)

(* "The sine term is the phase-sensitive part ... not just a negligible
   correction": when each query pair is orthogonal to its key pair the whole
   score is the sine term, for every even d and spectrum; e_0 against e_1
   scores sin((m - n) theta_0). *)
Theorem rope_sine_term_whole_score_003 :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
      (forall i, (i < h)%nat -> dot_pair q k i = 0) ->
      dot (2 * h) (rope theta h m q) (rope theta h n k)
      = sum h (fun i => cross_pair q k i * sin ((m - n) * theta i)))
  /\ (forall (h : nat) (theta : nat -> R) (m n : R), (1 <= h)%nat ->
      dot (2 * h) (rope theta h m (basis 0)) (rope theta h n (basis 1)) = sin ((m - n) * theta 0%nat)).
Proof.
  split.
  - intros h theta q k m n Horth; rewrite rope_kv_cos_only_correction.
    apply sum_ext; intros i Hi; rewrite (Horth i Hi); ring.
  - intros; apply rope_score_e0_e1; assumption.
Qed.

(* The definitions live in DefsRope.v; these abbreviations keep `Rope.name` working for importers. *)
Notation cis := DefsRope.cis (only parsing).
Notation hdot := DefsRope.hdot (only parsing).
Notation pair_of := DefsRope.pair_of (only parsing).
Notation rot_matrix := DefsRope.rot_matrix (only parsing).
Notation pair_score := DefsRope.pair_score (only parsing).
Notation cross_pair := DefsRope.cross_pair (only parsing).
Notation dot_pair := DefsRope.dot_pair (only parsing).
Notation roformer_theta := DefsRope.roformer_theta (only parsing).
Notation slice := DefsRope.slice (only parsing).
Notation rope_frequency_1based := DefsRope.rope_frequency_1based (only parsing).
Notation sinusoidal_omega := DefsRope.sinusoidal_omega (only parsing).
