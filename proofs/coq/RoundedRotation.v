(* RoundedRotation.v -- points with integer coordinates over a scale s, rotated with each coordinate
   rounded down, and the error that this rounding and an enclosed rotation leave after D steps.  One
   Section over the scale and the enclosure radius, used at s = 2^22 by Decay128Trend.v (and through it
   InterpolationSizes.v) and at s = 2^28 by MenTable2Lower.v.  The second part is the same rotation on
   Coq's primitive 63-bit integers, for s = 2^bits, bits <= 28: what those files' checkers compute under
   `vm_compute`, with its specification (rotate_int_at_spec, power_int_at_spec). *)

From Coq Require Import ZArith Reals Lra Lia.
From Coq Require Uint63 Sint63.
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

(* ------------------------------------------------------------------ on 63-bit machine integers *)

Local Open Scope Z_scope.

(* The checker runs on Coq's primitive 63-bit integers: coqchk re-checks a `vm_compute` step by
   its own reduction, where one primitive operation is one step and one binary Z operation
   hundreds.  Every value stays below 2^60 in absolute value, so nothing wraps around. *)

Notation int := PrimInt63.int.

(* The integer a machine integer stands for (two's complement). *)
Definition zv (x : int) : Z := Sint63.to_Z x.
Definition zvp (p : int * int) : Z * Z := (zv (fst p), zv (snd p)).


Lemma zv_cmod (x : int) : zv x = (Uint63.to_Z x + 2 ^ 62) mod 2 ^ 63 - 2 ^ 62.
Proof. unfold zv; rewrite Sint63.to_Z_cmodwB; reflexivity. Qed.

Lemma cmod_exact (z : Z) : - 2 ^ 62 <= z < 2 ^ 62 -> Sint63.cmod z Uint63.wB = z.
Proof. intros H; apply Sint63.cmod_small; change (Uint63.wB / 2) with (2 ^ 62); lia. Qed.

Lemma add_exact (x y : int) : - 2 ^ 62 <= zv x + zv y < 2 ^ 62 -> zv (PrimInt63.add x y) = zv x + zv y.
Proof. intros H; unfold zv; rewrite Sint63.add_spec; apply cmod_exact; exact H. Qed.

Lemma sub_exact (x y : int) : - 2 ^ 62 <= zv x - zv y < 2 ^ 62 -> zv (PrimInt63.sub x y) = zv x - zv y.
Proof. intros H; unfold zv; rewrite Sint63.sub_spec; apply cmod_exact; exact H. Qed.

Lemma mul_exact (x y : int) : - 2 ^ 62 <= zv x * zv y < 2 ^ 62 -> zv (PrimInt63.mul x y) = zv x * zv y.
Proof. intros H; unfold zv; rewrite Sint63.mul_spec; apply cmod_exact; exact H. Qed.

(* A non-negative value is its unsigned reading. *)
Lemma zv_nonneg (x : int) : 0 <= zv x -> Uint63.to_Z x = zv x.
Proof.
  intros H; rewrite zv_cmod in *; pose proof (Uint63.to_Z_bounded x) as B; change Uint63.wB with (2 ^ 63) in B.
  destruct (Z_lt_le_dec (Uint63.to_Z x) (2 ^ 62)) as [Hl|Hl].
  - rewrite Z.mod_small by lia; lia.
  - assert (E : (Uint63.to_Z x + 2 ^ 62) mod 2 ^ 63 = Uint63.to_Z x - 2 ^ 62)
      by (symmetry; apply Z.mod_unique with 1; lia).
    rewrite E in H; lia.
Qed.

Lemma zv_small (x : int) : Uint63.to_Z x < 2 ^ 62 -> zv x = Uint63.to_Z x.
Proof.
  intros H; rewrite zv_cmod; pose proof (Uint63.to_Z_bounded x).
  rewrite Z.mod_small by lia; lia.
Qed.

(* 2^61: a value below it in absolute value, shifted up by it, is non-negative. *)
Definition bias : int := Eval vm_compute in Uint63.of_Z (2 ^ 61).

Section IntScale.

(* s = 2^bits; the instance hands over 2^(61 - bits) and bits as machine integers it computed once. *)
Variable bits : Z.
Hypothesis bits_range : 0 <= bits <= 28.
Variables bias_shifted bits_int : int.
Hypothesis bias_shifted_is : zv bias_shifted = 2 ^ (61 - bits).
Hypothesis bits_int_is : Uint63.to_Z bits_int = bits.

(* Floor division by 2^bits of a value below 2^61: shift it up by 2^61 (a multiple of 2^bits),
   shift right (logical), take 2^(61 - bits) off. *)
Definition shift_floor_at (x : int) : int :=
  PrimInt63.sub (PrimInt63.lsr (PrimInt63.add x bias) bits_int) bias_shifted.

Lemma shift_floor_at_spec (x : int) : - 2 ^ 61 <= zv x < 2 ^ 61 -> zv (shift_floor_at x) = zv x / 2 ^ bits.
Proof.
  intros H; unfold shift_floor_at.
  assert (Hb : zv bias = 2 ^ 61) by reflexivity.
  assert (Hp : 0 < 2 ^ bits) by (apply Z.pow_pos_nonneg; lia).
  assert (Hq1 : 2 ^ (61 - bits) <= 2 ^ 61) by (apply Z.pow_le_mono_r; lia).
  assert (Hs : 2 ^ 61 = 2 ^ (61 - bits) * 2 ^ bits) by (rewrite <- Z.pow_add_r by lia; f_equal; lia).
  assert (Hy : zv (PrimInt63.add x bias) = zv x + 2 ^ 61) by (rewrite add_exact; lia).
  pose proof (zv_nonneg (PrimInt63.add x bias) ltac:(lia)) as Hu.
  assert (Hl : Uint63.to_Z (PrimInt63.lsr (PrimInt63.add x bias) bits_int) = (zv x + 2 ^ 61) / 2 ^ bits).
  { rewrite Uint63.lsr_spec, Hu, Hy, bits_int_is; reflexivity. }
  assert (Hq : (zv x + 2 ^ 61) / 2 ^ bits = zv x / 2 ^ bits + 2 ^ (61 - bits)).
  { rewrite Hs, Z.div_add by lia; reflexivity. }
  assert (Hr : 0 <= zv x / 2 ^ bits + 2 ^ (61 - bits) < 2 ^ 62).
  { split.
    - assert (- 2 ^ (61 - bits) <= zv x / 2 ^ bits) by (apply Z.div_le_lower_bound; lia); lia.
    - assert (zv x / 2 ^ bits < 2 ^ (61 - bits)) by (apply Z.div_lt_upper_bound; lia); lia. }
  rewrite sub_exact; rewrite zv_small by lia; rewrite Hl, Hq; lia.
Qed.

(* w * c over 2^bits, each coordinate rounded down. *)
Definition rotate_int_at (w c : int * int) : int * int :=
  (shift_floor_at (PrimInt63.sub (PrimInt63.mul (fst w) (fst c)) (PrimInt63.mul (snd w) (snd c))),
   shift_floor_at (PrimInt63.add (PrimInt63.mul (fst w) (snd c)) (PrimInt63.mul (snd w) (fst c)))).

Lemma product_bound_at (a b : Z) : Z.abs a <= 2 ^ (bits + 1) -> Z.abs b <= 2 ^ bits -> Z.abs (a * b) <= 2 ^ 57.
Proof.
  intros Ha Hb; rewrite Z.abs_mul.
  assert (E : 2 ^ (bits + 1) * 2 ^ bits <= 2 ^ 57) by (rewrite <- Z.pow_add_r by lia; apply Z.pow_le_mono_r; lia).
  eapply Z.le_trans; [apply Z.mul_le_mono_nonneg; try apply Z.abs_nonneg; eassumption|exact E].
Qed.

Lemma rotate_int_at_spec (w c : int * int) :
  bounded (2 ^ (bits + 1)) (zvp w) -> bounded (2 ^ bits) (zvp c) ->
  zvp (rotate_int_at w c) = rotate_floor (2 ^ bits) (zvp w) (zvp c).
Proof.
  intros [Hw1 Hw2] [Hc1 Hc2]; unfold zvp in *; cbn [fst snd] in *.
  pose proof (product_bound_at _ _ Hw1 Hc1) as P1; pose proof (product_bound_at _ _ Hw2 Hc2) as P2.
  pose proof (product_bound_at _ _ Hw1 Hc2) as P3; pose proof (product_bound_at _ _ Hw2 Hc1) as P4.
  apply Z.abs_le in P1, P2, P3, P4; clear Hw1 Hw2 Hc1 Hc2.
  unfold rotate_int_at, rotate_floor; cbn [fst snd].
  assert (E1 : zv (PrimInt63.sub (PrimInt63.mul (fst w) (fst c)) (PrimInt63.mul (snd w) (snd c)))
               = zv (fst w) * zv (fst c) - zv (snd w) * zv (snd c)).
  { rewrite sub_exact; rewrite !mul_exact; lia. }
  assert (E2 : zv (PrimInt63.add (PrimInt63.mul (fst w) (snd c)) (PrimInt63.mul (snd w) (fst c)))
               = zv (fst w) * zv (snd c) + zv (snd w) * zv (fst c)).
  { rewrite add_exact; rewrite !mul_exact; lia. }
  assert (R1 : - 2 ^ 61 <= zv (PrimInt63.sub (PrimInt63.mul (fst w) (fst c)) (PrimInt63.mul (snd w) (snd c))) < 2 ^ 61)
    by (rewrite E1; lia).
  assert (R2 : - 2 ^ 61 <= zv (PrimInt63.add (PrimInt63.mul (fst w) (snd c)) (PrimInt63.mul (snd w) (fst c))) < 2 ^ 61)
    by (rewrite E2; lia).
  rewrite (shift_floor_at_spec _ R1), (shift_floor_at_spec _ R2), E1, E2; reflexivity.
Qed.

(* w0 c^D, one rounded rotation at a time. *)
Fixpoint power_int_at (w0 c : int * int) (D : nat) : int * int :=
  match D with
  | O => w0
  | S D' => rotate_int_at (power_int_at w0 c D') c
  end.

Lemma power_int_at_spec (w0 c : int * int) (D : nat) :
  bounded (2 ^ bits) (zvp c) ->
  (forall D', (D' <= D)%nat -> bounded (2 ^ (bits + 1)) (power_floor (2 ^ bits) (zvp w0) (zvp c) D')) ->
  zvp (power_int_at w0 c D) = power_floor (2 ^ bits) (zvp w0) (zvp c) D.
Proof.
  intros Hc; induction D as [|D IH]; intros Hb; [reflexivity|].
  cbn [power_int_at power_floor]; rewrite rotate_int_at_spec; [rewrite IH; [reflexivity|]| |exact Hc].
  - intros D' HD'; apply Hb; lia.
  - rewrite IH by (intros D' HD'; apply Hb; lia); apply Hb; lia.
Qed.

End IntScale.
