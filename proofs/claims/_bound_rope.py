"""Bound statements of the ROPE-* claims of `_claims_rope` and `_claims_prose`, proved in Rope.v and
Positions.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "ROPE-COMPLEX-INNER-PRODUCT": (
        ("Rope", "rope_complex_inner_product", r"""
forall (d : nat) (q k : nat -> C) (m n theta : R),
hdot d (fun j : nat => (q j * cis (m * theta))%C) (fun j : nat => (k j * cis (n * theta))%C) =
(hdot d q k * cis ((m - n) * theta))%C
"""),
    ),
    "ROPE-REAL-PART-COS-ONLY": (
        ("Rope", "rope_real_part_cos_only", r"""
forall (d : nat) (q k : vec) (m n theta : R),
Re (dot d q k * cis ((m - n) * theta))%C = dot d q k * cos ((m - n) * theta)
"""),
    ),
    "ROPE-KV-COS-ONLY": (
        ("Rope", "rope_kv_cos_only_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (m n : nat) (theta : R),
 dot (2 * h) (rope (fun _ : nat => theta) h (INR m) q)
   (rope (fun _ : nat => theta) h (INR n) k) =
 dot (2 * h) q k * cos ((INR m - INR n) * theta))
"""),
        ("Rope", "rope_kv_cos_only_correction", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
dot (2 * h) (rope theta h m q) (rope theta h n k) =
sum h
  (fun i : nat =>
   dot_pair q k i * cos ((m - n) * theta i) + cross_pair q k i * sin ((m - n) * theta i))
"""),
    ),
    "ROPE-COMPLEX-IS-ROTATION": (
        ("Rope", "rope_complex_is_rotation", r"""
(forall (a : R) (x : vec),
 ((x 0%nat, x 1%nat) * cis a)%C =
 (mat_vec 2 (rot_matrix a) x 0%nat, mat_vec 2 (rot_matrix a) x 1%nat)) /\
(forall (h : nat) (theta : nat -> R) (m : R) (x : vec) (i : nat),
 (i < h)%nat ->
 (pair_of x i * cis (m * theta i))%C =
 (rope theta h m x (2 * i)%nat, rope theta h m x (S (2 * i))))
"""),
    ),
    "ROPE-PAIR-FORMULA": (
        ("Rope", "rope_pair_formula", r"""
forall (h : nat) (theta : nat -> R) (m : R) (x : vec) (i : nat),
(i < h)%nat ->
mat_vec (2 * h) (rope_matrix theta h m) x (2 * i)%nat =
x (2 * i)%nat * cos (m * theta i) - x (S (2 * i)) * sin (m * theta i) /\
mat_vec (2 * h) (rope_matrix theta h m) x (S (2 * i)) =
x (2 * i)%nat * sin (m * theta i) + x (S (2 * i)) * cos (m * theta i)
"""),
    ),
    "ROPE-RELATIVE-MATRIX": (
        ("Rope", "rope_relative_matrix", r"""
forall (h : nat) (theta : nat -> R) (m n : R) (i j : nat),
mat_mul (2 * h) (transpose (rope_matrix theta h m)) (rope_matrix theta h n) i j =
rope_matrix theta h (n - m) i j
"""),
    ),
    "ROPE-QK-RELATIVE": (
        ("Rope", "rope_qk_relative", r"""
forall (h e : nat) (theta : nat -> R) (Wq Wk : mat) (xm xn : vec) (m n : R),
dot (2 * h) (mat_vec (2 * h) (rope_matrix theta h m) (mat_vec e Wq xm))
  (mat_vec (2 * h) (rope_matrix theta h n) (mat_vec e Wk xn)) =
dot e xm
  (mat_vec (2 * h) (transpose Wq)
     (mat_vec (2 * h) (rope_matrix theta h (n - m)) (mat_vec e Wk xn)))
"""),
    ),
    "ROPE-GENERAL-FORM": (
        ("Rope", "rope_general_form", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
dot (2 * h) (rope theta h m q) (rope theta h n k) =
sum h (fun i : nat => Re (pair_of q i * Cconj (pair_of k i) * cis ((m - n) * theta i))%C)
"""),
    ),
    "ROPE-SCORE-SINE-TERM-003": (
        ("Rope", "rope_score_sine_term_003_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (m n i : nat),
 (i < h)%nat ->
 pair_score (rope_spectrum 10000 h) h (INR m) (INR n) q k i =
 dot_pair q k i * cos ((INR n - INR m) * rope_spectrum 10000 h i) +
 cross_pair q k i * sin ((INR n - INR m) * rope_spectrum 10000 h i))
"""),
        ("Rope", "rope_score_sine_term_003_correction", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R) (i : nat),
(i < h)%nat ->
pair_score theta h m n q k i =
dot_pair q k i * cos ((n - m) * theta i) +
(q (S (2 * i)) * k (2 * i)%nat - q (2 * i)%nat * k (S (2 * i))) * sin ((n - m) * theta i)
"""),
    ),
    "ROPE-DOT-PROPERTY-003": (
        ("Rope", "rope_dot_property_003", r"""
(forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R) (i : nat),
 (i < h)%nat ->
 pair_score theta h m n q k i =
 dot 2 (slice q i) (mat_vec 2 (rot_matrix ((n - m) * theta i)) (slice k i))) /\
(forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
 dot (2 * h) (rope theta h m q) (rope theta h n k) =
 dot (2 * h) q (mat_vec (2 * h) (rope_matrix theta h (n - m)) k))
"""),
    ),
    "ROPE-SHIFT-INVARIANCE-003": (
        ("Rope", "rope_shift_invariance_003", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),
dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k) =
dot (2 * h) (rope theta h m q) (rope theta h n k)
"""),
    ),
    "ROPE-NORM-PRESERVING": (
        ("Rope", "rope_norm_preserving", r"""
(forall (h : nat) (theta : nat -> R) (m : R) (x : vec),
 sqrt (norm2 (2 * h) (rope theta h m x)) = sqrt (norm2 (2 * h) x)) /\
(forall (h : nat) (theta : nat -> R) (m : R) (i j : nat),
 mat_mul (2 * h) (transpose (rope_matrix theta h m)) (rope_matrix theta h m) i j =
 (if i <? 2 * h then if i =? j then 1 else 0 else 0)) /\
(forall a : R,
 rot_matrix a 0%nat 0%nat * rot_matrix a 1%nat 1%nat -
 rot_matrix a 0%nat 1%nat * rot_matrix a 1%nat 0%nat = 1)
"""),
    ),
    "ROPE-FREQUENCIES": (
        ("Rope", "rope_frequencies", r"""
(forall (h : nat) (r : R),
 (exists i : nat, (1 <= i <= h)%nat /\ r = rope_frequency_1based (2 * h) i) <->
 (exists j : nat, (j < h)%nat /\ r = sinusoidal_omega (2 * h) j)) /\
(forall h j : nat, rope_spectrum 10000 h j = sinusoidal_omega (2 * h) j)
"""),
    ),
    "ROPE-FULL-STRENGTH-AT-ZERO": (
        ("Rope", "rope_full_strength_at_zero", r"""
(forall (h : nat) (theta : nat -> R) (q k : vec) (m : R),
 dot (2 * h) (rope theta h m q) (rope theta h m k) = dot (2 * h) q k) /\
(forall (h : nat) (theta : nat -> R) (q : vec) (m n : R),
 dot (2 * h) (rope theta h m q) (rope theta h n q) <=
 dot (2 * h) (rope theta h n q) (rope theta h n q))
"""),
        ("Rope", "rope_full_strength_at_zero_literal_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (m n : nat),
 dot (2 * h) (rope (rope_spectrum 10000 h) h (INR m) q)
   (rope (rope_spectrum 10000 h) h (INR n) k) <=
 dot (2 * h) (rope (rope_spectrum 10000 h) h (INR n) q)
   (rope (rope_spectrum 10000 h) h (INR n) k))
"""),
    ),
    "ROPE-LINEAR-ATTENTION-004": (
        ("Rope", "rope_linear_attention_004_negation", r"""
(forall (h : nat) (theta : nat -> R) (m : R) (x : vec),
 norm2 (2 * h) (rope theta h m x) = norm2 (2 * h) x) /\
(forall h : nat,
 (1 <= h)%nat ->
 ~
 (forall (N : nat) (m : R) (phi_q : vec) (phi_k : nat -> vec),
  (1 <= N)%nat ->
  (forall j : nat, 0 <= phi_q j) ->
  (forall n j : nat, 0 <= phi_k n j) ->
  0 <=
  sum N
    (fun n : nat =>
     dot (2 * h) (rope (rope_spectrum 10000 h) h m phi_q)
       (rope (rope_spectrum 10000 h) h (INR n) (phi_k n)))))
"""),
        ("Rope", "rope_linear_attention_004_literal", r"""
(forall (N h : nat) (theta : nat -> R) (m : R)
   (phi_q : vec) (phi_k values : nat -> vec)
   (c : nat),
 sum N
   (fun n : nat =>
    dot (2 * h) (rope theta h m phi_q)
      (rope theta h (INR n) (phi_k n)) * values n c) =
 dot (2 * h) (rope theta h m phi_q)
   (fun j : nat =>
    sum N
      (fun n : nat => rope theta h (INR n) (phi_k n) j * values n c))) /\
(forall (h : nat) (theta : nat -> R) (u w : vec) (m n delta : R),
 dot (2 * h) (rope theta h (m + delta) u) (rope theta h (n + delta) w) =
 dot (2 * h) (rope theta h m u) (rope theta h n w))
"""),
        ("Rope", "rope_linear_attention_004_correction", r"""
(forall (N h : nat) (theta : nat -> R) (m : R)
   (phi_q : vec) (phi_k values : nat -> vec)
   (c : nat),
 sum N
   (fun n : nat =>
    dot (2 * h) (rope theta h m phi_q)
      (rope theta h (INR n) (phi_k n)) * values n c) =
 dot (2 * h) (rope theta h m phi_q)
   (fun j : nat =>
    sum N
      (fun n : nat => rope theta h (INR n) (phi_k n) j * values n c))) /\
(forall (N d : nat) (phi_q : vec) (phi_k : nat -> vec),
 (forall j : nat, 0 <= phi_q j) ->
 (forall n j : nat, 0 <= phi_k n j) ->
 0 <= sum N (fun n : nat => dot d phi_q (phi_k n)))
"""),
    ),
    "ROPE-ABS-AND-REL": (
        ("Positions", "rope_abs_and_rel", r"""
(forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),
 dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k) =
 dot (2 * h) (rope theta h m q) (rope theta h n k)) /\
(forall (h : nat) (x : vec) (m m' : R),
 (1 <= h)%nat ->
 h <> 1%nat ->
 h <> 2%nat ->
 h <> 4%nat ->
 x 0%nat <> 0 \/ x 1%nat <> 0 ->
 x 2%nat <> 0 \/ x 3%nat <> 0 ->
 (forall j : nat,
  (j < 2 * h)%nat ->
  rope (rope_spectrum 10000 h) h m x j = rope (rope_spectrum 10000 h) h m' x j) ->
 m = m')
"""),
    ),
    "ROPE-SINE-TERM-WHOLE-SCORE-003": (
        ("Rope", "rope_sine_term_whole_score_003", r"""
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
}
