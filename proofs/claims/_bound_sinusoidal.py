"""Bound statements of the SPE-* claims (`_claims_sinusoidal`, `_claims_prose`), proved in Sinusoidal.v,
SinusoidalDecay.v, Averages.v, Positions.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "SPE-DOT-RELATIVE": (
        ("Sinusoidal", "spe_dot_relative", r"""
forall (h : nat) (w : nat -> R) (p q : R),
dot (2 * h) (pe w p) (pe w q) = sum h (fun i : nat => cos (w i * (p - q)))
"""),
    ),
    "SPE-SHIFT-ROTATION": (
        ("Sinusoidal", "spe_shift_rotation", r"""
forall (h : nat) (w : nat -> R) (p D : R),
(forall i : nat,
 (i < h)%nat ->
 pe w (p + D) (2 * i)%nat =
 cos (w i * D) * pe w p (2 * i)%nat + sin (w i * D) * pe w p (S (2 * i)) /\
 pe w (p + D) (S (2 * i)) =
 - sin (w i * D) * pe w p (2 * i)%nat + cos (w i * D) * pe w p (S (2 * i))) /\
(forall j : nat,
 (j < 2 * h)%nat -> pe w (p + D) j = mat_vec (2 * h) (rope_matrix w h (- D)) (pe w p) j)
"""),
    ),
    "SPE-SHIFT-ROTATION-004": (
        ("Sinusoidal", "spe_shift_rotation_004_negation", r"""
~
(forall h p k i : nat,
 (i < h)%nat ->
 (spe h (INR (p + k)) (2 * i)%nat, spe h (INR (p + k)) (S (2 * i))) =
 rot (INR k * rope_spectrum 10000 h i)
   (spe h (INR p) (2 * i)%nat, spe h (INR p) (S (2 * i))))
"""),
        ("Sinusoidal", "spe_shift_rotation_004_correction", r"""
forall (w : nat -> R) (p k : R) (i : nat),
(pe w (p + k) (2 * i)%nat, pe w (p + k) (S (2 * i))) =
rot (- (k * w i)) (pe w p (2 * i)%nat, pe w p (S (2 * i))) /\
(cos ((p + k) * w i), sin ((p + k) * w i)) = rot (k * w i) (cos (p * w i), sin (p * w i))
"""),
    ),
    "SPE-FREQUENCY-004": (
        ("Sinusoidal", "spe_frequency_004", r"""
forall h i : nat,
(i < h)%nat ->
rope_frequency 10000 (2 * h) i = / Rpower 10000 (2 * INR i / INR (2 * h)) /\
(forall p : R,
 sin (p * rope_frequency 10000 (2 * h) i) =
 sin (p / Rpower 10000 (2 * INR i / INR (2 * h))))
"""),
        ("Sinusoidal", "spe_frequency_004_literal_negation", r"""
~
(forall h i p : nat,
 (i < h)%nat ->
 sin (INR p * Rpower 10000 (2 * INR i / INR (2 * h))) =
 sin (INR p / Rpower 10000 (2 * INR i / INR (2 * h))))
"""),
        ("Sinusoidal", "spe_frequency_004_correction", r"""
forall (d i : nat) (p : R),
sin (p * rope_frequency 10000 d i) = sin (p / Rpower 10000 (2 * INR i / INR d))
"""),
    ),
    "SPE-WAVELENGTH-RANGE": (
        ("Sinusoidal", "spe_wavelength_range", r"""
forall h : nat,
(1 <= h)%nat ->
wavelength (2 * h) 0 = 2 * PI /\
(forall i : nat,
 wavelength (2 * h) (S i) =
 wavelength (2 * h) i * Rpower 10000 (2 / INR (2 * h))) /\
(forall i : nat,
 (i < h)%nat -> 2 * PI <= wavelength (2 * h) i < 10000 * (2 * PI))
"""),
        ("Sinusoidal", "spe_wavelength_range_literal_negation", r"""
~
(forall h : nat,
 (1 <= h)%nat ->
 wavelength (2 * h) 0 = 2 * PI /\
 wavelength (2 * h) (h - 1) = 10000 * (2 * PI))
"""),
        ("Sinusoidal", "spe_wavelength_range_correction", r"""
forall h : nat,
(1 <= h)%nat ->
wavelength (2 * h) 0 = 2 * PI /\
(forall i : nat,
 wavelength (2 * h) (S i) =
 wavelength (2 * h) i * Rpower 10000 (2 / INR (2 * h))) /\
wavelength (2 * h) (h - 1) =
2 * PI * Rpower 10000 (1 - 2 / INR (2 * h))
"""),
    ),
    "SPE-SLOWEST-WAVE-004": (
        ("Sinusoidal", "spe_slowest_wave_004", r"""
forall (h : nat) (L : R),
(8 <= h)%nat -> L <= 8192 -> L < wavelength (2 * h) (h - 1)
"""),
    ),
    "SPE-TOKEN-SUM-BREAKS": (
        ("Sinusoidal", "spe_token_sum_breaks", r"""
forall h : nat,
(1 <= h)%nat ->
exists (xa xb : vec) (p q p' q' : nat),
  INR p - INR q = INR p' - INR q' /\
  dot (2 * h) (vadd xa (spe h (INR p))) (vadd xb (spe h (INR q))) <>
  dot (2 * h) (vadd xa (spe h (INR p'))) (vadd xb (spe h (INR q')))
"""),
    ),
    "SPE-QK-EXPANSION": (
        ("Sinusoidal", "spe_qk_expansion", r"""
forall (h : nat) (WQ WK : mat) (xp xq : vec) (p q : R),
dot (2 * h) (mat_vec (2 * h) WQ (vadd xp (spe h p)))
  (mat_vec (2 * h) WK (vadd xq (spe h q))) =
dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK xq) +
dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK (spe h q)) +
dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK xq) +
dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q))
"""),
        ("Sinusoidal", "spe_qk_expansion_correction", r"""
forall (d : nat) (WQ WK : mat) (xp xq u v : vec),
dot d (mat_vec d WQ (vadd xp u)) (mat_vec d WK (vadd xq v)) =
dot d (mat_vec d WQ xp) (mat_vec d WK xq) + dot d (mat_vec d WQ xp) (mat_vec d WK v) +
dot d (mat_vec d WQ u) (mat_vec d WK xq) + dot d (mat_vec d WQ u) (mat_vec d WK v)
"""),
        ("Sinusoidal", "spe_qk_expansion_literal_negation", r"""
~
(forall (h : nat) (WQ WK : mat) (xp xq : vec) (p q : R),
 dot (2 * h) (mat_vec (2 * h) WQ (vadd xp (spe h p)))
   (mat_vec (2 * h) WK (vadd xq (spe h q))) =
 dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK xq) *
 dot (2 * h) (mat_vec (2 * h) WQ xp) (mat_vec (2 * h) WK (spe h q)) *
 dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK xq) *
 dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q)))
"""),
    ),
    "SPE-ADDITIVE-EXPANSION-003": (
        ("Sinusoidal", "spe_additive_expansion_003", r"""
forall (d : nat) (q k pm pn : vec),
dot d (vadd q pm) (vadd k pn) = dot d q k + dot d q pn + dot d pm k + dot d pm pn
"""),
    ),
    "SPE-SHIFT-LINEAR-004": (
        ("Sinusoidal", "spe_shift_linear_004", r"""
forall (h : nat) (k : R),
exists M : mat,
  forall (p : R) (j : nat),
  (j < 2 * h)%nat -> spe h (p + k) j = mat_vec (2 * h) M (spe h p) j
"""),
    ),
    "SPE-LAST-TERM-RELATIVE": (
        ("Sinusoidal", "spe_last_term_relative_negation", r"""
~
(forall (h : nat) (WQ WK : mat) (p q D : R),
 dot (2 * h) (mat_vec (2 * h) WQ (spe h (p + D))) (mat_vec (2 * h) WK (spe h (q + D))) =
 dot (2 * h) (mat_vec (2 * h) WQ (spe h p)) (mat_vec (2 * h) WK (spe h q)))
"""),
        ("Sinusoidal", "spe_last_term_relative_correction", r"""
forall (h : nat) (w a b : nat -> R) (WQ WK : mat),
(forall r c : nat,
 (r < 2 * h)%nat ->
 (c < 2 * h)%nat -> mat_mul (2 * h) (transpose WQ) WK r c = scaled_rotation_blocks a b r c) ->
forall p q D : R,
dot (2 * h) (mat_vec (2 * h) WQ (pe w (p + D))) (mat_vec (2 * h) WK (pe w (q + D))) =
dot (2 * h) (mat_vec (2 * h) WQ (pe w p)) (mat_vec (2 * h) WK (pe w q))
"""),
    ),
    "SPE-DOT-NONMONOTONE": (
        ("SinusoidalDecay", "spe_dot_nonmonotone", r"""
forall (h : nat) (p : R),
(1 <= h)%nat ->
exists D1 D2 : nat,
  (D1 < D2)%nat /\
  dot (2 * h) (DefsSinusoidal.spe h p) (DefsSinusoidal.spe h (p + INR D1)) <
  dot (2 * h) (DefsSinusoidal.spe h p) (DefsSinusoidal.spe h (p + INR D2))
"""),
    ),
    "SPE-DOT-AVERAGES-OUT": (
        ("Averages", "spe_dot_averages_out", r"""
(forall (h : nat) (p eps : R),
 0 < eps ->
 exists N : nat,
   forall n M : nat, (N <= n)%nat -> Rabs (window_mean h p M n) < eps) /\
(forall p D : R,
 D <> 0 ->
 dot 128 (DefsSinusoidal.spe 64 p) (DefsSinusoidal.spe 64 (p + D)) <
 dot 128 (DefsSinusoidal.spe 64 p) (DefsSinusoidal.spe 64 p))
"""),
        ("SinusoidalDecay", "spe_dot_averages_out_literal_negation", r"""
forall h : nat, (1 <= h)%nat -> ~ Un_cv (distance_score h) 0
"""),
    ),
    "SPE-LINEAR-ATTENTION-INCOMPATIBLE": (
        ("Sinusoidal", "spe_linear_attention_incompatible_correction", r"""
forall (d m n t : nat) (phi : vec -> vec) (WQ WK WV : mat) (x pos : nat -> vec) (c : nat),
linear_numerator_quadratic m n phi (additive_input d WQ x pos t)
  (additive_input d WK x pos) (additive_input d WV x pos) c =
linear_numerator_factored m n phi (additive_input d WQ x pos t)
  (additive_input d WK x pos) (additive_input d WV x pos) c /\
linear_normaliser_quadratic m n phi (additive_input d WQ x pos t)
  (additive_input d WK x pos) =
linear_normaliser_factored m n phi (additive_input d WQ x pos t) (additive_input d WK x pos)
"""),
        ("Sinusoidal", "spe_linear_attention_incompatible_negation", r"""
~
(exists (d m n t : nat) (phi : vec -> vec) (WQ WK WV : mat) (x pos : nat -> vec)
 (c : nat),
   linear_numerator_quadratic m n phi (additive_input d WQ x pos t)
     (additive_input d WK x pos) (additive_input d WV x pos) c <>
   linear_numerator_factored m n phi (additive_input d WQ x pos t)
     (additive_input d WK x pos) (additive_input d WV x pos) c \/
   linear_normaliser_quadratic m n phi (additive_input d WQ x pos t)
     (additive_input d WK x pos) <>
   linear_normaliser_factored m n phi (additive_input d WQ x pos t)
     (additive_input d WK x pos))
"""),
    ),
    "SPE-UNIQUE-POSITION": (
        ("Positions", "spe_unique_position", r"""
forall (h : nat) (p q : R),
(1 <= h)%nat ->
h <> 1%nat ->
h <> 2%nat ->
h <> 4%nat ->
(forall j : nat,
 (j < 2 * h)%nat -> DefsSinusoidal.spe h p j = DefsSinusoidal.spe h q j) ->
p = q
"""),
    ),
    "SPE-FREQUENCIES-DECREASING": (
        ("Sinusoidal", "spe_frequencies_decreasing", r"""
forall h i j : nat,
(1 <= h)%nat ->
(i < j)%nat -> rope_spectrum 10000 h j < rope_spectrum 10000 h i
"""),
    ),
    "SPE-DISTINCT-WAVELENGTHS": (
        ("Sinusoidal", "spe_distinct_wavelengths", r"""
forall h i j : nat,
(1 <= h)%nat ->
i <> j ->
DefsSinusoidal.wavelength (2 * h) i <>
DefsSinusoidal.wavelength (2 * h) j
"""),
    ),
    "SPE-SMOOTHNESS-004": (
        ("Sinusoidal", "spe_smoothness_004", r"""
forall (h : nat) (w : nat -> R) (p q : R),
norm2 (2 * h)
  (fun j : nat => DefsSinusoidal.pe w p j - DefsSinusoidal.pe w q j) <=
sum h (fun i : nat => w i * w i) * ((p - q) * (p - q))
"""),
    ),
    "SPE-ADD-CHANGES-NORM-DIRECTION-004": (
        ("Sinusoidal", "spe_add_changes_norm_direction_004", r"""
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
}
