(** * Cache.v: what a KV cache stores per token, with and without RoPE.

    Seed 003: "0% smaller KV cache in normal decoding" and "vanilla RoPE does
    not make cached keys and values position-free".  The cache of one layer
    and one head is modelled as what it stores for each token: a list of reals
    — the key as the scores will read it (d = 2h numbers) followed by the value
    (dv numbers).  Without RoPE the stored key is k_n; with RoPE it is R_n k_n,
    rotated once at the token's own position.  Decoding reads the entries
    back: the score of the current query against the entry, and the value. *)

From Coq Require Import Reals Lia Lra List.
From Ropecheck Require Import Defs DefsCache.
From Ropecheck Require Decay.

Import ListNotations.
Open Scope R_scope.

(** ** A cache entry *)


Lemma kv_entry_length dk dv key value : length (kv_entry dk dv key value) = (dk + dv)%nat.
Proof. unfold kv_entry; rewrite app_length, !map_length, !seq_length; reflexivity. Qed.

Lemma kv_entry_key dk dv key value j : (j < dk)%nat -> nth j (kv_entry dk dv key value) 0 = key j.
Proof.
  intros Hj; unfold kv_entry.
  rewrite app_nth1 by (rewrite map_length, seq_length; exact Hj).
  rewrite (nth_indep _ 0 (key 0%nat)) by (rewrite map_length, seq_length; exact Hj).
  rewrite map_nth, seq_nth by exact Hj; reflexivity.
Qed.

Lemma kv_entry_value dk dv key value c : (c < dv)%nat -> nth (dk + c) (kv_entry dk dv key value) 0 = value c.
Proof.
  intros Hc; unfold kv_entry.
  rewrite app_nth2 by (rewrite map_length, seq_length; lia).
  rewrite map_length, seq_length; replace (dk + c - dk)%nat with c by lia.
  rewrite (nth_indep _ 0 (value 0%nat)) by (rewrite map_length, seq_length; exact Hc).
  rewrite map_nth, seq_nth by exact Hc; reflexivity.
Qed.

Lemma entry_score_dot h dv query key value :
  entry_score h query (kv_entry (2 * h) dv key value) = dot (2 * h) query key.
Proof. unfold entry_score, dot; apply sum_ext; intros j Hj; rewrite kv_entry_key by exact Hj; reflexivity. Qed.

(* Rotating back by -n recovers the projected key: the RoPE entry is an
   invertible re-encoding of the plain one, coordinate for coordinate. *)
Lemma rope_unrotate theta h n k j : (j < 2 * h)%nat -> rope theta h (- n) (rope theta h n k) j = k j.
Proof. intros Hj; rewrite Decay.rope_compose, Rplus_opp_l; apply Decay.rope_zero; exact Hj. Qed.

(* RoPE reads only the first 2h coordinates of its input. *)
Lemma rope_ext_pairs theta h m x y j :
  (forall i, (i < 2 * h)%nat -> x i = y i) -> rope theta h m x j = rope theta h m y j.
Proof.
  intros H; unfold rope; cbv zeta.
  destruct (Nat.ltb (Nat.div2 j) h) eqn:Hlt; [|reflexivity].
  apply Nat.ltb_lt in Hlt.
  rewrite (H (2 * Nat.div2 j)%nat), (H (S (2 * Nat.div2 j))) by lia; reflexivity.
Qed.

(** ** ROPE-KV-CACHE-SIZE *)

(* For every d = 2h, value width dv and spectrum: (1) the RoPE entry and the
   plain entry store the same number of reals per token, 2h + dv; (2) decoding
   from the RoPE entry gives the RoPE score (rotate only the incoming query)
   and the stored value; (3) the RoPE entry determines the plain entry (and
   so the token's key and value), and nothing in its key part can be dropped:
   two entries scoring alike against every query agree on all 2h key
   coordinates.  So RoPE neither shrinks nor grows the cache. *)
Theorem rope_kv_cache_size :
  forall (theta : nat -> R) (h dv : nat),
    (forall (n : R) (k v : vec),
        length (rope_entry theta h dv n k v) = length (plain_entry h dv k v)
        /\ length (rope_entry theta h dv n k v) = (2 * h + dv)%nat)
    /\ (forall (t n : R) (q k v : vec) (c : nat), (c < dv)%nat ->
          entry_score h (rope theta h t q) (rope_entry theta h dv n k v)
          = dot (2 * h) (rope theta h t q) (rope theta h n k)
          /\ nth (2 * h + c) (rope_entry theta h dv n k v) 0 = v c)
    /\ (forall (n : R) (k v k' v' : vec),
          rope_entry theta h dv n k v = rope_entry theta h dv n k' v' ->
          plain_entry h dv k v = plain_entry h dv k' v')
    /\ (forall (t : R) (c c' : vec),
          (forall q : vec, dot (2 * h) (rope theta h t q) c = dot (2 * h) (rope theta h t q) c') ->
          forall i, (i < 2 * h)%nat -> c i = c' i).
Proof.
  intros theta h dv; split; [|split; [|split]].
  - intros n k v; unfold rope_entry, plain_entry; rewrite !kv_entry_length; split; reflexivity.
  - intros t n q k v c Hc; unfold rope_entry; split.
    + apply entry_score_dot.
    + apply kv_entry_value; exact Hc.
  - intros n k v k' v' E.
    assert (Hk : forall i, (i < 2 * h)%nat -> rope theta h n k i = rope theta h n k' i).
    { intros i Hi; pose proof (f_equal (fun l => nth i l 0) E) as Ei; cbv beta in Ei.
      unfold rope_entry in Ei; rewrite !kv_entry_key in Ei by exact Hi; exact Ei. }
    assert (Hv : forall c, (c < dv)%nat -> v c = v' c).
    { intros c Hc; pose proof (f_equal (fun l => nth (2 * h + c) l 0) E) as Ec; cbv beta in Ec.
      unfold rope_entry in Ec; rewrite !kv_entry_value in Ec by exact Hc; exact Ec. }
    unfold plain_entry; apply nth_ext with (d := 0) (d' := 0); [rewrite !kv_entry_length; reflexivity|].
    intros j Hj; rewrite kv_entry_length in Hj.
    destruct (Nat.lt_ge_cases j (2 * h)) as [Hjk|Hjv].
    + rewrite !kv_entry_key by exact Hjk.
      rewrite <- (rope_unrotate theta h n k j), <- (rope_unrotate theta h n k' j) by exact Hjk.
      apply rope_ext_pairs; exact Hk.
    + replace j with (2 * h + (j - 2 * h))%nat by lia.
      rewrite !kv_entry_value by lia; apply Hv; lia.
  - exact (fun t => proj2 (Decay.rope_cached_key_determined theta h) t).
Qed.

(* The definitions live in DefsCache.v; these abbreviations keep `Cache.name` working for importers. *)
Notation kv_entry := DefsCache.kv_entry (only parsing).
Notation plain_entry := DefsCache.plain_entry (only parsing).
Notation rope_entry := DefsCache.rope_entry (only parsing).
Notation entry_score := DefsCache.entry_score (only parsing).
