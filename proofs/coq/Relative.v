(** * Relative.v: the RPE-* claims of proofs/claims/_claims_sinusoidal.py and _claims_relative.py
    (RPE-BREAKS-LINEAR-ATTENTION is in LinearBias.v).

    Relative position representations as seeds 000/001 write them after Shaw et
    al.: the score of the query at position i against the key at position j is
      e_ij = (Q_i . K_j + Q_i . R^K_{clip(j - i, K)}) / sqrt(d),
    with a learned table R^K read at the clipped offset; and the scalar-bias
    variant s_ij = Q_i . K_j + b(j - i).  Both are functions of the positions,
    so shift invariance is a statement about these definitions, not something
    built into them.  Attention over n tokens is defined here minimally
    (Attention.v has the matrix form used by the ATT- claims). *)

From Coq Require Import Reals Lia Lra ZArith List.
From Ropecheck Require Import Defs.
Import ListNotations.

Open Scope R_scope.
From Ropecheck Require Import DefsRelative.

(** ** Scores *)

(* The offset of two positions survives a common shift: the one step the
   invariance rests on. *)
Lemma offset_shift i j delta : ((j + delta) - (i + delta) = j - i)%Z.
Proof. lia. Qed.

Lemma shift_sequence_at delta X t : shift_sequence delta X (t + delta)%Z = X t.
Proof. unfold shift_sequence; f_equal; lia. Qed.

(** ** RPE-SHIFT-INVARIANCE *)

(* Read as: the same two tokens moved together by delta keep their score, for
   every learned table (Shaw) and every learned bias; stated both for fixed
   query/key vectors and for a whole sequence shifted by delta. *)
Theorem rpe_shift_invariance :
  (forall (d : nat) (b : Z -> R) (q k : vec) (i j delta : Z),
      bias_score d b q k (i + delta) (j + delta) = bias_score d b q k i j)
  /\ (forall (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j delta : Z),
      shaw_score d K RK q k (i + delta) (j + delta) = shaw_score d K RK q k i j)
  /\ (forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
      sequence_shaw_score d K RK WQ WK (shift_sequence delta X) (i + delta) (j + delta)
      = sequence_shaw_score d K RK WQ WK X i j)
  /\ (forall (d : nat) (b : Z -> R) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
      sequence_bias_score d b WQ WK (shift_sequence delta X) (i + delta) (j + delta)
      = sequence_bias_score d b WQ WK X i j).
Proof.
  repeat split; intros.
  - unfold bias_score; rewrite offset_shift; reflexivity.
  - unfold shaw_score; rewrite offset_shift; reflexivity.
  - unfold sequence_shaw_score, shaw_score; rewrite !shift_sequence_at, offset_shift; reflexivity.
  - unfold sequence_bias_score, bias_score; rewrite !shift_sequence_at, offset_shift; reflexivity.
Qed.

(* The seed's own equation e_{i+delta, j+delta} = e_ij read literally: the
   queries and keys Q_{i+delta}, K_{j+delta} are taken from ONE fixed sequence
   X (not from the shifted sequence).  Then the shifted score compares other
   tokens and the equation fails: d = 1, W_Q = W_K = all-ones, R^K = 0,
   X(0) = 1, X(t) = 0 otherwise, i = j = 0, delta = 1 (score 1 vs 0).  The
   verdict above is the reading "the same tokens moved together". *)
Lemma dot_dim1 x y : dot 1 x y = x 0%nat * y 0%nat.
Proof. unfold dot; rewrite sum_S, sum_0; ring. Qed.

Theorem rpe_shift_invariance_literal_negation :
  ~ (forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
       sequence_shaw_score d K RK WQ WK X (i + delta) (j + delta) = sequence_shaw_score d K RK WQ WK X i j).
Proof.
  intros H.
  pose (ones := (fun _ _ => 1) : mat).
  set (X := fun (t : Z) => if Z.eqb t 0%Z then (fun _ : nat => 1) else (fun _ : nat => 0)).
  specialize (H 1%nat 0%Z (fun _ _ => 0) ones ones X 0%Z 0%Z 1%Z).
  unfold sequence_shaw_score, shaw_score, mat_vec in H.
  rewrite !dot_dim1 in H; unfold X, ones in H; simpl in H.
  rewrite !sum_S, !sum_0, sqrt_1 in H.
  lra.
Qed.

Example rpe_shift_invariance_instance_d4 : forall (RK : Z -> vec) (q k : vec),
  shaw_score 4 2 RK q k 10 3 = shaw_score 4 2 RK q k 0 (-7).
Proof.
  intros RK q k; replace 10%Z with (0 + 10)%Z by reflexivity.
  replace 3%Z with (-7 + 10)%Z by reflexivity.
  exact (proj1 (proj2 rpe_shift_invariance) 4%nat 2%Z RK q k 0%Z (-7)%Z 10%Z).
Qed.

(** ** Decoding with relative keys: RPE-KV-CACHE-IMPOSSIBLE *)

Lemma kv_cache_length d WK WV x n : length (kv_cache d WK WV x n) = n.
Proof.
  induction n as [|n IH]; [reflexivity|].
  simpl; rewrite app_length, IH; simpl; lia.
Qed.

(* Appending a token leaves every earlier entry as it was: what makes the
   cache reusable from one step to the next. *)
Lemma kv_cache_append_keeps d WK WV x n j : (j < n)%nat ->
  nth j (kv_cache d WK WV x (S n)) no_entry = nth j (kv_cache d WK WV x n) no_entry.
Proof.
  intros Hj; simpl; apply app_nth1; rewrite kv_cache_length; exact Hj.
Qed.

Lemma kv_cache_nth d WK WV x n j : (j < n)%nat ->
  nth j (kv_cache d WK WV x n) no_entry = cache_entry d WK WV (x j).
Proof.
  induction n as [|n IH]; intros Hj; [lia|].
  destruct (Nat.eq_dec j n) as [->|Hne].
  - simpl; rewrite app_nth2 by (rewrite kv_cache_length; lia).
    rewrite kv_cache_length, Nat.sub_diag; reflexivity.
  - rewrite kv_cache_append_keeps by lia; apply IH; lia.
Qed.

(* The incremental step equals full attention recomputed from scratch, at
   every step t, for every layer (weights, window K, table R^K). *)
Theorem rpe_kv_cache_impossible_correction :
  forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK WV : mat) (x : nat -> vec) (t : nat),
  (forall j, (j < t)%nat ->
     nth j (kv_cache d WK WV x (S t)) no_entry = nth j (kv_cache d WK WV x t) no_entry)
  /\ (forall c, attend_from_cache d K RK (kv_cache d WK WV x t ++ [cache_entry d WK WV (x t)])
                  (mat_vec d WQ (x t)) t c
              = attend_from_scratch d K RK WQ WK WV x t c).
Proof.
  intros d K RK WQ WK WV x t; split; [intros; apply kv_cache_append_keeps; assumption|].
  intros c; change (kv_cache d WK WV x t ++ [cache_entry d WK WV (x t)]) with (kv_cache d WK WV x (S t)).
  unfold attend_from_cache, attend_from_scratch, attend; rewrite kv_cache_length.
  assert (Hentry : forall j, (j < S t)%nat ->
            nth j (kv_cache d WK WV x (S t)) no_entry = cache_entry d WK WV (x j))
    by (intros; apply kv_cache_nth; assumption).
  f_equal; apply sum_ext; intros j Hj; rewrite Hentry by exact Hj; reflexivity.
Qed.

(* The seeds' claim, in its weakest form: for some layer with relative keys,
   no decoding step that reads only the KV cache (entries appended once),
   the new query and its position reproduces full attention.  Its negation
   (below) also refutes the universal form "for every such layer". *)
Theorem rpe_kv_cache_impossible_negation : ~ (exists (d : nat) (K : Z) (RK : Z -> vec) (WQ WK WV : mat),
  forall step : list (vec * vec) -> vec -> nat -> vec,
  exists (x : nat -> vec) (t c : nat),
    step (kv_cache d WK WV x (S t)) (mat_vec d WQ (x t)) t c <> attend_from_scratch d K RK WQ WK WV x t c).
Proof.
  intros [d [K [RK [WQ [WK [WV Himpossible]]]]]].
  destruct (Himpossible (attend_from_cache d K RK)) as [x [t [c Hdiff]]].
  apply Hdiff, (proj2 (rpe_kv_cache_impossible_correction d K RK WQ WK WV x t)).
Qed.

(** ** RPE-CLIP-INDISTINGUISHABLE (000, 001) *)

(* "for |j - i| > k, relative position is undefined so we either clip or mask
   zero": with Shaw's clipping at K, every offset at or beyond K (and every
   offset at or below -K) reads the same table row, so two token pairs at
   such offsets score alike whatever their distance. *)
Theorem rpe_clip_indistinguishable :
  forall (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j i' j' : Z), (0 <= K)%Z ->
    ((K <= j - i)%Z /\ (K <= j' - i')%Z \/ (j - i <= - K)%Z /\ (j' - i' <= - K)%Z) ->
    shaw_score d K RK q k i j = shaw_score d K RK q k i' j'.
Proof.
  intros d K RK q k i j i' j' HK Hfar; unfold shaw_score.
  replace (clip K (j - i)) with (clip K (j' - i')); [reflexivity|].
  unfold clip; lia.
Qed.

(** ** RPE-OFFSET-COUNT (000, 001) *)

(* "R^K in R^{(2L - 1) x d_z} ... indexed by relative distance
   r = j - i in [-L+1, L-1]": the offsets of L positions are exactly the
   2L - 1 integers of that range. *)
Theorem rpe_offset_count : forall L : Z, (1 <= L)%Z ->
  (forall i j : Z, (0 <= i < L)%Z -> (0 <= j < L)%Z -> (- (L - 1) <= j - i <= L - 1)%Z)
  /\ (forall r : Z, (- (L - 1) <= r <= L - 1)%Z -> exists i j : Z, (0 <= i < L)%Z /\ (0 <= j < L)%Z /\ (j - i = r)%Z)
  /\ ((L - 1) - (- (L - 1)) + 1 = 2 * L - 1)%Z.
Proof.
  intros L HL; split; [|split].
  - intros i j Hi Hj; lia.
  - intros r Hr; destruct (Z_le_gt_dec 0 r) as [Hpos|Hneg].
    + exists 0%Z, r; lia.
    + exists (- r)%Z, 0%Z; lia.
  - lia.
Qed.

(* The definitions live in DefsRelative.v; these abbreviations keep `Relative.name` working for importers. *)
Notation clip := DefsRelative.clip (only parsing).
Notation bias_score := DefsRelative.bias_score (only parsing).
Notation shaw_score := DefsRelative.shaw_score (only parsing).
Notation sequence_shaw_score := DefsRelative.sequence_shaw_score (only parsing).
Notation sequence_bias_score := DefsRelative.sequence_bias_score (only parsing).
Notation shift_sequence := DefsRelative.shift_sequence (only parsing).
Notation step_score := DefsRelative.step_score (only parsing).
Notation attend := DefsRelative.attend (only parsing).
Notation attend_from_scratch := DefsRelative.attend_from_scratch (only parsing).
Notation cache_entry := DefsRelative.cache_entry (only parsing).
Notation kv_cache := DefsRelative.kv_cache (only parsing).
Notation no_entry := DefsRelative.no_entry (only parsing).
Notation attend_from_cache := DefsRelative.attend_from_cache (only parsing).
