(** * Round3.v: claims the seeds make that the ledger missed until ISSUE #18 (point 9).

    One theorem per claim of proofs/claims/_claims_round3.py, named after its ID:
    clipped relative offsets, the 2L - 1 offsets of a relative table, the
    spectrum's order, the binary encoding of seed 004, the cached RoPE key,
    the sine term of a pair score, what adding a position vector does to a
    token, and how far the sinusoidal encoding moves with the position.  Positions are reals unless the source counts them. *)

From Coq Require Import ZArith Reals Lia Lra List Bool.
From Ropecheck Require Import Defs DefsRound3.
From Ropecheck Require Sinusoidal Relative Rope Decay Positions.

Import ListNotations.
Open Scope R_scope.

(** ** RPE-CLIP-INDISTINGUISHABLE (000, 001) *)

(* "for |j - i| > k, relative position is undefined so we either clip or mask
   zero": with Shaw's clipping at K, every offset at or beyond K (and every
   offset at or below -K) reads the same table row, so two token pairs at
   such offsets score alike whatever their distance. *)
Theorem rpe_clip_indistinguishable :
  forall (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j i' j' : Z), (0 <= K)%Z ->
    ((K <= j - i)%Z /\ (K <= j' - i')%Z \/ (j - i <= - K)%Z /\ (j' - i' <= - K)%Z) ->
    Relative.shaw_score d K RK q k i j = Relative.shaw_score d K RK q k i' j'.
Proof.
  intros d K RK q k i j i' j' HK Hfar; unfold Relative.shaw_score.
  replace (Relative.clip K (j - i)) with (Relative.clip K (j' - i')); [reflexivity|].
  unfold Relative.clip; lia.
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

(** ** SPE-FREQUENCIES-DECREASING (004) and SPE-DISTINCT-WAVELENGTHS (000, 001) *)

(* "Smaller indices wiggle fast ... while larger indices change slowly":
   w_i = 10000^(-2i/d) strictly decreases with i, for every even d. *)
Theorem spe_frequencies_decreasing : forall h i j : nat, (1 <= h)%nat -> (i < j)%nat ->
  rope_spectrum 10000 h j < rope_spectrum 10000 h i.
Proof.
  intros h i j Hh Hij; unfold rope_spectrum, rope_frequency.
  apply Rpower_lt; [lra|].
  assert (0 < INR (2 * h)) by (apply lt_0_INR; lia).
  assert (INR i < INR j) by (apply lt_INR; exact Hij).
  unfold Rdiv; apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|lra].
Qed.

(* "each pair of dimensions corresponds to a sinusoid at a distinct
   wavelength": two different pairs never share a wavelength 2 pi / w_i. *)
Theorem spe_distinct_wavelengths : forall h i j : nat, (1 <= h)%nat -> i <> j ->
  Sinusoidal.wavelength (2 * h) i <> Sinusoidal.wavelength (2 * h) j.
Proof.
  intros h i j Hh Hij E; unfold Sinusoidal.wavelength in E.
  assert (Hpos : forall n, 0 < rope_frequency 10000 (2 * h) n)
    by (intros n; unfold rope_frequency, Rpower; apply exp_pos).
  assert (Hw : rope_frequency 10000 (2 * h) i = rope_frequency 10000 (2 * h) j).
  { pose proof PI_RGT_0; unfold Rdiv in E.
    apply Rmult_eq_reg_l in E; [|lra].
    rewrite <- (Rinv_inv (rope_frequency 10000 (2 * h) i)), <- (Rinv_inv (rope_frequency 10000 (2 * h) j)), E.
    reflexivity. }
  assert (Hcases : (i < j \/ j < i)%nat) by lia; destruct Hcases as [Hlt|Hgt].
  - pose proof (spe_frequencies_decreasing h i j Hh Hlt); unfold rope_spectrum in *; lra.
  - pose proof (spe_frequencies_decreasing h j i Hh Hgt); unfold rope_spectrum in *; lra.
Qed.

(** ** BINARY-3-TO-4-FLIPS-004 and BINARY-TABLE-004 *)

Local Open Scope nat_scope.

(* "going from position 3 (binary 011) to 4 (binary 100) flips all bits":
   in the three-bit strings the sentence writes, all three bits flip. *)
Theorem binary_3_to_4_flips_004 : flipped_bits 3 3 4 = 3%nat.
Proof. vm_compute; reflexivity. Qed.

(* In the 8-bit representation of the blog's table, 3 of the 8 bits flip. *)
Theorem binary_3_to_4_flips_004_literal_negation : flipped_bits 8 3 4 <> 8%nat.
Proof. vm_compute; discriminate. Qed.

(* Every row of the table is its position in 8-bit binary, and over the
   positions 0 .. 120 of the blog's figure the lowest bit changes at every
   step while the highest never does ("the lowest bit ... varies a lot
   compared to the higher indices"). *)
Theorem binary_table_004 :
  table_004_rows = map eight_bits (seq 0 12)
  /\ bit_changes 0 120 = 120%nat /\ bit_changes 7 120 = 0%nat.
Proof. vm_compute; repeat split; reflexivity. Qed.

Local Open Scope R_scope.

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

(** ** ROPE-SINE-TERM-WHOLE-SCORE-003 *)

(* "The sine term is the phase-sensitive part ... not just a negligible
   correction": when each query pair is orthogonal to its key pair the whole
   score is the sine term, for every even d and spectrum; e_0 against e_1
   scores sin((m - n) theta_0). *)
Theorem rope_sine_term_whole_score_003 :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
      (forall i, (i < h)%nat -> Rope.dot_pair q k i = 0) ->
      dot (2 * h) (rope theta h m q) (rope theta h n k)
      = sum h (fun i => Rope.cross_pair q k i * sin ((m - n) * theta i)))
  /\ (forall (h : nat) (theta : nat -> R) (m n : R), (1 <= h)%nat ->
      dot (2 * h) (rope theta h m (basis 0)) (rope theta h n (basis 1)) = sin ((m - n) * theta 0%nat)).
Proof.
  split.
  - intros h theta q k m n Horth; rewrite Rope.rope_kv_cos_only_correction.
    apply sum_ext; intros i Hi; rewrite (Horth i Hi); ring.
  - intros; apply Rope.rope_score_e0_e1; assumption.
Qed.

(** ** SPE-ADD-CHANGES-NORM-DIRECTION-004 *)

(* "the position vector gets added to the token embedding.  This changes the
   direction of the embedding" and, against RoPE, "The magnitude is preserved,
   so no semantic information loss unlike the sinusoidal encoding": for every
   even d >= 2, |x + PE(p)|^2 = |x|^2 + 2 <x, PE(p)> + d/2, so the norm grows
   whenever <x, PE(p)> >= 0, and x + PE(p) points along x only when PE(p)
   itself does. *)
Theorem spe_add_changes_norm_direction_004 :
  forall (h : nat) (p : R) (x : vec),
    norm2 (2 * h) (Sinusoidal.vadd x (Sinusoidal.spe h p))
      = norm2 (2 * h) x + 2 * dot (2 * h) x (Sinusoidal.spe h p) + INR h
    /\ ((1 <= h)%nat -> 0 <= dot (2 * h) x (Sinusoidal.spe h p) ->
        norm2 (2 * h) x < norm2 (2 * h) (Sinusoidal.vadd x (Sinusoidal.spe h p)))
    /\ (forall c : R, (forall j, (j < 2 * h)%nat -> Sinusoidal.vadd x (Sinusoidal.spe h p) j = c * x j) ->
          forall j, (j < 2 * h)%nat -> Sinusoidal.spe h p j = (c - 1) * x j).
Proof.
  intros h p x.
  assert (E : norm2 (2 * h) (Sinusoidal.vadd x (Sinusoidal.spe h p))
              = norm2 (2 * h) x + 2 * dot (2 * h) x (Sinusoidal.spe h p) + INR h).
  { rewrite <- (Sinusoidal.dot_spe_self h p); unfold norm2, dot, Sinusoidal.vadd.
    rewrite <- sum_scal_l, <- !sum_plus; apply sum_ext; intros; ring. }
  split; [exact E|split].
  - intros Hh Hdot; rewrite E; assert (0 < INR h) by (apply lt_0_INR; lia); lra.
  - intros c Hc j Hj; specialize (Hc j Hj); unfold Sinusoidal.vadd in Hc; lra.
Qed.

(** ** APE-PREFIX-STALE-003 *)

(* "Move the same prefix to a new location and the cached vectors still
   contain the old absolute position, so they no longer match the new block
   location": at d = 128, base 10000, a token cached as x + PE(n) is not the
   token x + PE(n + delta) it must be at the new location, for every real
   shift delta <> 0 (RoPE re-phases instead: ROPE-PREFIX-REPHASE). *)
Theorem ape_prefix_stale_003 : forall (x : vec) (n delta : R), delta <> 0 ->
  ~ (forall j, (j < 128)%nat ->
       Sinusoidal.vadd x (Sinusoidal.spe 64 n) j = Sinusoidal.vadd x (Sinusoidal.spe 64 (n + delta)) j).
Proof.
  intros x n delta Hdelta Hsame; apply Hdelta.
  assert (E : n = n + delta).
  { apply Positions.spe_unique_position_instance_d128; intros j Hj; specialize (Hsame j Hj).
    unfold Sinusoidal.vadd in Hsame; lra. }
  lra.
Qed.

(** ** SPE-SMOOTHNESS-004 *)

(* |sin y| <= |y|, squared: from sin y < y for y > 0. *)
Lemma sin_sq_le_sq_pos (y : R) : 0 < y -> sin y * sin y <= y * y.
Proof.
  intros Hy; pose proof (sin_lt_x y Hy); pose proof (SIN_bound y).
  destruct (Rle_or_lt 1 y) as [Hbig|Hsmall]; [nra|].
  assert (0 < sin y) by (apply sin_gt_0; [lra|pose proof PI2_3_2; lra]).
  nra.
Qed.

Lemma sin_sq_le_sq (y : R) : sin y * sin y <= y * y.
Proof.
  destruct (Rtotal_order y 0) as [Hn|[Hz|Hp]].
  - pose proof (sin_sq_le_sq_pos (- y) ltac:(lra)) as H; rewrite sin_neg in H; nra.
  - subst; rewrite sin_0; lra.
  - apply sin_sq_le_sq_pos; exact Hp.
Qed.

(* One (sin, cos) pair moves by at most the angle it turns through. *)
Lemma pair_step_le (a b : R) :
  (sin a - sin b) * (sin a - sin b) + (cos a - cos b) * (cos a - cos b) <= (a - b) * (a - b).
Proof.
  replace ((sin a - sin b) * (sin a - sin b) + (cos a - cos b) * (cos a - cos b))
    with (2 - 2 * cos (a - b))
    by (rewrite cos_minus; pose proof (sin2_cos2 a); pose proof (sin2_cos2 b); unfold Rsqr in *; nra).
  replace (a - b) with (2 * ((a - b) / 2)) at 1 by field; rewrite cos_2a_sin.
  pose proof (sin_sq_le_sq ((a - b) / 2)); nra.
Qed.

(* "Because sine and cosine are continuous, the encoding changes smoothly as p
   increments, satisfying the desire for small position shifts to cause small
   encoding shifts": |PE(p) - PE(q)|^2 <= (sum_i w_i^2) (p - q)^2, for every
   even d, every spectrum and every real p, q (a Lipschitz bound). *)
Theorem spe_smoothness_004 : forall (h : nat) (w : nat -> R) (p q : R),
  norm2 (2 * h) (fun j => Sinusoidal.pe w p j - Sinusoidal.pe w q j)
  <= sum h (fun i => w i * w i) * ((p - q) * (p - q)).
Proof.
  intros h w p q; unfold norm2; rewrite dot_pairs, <- sum_scal_r.
  apply sum_le; intros i _.
  rewrite !Sinusoidal.pe_even, !Sinusoidal.pe_odd.
  pose proof (pair_step_le (p * w i) (q * w i)) as H.
  replace ((p * w i - q * w i) * (p * w i - q * w i)) with (w i * w i * ((p - q) * (p - q))) in H by ring.
  lra.
Qed.

(* The definitions live in DefsRound3.v; these abbreviations keep `Round3.name` working for importers. *)
Notation flipped_bits := DefsRound3.flipped_bits (only parsing).
Notation table_004_rows := DefsRound3.table_004_rows (only parsing).
Notation eight_bits := DefsRound3.eight_bits (only parsing).
Notation bit_changes := DefsRound3.bit_changes (only parsing).
