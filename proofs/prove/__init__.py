"""`ropecheck prove`: the safe grammar for typed statements, the search, the printer that hands the statement *as
typed* to Coq, and the confined worker that runs them. Builds on `proofs.engine` and `proofs.kernel`.
"""
