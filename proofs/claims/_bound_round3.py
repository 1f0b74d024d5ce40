"""Bound statements of the claims proved in Round3.v and LinearBias.v: the claims the seeds make that the ledger
missed until ISSUE #18 (point 9), registered in `proofs/claims/_claims_round3.py` (see `_bound_statements`).

Each entry: claim ID → `(module, theorem, statement)`; the statement is the Coq proposition the theorem must
have, printed into the generated `Statements<Module>.v` as `Theorem <theorem>_verdict : <statement>.` and closed by
`exact Ropecheck.<Module>.<theorem>` — the kernel rejects a proof of anything else. Text as Coq elaborated it
(`Check`), reviewed; it reads the definitions of `Defs.v` and `Defs<Module>.v` only.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "RPE-CLIP-INDISTINGUISHABLE": (
        ("Round3", "rpe_clip_indistinguishable", r"""
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
        ("Round3", "rpe_offset_count", r"""
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
    "SPE-FREQUENCIES-DECREASING": (
        ("Round3", "spe_frequencies_decreasing", r"""
forall h i j : nat,
(1 <= h)%nat ->
(i < j)%nat -> rope_spectrum 10000 h j < rope_spectrum 10000 h i
"""),
    ),
    "SPE-DISTINCT-WAVELENGTHS": (
        ("Round3", "spe_distinct_wavelengths", r"""
forall h i j : nat,
(1 <= h)%nat ->
i <> j ->
DefsSinusoidal.wavelength (2 * h) i <>
DefsSinusoidal.wavelength (2 * h) j
"""),
    ),
    "SPE-SMOOTHNESS-004": (
        ("Round3", "spe_smoothness_004", r"""
forall (h : nat) (w : nat -> R) (p q : R),
norm2 (2 * h)
  (fun j : nat => DefsSinusoidal.pe w p j - DefsSinusoidal.pe w q j) <=
sum h (fun i : nat => w i * w i) * ((p - q) * (p - q))
"""),
    ),
    "BINARY-3-TO-4-FLIPS-004": (
        ("Round3", "binary_3_to_4_flips_004", r"""
flipped_bits 3 3 4 = 3%nat
"""),
        ("Round3", "binary_3_to_4_flips_004_literal_negation", r"""
flipped_bits 8 3 4 <> 8%nat
"""),
    ),
    "BINARY-TABLE-004": (
        ("Round3", "binary_table_004", r"""
table_004_rows = List.map eight_bits (List.seq 0 12) /\
bit_changes 0 120 = 120%nat /\ bit_changes 7 120 = 0%nat
"""),
    ),
    "ROPE-CACHED-KEY-POSITIONAL-003": (
        ("Round3", "rope_cached_key_positional_003", r"""
forall h : nat,
(1 <= h)%nat ->
~
(exists store : vec -> vec,
   forall (n : R) (k : vec) (j : nat),
   (j < 2 * h)%nat -> rope (rope_spectrum 10000 h) h n k j = store k j)
"""),
    ),
    "ROPE-SINE-TERM-WHOLE-SCORE-003": (
        ("Round3", "rope_sine_term_whole_score_003", r"""
(forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
 (forall i : nat, (i < h)%nat -> DefsRope.dot_pair q k i = 0) ->
 dot (2 * h) (rope theta h m q) (rope theta h n k) =
 sum h
   (fun i : nat => DefsRope.cross_pair q k i * sin ((m - n) * theta i))) /\
(forall (h : nat) (theta : nat -> R) (m n : R),
 (1 <= h)%nat ->
 dot (2 * h) (rope theta h m (basis 0)) (rope theta h n (basis 1)) =
 sin ((m - n) * theta 0%nat))
"""),
    ),
    "SPE-ADD-CHANGES-NORM-DIRECTION-004": (
        ("Round3", "spe_add_changes_norm_direction_004", r"""
forall (h : nat) (p : R) (x : vec),
norm2 (2 * h) (DefsSinusoidal.vadd x (DefsSinusoidal.spe h p)) =
norm2 (2 * h) x + 2 * dot (2 * h) x (DefsSinusoidal.spe h p) + INR h /\
((1 <= h)%nat ->
 0 <= dot (2 * h) x (DefsSinusoidal.spe h p) ->
 norm2 (2 * h) x <
 norm2 (2 * h) (DefsSinusoidal.vadd x (DefsSinusoidal.spe h p))) /\
(forall c : R,
 (forall j : nat,
  (j < 2 * h)%nat ->
  DefsSinusoidal.vadd x (DefsSinusoidal.spe h p) j = c * x j) ->
 forall j : nat,
 (j < 2 * h)%nat -> DefsSinusoidal.spe h p j = (c - 1) * x j)
"""),
    ),
    "APE-PREFIX-STALE-003": (
        ("Round3", "ape_prefix_stale_003", r"""
forall (x : vec) (n delta : R),
delta <> 0 ->
~
(forall j : nat,
 (j < 128)%nat ->
 DefsSinusoidal.vadd x (DefsSinusoidal.spe 64 n) j =
 DefsSinusoidal.vadd x (DefsSinusoidal.spe 64 (n + delta)) j)
"""),
    ),
}
