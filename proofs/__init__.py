"""ropecheck's proof side: the claims ledger, the SymPy engine that finds proofs, and the Coq kernel that decides.

A verdict is *proved* or *refuted* only when the Coq kernel checked the theorem that says so (`_verdicts`);
the SymPy engine's decision is kept beside it as the human-readable derivation. This package never imports
`numeric`.
"""

from .claims._claim import Claim, Correction, Source
from .claims._ledger import all_claims, claim_ids, get_claim
from .claims._verdicts import ENGINE_ONLY, KernelTheorem, KernelVerdict, kernel_info, kernel_verdict
from .engine._certificate import Counterexample, Decision, Step, Verdict
from .engine._engine import decide_identity, prove_zero, search_counterexample
from .engine._statements import AllOf, Derivation, Identity, Induction, NonPositive, Refutation, Witness
from .kernel._kernel import KernelResult, check_identity, coq_available
from .prove._parse import BadStatement, ParsedIdentity, parse_identity

__all__ = [
    "ENGINE_ONLY",
    "AllOf",
    "BadStatement",
    "Claim",
    "Correction",
    "Counterexample",
    "Decision",
    "Derivation",
    "Identity",
    "Induction",
    "KernelResult",
    "KernelTheorem",
    "KernelVerdict",
    "NonPositive",
    "ParsedIdentity",
    "Refutation",
    "Source",
    "Step",
    "Verdict",
    "Witness",
    "all_claims",
    "check_identity",
    "claim_ids",
    "coq_available",
    "decide_identity",
    "get_claim",
    "kernel_info",
    "kernel_verdict",
    "parse_identity",
    "prove_zero",
    "search_counterexample",
]
