"""The SymPy engine: statement kinds, exact procedures and interval arithmetic that *search* for a proof or a
certified counterexample. Its result is the derivation shown beside a verdict, never the verdict itself (the Coq
kernel decides, `proofs.kernel`). Imports nothing else of `proofs`.
"""
