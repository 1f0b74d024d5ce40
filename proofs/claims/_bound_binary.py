"""Bound statements of the BINARY-* claims of `_claims_binary`, proved in Binary.v.

Each entry: claim ID → `(module, theorem, statement)`, the statement as Coq elaborated it, reviewed, over the Defs
files only; how it is bound (a definition before the proof module loads, the proof checked against it by type, the
`Set Printing All` pin) is told once, in `_bound_statements`.
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
