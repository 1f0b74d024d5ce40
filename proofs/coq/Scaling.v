(** * Scaling: the context-extension literature's claims, decided for every size
    (registered in proofs/claims/_claims_scaling.py, bound in _bound_scaling.py).
    The claims decided at published sizes with `interval` are proved in ScalingSizes.v and
    restated here under their claim's name. *)

From Coq Require Import ZArith Reals Lra Lia List.
From Flocq Require Import Raux.
From Interval Require Import Tactic.
From Ropecheck Require Import Defs DefsScaling.
From Ropecheck Require ScalingSizes Interpolation MenTable2Lower.
Import ListNotations.
Local Open Scope R_scope.

(* Rpower with a positive base is injective in the exponent: slopes are compared through exponents. *)
Lemma Rpower_inj_exponent (b x y : R) : 1 < b -> Rpower b x = Rpower b y -> x = y.
Proof.
  intros Hb E. unfold Rpower in E. apply exp_inv in E.
  assert (0 < ln b) by (rewrite <- ln_1; apply ln_increasing; lra).
  apply Rmult_eq_reg_r with (ln b); lra.
Qed.

Lemma Rpower_lt_exponent (b x y : R) : 1 < b -> x < y -> Rpower b x < Rpower b y.
Proof. intros; apply Rpower_lt; lra. Qed.

(** ** NTK-ENDPOINTS *)

Lemma ntk_ratio (b s : R) (n i : nat) : 0 < b -> 0 < s -> (2 <= n)%nat ->
  rope_frequency (ntk_base b s n) (2 * n) i = rope_frequency b (2 * n) i * Rpower s (- INR i / (INR n - 1)).
Proof.
  intros Hb Hs Hn. unfold rope_frequency, ntk_base.
  assert (Hn' : 2 <= INR n) by (replace 2 with (INR 2) by (simpl; ring); apply le_INR; lia).
  rewrite <- Rpower_mult_distr; [|lra|apply exp_pos].
  f_equal. rewrite Rpower_mult. f_equal. rewrite mult_INR. simpl (INR 2).
  field. lra.
Qed.

Theorem ntk_endpoints : forall (b s : R) (n : nat), 0 < b -> 0 < s -> (2 <= n)%nat ->
  rope_frequency (ntk_base b s n) (2 * n) 0 = rope_frequency b (2 * n) 0 /\
  rope_frequency (ntk_base b s n) (2 * n) (n - 1) = rope_frequency b (2 * n) (n - 1) / s.
Proof.
  intros b s n Hb Hs Hn. rewrite !ntk_ratio by assumption. split.
  - simpl INR. replace (- 0 / (INR n - 1)) with 0 by (field; assert (2 <= INR n) by
      (replace 2 with (INR 2) by (simpl; ring); apply le_INR; lia); lra).
    rewrite Rpower_O by assumption. ring.
  - assert (2 <= INR n) by (replace 2 with (INR 2) by (simpl; ring); apply le_INR; lia).
    rewrite minus_INR by lia. simpl (INR 1).
    replace (- (INR n - 1) / (INR n - 1)) with (- (1)) by (field; lra).
    rewrite Rpower_Ropp, Rpower_1 by assumption. unfold Rdiv. ring.
Qed.

(** ** NTK-OUT-OF-BOUND *)

Theorem ntk_out_of_bound : forall (b s L : R) (n i : nat), 0 < b -> 1 < s -> 0 < L -> (0 < i < n - 1)%nat ->
  rope_frequency b (2 * n) i / s < rope_frequency (ntk_base b s n) (2 * n) i < rope_frequency b (2 * n) i /\
  L * rope_frequency b (2 * n) i < s * L * rope_frequency (ntk_base b s n) (2 * n) i.
Proof.
  intros b s L n i Hb Hs HL Hi.
  assert (Hn : (2 <= n)%nat) by lia.
  assert (Hn' : INR i + 1 < INR n) by (rewrite <- S_INR; apply lt_INR; lia).
  assert (Hi' : 0 < INR i) by (apply lt_0_INR; lia).
  assert (Ht : 0 < rope_frequency b (2 * n) i) by (unfold rope_frequency; apply exp_pos).
  rewrite ntk_ratio by (try assumption; lra).
  assert (Hlo : Rpower s (- (1)) < Rpower s (- INR i / (INR n - 1))).
  { apply Rpower_lt_exponent; [assumption|].
    assert (INR i * / (INR n - 1) < 1).
    { apply Rmult_lt_reg_r with (INR n - 1); [lra|].
      rewrite Rmult_assoc, Rinv_l; lra. }
    unfold Rdiv. rewrite Ropp_mult_distr_l_reverse. lra. }
  assert (Hhi : Rpower s (- INR i / (INR n - 1)) < 1).
  { apply Rlt_le_trans with (Rpower s 0); [|rewrite Rpower_O; lra]. apply Rpower_lt_exponent; [assumption|].
    unfold Rdiv. rewrite Ropp_mult_distr_l_reverse.
    assert (0 < INR i * / (INR n - 1)) by (apply Rmult_lt_0_compat; [lra|apply Rinv_0_lt_compat; lra]).
    lra. }
  rewrite Rpower_Ropp, Rpower_1 in Hlo by lra.
  assert (0 < s) by lra.
  set (t := rope_frequency b (2 * n) i) in *. set (P := Rpower s (- INR i / (INR n - 1))) in *.
  assert (H1 : t / s < t * P).
  { unfold Rdiv. apply Rmult_lt_compat_l; assumption. }
  split; [split|].
  - exact H1.
  - rewrite <- (Rmult_1_r t) at 2. apply Rmult_lt_compat_l; assumption.
  - replace (L * t) with (s * L * (t / s)) by (field; lra).
    apply Rmult_lt_compat_l; [nra|exact H1].
Qed.

(** ** YARN-TEMPERATURE *)

Lemma rope_scaled_pointwise (c : R) (theta : nat -> R) (h : nat) (m : R) (x : vec) (j : nat) :
  rope_scaled c theta h m x j = c * rope theta h m x j.
Proof.
  unfold rope_scaled, rope, rot. simpl.
  destruct (Nat.ltb (Nat.div2 j) h); [|ring]. destruct (Nat.even j); simpl; ring.
Qed.

Lemma ln_pos (x : R) : 1 < x -> 0 < ln x.
Proof. intro; rewrite <- ln_1; apply ln_increasing; lra. Qed.

Lemma ln_nonneg (x : R) : 1 <= x -> 0 <= ln x.
Proof. intro H; destruct H as [H|H]; [left; apply ln_pos; lra|subst; rewrite ln_1; lra]. Qed.

Theorem yarn_temperature :
  (forall (c : R) (theta : nat -> R) (h : nat) (m n : R) (q k : vec),
     dot (2 * h) (rope_scaled c theta h m q) (rope_scaled c theta h n k) =
     c ^ 2 * dot (2 * h) (rope theta h m q) (rope theta h n k)) /\
  (forall s : R, 1 <= s -> 1 <= yarn_mscale s ^ 2 /\ (yarn_mscale s ^ 2 = 1 <-> s = 1)) /\
  (1631 / 1000 < yarn_mscale 16 ^ 2 < 1632 / 1000).
Proof.
  split; [|split].
  - intros. unfold dot. rewrite <- sum_scal_l. apply sum_ext. intros j _.
    rewrite !rope_scaled_pointwise. ring.
  - intros s Hs. unfold yarn_mscale. pose proof (ln_nonneg s Hs). split; [nra|split].
    + intro E. destruct Hs as [Hs|Hs]; [|lra]. pose proof (ln_pos s Hs). nra.
    + intro E; subst; rewrite ln_1; ring.
  - unfold yarn_mscale. split; interval.
Qed.

(** ** DEEPSEEK-V3-MSCALE and DEEPSEEK-V2-MSCALE *)

Lemma deepseek_mscale_above (s mu : R) : 1 < s -> 0 <= mu -> 1 <= deepseek_mscale s mu.
Proof.
  intros Hs Hmu. unfold deepseek_mscale. destruct (Rle_dec s 1); [lra|].
  pose proof (ln_pos s Hs). assert (0 <= mu * ln s) by nra. lra.
Qed.

Lemma mla_logit_parts (s ms msa rp np : R) : 1 < s -> 0 <= msa ->
  mla_logit s ms msa rp np = deepseek_mscale s ms ^ 2 * rp + deepseek_mscale s msa ^ 2 * np.
Proof.
  intros Hs Hmsa. pose proof (deepseek_mscale_above s msa Hs Hmsa). unfold mla_logit. field. lra.
Qed.

Theorem deepseek_v3_mscale :
  (forall s ms msa rp np : R, 1 < s -> 0 <= ms -> 0 <= msa ->
     mla_logit s ms msa rp np = deepseek_mscale s ms ^ 2 * rp + deepseek_mscale s msa ^ 2 * np /\
     ((forall rp' np', mla_logit s ms msa rp' np' = deepseek_mscale s ms ^ 2 * (rp' + np')) <-> ms = msa)) /\
  (forall rp np : R, mla_logit 40 1 1 rp np = yarn_mscale 40 ^ 2 * (rp + np)) /\
  (1873 / 1000 < yarn_mscale 40 ^ 2 < 1874 / 1000).
Proof.
  split; [|split].
  - intros s ms msa rp np Hs Hms Hmsa. rewrite mla_logit_parts by assumption. split; [reflexivity|].
    split.
    + intro U. specialize (U 0 1). rewrite mla_logit_parts in U by assumption.
      pose proof (deepseek_mscale_above s ms Hs Hms). pose proof (deepseek_mscale_above s msa Hs Hmsa).
      assert (E : deepseek_mscale s msa = deepseek_mscale s ms) by nra.
      unfold deepseek_mscale in E. destruct (Rle_dec s 1); [lra|].
      pose proof (ln_pos s Hs). apply Rmult_eq_reg_r with (1 / 10 * ln s); [nra|]. nra.
    + intros -> rp' np'. rewrite mla_logit_parts by assumption. ring.
  - intros rp np. rewrite mla_logit_parts by lra. unfold deepseek_mscale, yarn_mscale.
    destruct (Rle_dec 40 1); [lra|]. ring.
  - unfold yarn_mscale. split; interval.
Qed.

Theorem deepseek_v2_mscale :
  (forall s : R, 1 < s -> deepseek_mscale s (707 / 1000) = 707 / 10000 * ln s + 1) /\
  (forall rp np : R, mla_logit 40 (707 / 1000) (707 / 1000) rp np = (707 / 10000 * ln 40 + 1) ^ 2 * (rp + np)) /\
  (1589 / 1000 < (707 / 10000 * ln 40 + 1) ^ 2 < 1590 / 1000).
Proof.
  split; [|split].
  - intros s Hs. unfold deepseek_mscale. destruct (Rle_dec s 1); [lra|]. field.
  - intros rp np. rewrite mla_logit_parts by lra. unfold deepseek_mscale.
    destruct (Rle_dec 40 1); [lra|]. field.
  - split; interval.
Qed.

(** ** YARN-DYNAMIC-RULE *)

Theorem yarn_dynamic_rule_negation : ~ (forall f x : R, 1 <= f -> 1 <= x -> dynamic_alpha_hf f x = dynamic_alpha_paper x).
Proof.
  intro H. specialize (H 2 2). unfold dynamic_alpha_hf, dynamic_alpha_paper in H.
  rewrite Rmax_right in H by lra. lra.
Qed.

Theorem yarn_dynamic_rule_correction :
  (forall f x : R, 1 <= x -> dynamic_alpha_hf f x = dynamic_alpha_paper x + (f - 1) * (x - 1)) /\
  (forall f x : R, 1 <= x -> (dynamic_alpha_hf f x = dynamic_alpha_paper x <-> f = 1 \/ x = 1)) /\
  (forall f : R, dynamic_alpha_vllm f = dynamic_alpha_hf f f) /\
  (forall f x : R, 1 <= x -> (dynamic_alpha_vllm f = dynamic_alpha_paper x <-> x = f * f - f + 1)).
Proof.
  unfold dynamic_alpha_hf, dynamic_alpha_paper, dynamic_alpha_vllm.
  split; [|split; [|split]].
  - intros f x Hx. rewrite Rmax_right by lra. ring.
  - intros f x Hx. rewrite Rmax_right by lra. split.
    + intro E. assert ((f - 1) * (x - 1) = 0) by lra. apply Rmult_integral in H. lra.
    + intros [-> | ->]; ring.
  - intro f. ring.
  - intros f x Hx. rewrite Rmax_right by lra. lra.
Qed.

(** ** LLAMA3-BAND-EDGES and LLAMA3-IS-BY-PARTS *)

Theorem llama3_band_edges : forall s lf hf L0 theta : R, 0 < lf < hf -> 0 < L0 -> 0 < theta ->
  llama3_frequency s lf hf L0 theta = llama3_frequency_closed s lf hf L0 theta.
Proof.
  intros s lf hf L0 theta Hf HL Ht. unfold llama3_frequency, llama3_frequency_closed. cbv zeta.
  set (l := wavelength theta).
  assert (Hl : 0 < l) by (unfold l, wavelength; apply Rdiv_lt_0_compat; [pose proof PI_RGT_0; lra|lra]).
  clearbody l.
  assert (Hhl : L0 / hf < L0 / lf).
  { apply Rmult_lt_compat_l; [lra|]. apply Rinv_lt_contravar; nra. }
  destruct (Rlt_dec l (L0 / hf)); destruct (Rle_dec l (L0 / hf)); try lra.
  - (* l = L0 / hf: the band's value is theta *)
    assert (E : l = L0 / hf) by lra.
    destruct (Rlt_dec (L0 / lf) l); [lra|].
    rewrite E. replace (L0 / (L0 / hf)) with hf by (field; lra).
    replace ((hf - lf) / (hf - lf)) with 1 by (field; lra). unfold Rdiv; ring.
  - destruct (Rlt_dec (L0 / lf) l); destruct (Rle_dec (L0 / lf) l); try lra; try reflexivity.
    assert (E : l = L0 / lf) by lra. rewrite E. replace (L0 / (L0 / lf)) with lf by (field; lra).
    replace ((lf - lf) / (hf - lf)) with 0 by (field; lra). unfold Rdiv; ring.
Qed.

Lemma lt_div_swap (a b c : R) : 0 < a -> 0 < b -> 0 < c -> (a < b / c <-> c < b / a).
Proof.
  intros Ha Hb Hc. assert (E1 : b / c * c = b) by (field; lra). assert (E2 : b / a * a = b) by (field; lra).
  split; intro H; nra.
Qed.

Lemma div_lt_swap (a b c : R) : 0 < a -> 0 < b -> 0 < c -> (b / c < a <-> b / a < c).
Proof.
  intros Ha Hb Hc. assert (E1 : b / c * c = b) by (field; lra). assert (E2 : b / a * a = b) by (field; lra).
  split; intro H; nra.
Qed.

Theorem llama3_is_by_parts : forall s lf hf L0 theta : R, 0 < lf < hf -> 0 < L0 -> 0 < theta ->
  llama3_frequency s lf hf L0 theta = by_parts s theta (ramp_gamma lf hf (L0 / wavelength theta)).
Proof.
  intros s lf hf L0 theta Hf HL Ht. unfold llama3_frequency, by_parts, ramp_gamma. cbv zeta.
  set (l := wavelength theta).
  assert (Hl : 0 < l) by (unfold l, wavelength; apply Rdiv_lt_0_compat; [pose proof PI_RGT_0; lra|lra]).
  clearbody l.
  assert (A : l < L0 / hf <-> hf < L0 / l) by (apply lt_div_swap; lra).
  assert (B : L0 / lf < l <-> L0 / l < lf) by (symmetry; apply div_lt_swap; lra).
  destruct (Rlt_dec l (L0 / hf)) as [H1|H1]; destruct (Rlt_dec (L0 / l) lf) as [H2|H2];
    destruct (Rlt_dec hf (L0 / l)) as [H3|H3]; try (exfalso; lra); try tauto;
    destruct (Rlt_dec (L0 / lf) l) as [H4|H4]; try tauto; unfold Rdiv; try ring.
Qed.

Theorem longrope_attention_scale :
  (forall s L0 : R, 1 < L0 -> 1 <= s ->
     1 <= longrope_attention_factor s L0 /\ (longrope_attention_factor s L0 = 1 <-> s = 1)) /\
  longrope_attention_factor 32 4096 = sqrt (17 / 12) /\
  (forall s L0 : R, 1 < s -> exp 5 < L0 -> longrope_attention_factor s L0 < yarn_mscale s).
Proof.
  split; [|split].
  - intros s L0 HL Hs. pose proof (ln_pos L0 HL). pose proof (ln_nonneg s Hs).
    assert (0 <= ln s / ln L0) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
    unfold longrope_attention_factor. split.
    + apply Rle_trans with (sqrt 1); [rewrite sqrt_1; lra|apply sqrt_le_1_alt; lra].
    + split.
      * intro E. assert (E2 : 1 + ln s / ln L0 = 1).
        { rewrite <- (sqrt_sqrt (1 + ln s / ln L0)) by lra. rewrite E. ring. }
        destruct Hs as [Hs|Hs]; [|lra]. pose proof (ln_pos s Hs).
        assert (0 < ln s / ln L0) by (apply Rdiv_lt_0_compat; lra). lra.
      * intros ->. rewrite ln_1. unfold Rdiv. rewrite Rmult_0_l, Rplus_0_r. apply sqrt_1.
  - unfold longrope_attention_factor. f_equal.
    replace 32 with (2 ^ 5) by ring. replace 4096 with (2 ^ 12) by ring.
    rewrite !ln_pow by lra. simpl INR. assert (0 < ln 2) by (apply ln_pos; lra). field. lra.
  - intros s L0 Hs HL. unfold longrope_attention_factor, yarn_mscale.
    pose proof (ln_pos s Hs). assert (H5 : 5 < ln L0) by (rewrite <- (ln_exp 5); apply ln_increasing; [apply exp_pos|lra]).
    assert (Hq : ln s / ln L0 < ln s / 5).
    { unfold Rdiv. apply Rmult_lt_compat_l; [lra|]. apply Rinv_lt_contravar; lra. }
    assert (0 <= ln s / ln L0) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
    rewrite <- (sqrt_pow2 (1 / 10 * ln s + 1)) by nra.
    apply sqrt_lt_1_alt. split; [lra|]. nra.
Qed.

Theorem mrope_text_reduces : forall (theta : nat -> R) (h : nat) (pos : nat -> R) (section : nat -> nat) (p : R) (x : vec),
  (forall i : nat, (i < h)%nat -> pos (section i) = p) ->
  forall j : nat, mrope theta h pos section x j = rope theta h p x j.
Proof.
  intros theta h pos section p x H j. unfold mrope, rope.
  destruct (Nat.ltb (Nat.div2 j) h) eqn:E; [|reflexivity].
  apply Nat.ltb_lt in E. rewrite H by exact E. reflexivity.
Qed.

Theorem xpos_relative_decay :
  (forall zeta B n m c : R, 0 < zeta -> B <> 0 ->
     xpos_scale zeta B (n + c) * xpos_scale zeta B (- (m + c)) = xpos_scale zeta B (n - m)) /\
  (forall L j : Z, ((L - 1 + (- L) / 2) - (j + (- L) / 2) = L - 1 - j)%Z) /\
  (forall n : nat, (1 <= n)%nat -> xpos_zeta n 0 = 2 / 7) /\
  (forall n i : nat, (i < n)%nat -> 0 < xpos_zeta n i < 1).
Proof.
  split; [|split; [|split]].
  - intros zeta B n m c Hz HB. unfold xpos_scale. rewrite <- Rpower_plus. f_equal. field. exact HB.
  - intros L j. lia.
  - intros n Hn. unfold xpos_zeta. assert (0 < INR (2 * n)) by (apply lt_0_INR; lia). simpl (INR 0). field. lra.
  - intros n i Hi. unfold xpos_zeta. assert (0 < INR (2 * n)) by (apply lt_0_INR; lia).
    assert (INR i < INR n) by (apply lt_INR; exact Hi). assert (0 <= INR i) by apply pos_INR.
    rewrite mult_INR in *. simpl (INR 2) in *. split.
    + apply Rdiv_lt_0_compat; lra.
    + apply Rmult_lt_reg_r with (14 / 10 * (2 * INR n)); [lra|]. unfold Rdiv.
      rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** ** PI-INTERPOLATION-BOUND: Theorem 2.1 fails already at d = 2 (theta_0 = 1, h_0 = 1) *)

Theorem pi_interpolation_bound_negation :
  ~ (forall (n : nat) (c s1 s2 s : R) (hr hi : nat -> R), (1 <= n)%nat -> 1 < c -> s1 < s2 -> s1 <= s <= s2 ->
       Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
       <= INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c)).
Proof.
  intro H. specialize (H 1%nat 10000 0 1 (1 / 2) (fun _ => 1) (fun _ => 0)).
  assert (Hc : (1 <= 1)%nat) by lia. specialize (H Hc). clear Hc.
  unfold pi_score, linear_interpolation, max_modulus, rsum, rope_frequency, Rpower in H.
  rewrite Rmax_right in H by apply sqrt_pos. simpl INR in H.
  assert (A : 1 < 10000) by lra. assert (B : 0 < 1) by lra. assert (C : 0 <= 1 / 2 <= 1) by lra.
  specialize (H A B C). revert H. apply Rlt_not_le. interval.
Qed.

(* What holds (Interpolation.v: a second-order Taylor remainder from Coquelicot's MVT): the constant is
   sum_j theta_j^2 / 2, and sum_j theta_j^2 <= 1 + d / (4 ln c) — the paper's d/(8 ln c) misses theta_0^2 / 2 = 1/2. *)
Theorem pi_interpolation_bound_correction : forall (n : nat) (c s1 s2 s : R) (hr hi : nat -> R),
  (1 <= n)%nat -> 1 < c -> s1 < s2 -> s1 <= s <= s2 ->
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= max_modulus hr hi n * (rsum n (fun j => rope_frequency c (2 * n) j ^ 2) / 2) * (s - s1) * (s2 - s) /\
  Rabs (pi_score hr hi c n s - linear_interpolation (pi_score hr hi c n) s1 s2 s)
    <= INR (2 * n) * max_modulus hr hi n * (s - s1) * (s2 - s) / (8 * ln c)
       + max_modulus hr hi n * (s - s1) * (s2 - s) / 2.
Proof. exact Interpolation.pi_interpolation_corrected. Qed.

(** ** YARN-RAMP-CODE (decided pair by pair in ScalingSizes.v) *)

Theorem yarn_ramp_code_negation :
  ~ (forall i : nat, (i < 64)%nat ->
       yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i).
Proof.
  intro H. assert (Hi : (33 < 64)%nat) by lia.
  destruct (proj1 (ScalingSizes.yarn_ramp_llama2 33%nat Hi) (H 33%nat Hi)); lia.
Qed.

Theorem yarn_ramp_code_correction : forall i : nat, (i < 64)%nat ->
  (yarn_code_frequency 16 4096 10000 32 1 64 i = yarn_paper_frequency 16 4096 10000 1 32 64 i <->
   (i <= 20 \/ 46 <= i)%nat).
Proof. exact ScalingSizes.yarn_ramp_llama2. Qed.

(** ** ALIBI-SLOPES-GENERAL *)

Lemma alibi_reference_power_of_two_ (k : nat) : alibi_reference_slopes (2 ^ k) = alibi_slopes (2 ^ k).
Proof.
  unfold alibi_reference_slopes. rewrite Nat.log2_pow2 by lia. rewrite Nat.eqb_refl. reflexivity.
Qed.

Lemma in_alibi_slopes (x : R) (n : nat) :
  In x (alibi_slopes n) -> exists h, (h < n)%nat /\ x = Rpower 2 (- 8 * INR (S h) / INR n).
Proof.
  unfold alibi_slopes. intro H. apply in_map_iff in H as [h [E Hh]]. apply in_seq in Hh.
  exists h. split; [lia|symmetry; exact E].
Qed.

Theorem alibi_slopes_general_correction :
  (forall k : nat, alibi_reference_slopes (2 ^ k) = alibi_slopes (2 ^ k)) /\
  (forall n : nat, (1 <= n)%nat -> (2 ^ Nat.log2 n <> n)%nat ->
     In (Rpower 2 (- 4 / INR (2 ^ Nat.log2 n))) (alibi_reference_slopes n) /\
     ~ In (Rpower 2 (- 4 / INR (2 ^ Nat.log2 n))) (alibi_slopes n)).
Proof.
  split; [exact alibi_reference_power_of_two_|].
  intros n Hn Hp. set (p := (2 ^ Nat.log2 n)%nat).
  assert (Hspec : (p <= n < 2 * p)%nat).
  { unfold p. destruct (Nat.log2_spec n) as [H1 H2]; [lia|]. rewrite Nat.pow_succ_r' in H2. lia. }
  assert (Hp0 : (1 <= p)%nat) by (unfold p; apply Nat.neq_0_lt_0, Nat.pow_nonzero; lia).
  assert (HpR : 1 <= INR p) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  split.
  - unfold alibi_reference_slopes. fold p. destruct (Nat.eqb p n) eqn:E.
    { apply Nat.eqb_eq in E. contradiction. }
    apply in_or_app. right.
    unfold alibi_slopes at 1. set (f := fun h : nat => Rpower 2 (- 8 * INR (S h) / INR (2 * p))).
    replace (seq 0 (2 * p)) with (seq 0 (S (S (2 * p - 2)))) by (f_equal; lia).
    change (every_other (map f (seq 0 (S (S (2 * p - 2))))))
      with (f 0%nat :: every_other (map f (seq 2 (2 * p - 2)))).
    replace (n - p)%nat with (S (n - p - 1)) by lia. simpl firstn. left.
    unfold f. f_equal. rewrite mult_INR. simpl (INR 1). simpl (INR 2). field. lra.
  - intro H. apply in_alibi_slopes in H as [h [Hh E]].
    apply Rpower_inj_exponent in E; [|lra].
    assert (HnR : INR n < 2 * INR p) by (replace 2 with (INR 2) by reflexivity; rewrite <- mult_INR; apply lt_INR; lia).
    assert (HhR : 1 <= INR (S h)) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
    assert (0 < INR n) by (apply lt_0_INR; lia).
    assert (E2 : 4 * INR n = 8 * INR (S h) * INR p).
    { assert (INR p <> 0) by lra. assert (INR n <> 0) by lra. field_simplify_eq in E; try (split; assumption). nra. }
    nra.
Qed.

Theorem alibi_slopes_general_negation : ~ (forall n : nat, (1 <= n)%nat -> alibi_reference_slopes n = alibi_slopes n).
Proof.
  intro H. destruct (proj2 alibi_slopes_general_correction 12%nat) as [A B]; [lia|simpl; lia|].
  rewrite H in A by lia. contradiction.
Qed.

(** ** T5-BUCKET-SATURATION (sizes in ScalingSizes.v) *)

Theorem t5_bucket_saturation :
  (forall nb md n : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (md <= n)%Z -> t5_bucket nb md n = (nb - 1)%Z) /\
  (forall nb md n n' : Z, (2 <= nb)%Z -> (nb / 2 < md)%Z -> (0 <= n <= n')%Z ->
     (t5_bucket nb md n <= t5_bucket nb md n')%Z) /\
  (forall nb md n : Z, (2 <= nb)%Z -> (0 <= n < nb / 2)%Z -> t5_bucket nb md n = n) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 16 128 n = 15%Z <-> (91 <= n)%Z)) /\
  (forall n : Z, (0 <= n)%Z -> (t5_bucket 32 128 n = 31%Z <-> (113 <= n)%Z)).
Proof. exact ScalingSizes.t5_buckets_at_sizes. Qed.

(** ** XPOS-FP16-RANGE *)

Theorem xpos_fp16_range :
  (forall p : nat, (p <= 3966)%nat <-> Rpower 2 (-14) <= xpos_scale (2 / 7) 512 (INR p)) /\
  (forall p : nat, (p <= 4532)%nat <-> xpos_scale (2 / 7) 512 (- INR p) <= 65504).
Proof. exact ScalingSizes.xpos_range_fp16_at_sizes. Qed.

(** ** CRITICAL-DIMENSION-LIU *)

Theorem critical_dimension_liu :
  (forall (b T : R) (n : nat), 1 < b -> critical_dimension b T n = (2 * Zceil (correction_dim T b n 1))%Z) /\
  critical_dimension 10000 4096 64 = 92%Z /\ critical_dimension 500000 4096 64 = 64%Z /\
  critical_dimension 1000000 4096 64 = 62%Z.
Proof.
  split; [|exact ScalingSizes.critical_dimension_llama2].
  intros b T n Hb. unfold critical_dimension, correction_dim. do 2 f_equal.
  pose proof (ln_pos b Hb). rewrite mult_INR. simpl (INR 2). replace (2 * PI * 1) with (2 * PI) by ring. field. lra.
Qed.

(** ** XIONG-SCORE-DECAY *)

Theorem xiong_score_decay_negation :
  ~ (forall r r' : R, 0 <= r <= r' -> all_ones_score 10000 64 r' <= all_ones_score 10000 64 r).
Proof.
  intro H. pose proof ScalingSizes.xiong_rises_11_to_12. specialize (H 11 12 ltac:(lra)). lra.
Qed.

Lemma rsum_below (m : nat) (f : nat -> R) : (1 <= m)%nat -> (forall i, f i <= 2) -> f 0%nat < 2 -> rsum m f < 2 * INR m.
Proof.
  intros Hm Hf H0. induction m as [|m IH]; [lia|].
  destruct m as [|m]; [simpl; lra|].
  assert (IH' : rsum (S m) f < 2 * INR (S m)) by (apply IH; lia).
  change (rsum (S (S m)) f) with (rsum (S m) f + f (S m)). rewrite (S_INR (S m)). specialize (Hf (S m)). lra.
Qed.

Lemma rsum_le (m : nat) (f : nat -> R) : (forall i, f i <= 2) -> rsum m f <= 2 * INR m.
Proof.
  intros Hf. induction m as [|m IH]; [simpl; lra|].
  change (rsum (S m) f) with (rsum m f + f m). rewrite S_INR. specialize (Hf m). lra.
Qed.

Lemma cos_lt_1 (r : R) : 0 < Rabs r < 2 * PI -> cos r < 1.
Proof.
  intro H. replace r with (2 * (r / 2)) by field. rewrite cos_2a_sin.
  assert (sin (r / 2) <> 0).
  { destruct (Rcase_abs r) as [Hr|Hr]; [rewrite Rabs_left in H by lra|rewrite Rabs_right in H by lra].
    - replace (r / 2) with (- (- r / 2)) by field. rewrite sin_neg.
      assert (0 < sin (- r / 2)) by (apply sin_gt_0; lra). lra.
    - assert (0 < sin (r / 2)) by (apply sin_gt_0; lra). lra. }
  assert (0 < sin (r / 2) * sin (r / 2)) by (apply Rsqr_pos_lt; assumption). lra.
Qed.

Lemma rsum_const (m : nat) (f : nat -> R) : (forall i, f i = 2) -> rsum m f = 2 * INR m.
Proof.
  intros Hf. induction m as [|m IH]; [simpl; ring|].
  change (rsum (S m) f) with (rsum m f + f m). rewrite S_INR, IH, Hf. ring.
Qed.

Theorem xiong_score_decay_correction : forall (b r : R) (n : nat), 0 < b -> (1 <= n)%nat ->
  all_ones_score b n r <= all_ones_score b n 0 /\ all_ones_score b n 0 = 2 * INR n /\
  (0 < Rabs r < 2 * PI -> all_ones_score b n r < all_ones_score b n 0).
Proof.
  intros b r n Hb Hn.
  assert (Z : all_ones_score b n 0 = 2 * INR n).
  { unfold all_ones_score. apply rsum_const. intro i. rewrite Rmult_0_l, cos_0. ring. }
  rewrite Z. split; [|split; [reflexivity|]].
  - unfold all_ones_score. apply rsum_le. intro i. pose proof (COS_bound (r * rope_frequency b (2 * n) i)). lra.
  - intro H. unfold all_ones_score. apply rsum_below; [exact Hn| |].
    + intro i. pose proof (COS_bound (r * rope_frequency b (2 * n) i)). lra.
    + unfold rope_frequency. simpl (INR 0). replace (- (2 * 0) / INR (2 * n)) with 0.
      * rewrite Rpower_O by exact Hb. rewrite Rmult_1_r. pose proof (cos_lt_1 r H). lra.
      * unfold Rdiv. ring.
Qed.

(** ** YARN-EQ17-BASE: Eq. 17 printed with b' is not Eq. 13's r = L / lambda *)

Lemma yarn_ratio_ntk (L b s : R) (n i : nat) : 0 < b -> 0 < s -> (2 <= n)%nat ->
  yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i * Rpower s (- INR i / (INR n - 1)).
Proof.
  intros Hb Hs Hn. unfold yarn_ratio, wavelength. rewrite ntk_ratio by assumption.
  assert (0 < rope_frequency b (2 * n) i) by (unfold rope_frequency, Rpower; apply exp_pos).
  assert (0 < Rpower s (- INR i / (INR n - 1))) by (unfold Rpower; apply exp_pos).
  pose proof PI_RGT_0. field. split; lra.
Qed.

Theorem yarn_eq17_base_negation :
  ~ (forall (L b s : R) (n i : nat), 0 < L -> 1 < b -> 1 < s -> (2 <= n)%nat -> (i < n)%nat ->
       yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i).
Proof.
  intro H. specialize (H 1 10000 2 2%nat 1%nat ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lia) ltac:(lia)).
  rewrite yarn_ratio_ntk in H by (lra || lia).
  assert (Hr : 0 < yarn_ratio 1 10000 2 1) by
    (unfold yarn_ratio, wavelength, rope_frequency, Rpower; pose proof PI_RGT_0;
     apply Rdiv_lt_0_compat; [lra|apply Rdiv_lt_0_compat; [lra|apply exp_pos]]).
  assert (Hp : Rpower 2 (- INR 1 / (INR 2 - 1)) < 1).
  { simpl INR. unfold Rpower. interval. }
  nra.
Qed.

Theorem yarn_eq17_base_correction : forall (L b s : R) (n i : nat), 0 < L -> 1 < b -> 1 < s -> (2 <= n)%nat ->
  yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i * Rpower s (- INR i / (INR n - 1)) /\
  (yarn_ratio L (ntk_base b s n) n i = yarn_ratio L b n i <-> i = 0%nat).
Proof.
  intros L b s n i HL Hb Hs Hn. rewrite yarn_ratio_ntk by (lra || lia). split; [reflexivity|].
  assert (Hn' : 1 < INR n) by (replace 1 with (INR 1) by reflexivity; apply lt_INR; lia).
  assert (Hr : 0 < yarn_ratio L b n i) by
    (unfold yarn_ratio, wavelength, rope_frequency, Rpower; pose proof PI_RGT_0;
     apply Rdiv_lt_0_compat; [lra|apply Rdiv_lt_0_compat; [lra|apply exp_pos]]).
  split.
  - intro E. destruct i as [|i]; [reflexivity|exfalso].
    assert (Hi : 0 < INR (S i)) by apply lt_0_INR, Nat.lt_0_succ.
    assert (Rpower s (- INR (S i) / (INR n - 1)) < 1).
    { apply Rlt_le_trans with (Rpower s 0); [|rewrite Rpower_O; lra]. apply Rpower_lt; [lra|].
      unfold Rdiv. rewrite Ropp_mult_distr_l_reverse.
      assert (0 < INR (S i) * / (INR n - 1)) by (apply Rmult_lt_0_compat; [lra|apply Rinv_0_lt_compat; lra]).
      lra. }
    nra.
  - intros ->. simpl INR. replace (- 0 / (INR n - 1)) with 0 by (field; lra). rewrite Rpower_O by lra. ring.
Qed.

(** ** LONGROPE-START-TOKEN *)

Theorem longrope_start_token_negation :
  ~ (forall lambda theta nhat n m k : R, 1 < lambda -> 0 < theta -> 0 < nhat -> 0 <= m <= n -> 0 <= k ->
       longrope_angle lambda theta nhat (n + k) - longrope_angle lambda theta nhat (m + k) =
       longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m).
Proof.
  intro H. specialize (H 2 1 2 2 1 1 ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra)).
  unfold longrope_angle in H.
  destruct (Rlt_dec (2 + 1) 2); destruct (Rlt_dec (1 + 1) 2); destruct (Rlt_dec 2 2); destruct (Rlt_dec 1 2);
    try lra.
Qed.

Theorem longrope_start_token_correction :
  (forall lambda theta nhat n m : R, 0 < lambda -> nhat <= m -> nhat <= n ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m = (n - m) * theta / lambda) /\
  (forall lambda theta nhat n m : R, m < nhat -> n < nhat ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m = (n - m) * theta) /\
  (forall lambda theta nhat n m : R, 0 < lambda -> m < nhat <= n ->
     longrope_angle lambda theta nhat n - longrope_angle lambda theta nhat m =
     (n - m) * theta / lambda + m * theta * (/ lambda - 1)).
Proof.
  unfold longrope_angle. split; [|split].
  - intros lambda theta nhat n m Hl Hm Hn.
    destruct (Rlt_dec n nhat); destruct (Rlt_dec m nhat); try lra; field; lra.
  - intros lambda theta nhat n m Hm Hn.
    destruct (Rlt_dec n nhat); destruct (Rlt_dec m nhat); try lra; ring.
  - intros lambda theta nhat n m Hl [Hm Hn].
    destruct (Rlt_dec n nhat); destruct (Rlt_dec m nhat); try lra; field; lra.
Qed.

(** ** QWEN-DYNAMIC-NTK *)

Lemma rpower2_log2 (x : R) : 0 < x -> Rpower 2 (ln x / ln 2) = x.
Proof.
  intro Hx. unfold Rpower. assert (0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  replace (ln x / ln 2 * ln 2) with (ln x) by (field; lra). apply exp_ln, Hx.
Qed.

Lemma qwen_power_bounds (x : R) : 0 < x ->
  2 * x <= Rpower 2 (IZR (Zceil (ln x / ln 2 + 1))) < 4 * x.
Proof.
  intro Hx. set (y := ln x / ln 2). pose proof (Zceil_ub (y + 1)) as U. pose proof (Zceil_lb (y + 1)) as L.
  set (k := IZR (Zceil (y + 1))) in *.
  assert (E1 : Rpower 2 (y + 1) = 2 * x) by (unfold y; rewrite Rpower_plus, Rpower_1, rpower2_log2 by lra; ring).
  assert (E2 : Rpower 2 (y + 2) = 4 * x).
  { replace (y + 2) with ((y + 1) + 1) by ring. rewrite Rpower_plus, E1, Rpower_1 by lra. ring. }
  split.
  - rewrite <- E1. apply Rle_Rpower; lra.
  - rewrite <- E2. apply Rpower_lt; lra.
Qed.

Theorem qwen_dynamic_ntk_negation : ~ (forall x : R, 0 < x -> qwen_ntk_alpha x = dynamic_alpha_paper x).
Proof.
  intro H. specialize (H 2 ltac:(lra)). unfold qwen_ntk_alpha, dynamic_alpha_paper in H.
  replace (ln 2 / ln 2 + 1) with 2 in H by (field; assert (0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra); lra).
  replace (Zceil 2) with 2%Z in H by (symmetry; apply Zceil_imp; change (2 - 1)%Z with 1%Z; lra).
  assert (P : Rpower 2 2 = 4) by (replace 2 with (1 + 1) at 2 by ring; rewrite Rpower_plus, Rpower_1 by lra; ring).
  rewrite P in H.
  rewrite Rmax_left in H by lra. rewrite Rmax_right in H by lra. lra.
Qed.

Theorem qwen_dynamic_ntk_correction :
  (forall x : R, 0 < x <= 1 -> qwen_ntk_alpha x = 1) /\
  (forall x : R, 1 < x -> 2 * x - 1 <= qwen_ntk_alpha x < 4 * x - 1) /\
  (forall x : R, 1 < x -> dynamic_alpha_paper x < qwen_ntk_alpha x).
Proof.
  assert (B : forall x, 1 < x -> 2 * x - 1 <= qwen_ntk_alpha x < 4 * x - 1).
  { intros x Hx. unfold qwen_ntk_alpha. pose proof (qwen_power_bounds x ltac:(lra)).
    rewrite Rmax_left by lra. lra. }
  split; [|split; [exact B|]].
  - intros x Hx. unfold qwen_ntk_alpha. apply Rmax_right.
    assert (0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
    assert (ln x <= 0) by (destruct (Req_dec x 1) as [->|N]; [rewrite ln_1; lra|left; rewrite <- ln_1; apply ln_increasing; lra]).
    assert (ln x / ln 2 <= 0) by (unfold Rdiv; assert (0 < / ln 2) by (apply Rinv_0_lt_compat; lra); nra).
    assert (K : (Zceil (ln x / ln 2 + 1) <= 1)%Z) by (apply Zceil_glb; simpl; lra).
    apply IZR_le in K. assert (Rpower 2 (IZR (Zceil (ln x / ln 2 + 1))) <= Rpower 2 1) by (apply Rle_Rpower; lra).
    rewrite Rpower_1 in H2 by lra. lra.
  - intros x Hx. specialize (B x Hx). unfold dynamic_alpha_paper. rewrite Rmax_right by lra. lra.
Qed.

(** ** NOPE-POSITION-READOUT *)

Lemma rsum_constant (n : nat) (a : R) : rsum n (fun _ => a) = INR n * a.
Proof. induction n as [|n IH]; simpl rsum; [simpl; ring|rewrite IH, S_INR; ring]. Qed.

Lemma rsum_first (n : nat) (f : nat -> R) : (1 <= n)%nat -> (forall j, (1 <= j)%nat -> f j = 0) -> rsum n f = f 0%nat.
Proof.
  intros Hn Hf. induction n as [|n IH]; [lia|]. destruct n as [|n]; [simpl; ring|].
  change (rsum (S (S n)) f) with (rsum (S n) f + f (S n)). rewrite IH, (Hf (S n)) by lia. ring.
Qed.

Theorem nope_position_readout : forall (c : R) (v : nat -> R), v 0%nat = 1 -> (forall j, (1 <= j)%nat -> v j = 0) ->
  (forall t : nat, causal_readout (fun _ => c) v t = 1 / INR (S t)) /\
  (forall t t' : nat, causal_readout (fun _ => c) v t = causal_readout (fun _ => c) v t' -> t = t').
Proof.
  intros c v H0 H1.
  assert (R : forall t : nat, causal_readout (fun _ => c) v t = 1 / INR (S t)).
  { intro t. unfold causal_readout. rewrite rsum_constant.
    rewrite (rsum_first (S t)); [|lia|intros j Hj; rewrite H1 by lia; ring].
    rewrite H0. assert (0 < INR (S t)) by apply lt_0_INR, Nat.lt_0_succ. pose proof (exp_pos c). field. lra. }
  split; [exact R|]. intros t t' E. rewrite !R in E.
  assert (0 < INR (S t)) by apply lt_0_INR, Nat.lt_0_succ. assert (0 < INR (S t')) by apply lt_0_INR, Nat.lt_0_succ.
  assert (EI : INR (S t) = INR (S t')).
  { apply Rmult_eq_reg_r with (/ INR (S t) * / INR (S t')); [|apply Rmult_integral_contrapositive; split; apply Rinv_neq_0_compat; lra].
    unfold Rdiv in E. field_simplify; [|lra|lra]. rewrite Rmult_1_l in E. field_simplify in E; lra. }
  apply INR_eq in EI. lia.
Qed.

(** ** MEN-TABLE2-D128: Table 2's 16k base does not keep B >= 0 on [0, 16000] at d = 128 *)

Theorem men_table2_d128_negation :
  ~ (forall m : R, 0 <= m <= 16000 -> 0 <= all_ones_score 310000 64 m).
Proof. intro H. pose proof ScalingSizes.men_table2_16k. specialize (H 12223 ltac:(lra)). lra. Qed.

(* Real m (Eq. 10): B >= 0 on all of [0, 12222.62] with the 16k base and on [0, 22465.54] with the 32k base
   (MenTable2Lower.v), and B < 0 one hundredth past the first zero of each base; integer m: at the first
   negative integer. *)
Theorem men_table2_d128_correction :
  ((forall m : R, 0 <= m <= 1222262 / 100 -> 0 <= all_ones_score 310000 64 m) /\
   (forall m : R, 0 <= m <= 2246554 / 100 -> 0 <= all_ones_score 640000 64 m)) /\
  (all_ones_score 310000 64 (1222263 / 100) < 0 /\ all_ones_score 640000 64 (2246555 / 100) < 0) /\
  (all_ones_score 310000 64 12223 < 0 /\ all_ones_score 640000 64 27685 < 0).
Proof.
  exact (conj (conj MenTable2Lower.men_table2_16k_lower MenTable2Lower.men_table2_32k_lower)
          (conj (conj ScalingSizes.men_table2_16k_real ScalingSizes.men_table2_32k_real)
                (conj ScalingSizes.men_table2_16k ScalingSizes.men_table2_32k))).
Qed.
