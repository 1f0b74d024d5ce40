(* InterpolationSizes.v -- PI-B-EXCEEDS-D: Positional Interpolation's remark that
   B(s) = sum_{k<d/2} |A_{k+1}(s)|, A_k(s) = sum_{j<k} e^(i s theta_j), is "at least larger than d"
   (Chen et al. 2023, Sec. 2.3 and App. C.2), at the sizes of the paper's plot: d = 128, c = 10^4,
   every integer s in [0, 4096); and the ratio it gives between the extrapolation bound
   2 max|h| B(s) and the interpolation bound that holds, max|h| (sum_j theta_j^2 / 2) / 4
   (PI-INTERPOLATION-BOUND's correction at (s - s1)(s2 - s) <= 1/4).

   B here is 64 relative_bound, the quantity Decay128Trend.v's checker bounds for s <= 255 by
   rotations from 1.  Reaching s = 4095 that way costs an error of s step_slack per phase, which at
   d = 128 would swamp the margin (min B - 128 = 14.8 at s = 3643).  Here s = 256 a + r starts from
   the anchor e^(i 256 theta_k) (enclosed by `interval`, Decay128Anchors.v): a rotations by the
   anchor, then r by e^(i theta_k), so no point costs more than 270 rounded rotations.  The same
   checker pieces (rotate_int, bounds_of_int, bounds_run) compute the bounds; block_check_sound says
   what a `true` means. *)

From Coq Require Import Bool ZArith Reals Lra Lia List.
From Coq Require Uint63 Sint63.
From Coquelicot Require Import Complex.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs DefsDecay DefsScaling Decay128Phases Decay128Anchors Decay128Trend.
From Ropecheck Require Import Decay128Sums Interpolation.
Import ListNotations.
Local Open Scope R_scope.

(* ------------------------------------------------------------------ the points of block a *)

Definition anchors_int : list (int * int) := map point_int anchor_phase_centres.

(* e^(i 256 a theta_k) for every k: a rotations by the anchors. *)
Definition block_start (a : nat) : list (int * int) := map (fun c => power_int c a) anchors_int.

(* e^(i (256 a + r) theta_k) for every k: r more rotations by the unit phases. *)
Definition block_points (a r : nat) : list (int * int) :=
  map (fun p => power_int_from (fst p) (snd p) r) (combine (block_start a) centres_int).

Lemma step_block (a r : nat) : step_all (block_points a r) = block_points a (S r).
Proof.
  unfold step_all, block_points; generalize (block_start a) centres_int; intros ws.
  induction ws as [|w ws IH]; intros [|c cs]; try reflexivity.
  cbn [map combine fst snd power_int_from]; rewrite IH; reflexivity.
Qed.

Lemma iter_block (a r : nat) : Nat.iter r step_all (block_points a 0) = block_points a r.
Proof. induction r as [|r IH]; [reflexivity|]; simpl Nat.iter; rewrite IH; apply step_block. Qed.

(* ------------------------------------------------------------------ their error *)

Lemma slack_le (n : nat) : (n <= 1024)%nat -> INR n * step_slack <= 1.
Proof.
  intros H; apply le_INR in H; pose proof step_slack_pos; pose proof step_slack_small.
  replace (INR 1024) with 1024 in H by (rewrite INR_IZR_INZ; reflexivity); nra.
Qed.

Lemma anchor_near (i : nat) : (i < 64)%nat ->
  Cmod (phase (256 * rope_spectrum 10000 64 i) - to_point (nth i anchor_phase_centres (0%Z, 0%Z)))%C
  <= 2 * (IZR phase_radius / IZR phase_scale).
Proof. intros Hi; destruct (anchor_phases i Hi); apply centre_near; assumption. Qed.

Lemma unit_near (i : nat) : (i < 64)%nat ->
  Cmod (phase (rope_spectrum 10000 64 i) - to_point (nth i unit_phase_centres (0%Z, 0%Z)))%C
  <= 2 * (IZR phase_radius / IZR phase_scale).
Proof. intros Hi; destruct (unit_phases i Hi); apply centre_near; assumption. Qed.

(* The point of pair i at s = 256 a + r, in exact integers, and its error: a + r rotations. *)
Definition block_point (a r i : nat) : Z * Z :=
  power_from (power_rounded (nth i anchor_phase_centres (0%Z, 0%Z)) a) (nth i unit_phase_centres (0%Z, 0%Z)) r.

Lemma block_error (a r i : nat) : (a + r <= 1024)%nat -> (i < 64)%nat ->
  Cmod (phase (INR (256 * a + r) * rope_spectrum 10000 64 i) - to_point (block_point a r i))%C
  <= INR (a + r) * step_slack.
Proof.
  intros Har Hi; pose proof step_slack_pos.
  pose proof (power_error _ _ (anchor_near i Hi) a (slack_le a ltac:(lia))) as Ha.
  replace (INR (256 * a + r) * rope_spectrum 10000 64 i)
    with (INR a * (256 * rope_spectrum 10000 64 i) + INR r * rope_spectrum 10000 64 i)
    by (rewrite plus_INR, mult_INR; replace (INR 256) with 256 by (rewrite INR_IZR_INZ; reflexivity); ring).
  rewrite plus_INR, Rmult_plus_distr_r.
  apply (power_from_error _ _ _ _ _ (unit_near i Hi) Ha r).
  rewrite <- Rmult_plus_distr_r, <- plus_INR; apply slack_le; lia.
Qed.

Lemma block_bounded (a r i : nat) : (a + r <= 1024)%nat -> (i < 64)%nat -> bounded (2 ^ 23) (block_point a r i).
Proof.
  intros Har Hi; apply (near_phase_bounded (INR (256 * a + r) * rope_spectrum 10000 64 i)).
  pose proof (block_error a r i Har Hi); pose proof (slack_le (a + r) Har); lra.
Qed.

Lemma centres_bounded (l : list (Z * Z)) :
  forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 22) && Z.leb (Z.abs (snd p)) (2 ^ 22)) l = true ->
  forall i, bounded (2 ^ 22) (nth i l (0%Z, 0%Z)).
Proof.
  intros H i; destruct (Nat.lt_ge_cases i (length l)) as [Hi|Hi].
  - pose proof (proj1 (forallb_forall _ _) H _ (nth_In l (0%Z, 0%Z) Hi)) as Hp; cbv beta in Hp.
    apply andb_true_iff in Hp as [H1 H2]; apply Z.leb_le in H1, H2; split; assumption.
  - rewrite nth_overflow by exact Hi; split; cbn; lia.
Qed.

Lemma anchors_small : forallb (fun p => Z.leb (Z.abs (fst p)) (2 ^ 22) && Z.leb (Z.abs (snd p)) (2 ^ 22))
  anchor_phase_centres = true.
Proof. vm_compute; reflexivity. Qed.

Lemma zvp_point_int (c : Z * Z) : bounded (2 ^ 22) c -> zvp (point_int c) = c.
Proof. intros [H1 H2]; unfold zvp, point_int; cbn [fst snd]; rewrite !zv_of_Z by lia; destruct c; reflexivity. Qed.

Lemma nth_map_combine {A B D : Type} (g : A * B -> D) (l : list A) (l' : list B) (i : nat) (da : A) (db : B)
  (dd : D) : length l = length l' -> (i < length l)%nat -> nth i (map g (combine l l')) dd = g (nth i l da, nth i l' db).
Proof.
  intros Hl Hi; rewrite (nth_indep _ _ (g (da, db))) by (rewrite map_length, combine_length; lia).
  rewrite map_nth, combine_nth by exact Hl; reflexivity.
Qed.

(* The machine-integer points are the exact-integer ones. *)
Lemma block_points_value (a r i : nat) : (a + r <= 1024)%nat -> (i < 64)%nat ->
  zvp (nth i (block_points a r) (point_int (0%Z, 0%Z))) = block_point a r i.
Proof.
  intros Har Hi.
  assert (Hlen : length (block_start a) = length centres_int)
    by (unfold block_start, anchors_int, centres_int; rewrite !map_length; reflexivity).
  unfold block_points; rewrite (nth_map_combine _ _ _ i (power_int (point_int (0%Z, 0%Z)) a) (point_int (0%Z, 0%Z)))
    by (try exact Hlen; unfold block_start, anchors_int; rewrite !map_length; exact Hi).
  cbn [fst snd]; unfold block_start, anchors_int, centres_int.
  rewrite (map_nth (fun c => power_int c a)), !map_nth.
  pose proof (centres_bounded _ anchors_small i) as Ha.
  pose proof (centres_bounded _ centres_small i) as Hc.
  rewrite power_int_from_spec.
  - rewrite power_int_spec.
    + rewrite !zvp_point_int by assumption; reflexivity.
    + rewrite zvp_point_int by assumption; exact Ha.
    + intros D' HD'; rewrite zvp_point_int by assumption.
      pose proof (block_bounded D' 0 i ltac:(lia) Hi) as Hb; exact Hb.
  - rewrite zvp_point_int by assumption; exact Hc.
  - intros D' HD'; rewrite power_int_spec.
    + rewrite !zvp_point_int by assumption; exact (block_bounded a D' i ltac:(lia) Hi).
    + rewrite zvp_point_int by assumption; exact Ha.
    + intros D'' HD''; rewrite zvp_point_int by assumption; exact (block_bounded D'' 0 i ltac:(lia) Hi).
Qed.

Lemma block_points_length (a r : nat) : length (block_points a r) = 64%nat.
Proof. unfold block_points, block_start, anchors_int, centres_int; rewrite map_length, combine_length, !map_length; reflexivity. Qed.

(* ------------------------------------------------------------------ B at s = 256 a + r *)

(* B(s) in the checker's form. *)
Definition pi_b (s : R) : R :=
  sum 64 (fun j => Cmod (partial_sum (fun i => phase (s * rope_spectrum 10000 64 i)) (S j))).

Lemma block_bounds (a r : nat) : (a + r <= 1024)%nat ->
  IZR (fst (bounds_of_int (a + r) (block_points a r))) / IZR phase_scale <= pi_b (INR (256 * a + r))
  <= IZR (snd (bounds_of_int (a + r) (block_points a r))) / IZR phase_scale.
Proof.
  intros Har.
  assert (Hval : forall i, (i < 64)%nat ->
            nth i (map zvp (block_points a r)) (0%Z, 0%Z) = block_point a r i).
  { intros i Hi; rewrite (nth_indep _ _ (zvp (point_int (0%Z, 0%Z))))
      by (rewrite map_length, block_points_length; exact Hi).
    rewrite map_nth; apply block_points_value; assumption. }
  rewrite bounds_of_int_map.
  - apply bounds_of_spec; intros i Hi; rewrite Hval by exact Hi; apply block_error; assumption.
  - apply block_points_length.
  - apply Forall_forall; intros w Hw; apply (In_nth _ _ (point_int (0%Z, 0%Z))) in Hw as [i [Hi <-]].
    rewrite block_points_length in Hi; rewrite block_points_value by assumption; apply block_bounded; assumption.
Qed.

(* ------------------------------------------------------------------ the checker *)

(* Lower and upper bounds of 2^22 B(256 a + r) for r < 256. *)
Definition block_table (a : nat) : list (Z * Z) := bounds_run 256 a (block_points a 0).

Lemma block_table_spec (a r : nat) : (a <= 768)%nat -> (r < 256)%nat ->
  IZR (fst (nth r (block_table a) (0%Z, 0%Z))) / IZR phase_scale <= pi_b (INR (256 * a + r))
  <= IZR (snd (nth r (block_table a) (0%Z, 0%Z))) / IZR phase_scale.
Proof.
  intros Ha Hr; unfold block_table; rewrite bounds_run_iter, iter_block by exact Hr.
  apply block_bounds; lia.
Qed.

(* Every s = 256 a + r < 256 blocks has a lower bound above `threshold` / 2^22. *)
Definition exceeds_check (blocks : nat) (threshold : Z) : bool :=
  forallb (fun a => forallb (fun b => Z.ltb threshold (fst b)) (block_table a)) (seq 0 blocks).

Lemma bounds_run_length (n steps : nat) (ws : list (int * int)) : length (bounds_run n steps ws) = n.
Proof.
  revert steps ws; induction n as [|n IH]; intros steps ws; [reflexivity|].
  cbn [bounds_run length]; rewrite IH; reflexivity.
Qed.

Lemma block_table_length (a : nat) : length (block_table a) = 256%nat.
Proof. apply bounds_run_length. Qed.

Lemma exceeds_check_sound (blocks : nat) (threshold : Z) : (blocks <= 768)%nat ->
  exceeds_check blocks threshold = true ->
  forall s : nat, (s < 256 * blocks)%nat -> IZR threshold / IZR phase_scale < pi_b (INR s).
Proof.
  intros Hb H s Hs; pose proof scale_pos.
  set (a := (s / 256)%nat); set (r := (s mod 256)%nat).
  assert (Es : s = (256 * a + r)%nat) by (apply Nat.div_mod; lia).
  assert (Hr : (r < 256)%nat) by (apply Nat.mod_upper_bound; lia).
  assert (Ha : (a < blocks)%nat) by (apply Nat.div_lt_upper_bound; lia).
  unfold exceeds_check in H; rewrite forallb_forall in H.
  assert (Hin : In a (seq 0 blocks)) by (apply in_seq; lia).
  specialize (H a Hin); rewrite forallb_forall in H.
  specialize (H (nth r (block_table a) (0%Z, 0%Z)) (nth_In _ _ ltac:(rewrite block_table_length; exact Hr))).
  apply Z.ltb_lt, IZR_lt in H.
  destruct (block_table_spec a r ltac:(lia) Hr) as [Hlo _]; rewrite Es.
  eapply Rlt_le_trans; [|exact Hlo].
  apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; lra|exact H].
Qed.

(* The checker's answer as a statement over the reals: B(s) > threshold for s < 256 blocks. *)
Lemma exceeds_above (blocks : nat) (threshold : Z) : (blocks <= 768)%nat ->
  exceeds_check blocks (threshold * phase_scale) = true ->
  forall s : nat, (s < 256 * blocks)%nat -> IZR threshold < pi_b (INR s).
Proof.
  intros Hb H s Hs; pose proof scale_pos.
  replace (IZR threshold) with (IZR (threshold * phase_scale) / IZR phase_scale) by (rewrite mult_IZR; field; lra).
  apply (exceeds_check_sound blocks); assumption.
Qed.

(* The upper bound at one point. *)
Lemma pi_b_below (a r : nat) (upper : Z) : (a <= 768)%nat -> (r < 256)%nat ->
  Z.leb (snd (nth r (block_table a) (0%Z, 0%Z))) upper = true -> pi_b (INR (256 * a + r)) <= IZR upper / IZR phase_scale.
Proof.
  intros Ha Hr H; pose proof scale_pos; apply Z.leb_le, IZR_le in H.
  destruct (block_table_spec a r Ha Hr) as [_ Hhi]; eapply Rle_trans; [exact Hhi|].
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
Qed.

(* ------------------------------------------------------------------ sum theta^2 at d = 128 *)

(* sum_j theta_j^2 = (1 - q^64) / (1 - q), q = 10^-(1/8): 3.9983... *)
Lemma frequency_square_sum_128 :
  3998 / 1000 <= rsum 64 (fun j => rope_frequency 10000 (2 * 64) j ^ 2) <= 4.
Proof.
  rewrite (rsum_ext 64 _ (fun j => exp (- (2 * ln 10000 / INR 64)) ^ j)) by (intros j Hj; apply frequency_square; lia).
  replace (INR 64) with 64 by (rewrite INR_IZR_INZ; reflexivity).
  rewrite rsum_geometric by (interval).
  split; interval.
Qed.

(* ------------------------------------------------------------------ PI-B-EXCEEDS-D *)

Lemma pi_b_sum_is (s : R) : pi_b_sum 10000 64 s = pi_b s.
Proof. reflexivity. Qed.

(* The checker certifies B(s) > 141 at every integer s < 4096 (the minimum is 142.84 at s = 3643;
   143 is refused): one vm_compute, from which both claims below follow. *)
Definition certified_floor : Z := 141.

Lemma pi_b_above_floor : forall s : nat, (s < 4096)%nat -> IZR certified_floor < pi_b_sum 10000 64 (INR s).
Proof. intros s Hs; rewrite pi_b_sum_is; apply (exceeds_above 16); [lia|vm_compute; reflexivity|lia]. Qed.

(* PI-B-EXCEEDS-D: B(s) > d = 128 for every integer s in [0, 4096) at d = 128, c = 10^4. *)
Theorem pi_b_exceeds_d : forall s : nat, (s < 4096)%nat -> 128 < pi_b_sum 10000 64 (INR s).
Proof. intros s Hs; pose proof (pi_b_above_floor s Hs) as H; unfold certified_floor in H; lra. Qed.

(* PI-EXTRAPOLATION-RATIO: the extrapolation bound 2 max|h| B(s) over the interpolation bound that
   holds, max|h| (sum theta^2 / 2) / 4 (PI-INTERPOLATION-BOUND's correction on consecutive integers),
   is not always 2 * 294.73 = 589.46: at s = 3643 = 256 * 14 + 59 it is about 571.6. *)
Theorem pi_extrapolation_ratio_negation :
  ~ (forall s : nat, (s < 4096)%nat ->
       2 * (29473 / 100) * (rsum 64 (fun j => rope_frequency 10000 (2 * 64) j ^ 2) / 8)
       <= 2 * pi_b_sum 10000 64 (INR s)).
Proof.
  intros H; specialize (H 3643%nat ltac:(lia)); rewrite pi_b_sum_is in H.
  pose proof frequency_square_sum_128.
  pose proof (pi_b_below 14 59 (146 * phase_scale) ltac:(lia) ltac:(lia) ltac:(vm_compute; reflexivity)) as Hb.
  replace (256 * 14 + 59)%nat with 3643%nat in Hb by reflexivity.
  replace (IZR (146 * phase_scale) / IZR phase_scale) with 146 in Hb by (pose proof scale_pos; rewrite mult_IZR; field; lra).
  lra.
Qed.

(* What holds: the ratio exceeds 564 at every integer s < 4096 (B(s) > 141, sum theta^2 <= 4). *)
Theorem pi_extrapolation_ratio_correction :
  forall s : nat, (s < 4096)%nat ->
    564 * (rsum 64 (fun j => rope_frequency 10000 (2 * 64) j ^ 2) / 8) < 2 * pi_b_sum 10000 64 (INR s).
Proof.
  intros s Hs; pose proof (pi_b_above_floor s Hs) as H; unfold certified_floor in H.
  pose proof frequency_square_sum_128; lra.
Qed.

(* The paper's own arithmetic: against its (refuted) constant d / (32 ln c) the ratio exceeds
   2 * 294.73 exactly because B(s) > d (294.73 < 32 ln 10^4). *)
Theorem pi_extrapolation_ratio_literal :
  forall s : nat, (s < 4096)%nat ->
    2 * (29473 / 100) * (128 / (32 * ln 10000)) < 2 * pi_b_sum 10000 64 (INR s).
Proof.
  intros s Hs; pose proof (pi_b_exceeds_d s Hs).
  assert (2 * (29473 / 100) * (128 / (32 * ln 10000)) <= 256) by interval; lra.
Qed.
