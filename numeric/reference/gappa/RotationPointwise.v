(* The pointwise rotation bound of the error model
   (ropecheck.numeric.reference._rope_bounds.rotation_output_bound, _rotation_coefficients):
   one coordinate fl(fl(x1*chat) - fl(x2*shat)) of a 2x2 rotation is within
   (epsilon + gamma_2 (1 + epsilon)) (|x1| + |x2|) + 3 eta of x1 cos - x2 sin, for every x1, x2,
   cos/sin within epsilon. Gappa's interval arithmetic cannot state a bound linear in |x1| + |x2| without
   losing their correlation, so this link is certified here, for any rounding that meets the standard model
   fl(x) = x (1 + d) + e, |d| <= u, |e| <= eta, d e = 0: round to nearest in Flocq's FLT formats (gradual
   underflow, eta half the smallest subnormal) and a flush to zero (eta the smallest normal number) both do
   (the two instances below). The same bound holds when either product is fused into the final rounding
   (rotation_coordinate_fused): jax.jit on CPU contracts x1 chat - x2 shat into a fused multiply-add.
   Real numbers, no overflow: the code returns inf wherever a result may leave the dtype's finite range.
   Compiled by tests/test_gappa.py, with its standard-set check. *)
From Coq Require Import Reals Lra.
From Flocq Require Import Core Relative.
Open Scope R_scope.

Definition standard_model (rnd : R -> R) (u eta : R) :=
  forall x, exists d e, Rabs d <= u /\ Rabs e <= eta /\ d * e = 0 /\ rnd x = x * (1 + d) + e.

(* Round to nearest in a binary FLT format (IEEE with gradual underflow) meets the model. *)
Lemma nearest_meets_the_model : forall emin prec choice, (0 < prec)%Z ->
  standard_model (round radix2 (FLT_exp emin prec) (Znearest choice))
    (/ 2 * bpow radix2 (- prec + 1)) (/ 2 * bpow radix2 emin).
Proof.
  intros emin prec choice Hprec x.
  destruct (error_N_FLT radix2 emin prec Hprec choice x) as [d [e [Hd [He [Hde Hx]]]]].
  exists d, e. repeat split; assumption.
Qed.

(* A flush to zero (XLA on CPU: results below the smallest normal number N become 0, others round to nearest)
   meets the model with eta = N. *)
Lemma flush_meets_the_model : forall emin prec choice smallest_normal, (0 < prec)%Z ->
  / 2 * bpow radix2 emin <= smallest_normal ->
  standard_model
    (fun x => if Rlt_dec (Rabs x) smallest_normal then 0 else round radix2 (FLT_exp emin prec) (Znearest choice) x)
    (/ 2 * bpow radix2 (- prec + 1)) smallest_normal.
Proof.
  intros emin prec choice smallest_normal Hprec Hnormal x.
  destruct (Rlt_dec (Rabs x) smallest_normal) as [Hsmall | _].
  - exists 0, (- x). rewrite Rabs_R0, Rabs_Ropp.
    pose proof (bpow_ge_0 radix2 (- prec + 1)).
    repeat split; [lra | lra | ring | ring].
  - destruct (error_N_FLT radix2 emin prec Hprec choice x) as [d [e [Hd [He [Hde Hx]]]]].
    exists d, e. repeat split; [assumption | lra | assumption | assumption].
Qed.

(* Two compounded relative errors: |(1 + d1)(1 + d3) - 1| <= 2u + u^2. *)
Lemma two_roundings : forall d1 d3 u, Rabs d1 <= u -> Rabs d3 <= u ->
  Rabs ((1 + d1) * (1 + d3) - 1) <= 2 * u + u * u.
Proof.
  intros d1 d3 u H1 H3.
  replace ((1 + d1) * (1 + d3) - 1) with (d1 + d3 + d1 * d3) by ring.
  pose proof (Rabs_triang (d1 + d3) (d1 * d3)).
  pose proof (Rabs_triang d1 d3).
  rewrite Rabs_mult in H.
  pose proof (Rmult_le_compat _ _ _ _ (Rabs_pos d1) (Rabs_pos d3) H1 H3).
  lra.
Qed.

(* A product x * v whose factor v is within epsilon of a value in [-1, 1], rounded twice. *)
Lemma product_term : forall x v w d1 d3 u epsilon,
  Rabs w <= 1 -> Rabs (v - w) <= epsilon -> Rabs d1 <= u -> Rabs d3 <= u ->
  Rabs (x * v * ((1 + d1) * (1 + d3) - 1)) <= Rabs x * (1 + epsilon) * (2 * u + u * u).
Proof.
  intros x v w d1 d3 u epsilon Hw Hv H1 H3.
  assert (Rabs v <= 1 + epsilon).
  { replace v with (w + (v - w)) by ring. pose proof (Rabs_triang w (v - w)). lra. }
  rewrite !Rabs_mult.
  apply Rmult_le_compat; try apply Rmult_le_pos; try apply Rabs_pos.
  - apply Rmult_le_compat_l; [apply Rabs_pos | assumption].
  - apply two_roundings; assumption.
Qed.

(* gamma_2 = 2u / (1 - 2u) covers 2u + u^2. *)
Lemma gamma_two : forall u, 0 <= u < / 2 -> 2 * u + u * u <= 2 * u / (1 - 2 * u).
Proof.
  intros u Hu.
  apply (Rmult_le_reg_r (1 - 2 * u)); [lra|].
  replace (2 * u / (1 - 2 * u) * (1 - 2 * u)) with (2 * u) by (field; lra).
  assert (0 <= u * u * (3 + 2 * u)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  nra.
Qed.

(* Multiplying by a sign keeps a bound on an absolute value. *)
Lemma signed : forall sigma t b, Rabs sigma = 1 -> Rabs t <= b -> Rabs (sigma * t) <= b.
Proof. intros sigma t b Hsigma Ht. rewrite Rabs_mult, Hsigma, Rmult_1_l. exact Ht. Qed.

(* Each of the three roundings may be a different function meeting the model: the identity among them is
   a fused multiply-add (one rounding fewer), the form jax.jit contracts x1 chat - x2 shat into on CPU. *)
Lemma rotation_coordinate_roundings :
  forall rnd1 rnd2 rnd3 u eta epsilon sigma x1 x2 c s chat shat,
  standard_model rnd1 u eta -> standard_model rnd2 u eta -> standard_model rnd3 u eta ->
  0 <= u < / 2 -> 0 <= epsilon -> Rabs sigma = 1 ->
  Rabs c <= 1 -> Rabs s <= 1 ->
  Rabs (chat - c) <= epsilon -> Rabs (shat - s) <= epsilon ->
  Rabs (rnd3 (rnd1 (x1 * chat) + sigma * rnd2 (x2 * shat)) - (x1 * c + sigma * (x2 * s)))
    <= (epsilon + 2 * u / (1 - 2 * u) * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta.
Proof.
  intros rnd1 rnd2 rnd3 u eta epsilon sigma x1 x2 c s chat shat Hmodel1 Hmodel2 Hmodel3 Hu Heps Hsigma Hc Hs
    Hchat Hshat.
  destruct (Hmodel3 (rnd1 (x1 * chat) + sigma * rnd2 (x2 * shat))) as [d3 [e3 [Hd3 [He3 [Hde3 E3]]]]].
  rewrite E3.
  destruct (Hmodel1 (x1 * chat)) as [d1 [e1 [Hd1 [He1 [_ E1]]]]].
  destruct (Hmodel2 (x2 * shat)) as [d2 [e2 [Hd2 [He2 [_ E2]]]]].
  rewrite E1, E2.
  pose proof (signed sigma e2 eta Hsigma He2) as He2'.
  set (underflow := (e1 + sigma * e2) * (1 + d3) + e3).
  set (t1 := x1 * (chat - c)). set (t2 := sigma * (x2 * (shat - s))).
  set (t3 := x1 * chat * ((1 + d1) * (1 + d3) - 1)). set (t4 := sigma * (x2 * shat * ((1 + d2) * (1 + d3) - 1))).
  replace ((x1 * chat * (1 + d1) + e1 + sigma * (x2 * shat * (1 + d2) + e2)) * (1 + d3) + e3
           - (x1 * c + sigma * (x2 * s)))
    with (t1 + t2 + t3 + t4 + underflow) by (unfold t1, t2, t3, t4, underflow; ring).
  (* The underflow terms: the last rounding is either exact in its relative part or in its absolute part. *)
  assert (Hunder : Rabs underflow <= 3 * eta).
  { unfold underflow. pose proof (Rabs_pos e1).
    pose proof (Rabs_triang e1 (sigma * e2)).
    destruct (Rmult_integral _ _ Hde3) as [-> | ->].
    - replace ((e1 + sigma * e2) * (1 + 0) + e3) with (e1 + sigma * e2 + e3) by ring.
      pose proof (Rabs_triang (e1 + sigma * e2) e3). lra.
    - rewrite Rplus_0_r, Rabs_mult.
      assert (Hone : Rabs (1 + d3) <= 3 / 2).
      { pose proof (Rabs_triang 1 d3) as T. rewrite Rabs_R1 in T. lra. }
      assert (Htwo : Rabs (e1 + sigma * e2) <= 2 * eta) by lra.
      pose proof (Rmult_le_compat _ _ _ _ (Rabs_pos (e1 + sigma * e2)) (Rabs_pos (1 + d3)) Htwo Hone).
      lra. }
  pose proof (product_term x1 chat c d1 d3 u epsilon Hc Hchat Hd1 Hd3) as P1.
  pose proof (signed sigma _ _ Hsigma (product_term x2 shat s d2 d3 u epsilon Hs Hshat Hd2 Hd3)) as P2.
  assert (A1 : Rabs t1 <= Rabs x1 * epsilon)
    by (unfold t1; rewrite Rabs_mult; apply Rmult_le_compat_l; [apply Rabs_pos | assumption]).
  assert (A2 : Rabs t2 <= Rabs x2 * epsilon).
  { apply signed; [assumption|]. rewrite Rabs_mult; apply Rmult_le_compat_l; [apply Rabs_pos | assumption]. }
  pose proof (gamma_two u Hu) as G.
  set (g := 2 * u / (1 - 2 * u)) in *.
  assert (Hslope : (Rabs x1 + Rabs x2) * (1 + epsilon) * (2 * u + u * u)
                   <= (Rabs x1 + Rabs x2) * (1 + epsilon) * g).
  { apply Rmult_le_compat_l; [| exact G].
    apply Rmult_le_pos; [pose proof (Rabs_pos x1); pose proof (Rabs_pos x2) |]; lra. }
  pose proof (Rabs_triang (t1 + t2 + t3 + t4) underflow).
  pose proof (Rabs_triang (t1 + t2 + t3) t4).
  pose proof (Rabs_triang (t1 + t2) t3).
  pose proof (Rabs_triang t1 t2).
  assert (Hsum : Rabs x1 * (1 + epsilon) * (2 * u + u * u) + Rabs x2 * (1 + epsilon) * (2 * u + u * u)
                 = (Rabs x1 + Rabs x2) * (1 + epsilon) * (2 * u + u * u)) by ring.
  replace ((epsilon + g * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta)
    with (Rabs x1 * epsilon + Rabs x2 * epsilon + (Rabs x1 + Rabs x2) * (1 + epsilon) * g + 3 * eta) by ring.
  fold t3 in P1. fold t4 in P2.
  lra.
Qed.

(* An exact operation meets the model: the unrounded product inside a fused multiply-add. *)
Lemma exact_meets_the_model : forall u eta, 0 <= u -> 0 <= eta -> standard_model (fun x => x) u eta.
Proof.
  intros u eta Hu Heta x. exists 0, 0. rewrite Rabs_R0. repeat split; [lra | lra | ring | ring].
Qed.

(* sigma = -1: the coordinate x1 cos - x2 sin; sigma = 1: x1 sin + x2 cos (chat, shat the computed sin, cos). *)
Theorem rotation_coordinate_pointwise :
  forall rnd u eta epsilon sigma x1 x2 c s chat shat,
  standard_model rnd u eta -> 0 <= u < / 2 -> 0 <= epsilon -> Rabs sigma = 1 ->
  Rabs c <= 1 -> Rabs s <= 1 ->
  Rabs (chat - c) <= epsilon -> Rabs (shat - s) <= epsilon ->
  Rabs (rnd (rnd (x1 * chat) + sigma * rnd (x2 * shat)) - (x1 * c + sigma * (x2 * s)))
    <= (epsilon + 2 * u / (1 - 2 * u) * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta.
Proof.
  intros rnd u eta epsilon sigma x1 x2 c s chat shat Hmodel. now apply rotation_coordinate_roundings.
Qed.

(* The same bound when either product is fused into the final rounding (an FMA, either operand order). *)
Theorem rotation_coordinate_fused :
  forall rnd u eta epsilon sigma x1 x2 c s chat shat,
  standard_model rnd u eta -> 0 <= u < / 2 -> 0 <= epsilon -> Rabs sigma = 1 ->
  Rabs c <= 1 -> Rabs s <= 1 ->
  Rabs (chat - c) <= epsilon -> Rabs (shat - s) <= epsilon ->
  Rabs (rnd (x1 * chat + sigma * rnd (x2 * shat)) - (x1 * c + sigma * (x2 * s)))
    <= (epsilon + 2 * u / (1 - 2 * u) * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta /\
  Rabs (rnd (rnd (x1 * chat) + sigma * (x2 * shat)) - (x1 * c + sigma * (x2 * s)))
    <= (epsilon + 2 * u / (1 - 2 * u) * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta.
Proof.
  intros rnd u eta epsilon sigma x1 x2 c s chat shat Hmodel Hu Heps Hsigma Hc Hs Hchat Hshat.
  assert (Heta : 0 <= eta).
  { destruct (Hmodel 0) as [d [e [_ [He _]]]]. pose proof (Rabs_pos e). lra. }
  assert (Hexact : standard_model (fun x => x) u eta) by (apply exact_meets_the_model; lra).
  split.
  - exact (rotation_coordinate_roundings (fun x => x) rnd rnd u eta epsilon sigma x1 x2 c s chat shat
             Hexact Hmodel Hmodel Hu Heps Hsigma Hc Hs Hchat Hshat).
  - exact (rotation_coordinate_roundings rnd (fun x => x) rnd u eta epsilon sigma x1 x2 c s chat shat
             Hmodel Hexact Hmodel Hu Heps Hsigma Hc Hs Hchat Hshat).
Qed.
