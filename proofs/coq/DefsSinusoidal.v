(** * DefsSinusoidal: the definitions Sinusoidal.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Sinusoidal.v. *)

From Coq Require Import Reals Lia Lra.
From Ropecheck Require Import Defs.
Open Scope R_scope.

Definition pe (w : nat -> R) (p : R) : vec :=
  fun j => if Nat.even j then sin (p * w (Nat.div2 j)) else cos (p * w (Nat.div2 j)).

(* The encoding of the seeds: base 10000, dimension d = 2h. *)
Definition spe (h : nat) (p : R) : vec := pe (rope_spectrum 10000 h) p.

Definition vadd (x y : vec) : vec := fun j => x j + y j.

Definition identity : mat := fun i j => basis j i.

Definition wavelength (d i : nat) : R := 2 * PI / rope_frequency 10000 d i.

Definition e00 : mat := fun r c => basis 0 r * basis 0 c.

(* W_Q^T W_K built from scaled rotations [[a_i, -b_i], [b_i, a_i]], one per
   frequency and no coupling across frequencies: these commute with every shift
   of the encoding, which is what makes the last term relative. *)
Definition scaled_rotation_blocks (a b : nat -> R) : mat := fun r c =>
  if Nat.eqb (Nat.div2 r) (Nat.div2 c) then
    (if Nat.eqb r c then a (Nat.div2 r) else if Nat.even r then - b (Nat.div2 r) else b (Nat.div2 r))
  else 0.

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
