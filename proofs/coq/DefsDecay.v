(** * DefsDecay: the definitions Decay.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Decay.v. *)

From Coq Require Import ZArith Reals Lra Lia.
From Coquelicot Require Import Complex.
From Ropecheck Require Import Defs.
From Ropecheck Require DefsAttention.
Local Open Scope R_scope.

(* Complex sums of the first n terms, built the way Abel's argument peels them. *)
Fixpoint csum (n : nat) (f : nat -> C) : C :=
  match n with
  | O => RtoC 0
  | S k => (csum k f + f k)%C
  end.

(* e^{i x}. *)
Definition phase (x : R) : C := (cos x, sin x).

(* S_j = sum_{k<j} z_k, so S_0 = 0 and z_k = S_{k+1} - S_k. *)
Definition partial_sum (z : nat -> C) (j : nat) : C := csum j z.

(* Positional Interpolation's B(s) = sum_{k<n} |A_{k+1}(s)|, A_k(s) = sum_{j<k} e^(i s theta_j),
   theta_j = c^(-2j/d), d = 2n (Chen et al. 2023, Sec. 2.3; PI-B-EXCEEDS-D). *)
Definition pi_b_sum (c : R) (n : nat) (s : R) : R :=
  sum n (fun k => Cmod (partial_sum (fun j => phase (s * rope_frequency c (2 * n) j)) (S k))).

(* The largest step max_{i<N} |h_{i+1} - h_i| of RoFormer Eq. (37). *)
Fixpoint max_step (h : nat -> C) (N : nat) : R :=
  match N with
  | O => 0
  | S k => Rmax (max_step h k) (Cmod (h (S k) - h k)%C)
  end.

(* <R_m q, R_n k> in dimension d = 2h: the attention score with RoPE. *)
Definition rope_score (theta : nat -> R) (h : nat) (m n : R) (q k : vec) : R :=
  dot (2 * h) (rope theta h m q) (rope theta h n k).

(* The pair weight h_i = q~_i conj(k~_i) of RoFormer section 3.4.3, with
   q~_i = q_{2i} + i q_{2i+1}. *)
Definition pair_weight (q k : vec) (i : nat) : C :=
  ((q (2 * i)%nat, q (S (2 * i))) * Cconj (k (2 * i)%nat, k (S (2 * i))))%C.

(* RoFormer sets h_{d/2} = 0; the weights past the last pair are cut to 0. *)
Definition cut_weight (q k : vec) (h i : nat) : C :=
  if Nat.ltb i h then pair_weight q k i else RtoC 0.

(* The seeds' own formula for the score, sum_j <q_j, k_j> cos((m - n) theta_j)
   over the pairs j (the cosine-only model of 000/001). *)
Definition seed_score (theta : nat -> R) (h : nat) (q k : vec) (D : R) : R :=
  sum h (fun j => (q (2 * j)%nat * k (2 * j)%nat + q (S (2 * j)) * k (S (2 * j))) * cos (D * theta j)).

(* B(D) = (2/d) sum_{j=1}^{d/2} |S_j(D)|, the curve of RoFormer Fig. 2. *)
Definition relative_bound (theta : nat -> R) (h : nat) (D : R) : R :=
  sum h (fun j => Cmod (partial_sum (fun i => phase (D * theta i)) (S j))) / INR h.

(* ROPE-DECAY-BOUND-MONOTONE, strong reading: for every d = 2h (base 10000)
   the bound B is non-increasing over integer distances. *)
Definition bound_monotone_reading : Prop :=
  forall (h D1 D2 : nat), (0 < h)%nat -> (D1 < D2)%nat ->
    relative_bound (rope_spectrum 10000 h) h (INR D2)
    <= relative_bound (rope_spectrum 10000 h) h (INR D1).

(* The feature map elu(x) + 1 of linear attention (Katharopoulos et al.),
   applied coordinatewise. *)
Definition elu_plus_one (x : R) : R := if Rlt_dec 0 x then x + 1 else exp x.

Definition feature_map (phi : R -> R) (x : vec) : vec := fun j => phi (x j).

(* ROPE-LINEAR-ATTENTION-SEED, strong reading: with phi(q, m) = phi(R_m q)
   the linear-attention score keeps RoPE's relative property (it is unchanged
   when both positions move by delta). *)
Definition linear_attention_seed_reading : Prop :=
  forall (h : nat) (q k : vec) (m n delta : R),
    dot (2 * h) (feature_map elu_plus_one (rope (rope_spectrum 10000 h) h (m + delta) q))
                (feature_map elu_plus_one (rope (rope_spectrum 10000 h) h (n + delta) k))
    = dot (2 * h) (feature_map elu_plus_one (rope (rope_spectrum 10000 h) h m q))
                  (feature_map elu_plus_one (rope (rope_spectrum 10000 h) h n k)).

(* Full causal attention with RoPE in RoFormer's relative form (Eq. 16):
   the score of query t against key j is q_t^T R_{j-t} k_j. *)
Definition relative_scores (theta : nat -> R) (h : nat) (Qs Ks : nat -> vec) : nat -> nat -> R :=
  fun t j => dot (2 * h) (Qs t) (rope theta h (INR j - INR t) (Ks j)).

(* What a decoder caches for token j: its key rotated once, at its own
   position j, when it was appended. *)
Definition cached_key (theta : nat -> R) (h : nat) (Ks : nat -> vec) (j : nat) : vec :=
  rope theta h (INR j) (Ks j).

(* The decode step at t rotates only the incoming query and reads the cache. *)
Definition cached_scores (theta : nat -> R) (h : nat) (Qs Ks : nat -> vec) : nat -> nat -> R :=
  fun t j => dot (2 * h) (rope theta h (INR t) (Qs t)) (cached_key theta h Ks j).

(* The d = 128 spectrum is geometric: theta_i = t^i with t = 10000^(-1/64). *)
Definition ratio_128 : R := Rpower 10000 (- 1 / 64).
