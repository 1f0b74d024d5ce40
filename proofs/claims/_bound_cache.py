"""Bound statements of the claims of `_claims_cache`, proved in Cache.v.

Each entry: claim ID → `(module, theorem, statement)`; the statement is the Coq proposition the theorem must
have, printed into the generated `Statements<Module>.v` and bound to `Ropecheck.<Module>.<theorem>` by its type
(see `_bound_statements`). Text as Coq elaborated it (`Check`), reviewed; it reads the definitions of `Defs.v` and
`Defs<Module>.v` only.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
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
