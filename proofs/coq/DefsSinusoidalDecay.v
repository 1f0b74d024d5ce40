(** * DefsSinusoidalDecay: the definitions SinusoidalDecay.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in SinusoidalDecay.v. *)

From Coq Require Import Reals Lia Lra.
From Ropecheck Require Import Defs DefsSinusoidal.
Open Scope R_scope.

(* The running mean of the score over the distances 0 .. N-1 from position p. *)
Definition mean_score (h : nat) (w : nat -> R) (p : R) (N : nat) : R :=
  sum N (fun D => dot (2 * h) (pe w p) (pe w (p + INR D))) / INR N.

(* The score <PE(p), PE(p + D)> of the seeds' encoding as a function of the distance D alone. *)
Definition distance_score (h D : nat) : R := sum h (fun i => cos (rope_spectrum 10000 h i * INR D)).

(* Dirichlet's bound read as a lower bound; the constant is 0 for w = 0, where
   the sum is N. *)
Definition dirichlet_constant (w : R) : R := / Rabs (sin (w / 2)).

(* Per pair (i, j) of frequencies: a lower bound on sum_D cos(w_i D) cos(w_j D)
   that grows like N/2 on the diagonal and stays bounded off it. *)
Definition pair_constant (h i j : nat) : R :=
  let wi := rope_spectrum 10000 h i in let wj := rope_spectrum 10000 h j in
  (if Nat.eqb i j then 0 else dirichlet_constant (wi - wj) / 2) + dirichlet_constant (wi + wj) / 2.

(* A structurally recursive copy of [sum]: [cbv] unrolls it into the explicit
   terms that [interval] evaluates, which the bigop [sum] does not allow. *)
Fixpoint sum_unrolled (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S m => sum_unrolled m f + f m end.

(* The sum of the Dirichlet constants 1/|sin(w_i/2)| of the seeds' spectrum. *)
Definition spectrum_dirichlet_sum (h : nat) : R := sum h (fun i => / Rabs (sin (rope_spectrum 10000 h i / 2))).
