(* RoundedRotation.v -- points with integer coordinates over a scale s, rotated with each coordinate
   rounded down, and the error that this rounding and an enclosed rotation leave after D steps.  One
   Section over the scale and the enclosure radius, used at s = 2^22 by Decay128Trend.v (and through it
   InterpolationSizes.v) and at s = 2^28 by MenTable2Lower.v; the machine-integer checkers of those files
   compute the same rotations. *)

From Coq Require Import ZArith Reals Lra Lia.
From Coquelicot Require Import Complex.
From Ropecheck Require Import DefsDecay.
Local Open Scope R_scope.

Lemma div_nonneg (a b : R) : 0 <= a -> 0 < b -> 0 <= a / b.
Proof. intros Ha Hb; unfold Rdiv; apply Rmult_le_pos; [exact Ha|left; apply Rinv_0_lt_compat; exact Hb]. Qed.

Lemma div_pos (a b : R) : 0 < a -> 0 < b -> 0 < a / b.
Proof. intros Ha Hb; unfold Rdiv; apply Rmult_lt_0_compat; [exact Ha|apply Rinv_0_lt_compat; exact Hb]. Qed.

(* A point within r of another in each coordinate is within 2 r of it. *)
Lemma Cmod_box (w : C) (r : R) : Rabs (fst w) <= r -> Rabs (snd w) <= r -> Cmod w <= 2 * r.
Proof.
  intros Hx Hy; eapply Rle_trans; [apply Cmod_2Rmax|].
  assert (Hs : sqrt 2 <= 2).
  { rewrite <- (sqrt_square 2) at 2 by lra; apply sqrt_le_1_alt; lra. }
  assert (0 <= r) by (eapply Rle_trans; [apply Rabs_pos|exact Hx]).
  assert (Rmax (Rabs (fst w)) (Rabs (snd w)) <= r) by (apply Rmax_lub; assumption).
  assert (0 <= Rmax (Rabs (fst w)) (Rabs (snd w))) by (eapply Rle_trans; [apply Rabs_pos|apply Rmax_l]).
  pose proof (sqrt_pos 2); nra.
Qed.

Lemma Cmod_phase (x : R) : Cmod (phase x) = 1.
Proof.
  unfold Cmod, phase; cbn [fst snd].
  replace (cos x ^ 2 + sin x ^ 2) with 1 by (pose proof (sin2_cos2 x) as H; unfold Rsqr in H; lra).
  apply sqrt_1.
Qed.

Lemma phase_add (x y : R) : phase (x + y) = (phase x * phase y)%C.
Proof. unfold phase, Cmult; cbn [fst snd]; rewrite cos_plus, sin_plus; f_equal; ring. Qed.

Lemma fst_le_Cmod (z : C) : Rabs (fst z) <= Cmod z.
Proof.
  unfold Cmod; rewrite <- sqrt_Rsqr_abs; apply sqrt_le_1_alt; unfold Rsqr.
  destruct z as [x y]; cbn [fst snd]; nra.
Qed.

Lemma snd_le_Cmod (z : C) : Rabs (snd z) <= Cmod z.
Proof.
  unfold Cmod; rewrite <- sqrt_Rsqr_abs; apply sqrt_le_1_alt; unfold Rsqr.
  destruct z as [x y]; cbn [fst snd]; nra.
Qed.

Definition bounded (b : Z) (p : Z * Z) : Prop := (Z.abs (fst p) <= b /\ Z.abs (snd p) <= b)%Z.

Section Scale.

Variable s : Z.
Hypothesis s_pos : (0 < s)%Z.

Lemma scale_positive : 0 < IZR s.
Proof. apply IZR_lt; exact s_pos. Qed.

(* The point (x, y) / s. *)
Definition scaled_point (w : Z * Z) : C := (IZR (fst w) / IZR s, IZR (snd w) / IZR s).

(* w * c over s, each coordinate rounded down. *)
Definition rotate_floor (w c : Z * Z) : Z * Z :=
  (((fst w * fst c - snd w * snd c) / s)%Z, ((fst w * snd c + snd w * fst c) / s)%Z).

(* Rounding n / s^2 down to a multiple of 1 / s loses less than 1 / s. *)
Lemma scaled_floor_error (n : Z) :
  Rabs (IZR n / (IZR s * IZR s) - IZR (n / s) / IZR s) <= 1 / IZR s.
Proof.
  pose proof scale_positive as Hs.
  pose proof (Z.div_mod n s ltac:(lia)) as E.
  pose proof (Z.mod_pos_bound n s s_pos) as [H0 H1].
  set (q := (n / s)%Z) in *; set (r := (n mod s)%Z) in *.
  apply IZR_le in H0; apply IZR_lt in H1.
  rewrite E, plus_IZR, mult_IZR.
  replace ((IZR s * IZR q + IZR r) / (IZR s * IZR s) - IZR q / IZR s)
    with ((IZR r / IZR s) * (1 / IZR s)) by (field; lra).
  assert (Hr : 0 <= IZR r / IZR s <= 1).
  { split; [apply div_nonneg; lra|].
    apply Rmult_le_reg_r with (IZR s); [lra|].
    unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra; lra. }
  assert (0 < 1 / IZR s) by (apply div_pos; lra).
  rewrite Rabs_pos_eq by nra; nra.
Qed.

Lemma rotate_floor_error (w c : Z * Z) :
  Cmod (scaled_point w * scaled_point c - scaled_point (rotate_floor w c))%C <= 2 * (1 / IZR s).
Proof.
  pose proof scale_positive.
  apply Cmod_box; unfold scaled_point, rotate_floor, Cmult, Cminus, Cplus, Copp; cbn [fst snd].
  - replace (IZR (fst w) / IZR s * (IZR (fst c) / IZR s) - IZR (snd w) / IZR s * (IZR (snd c) / IZR s)
               + - (IZR ((fst w * fst c - snd w * snd c) / s) / IZR s))
      with (IZR (fst w * fst c - snd w * snd c) / (IZR s * IZR s) - IZR ((fst w * fst c - snd w * snd c) / s) / IZR s)
      by (rewrite minus_IZR, !mult_IZR; field; lra).
    apply scaled_floor_error.
  - replace (IZR (fst w) / IZR s * (IZR (snd c) / IZR s) + IZR (snd w) / IZR s * (IZR (fst c) / IZR s)
               + - (IZR ((fst w * snd c + snd w * fst c) / s) / IZR s))
      with (IZR (fst w * snd c + snd w * fst c) / (IZR s * IZR s) - IZR ((fst w * snd c + snd w * fst c) / s) / IZR s)
      by (rewrite plus_IZR, !mult_IZR; field; lra).
    apply scaled_floor_error.
Qed.

(* A coordinate of a point of modulus at most 2 is at most 2 s. *)
Lemma scaled_coordinate_bound (x : Z) : Rabs (IZR x / IZR s) <= 2 -> (Z.abs x <= 2 * s)%Z.
Proof.
  intros H; pose proof scale_positive.
  unfold Rdiv in H; rewrite Rabs_mult, Rabs_inv, (Rabs_pos_eq (IZR s)) in H by lra.
  assert (Rabs (IZR x) <= 2 * IZR s).
  { apply Rmult_le_reg_r with (/ IZR s); [apply Rinv_0_lt_compat; lra|].
    rewrite Rmult_assoc, Rinv_r by lra; lra. }
  apply le_IZR; rewrite abs_IZR, mult_IZR; lra.
Qed.

(* A point within 1 of a phase has coordinates at most 2 s. *)
Lemma scaled_near_bounded (x : R) (W : Z * Z) : Cmod (phase x - scaled_point W)%C <= 1 -> bounded (2 * s) W.
Proof.
  intros He.
  assert (HW : Cmod (scaled_point W) <= 2).
  { pose proof (Cmod_triangle (phase x) (scaled_point W - phase x)%C) as T.
    replace (phase x + (scaled_point W - phase x))%C with (scaled_point W) in T by ring.
    replace (scaled_point W - phase x)%C with (- (phase x - scaled_point W))%C in T by ring.
    rewrite Cmod_opp, Cmod_phase in T; lra. }
  split; apply scaled_coordinate_bound.
  - pose proof (fst_le_Cmod (scaled_point W)) as F; unfold scaled_point in F at 1; cbn [fst] in F; lra.
  - pose proof (snd_le_Cmod (scaled_point W)) as F; unfold scaled_point in F at 1; cbn [snd] in F; lra.
Qed.

(* The centres of the unit phases lie within r / s of them in each coordinate. *)
Variable r : Z.
Hypothesis r_nonneg : (0 <= r)%Z.

(* The growth of the error per rotation: 2 eta + 2 / s, eta = 2 r / s the error of a centre (a point),
   2 / s the rounding of one rotation. *)
Definition rotation_slack : R := 2 * (2 * (IZR r / IZR s)) + 2 * (1 / IZR s).

Lemma rotation_slack_pos : 0 <= rotation_slack.
Proof.
  pose proof scale_positive; unfold rotation_slack.
  assert (0 <= IZR r) by (apply IZR_le; exact r_nonneg).
  assert (0 <= IZR r / IZR s) by (apply div_nonneg; lra).
  assert (0 <= 1 / IZR s) by (apply div_nonneg; lra).
  lra.
Qed.

(* w0 c^D, one rounded rotation at a time. *)
Fixpoint power_floor (w0 c : Z * Z) (D : nat) : Z * Z :=
  match D with
  | O => w0
  | S D' => rotate_floor (power_floor w0 c D') c
  end.

(* D rounded rotations by a centre within eta of e^(i t), from a start within e0 of e^(i a), stay
   within e0 + D rotation_slack of e^(i (a + D t)), as long as that is at most 1. *)
Lemma power_floor_error (a t e0 : R) (w0 c : Z * Z) :
  Cmod (phase t - scaled_point c)%C <= 2 * (IZR r / IZR s) ->
  Cmod (phase a - scaled_point w0)%C <= e0 ->
  forall D : nat, e0 + INR D * rotation_slack <= 1 ->
    Cmod (phase (a + INR D * t) - scaled_point (power_floor w0 c D))%C <= e0 + INR D * rotation_slack.
Proof.
  intros Hc H0 D; induction D as [|D IH]; intros HD.
  - cbn [power_floor]; replace (a + INR 0 * t) with a by (simpl; ring).
    replace (e0 + INR 0 * rotation_slack) with e0 by (simpl; ring); exact H0.
  - pose proof rotation_slack_pos as Hd; pose proof scale_positive.
    assert (HD' : e0 + INR D * rotation_slack <= 1) by (rewrite S_INR in HD; lra).
    specialize (IH HD').
    set (W := scaled_point (power_floor w0 c D)) in *.
    set (Z0 := scaled_point c) in *.
    set (e := Cmod (phase (a + INR D * t) - W)%C) in *.
    change (power_floor w0 c (S D)) with (rotate_floor (power_floor w0 c D) c).
    replace (a + INR (S D) * t) with ((a + INR D * t) + t) by (rewrite S_INR; ring).
    rewrite phase_add.
    pose proof (rotate_floor_error (power_floor w0 c D) c) as Hr; fold W Z0 in Hr.
    replace (phase (a + INR D * t) * phase t - scaled_point (rotate_floor (power_floor w0 c D) c))%C
      with (phase (a + INR D * t) * (phase t - Z0) + (phase (a + INR D * t) - W) * Z0
            + (W * Z0 - scaled_point (rotate_floor (power_floor w0 c D) c)))%C by ring.
    assert (HZ : Cmod Z0 <= 1 + 2 * (IZR r / IZR s)).
    { pose proof (Cmod_triangle (phase t) (Z0 - phase t)%C) as T.
      replace (phase t + (Z0 - phase t))%C with Z0 in T by ring.
      replace (Z0 - phase t)%C with (- (phase t - Z0))%C in T by ring.
      rewrite Cmod_opp, Cmod_phase in T; lra. }
    assert (He0 : 0 <= e) by apply Cmod_ge_0.
    assert (Heta : 0 <= 2 * (IZR r / IZR s)).
    { assert (0 <= IZR r) by (apply IZR_le; exact r_nonneg).
      assert (0 <= IZR r / IZR s) by (apply div_nonneg; lra); lra. }
    eapply Rle_trans; [apply Cmod_triangle|].
    eapply Rle_trans; [apply Rplus_le_compat_r; apply Cmod_triangle|].
    rewrite !Cmod_mult, Cmod_phase.
    assert (e * Cmod Z0 <= e * (1 + 2 * (IZR r / IZR s))) by (apply Rmult_le_compat_l; assumption).
    assert (e * (2 * (IZR r / IZR s)) <= 1 * (2 * (IZR r / IZR s))) by (apply Rmult_le_compat_r; lra).
    fold e; rewrite S_INR; unfold rotation_slack in *; lra.
Qed.

End Scale.
