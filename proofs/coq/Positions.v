(** * Positions.v: positions are told apart — SPE-UNIQUE-POSITION and ROPE-ABS-AND-REL.

    Both claims reduce to one fact about two frequencies: if a pair rotated by
    [p * w] and by [q * w] lands on the same point for two frequencies [w = 1]
    and [w = t], then [(p - q)] and [(p - q) t] are both multiples of pi, so
    for [p <> q] the ratio [t] is rational.  At d = 2h, base 10000, the
    second frequency is [t = 10000^(-1/h)] with [t^h = 10^-4]; a rational t
    would give [10^4 k2^h = k1^h] in integers, which forces h | 4 (2-adic
    descent, [power_of_two_descent]).  So for every even d other than 2, 4, 8
    — RoFormer's d = 128 included — [p = q] for every pair of real positions
    (integer positions included).

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

(** ** Away from d = 2, 4, 8 the second frequency is irrational *)

Local Open Scope Z_scope.

(* 2^e m p^h = q^h with m odd and q <> 0 forces h | e (descent on |q|). *)
Lemma power_of_two_descent (h : nat) (m : Z) : (1 <= h)%nat -> Z.odd m = true ->
  forall n e p q, (Z.abs_nat q < n)%nat -> q <> 0 -> 0 <= e ->
  2 ^ e * m * p ^ Z.of_nat h = q ^ Z.of_nat h -> (Z.of_nat h | e).
Proof.
  intros Hh Hm n; induction n as [|n IH]; intros e p q Hn Hq He E; [lia|].
  set (H := Z.of_nat h) in *.
  assert (HH : 0 < H) by lia.
  destruct (Z.eq_dec e 0) as [->|He0]; [apply Z.divide_0_r|].
  assert (Hqe : Z.even q = true).
  { rewrite <- (Z.even_pow q H) by lia; rewrite <- E.
    replace e with (1 + (e - 1)) by lia; rewrite Z.pow_add_r by lia.
    rewrite <- !Z.mul_assoc, Z.even_mul; reflexivity. }
  apply Z.even_spec in Hqe; destruct Hqe as [q' ->].
  rewrite Z.pow_mul_l in E.
  destruct (Z_le_gt_dec H e) as [Hge|Hlt].
  - assert (E' : 2 ^ (e - H) * m * p ^ H = q' ^ H).
    { apply (Z.mul_reg_l _ _ (2 ^ H)); [apply Z.pow_nonzero; lia|].
      rewrite <- E.
      assert (P : 2 ^ e = 2 ^ H * 2 ^ (e - H)) by (rewrite <- Z.pow_add_r by lia; f_equal; lia).
      rewrite P; ring. }
    destruct (IH (e - H) p q' ltac:(lia) ltac:(lia) ltac:(lia) E') as [k Hk].
    exists (k + 1); lia.
  - assert (P : 2 ^ H = 2 ^ (H - e) * 2 ^ e) by (rewrite <- Z.pow_add_r by lia; f_equal; lia).
    assert (E2 : m * p ^ H = 2 ^ (H - e) * q' ^ H).
    { apply (Z.mul_reg_l _ _ (2 ^ e)); [apply Z.pow_nonzero; lia|].
      transitivity (2 ^ H * q' ^ H); [rewrite <- E; ring|rewrite P; ring]. }
    assert (Hpe : Z.even p = true).
    { rewrite <- (Z.even_pow p H) by lia.
      assert (Hev : Z.even (m * p ^ H) = true).
      { rewrite E2; replace (H - e) with (1 + (H - e - 1)) by lia; rewrite Z.pow_add_r by lia.
        rewrite <- Z.mul_assoc, Z.even_mul; reflexivity. }
      rewrite Z.even_mul, <- Z.negb_odd, Hm in Hev; exact Hev. }
    apply Z.even_spec in Hpe; destruct Hpe as [p' ->].
    rewrite Z.pow_mul_l, P in E2.
    assert (E3 : 2 ^ e * m * p' ^ H = q' ^ H).
    { apply (Z.mul_reg_l _ _ (2 ^ (H - e))); [apply Z.pow_nonzero; lia|].
      transitivity (m * (2 ^ (H - e) * 2 ^ e * p' ^ H)); [ring|rewrite E2; ring]. }
    exact (IH e p' q' ltac:(lia) ltac:(lia) He E3).
Qed.

(* 10^4 p^h = q^h in integers with q <> 0 only when h divides 4. *)
Lemma no_root_of_ten_thousand (h : nat) (p q : Z) : (1 <= h)%nat -> q <> 0 ->
  10000 * p ^ Z.of_nat h = q ^ Z.of_nat h -> (h = 1 \/ h = 2 \/ h = 4)%nat.
Proof.
  intros Hh Hq E.
  assert (E' : 2 ^ 4 * 625 * p ^ Z.of_nat h = q ^ Z.of_nat h) by (rewrite <- E; reflexivity).
  destruct (power_of_two_descent h 625 Hh eq_refl (S (Z.abs_nat q)) 4 p q ltac:(lia) Hq ltac:(lia) E') as [k Hk].
  assert (Hk4 : (0 < k <= 4)%Z) by nia.
  assert (Hcases : (k = 1 \/ k = 2 \/ k = 3 \/ k = 4)%Z) by lia.
  destruct Hcases as [-> | [-> | [-> | ->]]]; lia.
Qed.

Local Open Scope R_scope.

(* The second frequency of d = 2h is t = 10000^(-1/h), and t^h = 1/10000. *)
Lemma second_frequency_pow (h : nat) : (1 <= h)%nat ->
  rope_spectrum 10000 h 1 ^ h * 10000 = 1.
Proof.
  intros Hh; unfold rope_spectrum, rope_frequency.
  rewrite <- Rpower_pow by (unfold Rpower; apply exp_pos).
  rewrite Rpower_mult.
  assert (0 < INR h) by (apply lt_0_INR; lia).
  replace (- (2 * INR 1) / INR (2 * h) * INR h) with (Ropp 1) by (rewrite mult_INR; simpl; field; lra).
  rewrite Rpower_Ropp, Rpower_1 by lra; field.
Qed.

(* Away from d = 2, 4, 8 the second frequency is irrational. *)
Lemma second_frequency_irrational (h : nat) (k1 k2 : Z) :
  (1 <= h)%nat -> h <> 1%nat -> h <> 2%nat -> h <> 4%nat -> k1 <> 0%Z ->
  rope_spectrum 10000 h 1 * IZR k1 <> IZR k2.
Proof.
  intros Hh H1 H2 H4 Hk1 Hratio.
  assert (Hint : IZR (10000 * k2 ^ Z.of_nat h) = IZR (k1 ^ Z.of_nat h)).
  { rewrite mult_IZR, <- !pow_IZR, <- Hratio, Rpow_mult_distr.
    rewrite <- Rmult_assoc, (Rmult_comm 10000), (second_frequency_pow h Hh); ring. }
  apply eq_IZR in Hint.
  destruct (no_root_of_ten_thousand h k2 k1 Hh Hk1 Hint) as [E|[E|E]]; contradiction.
Qed.

(* Two positions with full turns at the frequencies 1 and t, t irrational, coincide. *)
Lemma full_turns_same_position (p q t : R) :
  (forall k1 k2 : Z, k1 <> 0%Z -> t * IZR k1 <> IZR k2) ->
  cos (p - q) = 1 -> cos ((p - q) * t) = 1 -> p = q.
Proof.
  intros Hirr C0 C1; destruct (Req_dec (p - q) 0) as [E|HD]; [lra|exfalso].
  destruct (two_full_turns_rational (p - q) t HD C0 C1) as [k1 [k2 [Hk1 Hk]]].
  exact (Hirr k1 k2 Hk1 Hk).
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

(* Pair i of the d = 2h encodings agrees at p and q: a full turn at w_i. *)
Lemma spe_pair_full_turn (h : nat) (p q : R) (i : nat) :
  (forall j, (j < 2 * h)%nat -> Sinusoidal.spe h p j = Sinusoidal.spe h q j) -> (i < h)%nat ->
  cos ((p - q) * rope_spectrum 10000 h i) = 1.
Proof.
  intros Hsame Hi.
  pose proof (Hsame (2 * i)%nat ltac:(lia)) as Es; pose proof (Hsame (S (2 * i)) ltac:(lia)) as Ec.
  unfold Sinusoidal.spe in Es, Ec; rewrite !Sinusoidal.pe_even in Es; rewrite !Sinusoidal.pe_odd in Ec.
  rewrite Rmult_minus_distr_r; exact (same_sin_cos_full_turn _ _ Es Ec).
Qed.

(* SPE-UNIQUE-POSITION for every even d = 2h other than 2, 4, 8 (d = 128,
   RoFormer's, included), base 10000: equal encodings mean equal positions,
   for every real position. *)
Theorem spe_unique_position : forall (h : nat) (p q : R),
  (1 <= h)%nat -> h <> 1%nat -> h <> 2%nat -> h <> 4%nat ->
  (forall j, (j < 2 * h)%nat -> Sinusoidal.spe h p j = Sinusoidal.spe h q j) -> p = q.
Proof.
  intros h p q Hh H1 H2 H4 Hsame.
  apply (full_turns_same_position p q (rope_spectrum 10000 h 1)).
  - intros k1 k2 Hk1; exact (second_frequency_irrational h k1 k2 Hh H1 H2 H4 Hk1).
  - pose proof (spe_pair_full_turn h p q 0 Hsame ltac:(lia)) as C0.
    rewrite Sinusoidal.spectrum_0, Rmult_1_r in C0; exact C0.
  - exact (spe_pair_full_turn h p q 1 Hsame ltac:(lia)).
Qed.

(* The d = 128 case, from its own irrational ratio t = 10000^(-1/64). *)
Example spe_unique_position_instance_d128 :
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
   offset (every even d, every spectrum: relative), and for every even
   d = 2h other than 2, 4, 8 (d = 128 included), base 10000, the rotated
   vector R_m x determines m for every real m and every x whose first two
   pairs are nonzero (absolute). *)
Theorem rope_abs_and_rel :
  (forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),
      dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k)
      = dot (2 * h) (rope theta h m q) (rope theta h n k))
  /\ (forall (h : nat) (x : vec) (m m' : R),
        (1 <= h)%nat -> h <> 1%nat -> h <> 2%nat -> h <> 4%nat ->
        (x 0%nat <> 0 \/ x 1%nat <> 0) -> (x 2%nat <> 0 \/ x 3%nat <> 0) ->
        (forall j, (j < 2 * h)%nat -> rope (rope_spectrum 10000 h) h m x j = rope (rope_spectrum 10000 h) h m' x j) ->
        m = m').
Proof.
  split; [exact Rope.rope_shift_invariance_003|].
  intros h x m m' Hh H1 H2 H4 Hx0 Hx1 Hsame.
  apply (full_turns_same_position m m' (rope_spectrum 10000 h 1)).
  - intros k1 k2 Hk1; exact (second_frequency_irrational h k1 k2 Hh H1 H2 H4 Hk1).
  - pose proof (rope_pair_full_turn _ h 0 m m' x ltac:(lia) (pair_nonzero _ _ Hx0)
                  (Hsame (2 * 0)%nat ltac:(lia)) (Hsame (S (2 * 0)) ltac:(lia))) as C0.
    rewrite Sinusoidal.spectrum_0, Rmult_1_r in C0; exact C0.
  - exact (rope_pair_full_turn _ h 1 m m' x ltac:(lia) (pair_nonzero _ _ Hx1)
             (Hsame (2 * 1)%nat ltac:(lia)) (Hsame (S (2 * 1)) ltac:(lia))).
Qed.
