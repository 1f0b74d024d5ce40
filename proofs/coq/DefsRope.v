(** * DefsRope: the definitions Rope.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Rope.v. *)

From Coq Require Import Reals Lia Lra.
From Coquelicot Require Import Complex.
From Ropecheck Require Import Defs.
Open Scope R_scope.

Definition cis (a : R) : C := (cos a, sin a).

(* Hermitian inner product <z, w> = sum_j z_j conj(w_j) of complex vectors. *)
Definition hdot (d : nat) (z w : nat -> C) : C :=
  (sum d (fun j => Re (Cmult (z j) (Cconj (w j)))),
   sum d (fun j => Im (Cmult (z j) (Cconj (w j))))).

(* Pair [i] of a real vector read as the complex number x_{2i} + i x_{2i+1}. *)
Definition pair_of (x : vec) (i : nat) : C := (x (2 * i)%nat, x (S (2 * i))).

(* The explicit 2x2 rotation matrix the sources draw, on indices 0 and 1. *)
Definition rot_matrix (a : R) : mat :=
  fun r s =>
    match r, s with
    | O, O => cos a
    | O, S O => - sin a
    | S O, O => sin a
    | S O, S O => cos a
    | _, _ => 0
    end.

(* The score of pair [i] alone: 003's score_i and <RoPE(q,m,i), RoPE(k,n,i)>. *)
Definition pair_score (theta : nat -> R) (h : nat) (m n : R) (q k : vec) (i : nat) : R :=
  rope theta h m q (2 * i)%nat * rope theta h n k (2 * i)%nat
  + rope theta h m q (S (2 * i)) * rope theta h n k (S (2 * i)).

(* The two-coordinate cross term q_{2i} k_{2i+1} - q_{2i+1} k_{2i}. *)
Definition cross_pair (q k : vec) (i : nat) : R :=
  q (2 * i)%nat * k (S (2 * i)) - q (S (2 * i)) * k (2 * i)%nat.

Definition dot_pair (q k : vec) (i : nat) : R :=
  q (2 * i)%nat * k (2 * i)%nat + q (S (2 * i)) * k (S (2 * i)).

(* The RoFormer spectrum at base 10000 for d = 2h, used by the Examples. *)
Definition roformer_theta (h : nat) : nat -> R := rope_spectrum 10000 h.

(* Pair i of a vector, as a 2-vector: 003's q_i. *)
Definition slice (x : vec) (i : nat) : vec := fun r => x (2 * i + r)%nat.

(* 001/002's theta_i = 10000^{-2(i-1)/d}, i = 1 .. d/2 (the lost caret of 001
   restored, as the Python ledger reads it). *)
Definition rope_frequency_1based (d i : nat) : R := Rpower 10000 (- (2 * (INR i - 1)) / INR d).

(* The sinusoidal encoding's omega_j = 10000^{-2j/d}, j = 0 .. d/2 - 1. *)
Definition sinusoidal_omega (d j : nat) : R := Rpower 10000 (- (2 * INR j) / INR d).
