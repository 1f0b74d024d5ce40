"""Bound statements of the claims of `_claims_cache` (what a KV cache holds, reusing it), proved in Cache.v
and Decay.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
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
    "ROPE-CACHED-KEY-POSITIONAL-003": (
        ("Cache", "rope_cached_key_positional_003", r"""
forall h : nat,
(1 <= h)%nat ->
~
(exists store : vec -> vec,
   forall (n : R) (k : vec) (j : nat),
   (j < 2 * h)%nat -> rope (rope_spectrum 10000 h) h n k j = store k j)
"""),
    ),
    "APE-PREFIX-STALE-003": (
        ("Cache", "ape_prefix_stale_003", r"""
(forall (h : nat) (x : vec) (n delta : R),
 (1 <= h)%nat ->
 h <> 1%nat ->
 h <> 2%nat ->
 h <> 4%nat ->
 delta <> 0 ->
 ~
 (forall j : nat,
  (j < 2 * h)%nat ->
  DefsSinusoidal.vadd x (DefsSinusoidal.spe h n) j =
  DefsSinusoidal.vadd x (DefsSinusoidal.spe h (n + delta)) j)) /\
(forall (h : nat) (WK : mat) (x : vec) (n delta : R) (j : nat),
 mat_vec (2 * h) WK (DefsSinusoidal.vadd x (DefsSinusoidal.spe h (n + delta))) j =
 mat_vec (2 * h) WK (DefsSinusoidal.vadd x (DefsSinusoidal.spe h n)) j +
 mat_vec (2 * h) WK
   (fun i : nat => DefsSinusoidal.spe h (n + delta) i - DefsSinusoidal.spe h n i) j)
"""),
    ),
}
