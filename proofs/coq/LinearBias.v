(** * LinearBias.v: a relative bias on the logits breaks the linear-attention rewrite (RPE-BREAKS-LINEAR-ATTENTION).

    "many RPE variants require full attention matrices, making them incompatible
    with efficient attention mechanisms such as Performer or Linformer" (000,
    001); "relative-encoding schemes require adding bias terms or adjustments
    that don't play nicely with kernelized attention" (004).  Linear attention
    needs every weight to be a query factor times a key factor times the kernel
    score, so that one summary over the keys serves every query.  A bias whose
    second difference at 0 is non-zero (a clipped Shaw/T5-style table, for
    instance) cannot be folded in that way, already for two tokens; a bias
    affine in the offset can. *)

From Coq Require Import ZArith Reals Lia Lra.
From Ropecheck Require Import Defs DefsRelative DefsLinearBias.
Open Scope R_scope.

(* Where the kernel score is positive, a factored weight fixes exp(b) itself. *)
Lemma bias_factor : forall (kappa : Z -> Z -> R) (b f g : Z -> R) (i j : Z), 0 < kappa i j ->
  biased_weight kappa b i j = factored_weight kappa f g i j -> exp (b (j - i)%Z) = f i * g j.
Proof.
  unfold biased_weight, factored_weight; intros kappa b f g i j Hk E.
  apply Rmult_eq_reg_l with (kappa i j); [rewrite E; ring | lra].
Qed.

(* The two-token minor: exp(b) factoring over positions 0 and 1 forces
   b(1) + b(-1) = 2 b(0). *)
Lemma factored_bias_second_difference : forall (kappa : Z -> Z -> R) (b f g : Z -> R),
  (forall i j : Z, 0 < kappa i j) ->
  (forall i j : Z, (0 <= i <= 1)%Z -> (0 <= j <= 1)%Z -> biased_weight kappa b i j = factored_weight kappa f g i j) ->
  b 1%Z + b (-1)%Z = 2 * b 0%Z.
Proof.
  intros kappa b f g Hk H.
  pose proof (bias_factor kappa b f g 0 0 (Hk 0%Z 0%Z) (H 0%Z 0%Z ltac:(lia) ltac:(lia))) as E00.
  pose proof (bias_factor kappa b f g 1 1 (Hk 1%Z 1%Z) (H 1%Z 1%Z ltac:(lia) ltac:(lia))) as E11.
  pose proof (bias_factor kappa b f g 0 1 (Hk 0%Z 1%Z) (H 0%Z 1%Z ltac:(lia) ltac:(lia))) as E01.
  pose proof (bias_factor kappa b f g 1 0 (Hk 1%Z 0%Z) (H 1%Z 0%Z ltac:(lia) ltac:(lia))) as E10.
  replace (0 - 0)%Z with 0%Z in E00 by reflexivity.
  replace (1 - 1)%Z with 0%Z in E11 by reflexivity.
  replace (1 - 0)%Z with 1%Z in E01 by reflexivity.
  replace (0 - 1)%Z with (-1)%Z in E10 by reflexivity.
  assert (Hexp : exp (b 0%Z + b 0%Z) = exp (b 1%Z + b (-1)%Z)).
  { rewrite !exp_plus.
    transitivity ((f 0%Z * g 0%Z) * (f 1%Z * g 1%Z)); [rewrite <- E00, <- E11; reflexivity|].
    rewrite E01, E10; ring. }
  apply exp_inv in Hexp; lra.
Qed.

(** ** RPE-BREAKS-LINEAR-ATTENTION (000, 001, 004) *)

(* The rank reading ("require full attention matrices"): the weights of a
   clipped table over L positions form an L x L matrix of rank L, for every L.
   Window K = 1, table beta = 1 at offset 0 and 0 elsewhere, kernel part 1
   (q = k = 0): exp(clip(j - i)) is e on the diagonal and 1 off it, the matrix
   (e - 1) I + J, whose columns are independent.  An r-feature linear attention
   gives weight matrices phi(Q) phi(K)^T of rank at most r, so for every r this
   matrix at L = r + 1 is out of its reach.  (one_hot_bias: DefsLinearBias.v) *)
Lemma clipped_one_hot_weight (i j : nat) :
  biased_weight (fun _ _ => 1) (clipped_bias 1 one_hot_bias) (Z.of_nat i) (Z.of_nat j)
  = (exp 1 - 1) * basis i j + 1.
Proof.
  unfold biased_weight, clipped_bias, one_hot_bias, clip, basis.
  destruct (Nat.eqb j i) eqn:E.
  - apply Nat.eqb_eq in E; subst j.
    rewrite Z.sub_diag; simpl; ring.
  - apply Nat.eqb_neq in E.
    match goal with |- context [Z.eqb ?x 0] => destruct (Z.eqb x 0) eqn:F end.
    + apply Z.eqb_eq in F; lia.
    + rewrite exp_0; ring.
Qed.

Lemma sum_constant n a : sum n (fun _ => a) = a * INR n.
Proof. induction n as [|n IH]; [rewrite sum_0; simpl; ring|rewrite sum_S, IH, S_INR; ring]. Qed.

Lemma clipped_weights_full_rank : forall (L : nat) (c : nat -> R),
  (forall i : nat, (i < L)%nat ->
     sum L (fun j => biased_weight (fun _ _ => 1) (clipped_bias 1 one_hot_bias)
                       (Z.of_nat i) (Z.of_nat j) * c j) = 0) ->
  forall j : nat, (j < L)%nat -> c j = 0.
Proof.
  intros L c H.
  assert (He : 0 < exp 1 - 1) by (pose proof exp_ineq1 1 ltac:(lra); lra).
  assert (Hrow : forall i, (i < L)%nat -> (exp 1 - 1) * c i + sum L c = 0).
  { intros i Hi; apply (eq_trans (y := sum L (fun j => biased_weight (fun _ _ => 1)
      (clipped_bias 1 one_hot_bias) (Z.of_nat i) (Z.of_nat j) * c j))); [symmetry|exact (H i Hi)].
    rewrite (sum_ext L _ (fun j => (exp 1 - 1) * (basis i j * c j) + c j))
      by (intros j _; rewrite clipped_one_hot_weight; ring).
    rewrite sum_plus, sum_scal_l; fold (dot L (basis i) c); rewrite dot_basis_l by exact Hi; reflexivity. }
  assert (Hsum : (exp 1 - 1) * sum L c = - (sum L c) * INR L).
  { rewrite <- sum_scal_l.
    rewrite (sum_ext L _ (fun _ => - sum L c)) by (intros i Hi; pose proof (Hrow i Hi); lra).
    apply sum_constant. }
  assert (HS : sum L c = 0).
  { assert (HL : 0 <= INR L) by apply pos_INR.
    assert (E : (exp 1 - 1 + INR L) * sum L c = 0) by lra.
    apply Rmult_integral in E; destruct E as [E|E]; [lra|exact E]. }
  intros j Hj; pose proof (Hrow j Hj) as E; rewrite HS, Rplus_0_r in E.
  apply Rmult_integral in E; destruct E as [E|E]; [lra|exact E].
Qed.

(* For every positive kernel score (softmax's exp(q . k), a positive feature
   map's phi(q) . phi(k)): a bias with b(1) + b(-1) <> 2 b(0) admits no query
   and key factors giving the biased weights, even on two tokens; so does a
   Shaw-style clipped table (window K >= 1) whose rows -1, 0, 1 are not in
   arithmetic progression; a bias affine in the offset (ALiBi's slope on a
   causal sequence) does factor. *)
Theorem rpe_breaks_linear_attention :
  (forall (kappa : Z -> Z -> R) (b : Z -> R), (forall i j : Z, 0 < kappa i j) ->
     b 1%Z + b (-1)%Z <> 2 * b 0%Z ->
     ~ exists f g : Z -> R, forall i j : Z, (0 <= i <= 1)%Z -> (0 <= j <= 1)%Z ->
         biased_weight kappa b i j = factored_weight kappa f g i j)
  /\ (forall (kappa : Z -> Z -> R) (K : Z) (beta : Z -> R), (forall i j : Z, 0 < kappa i j) -> (1 <= K)%Z ->
     beta 1%Z + beta (-1)%Z <> 2 * beta 0%Z ->
     ~ exists f g : Z -> R, forall i j : Z, (0 <= i <= 1)%Z -> (0 <= j <= 1)%Z ->
         biased_weight kappa (clipped_bias K beta) i j = factored_weight kappa f g i j)
  /\ (forall (kappa : Z -> Z -> R) (b : Z -> R) (c : R), (forall r : Z, b r = b 0%Z + c * IZR r) ->
     exists f g : Z -> R, forall i j : Z, biased_weight kappa b i j = factored_weight kappa f g i j)
  /\ (forall (L : nat) (c : nat -> R),
     (forall i : nat, (i < L)%nat ->
        sum L (fun j => biased_weight (fun _ _ => 1) (clipped_bias 1 one_hot_bias)
                          (Z.of_nat i) (Z.of_nat j) * c j) = 0) ->
     forall j : nat, (j < L)%nat -> c j = 0).
Proof.
  split; [|split; [|split; [|exact clipped_weights_full_rank]]].
  - intros kappa b Hk Hb [f [g H]]; apply Hb, (factored_bias_second_difference kappa b f g Hk H).
  - intros kappa K beta Hk HK Hbeta [f [g H]]; apply Hbeta.
    pose proof (factored_bias_second_difference kappa (clipped_bias K beta) f g Hk H) as E.
    unfold clipped_bias, clip in E.
    replace (Z.max (- K) (Z.min K 1)) with 1%Z in E by lia.
    replace (Z.max (- K) (Z.min K (-1))) with (-1)%Z in E by lia.
    replace (Z.max (- K) (Z.min K 0)) with 0%Z in E by lia.
    exact E.
  - intros kappa b c Hb.
    exists (fun i => exp (b 0%Z - c * IZR i)), (fun j => exp (c * IZR j)).
    intros i j; unfold biased_weight, factored_weight.
    rewrite Hb, minus_IZR, <- exp_plus.
    replace (b 0%Z - c * IZR i + c * IZR j) with (b 0%Z + c * (IZR j - IZR i)) by ring; ring.
Qed.
