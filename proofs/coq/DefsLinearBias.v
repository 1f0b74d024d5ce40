(** * DefsLinearBias: the definitions LinearBias.v states its claim with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in LinearBias.v. *)

From Coq Require Import ZArith Reals Lia Lra.
From Ropecheck Require Import Defs DefsRelative.
Open Scope R_scope.

(* The unnormalised weight of the query at position i on the key at position j
   when a relative bias b(j - i) is added to the logit: exp(s + b) = exp(s) exp(b),
   so the kernel part kappa(i, j) (exp(q_i . k_j) for softmax, phi(q_i) . phi(k_j)
   for a kernelised attention) is multiplied by exp(b(j - i)). *)
Definition biased_weight (kappa : Z -> Z -> R) (b : Z -> R) (i j : Z) : R :=
  kappa i j * exp (b (j - i)%Z).

(* What linear attention can compute with one summary sum_j g(j) phi(k_j) v_j^T
   shared by every query: the kernel part times a factor per query and a factor
   per key (a per-query factor cancels in the normalised output). *)
Definition factored_weight (kappa : Z -> Z -> R) (f g : Z -> R) (i j : Z) : R :=
  f i * g j * kappa i j.

(* Shaw-style clipping of a learned scalar bias table beta at the window K. *)
Definition clipped_bias (K : Z) (beta : Z -> R) (r : Z) : R := beta (clip K r).

(* The table 1 at offset 0, 0 elsewhere: with Shaw's window 1 its weights over
   L positions are e on the diagonal and 1 off it (the rank reading of
   RPE-BREAKS-LINEAR-ATTENTION). *)
Definition one_hot_bias (r : Z) : R := if Z.eqb r 0 then 1 else 0.
