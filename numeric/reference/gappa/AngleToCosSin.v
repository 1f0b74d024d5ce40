(* The step of the error model from an angle error to a cos/sin error
   (ropecheck.numeric.reference._formats.trigonometric_error: argument error + evaluation error, capped at 2).
   Gappa has no cos or sin, so this link of the chain is certified here, by the mean value theorem:
   cos and sin are 1-Lipschitz, hence a value within e of cos (sin) of the computed angle is within
   e + |angle error| of cos (sin) of the exact angle. Compiled by tests/test_gappa.py, which also checks
   that Print Assumptions lists nothing beyond Coq's standard set. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(* |−sin| ≤ 1 bounds the derivative of cos everywhere. *)
Lemma cos_lipschitz : forall a b, Rabs (cos b - cos a) <= Rabs (b - a).
Proof.
  intros a b.
  destruct (MVT_abs cos (fun x => - sin x) a b) as [c [Hc _]].
  { intros c _. apply derivable_pt_lim_cos. }
  rewrite Hc, Rabs_Ropp.
  rewrite <- (Rmult_1_l (Rabs (b - a))) at 2.
  apply Rmult_le_compat_r; [apply Rabs_pos|].
  apply Rabs_le; destruct (SIN_bound c); lra.
Qed.

(* |cos| ≤ 1 bounds the derivative of sin everywhere. *)
Lemma sin_lipschitz : forall a b, Rabs (sin b - sin a) <= Rabs (b - a).
Proof.
  intros a b.
  destruct (MVT_abs sin cos a b) as [c [Hc _]].
  { intros c _. apply derivable_pt_lim_sin. }
  rewrite Hc.
  rewrite <- (Rmult_1_l (Rabs (b - a))) at 2.
  apply Rmult_le_compat_r; [apply Rabs_pos|].
  apply Rabs_le; destruct (COS_bound c); lra.
Qed.

(* The model's rule for any 1-Lipschitz function: a computed value within evaluation_error of f at the
   computed angle phihat, phihat within angle_error of the exact angle phi. *)
Lemma error_from_angle_error : forall f : R -> R,
  (forall a b, Rabs (f b - f a) <= Rabs (b - a)) ->
  forall phi phihat value angle_error evaluation_error,
  Rabs (phihat - phi) <= angle_error ->
  Rabs (value - f phihat) <= evaluation_error ->
  Rabs (value - f phi) <= angle_error + evaluation_error.
Proof.
  intros f Hf phi phihat value angle_error evaluation_error Hangle Heval.
  replace (value - f phi) with ((value - f phihat) + (f phihat - f phi)) by ring.
  pose proof (Hf phi phihat).
  pose proof (Rabs_triang (value - f phihat) (f phihat - f phi)).
  lra.
Qed.

Theorem cos_error_from_angle_error : forall phi phihat chat angle_error evaluation_error,
  Rabs (phihat - phi) <= angle_error ->
  Rabs (chat - cos phihat) <= evaluation_error ->
  Rabs (chat - cos phi) <= angle_error + evaluation_error.
Proof. exact (error_from_angle_error cos cos_lipschitz). Qed.

Theorem sin_error_from_angle_error : forall phi phihat shat angle_error evaluation_error,
  Rabs (phihat - phi) <= angle_error ->
  Rabs (shat - sin phihat) <= evaluation_error ->
  Rabs (shat - sin phi) <= angle_error + evaluation_error.
Proof. exact (error_from_angle_error sin sin_lipschitz). Qed.

(* The cap at 2: a computed value in [-1, 1] is never further than 2 from cos or sin of anything. *)
Theorem cos_error_capped : forall phi chat, Rabs chat <= 1 -> Rabs (chat - cos phi) <= 2.
Proof.
  intros phi chat Hc.
  apply Rabs_le; unfold Rabs in Hc; destruct (Rcase_abs chat); destruct (COS_bound phi); lra.
Qed.

Theorem sin_error_capped : forall phi shat, Rabs shat <= 1 -> Rabs (shat - sin phi) <= 2.
Proof.
  intros phi shat Hs.
  apply Rabs_le; unfold Rabs in Hs; destruct (Rcase_abs shat); destruct (SIN_bound phi); lra.
Qed.
