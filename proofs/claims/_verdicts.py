"""Verdicts from the kernel: a claim is *proved* or *refuted* only when coqc checked the registry's statement.

A verdict follows a bound statement, never a theorem's name (ISSUE #18; `_bound_statements`). For claim `X` the
registry binds theorems by role (`x` verdict, `x_negation`, `x_correction`, `x_literal`, `x_literal_negation`); each
is checked as `Statements<Module>.<theorem>_verdict : <registry statement>` closed by `exact` of the proof lemma,
and its axioms are named by `coqchk`. The rule, applied to every claim:

- *proved* when the bound verdict theorem is checked;
- *refuted* when the bound negation **and** every bound correction are checked (a refutation without a checked
  correction is *unknown*: the ledger promises the right statement with every refutation);
- *unknown* otherwise, with the reason: no bound statement, the `(* UNKNOWN X: reason *)` note, a rejected
  binding (coqc's error), a non-standard axiom, or both a statement and its negation checked;
- *engine only (kernel not run)* when coqc is not installed — never plain "proved".

Printed statements and explicit instances found by name (role `instance`) are checked and reported, never decide;
a theorem named like a verdict but absent from the registry is reported as `unbound` and decides nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kernel._coq_sources import role_of
from ..kernel._kernel import COQ_ROOT_NAME, coq_version
from ..kernel._kernel_build import DevelopmentReport, TheoremStatus, build_command, check_development
from ..kernel._kernel_coqchk import PRIMITIVE_PREFIXES, STANDARD_AXIOMS_QUALIFIED
from ..kernel._kernel_terms import PIN_COMMAND
from ._bound_statements import BoundTheorem, all_bound, bound_theorems

ENGINE_ONLY = "engine only (kernel not run)"


@dataclass(frozen=True)
class KernelTheorem:
    """One theorem the kernel was asked about for a claim (an entry of `kernel_theorems`).

    **Arguments:**

    - `role`: `verdict`, `negation`, `correction`, `literal` (bound), `instance`, or `unbound <role>`.
    - `module`, `theorem`: the proof lemma (`Ropecheck.Rope`, `rope_qk_relative`).
    - `status`: `checked`, `failed` or `not-run` — for a bound theorem, the status of its `_verdict` binding.
    - `axioms`: fully qualified (coqchk) for a checked theorem.
    - `axioms_scope`: `theorem` when `Print Assumptions` was asked for it alone; otherwise how it was asked
      together with others (its own axioms are then a subset of `axioms`; see `_kernel_assumptions`).
    - `statement`: the statement Coq elaborated for the binding (`Check` output, with notations).
    - `bound_by`: the generated theorem (`Ropecheck.StatementsRope.rope_qk_relative_verdict`), empty if unbound.
    - `registry_statement`: the statement text of the registry.
    """

    role: str
    module: str
    theorem: str
    status: str
    axioms: tuple[str, ...] = ()
    message: str = ""
    statement: str = ""
    proof: str = ""
    bound_by: str = ""
    registry_statement: str = ""
    axioms_scope: str = "theorem"

    @property
    def printed(self) -> bool:
        return self.module.endswith(".Printed")

    @property
    def bound(self) -> bool:
        return bool(self.bound_by)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "role": self.role,
            "module": self.module,
            "theorem": self.theorem,
            "status": self.status,
            "axioms": list(self.axioms),
            "axioms_scope": self.axioms_scope,
        }
        if self.printed:
            out["printed"] = "printed instance" if "_d" in self.theorem[-4:] else "printed from the SymPy statement"
        if self.status != "checked" and self.message:
            out["message"] = self.message
        if self.bound:
            out["bound_by"] = self.bound_by
            out["elaborated_statement"] = self.statement
            out["registry_statement"] = self.registry_statement
        if self.proof:
            out["coq_proof"] = self.proof
        return out


@dataclass(frozen=True)
class KernelVerdict:
    """The kernel's verdict for one claim.

    **Arguments:**

    - `verdict`: `proved`, `refuted`, `unknown` or `engine only (kernel not run)`.
    - `reason`: which bound theorem decided it, or why nothing did.
    - `theorems`: every theorem of the claim, by role.
    - `correction`: `proved` when every bound correction is checked, `unknown` when one is not, None if none.
    - `literal`: the literal reading's verdict (`proved` / `refuted` / `unknown`), None when none is bound.
    """

    verdict: str
    reason: str
    theorems: tuple[KernelTheorem, ...] = field(default=())
    correction: str | None = None
    literal: str | None = None


_RECHECK = [False]


def recheck() -> None:
    """Decide everything again from nothing in this process: the kernel's caches (compiled files, coqchk, axioms,
    elaborated terms, the report) are neither read nor trusted; fresh results are written back. For `ropecheck
    claims --recheck` and `ropecheck.ledger(use_cache=False)`."""
    _RECHECK[0] = True
    kernel_report.cache_clear()


@functools.cache
def kernel_report() -> DevelopmentReport:
    """The development's report for the ledger's theorems, computed once per process (cached on disk unless
    `recheck()` was called); every bound statement is compared with its pinned elaborated form (`_pins`)."""
    from ._pins import load_pins  # here, so that `python -m ropecheck.proofs.claims._pins` runs it once

    bound = all_bound()
    ids = {item.claim_id for item in bound}  # a claim with no bound statement is unknown, its instances unasked
    return check_development(
        wanted=lambda name: any(role_of(claim_id, name) == "instance" for claim_id in ids),
        bound=bound,
        pins=load_pins(),
        use_cache=not _RECHECK[0],
    )


_ORDER = {"verdict": 0, "negation": 1, "correction": 2, "literal": 3, "instance": 4}


def _bound_status(item: BoundTheorem, report: DevelopmentReport) -> KernelTheorem:
    generated = f"{COQ_ROOT_NAME}.{item.statements_module}"
    status = report.theorems.get(item.verdict_name)
    if status is None:
        status = TheoremStatus(
            generated,
            item.verdict_name,
            "not-run" if not report.ran else "failed",
            message="the binding was not checked",
        )
    elaborated = report.files[generated].elaborated.get(item.theorem, "") if generated in report.files else ""
    elaborated = "\n".join(line.rstrip() for line in elaborated.splitlines())
    proof = report.texts.get(item.theorem, ("", ""))[1]
    return KernelTheorem(
        item.role or "unbound",
        f"{COQ_ROOT_NAME}.{item.module}",
        item.theorem,
        status.status,
        status.axioms,
        status.message,
        elaborated,
        proof,
        f"{generated}.{item.verdict_name}",
        item.statement,
        status.axioms_scope,
    )


def kernel_theorems(
    claim_id: str, report: DevelopmentReport, bound: Sequence[BoundTheorem] | None = None
) -> tuple[KernelTheorem, ...]:
    """The claim's bound theorems (decide) and, found by the naming contract, its instances (reported only).

    `bound` replaces the registry's bindings (for tests on scratch developments).
    """
    bound = bound_theorems(claim_id) if bound is None else tuple(b for b in bound if b.claim_id == claim_id)
    found = [_bound_status(item, report) for item in bound]
    names = {item.theorem for item in bound}
    for name, status in report.theorems.items():
        role = role_of(claim_id, name)
        if role is None or name in names or status.module.startswith(f"{COQ_ROOT_NAME}.Statements"):
            continue
        label = role if role == "instance" else f"unbound {role}"
        found.append(
            KernelTheorem(
                label,
                status.module,
                name,
                status.status,
                status.axioms,
                status.message,
                axioms_scope=status.axioms_scope,
            )
        )
    return tuple(sorted(found, key=lambda t: (_ORDER.get(t.role, 5), t.printed, t.theorem)))


def _checked(theorems: list[KernelTheorem]) -> list[KernelTheorem]:
    return [t for t in theorems if t.status == "checked"]


def kernel_verdict(
    claim_id: str, report: DevelopmentReport | None = None, bound: Sequence[BoundTheorem] | None = None
) -> KernelVerdict:
    """Decide `claim_id` from the kernel's report (the development's report when `report` is None).

    `bound` replaces the registry's bindings (for tests on scratch developments).
    """
    report = kernel_report() if report is None else report
    theorems = kernel_theorems(claim_id, report, bound)
    by_role: dict[str, list[KernelTheorem]] = {}
    for theorem in theorems:
        if theorem.bound:
            by_role.setdefault(theorem.role, []).append(theorem)
    corrections = by_role.get("correction", [])
    correction = (
        None if not corrections else ("proved" if len(_checked(corrections)) == len(corrections) else "unknown")
    )
    literal = _literal_verdict(by_role.get("literal", []))
    if not report.ran:
        return KernelVerdict(ENGINE_ONLY, "coqc is not installed", theorems, correction, literal)
    statement, negation = _checked(by_role.get("verdict", [])), _checked(by_role.get("negation", []))
    if statement and negation:
        both = f"{statement[0].bound_by} and {negation[0].bound_by}"
        reason = f"the kernel accepted both {both}: the development is inconsistent"
        return KernelVerdict("unknown", reason, theorems, correction, literal)
    if statement:
        return KernelVerdict("proved", _because(statement[0]), theorems, correction, literal)
    if negation and correction == "proved":
        checked = ", ".join(t.bound_by for t in corrections)
        return KernelVerdict(
            "refuted", _because(negation[0]) + f"; correction checked: {checked}", theorems, correction, literal
        )
    return KernelVerdict("unknown", _why_unknown(claim_id, by_role, negation, report), theorems, correction, literal)


def _because(theorem: KernelTheorem) -> str:
    return f"kernel-checked {theorem.bound_by} (the registry's statement, proof {theorem.module}.{theorem.theorem})"


def _literal_verdict(literal: list[KernelTheorem]) -> str | None:
    if not literal:
        return None
    for theorem in _checked(literal):
        return "refuted" if theorem.theorem.endswith("_negation") else "proved"
    return "unknown"


def _why_unknown(
    claim_id: str, by_role: dict[str, list[KernelTheorem]], negation: list[KernelTheorem], report: DevelopmentReport
) -> str:
    if claim_id in report.unknown:
        return f"the kernel cannot close it: {report.unknown[claim_id]}"
    if not any(by_role.get(role) for role in ("verdict", "negation")):
        return "no bound statement: the registry binds no verdict or negation theorem to this claim"
    if negation:
        corrections = by_role.get("correction", [])
        if not corrections:
            return f"{negation[0].bound_by} is checked but no correction is bound: a refutation needs both"
        failed = [t for t in corrections if t.status != "checked"]
        return f"{negation[0].bound_by} is checked but its correction is not: " + "; ".join(
            f"{t.bound_by} {t.status}: {t.message}" for t in failed
        )
    return "; ".join(
        f"{t.bound_by} {t.status}: {t.message}" for role in ("verdict", "negation") for t in by_role.get(role, [])
    )


def kernel_info() -> dict[str, Any]:
    """The top-level `"kernel"` object of `ropecheck claims --json` (ISSUE #10, #18)."""
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
        "coqchk": report.coqchk,
        "standard_axioms": sorted(STANDARD_AXIOMS_QUALIFIED) + [m + "*" for m in PRIMITIVE_PREFIXES],
        "definitions_digest": report.definitions_digest,
        "definitions": sorted(m for m in report.files if m.split(".")[-1].startswith("Defs")),
        "environment_digest": report.environment,
        "cache_key": report.key,
        "pinned_terms": "proofs/claims/pinned_terms.json",
        "pin_command": PIN_COMMAND,
        "verdict_rule": "proved: the bound verdict theorem is checked; refuted: the bound negation and every bound "
        "correction are checked; otherwise unknown with the reason (exit 1 unless the development documents it)",
    }
