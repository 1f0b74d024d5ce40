"""The Coq kernel bridge: find coqc, compile the development (cached, keyed by the Coq environment), bind each
registry statement to its proof lemma in generated `Statements<Module>.v` files, read `Print Assumptions` and coqchk.
Knows nothing of claims: the bindings to check are passed in (`proofs.claims._bound_statements.all_bound`).
"""
