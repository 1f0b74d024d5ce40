(** * DefsAverages: the definitions Averages.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Averages.v. *)

From Coq Require Import Reals Lia Lra.
From Ropecheck Require Import Defs DefsSinusoidal.
Open Scope R_scope.

(* The mean of the score over the n distances M, M + 1, ..., M + n - 1. *)
Definition window_mean (h : nat) (p : R) (M n : nat) : R :=
  sum n (fun D => dot (2 * h) (spe h p) (spe h (p + INR (M + D)))) / INR n.
