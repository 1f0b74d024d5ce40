"""Bound statements of the claims of `_claims_decay`, proved in Decay.v, Decay128.v and Decay128Trend.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "ROPE-DECAY-TO-ZERO": (
        ("Decay", "rope_decay_to_zero_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (eps : R),
 0 < eps ->
 exists M : nat,
   forall m n : nat,
   INR M < Rabs (INR m - INR n) ->
   Rabs (rope_score (rope_spectrum 10000 h) h (INR m) (INR n) q k) < eps)
"""),
        ("Decay", "rope_decay_to_zero_literal_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (eps : R),
 0 < eps ->
 exists M : nat,
   forall m n : nat,
   INR M < Rabs (INR m - INR n) ->
   Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m - INR n)) < eps)
"""),
        ("Decay", "rope_decay_to_zero_correction", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
Rabs (rope_score theta h m n q k) <=
max_step (cut_weight q k h) h *
sum h (fun j : nat => Cmod (partial_sum (fun i : nat => phase ((m - n) * theta i)) (S j)))
"""),
    ),
    "ROPE-DECAY-BOUND": (
        ("Decay", "rope_decay_bound", r"""
forall (N : nat) (h : nat -> C) (theta : nat -> R) (D : R),
h N = 0 ->
let z := fun i : nat => phase (D * theta i) in
csum N (fun i : nat => (h i * z i)%C) =
(- csum N (fun i : nat => partial_sum z (S i) * (h (S i) - h i)))%C /\
Cmod (csum N (fun i : nat => (h i * z i)%C)) <=
max_step h N * sum N (fun j : nat => Cmod (partial_sum z (S j)))
"""),
    ),
    "ROPE-DECAY-BOUND-MONOTONE": (
        ("Decay128Trend", "rope_decay_bound_monotone", r"""
(forall D : nat,
 (1 <= D <= 255)%nat ->
 relative_bound (rope_spectrum 10000 64) 64 (INR D) < relative_bound (rope_spectrum 10000 64) 64 0) /\
(forall k : nat,
 (k < 7)%nat ->
 exists D : nat,
   (2 ^ k <= D < 2 ^ (k + 1))%nat /\
   (forall D' : nat,
    (2 ^ (k + 1) <= D' < 2 ^ (k + 2))%nat ->
    relative_bound (rope_spectrum 10000 64) 64 (INR D') <
    relative_bound (rope_spectrum 10000 64) 64 (INR D)))
"""),
        ("Decay128", "rope_decay_bound_monotone_literal_negation", r"""
~
(forall D1 D2 : nat,
 (D1 < D2)%nat ->
 relative_bound (rope_spectrum 10000 64) 64 (INR D2) <=
 relative_bound (rope_spectrum 10000 64) 64 (INR D1))
"""),
        ("Decay", "rope_decay_bound_monotone_literal_every_d_negation", r"""
~ bound_monotone_reading
"""),
    ),
    "ROPE-DECAY-MONOTONE": (
        ("Decay", "rope_decay_monotone_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (m n m' n' : nat),
 Rabs (INR m - INR n) < Rabs (INR m' - INR n') ->
 Rabs (rope_score (rope_spectrum 10000 h) h (INR m') (INR n') q k) <=
 Rabs (rope_score (rope_spectrum 10000 h) h (INR m) (INR n) q k))
"""),
        ("Decay", "rope_decay_monotone_literal_negation", r"""
forall h : nat,
(1 <= h)%nat ->
~
(forall (q k : vec) (m n m' n' : nat),
 Rabs (INR m - INR n) < Rabs (INR m' - INR n') ->
 Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m' - INR n')) <=
 Rabs (seed_score (rope_spectrum 10000 h) h q k (INR m - INR n)))
"""),
        ("Decay", "rope_decay_monotone_correction", r"""
forall (h : nat) (theta : nat -> R) (q k : vec) (m n : R),
Rabs (rope_score theta h m n q k) <=
max_step (cut_weight q k h) h *
sum h (fun j : nat => Cmod (partial_sum (fun i : nat => phase ((m - n) * theta i)) (S j)))
"""),
    ),
    "ROPE-LINEAR-ATTENTION-SEED": (
        ("Decay", "rope_linear_attention_seed_negation", r"""
~ linear_attention_seed_reading
"""),
        ("Decay", "rope_linear_attention_seed_literal", r"""
forall (phi : R -> R) (theta : nat -> R) (h N : nat) (q : vec) (k v : nat -> vec)
  (m : R) (c : nat),
sum N
  (fun j : nat =>
   dot (2 * h) (feature_map phi (rope theta h m q))
     (feature_map phi (rope theta h (INR j) (k j))) * v j c) =
dot (2 * h) (feature_map phi (rope theta h m q))
  (fun a : nat =>
   sum N (fun j : nat => feature_map phi (rope theta h (INR j) (k j)) a * v j c))
"""),
        ("Decay", "rope_linear_attention_seed_correction", r"""
forall (theta : nat -> R) (h : nat) (a b : vec) (m n delta : R),
dot (2 * h) (rope theta h (m + delta) a) (rope theta h (n + delta) b) =
dot (2 * h) (rope theta h m a) (rope theta h n b)
"""),
    ),
    "ROPE-LINEAR-ATTENTION-ROFORMER": (
        ("Decay", "rope_linear_attention_roformer", r"""
forall (phi : R -> R) (theta : nat -> R) (h N : nat) (q : vec) (k v : nat -> vec)
  (m : R) (c : nat),
(forall (n : R) (key : vec),
 dot (2 * h) (rope theta h m (feature_map phi q)) (rope theta h n (feature_map phi key)) =
 dot (2 * h) (feature_map phi q) (rope theta h (n - m) (feature_map phi key))) /\
sum N
  (fun j : nat =>
   dot (2 * h) (rope theta h m (feature_map phi q))
     (rope theta h (INR j) (feature_map phi (k j))) * v j c) =
dot (2 * h) (rope theta h m (feature_map phi q))
  (fun a : nat =>
   sum N (fun j : nat => rope theta h (INR j) (feature_map phi (k j)) a * v j c))
"""),
    ),
}
