"""Bound statements of the RPE-* claims of `_claims_relative`, proved in Relative.v and LinearBias.v.

Each entry: claim ID → `(module, theorem, statement)`; the statement is the Coq proposition the theorem must
have, printed into the generated `Statements<Module>.v` and bound to `Ropecheck.<Module>.<theorem>` by its type
(see `_bound_statements`). Text as Coq elaborated it (`Check`), reviewed; it reads the definitions of `Defs.v` and
`Defs<Module>.v` only.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
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
   biased_weight kappa b i j = factored_weight kappa f g i j)
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
