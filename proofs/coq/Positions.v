(** * Positions.v: positions are told apart — SPE-UNIQUE-POSITION and ROPE-ABS-AND-REL.

    Both claims reduce to one fact about two frequencies: if a pair rotated by
    [p * w] and by [q * w] lands on the same point for two frequencies [w = 1]
    and [w = t], then [(p - q)] and [(p - q) t] are both multiples of pi, so
    for [p <> q] the ratio [t] is rational.  At d = 128, base 10000,
    [t = 10000^(-1/64)] and [10 t^16 = 1], and 10 is not the 16th power of a
    rational ([Decay.no_sixteenth_root_of_ten]), so [p = q] for every pair of
    real positions (integer positions included).

    At d = 2, 4, 8 every frequency is rational (1, 1/100, 1/10 ...); there two
    positions are told apart exactly when [p - q] is not a rational multiple
    of 2 pi, which at integer positions is the irrationality of pi — not
    proved here, so those dimensions are not claimed. *)

From Coq Require Import ZArith Reals Lia Lra.
From Ropecheck Require Import Defs DefsPositions.
From Ropecheck Require Sinusoidal Decay Rope.

Open Scope R_scope.

(* One 2D point rotated by two angles to the same place: the angles differ by
   a full turn (cosine 1), for any point other than the origin. *)
Lemma same_point_full_turn (a b x y : R) :
  a * a + b * b <> 0 ->
  a * cos x - b * sin x = a * cos y - b * sin y ->
  a * sin x + b * cos x = a * sin y + b * cos y ->
  cos (x - y) = 1.
Proof.
  intros Hab E0 E1.
  assert (K : (a * a + b * b) * (cos (x - y) - 1) = 0).
  { rewrite cos_minus.
    replace ((a * a + b * b) * (cos x * cos y + sin x * sin y - 1))
      with ((a * cos x - b * sin x) * (a * cos y - b * sin y)
            + (a * sin x + b * cos x) * (a * sin y + b * cos y) - (a * a + b * b)) by ring.
    rewrite E0, E1; pose proof (sin2_cos2 y) as P; unfold Rsqr in P.
    replace ((a * cos y - b * sin y) * (a * cos y - b * sin y)
             + (a * sin y + b * cos y) * (a * sin y + b * cos y) - (a * a + b * b))
      with ((a * a + b * b) * (sin y * sin y + cos y * cos y - 1)) by ring.
    rewrite P; ring. }
  apply Rmult_integral in K; destruct K as [K|K]; [contradiction|lra].
Qed.

(* The sinusoidal pair (sin x, cos x) is the point (0, 1) rotated by x. *)
Lemma same_sin_cos_full_turn (x y : R) : sin x = sin y -> cos x = cos y -> cos (x - y) = 1.
Proof.
  intros Es Ec; apply (same_point_full_turn 0 1); [lra| |]; rewrite ?Es, ?Ec; ring_simplify; auto.
Qed.

(* Two full turns at frequencies 1 and t from a nonzero distance D make t rational. *)
Lemma two_full_turns_rational (D t : R) :
  D <> 0 -> cos D = 1 -> cos (D * t) = 1 -> exists k1 k2 : Z, k1 <> 0%Z /\ t * IZR k1 = IZR k2.
Proof.
  intros HD C1 Ct.
  destruct (Decay.cos_one_multiple_of_pi D C1) as [k1 E1].
  destruct (Decay.cos_one_multiple_of_pi (D * t) Ct) as [k2 E2].
  pose proof PI_RGT_0 as Hpi.
  exists k1, k2; split.
  - intros ->; simpl in E1; apply HD; lra.
  - apply (Rmult_eq_reg_r PI); [|lra].
    rewrite <- E2, E1; ring.
Qed.

(* The d = 128 ratio t = 10000^(-1/64) is irrational: t k1 = k2 would give
   10 k2^16 = k1^16 in integers. *)
Lemma ratio_128_irrational (k1 k2 : Z) : k1 <> 0%Z -> Decay.ratio_128 * IZR k1 <> IZR k2.
Proof.
  intros Hk1 Hratio.
  assert (Hint : IZR (10 * k2 ^ Z.of_nat 16) = IZR (k1 ^ Z.of_nat 16)).
  { rewrite mult_IZR, <- !pow_IZR, <- Hratio, Rpow_mult_distr, <- Rmult_assoc.
    rewrite Decay.ratio_128_pow16; ring. }
  apply eq_IZR in Hint.
  exact (Decay.no_sixteenth_root_of_ten k2 k1 Hk1 Hint).
Qed.

(* At d = 128 two positions with full turns on pairs 0 and 1 coincide. *)
Lemma full_turns_128_same_position (p q : R) :
  cos ((p - q) * Decay.ratio_128 ^ 0) = 1 -> cos ((p - q) * Decay.ratio_128 ^ 1) = 1 -> p = q.
Proof.
  intros C0 C1; rewrite pow_O, Rmult_1_r in C0; rewrite pow_1 in C1.
  destruct (Req_dec (p - q) 0) as [E|HD]; [lra|exfalso].
  destruct (two_full_turns_rational (p - q) Decay.ratio_128 HD C0 C1) as [k1 [k2 [Hk1 Hk]]].
  exact (ratio_128_irrational k1 k2 Hk1 Hk).
Qed.

(** ** SPE-UNIQUE-POSITION *)

(* Pair i of the d = 128 encodings agrees at p and q: a full turn at frequency t^i. *)
Lemma spe_128_pair_full_turn (p q : R) (i : nat) :
  (forall j, (j < 128)%nat -> Sinusoidal.spe 64 p j = Sinusoidal.spe 64 q j) -> (i < 64)%nat ->
  cos ((p - q) * Decay.ratio_128 ^ i) = 1.
Proof.
  intros Hsame Hi.
  pose proof (Hsame (2 * i)%nat ltac:(lia)) as Es; pose proof (Hsame (S (2 * i)) ltac:(lia)) as Ec.
  unfold Sinusoidal.spe in Es, Ec; rewrite !Sinusoidal.pe_even in Es; rewrite !Sinusoidal.pe_odd in Ec.
  rewrite !Decay.spectrum_128 in Es, Ec.
  rewrite Rmult_minus_distr_r; exact (same_sin_cos_full_turn _ _ Es Ec).
Qed.

(* SPE-UNIQUE-POSITION at d = 128, base 10000 (the dimension of RoFormer's
   figures): equal encodings mean equal positions, for every real position. *)
Theorem spe_unique_position :
  forall p q : R, (forall j, (j < 128)%nat -> Sinusoidal.spe 64 p j = Sinusoidal.spe 64 q j) -> p = q.
Proof.
  intros p q Hsame.
  apply full_turns_128_same_position; apply spe_128_pair_full_turn; auto; lia.
Qed.

(** ** ROPE-ABS-AND-REL *)

(* Pair i of R_m x and R_m' x agree with pair i of x nonzero: a full turn at theta_i. *)
Lemma rope_pair_full_turn (theta : nat -> R) (h i : nat) (m m' : R) (x : vec) :
  (i < h)%nat -> x (2 * i)%nat * x (2 * i)%nat + x (S (2 * i)) * x (S (2 * i)) <> 0 ->
  rope theta h m x (2 * i)%nat = rope theta h m' x (2 * i)%nat ->
  rope theta h m x (S (2 * i)) = rope theta h m' x (S (2 * i)) ->
  cos ((m - m') * theta i) = 1.
Proof.
  intros Hi Hx E0 E1.
  rewrite !rope_even in E0 by exact Hi; rewrite !rope_odd in E1 by exact Hi.
  unfold rot in E0, E1; cbn [fst snd] in E0, E1.
  rewrite Rmult_minus_distr_r; exact (same_point_full_turn _ _ _ _ Hx E0 E1).
Qed.

Lemma pair_nonzero (a b : R) : a <> 0 \/ b <> 0 -> a * a + b * b <> 0.
Proof.
  intros [Ha|Hb].
  - pose proof (Rsqr_pos_lt a Ha); pose proof (Rle_0_sqr b); unfold Rsqr in *; lra.
  - pose proof (Rsqr_pos_lt b Hb); pose proof (Rle_0_sqr a); unfold Rsqr in *; lra.
Qed.

(* ROPE-ABS-AND-REL: the score depends on the positions only through their
   offset (every even d, every spectrum: relative), and at d = 128, base
   10000, the rotated vector R_m x determines m for every real m and every x
   whose first two pairs are nonzero (absolute). *)
Theorem rope_abs_and_rel :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),
      dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k)
      = dot (2 * h) (rope theta h m q) (rope theta h n k))
  /\ (forall (x : vec) (m m' : R),
        (x 0%nat <> 0 \/ x 1%nat <> 0) -> (x 2%nat <> 0 \/ x 3%nat <> 0) ->
        (forall j, (j < 128)%nat -> rope (Rope.roformer_theta 64) 64 m x j
                                    = rope (Rope.roformer_theta 64) 64 m' x j) ->
        m = m').
Proof.
  split; [exact Rope.rope_shift_invariance_003|].
  intros x m m' Hx0 Hx1 Hsame.
  apply full_turns_128_same_position; rewrite <- !Decay.spectrum_128.
  - apply (rope_pair_full_turn _ 64 0 m m' x); [lia| |apply Hsame; lia|apply Hsame; lia].
    apply pair_nonzero; exact Hx0.
  - apply (rope_pair_full_turn _ 64 1 m m' x); [lia| |apply Hsame; lia|apply Hsame; lia].
    apply pair_nonzero; exact Hx1.
Qed.
