"""The Coq tactic layer of `ropecheck prove`: Ltac definitions put before each printed statement, and the order in
which they are tried.

Nothing here is trusted: a tactic either closes the printed goal and the kernel checks the proof term, or it
fails and the statement is "proved by the engine only" (exit 4) with Coq's reason. The tactics only need to be
*useful*:

- `rc_expand`: angles `k * x` (numeral k ≥ 2) split into `(k - 1) * x + x`, then angle addition and subtraction,
  `exp` of sums and negations, the values at 0, π/2, π, π/3, π/4, π/6, `exp (ln a) = a` and `ln (exp a) = a`,
  `ln` of products, quotients, inverses and powers (each positivity side condition proved or the rewrite not
  made); `tan`, `sinh`, `cosh`, `tanh`, `Rpower`, `frac_part` unfolded to their definitions.
- `rc_facts`: `sin a² + cos a² = 1`, `sqrt a · sqrt a = a` (when `0 ≤ a` is provable), `0 ≤ sqrt a`, `0 < exp a`
  for every such term of the goal, so that the closers see them.
- `rc_close`: `ring`; `field` with the printed hypotheses; `nsatz` (ideal membership: a polynomial identity in
  sin/cos modulo sin² + cos² = 1, or in square roots modulo their squares), after `field_simplify_eq` when
  there are denominators; `nra`.
- `rc_cases`: `Rabs`, `Rmin`, `Rmax`, `sign`'s `Rlt_dec` split into cases, closed by `lra`/`nra`.
- `rc_int_part`: `Int_part` through `base_Int_part` (⌊a⌋ ≤ a < ⌊a⌋ + 1): an equation between integer-valued
  terms holds when their difference is an integer in (−1, 1) (`lia`).
- `rc_sqrt_equation`: `sqrt a = b` from `0 ≤ a`, `0 ≤ b`, `b · b = a` (`sqrt_lem_1`).
- `rc_trig_sign`: `cos a ≠ 0`, `sin a ≠ 0` at a closed point of (−π/2, π/2) or (0, π), for domain witnesses.
"""

from __future__ import annotations

__all__ = ["PRELUDE", "TACTICS"]

PRELUDE = r"""
Ltac rc_split p x :=
  let q := eval compute in (Z.pos p - 1)%Z in
  lazymatch q with
  | 0%Z => fail
  | _ => replace (IZR (Zpos p) * x) with (IZR q * x + x) in * by ring
  end.

(* In the hypotheses too: the printed `cos (2 * x) <> 0` must match the expanded denominator. *)
Ltac rc_split_angle :=
  match goal with
  | |- context [sin (IZR (Zpos ?p) * ?x)] => rc_split p x
  | |- context [cos (IZR (Zpos ?p) * ?x)] => rc_split p x
  | |- context [exp (IZR (Zpos ?p) * ?x)] => rc_split p x
  | _ : context [sin (IZR (Zpos ?p) * ?x)] |- _ => rc_split p x
  | _ : context [cos (IZR (Zpos ?p) * ?x)] |- _ => rc_split p x
  end.

Ltac rc_positive :=
  first [ assumption | apply exp_pos | lra | nra | interval
        | (apply Rmult_lt_0_compat; rc_positive) | (apply Rinv_0_lt_compat; rc_positive)
        | (apply pow_lt; rc_positive) | (apply sqrt_lt_R0; rc_positive) ].

Ltac rc_nonnegative :=
  first [ assumption | apply sqrt_pos | (apply Rlt_le; rc_positive) | lra | nra | interval
        | (apply Rmult_le_pos; rc_nonnegative) | (apply pow_le; rc_nonnegative) ].

Ltac rc_nonzero :=
  first [ assumption | (apply Rgt_not_eq; rc_positive) | (apply Rlt_not_eq; rc_positive)
        | (apply pow_nonzero; rc_nonzero) | (apply Rmult_integral_contrapositive_currified; rc_nonzero)
        | lra | nra | interval ].

Ltac rc_side := repeat split; first [ rc_nonzero | rc_nonnegative | rc_positive ].

(* A closed sine or cosine of a point of (0, pi) or (-pi/2, pi/2): its sign from PI's bounds, without interval
   (whose proofs make Print Assumptions walk the whole Interval library: seconds). *)
Ltac rc_trig_sign :=
  pose proof PI2_3_2; pose proof PI_4; pose proof PI_RGT_0;
  first [ (apply Rgt_not_eq; apply cos_gt_0; lra) | (apply Rgt_not_eq; apply sin_gt_0; lra)
        | (apply cos_gt_0; lra) | (apply sin_gt_0; lra) ].

Ltac rc_expand :=
  unfold tan, sinh, cosh, tanh, Rpower, frac_part in *;
  repeat first [ rc_split_angle | rewrite sin_plus in * | rewrite cos_plus in * | rewrite sin_minus in *
               | rewrite cos_minus in * | rewrite sin_neg in * | rewrite cos_neg in *
               | rewrite exp_plus | rewrite exp_Ropp | rewrite Rmult_1_l
               | match goal with |- context [exp (?a - ?b)] => replace (a - b) with (a + - b) by ring end
               | rewrite sin_PI | rewrite cos_PI | rewrite sin_PI2 | rewrite cos_PI2 | rewrite sin_0
               | rewrite cos_0 | rewrite exp_0 | rewrite sin_PI6 | rewrite cos_PI3 | rewrite sin_PI3
               | rewrite cos_PI6 | rewrite sin_PI4 | rewrite cos_PI4 | rewrite ln_exp | rewrite ln_1
               | rewrite exp_ln by rc_positive | rewrite ln_mult by rc_positive
               | rewrite ln_Rinv by rc_positive | rewrite ln_pow by rc_positive
               | (unfold Rdiv; rewrite ln_mult by rc_positive) ].

Ltac rc_pythagoras a :=
  lazymatch goal with
  | _ : sin a * sin a + cos a * cos a = 1 |- _ => fail
  | _ => assert (sin a * sin a + cos a * cos a = 1) by (rewrite <- (sin2_cos2 a); unfold Rsqr; ring)
  end.

Ltac rc_facts :=
  repeat match goal with
  | |- context [sin ?a] => rc_pythagoras a
  | |- context [cos ?a] => rc_pythagoras a
  | |- context [sqrt ?a] =>
      lazymatch goal with
      | _ : sqrt a * sqrt a = a |- _ => fail
      | _ => assert (sqrt a * sqrt a = a) by (apply sqrt_sqrt; rc_nonnegative); pose proof (sqrt_pos a)
      end
  | |- context [exp ?a] =>
      lazymatch goal with
      | _ : 0 < exp a |- _ => fail
      | _ => pose proof (exp_pos a)
      end
  end.

(* nsatz may stop with a reified goal left instead of failing: only a closed goal counts. *)
Ltac rc_ideal := cbn [Rpow_def.pow] in *; first [ solve [nsatz] | solve [nra] ].

Ltac rc_close :=
  first [ solve [ring] | solve [field; rc_side] | solve [rc_ideal]
        | solve [field_simplify_eq; [rc_ideal | rc_side ..]] | solve [nra] ].

Ltac rc_cases :=
  unfold Rabs, Rmin, Rmax in *;
  repeat match goal with
  | |- context [Rcase_abs ?a] => destruct (Rcase_abs a)
  | |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b)
  | |- context [Rlt_dec ?a ?b] => destruct (Rlt_dec a b)
  end;
  first [ lra | nra ].

Ltac rc_int_bounds :=
  repeat match goal with
  | |- context [Int_part ?a] =>
      lazymatch goal with
      | _ : IZR (Int_part a) <= a |- _ => fail
      | _ => destruct (base_Int_part a)
      end
  end.

Ltac rc_int_part :=
  rc_int_bounds;
  rewrite <- ?plus_IZR, <- ?minus_IZR, <- ?opp_IZR, <- ?mult_IZR;
  match goal with
  | |- IZR ?u = IZR ?v =>
      apply IZR_eq;
      assert (IZR (u - v) < IZR 1) by (rewrite ?minus_IZR, ?plus_IZR, ?opp_IZR, ?mult_IZR; lra);
      assert (IZR (-1) < IZR (u - v)) by (rewrite ?minus_IZR, ?plus_IZR, ?opp_IZR, ?mult_IZR; lra);
      repeat match goal with H : IZR _ < IZR _ |- _ => apply lt_IZR in H end;
      lia
  end.

Ltac rc_sqrt_equation :=
  first [ apply sqrt_lem_1 | symmetry; apply sqrt_lem_1 ];
  [ rc_nonnegative | rc_nonnegative | rc_expand; rc_facts; rc_close ].
"""

TACTICS = [
    "solve [rc_expand; rc_facts; rc_close]",
    "solve [rc_cases]",
    "solve [rc_int_part]",
    "solve [rc_sqrt_equation]",
    "solve [rewrite <- sqrt_Rsqr_abs; unfold Rsqr; f_equal; ring]",
]
