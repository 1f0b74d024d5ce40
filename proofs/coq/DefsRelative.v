(** * DefsRelative: the definitions Relative.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Relative.v. *)

From Coq Require Import Reals Lia Lra ZArith List.
From Ropecheck Require Import Defs.
Import ListNotations.
Open Scope R_scope.

(* Shaw's window: offsets beyond +-K share the table's end rows. *)
Definition clip (K r : Z) : Z := Z.max (- K) (Z.min K r).

Definition bias_score (d : nat) (b : Z -> R) (q k : vec) (i j : Z) : R :=
  dot d q k + b (j - i)%Z.

Definition shaw_score (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j : Z) : R :=
  (dot d q k + dot d q (RK (clip K (j - i)))) / sqrt (INR d).

(* The scores of a sequence X (the token at each position) under projections
   W_Q, W_K: the query and the key are the tokens found at positions i and j. *)
Definition sequence_shaw_score (d : nat) (K : Z) (RK : Z -> vec) (WQ WK : mat) (X : Z -> vec) (i j : Z) : R :=
  shaw_score d K RK (mat_vec d WQ (X i)) (mat_vec d WK (X j)) i j.

Definition sequence_bias_score (d : nat) (b : Z -> R) (WQ WK : mat) (X : Z -> vec) (i j : Z) : R :=
  bias_score d b (mat_vec d WQ (X i)) (mat_vec d WK (X j)) i j.

(* The same sequence moved right by delta positions. *)
Definition shift_sequence (delta : Z) (X : Z -> vec) : Z -> vec := fun t => X (t - delta)%Z.

(* Token j of a decoded sequence sits at position j; the query of the token at
   position t scores the key at position j with the offset j - t. *)
Definition step_score (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (t j : nat) : R :=
  shaw_score d K RK q k (Z.of_nat t) (Z.of_nat j).

(* Softmax attention of a query at position t over the keys and values j < n. *)
Definition attend (d : nat) (K : Z) (RK : Z -> vec) (q : vec) (t n : nat) (key value : nat -> vec) : vec :=
  fun c => sum n (fun j => exp (step_score d K RK q (key j) t j) * value j c)
           / sum n (fun j => exp (step_score d K RK q (key j) t j)).

(* Without a cache: at step t every key and value of the tokens x_0 .. x_t is
   recomputed from the tokens. *)
Definition attend_from_scratch (d : nat) (K : Z) (RK : Z -> vec) (WQ WK WV : mat) (x : nat -> vec) (t : nat) : vec :=
  attend d K RK (mat_vec d WQ (x t)) t (S t) (fun j => mat_vec d WK (x j)) (fun j => mat_vec d WV (x j)).

(* The KV cache: token j contributes its entry (K_j, V_j) once, when it
   arrives, and the entry is appended, never rewritten. *)
Definition cache_entry (d : nat) (WK WV : mat) (xj : vec) : vec * vec := (mat_vec d WK xj, mat_vec d WV xj).

Fixpoint kv_cache (d : nat) (WK WV : mat) (x : nat -> vec) (n : nat) : list (vec * vec) :=
  match n with
  | O => []
  | S m => kv_cache d WK WV x m ++ [cache_entry d WK WV (x m)]
  end.

Definition no_entry : vec * vec := (fun _ => 0, fun _ => 0).

(* One decoding step from the cache: it reads the cached entries, the new
   query and its position t; the bias R^K_{clip(j - t)} is looked up from the
   learned table at this step, which is all that depends on t. *)
Definition attend_from_cache (d : nat) (K : Z) (RK : Z -> vec) (entries : list (vec * vec)) (q : vec) (t : nat) : vec :=
  attend d K RK q t (length entries)
    (fun j => fst (nth j entries no_entry)) (fun j => snd (nth j entries no_entry)).
