"""Bound statements of the BINARY-* claims of `_claims_binary`, proved in Binary.v.

Each entry: claim ID → `(module, theorem, statement)`; the statement is the Coq proposition the theorem must
have, printed into the generated `Statements<Module>.v` and bound to `Ropecheck.<Module>.<theorem>` by its type
(see `_bound_statements`). Text as Coq elaborated it (`Check`), reviewed; it reads the definitions of `Defs.v` and
`Defs<Module>.v` only.
"""

BOUND: dict[str, tuple[tuple[str, str, str], ...]] = {
    "BINARY-3-TO-4-FLIPS-004": (
        ("Binary", "binary_3_to_4_flips_004", r"""
flipped_bits 3 3 4 = 3%nat
"""),
        ("Binary", "binary_3_to_4_flips_004_literal_negation", r"""
flipped_bits 8 3 4 <> 8%nat
"""),
    ),
    "BINARY-TABLE-004": (
        ("Binary", "binary_table_004", r"""
table_004_rows = List.map eight_bits (List.seq 0 12) /\
bit_changes 0 120 = 120%nat /\ bit_changes 7 120 = 0%nat
"""),
    ),
}
