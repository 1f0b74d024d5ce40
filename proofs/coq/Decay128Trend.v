(* Decay128Trend.v -- ROPE-DECAY-BOUND-MONOTONE, the trend reading of RoFormer's
   Fig. 2 (d = 128, base 10000, integer distances): the relative upper bound
   B(D) = (2/d) sum_{j=1}^{d/2} |S_j(D)| stays below B(0) for D = 1 .. 255, and
   its maxima over the blocks [2^k, 2^(k+1)) strictly decrease for k = 0 .. 7
   (31.54, 28.96, 22.60, 19.82, 15.77, 13.38, 11.87, 10.72; the block
   [256, 512) rises again to 11.19, so the statement stops at k = 7).

   Enclosing every phase e^(i D theta_k) by `interval` (as Decay128At179.v
   does for one distance) would cost about 5 s per distance; here only the 64
   unit phases e^(i theta_k) are enclosed (Decay128Phases.v), and the powers
   are formed by rotations in integers over 2^22, rounded down, with an error
   that grows by at most step_slack per rotation (power_error).  The sums and
   their square roots are integers too, so the whole comparison is one
   boolean checker evaluated by `vm_compute`; trend_check_sound says what a
   `true` means.  The checker runs on 63-bit machine integers (every value
   stays below 2^60, proved: power_bounded, roots_int_spec), because coqchk
   re-checks the computation by plain reduction: on binary Z it took about
   0.6 s per distance there, on machine integers the whole table takes well
   under a second. *)

From Coq Require Import Bool ZArith Reals Lra Lia List.
From Coq Require Uint63 Sint63.
From Coquelicot Require Import Complex.
From Ropecheck Require Import Defs DefsDecay Decay Decay128Phases.
From Ropecheck Require Export RoundedRotation.
Import ListNotations.
Local Open Scope R_scope.

(* ------------------------------------------------------------------ points over 2^22 *)

Lemma scale_pos : 0 < IZR phase_scale.
Proof. apply IZR_lt; unfold phase_scale; lia. Qed.

(* The point (x, y) / 2^22. *)
Definition to_point (w : Z * Z) : C := (IZR (fst w) / IZR phase_scale, IZR (snd w) / IZR phase_scale).

(* |(x, y) / 2^22| as a square root of integers. *)
Lemma Cmod_to_point (w : Z * Z) :
  Cmod (to_point w) = sqrt (IZR (fst w * fst w + snd w * snd w)) / IZR phase_scale.
Proof.
  pose proof scale_pos.
  unfold Cmod, to_point; cbn [fst snd]; rewrite plus_IZR, !mult_IZR.
  replace ((IZR (fst w) / IZR phase_scale) ^ 2 + (IZR (snd w) / IZR phase_scale) ^ 2)
    with ((IZR (fst w) * IZR (fst w) + IZR (snd w) * IZR (snd w)) / (IZR phase_scale * IZR phase_scale))
    by (field; lra).
  rewrite sqrt_div_alt by nra; rewrite sqrt_square by lra; reflexivity.
Qed.

(* ------------------------------------------------------------------ rotation in integers *)

(* w0 c^D over 2^22, one rotation rounded down at a time (RoundedRotation.power_floor); the checker below
   computes the same on machine integers. *)
Definition power_from (w0 c : Z * Z) (D : nat) : Z * Z := power_floor phase_scale w0 c D.

(* c^D, starting from 1 = (2^22, 0) / 2^22. *)
Definition power_rounded (c : Z * Z) (D : nat) : Z * Z := power_from (phase_scale, 0%Z) c D.

Lemma scale_Z_pos : (0 < phase_scale)%Z.
Proof. unfold phase_scale; lia. Qed.

Lemma radius_nonneg : (0 <= phase_radius)%Z.
Proof. unfold phase_radius; lia. Qed.

(* The growth of the error per rotation: 2 eta + 2^-21, eta = 2 phase_radius / 2^22 the
   error of a unit phase (a point), 2^-21 the rounding of one rotation. *)
Definition step_slack : R := 2 * (2 * (IZR phase_radius / IZR phase_scale)) + 2 * (1 / IZR phase_scale).

Lemma step_slack_pos : 0 <= step_slack.
Proof. exact (rotation_slack_pos phase_scale scale_Z_pos phase_radius radius_nonneg). Qed.

(* D rounded rotations by a centre within eta of e^(i t), from a start within e0 of e^(i s), stay
   within e0 + D step_slack of e^(i (s + D t)), as long as that is at most 1.  Starting from an
   enclosed anchor instead of 1 keeps the error of far distances small (InterpolationSizes.v). *)
Lemma power_from_error (s t e0 : R) (w0 c : Z * Z) :
  Cmod (phase t - to_point c)%C <= 2 * (IZR phase_radius / IZR phase_scale) ->
  Cmod (phase s - to_point w0)%C <= e0 ->
  forall D : nat, e0 + INR D * step_slack <= 1 ->
    Cmod (phase (s + INR D * t) - to_point (power_from w0 c D))%C <= e0 + INR D * step_slack.
Proof.
  intros Hc H0 D HD.
  exact (power_floor_error phase_scale scale_Z_pos phase_radius radius_nonneg s t e0 w0 c Hc H0 D HD).
Qed.

(* From 1: D rounded rotations stay within D step_slack of e^(i D t). *)
Lemma power_error (t : R) (c : Z * Z) :
  Cmod (phase t - to_point c)%C <= 2 * (IZR phase_radius / IZR phase_scale) ->
  forall D : nat, INR D * step_slack <= 1 ->
    Cmod (phase (INR D * t) - to_point (power_rounded c D))%C <= INR D * step_slack.
Proof.
  intros Hc D HD; pose proof scale_pos.
  assert (Hstart : Cmod (phase 0 - to_point (phase_scale, 0%Z))%C <= 0).
  { replace (phase 0 - to_point (phase_scale, 0%Z))%C with (RtoC 0); [rewrite Cmod_0; lra|].
    unfold phase, to_point, Cminus, Cplus, Copp, RtoC; cbn [fst snd].
    rewrite cos_0, sin_0; f_equal; field; lra. }
  pose proof (power_from_error 0 t 0 (phase_scale, 0%Z) c Hc Hstart D ltac:(lra)) as Hd.
  rewrite !Rplus_0_l in Hd; exact Hd.
Qed.

(* ------------------------------------------------------------------ partial sums *)

(* Errors of the terms add up in the partial sums. *)
Lemma csum_error (f g : nat -> C) (eps : R) (n : nat) :
  (forall i, (i < n)%nat -> Cmod (f i - g i)%C <= eps) ->
  forall j, (j <= n)%nat -> Cmod (csum j f - csum j g)%C <= INR j * eps.
Proof.
  intros Hf j; induction j as [|j IH]; intros Hj.
  - cbn [csum INR]; replace (RtoC 0 - RtoC 0)%C with (RtoC 0) by ring; rewrite Cmod_0; lra.
  - cbn [csum]; replace (csum j f + f j - (csum j g + g j))%C with ((csum j f - csum j g) + (f j - g j))%C by ring.
    eapply Rle_trans; [apply Cmod_triangle|]; rewrite S_INR.
    pose proof (IH ltac:(lia)); pose proof (Hf j ltac:(lia)); lra.
Qed.

(* The integer partial sums of a table of points. *)
Fixpoint prefix_point (g : nat -> Z * Z) (j : nat) : Z * Z :=
  match j with
  | O => (0%Z, 0%Z)
  | S k => let p := prefix_point g k in ((fst p + fst (g k))%Z, (snd p + snd (g k))%Z)
  end.

Lemma csum_to_point (g : nat -> Z * Z) (j : nat) :
  csum j (fun i => to_point (g i)) = to_point (prefix_point g j).
Proof.
  pose proof scale_pos.
  induction j as [|j IH]; cbn [csum prefix_point].
  - unfold to_point, RtoC; cbn [fst snd]; f_equal; field; lra.
  - rewrite IH; unfold to_point, Cplus; cbn [fst snd]; rewrite !plus_IZR; f_equal; field; lra.
Qed.

Definition norm2 (p : Z * Z) : Z := (fst p * fst p + snd p * snd p)%Z.

(* sum_{j < n} floor sqrt |prefix_{j+1}|^2, the checker's integer stand-in for sum_j |S_{j+1}|. *)
Fixpoint root_sum (g : nat -> Z * Z) (n : nat) : Z :=
  match n with
  | O => 0%Z
  | S k => (root_sum g k + Z.sqrt (norm2 (prefix_point g (S k))))%Z
  end.

Lemma Zsqrt_bounds (n : Z) :
  (0 <= n)%Z -> IZR (Z.sqrt n) <= sqrt (IZR n) <= IZR (Z.sqrt n) + 1.
Proof.
  intros Hn; destruct (Z.sqrt_spec n Hn) as [Hlo Hhi].
  assert (Hs : (0 <= Z.sqrt n)%Z) by (apply Z.sqrt_nonneg).
  split.
  - rewrite <- (sqrt_square (IZR (Z.sqrt n))) by (apply IZR_le; exact Hs).
    apply sqrt_le_1_alt; rewrite <- mult_IZR; apply IZR_le; lia.
  - rewrite <- (sqrt_square (IZR (Z.sqrt n) + 1)) by (apply IZR_le in Hs; lra).
    apply sqrt_le_1_alt.
    replace ((IZR (Z.sqrt n) + 1) * (IZR (Z.sqrt n) + 1)) with (IZR ((Z.sqrt n + 1) * (Z.sqrt n + 1)))
      by (rewrite mult_IZR, plus_IZR; ring).
    apply IZR_le; simpl in Hhi; lia.
Qed.

(* One term: |S_{j}| against floor sqrt of the integer prefix. *)
Lemma term_bounds (f : nat -> C) (g : nat -> Z * Z) (eps : R) (n j : nat) :
  (forall i, (i < n)%nat -> Cmod (f i - to_point (g i))%C <= eps) -> (j <= n)%nat ->
  IZR (Z.sqrt (norm2 (prefix_point g j))) / IZR phase_scale - INR j * eps
  <= Cmod (partial_sum f j)
  <= (IZR (Z.sqrt (norm2 (prefix_point g j))) + 1) / IZR phase_scale + INR j * eps.
Proof.
  intros Hf Hj; pose proof scale_pos.
  pose proof (csum_error f (fun i => to_point (g i)) eps n Hf j Hj) as Hd.
  rewrite csum_to_point in Hd; unfold partial_sum.
  assert (Hn : (0 <= norm2 (prefix_point g j))%Z) by (unfold norm2; nia).
  pose proof (Zsqrt_bounds _ Hn) as [Hlo Hhi].
  pose proof (Cmod_to_point (prefix_point g j)) as Hm; fold (norm2 (prefix_point g j)) in Hm.
  pose proof (Cmod_triangle (csum j f - to_point (prefix_point g j))%C (to_point (prefix_point g j))) as T1.
  replace (csum j f - to_point (prefix_point g j) + to_point (prefix_point g j))%C with (csum j f) in T1 by ring.
  pose proof (Cmod_triangle (csum j f) (- (csum j f - to_point (prefix_point g j)))%C) as T2.
  replace (csum j f + - (csum j f - to_point (prefix_point g j)))%C with (to_point (prefix_point g j)) in T2
    by ring.
  rewrite Cmod_opp in T2.
  assert (IZR (Z.sqrt (norm2 (prefix_point g j))) / IZR phase_scale
          <= sqrt (IZR (norm2 (prefix_point g j))) / IZR phase_scale)
    by (apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|lra]).
  assert (sqrt (IZR (norm2 (prefix_point g j))) / IZR phase_scale
          <= (IZR (Z.sqrt (norm2 (prefix_point g j))) + 1) / IZR phase_scale)
    by (apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|lra]).
  lra.
Qed.

(* The whole sum sum_{j<n} |S_{j+1}| within n^2 eps (plus n / 2^22 from the square roots). *)
Lemma sum_bounds (f : nat -> C) (g : nat -> Z * Z) (eps : R) (N : nat) :
  0 <= eps -> (forall i, (i < N)%nat -> Cmod (f i - to_point (g i))%C <= eps) ->
  forall n, (n <= N)%nat ->
  IZR (root_sum g n) / IZR phase_scale - INR n * (INR n * eps)
  <= sum n (fun j => Cmod (partial_sum f (S j)))
  <= IZR (root_sum g n + Z.of_nat n) / IZR phase_scale + INR n * (INR n * eps).
Proof.
  intros He Hf n; pose proof scale_pos; induction n as [|n IH]; intros Hn.
  - rewrite sum_0; replace (root_sum g 0 + Z.of_nat 0)%Z with 0%Z by reflexivity.
    cbn [root_sum INR]; unfold Rdiv; rewrite Rmult_0_l; lra.
  - rewrite sum_S; destruct (IH ltac:(lia)) as [Lo Hi].
    destruct (term_bounds f g eps N (S n) Hf Hn) as [Tlo Thi].
    change (root_sum g (S n)) with (root_sum g n + Z.sqrt (norm2 (prefix_point g (S n))))%Z.
    set (s := Z.sqrt (norm2 (prefix_point g (S n)))) in *; set (r := root_sum g n) in *.
    rewrite plus_IZR, <- INR_IZR_INZ in Hi; rewrite !plus_IZR, <- INR_IZR_INZ.
    rewrite S_INR in *.
    assert (0 <= INR n * eps) by (apply Rmult_le_pos; [apply pos_INR|exact He]).
    unfold Rdiv in *; split; lra.
Qed.

(* ------------------------------------------------------------------ the bound at one distance *)

(* The 64 powers c_k^D. *)
Definition powers (D : nat) : list (Z * Z) := map (fun c => power_rounded c D) unit_phase_centres.

(* 64^2 n step_slack in units of 2^-22: the error of sum_j |S_j| after n rotations. *)
Definition slack (steps : nat) : Z := (4096 * Z.of_nat steps * (4 * phase_radius + 2))%Z.

(* (lower, upper) bounds of 2^22 sum_j |S_j| from 64 points ws, each formed by at most `steps` rotations. *)
Definition bounds_of (steps : nat) (ws : list (Z * Z)) : Z * Z :=
  let s := root_sum (fun i => nth i ws (0%Z, 0%Z)) 64 in ((s - slack steps)%Z, (s + 64 + slack steps)%Z).

Lemma step_slack_small : 1024 * step_slack <= 1.
Proof. unfold step_slack, phase_radius, phase_scale; lra.
Qed.

(* What bounds_of means: points within `steps` step_slack of the phases e^(i x theta_k) bound
   sum_j |S_j(x)| from both sides. *)
Lemma bounds_of_spec (x : R) (steps : nat) (ws : list (Z * Z)) :
  (forall i, (i < 64)%nat ->
     Cmod (phase (x * rope_spectrum 10000 64 i) - to_point (nth i ws (0%Z, 0%Z)))%C <= INR steps * step_slack) ->
  IZR (fst (bounds_of steps ws)) / IZR phase_scale
  <= sum 64 (fun j => Cmod (partial_sum (fun i => phase (x * rope_spectrum 10000 64 i)) (S j)))
  <= IZR (snd (bounds_of steps ws)) / IZR phase_scale.
Proof.
  intros Hterms; pose proof scale_pos; pose proof step_slack_pos.
  assert (He : 0 <= INR steps * step_slack) by (pose proof (pos_INR steps); nra).
  destruct (sum_bounds _ _ _ 64 He Hterms 64 (le_n 64)) as [Lo Hi].
  assert (Hslack : IZR (slack steps) / IZR phase_scale = INR 64 * (INR 64 * (INR steps * step_slack))).
  { unfold slack, step_slack; rewrite !mult_IZR, plus_IZR, mult_IZR, <- INR_IZR_INZ.
    replace (INR 64) with 64 by (rewrite INR_IZR_INZ; reflexivity); field; lra. }
  unfold bounds_of; cbn [fst snd]; split.
  - rewrite minus_IZR; unfold Rdiv in *; rewrite Rmult_minus_distr_r; lra.
  - rewrite !plus_IZR; replace (Z.of_nat 64) with 64%Z in Hi by reflexivity.
    rewrite plus_IZR in Hi; unfold Rdiv in *; rewrite !Rmult_plus_distr_r in *; lra.
Qed.

Lemma bound_at (D : nat) : (D <= 256)%nat ->
  IZR (fst (bounds_of D (powers D))) / IZR phase_scale
  <= sum 64 (fun j => Cmod (partial_sum (fun i => phase (INR D * rope_spectrum 10000 64 i)) (S j)))
  <= IZR (snd (bounds_of D (powers D))) / IZR phase_scale.
Proof.
  intros HD; apply bounds_of_spec; pose proof step_slack_pos.
  assert (Hsmall : INR D * step_slack <= 1).
  { apply le_INR in HD; replace (INR 256) with 256 in HD by (rewrite INR_IZR_INZ; reflexivity).
    pose proof step_slack_small; nra. }
  intros i Hi.
  assert (Hn : nth i (powers D) (0%Z, 0%Z) = power_rounded (nth i unit_phase_centres (0%Z, 0%Z)) D).
  { unfold powers; rewrite (nth_indep _ _ ((fun c => power_rounded c D) (0%Z, 0%Z)))
      by (rewrite map_length; exact Hi).
    exact (map_nth (fun c => power_rounded c D) unit_phase_centres (0%Z, 0%Z) i). }
  rewrite Hn.
  apply power_error; [|exact Hsmall].
  destruct (unit_phases i Hi) as [Hcos Hsin].
  apply Cmod_box; unfold phase, to_point, Cminus, Cplus, Copp; cbn [fst snd]; assumption.
Qed.

(* ------------------------------------------------------------------ the powers stay small *)

(* A point within 1 of a phase has coordinates at most 2 = 2^23 / 2^22. *)
Lemma near_phase_bounded (x : R) (W : Z * Z) :
  Cmod (phase x - to_point W)%C <= 1 -> bounded (2 ^ 23) W.
Proof.
  intros He; pose proof (scaled_near_bounded phase_scale scale_Z_pos x W He).
  change (2 ^ 23)%Z with (2 * phase_scale)%Z; assumption.
Qed.

(* A centre within 2^-22 of a phase, as a point within 2 eta. *)
Lemma centre_near (t : R) (c : Z * Z) :
  Rabs (cos t - IZR (fst c) / IZR phase_scale) <= IZR phase_radius / IZR phase_scale ->
  Rabs (sin t - IZR (snd c) / IZR phase_scale) <= IZR phase_radius / IZR phase_scale ->
  Cmod (phase t - to_point c)%C <= 2 * (IZR phase_radius / IZR phase_scale).
Proof. intros Hcos Hsin; apply Cmod_box; unfold phase, to_point, Cminus, Cplus, Copp; cbn [fst snd]; assumption. Qed.

(* Every power c_k^D, D <= 256, is within 1 of e^(i D theta_k). *)
Lemma power_bounded (c : Z * Z) (D : nat) : In c unit_phase_centres -> (D <= 256)%nat ->
  bounded (2 ^ 23) (power_rounded c D).
Proof.
  intros Hin HD; destruct (In_nth _ _ (0%Z, 0%Z) Hin) as [k [Hk Hc]].
  assert (Hk64 : (k < 64)%nat) by exact Hk.
  assert (Hphase : Cmod (phase (rope_spectrum 10000 64 k) - to_point c)%C
                   <= 2 * (IZR phase_radius / IZR phase_scale)).
  { destruct (unit_phases k Hk64) as [Hcos Hsin]; rewrite Hc in Hcos, Hsin; apply centre_near; assumption. }
  pose proof step_slack_pos.
  assert (Hsmall : INR D * step_slack <= 1).
  { apply le_INR in HD; replace (INR 256) with 256 in HD by (rewrite INR_IZR_INZ; reflexivity).
    pose proof step_slack_small; nra. }
  apply (near_phase_bounded (INR D * rope_spectrum 10000 64 k)).
  pose proof (power_error _ _ Hphase D Hsmall); lra.
Qed.

(* ------------------------------------------------------------------ the sum of roots in one pass *)

Definition add_point (p q : Z * Z) : Z * Z := ((fst p + fst q)%Z, (snd p + snd q)%Z).

(* sum_j floor sqrt |p + w_0 + ... + w_j|^2, the partial sums formed once (root_sum forms them anew for each j). *)
Fixpoint roots_from (ws : list (Z * Z)) (p : Z * Z) : Z :=
  match ws with
  | [] => 0%Z
  | w :: rest => let q := add_point p w in (Z.sqrt (norm2 q) + roots_from rest q)%Z
  end.

Fixpoint zsum (n : nat) (h : nat -> Z) : Z :=
  match n with
  | O => 0%Z
  | S k => (zsum k h + h k)%Z
  end.

Lemma zsum_first (n : nat) (h : nat -> Z) : zsum (S n) h = (h O + zsum n (fun k => h (S k)))%Z.
Proof. induction n as [|n IH]; [simpl; lia|]; change (zsum (S (S n)) h) with (zsum (S n) h + h (S n))%Z; rewrite IH; simpl; lia. Qed.

Lemma zsum_ext (n : nat) (h h' : nat -> Z) : (forall k, (k < n)%nat -> h k = h' k) -> zsum n h = zsum n h'.
Proof.
  induction n as [|n IH]; intros E; [reflexivity|]; simpl.
  rewrite IH by (intros k Hk; apply E; lia); rewrite E by lia; reflexivity.
Qed.

Lemma prefix_shift (w : Z * Z) (ws : list (Z * Z)) (k : nat) :
  prefix_point (fun i => nth i (w :: ws) (0%Z, 0%Z)) (S k) = add_point w (prefix_point (fun i => nth i ws (0%Z, 0%Z)) k).
Proof.
  induction k as [|k IH]; [unfold add_point; simpl; f_equal; lia|].
  change (prefix_point (fun i => nth i (w :: ws) (0%Z, 0%Z)) (S (S k)))
    with (let p := prefix_point (fun i => nth i (w :: ws) (0%Z, 0%Z)) (S k) in
          ((fst p + fst (nth k ws (0%Z, 0%Z)))%Z, (snd p + snd (nth k ws (0%Z, 0%Z)))%Z)).
  rewrite IH; unfold add_point; simpl; f_equal; lia.
Qed.

Lemma roots_from_spec (ws : list (Z * Z)) : forall p,
  roots_from ws p
  = zsum (length ws) (fun k => Z.sqrt (norm2 (add_point p (prefix_point (fun i => nth i ws (0%Z, 0%Z)) (S k))))).
Proof.
  induction ws as [|w ws IH]; intros p; [reflexivity|].
  cbn [roots_from length]; rewrite zsum_first, IH; cbv beta.
  (* the first root agrees by computation (0 + x reduces to x); f_equal leaves the rest *)
  f_equal; apply zsum_ext; intros k _; rewrite prefix_shift.
  replace (add_point p (add_point w (prefix_point (fun i => nth i ws (0%Z, 0%Z)) (S k))))
    with (add_point (add_point p w) (prefix_point (fun i => nth i ws (0%Z, 0%Z)) (S k)))
    by (unfold add_point; cbn [fst snd]; f_equal; lia).
  reflexivity.
Qed.

Lemma root_sum_zsum (g : nat -> Z * Z) (n : nat) :
  root_sum g n = zsum n (fun k => Z.sqrt (norm2 (prefix_point g (S k)))).
Proof. induction n as [|n IH]; [reflexivity|]; simpl root_sum; rewrite IH; reflexivity. Qed.

Lemma roots_from_root_sum (ws : list (Z * Z)) :
  roots_from ws (0%Z, 0%Z) = root_sum (fun i => nth i ws (0%Z, 0%Z)) (length ws).
Proof.
  rewrite roots_from_spec, root_sum_zsum; apply zsum_ext; intros k _.
  unfold add_point; cbn [fst snd]; rewrite !Z.add_0_l; destruct (prefix_point _ (S k)); reflexivity.
Qed.

(* ------------------------------------------------------------------ 63-bit machine integers *)

Local Open Scope Z_scope.


(* Floor division by 2^22 (RoundedRotation.shift_floor_at): 2^39 = 2^(61 - 22) and 22 as machine integers. *)
Definition bias_shifted : int := Eval vm_compute in Uint63.of_Z (2 ^ 39).
Definition bits_int : int := Eval vm_compute in Uint63.of_Z 22.

(* ------------------------------------------------------------------ the rotation *)

Definition rotate_int (w c : int * int) : int * int := rotate_int_at bias_shifted bits_int w c.

Definition power_int_from (w0 c : int * int) (D : nat) : int * int := power_int_at bias_shifted bits_int w0 c D.

Definition power_int (c : int * int) (D : nat) : int * int :=
  power_int_from (Uint63.of_Z phase_scale, Uint63.of_Z 0) c D.

Lemma power_int_from_spec (w0 c : int * int) (D : nat) :
  bounded (2 ^ 22) (zvp c) ->
  (forall D', (D' <= D)%nat -> bounded (2 ^ 23) (power_from (zvp w0) (zvp c) D')) ->
  zvp (power_int_from w0 c D) = power_from (zvp w0) (zvp c) D.
Proof.
  exact (power_int_at_spec 22 ltac:(lia) bias_shifted bits_int eq_refl eq_refl w0 c D).
Qed.

Lemma power_int_spec (c : int * int) (D : nat) :
  bounded (2 ^ 22) (zvp c) ->
  (forall D', (D' <= D)%nat -> bounded (2 ^ 23) (power_rounded (zvp c) D')) ->
  zvp (power_int c D) = power_rounded (zvp c) D.
Proof.
  intros Hc Hb; unfold power_int, power_rounded in *.
  assert (E : zvp (Uint63.of_Z phase_scale, Uint63.of_Z 0) = (phase_scale, 0%Z)) by reflexivity.
  rewrite <- E in *; apply power_int_from_spec; assumption.
Qed.

(* The sum of roots on machine integers, for partial sums below 2^29 (64 terms below 2^23). *)
Fixpoint roots_int (ws : list (int * int)) (p : int * int) : int :=
  match ws with
  | [] => Uint63.of_Z 0
  | w :: rest =>
      let q := (PrimInt63.add (fst p) (fst w), PrimInt63.add (snd p) (snd w)) in
      PrimInt63.add (Uint63.sqrt (PrimInt63.add (PrimInt63.mul (fst q) (fst q)) (PrimInt63.mul (snd q) (snd q))))
        (roots_int rest q)
  end.

Lemma sqrt_sum_bound (x y : Z) : (Z.sqrt (x * x + y * y) <= Z.abs x + Z.abs y)%Z.
Proof.
  rewrite <- (Z.sqrt_square (Z.abs x + Z.abs y)) by lia.
  apply Z.sqrt_le_mono; nia.
Qed.

Lemma sqrt_int_spec (n : int) : (0 <= zv n < 2 ^ 62)%Z -> zv (Uint63.sqrt n) = Z.sqrt (zv n).
Proof.
  intros H; pose proof (Uint63.sqrt_spec n) as [Hlo Hhi].
  rewrite (zv_nonneg n) in Hlo, Hhi by lia.
  pose proof (Uint63.to_Z_bounded (Uint63.sqrt n)).
  assert (E : Z.sqrt (zv n) = Uint63.to_Z (Uint63.sqrt n)) by (apply Z.sqrt_unique; rewrite <- !Z.pow_2_r; lia).
  rewrite E; apply zv_small.
  assert (Uint63.to_Z (Uint63.sqrt n) <= 2 ^ 31)%Z by nia; lia.
Qed.

Lemma roots_int_spec (ws : list (int * int)) : forall p,
  Forall (fun w => bounded (2 ^ 23) (zvp w)) ws ->
  (Z.of_nat (length ws) * 2 ^ 23 + Z.abs (zv (fst p)) <= 2 ^ 29)%Z ->
  (Z.of_nat (length ws) * 2 ^ 23 + Z.abs (zv (snd p)) <= 2 ^ 29)%Z ->
  zv (roots_int ws p) = roots_from (map zvp ws) (zvp p)
  /\ (0 <= roots_from (map zvp ws) (zvp p) <= Z.of_nat (length ws) * 2 ^ 30)%Z.
Proof.
  induction ws as [|w ws IH]; intros p Hall Hx Hy; [split; [reflexivity|cbn; lia]|].
  inversion Hall as [|w' ws' [Hw1 Hw2] Hrest]; subst w' ws'.
  cbn [length] in Hx, Hy; rewrite Nat2Z.inj_succ in Hx, Hy.
  unfold zvp in Hw1, Hw2; cbn [fst snd] in Hw1, Hw2.
  assert (Ex : zv (PrimInt63.add (fst p) (fst w)) = (zv (fst p) + zv (fst w))%Z) by (apply add_exact; lia).
  assert (Ey : zv (PrimInt63.add (snd p) (snd w)) = (zv (snd p) + zv (snd w))%Z) by (apply add_exact; lia).
  destruct (IH (PrimInt63.add (fst p) (fst w), PrimInt63.add (snd p) (snd w)) Hrest) as [Er Br];
    cbn [fst snd]; [rewrite Ex; lia|rewrite Ey; lia|].
  set (qx := PrimInt63.add (fst p) (fst w)) in *; set (qy := PrimInt63.add (snd p) (snd w)) in *.
  assert (Hq : (Z.abs (zv qx) <= 2 ^ 29 /\ Z.abs (zv qy) <= 2 ^ 29)%Z) by lia.
  assert (Px : (0 <= zv qx * zv qx <= 2 ^ 58)%Z).
  { split; [nia|]; rewrite <- Z.abs_square; change (2 ^ 58)%Z with (2 ^ 29 * 2 ^ 29)%Z.
    apply Z.mul_le_mono_nonneg; lia. }
  assert (Py : (0 <= zv qy * zv qy <= 2 ^ 58)%Z).
  { split; [nia|]; rewrite <- Z.abs_square; change (2 ^ 58)%Z with (2 ^ 29 * 2 ^ 29)%Z.
    apply Z.mul_le_mono_nonneg; lia. }
  assert (Hn : zv (PrimInt63.add (PrimInt63.mul qx qx) (PrimInt63.mul qy qy)) = (zv qx * zv qx + zv qy * zv qy)%Z).
  { rewrite add_exact; rewrite !mul_exact; lia. }
  assert (Hs : zv (Uint63.sqrt (PrimInt63.add (PrimInt63.mul qx qx) (PrimInt63.mul qy qy)))
               = Z.sqrt (zv qx * zv qx + zv qy * zv qy)).
  { rewrite sqrt_int_spec; rewrite Hn; [reflexivity|lia]. }
  pose proof (sqrt_sum_bound (zv qx) (zv qy)); pose proof (Z.sqrt_nonneg (zv qx * zv qx + zv qy * zv qy)).
  assert (Eq : add_point (zvp p) (zvp w) = zvp (qx, qy)) by (unfold add_point, zvp; cbn [fst snd]; rewrite Ex, Ey; reflexivity).
  cbn [roots_int map roots_from]; rewrite Eq; fold qx qy.
  unfold norm2, zvp in *; cbn [fst snd length] in *; rewrite Nat2Z.inj_succ.
  rewrite add_exact; [split; [rewrite Hs, Er; reflexivity|lia]|rewrite Hs, Er; lia].
Qed.

(* ------------------------------------------------------------------ the table and the checker *)

Local Open Scope R_scope.

Definition point_int (p : Z * Z) : int * int := (Uint63.of_Z (fst p), Uint63.of_Z (snd p)).
Definition centres_int : list (int * int) := map point_int unit_phase_centres.

Lemma centres_small : forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 22) && Z.leb (Z.abs (snd p)) (2 ^ 22))
  unit_phase_centres = true.
Proof. vm_compute; reflexivity. Qed.

Lemma centre_bounded (c : Z * Z) : In c unit_phase_centres -> bounded (2 ^ 22) c.
Proof.
  intros Hin; pose proof (proj1 (forallb_forall _ _) centres_small c Hin) as H; cbv beta in H.
  apply andb_true_iff in H as [H1 H2]; apply Z.leb_le in H1, H2; split; assumption.
Qed.

Lemma zv_of_Z (z : Z) : (- 2 ^ 62 <= z < 2 ^ 62)%Z -> zv (Uint63.of_Z z) = z.
Proof. intros H; unfold zv; rewrite Sint63.of_Z_spec; apply cmod_exact; exact H. Qed.

Definition powers_int (D : nat) : list (int * int) := map (fun c => power_int c D) centres_int.

Lemma powers_int_spec (D : nat) : (D <= 256)%nat -> map zvp (powers_int D) = powers D.
Proof.
  intros HD; unfold powers_int, powers, centres_int; rewrite !map_map; apply map_ext_in; intros c Hin.
  pose proof (centre_bounded c Hin) as [H1 H2].
  assert (Ec : zvp (point_int c) = c) by (unfold zvp, point_int; cbn [fst snd]; rewrite !zv_of_Z by lia;
    destruct c; reflexivity).
  rewrite power_int_spec; rewrite Ec; [reflexivity|split; lia|].
  intros D' HD'; apply power_bounded; [exact Hin|lia].
Qed.

Definition bounds_of_int (D : nat) (ws : list (int * int)) : Z * Z :=
  let s := zv (roots_int ws (Uint63.of_Z 0, Uint63.of_Z 0)) in ((s - slack D)%Z, (s + 64 + slack D)%Z).

(* On 64 points below 2^23 the machine-integer bounds are bounds_of's. *)
Lemma bounds_of_int_map (steps : nat) (ws : list (int * int)) :
  length ws = 64%nat -> Forall (fun w => bounded (2 ^ 23) (zvp w)) ws ->
  bounds_of_int steps ws = bounds_of steps (map zvp ws).
Proof.
  intros Hlen Hall; unfold bounds_of_int, bounds_of.
  destruct (roots_int_spec ws (Uint63.of_Z 0, Uint63.of_Z 0) Hall) as [E _];
    [rewrite Hlen; reflexivity|rewrite Hlen; reflexivity|].
  rewrite E.
  change (zvp (Uint63.of_Z 0, Uint63.of_Z 0)) with (0%Z, 0%Z).
  rewrite roots_from_root_sum, map_length, Hlen; reflexivity.
Qed.

Lemma bounds_of_int_spec (D : nat) : (D <= 256)%nat -> bounds_of_int D (powers_int D) = bounds_of D (powers D).
Proof.
  intros HD.
  assert (Hlen : length (powers_int D) = 64%nat) by (unfold powers_int, centres_int; rewrite !map_length; reflexivity).
  assert (Hall : Forall (fun w => bounded (2 ^ 23) (zvp w)) (powers_int D)).
  { apply Forall_forall; intros w Hw.
    assert (In (zvp w) (powers D)) by (rewrite <- powers_int_spec by exact HD; apply in_map; exact Hw).
    unfold powers in H; apply in_map_iff in H as [c [Ec Hc]]; rewrite <- Ec; apply power_bounded; assumption. }
  rewrite bounds_of_int_map by assumption; rewrite powers_int_spec by exact HD; reflexivity.
Qed.

(* c_k^(D+1) from c_k^D for all k at once: one step of the table. *)
Definition step_all (ws : list (int * int)) : list (int * int) :=
  map (fun p => rotate_int (fst p) (snd p)) (combine ws centres_int).

Lemma step_powers (D : nat) : step_all (powers_int D) = powers_int (S D).
Proof.
  unfold step_all, powers_int; induction centres_int as [|c l IH]; [reflexivity|].
  cbn [map combine]; rewrite IH; reflexivity.
Qed.

Fixpoint bounds_run (n D : nat) (ws : list (int * int)) : list (Z * Z) :=
  match n with
  | O => []
  | S n' => bounds_of_int D ws :: bounds_run n' (S D) (step_all ws)
  end.

Lemma iter_step (i : nat) (ws : list (int * int)) : Nat.iter i step_all (step_all ws) = Nat.iter (S i) step_all ws.
Proof. induction i as [|i IH]; [reflexivity|]; simpl in *; rewrite IH; reflexivity. Qed.

(* Entry i of a run from ws, counted from `steps` rotations: ws after i more steps. *)
Lemma bounds_run_iter (n : nat) : forall steps ws i, (i < n)%nat ->
  nth i (bounds_run n steps ws) (0%Z, 0%Z) = bounds_of_int (steps + i) (Nat.iter i step_all ws).
Proof.
  induction n as [|n IH]; intros steps ws i Hi; [lia|].
  destruct i as [|i]; cbn [bounds_run nth]; [rewrite Nat.add_0_r; reflexivity|].
  rewrite IH, iter_step by lia; replace (steps + S i)%nat with (S steps + i)%nat by lia; reflexivity.
Qed.

Lemma iter_powers (i D : nat) : Nat.iter i step_all (powers_int D) = powers_int (D + i).
Proof.
  induction i as [|i IH]; [rewrite Nat.add_0_r; reflexivity|].
  simpl Nat.iter; rewrite IH, step_powers; f_equal; lia.
Qed.

Lemma bounds_run_nth (n : nat) : forall D i, (i < n)%nat ->
  nth i (bounds_run n D (powers_int D)) (0%Z, 0%Z) = bounds_of_int (D + i) (powers_int (D + i)).
Proof. intros D i Hi; rewrite bounds_run_iter, iter_powers by exact Hi; reflexivity. Qed.

(* The bounds of distances 0 .. 255. *)
Definition table_length : nat := 256.
Definition bound_table : list (Z * Z) := bounds_run table_length 0 (powers_int 0).
Definition table_at (table : list (Z * Z)) (D : nat) : Z * Z := nth D table (0%Z, 0%Z).

Lemma table_at_spec (D : nat) : (D < table_length)%nat -> table_at bound_table D = bounds_of D (powers D).
Proof.
  intros HD; unfold table_at, bound_table; rewrite bounds_run_nth by exact HD.
  apply bounds_of_int_spec; unfold table_length in HD; lia.
Qed.

Fixpoint all_from (start len : nat) (p : nat -> bool) : bool :=
  match len with
  | O => true
  | S l => p start && all_from (S start) l p
  end.

Lemma all_from_spec (len : nat) : forall start p, all_from start len p = true ->
  forall D, (start <= D < start + len)%nat -> p D = true.
Proof.
  induction len as [|len IH]; intros start p H D HD; [lia|].
  cbn [all_from] in H; apply andb_true_iff in H; destruct H as [H0 H1].
  destruct (Nat.eq_dec D start) as [->|Hne]; [exact H0|apply (IH (S start)); [exact H1|lia]].
Qed.

(* Block k's witness w lies in [2^k, 2^(k+1)) and its lower bound beats the upper bound of every
   distance of block k + 1, all inside the table. *)
Definition block_ok (table : list (Z * Z)) (k w : nat) : bool :=
  Nat.leb (2 ^ k) w && Nat.ltb w (2 ^ (k + 1)) && Nat.leb (2 ^ (k + 2)) table_length
  && all_from (2 ^ (k + 1)) (2 ^ (k + 1)) (fun D' => Z.ltb (snd (table_at table D')) (fst (table_at table w))).

(* B(D) < B(0) for D = 1 .. 255 comes from Decay.v, for every real D <> 0; the checker decides the blocks. *)
Definition trend_check (blocks : nat) : bool :=
  let table := bound_table in forallb (fun k => block_ok table k (nth k block_witnesses 0%nat)) (seq 0 blocks).

Lemma block_ok_sound (k w : nat) : block_ok bound_table k w = true ->
  (2 ^ k <= w < 2 ^ (k + 1))%nat /\
  forall D' : nat, (2 ^ (k + 1) <= D' < 2 ^ (k + 2))%nat ->
    relative_bound (rope_spectrum 10000 64) 64 (INR D') < relative_bound (rope_spectrum 10000 64) 64 (INR w).
Proof.
  intros H; unfold block_ok in H; apply andb_true_iff in H as [H Hall].
  apply andb_true_iff in H as [H Htab]; apply andb_true_iff in H as [Hlo Hhi].
  apply Nat.leb_le in Hlo; apply Nat.ltb_lt in Hhi; apply Nat.leb_le in Htab.
  assert (Hdouble : (2 ^ (k + 2) = 2 ^ (k + 1) + 2 ^ (k + 1))%nat)
    by (replace (k + 2)%nat with (S (k + 1)) by lia; simpl; lia).
  split; [lia|]; intros D' HD'.
  pose proof (all_from_spec _ _ _ Hall D' ltac:(lia)) as Hlt; cbv beta in Hlt; apply Z.ltb_lt in Hlt.
  rewrite !table_at_spec in Hlt by (unfold table_length in *; lia).
  pose proof (bound_at D' ltac:(unfold table_length in *; lia)) as [_ HD'hi].
  pose proof (bound_at w ltac:(unfold table_length in *; lia)) as [Hwlo _].
  pose proof scale_pos.
  assert (IZR (snd (bounds_of D' (powers D'))) / IZR phase_scale
          < IZR (fst (bounds_of w (powers w))) / IZR phase_scale)
    by (apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|apply IZR_lt; exact Hlt]).
  unfold relative_bound; apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, lt_0_INR; lia|lra].
Qed.

Lemma trend_check_sound (blocks : nat) : trend_check blocks = true ->
  forall k : nat, (k < blocks)%nat ->
  exists D : nat, (2 ^ k <= D < 2 ^ (k + 1))%nat /\
    forall D' : nat, (2 ^ (k + 1) <= D' < 2 ^ (k + 2))%nat ->
      relative_bound (rope_spectrum 10000 64) 64 (INR D') < relative_bound (rope_spectrum 10000 64) 64 (INR D).
Proof.
  intros H k Hk; unfold trend_check in H; cbv zeta in H; rewrite forallb_forall in H.
  exists (nth k block_witnesses 0%nat); apply block_ok_sound, H, in_seq; lia.
Qed.

(* ROPE-DECAY-BOUND-MONOTONE, the trend reading of RoFormer's Fig. 2 (d = 128, base 10000): the bound
   stays below its value at distance 0 for D = 1 .. 255, and each block [2^k, 2^(k+1)), k = 1 .. 7, has
   a smaller maximum than the block before it. *)
Theorem rope_decay_bound_monotone :
  (forall D : nat, (1 <= D <= 255)%nat ->
     relative_bound (rope_spectrum 10000 64) 64 (INR D) < relative_bound (rope_spectrum 10000 64) 64 0) /\
  (forall k : nat, (k < 7)%nat ->
     exists D : nat, (2 ^ k <= D < 2 ^ (k + 1))%nat /\
       forall D' : nat, (2 ^ (k + 1) <= D' < 2 ^ (k + 2))%nat ->
         relative_bound (rope_spectrum 10000 64) 64 (INR D')
         < relative_bound (rope_spectrum 10000 64) 64 (INR D)).
Proof.
  split.
  - intros D HD; apply (rope_decay_bound_below_distance_0_d128 (INR D)), not_0_INR; lia.
  - apply trend_check_sound; vm_compute; reflexivity.
Qed.
