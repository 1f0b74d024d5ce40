"""Verdicts from the kernel: a claim is *proved* or *refuted* only when coqc checked the theorem that says so.

By the naming contract (ISSUE #10), claim `X` (`x` = lower case, `-` → `_`) is

- *proved* when `x` is `checked` — compiled, no `Admitted`/`Axiom` in its file, and `Print Assumptions` lists
  only standard axioms;
- *refuted* when `x_negation`, a proof of `~ (statement)`, is `checked`;
- statements printed from SymPy and explicit instances (role `instance`) are checked and reported, never decide;
- *unknown* otherwise, with the reason: the `(* UNKNOWN X: reason *)` note, the failing theorem's error, or
  the absence of any theorem;
- *engine only (kernel not run)* when coqc is not installed — never plain "proved".

The correction (`x_correction`) and the literal reading (`x_literal`, `x_literal_negation`) are decided the
same way and reported beside the verdict.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from ._coq_sources import role_of, theorem_base
from ._kernel import COQ_ROOT_NAME, STANDARD_AXIOM_MODULES, STANDARD_AXIOMS, coq_version
from ._kernel_build import DevelopmentReport, build_command, check_development

ENGINE_ONLY = "engine only (kernel not run)"


@dataclass(frozen=True)
class KernelTheorem:
    """One theorem the kernel was asked about for a claim (an entry of `kernel_theorems`)."""

    role: str
    module: str
    theorem: str
    status: str
    axioms: tuple[str, ...] = ()
    message: str = ""
    statement: str = ""
    proof: str = ""

    @property
    def printed(self) -> bool:
        return self.module.endswith(".Printed")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "role": self.role,
            "module": self.module,
            "theorem": self.theorem,
            "status": self.status,
            "axioms": list(self.axioms),
        }
        if self.printed:
            out["printed"] = "printed instance" if "_d" in self.theorem[-4:] else "printed from the SymPy statement"
        if self.status != "checked" and self.message:
            out["message"] = self.message
        if self.statement:
            out["coq_statement"], out["coq_proof"] = self.statement, self.proof
        return out


@dataclass(frozen=True)
class KernelVerdict:
    """The kernel's verdict for one claim.

    **Arguments:**

    - `verdict`: `proved`, `refuted`, `unknown` or `engine only (kernel not run)`.
    - `reason`: which theorem decided it, or why nothing did.
    - `theorems`: every theorem of the claim, by role.
    - `correction`: `proved` when `x_correction` is checked, `unknown` when it exists but is not, None if absent.
    - `literal`: the literal reading's verdict (`proved` / `refuted` / `unknown`), None when there is none.
    """

    verdict: str
    reason: str
    theorems: tuple[KernelTheorem, ...] = field(default=())
    correction: str | None = None
    literal: str | None = None


@functools.cache
def kernel_report() -> DevelopmentReport:
    """The development's report for the ledger's theorems, computed once per process (cached on disk)."""
    from ._ledger import claim_ids

    ids = claim_ids()
    return check_development(wanted=lambda name: any(role_of(claim_id, name) for claim_id in ids))


def _first(theorems: dict[str, KernelTheorem], *names: str) -> KernelTheorem | None:
    for name in names:
        if name in theorems:
            return theorems[name]
    return None


def kernel_theorems(claim_id: str, report: DevelopmentReport) -> tuple[KernelTheorem, ...]:
    """The claim's theorems in the development, found by the naming contract."""
    found = []
    for name, status in report.theorems.items():
        role = role_of(claim_id, name)
        if role is not None:
            statement, proof = report.texts.get(name, ("", ""))
            found.append(
                KernelTheorem(role, status.module, name, status.status, status.axioms, status.message, statement, proof)
            )
    order = {"verdict": 0, "negation": 1, "correction": 2, "literal": 3, "instance": 4}
    return tuple(sorted(found, key=lambda t: (order[t.role], t.printed, t.theorem)))


def _checked(theorem: KernelTheorem | None) -> bool:
    return theorem is not None and theorem.status == "checked"


def kernel_verdict(claim_id: str, report: DevelopmentReport | None = None) -> KernelVerdict:
    """Decide `claim_id` from the kernel's report (the development's report when `report` is None)."""
    report = kernel_report() if report is None else report
    theorems = kernel_theorems(claim_id, report)
    by_name = {t.theorem: t for t in theorems}
    base = theorem_base(claim_id)
    correction = _first(by_name, f"{base}_correction")
    literal, literal_negation = _first(by_name, f"{base}_literal"), _first(by_name, f"{base}_literal_negation")
    correction_verdict = None if correction is None else ("proved" if _checked(correction) else "unknown")
    literal_verdict = None
    if literal is not None or literal_negation is not None:
        literal_verdict = "proved" if _checked(literal) else "refuted" if _checked(literal_negation) else "unknown"
    if not report.ran:
        return KernelVerdict(ENGINE_ONLY, "coqc is not installed", theorems, correction_verdict, literal_verdict)
    # Only the general theorems decide: printed statements and explicit instances are reported, never evidence.
    statement = _first(by_name, base)
    negation = _first(by_name, f"{base}_negation")
    if _checked(statement) and _checked(negation):
        reason = f"the kernel accepted both {statement.theorem} and {negation.theorem}: the development is inconsistent"  # type: ignore[union-attr]
        return KernelVerdict("unknown", reason, theorems, correction_verdict, literal_verdict)
    if _checked(statement):
        reason = f"kernel-checked {statement.module}.{statement.theorem}"  # type: ignore[union-attr]
        return KernelVerdict("proved", reason, theorems, correction_verdict, literal_verdict)
    if _checked(negation):
        reason = f"kernel-checked negation {negation.module}.{negation.theorem}"  # type: ignore[union-attr]
        return KernelVerdict("refuted", reason, theorems, correction_verdict, literal_verdict)
    return KernelVerdict("unknown", _why_unknown(claim_id, statement, negation, report), theorems,
                         correction_verdict, literal_verdict)


def _why_unknown(
    claim_id: str, statement: KernelTheorem | None, negation: KernelTheorem | None, report: DevelopmentReport
) -> str:
    if claim_id in report.unknown:
        return f"the kernel cannot close it: {report.unknown[claim_id]}"
    failed = [t for t in (statement, negation) if t is not None]
    if failed:
        return "; ".join(f"{t.theorem} {t.status}: {t.message}" for t in failed)
    base = theorem_base(claim_id)
    return f"no kernel theorem states this claim (expected {base} or {base}_negation)"


def kernel_info() -> dict[str, Any]:
    """The top-level `"kernel"` object of `ropecheck claims --json` (ISSUE #10, Interface)."""
    report = kernel_report()
    compiled = [f.module for f in report.files.values() if f.compiled]
    failed = {f.module: f.message for f in report.files.values() if not f.compiled}
    return {
        "checker": "coq",
        "version": coq_version(),
        "root": "proofs/coq",
        "build": build_command(),
        "coqc_flags": f"-R proofs/coq {COQ_ROOT_NAME}",
        "ran": report.ran,
        "compiled": compiled,
        "failed_files": failed,
        "standard_axioms": sorted(STANDARD_AXIOMS) + [m + "*" for m in STANDARD_AXIOM_MODULES],
        "cache_key": report.key,
    }
