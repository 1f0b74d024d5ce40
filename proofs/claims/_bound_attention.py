"""Bound statements of the ATT-* claims (`_claims_attention`, `_claims_prose`), proved in Attention.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "ATT-SOFTMAX-PERMUTATION": (
        ("Attention", "att_softmax_permutation", r"""
forall (n : nat) (sigma : 'I_n -> 'I_n),
injective sigma ->
forall (A : mat n n) (i j : 'I_n),
softmax (mmul (mmul (perm_matrix sigma) A) (transpose (perm_matrix sigma))) i j =
mmul (mmul (perm_matrix sigma) (softmax A)) (transpose (perm_matrix sigma)) i j
"""),
    ),
    "ATT-EQUIVARIANCE": (
        ("Attention", "att_equivariance", r"""
forall (n d dk dv : nat) (sigma : 'I_n -> 'I_n),
injective sigma ->
forall (X : mat n d) (WQ WK : mat d dk) (WV : mat d dv) (i : 'I_n) (c : 'I_dv),
attention (mmul (perm_matrix sigma) X) WQ WK WV i c =
mmul (perm_matrix sigma) (attention X WQ WK WV) i c
"""),
    ),
    "ATT-PE-BREAKS-EQUIVARIANCE": (
        ("Attention", "att_pe_breaks_equivariance", r"""
(exists (n d : nat) (sigma : 'I_n -> 'I_n) (X : mat n d),
   injective sigma /\
   ~
   (forall (i : 'I_n) (c : 'I_d),
    attention (madd (mmul (perm_matrix sigma) X) (sinusoidal_pe n d))
      (unit_matrix d) (unit_matrix d) (unit_matrix d) i c =
    mmul (perm_matrix sigma)
      (attention (madd X (sinusoidal_pe n d)) (unit_matrix d) (unit_matrix d)
         (unit_matrix d)) i c)) /\
(exists (n h : nat) (sigma : 'I_n -> 'I_n) (X : mat n (2 * h)),
   injective sigma /\
   ~
   (forall (i : 'I_n) (c : 'I_(2 * h)),
    rope_attention (rope_spectrum 10000 h) h (mmul (perm_matrix sigma) X)
      (unit_matrix (2 * h)) (unit_matrix (2 * h)) (unit_matrix (2 * h)) i c =
    mmul (perm_matrix sigma)
      (rope_attention (rope_spectrum 10000 h) h X (unit_matrix (2 * h))
         (unit_matrix (2 * h)) (unit_matrix (2 * h))) i c))
"""),
    ),
    "ATT-DOT-SYMMETRIC": (
        ("Attention", "att_dot_symmetric", r"""
(forall (n d dk : nat) (sigma : 'I_n -> 'I_n)
   (X : mat n d) (WQ WK : mat d dk) (i j : 'I_n),
 scores (mmul (perm_matrix sigma) X) WQ WK i j =
 scores X WQ WK (sigma i) (sigma j)) /\
(forall (n d dk : nat) (X : mat n d) (W : mat d dk) (i j : 'I_n),
 scores X W W i j = scores X W W j i)
"""),
        ("Attention", "att_dot_symmetric_literal_negation", r"""
~ attention_symmetry_reading
"""),
        ("Attention", "att_dot_symmetric_correction", r"""
forall (d dk : nat) (WQ WK : mat d dk),
(forall (n : nat) (X : mat n d) (i j : 'I_n),
 scores X WQ WK i j = scores X WQ WK j i) <->
(forall a b : 'I_d,
 mmul WQ (transpose WK) a b = mmul WQ (transpose WK) b a)
"""),
    ),
    "ATT-CAUSAL-ROW": (
        ("Attention", "att_causal_row_negation", r"""
~ causal_row_reading
"""),
        ("Attention", "att_causal_row_correction", r"""
forall (n : nat) (e V : nat -> nat -> R) (t c : nat),
(t < n)%N -> masked_attention_row n e V t c = causal_row e V t c
"""),
    ),
}
