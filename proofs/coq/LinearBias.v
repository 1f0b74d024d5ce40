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
     exists f g : Z -> R, forall i j : Z, biased_weight kappa b i j = factored_weight kappa f g i j).
Proof.
  split; [|split].
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
