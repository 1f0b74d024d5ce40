"""ropecheck's proof side: the claims ledger, the SymPy engine that finds proofs, and the Coq kernel that decides.

A verdict is *proved* or *refuted* only when the Coq kernel checked the theorem that says so (`_verdicts`);
the SymPy engine's decision is kept beside it as the human-readable derivation. This package never imports
`numeric`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .claims._claim import Claim, Correction, Source
    from .claims._ledger import all_claims, claim_ids, get_claim
    from .claims._verdicts import ENGINE_ONLY, KernelTheorem, KernelVerdict, kernel_info, kernel_verdict
    from .engine._certificate import Counterexample, Decision, Step, Verdict
    from .engine._engine import decide_identity, prove_zero, search_counterexample
    from .engine._statements import AllOf, Derivation, Identity, Induction, NonPositive, Refutation, Witness
    from .kernel._kernel import KernelResult, check_identity, coq_available
    from .prove._parse import BadStatement, ParsedIdentity, parse_identity

# Names load on first use: a module that needs one formula (`proofs.claims._scaling_formulas`, for `audit-config`'s
# literature lines) then builds neither the ledger nor the statement parser (issue #32: ≤ 10 CPU-s per config).
_LAZY = {
    "AllOf": ".engine._statements",
    "BadStatement": ".prove._parse",
    "Claim": ".claims._claim",
    "Correction": ".claims._claim",
    "Counterexample": ".engine._certificate",
    "Decision": ".engine._certificate",
    "Derivation": ".engine._statements",
    "ENGINE_ONLY": ".claims._verdicts",
    "Identity": ".engine._statements",
    "Induction": ".engine._statements",
    "KernelResult": ".kernel._kernel",
    "KernelTheorem": ".claims._verdicts",
    "KernelVerdict": ".claims._verdicts",
    "NonPositive": ".engine._statements",
    "ParsedIdentity": ".prove._parse",
    "Refutation": ".engine._statements",
    "Source": ".claims._claim",
    "Step": ".engine._certificate",
    "Verdict": ".engine._certificate",
    "Witness": ".engine._statements",
    "all_claims": ".claims._ledger",
    "check_identity": ".kernel._kernel",
    "claim_ids": ".claims._ledger",
    "coq_available": ".kernel._kernel",
    "decide_identity": ".engine._engine",
    "get_claim": ".claims._ledger",
    "kernel_info": ".claims._verdicts",
    "kernel_verdict": ".claims._verdicts",
    "parse_identity": ".prove._parse",
    "prove_zero": ".engine._engine",
    "search_counterexample": ".engine._engine",
}

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


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_LAZY[name], __name__), name)
