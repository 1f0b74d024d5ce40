(* MenTable2Lower.v -- MEN-TABLE2-D128, the lower side of the correction: with d = 128 and
   B(m) = sum_{k<64} cos(m b^(-k/64)), B(m) >= 0 for every real m in [0, 12222.62] with the 16k
   base b = 3.1e5 (the first zero is 12222.6266) and in [0, 22465.54] with the 32k base 6.4e5
   (the first zero is 22465.5468); ScalingSizes.men_table2_16k_real / _32k_real show B < 0 one
   hundredth further.

   The 64 unit phases e^(i theta_k) of each base are enclosed within 2^-28 per coordinate
   (MenTable2Phases.v, generated); every power e^(i m theta_k), m = 0 .. n, is then formed by
   rounded rotations in 63-bit machine integers over 2^28 (the machinery of Decay128Trend.v at a
   finer scale: there 2^22 would lose about 1.1 of B by m = 11000), with an error of at most
   6 m 2^-28 per phase.  One boolean walk, evaluated by `vm_compute`, checks B(m) >= K / 4 at
   every integer m < n, K >= sum_k (theta_k^2 / 2 + theta_k^3 / 6); between two integers a chord
   lemma (cos_chord) loses at most K t (1 - t) <= K / 4.  The tail (n, n + h] is one chord from
   B(n) (checked >= K h^2) to B(n + h) >= 0 (`interval`).

   The argument is one Section (Walk), over the base, K, the centres, n, the two thresholds and
   h; lower_side is its theorem, and the two Table 2 entries are its instances at the end. *)

From Coq Require Import Bool ZArith Reals Lra Lia List.
From Coq Require Uint63 Sint63.
From Coquelicot Require Import Complex.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs DefsScaling DefsDecay Decay128Trend MenTable2Phases.
Import ListNotations.
Local Open Scope R_scope.

(* ------------------------------------------------------------------ the chord lemma *)

Lemma sin_abs_le_pos (x : R) : 0 <= x -> Rabs (sin x) <= x.
Proof.
  intros Hx; destruct (Req_dec x 0) as [->|Hne]; [rewrite sin_0, Rabs_R0; lra|].
  pose proof (sin_lt_x x ltac:(lra)); pose proof (SIN_bound x).
  destruct (Rle_or_lt x 1) as [H1|H1].
  - assert (HP : x <= PI) by (assert (3 < PI) by interval; lra).
    pose proof (sin_ge_0 x Hx HP); rewrite Rabs_right by lra; lra.
  - unfold Rabs; destruct (Rcase_abs (sin x)); lra.
Qed.

Lemma sin_abs_le (x : R) : Rabs (sin x) <= Rabs x.
Proof.
  destruct (Rle_or_lt 0 x) as [H|H].
  - rewrite (Rabs_right x) by lra; apply sin_abs_le_pos, H.
  - rewrite <- (Ropp_involutive x), sin_neg, Rabs_Ropp, Rabs_Ropp, (Rabs_right (- x)) by lra;
    apply sin_abs_le_pos; lra.
Qed.

Lemma one_minus_cos (u : R) : 0 <= 1 - cos u <= u ^ 2 / 2.
Proof.
  replace u with (2 * (u / 2)) at 1 2 by field; rewrite cos_2a_sin.
  set (v := u / 2); pose proof (sin_abs_le v) as H; pose proof (Rabs_pos (sin v)).
  assert (sin v * sin v <= v * v).
  { replace (sin v * sin v) with (Rabs (sin v) * Rabs (sin v)) by (rewrite <- Rabs_mult; apply Rabs_pos_eq; nra).
    replace (v * v) with (Rabs v * Rabs v) by (rewrite <- Rabs_mult; apply Rabs_pos_eq; nra).
    apply Rmult_le_compat; assumption. }
  pose proof (Rle_0_sqr (sin v)); unfold Rsqr in *; simpl.
  assert (v * v = u * u / 4) by (unfold v; field); split; lra.
Qed.

Lemma sin_cubic (u : R) : 0 <= u -> 0 <= u - sin u <= u ^ 3 / 6.
Proof.
  intros Hu; destruct (Req_dec u 0) as [->|Hne]; [rewrite sin_0; lra|].
  pose proof (sin_lt_x u ltac:(lra)).
  split; [lra|].
  destruct (Rle_or_lt u PI) as [Hp|Hp].
  - pose proof (sin_bound u 0 Hu Hp) as [Hlo _].
    unfold sin_approx, sin_term in Hlo; simpl in Hlo.
    replace (INR (fact 3)) with 6 in Hlo by (simpl; lra). unfold pow in Hlo. 
    assert (u - u * (u * (u * 1)) / 6 <= sin u) by (simpl in Hlo; lra). 
    unfold pow; lra.
  - assert (3 < PI) by interval; pose proof (SIN_bound u); nra.
Qed.

(* Between a and a + h, cos(x th) lies above its chord less (th^2 h^2 / 2 + th^3 h^3 / 6) t (1 - t),
   x = a + t h: with c = x th, alpha = t h th, beta = (1 - t) h th, the chord is
   cos c - cos c ((1 - t)(1 - cos alpha) + t (1 - cos beta))
         - sin c ((1 - t)(alpha - sin alpha) - t (beta - sin beta)),  as (1 - t) alpha = t beta. *)
Lemma cos_chord (th a h t : R) : 0 <= th -> 0 <= h -> 0 <= t <= 1 ->
  (1 - t) * cos (a * th) + t * cos ((a + h) * th) - (th ^ 2 * h ^ 2 / 2 + th ^ 3 * h ^ 3 / 6) * (t * (1 - t))
  <= cos ((a + t * h) * th).
Proof.
  intros Hth Hh Ht.
  set (c := (a + t * h) * th); set (al := t * h * th); set (be := (1 - t) * h * th).
  assert (Hal : 0 <= al) by (unfold al; apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  assert (Hbe : 0 <= be) by (unfold be; apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  replace (a * th) with (c - al) by (unfold c, al; ring).
  replace ((a + h) * th) with (c + be) by (unfold c, be; ring).
  rewrite cos_minus, cos_plus.
  pose proof (one_minus_cos al) as [Ca1 Ca2]; pose proof (one_minus_cos be) as [Cb1 Cb2].
  pose proof (sin_cubic al Hal) as [Sa1 Sa2]; pose proof (sin_cubic be Hbe) as [Sb1 Sb2].
  pose proof (COS_bound c); pose proof (SIN_bound c).
  set (X := (1 - t) * (1 - cos al) + t * (1 - cos be)).
  set (P := (1 - t) * (al - sin al)); set (Q := t * (be - sin be)).
  assert (E : (1 - t) * (cos c * cos al + sin c * sin al) + t * (cos c * cos be - sin c * sin be)
              = cos c - cos c * X + sin c * (Q - P)).
  { assert (Hab : t * be = (1 - t) * al) by (unfold al, be; ring).
    transitivity (cos c - cos c * X + sin c * (Q - P) + sin c * ((1 - t) * al - t * be));
      [unfold X, P, Q; ring|rewrite Hab; ring]. }
  rewrite E.
  assert (HX : 0 <= X) by (unfold X; nra).
  assert (HP : 0 <= P) by (unfold P; nra).
  assert (HQ : 0 <= Q) by (unfold Q; nra).
  assert (H1 : - (cos c * X) <= X) by nra.
  assert (H2 : sin c * (Q - P) <= Q + P) by nra.
  assert (H3 : X + P + Q <= (1 - t) * (al ^ 2 / 2) + t * (be ^ 2 / 2) + (1 - t) * (al ^ 3 / 6) + t * (be ^ 3 / 6)).
  { unfold X, P, Q.
    assert ((1 - t) * (1 - cos al) <= (1 - t) * (al ^ 2 / 2)) by (apply Rmult_le_compat_l; lra).
    assert (t * (1 - cos be) <= t * (be ^ 2 / 2)) by (apply Rmult_le_compat_l; lra).
    assert ((1 - t) * (al - sin al) <= (1 - t) * (al ^ 3 / 6)) by (apply Rmult_le_compat_l; lra).
    assert (t * (be - sin be) <= t * (be ^ 3 / 6)) by (apply Rmult_le_compat_l; lra).
    lra. }
  assert (E2 : (1 - t) * (al ^ 2 / 2) + t * (be ^ 2 / 2) = th ^ 2 * h ^ 2 / 2 * (t * (1 - t)))
    by (unfold al, be; field).
  set (q := th ^ 3 * h ^ 3 * (t * (1 - t))).
  assert (Hq : 0 <= q).
  { unfold q; apply Rmult_le_pos; [apply Rmult_le_pos; apply pow_le; assumption|nra]. }
  assert (E3 : (1 - t) * (al ^ 3 / 6) + t * (be ^ 3 / 6) = q * (t ^ 2 + (1 - t) ^ 2) / 6)
    by (unfold q, al, be; field).
  assert (Ht2 : t ^ 2 + (1 - t) ^ 2 <= 1) by (simpl; nra).
  assert (H4 : q * (t ^ 2 + (1 - t) ^ 2) <= q * 1) by (apply Rmult_le_compat_l; assumption).
  unfold q in *; lra.
Qed.

(* ------------------------------------------------------------------ sums over the 64 frequencies *)

Lemma rsum_le_terms (n : nat) (f g : nat -> R) : (forall k, (k < n)%nat -> f k <= g k) -> rsum n f <= rsum n g.
Proof.
  induction n as [|n IH]; intros H; cbn [rsum]; [lra|].
  pose proof (IH ltac:(intros k Hk; apply H; lia)); pose proof (H n ltac:(lia)); lra.
Qed.

Lemma rsum_chord_terms (n : nat) (f g l : nat -> R) (t p : R) :
  rsum n (fun k => (1 - t) * f k + t * g k - l k * p) = (1 - t) * rsum n f + t * rsum n g - rsum n l * p.
Proof. induction n as [|n IH]; cbn [rsum]; [ring|rewrite IH; ring]. Qed.

Lemma rsum_scale (n : nat) (c : R) (f : nat -> R) : rsum n (fun k => c * f k) = c * rsum n f.
Proof. induction n as [|n IH]; cbn [rsum]; [ring|rewrite IH; ring]. Qed.

Lemma rsum_shift (n : nat) (f : nat -> R) : rsum (S n) f = f 0%nat + rsum n (fun k => f (S k)).
Proof. induction n as [|n IH]; [cbn; ring|]; change (rsum (S (S n)) f) with (rsum (S n) f + f (S n)); rewrite IH; cbn [rsum]; ring. Qed.

(* ------------------------------------------------------------------ points over 2^28 (RoundedRotation.v) *)

Definition mscale : Z := 268435456.

Lemma mscale_Z_pos : (0 < mscale)%Z.
Proof. unfold mscale; lia. Qed.

Lemma mscale_pos : 0 < IZR mscale.
Proof. apply IZR_lt; exact mscale_Z_pos. Qed.

Definition mpoint (w : Z * Z) : C := scaled_point mscale w.

(* A rotation by a centre within 2 / 2^28 of its phase adds at most 6 / 2^28 to the error. *)
Definition mslack : R := 6 / IZR mscale.

Lemma mslack_pos : 0 <= mslack.
Proof. unfold mslack; pose proof mscale_pos; apply div_nonneg; lra. Qed.

(* c^n from 1 = (2^28, 0) / 2^28, one rounded rotation at a time. *)
Definition mpow (c : Z * Z) (n : nat) : Z * Z := power_floor mscale (mscale, 0%Z) c n.

Lemma mpow_error (t : R) (c : Z * Z) :
  Cmod (phase t - mpoint c)%C <= 2 / IZR mscale ->
  forall n : nat, INR n * mslack <= 1 -> Cmod (phase (INR n * t) - mpoint (mpow c n))%C <= INR n * mslack.
Proof.
  intros Hc n Hn; pose proof mscale_pos as Hs.
  assert (Es : rotation_slack mscale 1 = mslack) by (unfold rotation_slack, mslack; field; lra).
  assert (H0 : Cmod (phase 0 - scaled_point mscale (mscale, 0%Z))%C <= 0).
  { replace (phase 0 - scaled_point mscale (mscale, 0%Z))%C with (RtoC 0); [rewrite Cmod_0; lra|].
    unfold phase, scaled_point, Cminus, Cplus, Copp, RtoC; cbn [fst snd].
    rewrite cos_0, sin_0; f_equal; field; lra. }
  replace (2 / IZR mscale) with (2 * (IZR 1 / IZR mscale)) in Hc by (field; lra).
  pose proof (power_floor_error mscale mscale_Z_pos 1 ltac:(lia) 0 t 0 (mscale, 0%Z) c Hc H0 n) as Hp.
  rewrite Es, !Rplus_0_l in Hp; exact (Hp Hn).
Qed.

Lemma mnear_bounded (x : R) (W : Z * Z) : Cmod (phase x - mpoint W)%C <= 1 -> bounded (2 ^ 29) W.
Proof.
  intros He; pose proof (scaled_near_bounded mscale mscale_Z_pos x W He).
  change (2 ^ 29)%Z with (2 * mscale)%Z; assumption.
Qed.

(* ------------------------------------------------------------------ the same on 63-bit machine integers *)

Local Open Scope Z_scope.

(* Floor division by 2^28 (RoundedRotation.shift_floor_at): 2^33 = 2^(61 - 28) and 28 as machine integers. *)
Definition mbias_shifted : int := Eval vm_compute in Uint63.of_Z (2 ^ 33).
Definition mbits : int := Eval vm_compute in Uint63.of_Z 28.

Definition mrot_int (w c : int * int) : int * int := rotate_int_at mbias_shifted mbits w c.

Definition mone_int : int * int := (Uint63.of_Z mscale, Uint63.of_Z 0).

Definition mpow_int (c : int * int) (n : nat) : int * int := power_int_at mbias_shifted mbits mone_int c n.

Lemma mpow_int_spec (c : int * int) (n : nat) :
  bounded (2 ^ 28) (zvp c) -> (forall n', (n' <= n)%nat -> bounded (2 ^ 29) (mpow (zvp c) n')) ->
  zvp (mpow_int c n) = mpow (zvp c) n.
Proof. exact (power_int_at_spec 28 ltac:(lia) mbias_shifted mbits eq_refl eq_refl mone_int c n). Qed.

Definition sum_fst (ws : list (int * int)) : int :=
  fold_right (fun w a => PrimInt63.add (fst w) a) (Uint63.of_Z 0) ws.

Definition zsum_fst (ws : list (Z * Z)) : Z := fold_right (fun w a => fst w + a) 0 ws.

Lemma sum_fst_spec (ws : list (int * int)) :
  Forall (fun w => Z.abs (zv (fst w)) <= 2 ^ 29) ws -> (length ws <= 64)%nat ->
  zv (sum_fst ws) = zsum_fst (map zvp ws) /\ Z.abs (zsum_fst (map zvp ws)) <= Z.of_nat (length ws) * 2 ^ 29.
Proof.
  induction ws as [|w ws IH]; intros Hall Hlen; [split; reflexivity|].
  inversion Hall as [|w' ws' Hw Hrest]; subst w' ws'.
  cbn [length] in Hlen; destruct (IH Hrest ltac:(lia)) as [E B].
  assert (Hs : Z.of_nat (length (w :: ws)) = Z.of_nat (length ws) + 1) by (cbn [length]; lia).
  rewrite Hs; clear Hs.
  change (sum_fst (w :: ws)) with (PrimInt63.add (fst w) (sum_fst ws)).
  change (zsum_fst (map zvp (w :: ws))) with (zv (fst w) + zsum_fst (map zvp ws)).
  assert (Z.of_nat (length ws) <= 63) by lia.
  split; [rewrite add_exact; rewrite E; lia|lia].
Qed.

(* 64 * 6 = 384: the error of sum_k cos over 2^28 grows by at most this per rotation. *)
Definition err_step : int := Eval vm_compute in Uint63.of_Z 384.

(* k <= x for x below 2^61, with the unsigned comparisons (their specifications are Uint63's). *)
Definition ge_int (k x : int) : bool := PrimInt63.leb k x && PrimInt63.ltb x bias.

Lemma ge_int_spec (k x : int) : ge_int k x = true -> zv k <= zv x.
Proof.
  unfold ge_int; intros H; apply andb_true_iff in H as [H1 H2].
  apply Uint63.leb_spec in H1; apply Uint63.ltb_spec in H2.
  change (Uint63.to_Z bias) with (2 ^ 61) in H2.
  pose proof (Uint63.to_Z_bounded k); pose proof (Uint63.to_Z_bounded x).
  rewrite !zv_small by lia; exact H1.
Qed.

Local Open Scope R_scope.

Lemma zsum_rsum (l : list (Z * Z)) : IZR (zsum_fst l) = rsum (length l) (fun k => IZR (fst (nth k l (0%Z, 0%Z)))).
Proof.
  induction l as [|w l IH]; [reflexivity|].
  cbn [length]; rewrite rsum_shift; cbn [nth zsum_fst fold_right]; rewrite plus_IZR.
  unfold zsum_fst in IH; rewrite IH; reflexivity.
Qed.

Lemma rsum_affine (n : nat) (f : nat -> R) (s c : R) : rsum n (fun k => f k / s - c) = rsum n f / s - INR n * c.
Proof. induction n as [|n IH]; cbn [rsum]; [simpl; unfold Rdiv; ring|rewrite IH, S_INR; unfold Rdiv; ring]. Qed.


(* ------------------------------------------------------------------ the argument, for one base *)

Section Walk.

Variable base : R.

Definition theta (k : nat) : R := rope_frequency base 128 k.

(* B(x) = sum_k cos(x theta_k), half of Defs' all_ones_score. *)
Definition score (x : R) : R := rsum 64 (fun k => cos (x * theta k)).

Lemma all_ones_score_half (x : R) : all_ones_score base 64 x = 2 * score x.
Proof.
  unfold all_ones_score, score, theta; change (2 * 64)%nat with 128%nat.
  apply rsum_scale.
Qed.

Lemma theta_nonneg (k : nat) : 0 <= theta k.
Proof. unfold theta, rope_frequency, Rpower; left; apply exp_pos. Qed.

(* K bounds the chord loss of all 64 frequencies over a unit step. *)
Variable K : R.
Hypothesis K_nonneg : 0 <= K.
Hypothesis loss_sum : rsum 64 (fun k => theta k ^ 2 / 2 + theta k ^ 3 / 6) <= K.

Lemma score_chord (a h t : R) : 0 <= h <= 1 -> 0 <= t <= 1 ->
  (1 - t) * score a + t * score (a + h) - K * h ^ 2 * (t * (1 - t)) <= score (a + t * h).
Proof.
  intros Hh Ht; pose proof loss_sum.
  assert (Hl : rsum 64 (fun k => theta k ^ 2 * h ^ 2 / 2 + theta k ^ 3 * h ^ 3 / 6)
               <= h ^ 2 * rsum 64 (fun k => theta k ^ 2 / 2 + theta k ^ 3 / 6)).
  { rewrite <- rsum_scale; apply rsum_le_terms; intros k _; pose proof (theta_nonneg k).
    assert (h ^ 3 <= h ^ 2) by (simpl; nra).
    assert (0 <= theta k ^ 3) by (apply pow_le; lra); nra. }
  assert (Hp : 0 <= t * (1 - t)) by nra.
  assert (0 <= h ^ 2) by (apply pow_le; lra).
  assert (Hc : rsum 64 (fun k => (1 - t) * cos (a * theta k) + t * cos ((a + h) * theta k)
                                 - (theta k ^ 2 * h ^ 2 / 2 + theta k ^ 3 * h ^ 3 / 6) * (t * (1 - t)))
               <= score (a + t * h)).
  { apply rsum_le_terms; intros k _; apply cos_chord; [apply theta_nonneg|lra|lra]. }
  rewrite rsum_chord_terms in Hc; unfold score.
  assert (h ^ 2 * rsum 64 (fun k => theta k ^ 2 / 2 + theta k ^ 3 / 6) <= h ^ 2 * K)
    by (apply Rmult_le_compat_l; assumption).
  assert (rsum 64 (fun k => theta k ^ 2 * h ^ 2 / 2 + theta k ^ 3 * h ^ 3 / 6) * (t * (1 - t))
          <= K * h ^ 2 * (t * (1 - t))).
  { replace (K * h ^ 2) with (h ^ 2 * K) by ring.
    apply Rmult_le_compat_r; [assumption|lra]. }
  unfold score in Hc; lra.
Qed.

(* The centres of the unit phases over 2^28 (MenTable2Phases.v). *)
Variable centres : list (Z * Z).
Hypothesis centres_length : length centres = 64%nat.
Hypothesis centres_small :
  forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 28) && Z.leb (Z.abs (snd p)) (2 ^ 28)) centres = true.
Hypothesis phases : forall k : nat, (k < 64)%nat ->
  Rabs (cos (theta k) - IZR (fst (nth k centres (0%Z, 0%Z))) / 268435456) <= 1 / 268435456 /\
  Rabs (sin (theta k) - IZR (snd (nth k centres (0%Z, 0%Z))) / 268435456) <= 1 / 268435456.

(* The walk reaches m = walk_length: walk_length mslack < 1. *)
Variable walk_length : nat.
Hypothesis walk_short : (Z.of_nat walk_length <= 40000)%Z.

Lemma walk_slack (n : nat) : (n <= walk_length)%nat -> INR n * mslack <= 1.
Proof.
  intros Hn; apply le_INR in Hn.
  assert (Hw : INR walk_length <= 40000) by (rewrite INR_IZR_INZ; apply IZR_le in walk_short; exact walk_short).
  pose proof mslack_pos; unfold mslack, mscale in *; pose proof (pos_INR n).
  assert (INR n * (6 / IZR 268435456) <= 40000 * (6 / IZR 268435456)) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

Lemma centre_near (k : nat) : (k < 64)%nat ->
  Cmod (phase (theta k) - mpoint (nth k centres (0%Z, 0%Z)))%C <= 2 / IZR mscale.
Proof.
  intros Hk; destruct (phases k Hk) as [Hc Hs].
  replace (2 / IZR mscale) with (2 * (1 / IZR mscale)) by (unfold Rdiv; ring).
  apply Cmod_box; unfold phase, mpoint, scaled_point, Cminus, Cplus, Copp, mscale; cbn [fst snd]; assumption.
Qed.

(* Each power within m mslack of e^(i m theta_k), hence its cosine within that too. *)
Lemma power_cos (k n : nat) : (k < 64)%nat -> (n <= walk_length)%nat ->
  IZR (fst (mpow (nth k centres (0%Z, 0%Z)) n)) / IZR mscale - INR n * mslack <= cos (INR n * theta k)
  /\ bounded (2 ^ 29) (mpow (nth k centres (0%Z, 0%Z)) n).
Proof.
  intros Hk Hn; pose proof (mpow_error _ _ (centre_near k Hk) n (walk_slack n Hn)) as H.
  split; [|apply (mnear_bounded (INR n * theta k)); pose proof (walk_slack n Hn); lra].
  pose proof (fst_le_Cmod (phase (INR n * theta k) - mpoint (mpow (nth k centres (0%Z, 0%Z)) n))%C) as F.
  unfold phase, mpoint, scaled_point, Cminus, Cplus, Copp in F, H; cbn [fst snd] in F, H.
  set (x := cos (INR n * theta k) + - (IZR (fst (mpow (nth k centres (0%Z, 0%Z)) n)) / IZR mscale)) in *.
  pose proof (Rle_abs (- x)) as A; rewrite Rabs_Ropp in A.
  assert (B : - x <= INR n * mslack) by lra; unfold x in B.
  lra.
Qed.

Local Open Scope Z_scope.

Definition centres_int : list (int * int) := map point_int centres.

Lemma centre_int (k : nat) : (k < 64)%nat ->
  zvp (nth k centres_int (point_int (0, 0))) = nth k centres (0, 0) /\ bounded (2 ^ 28) (nth k centres (0, 0)).
Proof.
  intros Hk; unfold centres_int; rewrite map_nth.
  assert (Hin : In (nth k centres (0, 0)) centres) by (apply nth_In; rewrite centres_length; exact Hk).
  pose proof (proj1 (forallb_forall _ _) centres_small _ Hin) as H; cbv beta in H.
  apply andb_true_iff in H as [H1 H2]; apply Z.leb_le in H1, H2.
  split; [|split; assumption].
  unfold zvp, point_int; cbn [fst snd]; rewrite !zv_of_Z by lia; destruct (nth k centres (0, 0)); reflexivity.
Qed.

(* The centres as machine integers, computed once by the instance (the walk would otherwise convert them
   again at every step: the kernel's and coqchk's reduction does not share a constant's unfoldings). *)
Variable cs : list (int * int).
Hypothesis cs_ok : cs = centres_int.

(* The 64 powers c_k^n, and one step of all of them. *)
Definition powers_at (n : nat) : list (int * int) := map (fun c => mpow_int c n) cs.

Definition step_all (ws : list (int * int)) : list (int * int) :=
  map (fun p => mrot_int (fst p) (snd p)) (combine ws cs).

Lemma step_powers (n : nat) : step_all (powers_at n) = powers_at (S n).
Proof.
  unfold step_all, powers_at; generalize cs as l; intros l; induction l as [|c l IH]; [reflexivity|].
  cbn [map combine]; rewrite IH; reflexivity.
Qed.

(* The thresholds over 2^28: every integer point below walk_length, and walk_length itself. *)
Variables kquarter ktail : int.

(* Checks the lower bound at n points from `ws` on, and hands back the powers after n steps. *)
Fixpoint walk (n : nat) (e : int) (ws : list (int * int)) : bool * list (int * int) :=
  match n with
  | O => (true, ws)
  | S n' => if ge_int kquarter (PrimInt63.sub (sum_fst ws) e)
            then walk n' (PrimInt63.add e err_step) (step_all ws) else (false, ws)
  end.

Lemma powers_at_spec (n : nat) : (n <= walk_length)%nat ->
  Forall (fun w => Z.abs (zv (fst w)) <= 2 ^ 29) (powers_at n) /\ length (powers_at n) = 64%nat /\
  zsum_fst (map zvp (powers_at n)) = zsum_fst (map (fun c => mpow c n) centres).
Proof.
  intros Hn.
  assert (Hk : forall k, (k < 64)%nat ->
            zvp (nth k (powers_at n) (mone_int)) = mpow (nth k centres (0, 0)) n
            /\ bounded (2 ^ 29) (mpow (nth k centres (0, 0)) n)).
  { intros k Hk; destruct (centre_int k Hk) as [Ec Bc].
    unfold powers_at; rewrite cs_ok.
    rewrite (nth_indep _ _ ((fun c => mpow_int c n) (point_int (0, 0))))
      by (unfold centres_int; rewrite !map_length, centres_length; exact Hk).
    rewrite (map_nth (fun c => mpow_int c n) centres_int (point_int (0, 0)) k), mpow_int_spec, Ec.
    - split; [reflexivity|]; apply (power_cos k n Hk Hn).
    - rewrite Ec; exact Bc.
    - intros n' Hn'; rewrite Ec; apply (power_cos k n' Hk); lia. }
  assert (Hlen : length (powers_at n) = 64%nat)
    by (unfold powers_at; rewrite cs_ok; unfold centres_int; rewrite !map_length; exact centres_length).
  split; [|split; [exact Hlen|]].
  - apply Forall_forall; intros w Hw; apply (In_nth _ _ mone_int) in Hw as [k [Hk' Ew]].
    rewrite Hlen in Hk'; destruct (Hk k Hk') as [E [B _]]; subst w; unfold zvp in E.
    rewrite <- E in B; exact B.
  - assert (Hmap : map zvp (powers_at n) = map (fun c => mpow c n) centres).
    { apply (nth_ext _ _ (0, 0) (0, 0)); [rewrite !map_length, Hlen, centres_length; reflexivity|].
      intros k Hk'; rewrite map_length, Hlen in Hk'.
      rewrite (nth_indep _ _ (zvp mone_int)) by (rewrite map_length, Hlen; exact Hk').
      rewrite (map_nth zvp (powers_at n) mone_int k), (proj1 (Hk k Hk')).
      rewrite (nth_indep (map (fun c => mpow c n) centres) (0, 0) ((fun c => mpow c n) (0, 0)))
        by (rewrite map_length, centres_length; exact Hk').
      rewrite (map_nth (fun c => mpow c n) centres (0, 0) k); reflexivity. }
    rewrite Hmap; reflexivity.
Qed.

Lemma walk_sound (n : nat) : forall j e,
  (j + n <= walk_length)%nat -> zv e = 384 * Z.of_nat j -> fst (walk n e (powers_at j)) = true ->
  (forall i, (j <= i < j + n)%nat ->
     zv kquarter <= zv (sum_fst (powers_at i)) - 384 * Z.of_nat i) /\
  snd (walk n e (powers_at j)) = powers_at (j + n).
Proof.
  induction n as [|n IH]; intros j e Hj He Hw; [split; [intros; lia|rewrite Nat.add_0_r; reflexivity]|].
  cbn [walk] in Hw |- *.
  destruct (ge_int kquarter (PrimInt63.sub (sum_fst (powers_at j)) e)) eqn:Hg; [|discriminate].
  pose proof (ge_int_spec _ _ Hg) as Hle.
  destruct (powers_at_spec j ltac:(lia)) as [Hall [Hlen _]].
  destruct (sum_fst_spec _ Hall ltac:(lia)) as [Es Bs]; rewrite Hlen in Bs.
  assert (Hjw : Z.of_nat j <= 40000) by lia.
  assert (Hsub : zv (PrimInt63.sub (sum_fst (powers_at j)) e) = zv (sum_fst (powers_at j)) - zv e).
  { apply sub_exact; rewrite Es, He; change (Z.of_nat 64) with 64 in Bs; lia. }
  rewrite step_powers in Hw |- *.
  assert (He' : zv (PrimInt63.add e err_step) = 384 * Z.of_nat (S j)).
  { rewrite add_exact; change (zv err_step) with 384; rewrite He; lia. }
  destruct (IH (S j) _ ltac:(lia) He' Hw) as [Hrest Hend].
  split; [|rewrite Hend; f_equal; lia].
  intros i Hi; destruct (Nat.eq_dec i j) as [->|Hne]; [lia|apply Hrest; lia].
Qed.

Local Open Scope R_scope.

Lemma point_lower (i : nat) : (i <= walk_length)%nat ->
  IZR (zv (sum_fst (powers_at i)) - 384 * Z.of_nat i) / IZR mscale <= score (INR i).
Proof.
  intros Hi; destruct (powers_at_spec i Hi) as [Hall [Hlen Ez]].
  destruct (sum_fst_spec _ Hall ltac:(lia)) as [Es _]; rewrite Es, Ez.
  rewrite minus_IZR, zsum_rsum, map_length, centres_length.
  assert (Hterms : rsum 64 (fun k => IZR (fst (nth k (map (fun c => mpow c i) centres) (0%Z, 0%Z))) / IZR mscale
                                     - INR i * mslack) <= score (INR i)).
  { unfold score; apply rsum_le_terms; intros k Hk.
    rewrite (nth_indep (map (fun c => mpow c i) centres) (0%Z, 0%Z) ((fun c => mpow c i) (0%Z, 0%Z)))
      by (rewrite map_length, centres_length; exact Hk).
    rewrite (map_nth (fun c => mpow c i) centres (0%Z, 0%Z) k).
    apply (power_cos k i Hk Hi). }
  rewrite rsum_affine in Hterms.
  rewrite mult_IZR, <- INR_IZR_INZ.
  replace (INR 64) with 64 in Hterms by (rewrite INR_IZR_INZ; reflexivity).
  unfold mslack in Hterms; pose proof mscale_pos.
  replace ((rsum 64 (fun k => IZR (fst (nth k (map (fun c => mpow c i) centres) (0%Z, 0%Z)))) - IZR 384 * INR i)
           / IZR mscale)
    with (rsum 64 (fun k => IZR (fst (nth k (map (fun c => mpow c i) centres) (0%Z, 0%Z)))) / IZR mscale
          - 64 * (INR i * (6 / IZR mscale))) by (field; lra).
  exact Hterms.
Qed.

(* The whole check: the walk over 0 .. walk_length - 1 against kquarter, and walk_length against ktail. *)
Definition walk_check : bool :=
  let r := walk walk_length (Uint63.of_Z 0) (powers_at 0) in
  fst r && ge_int ktail (PrimInt63.sub (sum_fst (snd r)) (Uint63.of_Z (384 * Z.of_nat walk_length))).

Hypothesis check : walk_check = true.
Hypothesis kquarter_bound : K / 4 <= IZR (zv kquarter) / IZR mscale.
Hypothesis ktail_quarter : K / 4 <= IZR (zv ktail) / IZR mscale.

Lemma threshold_point (n : nat) (k : int) : (n <= walk_length)%nat ->
  (zv k <= zv (sum_fst (powers_at n)) - 384 * Z.of_nat n)%Z -> IZR (zv k) / IZR mscale <= score (INR n).
Proof.
  intros Hn Hle; pose proof mscale_pos; pose proof (point_lower n Hn) as Hp.
  apply IZR_le in Hle.
  assert (IZR (zv k) / IZR mscale <= IZR (zv (sum_fst (powers_at n)) - 384 * Z.of_nat n) / IZR mscale)
    by (apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact Hle]).
  lra.
Qed.

(* B(n) >= ktail where the walk ends. *)
Lemma tail_point (n : nat) : (n <= walk_length)%nat ->
  ge_int ktail (PrimInt63.sub (sum_fst (powers_at n)) (Uint63.of_Z (384 * Z.of_nat n))) = true ->
  IZR (zv ktail) / IZR mscale <= score (INR n).
Proof.
  intros Hn Ht; apply (threshold_point n ktail Hn).
  pose proof (ge_int_spec _ _ Ht) as Hle.
  destruct (powers_at_spec n Hn) as [Hall' [Hlen _]].
  destruct (sum_fst_spec _ Hall' ltac:(lia)) as [Es Bs]; rewrite Hlen in Bs.
  assert (Hj : (Z.of_nat n <= 40000)%Z) by lia.
  assert (Ee : zv (Uint63.of_Z (384 * Z.of_nat n)) = (384 * Z.of_nat n)%Z) by (apply zv_of_Z; lia).
  rewrite sub_exact, Ee in Hle; [exact Hle|rewrite Ee, Es; change (Z.of_nat 64) with 64%Z in Bs; lia].
Qed.

Lemma walk_end (ws : list (int * int)) (e : int) :
  ws = powers_at (0 + walk_length) -> ge_int ktail (PrimInt63.sub (sum_fst ws) e) = true ->
  ge_int ktail (PrimInt63.sub (sum_fst (powers_at walk_length)) e) = true.
Proof. intros ->; exact (fun H => H). Qed.

(* B >= K / 4 at 0 .. walk_length - 1 and B >= ktail at walk_length. *)
Lemma integer_points :
  (forall i : nat, (i < walk_length)%nat -> K / 4 <= score (INR i)) /\
  IZR (zv ktail) / IZR mscale <= score (INR walk_length).
Proof.
  pose proof check as Hc; unfold walk_check in Hc; apply andb_true_iff in Hc as [Hw Ht].
  destruct (walk_sound walk_length 0 (Uint63.of_Z 0) ltac:(lia) eq_refl Hw) as [Hall Hend].
  split.
  - intros i Hi; pose proof (threshold_point i kquarter ltac:(lia) (Hall i ltac:(lia))); lra.
  - exact (tail_point walk_length (le_n _) (walk_end _ _ Hend Ht)).
Qed.

(* The tail: one chord of length h from walk_length, where B >= ktail >= K h^2, to B(walk_length + h) >= 0. *)
Variable h : R.
Hypothesis tail_step : 0 < h <= 1.
Hypothesis ktail_bound : K * h ^ 2 <= IZR (zv ktail) / IZR mscale.
Hypothesis tail_end : 0 <= score (INR walk_length + h).

Theorem lower_side : forall m : R, 0 <= m <= INR walk_length + h -> 0 <= all_ones_score base 64 m.
Proof.
  intros m [Hm0 Hm1]; rewrite all_ones_score_half.
  enough (0 <= score m) by lra.
  destruct integer_points as [Hint Hlast].
  set (a := IZR (zv ktail) / IZR mscale) in *.
  destruct (Rle_or_lt (INR walk_length) m) as [Htail|Hbody].
  - (* one chord from walk_length to walk_length + h, t = (m - walk_length) / h *)
    set (t := (m - INR walk_length) / h).
    assert (Ht : 0 <= t <= 1).
    { unfold t; split; [apply div_nonneg; lra|].
      apply Rmult_le_reg_r with h; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra; lra. }
    pose proof (score_chord (INR walk_length) h t ltac:(lra) Ht) as C.
    replace (INR walk_length + t * h) with m in C by (unfold t; field; lra).
    assert (0 <= t * score (INR walk_length + h)) by (apply Rmult_le_pos; lra).
    assert ((1 - t) * a <= (1 - t) * score (INR walk_length)) by (apply Rmult_le_compat_l; lra).
    assert (0 <= K * h ^ 2) by (apply Rmult_le_pos; [lra|apply pow_le; lra]).
    assert (K * h ^ 2 * (t * (1 - t)) <= K * h ^ 2 * (1 - t)).
    { apply Rmult_le_compat_l; [lra|]. assert (0 <= 1 - t) by lra. nra. }
    assert (0 <= (1 - t) * (a - K * h ^ 2)) by (apply Rmult_le_pos; lra).
    nra.
  - (* a chord between the integers n <= m < n + 1 *)
    set (z := Int_part m); pose proof (base_Int_part m) as [Hz1 Hz2]; fold z in Hz1, Hz2.
    assert (Hz0 : (0 <= z)%Z) by (assert (-1 < z)%Z by (apply lt_IZR; lra); lia).
    set (n := Z.to_nat z).
    assert (Hn : INR n = IZR z) by (unfold n; rewrite INR_IZR_INZ, Z2Nat.id by exact Hz0; reflexivity).
    assert (Hlt : (n < walk_length)%nat) by (apply INR_lt; rewrite Hn; lra).
    set (t := m - INR n).
    assert (Ht : 0 <= t <= 1) by (unfold t; lra).
    pose proof (score_chord (INR n) 1 t ltac:(lra) Ht) as C.
    replace (INR n + t * 1) with m in C by (unfold t; ring).
    pose proof (Hint n Hlt) as A.
    assert (B : K / 4 <= score (INR n + 1)).
    { destruct (Nat.eq_dec (S n) walk_length) as [E|E].
      - rewrite <- S_INR, E; lra.
      - rewrite <- S_INR; apply Hint; lia. }
    assert (0 <= (t - 1 / 2) * (t - 1 / 2)) by (pose proof (Rle_0_sqr (t - 1 / 2)); unfold Rsqr in *; lra).
    assert (Hq : t * (1 - t) <= 1 / 4)
      by (replace (t * (1 - t)) with (1 / 4 - (t - 1 / 2) * (t - 1 / 2)) by field; lra).
    assert ((1 - t) * (K / 4) <= (1 - t) * score (INR n)) by (apply Rmult_le_compat_l; lra).
    assert (t * (K / 4) <= t * score (INR n + 1)) by (apply Rmult_le_compat_l; lra).
    assert (K * (t * (1 - t)) <= K * (1 / 4)) by (apply Rmult_le_compat_l; lra).
    replace (1 ^ 2) with 1 in C by ring.
    lra.
Qed.

End Walk.

(* ------------------------------------------------------------------ Table 2's 16k and 32k entries *)

Ltac numerals :=
  repeat match goal with
         | |- context [INR ?k] => rewrite (INR_IZR_INZ k); let v := eval vm_compute in (Z.of_nat k) in
                                  change (Z.of_nat k) with v
         end.

Lemma centres_small_16k :
  forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 28) && Z.leb (Z.abs (snd p)) (2 ^ 28)) men_centres_16k = true.
Proof. vm_compute; reflexivity. Qed.

Lemma centres_small_32k :
  forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 28) && Z.leb (Z.abs (snd p)) (2 ^ 28)) men_centres_32k = true.
Proof. vm_compute; reflexivity. Qed.

(* K: the chord loss sum is 1.90453 with the 16k base and 1.82207 with the 32k base. *)
Lemma loss_sum_16k : rsum 64 (fun k => theta 310000 k ^ 2 / 2 + theta 310000 k ^ 3 / 6) <= 1905 / 1000.
Proof. unfold theta; cbn [rsum]; unfold rope_frequency, Rpower; numerals; interval. Qed.

Lemma loss_sum_32k : rsum 64 (fun k => theta 640000 k ^ 2 / 2 + theta 640000 k ^ 3 / 6) <= 1823 / 1000.
Proof. unfold theta; cbn [rsum]; unfold rope_frequency, Rpower; numerals; interval. Qed.

(* The thresholds over 2^28, rounded up: K / 4 and K h^2 (h = 0.62, 0.54), each >= K / 4. *)
Definition walk_16k : nat := 12222.
Definition kquarter_16k : int := Eval vm_compute in Uint63.of_Z 127843000.
Definition ktail_16k : int := Eval vm_compute in Uint63.of_Z 198643000.
Definition walk_32k : nat := 22465.
Definition kquarter_32k : int := Eval vm_compute in Uint63.of_Z 122340000.
Definition ktail_32k : int := Eval vm_compute in Uint63.of_Z 142700000.

Definition centres_int_16k : list (int * int) := Eval vm_compute in centres_int men_centres_16k.
Definition centres_int_32k : list (int * int) := Eval vm_compute in centres_int men_centres_32k.

Lemma check_16k : walk_check walk_16k centres_int_16k kquarter_16k ktail_16k = true.
Proof. vm_compute; reflexivity. Qed.

Lemma check_32k : walk_check walk_32k centres_int_32k kquarter_32k ktail_32k = true.
Proof. vm_compute; reflexivity. Qed.

Lemma walk_16k_R : INR walk_16k = 12222.
Proof. rewrite INR_IZR_INZ; reflexivity. Qed.

Lemma walk_32k_R : INR walk_32k = 22465.
Proof. rewrite INR_IZR_INZ; reflexivity. Qed.

(* B(12222.62) = 0.0079 > 0 and B(22465.54) = 0.0034 > 0. *)
Lemma tail_end_16k : 0 <= score 310000 (INR walk_16k + 62 / 100).
Proof. rewrite walk_16k_R; unfold score, theta; cbn [rsum]; unfold rope_frequency, Rpower; numerals; interval. Qed.

Lemma tail_end_32k : 0 <= score 640000 (INR walk_32k + 54 / 100).
Proof. rewrite walk_32k_R; unfold score, theta; cbn [rsum]; unfold rope_frequency, Rpower; numerals; interval. Qed.

(* MEN-TABLE2-D128, the lower side: with the 16k base 3.1e5, 2 sum_{i<64} cos(m 310000^(-i/64)) >= 0
   for every real m in [0, 12222.62]. *)
Theorem men_table2_16k_lower : forall m : R, 0 <= m <= 1222262 / 100 -> 0 <= all_ones_score 310000 64 m.
Proof.
  intros m Hm; pose proof mscale_pos.
  apply (lower_side 310000 (1905 / 1000) ltac:(lra) loss_sum_16k men_centres_16k eq_refl centres_small_16k
           men_phases_16k walk_16k ltac:(vm_compute; discriminate) centres_int_16k eq_refl kquarter_16k ktail_16k
           check_16k)
    with (h := 62 / 100); try (change (zv kquarter_16k) with 127843000%Z || change (zv ktail_16k) with 198643000%Z);
    unfold mscale; try lra.
  - exact tail_end_16k.
  - rewrite walk_16k_R; lra.
Qed.

(* The same with the 32k base 6.4e5, for every real m in [0, 22465.54]. *)
Theorem men_table2_32k_lower : forall m : R, 0 <= m <= 2246554 / 100 -> 0 <= all_ones_score 640000 64 m.
Proof.
  intros m Hm; pose proof mscale_pos.
  apply (lower_side 640000 (1823 / 1000) ltac:(lra) loss_sum_32k men_centres_32k eq_refl centres_small_32k
           men_phases_32k walk_32k ltac:(vm_compute; discriminate) centres_int_32k eq_refl kquarter_32k ktail_32k
           check_32k)
    with (h := 54 / 100); try (change (zv kquarter_32k) with 122340000%Z || change (zv ktail_32k) with 142700000%Z);
    unfold mscale; try lra.
  - exact tail_end_32k.
  - rewrite walk_32k_R; lra.
Qed.
