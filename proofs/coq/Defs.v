(** * Defs: the objects the ropecheck ledger speaks about, stated once.

    Conventions fixed here and used by every other file of the development:
    - Reals are Coq's classical reals ([Reals]); positions are reals [m : R]
      (a statement for every real position covers every integer position).
    - A vector of dimension [d] is a function [vec := nat -> R]; only the
      coordinates [0 .. d-1] are read by [dot] and the matrix products.
    - Finite sums are mathcomp [bigop] over natural ranges:
      [sum n f = \big[Rplus/0]_(0 <= i < n) f i].  The ssreflect notations are
      confined to the module [Big] below, so that the public statements use
      Coq's ordinary [nat] arithmetic ([Nat.mul], [lt]) and a file importing
      [Defs] needs neither ssreflect nor mathcomp.  The public API is the family
      [sum_*] of lemmas in this file (recursion, splitting, linearity,
      reindexing, exchange, pairing, bounds).
    - RoPE uses the interleaved layout of RoFormer Eq. (34): pair [i] is the
      coordinates [(2i, 2i+1)], rotated counter-clockwise by [m * theta i]:
      [(x1, x2) |-> (x1 cos a - x2 sin a, x1 sin a + x2 cos a)].
    - Coordinates at or beyond [d = 2h] of a RoPE output are [0], so that
      matrix identities hold entrywise for every pair of indices. *)

From Coq Require Import Reals Lia Lra.
From mathcomp Require ssreflect ssrfun ssrbool eqtype ssrnat seq bigop.

Open Scope R_scope.

(** ** Finite sums through mathcomp bigop *)

Module Big.
Local Set Warnings "-notation-overridden".
Import ssreflect ssrfun ssrbool eqtype ssrnat seq bigop.

(* [Rplus] must be a commutative monoid for the bigop lemmas to apply. *)
Lemma Rplus_assoc_ssr : associative Rplus.
Proof. by move=> x y z; rewrite Rplus_assoc. Qed.

Canonical Rplus_monoid := Monoid.Law Rplus_assoc_ssr Rplus_0_l Rplus_0_r.
Canonical Rplus_comoid := Monoid.ComLaw Rplus_comm.

Definition sum (n : nat) (f : nat -> R) : R := \big[Rplus/0]_(0 <= i < n) f i.

Lemma sum_0 f : sum 0 f = 0.
Proof. by rewrite /sum big_geq. Qed.

Lemma sum_S n f : sum n.+1 f = sum n f + f n.
Proof. by rewrite /sum big_nat_recr. Qed.

Lemma sum_first n f : sum n.+1 f = f 0%N + sum n (fun i => f i.+1).
Proof. by rewrite /sum big_nat_recl. Qed.

Lemma sum_plus n f g : sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. by rewrite /sum big_split. Qed.

Lemma sum_ext n f g : (forall i, (i < n)%coq_nat -> f i = g i) -> sum n f = sum n g.
Proof. by move=> eq_fg; apply: eq_big_nat => i /andP [_ /ltP]; apply: eq_fg. Qed.

Lemma sum_rev n f : sum n f = sum n (fun i => f (n - i.+1)%coq_nat).
Proof. by rewrite /sum big_nat_rev. Qed.

Lemma sum_swap n p (f : nat -> nat -> R) :
  sum n (fun i => sum p (fun j => f i j)) = sum p (fun j => sum n (fun i => f i j)).
Proof. by rewrite /sum exchange_big_nat. Qed.

Lemma sum_shift a n f : sum (a + n) f = sum a f + sum n (fun i => f (a + i)%coq_nat).
Proof.
rewrite /sum (big_cat_nat _ _ _ (leq0n a) (leq_addr n a)) /=; congr (_ + _).
rewrite -{1}(add0n a) big_addn addKn.
by apply: eq_big_nat => i _; rewrite addnC.
Qed.
End Big.

Definition sum : nat -> (nat -> R) -> R := Big.sum.

Lemma sum_0 f : sum 0 f = 0.
Proof. exact (Big.sum_0 f). Qed.

Lemma sum_S n f : sum (S n) f = sum n f + f n.
Proof. exact (Big.sum_S n f). Qed.

Lemma sum_first n f : sum (S n) f = f 0%nat + sum n (fun i => f (S i)).
Proof. exact (Big.sum_first n f). Qed.

Lemma sum_plus n f g : sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. exact (Big.sum_plus n f g). Qed.

Lemma sum_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof. exact (Big.sum_ext n f g). Qed.

Lemma sum_rev n f : sum n f = sum n (fun i => f (n - S i)%nat).
Proof. exact (Big.sum_rev n f). Qed.

Lemma sum_swap n p (f : nat -> nat -> R) :
  sum n (fun i => sum p (fun j => f i j)) = sum p (fun j => sum n (fun i => f i j)).
Proof. exact (Big.sum_swap n p f). Qed.

Lemma sum_shift a n f : sum (a + n) f = sum a f + sum n (fun i => f (a + i)%nat).
Proof. exact (Big.sum_shift a n f). Qed.

Lemma sum_scal_l n c f : sum n (fun i => c * f i) = c * sum n f.
Proof.
  induction n as [|n IH].
  - rewrite !sum_0; ring.
  - rewrite !sum_S, IH; ring.
Qed.

Lemma sum_scal_r n c f : sum n (fun i => f i * c) = sum n f * c.
Proof.
  induction n as [|n IH].
  - rewrite !sum_0; ring.
  - rewrite !sum_S, IH; ring.
Qed.

Lemma sum_opp n f : sum n (fun i => - f i) = - sum n f.
Proof.
  induction n as [|n IH].
  - rewrite !sum_0; ring.
  - rewrite !sum_S, IH; ring.
Qed.

Lemma sum_minus n f g : sum n (fun i => f i - g i) = sum n f - sum n g.
Proof.
  unfold Rminus. rewrite sum_plus, sum_opp. reflexivity.
Qed.

Lemma sum_const_0 n : sum n (fun _ => 0) = 0.
Proof.
  induction n as [|n IH].
  - apply sum_0.
  - rewrite sum_S, IH; ring.
Qed.

(* An even-length sum regrouped into consecutive pairs: the shape of every
   RoPE argument, since RoPE acts on the pairs (2i, 2i+1). *)
Lemma sum_pairs h f : sum (2 * h) f = sum h (fun i => f (2 * i)%nat + f (S (2 * i))).
Proof.
  induction h as [|h IH].
  - rewrite !sum_0; reflexivity.
  - replace (2 * S h)%nat with (S (S (2 * h))) by lia.
    rewrite !sum_S, IH; ring.
Qed.

(* A sum whose terms vanish off one index: how a basis vector picks a
   coordinate or a block-diagonal matrix picks its block. *)
Lemma sum_single n k f :
  (k < n)%nat -> (forall i, (i < n)%nat -> i <> k -> f i = 0) -> sum n f = f k.
Proof.
  induction n as [|n IH]; intros Hk Hzero; [lia|].
  rewrite sum_S.
  destruct (Nat.eq_dec k n) as [->|Hne].
  - rewrite (sum_ext n f (fun _ => 0)), sum_const_0; [ring|].
    intros i Hi; apply Hzero; lia.
  - rewrite IH, (Hzero n); [ring|lia|lia|lia|].
    intros i Hi Hik; apply Hzero; lia.
Qed.

(* Bounds for the decay and averaging claims. *)
Lemma sum_le n f g : (forall i, (i < n)%nat -> f i <= g i) -> sum n f <= sum n g.
Proof.
  induction n as [|n IH]; intros Hle.
  - rewrite !sum_0; lra.
  - rewrite !sum_S.
    apply Rplus_le_compat; [apply IH; intros i Hi|]; apply Hle; lia.
Qed.

Lemma sum_abs_le n f : Rabs (sum n f) <= sum n (fun i => Rabs (f i)).
Proof.
  induction n as [|n IH].
  - rewrite !sum_0, Rabs_R0; lra.
  - rewrite !sum_S.
    eapply Rle_trans; [apply Rabs_triang|]; lra.
Qed.

(** ** Vectors, dot product, matrices *)

Definition vec := nat -> R.

(* The dot product over the first [d] coordinates. *)
Definition dot (d : nat) (x y : vec) : R := sum d (fun j => x j * y j).

(* Squared Euclidean norm; norm claims are stated on it (no square roots). *)
Definition norm2 (d : nat) (x : vec) : R := dot d x x.

Definition mat := nat -> nat -> R.

Definition mat_vec (d : nat) (A : mat) (x : vec) : vec := fun i => sum d (fun j => A i j * x j).

Definition transpose (A : mat) : mat := fun i j => A j i.

Definition mat_mul (d : nat) (A B : mat) : mat := fun i j => sum d (fun k => A i k * B k j).

Definition basis (j : nat) : vec := fun k => if Nat.eqb k j then 1 else 0.

Lemma dot_comm d x y : dot d x y = dot d y x.
Proof. unfold dot; apply sum_ext; intros; ring. Qed.

(* Moving a matrix across the dot product: the step behind x^T W^T R W x forms. *)
Lemma dot_mat_vec_transpose d A x y :
  dot d (mat_vec d A x) y = dot d x (mat_vec d (transpose A) y).
Proof.
  unfold dot, mat_vec, transpose.
  rewrite (sum_ext d _ (fun i => sum d (fun j => A i j * x j * y i)))
    by (intros; rewrite <- sum_scal_r; reflexivity).
  rewrite sum_swap.
  apply sum_ext; intros j _.
  rewrite <- sum_scal_l; apply sum_ext; intros; ring.
Qed.

(* The same for a rectangular [A] (d rows read, e columns): W_q in R^{d x e}. *)
Lemma dot_mat_vec_transpose_rect d e A x y :
  dot d (mat_vec e A x) y = dot e x (mat_vec d (transpose A) y).
Proof.
  unfold dot, mat_vec, transpose.
  rewrite (sum_ext d _ (fun i => sum e (fun j => A i j * x j * y i)))
    by (intros; rewrite <- sum_scal_r; reflexivity).
  rewrite sum_swap.
  apply sum_ext; intros j _.
  rewrite <- sum_scal_l; apply sum_ext; intros; ring.
Qed.

(* A basis vector picks one coordinate out of a dot product. *)
Lemma dot_basis_l d i y : (i < d)%nat -> dot d (basis i) y = y i.
Proof.
  intros Hi; unfold dot, basis.
  rewrite (sum_single d i); [rewrite Nat.eqb_refl; ring|exact Hi|].
  intros j _ Hj; apply Nat.eqb_neq in Hj; rewrite Hj; ring.
Qed.

Lemma dot_basis_l_beyond d i y : (d <= i)%nat -> dot d (basis i) y = 0.
Proof.
  intros Hi; unfold dot, basis.
  rewrite (sum_ext d _ (fun _ => 0)); [apply sum_const_0|].
  intros j Hj; replace (Nat.eqb j i) with false; [ring|].
  symmetry; apply Nat.eqb_neq; lia.
Qed.

(** ** The 2x2 rotation on pairs *)

(* Counter-clockwise rotation by angle [a]. *)
Definition rot (a : R) (p : R * R) : R * R :=
  (fst p * cos a - snd p * sin a, fst p * sin a + snd p * cos a).

(** ** The RoPE map, interleaved pairs, any even dimension d = 2h *)

(* Coordinate [j] of the RoPE of [x] at position [m]: pair [i = j / 2] is
   rotated by [m * theta i]; [j] even is the first coordinate of the pair. *)
Definition rope (theta : nat -> R) (h : nat) (m : R) (x : vec) : vec :=
  fun j =>
    let i := Nat.div2 j in
    if Nat.ltb i h then
      (if Nat.even j then fst else snd)
        (rot (m * theta i) (x (2 * i)%nat, x (S (2 * i))))
    else 0.

(* The block-diagonal matrix R^d_{Theta,m} of RoFormer Eq. (15): its column
   [j] is the RoPE of the basis vector [e_j]. *)
Definition rope_matrix (theta : nat -> R) (h : nat) (m : R) : mat :=
  fun i j => rope theta h m (basis j) i.

(** ** The frequency spectrum *)

(* theta_i = base^(-2i/d), i = 0 .. d/2 - 1 (0-based, as in GUIDE.md). *)
Definition rope_frequency (base : R) (d i : nat) : R :=
  Rpower base (- (2 * INR i) / INR d).

(* The spectrum of a RoPE of dimension d = 2h. *)
Definition rope_spectrum (base : R) (h : nat) : nat -> R :=
  rope_frequency base (2 * h).

(** ** Reading RoPE coordinates pair by pair *)

Lemma div2_double i : Nat.div2 (2 * i) = i.
Proof. apply Nat.div2_double. Qed.

Lemma div2_double_S i : Nat.div2 (S (2 * i)) = i.
Proof. apply Nat.div2_succ_double. Qed.

Lemma even_double i : Nat.even (2 * i) = true.
Proof. apply Nat.even_spec; exists i; reflexivity. Qed.

Lemma even_double_S i : Nat.even (S (2 * i)) = false.
Proof. rewrite Nat.even_succ, <- Nat.negb_even, even_double; reflexivity. Qed.

Lemma rope_even theta h m x i :
  (i < h)%nat -> rope theta h m x (2 * i)%nat = fst (rot (m * theta i) (x (2 * i)%nat, x (S (2 * i)))).
Proof.
  intros Hi; unfold rope.
  rewrite div2_double, even_double.
  apply Nat.ltb_lt in Hi; rewrite Hi; reflexivity.
Qed.

Lemma rope_odd theta h m x i :
  (i < h)%nat -> rope theta h m x (S (2 * i)) = snd (rot (m * theta i) (x (2 * i)%nat, x (S (2 * i)))).
Proof.
  intros Hi; unfold rope.
  rewrite div2_double_S, even_double_S.
  apply Nat.ltb_lt in Hi; rewrite Hi; reflexivity.
Qed.

Lemma rope_beyond theta h m x j : (2 * h <= j)%nat -> rope theta h m x j = 0.
Proof.
  intros Hj; unfold rope.
  replace (Nat.ltb (Nat.div2 j) h) with false; [reflexivity|].
  symmetry; apply Nat.ltb_ge.
  destruct (Nat.Even_or_Odd j) as [[k ->]|[k ->]].
  - rewrite div2_double; lia.
  - rewrite Nat.add_1_r, div2_double_S; lia.
Qed.

(* Every index is the first or second coordinate of its pair. *)
Lemma index_pair j : j = (2 * Nat.div2 j)%nat \/ j = S (2 * Nat.div2 j).
Proof.
  destruct (Nat.Even_or_Odd j) as [[k ->]|[k ->]].
  - rewrite div2_double; left; reflexivity.
  - rewrite Nat.add_1_r, div2_double_S; right; reflexivity.
Qed.

(* A dot product in dimension 2h is the sum of the pair scores. *)
Lemma dot_pairs h x y :
  dot (2 * h) x y = sum h (fun i => x (2 * i)%nat * y (2 * i)%nat + x (S (2 * i)) * y (S (2 * i))).
Proof. unfold dot; apply sum_pairs. Qed.
