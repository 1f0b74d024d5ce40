"""The claims ledger: each claim from the sources (quoted), its SymPy statement, the Coq statements its verdict is
bound to, and the verdict computed from the kernel's report (`_verdicts`). Builds on `proofs.engine` and
`proofs.kernel`.
"""
