(** * DefsAttention: the definitions Attention.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Attention.v. *)

From Coq Require Import Reals Lra.
Set Warnings "-notation-overridden".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq fintype bigop.
Set Warnings "notation-overridden".
From Ropecheck Require Defs.
Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Local Open Scope R_scope.

Notation "\rsum_ ( i < n ) F" := (\big[Rplus/0]_(i < n) F)
  (at level 41, F at level 41, i, n at level 50) : R_scope.

Notation "\rsum_ ( m <= i < n ) F" := (\big[Rplus/0]_(m <= i < n) F)
  (at level 41, F at level 41, i, m, n at level 50) : R_scope.

Definition mat (r c : nat) := 'I_r -> 'I_c -> R.

Definition mmul {r k c : nat} (A : mat r k) (B : mat k c) : mat r c :=
  fun i j => \rsum_(l < k) (A i l * B l j).

Definition transpose {r c : nat} (A : mat r c) : mat c r := fun i j => A j i.

Definition scale {r c : nat} (s : R) (A : mat r c) : mat r c := fun i j => s * A i j.

(* The permutation matrix of sigma: row i has its single 1 in column sigma i,
   so (P X)_i = X_{sigma i}.  A bijection of 'I_n is an injective map. *)
Definition perm_matrix {n : nat} (sigma : 'I_n -> 'I_n) : mat n n :=
  fun i j => if sigma i == j then 1 else 0.

(* Row-wise softmax, exactly as the seeds write it: exp(A_ij) / sum_k exp(A_ik). *)
Definition softmax {n : nat} (A : mat n n) : mat n n :=
  fun i j => exp (A i j) / \rsum_(k < n) exp (A i k).

(* Scores Q K^T with Q = X W^Q, K = X W^K. *)
Definition scores {n d dk : nat} (X : mat n d) (WQ WK : mat d dk) : mat n n :=
  mmul (mmul X WQ) (transpose (mmul X WK)).

(* softmax(s Q K^T) V for an arbitrary scale s. *)
Definition attention_scaled {n d dk dv : nat} (s : R) (X : mat n d)
    (WQ WK : mat d dk) (WV : mat d dv) : mat n dv :=
  mmul (softmax (scale s (scores X WQ WK))) (mmul X WV).

(* Attn(X) = softmax(Q K^T / sqrt d_k) V, the seeds' definition (000, 001). *)
Definition attention {n d dk dv : nat} (X : mat n d)
    (WQ WK : mat d dk) (WV : mat d dv) : mat n dv :=
  attention_scaled (/ sqrt (INR dk)) X WQ WK WV.

(* The identity matrix is the permutation matrix of the identity map; with
   it as tokens the scores read off M directly. *)
Definition unit_matrix (n : nat) : mat n n := perm_matrix id.
Arguments unit_matrix n : clear implicits.

Definition attention_symmetry_reading : Prop :=
  forall (n d dk : nat) (X : mat n d) (WQ WK : mat d dk) (i j : 'I_n),
    scores X WQ WK i j = scores X WQ WK j i.

(* The point: two tokens e_0, e_1 in d = d_k = 2, W^Q = I and W^K with a single
   off-diagonal 1, so that M = W^Q W^K^T is not symmetric. *)
Definition key_projection_shear : mat 2 2 :=
  fun a b => if (nat_of_ord a == 0%N) && (nat_of_ord b == 1%N) then 1 else 0.

(* Tokens are numbered from 0 here; the seeds number them from 1.  Token t
   attends with scores e t j to values V j (coordinate c).  The seeds' decode
   step (000, 001) normalises over and sums the cached tokens j = 1 .. t-1,
   i.e. the tokens before t: *)
Definition decode_over_cache (e : nat -> nat -> R) (V : nat -> nat -> R) (t c : nat) : R :=
  \rsum_(0 <= j < t) (exp (e t j) / (\rsum_(0 <= k < t) exp (e t k)) * V j c).

(* Causal self-attention as usually defined: token t attends to j <= t. *)
Definition causal_row (e : nat -> nat -> R) (V : nat -> nat -> R) (t c : nat) : R :=
  \rsum_(0 <= j < t.+1) (exp (e t j) / (\rsum_(0 <= k < t.+1) exp (e t k)) * V j c).

(* Causal attention over the whole sequence of n tokens: the mask gives the
   future tokens weight exp(-oo) = 0. *)
Definition causal_weight (e : nat -> nat -> R) (t j : nat) : R :=
  if (j <= t)%N then exp (e t j) else 0.

Definition masked_attention_row (n : nat) (e V : nat -> nat -> R) (t c : nat) : R :=
  \rsum_(0 <= j < n) (causal_weight e t j / (\rsum_(0 <= k < n) causal_weight e t k) * V j c).

(* The reading decided: "y_t = sum_{j=1}^{t-1} alpha_tj V_j with
   alpha_tj = softmax(e_tj) over the cache is the causal self-attention output
   of token t".  It fails: the current token is left out.  At t = 1 (the second
   token), equal scores and V = (0, 1): the cache gives 0, causal attention 1/2. *)
Definition causal_row_reading : Prop :=
  forall (e V : nat -> nat -> R) (t c : nat), decode_over_cache e V t c = causal_row e V t c.

Definition madd {r c : nat} (A B : mat r c) : mat r c := fun i j => A i j + B i j.

(* The sinusoidal table of 000/001 for n positions in dimension d:
   PE_{p,2i} = sin(p w_i), PE_{p,2i+1} = cos(p w_i), w_i = 10000^(-2i/d). *)
Definition sinusoidal_pe (n d : nat) : mat n d :=
  fun p j => let w := Defs.rope_frequency 10000 d (Nat.div2 j) in
             if odd j then cos (INR p * w) else sin (INR p * w).
Arguments sinusoidal_pe n d : clear implicits.

Definition zero_matrix (r c : nat) : mat r c := fun _ _ => 0.
Arguments zero_matrix r c : clear implicits.

(* Row i of a matrix as a vector of Defs.v (coordinates past the width are 0). *)
Definition to_vec {n d : nat} (A : mat n d) (i : 'I_n) : Defs.vec :=
  fun j => \rsum_(a < d) (if nat_of_ord a == j then A i a else 0).

(* RoPE on queries and keys, token i at position i (d_k = 2h). *)
Definition rope_scores (theta : nat -> R) (h : nat) {n d dk : nat} (X : mat n d)
    (WQ WK : mat d dk) : mat n n :=
  fun i j => Defs.dot (2 * h) (Defs.rope theta h (INR i) (to_vec (mmul X WQ) i))
                               (Defs.rope theta h (INR j) (to_vec (mmul X WK) j)).

Definition rope_attention (theta : nat -> R) (h : nat) {n d dk dv : nat} (X : mat n d)
    (WQ WK : mat d dk) (WV : mat d dv) : mat n dv :=
  mmul (softmax (scale (/ sqrt (INR dk)) (rope_scores theta h X WQ WK))) (mmul X WV).

(* The two tokens e_0, e_1 of the RoPE witness. *)
Definition two_axes : mat 2 2 := unit_matrix 2.
