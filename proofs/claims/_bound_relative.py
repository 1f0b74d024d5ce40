"""Bound statements of the RPE-* claims of `_claims_relative`, proved in Relative.v and LinearBias.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "RPE-SHIFT-INVARIANCE": (
        ("Relative", "rpe_shift_invariance", r"""
(forall (d : nat) (b : Z -> R) (q k : vec) (i j delta : Z),
 bias_score d b q k (i + delta) (j + delta) = bias_score d b q k i j) /\
(forall (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j delta : Z),
 shaw_score d K RK q k (i + delta) (j + delta) = shaw_score d K RK q k i j) /\
(forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
 sequence_shaw_score d K RK WQ WK (shift_sequence delta X) (i + delta) (j + delta) =
 sequence_shaw_score d K RK WQ WK X i j) /\
(forall (d : nat) (b : Z -> R) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
 sequence_bias_score d b WQ WK (shift_sequence delta X) (i + delta) (j + delta) =
 sequence_bias_score d b WQ WK X i j)
"""),
        ("Relative", "rpe_shift_invariance_literal_negation", r"""
~
(forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK : mat) (X : Z -> vec) (i j delta : Z),
 sequence_shaw_score d K RK WQ WK X (i + delta) (j + delta) =
 sequence_shaw_score d K RK WQ WK X i j)
"""),
    ),
    "RPE-KV-CACHE-IMPOSSIBLE": (
        ("Relative", "rpe_kv_cache_impossible_correction", r"""
forall (d : nat) (K : Z) (RK : Z -> vec) (WQ WK WV : mat) (x : nat -> vec) (t : nat),
(forall j : nat,
 (j < t)%nat ->
 nth j (kv_cache d WK WV x (S t)) no_entry = nth j (kv_cache d WK WV x t) no_entry) /\
(forall c : nat,
 attend_from_cache d K RK (kv_cache d WK WV x t ++ [cache_entry d WK WV (x t)])
   (mat_vec d WQ (x t)) t c = attend_from_scratch d K RK WQ WK WV x t c)
"""),
        ("Relative", "rpe_kv_cache_impossible_negation", r"""
~
(exists (d : nat) (K : Z) (RK : Z -> vec) (WQ WK WV : mat),
   forall step : list (vec * vec) -> vec -> nat -> vec,
   exists (x : nat -> vec) (t c : nat),
     step (kv_cache d WK WV x (S t)) (mat_vec d WQ (x t)) t c <>
     attend_from_scratch d K RK WQ WK WV x t c)
"""),
    ),
    "RPE-CLIP-INDISTINGUISHABLE": (
        ("Relative", "rpe_clip_indistinguishable", r"""
forall (d : nat) (K : Z) (RK : Z -> vec) (q k : vec) (i j i' j' : Z),
(0 <= K)%Z ->
(K <= j - i)%Z /\ (K <= j' - i')%Z \/
(j - i <= - K)%Z /\ (j' - i' <= - K)%Z ->
DefsRelative.shaw_score d K RK q k i j =
DefsRelative.shaw_score d K RK q k i' j'
"""),
    ),
    "RPE-BREAKS-LINEAR-ATTENTION": (
        ("LinearBias", "rpe_breaks_linear_attention", r"""
(forall (kappa : Z -> Z -> R) (b : Z -> R),
 (forall i j : Z, 0 < kappa i j) ->
 b 1%Z + b (-1)%Z <> 2 * b 0%Z ->
 ~
 (exists f g : Z -> R,
    forall i j : Z,
    (0 <= i <= 1)%Z ->
    (0 <= j <= 1)%Z ->
    biased_weight kappa b i j = factored_weight kappa f g i j)) /\
(forall (kappa : Z -> Z -> R) (K : Z) (beta : Z -> R),
 (forall i j : Z, 0 < kappa i j) ->
 (1 <= K)%Z ->
 beta 1%Z + beta (-1)%Z <> 2 * beta 0%Z ->
 ~
 (exists f g : Z -> R,
    forall i j : Z,
    (0 <= i <= 1)%Z ->
    (0 <= j <= 1)%Z ->
    biased_weight kappa (clipped_bias K beta) i j =
    factored_weight kappa f g i j)) /\
(forall (kappa : Z -> Z -> R) (b : Z -> R) (c : R),
 (forall r : Z, b r = b 0%Z + c * IZR r) ->
 exists f g : Z -> R,
   forall i j : Z,
   biased_weight kappa b i j = factored_weight kappa f g i j) /\
(forall (L : nat) (c : nat -> R),
 (forall i : nat,
  (i < L)%nat ->
  sum L
    (fun j : nat =>
     biased_weight (fun _ _ : Z => 1) (clipped_bias 1 one_hot_bias)
       (Z.of_nat i) (Z.of_nat j) * c j) = 0) ->
 forall j : nat, (j < L)%nat -> c j = 0)
"""),
    ),
    "RPE-OFFSET-COUNT": (
        ("Relative", "rpe_offset_count", r"""
forall L : Z,
(1 <= L)%Z ->
(forall i j : Z,
 (0 <= i < L)%Z -> (0 <= j < L)%Z -> (- (L - 1) <= j - i <= L - 1)%Z) /\
(forall r : Z,
 (- (L - 1) <= r <= L - 1)%Z ->
 exists i j : Z, (0 <= i < L)%Z /\ (0 <= j < L)%Z /\ (j - i)%Z = r) /\
(L - 1 - - (L - 1) + 1)%Z = (2 * L - 1)%Z
"""),
    ),
}
