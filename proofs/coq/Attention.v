(* Attention.v — softmax attention over n tokens, permutation equivariance, the
   symmetry of dot-product scores and the causal decode row (the ATT- claims).

   Matrices are functions on ordinals, 'I_r -> 'I_c -> R, so that the number of
   tokens n and every width (d, d_k, d_v) stay universally quantified; finite
   sums are mathcomp big operators over Coq's reals. *)

From Coq Require Import Reals Lra.
Set Warnings "-notation-overridden".
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq fintype bigop.
Set Warnings "notation-overridden".
From Ropecheck Require Defs.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Local Open Scope R_scope.
From Ropecheck Require Import DefsAttention.

(* ------------------------------------------------------------------ sums over R *)

(* mathcomp's big-operator lemmas (reindex_inj, bigD1, big_distrr, ...) need
   the monoid structure of (R, +, 0) and the distributivity of * over + . *)
Lemma Rplus_associative : associative Rplus.
Proof. by move=> x y z; rewrite Rplus_assoc. Qed.

Canonical Rplus_monoid := Monoid.Law Rplus_associative Rplus_0_l Rplus_0_r.
Canonical Rplus_comoid := Monoid.ComLaw Rplus_comm.
Canonical Rmult_muloid := Monoid.MulLaw Rmult_0_l Rmult_0_r.
Canonical Rplus_addoid := Monoid.AddLaw Rmult_plus_distr_r Rmult_plus_distr_l.

(* ------------------------------------------------------------------ matrices *)

(* Softmax reads its argument only through its entries (no function
   extensionality is needed to rewrite under it). *)
Lemma softmax_ext {n : nat} (A B : mat n n) :
  (forall a b, A a b = B a b) -> forall i j, softmax A i j = softmax B i j.
Proof.
move=> eqAB i j; rewrite /softmax eqAB.
by congr (_ / _); apply: eq_bigr => k _; rewrite eqAB.
Qed.

(* ------------------------------------------------------------------ permutations *)

Section Permutation.
Variables (n : nat) (sigma : 'I_n -> 'I_n).
Hypothesis sigma_injective : injective sigma.

(* Left multiplication by P picks row sigma i: the whole argument reduces to
   index substitutions once this and the next lemma are available. *)
Lemma perm_matrix_mul_l (c : nat) (A : mat n c) i j :
  mmul (perm_matrix sigma) A i j = A (sigma i) j.
Proof.
rewrite /mmul (bigD1 (sigma i)) //= /perm_matrix eqxx Rmult_1_l big1 ?Rplus_0_r //.
by move=> l; rewrite eq_sym => /negbTE ->; rewrite Rmult_0_l.
Qed.

Lemma perm_matrix_mul_transpose_r (r : nat) (A : mat r n) i j :
  mmul A (transpose (perm_matrix sigma)) i j = A i (sigma j).
Proof.
rewrite /mmul (bigD1 (sigma j)) //= /transpose /perm_matrix eqxx Rmult_1_r.
rewrite big1 ?Rplus_0_r // => l; rewrite eq_sym => /negbTE ->.
by rewrite Rmult_0_r.
Qed.

(* P A P^T is A with rows and columns relabelled by sigma. *)
Lemma conjugate_by_perm (A : mat n n) i j :
  mmul (mmul (perm_matrix sigma) A) (transpose (perm_matrix sigma)) i j
  = A (sigma i) (sigma j).
Proof. by rewrite perm_matrix_mul_transpose_r perm_matrix_mul_l. Qed.

(* The softmax denominator of a relabelled row is the same sum in another
   order: this is where the bijectivity of sigma is used. *)
Lemma softmax_row_sum_reindex (f : 'I_n -> R) :
  \rsum_(k < n) f (sigma k) = \rsum_(k < n) f k.
Proof. by rewrite [RHS](reindex_inj sigma_injective). Qed.

Lemma softmax_relabel (A : mat n n) i j :
  softmax (fun a b => A (sigma a) (sigma b)) i j = softmax A (sigma i) (sigma j).
Proof.
by rewrite /softmax (softmax_row_sum_reindex (fun k => exp (A (sigma i) k))).
Qed.

End Permutation.

(* ATT-SOFTMAX-PERMUTATION: softmax(P A P^T) = P softmax(A) P^T, for every
   number of tokens n, every permutation and every score matrix A. *)
Theorem att_softmax_permutation :
  forall (n : nat) (sigma : 'I_n -> 'I_n), injective sigma ->
  forall (A : mat n n) (i j : 'I_n),
    softmax (mmul (mmul (perm_matrix sigma) A) (transpose (perm_matrix sigma))) i j
    = mmul (mmul (perm_matrix sigma) (softmax A)) (transpose (perm_matrix sigma)) i j.
Proof.
move=> n sigma inj A i j.
rewrite conjugate_by_perm -(softmax_relabel inj).
by apply: softmax_ext => a b; rewrite conjugate_by_perm.
Qed.

(* Projecting permuted tokens is permuting projected tokens: Q' = P Q. *)
Lemma perm_rows_mul (n d c : nat) (sigma : 'I_n -> 'I_n) (X : mat n d)
    (W : mat d c) i j :
  mmul (mmul (perm_matrix sigma) X) W i j = mmul X W (sigma i) j.
Proof. by apply: eq_bigr => l _; rewrite perm_matrix_mul_l. Qed.

(* Permuting the tokens permutes the scores on both sides. *)
Lemma scores_perm (n d dk : nat) (sigma : 'I_n -> 'I_n) (X : mat n d)
    (WQ WK : mat d dk) i j :
  scores (mmul (perm_matrix sigma) X) WQ WK i j = scores X WQ WK (sigma i) (sigma j).
Proof. by apply: eq_bigr => c _; rewrite /transpose !perm_rows_mul. Qed.

Lemma attention_scaled_equivariant (n d dk dv : nat) (sigma : 'I_n -> 'I_n)
    (inj : injective sigma) (s : R) (X : mat n d) (WQ WK : mat d dk)
    (WV : mat d dv) i c :
  attention_scaled s (mmul (perm_matrix sigma) X) WQ WK WV i c
  = attention_scaled s X WQ WK WV (sigma i) c.
Proof.
rewrite /attention_scaled.
transitivity (\rsum_(l < n)
  (softmax (scale s (scores X WQ WK)) (sigma i) (sigma l) * mmul X WV (sigma l) c)).
  apply: eq_bigr => l _; rewrite perm_rows_mul; congr (_ * _).
  rewrite -(softmax_relabel inj); apply: softmax_ext => a b.
  by rewrite /scale scores_perm.
exact: (softmax_row_sum_reindex inj
          (fun l => softmax (scale s (scores X WQ WK)) (sigma i) l * mmul X WV l c)).
Qed.

(* ATT-EQUIVARIANCE: Attn(P X) = P Attn(X) for every n, every width d, d_k,
   d_v, all projections W^Q, W^K, W^V and every permutation matrix P. *)
Theorem att_equivariance :
  forall (n d dk dv : nat) (sigma : 'I_n -> 'I_n), injective sigma ->
  forall (X : mat n d) (WQ WK : mat d dk) (WV : mat d dv) (i : 'I_n) (c : 'I_dv),
    attention (mmul (perm_matrix sigma) X) WQ WK WV i c
    = mmul (perm_matrix sigma) (attention X WQ WK WV) i c.
Proof.
move=> n d dk dv sigma inj X WQ WK WV i c.
by rewrite perm_matrix_mul_l /attention attention_scaled_equivariant.
Qed.

(* ------------------------------------------------------------------ ATT-DOT-SYMMETRIC *)

(* The score matrix is the bilinear form of M = W^Q W^K^T evaluated on two
   tokens: (Q K^T)_ij = x_i^T M x_j.  Symmetry of the scores is therefore a
   property of M, not of the dot product. *)
Lemma scores_bilinear (n d dk : nat) (X : mat n d) (WQ WK : mat d dk) i j :
  scores X WQ WK i j
  = \rsum_(a < d) \rsum_(b < d) (X i a * mmul WQ (transpose WK) a b * X j b).
Proof.
rewrite /scores /mmul /transpose.
transitivity (\rsum_(c < dk) \rsum_(a < d) \rsum_(b < d)
                (X i a * WQ a c * (X j b * WK b c))).
  apply: eq_bigr => c _; rewrite big_distrl /=; apply: eq_bigr => a _.
  by rewrite big_distrr.
rewrite exchange_big /=; apply: eq_bigr => a _.
rewrite exchange_big /=; apply: eq_bigr => b _.
rewrite big_distrr big_distrl /=; apply: eq_bigr => c _; ring.
Qed.

Lemma scores_unit_tokens (d dk : nat) (WQ WK : mat d dk) a b :
  scores (unit_matrix d) WQ WK a b = mmul WQ (transpose WK) a b.
Proof. by apply: eq_bigr => c _; rewrite /transpose !perm_matrix_mul_l. Qed.

(* ATT-DOT-SYMMETRIC, the literal reading refuted: "dot product attention is
   symmetric" (000, 001) read as (Q K^T)_ij = (Q K^T)_ji for every X, W^Q, W^K. *)
Theorem att_dot_symmetric_literal_negation : ~ attention_symmetry_reading.
Proof.
move=> symmetric.
have := symmetric 2%N 2%N 2%N (unit_matrix 2) (unit_matrix 2) key_projection_shear
          (@Ordinal 2 0 isT) (@Ordinal 2 1 isT).
rewrite !scores_unit_tokens /mmul /transpose !big_ord_recr !big_ord0 /=.
rewrite /unit_matrix /perm_matrix /key_projection_shear /=.
lra.
Qed.

(* ATT-DOT-SYMMETRIC, corrected: for given projections, the scores are
   symmetric for every input exactly when W^Q W^K^T is symmetric. *)
Theorem att_dot_symmetric_correction :
  forall (d dk : nat) (WQ WK : mat d dk),
    (forall (n : nat) (X : mat n d) (i j : 'I_n), scores X WQ WK i j = scores X WQ WK j i)
    <-> (forall a b : 'I_d, mmul WQ (transpose WK) a b = mmul WQ (transpose WK) b a).
Proof.
move=> d dk WQ WK; split.
  by move=> symmetric a b; rewrite -!scores_unit_tokens symmetric.
move=> symmetric n X i j; rewrite !scores_bilinear exchange_big /=.
apply: eq_bigr => b _; apply: eq_bigr => a _; rewrite symmetric; ring.
Qed.

(* The literal reading: the dot product itself is symmetric, so the scores are
   symmetric whenever queries and keys share their projection (W^Q = W^K). *)
Lemma shared_projection_scores_symmetric :
  forall (n d dk : nat) (X : mat n d) (W : mat d dk) (i j : 'I_n),
    scores X W W i j = scores X W W j i.
Proof.
move=> n d dk X W i j; rewrite /scores /mmul /transpose.
by apply: eq_bigr => c _; rewrite Rmult_comm.
Qed.

(* ATT-DOT-SYMMETRIC, read in its paragraph (the permutation-equivariance
   argument of 000/001: "the result of the dot products and softmax will also
   be permuted in the same way since ... dot product attention is symmetric"):
   dot-product scores treat every pair of tokens alike — permuting the tokens
   permutes the score matrix on both sides, scores(P X) = P scores(X) P^T —
   and the dot product itself is symmetric, so with a shared projection the
   score matrix is symmetric.  The reading "Q K^T is a symmetric matrix for
   every W^Q, W^K" is refuted above (att_dot_symmetric_literal_negation). *)
Theorem att_dot_symmetric :
  (forall (n d dk : nat) (sigma : 'I_n -> 'I_n) (X : mat n d) (WQ WK : mat d dk) (i j : 'I_n),
     scores (mmul (perm_matrix sigma) X) WQ WK i j = scores X WQ WK (sigma i) (sigma j))
  /\ (forall (n d dk : nat) (X : mat n d) (W : mat d dk) (i j : 'I_n), scores X W W i j = scores X W W j i).
Proof. by split; [exact: scores_perm|exact: shared_projection_scores_symmetric]. Qed.


(* ------------------------------------------------------------------ ATT-CAUSAL-ROW *)

Theorem att_causal_row_negation : ~ causal_row_reading.
Proof.
move=> same.
have := same (fun _ _ => 0) (fun j _ => if j == 1%N then 1 else 0) 1%N 0%N.
rewrite /decode_over_cache /causal_row !big_nat_recr //= !big_geq // exp_0.
lra.
Qed.

(* A sum over the first n indices whose terms vanish from t + 1 on is the sum
   over the first t + 1: the masked future contributes nothing. *)
Lemma sum_truncate (n t : nat) (f : nat -> R) :
  (t < n)%N -> (forall j, (t < j)%N -> f j = 0) ->
  \rsum_(0 <= j < n) f j = \rsum_(0 <= j < t.+1) f j.
Proof.
move=> tn vanish.
rewrite (big_cat_nat _ _ _ (leq0n t.+1) tn) /= [X in _ + X](_ : _ = 0) ?Rplus_0_r //.
by rewrite big_nat_cond big1 // => j /andP [/andP [tj _] _]; apply: vanish.
Qed.

(* ATT-CAUSAL-ROW, corrected: appending the current token's key and value to
   the cache before attending (j = 1 .. t in the seeds' numbering) gives row t
   of masked causal attention over any number n > t of tokens. *)
Theorem att_causal_row_correction :
  forall (n : nat) (e V : nat -> nat -> R) (t c : nat), (t < n)%N ->
    masked_attention_row n e V t c = causal_row e V t c.
Proof.
move=> n e V t c tn.
have total : \rsum_(0 <= k < n) causal_weight e t k = \rsum_(0 <= k < t.+1) exp (e t k).
  rewrite (sum_truncate tn) => [|j tj]; last by rewrite /causal_weight leqNgt tj.
  by apply: eq_big_nat => k /andP [_ kt]; rewrite /causal_weight -ltnS kt.
rewrite /masked_attention_row total (sum_truncate tn) => [|j tj]; last first.
  by rewrite /causal_weight leqNgt tj /Rdiv !Rmult_0_l.
by apply: eq_big_nat => j /andP [_ jt]; rewrite /causal_weight -ltnS jt.
Qed.

(* The causal row reads the scores of row t only: any two score functions
   that agree there give the same output (used for the KV-cache claims). *)
Lemma causal_row_scores_ext (e e' V : nat -> nat -> R) (t c : nat) :
  (forall j, e t j = e' t j) -> causal_row e V t c = causal_row e' V t c.
Proof.
move=> same; rewrite /causal_row.
have -> : \rsum_(0 <= k < t.+1) exp (e t k) = \rsum_(0 <= k < t.+1) exp (e' t k).
  by apply: eq_bigr => k _; rewrite same.
by apply: eq_bigr => j _; rewrite same.
Qed.

(* The correction above with Coq's own order on nat, for files that do not
   load ssreflect. *)
Lemma masked_row_is_causal_row (n : nat) (e V : nat -> nat -> R) (t c : nat) :
  (t < n)%coq_nat -> masked_attention_row n e V t c = causal_row e V t c.
Proof. by move/ltP; apply: att_causal_row_correction. Qed.

(* ------------------------------------------------------------------ ATT-PE-BREAKS-EQUIVARIANCE *)

(* Attention reads its tokens only through their entries. *)
Lemma attention_ext (n d dk dv : nat) (X Y : mat n d) (WQ WK : mat d dk) (WV : mat d dv) :
  (forall a b, X a b = Y a b) ->
  forall i c, attention X WQ WK WV i c = attention Y WQ WK WV i c.
Proof.
move=> eqXY i c; rewrite /attention /attention_scaled.
have eqV l : mmul X WV l c = mmul Y WV l c by apply: eq_bigr => a _; rewrite eqXY.
have eqS a b : scores X WQ WK a b = scores Y WQ WK a b.
  rewrite /scores /mmul /transpose; apply: eq_bigr => e _.
  by congr (_ * _); apply: eq_bigr => ? _; rewrite eqXY.
apply: eq_bigr => l _; rewrite eqV; congr (_ * _).
by apply: softmax_ext => a b; rewrite /scale eqS.
Qed.

Lemma mmul_unit_r (r c : nat) (A : mat r c) i j : mmul A (unit_matrix c) i j = A i j.
Proof.
rewrite -(@perm_matrix_mul_transpose_r c id r A i j).
by apply: eq_bigr => l _; rewrite /unit_matrix /transpose /perm_matrix eq_sym.
Qed.

Lemma first_frequency_d2 : Defs.rope_frequency 10000 2 0 = 1.
Proof.
rewrite /Defs.rope_frequency /=.
have -> : - (2 * 0) / (1 + 1) = 0 by rewrite /Rdiv; ring.
by apply: Rpower_O; lra.
Qed.

(* With the sinusoidal table added to the tokens, some input and permutation
   violate Attn(P X + PE) = P Attn(X + PE).  Witness: n = d = 2, X = 0 (two equal
   tokens), P the swap, W^Q = W^K = W^V = I: the two rows differ because the
   positions do. *)
Lemma sinusoidal_breaks_equivariance :
  exists (n d : nat) (sigma : 'I_n -> 'I_n) (X : mat n d), injective sigma /\
  ~ (forall (i : 'I_n) (c : 'I_d),
       attention (madd (mmul (perm_matrix sigma) X) (sinusoidal_pe n d))
                 (unit_matrix d) (unit_matrix d) (unit_matrix d) i c
       = mmul (perm_matrix sigma)
              (attention (madd X (sinusoidal_pe n d))
                         (unit_matrix d) (unit_matrix d) (unit_matrix d)) i c).
Proof.
exists 2%N, 2%N, (@rev_ord 2), (zero_matrix 2 2); split; first exact: rev_ord_inj.
move=> /(_ (@Ordinal 2 0 isT) (@Ordinal 2 0 isT)).
rewrite perm_matrix_mul_l.
rewrite (@attention_ext _ _ _ _ _ (sinusoidal_pe 2 2)); last first.
  by move=> a b; rewrite /madd perm_matrix_mul_l /zero_matrix Rplus_0_l.
rewrite (@attention_ext _ _ _ _ _ (sinusoidal_pe 2 2)); last first.
  by move=> a b; rewrite /madd /zero_matrix Rplus_0_l.
rewrite /attention /attention_scaled /mmul.
set E := sinusoidal_pe 2 2.
have unitV l : \rsum_(a < 2) E l a * unit_matrix 2 a (@Ordinal 2 0 isT) = E l (@Ordinal 2 0 isT).
  exact: (mmul_unit_r E l).
have scoresE a b : scores E (unit_matrix 2) (unit_matrix 2) a b = \rsum_(e < 2) E a e * E b e.
  by apply: eq_bigr => e _; rewrite /transpose !mmul_unit_r.
have smE a b : softmax (scale (/ sqrt (INR 2)) (scores E (unit_matrix 2) (unit_matrix 2))) a b
              = softmax (fun a b => / sqrt (INR 2) * \rsum_(e < 2) E a e * E b e) a b.
  by apply: softmax_ext => ? ?; rewrite /scale scoresE.
under eq_bigr => l _ do rewrite smE unitV.
under [X in _ = X]eq_bigr => l _ do rewrite smE unitV.
rewrite /softmax !big_ord_recr !big_ord0 /E /sinusoidal_pe /= first_frequency_d2.
(* The two rows differ by (e^s - e^{s cos 1}) sin 1 / Z with s > 0, cos 1 < 1, sin 1 > 0. *)
rewrite Rmult_0_l Rmult_1_r sin_0 cos_0.
have P : sin 1 * sin 1 + cos 1 * cos 1 = 1 by have := sin2_cos2 1; rewrite /Rsqr; lra.
rewrite ?Rmult_0_l ?Rmult_0_r ?Rmult_1_l ?Rmult_1_r ?Rplus_0_l ?Rplus_0_r P.
set s := / sqrt (1 + 1).
have s_pos : 0 < s by apply: Rinv_0_lt_compat; apply: sqrt_lt_R0; lra.
have sin1 : 0 < sin 1 by apply: sin_gt_0; [lra | have := PI2_3_2; lra].
have cos1 : cos 1 < 1.
  have [_ U] := pre_cos_bound 1 0 ltac:(lra) ltac:(lra).
  by move: U; rewrite /cos_approx /cos_term /=; lra.
have lt : exp (s * cos 1) < exp (s * 1) by apply: exp_increasing; nra.
rewrite (Rplus_comm (exp (s * cos 1))) /Rdiv => same.
have Hq : 0 < / (exp (s * 1) + exp (s * cos 1)).
  by apply: Rinv_0_lt_compat; have := exp_pos (s * 1); have := exp_pos (s * cos 1); lra.
have := Rmult_lt_0_compat _ _ Hq sin1.
nra.
Qed.

(* to_vec is the row itself on its d coordinates, so rope_scores below is RoPE
   applied to the query and key rows. *)
Lemma to_vec_at {n d : nat} (A : mat n d) i (a : 'I_d) : to_vec A i a = A i a.
Proof.
rewrite /to_vec (bigD1 a) //= eqxx big1 ?Rplus_0_r // => b.
by rewrite -(inj_eq val_inj) => /negbTE ->.
Qed.

Lemma first_frequency_h1 : Defs.rope_spectrum 10000 1 0 = 1.
Proof.
rewrite /Defs.rope_spectrum /Defs.rope_frequency /=.
have -> : - (2 * 0) / (1 + 1) = 0 by rewrite /Rdiv; ring.
by apply: Rpower_O; lra.
Qed.

(* The RoPE map and the dot product read vectors only through their entries. *)
Lemma rope_pointwise (theta : nat -> R) (h : nat) (m : R) (x y : Defs.vec) :
  (forall k, x k = y k) -> forall j, Defs.rope theta h m x j = Defs.rope theta h m y j.
Proof. by move=> same j; rewrite /Defs.rope !same. Qed.

Lemma dot_pointwise (d : nat) (x x' y y' : Defs.vec) :
  (forall k, x k = x' k /\ y k = y' k) -> Defs.dot d x y = Defs.dot d x' y'.
Proof.
move=> same; apply: Defs.sum_ext => k _.
by case: (same k) => -> ->.
Qed.

(* With one pair (d = 2) the RoPE score is the explicit pair expression. *)
Lemma rope_dot_one_pair (theta : nat -> R) (a b : R) (x y : Defs.vec) :
  Defs.dot (2 * 1) (Defs.rope theta 1 a x) (Defs.rope theta 1 b y)
  = fst (Defs.rot (a * theta 0%N) (x 0%N, x 1%N)) * fst (Defs.rot (b * theta 0%N) (y 0%N, y 1%N))
    + snd (Defs.rot (a * theta 0%N) (x 0%N, x 1%N)) * snd (Defs.rot (b * theta 0%N) (y 0%N, y 1%N)).
Proof.
rewrite Defs.dot_pairs Defs.sum_S Defs.sum_0 Rplus_0_l.
by rewrite !Defs.rope_even ?Defs.rope_odd.
Qed.

(* Projection by I and permutation of the tokens act on to_vec as on rows. *)
Lemma to_vec_unit_mul {n d : nat} (A : mat n d) i j :
  to_vec (mmul A (unit_matrix d)) i j = to_vec A i j.
Proof. by apply: eq_bigr => a _; rewrite mmul_unit_r. Qed.

Lemma to_vec_perm {n d : nat} (sigma : 'I_n -> 'I_n) (A : mat n d) i j :
  to_vec (mmul (perm_matrix sigma) A) i j = to_vec A (sigma i) j.
Proof. by apply: eq_bigr => a _; rewrite perm_matrix_mul_l. Qed.

(* Scores of permuted tokens: the contents move with sigma, the positions
   (the token indices) do not. *)
Lemma rope_scores_perm (theta : nat -> R) (h n d : nat) (sigma : 'I_n -> 'I_n) (X : mat n d) i j :
  rope_scores theta h (mmul (perm_matrix sigma) X) (unit_matrix d) (unit_matrix d) i j
  = Defs.dot (2 * h) (Defs.rope theta h (INR i) (to_vec X (sigma i)))
                     (Defs.rope theta h (INR j) (to_vec X (sigma j))).
Proof.
rewrite /rope_scores; apply: dot_pointwise => k.
by split; apply: rope_pointwise => l; rewrite to_vec_unit_mul to_vec_perm.
Qed.
(* One entry of a product as its sum, to open the outer product of attention
   without unfolding the products nested inside it. *)
Lemma mmul_entry {r k c : nat} (A : mat r k) (B : mat k c) i j :
  mmul A B i j = \rsum_(l < k) (A i l * B l j).
Proof. by []. Qed.

Lemma rope_scores_unit (theta : nat -> R) (h n d : nat) (X : mat n d) i j :
  rope_scores theta h X (unit_matrix d) (unit_matrix d) i j
  = Defs.dot (2 * h) (Defs.rope theta h (INR i) (to_vec X i))
                     (Defs.rope theta h (INR j) (to_vec X j)).
Proof.
rewrite /rope_scores; apply: dot_pointwise => k.
by split; apply: rope_pointwise => l; rewrite to_vec_unit_mul.
Qed.

(* With RoPE on queries and keys (token i at position i), some input and
   permutation violate Attn(P X) = P Attn(X).  Witness: n = 2, d = 2, tokens
   e_0, e_1, P the swap, W = I: the cross scores -sin 1 and sin 1 differ. *)
Lemma rope_breaks_equivariance :
  exists (n h : nat) (sigma : 'I_n -> 'I_n) (X : mat n (2 * h)), injective sigma /\
  ~ (forall (i : 'I_n) (c : 'I_(2 * h)),
       rope_attention (Defs.rope_spectrum 10000 h) h (mmul (perm_matrix sigma) X)
                      (unit_matrix _) (unit_matrix _) (unit_matrix _) i c
       = mmul (perm_matrix sigma)
              (rope_attention (Defs.rope_spectrum 10000 h) h X
                              (unit_matrix _) (unit_matrix _) (unit_matrix _)) i c).
Proof.
exists 2%N, 1%N, (@rev_ord 2), two_axes; split; first exact: rev_ord_inj.
move=> /(_ (@Ordinal 2 0 isT) (@Ordinal 2 0 isT)).
rewrite perm_matrix_mul_l /rope_attention [LHS]mmul_entry [RHS]mmul_entry.
set theta := Defs.rope_spectrum 10000 1; set s := / sqrt (INR (2 * 1)).
have smP a b :
    softmax (scale s (rope_scores theta 1 (mmul (perm_matrix (@rev_ord 2)) two_axes)
                                  (unit_matrix _) (unit_matrix _))) a b
    = softmax (fun a b => s * Defs.dot (2 * 1)
                 (Defs.rope theta 1 (INR a) (to_vec two_axes (rev_ord a)))
                 (Defs.rope theta 1 (INR b) (to_vec two_axes (rev_ord b)))) a b.
  by apply: softmax_ext => ? ?; rewrite /scale rope_scores_perm.
have smX a b :
    softmax (scale s (rope_scores theta 1 two_axes (unit_matrix _) (unit_matrix _))) a b
    = softmax (fun a b => s * Defs.dot (2 * 1)
                 (Defs.rope theta 1 (INR a) (to_vec two_axes a))
                 (Defs.rope theta 1 (INR b) (to_vec two_axes b))) a b.
  by apply: softmax_ext => ? ?; rewrite /scale rope_scores_unit.
under eq_bigr => l _ do rewrite smP perm_rows_mul mmul_unit_r.
under [X in _ = X]eq_bigr => l _ do rewrite smX mmul_unit_r.
rewrite /softmax !big_ord_recr !big_ord0 !rope_dot_one_pair /theta first_frequency_h1 /to_vec.
rewrite !big_ord_recr !big_ord0 /two_axes /unit_matrix /perm_matrix /= /s.
rewrite (_ : INR (2 * 1) = 2); last by rewrite /=; lra.
rewrite !Rmult_0_l cos_0 sin_0 !Rmult_1_r !Rplus_0_l !Rplus_0_r !Rmult_0_l !Rmult_1_l !Rmult_0_r.
do 2 rewrite ?Rminus_0_r ?Rminus_0_l ?Rmult_0_l ?Rmult_0_r ?Rplus_0_l ?Rplus_0_r ?Rmult_1_l ?Rmult_1_r.
have P : - sin 1 * - sin 1 + cos 1 * cos 1 = 1 by have := sin2_cos2 1; rewrite /Rsqr; lra.
rewrite P.
set r := / sqrt 2.
have r_pos : 0 < r by apply: Rinv_0_lt_compat; apply: sqrt_lt_R0; lra.
have sin1 : 0 < sin 1 by apply: sin_gt_0; [lra | have := PI2_3_2; lra].
rewrite ?Rmult_1_r.
set x1 := exp (r * sin 1); set x2 := exp (r * - sin 1); set a := exp r.
have x1x2 : x2 < x1 by apply: exp_increasing; nra.
have x2_pos : 0 < x2 by apply: exp_pos.
have a_pos : 0 < a by apply: exp_pos.
(* x/(x + a) is increasing in x and e^{r sin 1} > e^{-r sin 1}. *)
move=> same.
have cross : x1 * (x2 + a) = x2 * (a + x1).
  have H := f_equal (fun v => v * ((a + x1) * (x2 + a))) same.
  rewrite /= in H.
  rewrite (_ : x1 / (a + x1) * ((a + x1) * (x2 + a)) = x1 * (x2 + a)) in H; last by field; lra.
  rewrite (_ : x2 / (x2 + a) * ((a + x1) * (x2 + a)) = x2 * (a + x1)) in H; last by field; lra.
  exact: H.
nra.
Qed.

(* ATT-PE-BREAKS-EQUIVARIANCE (000, 001: "to break the permutation
   equivariance ... we add positional encodings"), an existence statement for
   both ways of injecting positions: the sinusoidal table added to the tokens,
   and RoPE applied to queries and keys. *)
Theorem att_pe_breaks_equivariance :
  (exists (n d : nat) (sigma : 'I_n -> 'I_n) (X : mat n d), injective sigma /\
   ~ (forall (i : 'I_n) (c : 'I_d),
        attention (madd (mmul (perm_matrix sigma) X) (sinusoidal_pe n d))
                  (unit_matrix d) (unit_matrix d) (unit_matrix d) i c
        = mmul (perm_matrix sigma)
               (attention (madd X (sinusoidal_pe n d))
                          (unit_matrix d) (unit_matrix d) (unit_matrix d)) i c))
  /\
  (exists (n h : nat) (sigma : 'I_n -> 'I_n) (X : mat n (2 * h)), injective sigma /\
   ~ (forall (i : 'I_n) (c : 'I_(2 * h)),
        rope_attention (Defs.rope_spectrum 10000 h) h (mmul (perm_matrix sigma) X)
                       (unit_matrix _) (unit_matrix _) (unit_matrix _) i c
        = mmul (perm_matrix sigma)
               (rope_attention (Defs.rope_spectrum 10000 h) h X
                               (unit_matrix _) (unit_matrix _) (unit_matrix _)) i c)).
Proof. exact: (conj sinusoidal_breaks_equivariance rope_breaks_equivariance). Qed.

(* The definitions live in DefsAttention.v; these abbreviations keep `Attention.name` working for importers. *)
Notation mat := DefsAttention.mat (only parsing).
Notation mmul := DefsAttention.mmul (only parsing).
Notation transpose := DefsAttention.transpose (only parsing).
Notation scale := DefsAttention.scale (only parsing).
Notation perm_matrix := DefsAttention.perm_matrix (only parsing).
Notation softmax := DefsAttention.softmax (only parsing).
Notation scores := DefsAttention.scores (only parsing).
Notation attention_scaled := DefsAttention.attention_scaled (only parsing).
Notation attention := DefsAttention.attention (only parsing).
Notation unit_matrix := DefsAttention.unit_matrix (only parsing).
Notation attention_symmetry_reading := DefsAttention.attention_symmetry_reading (only parsing).
Notation key_projection_shear := DefsAttention.key_projection_shear (only parsing).
Notation decode_over_cache := DefsAttention.decode_over_cache (only parsing).
Notation causal_row := DefsAttention.causal_row (only parsing).
Notation causal_weight := DefsAttention.causal_weight (only parsing).
Notation masked_attention_row := DefsAttention.masked_attention_row (only parsing).
Notation causal_row_reading := DefsAttention.causal_row_reading (only parsing).
Notation madd := DefsAttention.madd (only parsing).
Notation sinusoidal_pe := DefsAttention.sinusoidal_pe (only parsing).
Notation zero_matrix := DefsAttention.zero_matrix (only parsing).
Notation to_vec := DefsAttention.to_vec (only parsing).
Notation rope_scores := DefsAttention.rope_scores (only parsing).
Notation rope_attention := DefsAttention.rope_attention (only parsing).
Notation two_axes := DefsAttention.two_axes (only parsing).
