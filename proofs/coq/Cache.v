(** * Cache.v: what a KV cache stores per token, with and without RoPE.

    Seed 003: "0% smaller KV cache in normal decoding", "vanilla RoPE does
    not make cached keys and values position-free" and, for additive
    positions, "the cached vectors still contain the old absolute position".  The cache of one layer
    and one head is modelled as what it stores for each token: a list of reals
    — the key as the scores will read it (d = 2h numbers) followed by the value
    (dv numbers).  Without RoPE the stored key is k_n; with RoPE it is R_n k_n,
    rotated once at the token's own position.  Decoding reads the entries
    back: the score of the current query against the entry, and the value. *)

From Coq Require Import Reals Lia Lra List.
From Ropecheck Require Import Defs DefsCache.
From Ropecheck Require Decay Rope Sinusoidal Positions.

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

(** ** ROPE-CACHED-KEY-POSITIONAL-003 *)

(* "vanilla RoPE does not make cached keys and values position-free": no
   function of the key alone gives the cached R_n k at every position, for
   every even d >= 2 with the RoFormer spectrum (e_0 at positions 0 and 1). *)
Theorem rope_cached_key_positional_003 : forall h : nat, (1 <= h)%nat ->
  ~ exists store : vec -> vec,
      forall (n : R) (k : vec) (j : nat), (j < 2 * h)%nat -> rope (rope_spectrum 10000 h) h n k j = store k j.
Proof.
  intros h Hh [store Hstore].
  pose proof (Hstore 0 (basis 0) 0%nat ltac:(lia)) as E0.
  pose proof (Hstore 1 (basis 0) 0%nat ltac:(lia)) as E1.
  rewrite <- E1, Decay.rope_zero in E0 by lia.
  pose proof (rope_even (rope_spectrum 10000 h) h 1 (basis 0) 0 Hh) as R1; simpl Nat.mul in R1.
  rewrite R1, Rope.rope_spectrum_first in E0; unfold rot, basis in E0; cbn [fst snd Nat.eqb] in E0.
  pose proof Decay.cos_1_bounds; rewrite Rmult_1_r in E0; lra.
Qed.

(** ** APE-PREFIX-STALE-003 *)

(* "Move the same prefix to a new location and the cached vectors still
   contain the old absolute position, so they no longer match the new block
   location": for every even d the uniqueness theorem covers (d = 2h,
   h <> 1, 2, 4: d = 128 included), base 10000, a token cached as x + PE(n)
   is not the token x + PE(n + delta) it must be at the new location, for
   every real shift delta <> 0 (RoPE re-phases instead: ROPE-PREFIX-REPHASE).
   The second conjunct is the part of "you usually have to recompute" that
   does NOT hold at the first layer: a first-layer cached key W_K (x + PE(n))
   is corrected by adding W_K (PE(n + delta) - PE(n)), one vector per shift
   that does not depend on the token x -- no recomputation of the token. *)
Theorem ape_prefix_stale_003 :
  (forall (h : nat) (x : vec) (n delta : R),
      (1 <= h)%nat -> h <> 1%nat -> h <> 2%nat -> h <> 4%nat -> delta <> 0 ->
      ~ (forall j, (j < 2 * h)%nat ->
           Sinusoidal.vadd x (Sinusoidal.spe h n) j = Sinusoidal.vadd x (Sinusoidal.spe h (n + delta)) j))
  /\ (forall (h : nat) (WK : mat) (x : vec) (n delta : R) (j : nat),
      mat_vec (2 * h) WK (Sinusoidal.vadd x (Sinusoidal.spe h (n + delta))) j
      = mat_vec (2 * h) WK (Sinusoidal.vadd x (Sinusoidal.spe h n)) j
        + mat_vec (2 * h) WK (fun i => Sinusoidal.spe h (n + delta) i - Sinusoidal.spe h n i) j).
Proof.
  split.
  - intros h x n delta H1 Hh1 Hh2 Hh4 Hdelta Hsame; apply Hdelta.
    assert (E : n = n + delta).
    { apply (Positions.spe_unique_position h n (n + delta) H1 Hh1 Hh2 Hh4); intros j Hj.
      specialize (Hsame j Hj); unfold Sinusoidal.vadd in Hsame; lra. }
    lra.
  - intros; unfold mat_vec, Sinusoidal.vadd; rewrite <- sum_plus; apply sum_ext; intros; ring.
Qed.

(* The definitions live in DefsCache.v; these abbreviations keep `Cache.name` working for importers. *)
Notation kv_entry := DefsCache.kv_entry (only parsing).
Notation plain_entry := DefsCache.plain_entry (only parsing).
Notation rope_entry := DefsCache.rope_entry (only parsing).
Notation entry_score := DefsCache.entry_score (only parsing).
