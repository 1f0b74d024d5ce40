"""ropecheck's proof side: the claims ledger and a SymPy proof engine that is never wrong about "proved".

This package is pure SymPy (plus mpmath interval arithmetic for certified counterexamples); it never imports
`numeric`.
"""

from ._certificate import Counterexample, Decision, Step, Verdict
from ._claim import Claim, Correction, Source
from ._engine import decide_identity, prove_zero, search_counterexample
from ._ledger import all_claims, claim_ids, get_claim
from ._parse import BadStatement, ParsedIdentity, parse_identity
from ._statements import AllOf, Derivation, Identity, Induction, NonPositive, Refutation, Witness

__all__ = [
    "AllOf",
    "BadStatement",
    "Claim",
    "Correction",
    "Counterexample",
    "Decision",
    "Derivation",
    "Identity",
    "Induction",
    "NonPositive",
    "ParsedIdentity",
    "Refutation",
    "Source",
    "Step",
    "Verdict",
    "Witness",
    "all_claims",
    "claim_ids",
    "decide_identity",
    "get_claim",
    "parse_identity",
    "prove_zero",
    "search_counterexample",
]
