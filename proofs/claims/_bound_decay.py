"""Bound statements of the claims proved in Decay.v, Decay128.v, Cache.v (see `_bound_statements`).

Each entry: claim ID → `(module, theorem, statement)`; the statement is the Coq proposition the theorem must
have, printed into the generated `Statements<Module>.v` as `Theorem <theorem>_verdict : <statement>.` and closed by
`exact Ropecheck.<Module>.<theorem>` — the kernel rejects a proof of anything else. Text as Coq elaborated it
(`Check`), reviewed; it reads the definitions of `Defs.v` and `Defs<Module>.v` only.
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
        ("Decay", "rope_decay_bound_monotone_correction", r"""
forall (h : nat) (theta : nat -> R) (D : R),
(0 < h)%nat ->
relative_bound theta h D <= relative_bound theta h 0 /\
relative_bound theta h 0 = (INR h + 1) / 2
"""),
        ("Decay128", "rope_decay_bound_monotone_negation", r"""
~
(forall D1 D2 : nat,
 (D1 < D2)%nat ->
 relative_bound (rope_spectrum 10000 64) 64 (INR D2) <=
 relative_bound (rope_spectrum 10000 64) 64 (INR D1))
"""),
        ("Decay", "rope_decay_bound_monotone_literal_every_d_negation", r"""
~ bound_monotone_reading
"""),
        ("Decay", "rope_decay_bound_monotone_literal", r"""
forall D : R,
D <> 0 ->
relative_bound (rope_spectrum 10000 64) 64 D < relative_bound (rope_spectrum 10000 64) 64 0 /\
relative_bound (rope_spectrum 10000 64) 64 0 = 65 / 2
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
    "ROPE-KV-CACHE-REUSE": (
        ("Decay", "rope_kv_cache_reuse", r"""
forall (theta : nat -> R) (h n : nat) (Qs Ks : nat -> vec) (V : nat -> nat -> R) (t c : nat),
(t < n)%nat ->
DefsAttention.masked_attention_row n (relative_scores theta h Qs Ks) V t c =
DefsAttention.causal_row (cached_scores theta h Qs Ks) V t c
"""),
    ),
    "ROPE-PREFIX-REPHASE": (
        ("Decay", "rope_prefix_rephase", r"""
forall (theta : nat -> R) (h : nat) (m n delta : R) (q k : vec),
(forall j : nat, rope theta h delta (rope theta h n k) j = rope theta h (n + delta) k j) /\
dot (2 * h) (rope theta h (m + delta) q) (rope theta h delta (rope theta h n k)) =
dot (2 * h) (rope theta h m q) (rope theta h n k)
"""),
    ),
    "ROPE-KV-CACHE-SIZE": (
        ("Cache", "rope_kv_cache_size", r"""
forall (theta : nat -> R) (h dv : nat),
(forall (n : R) (k v : vec),
 length (rope_entry theta h dv n k v) = length (plain_entry h dv k v) /\
 length (rope_entry theta h dv n k v) = (2 * h + dv)%nat) /\
(forall (t n : R) (q k v : vec) (c : nat),
 (c < dv)%nat ->
 entry_score h (rope theta h t q) (rope_entry theta h dv n k v) =
 dot (2 * h) (rope theta h t q) (rope theta h n k) /\
 List.nth (2 * h + c) (rope_entry theta h dv n k v) 0 = v c) /\
(forall (n : R) (k v k' v' : vec),
 rope_entry theta h dv n k v = rope_entry theta h dv n k' v' ->
 plain_entry h dv k v = plain_entry h dv k' v') /\
(forall (t : R) (c c' : vec),
 (forall q : vec,
  dot (2 * h) (rope theta h t q) c = dot (2 * h) (rope theta h t q) c') ->
 forall i : nat, (i < 2 * h)%nat -> c i = c' i)
"""),
    ),
}
