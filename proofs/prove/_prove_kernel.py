"""The Coq step of `ropecheck prove`: check the printed theorem and its domain witness with `coqc`, confined.

The checked lemma is `(exists binders, hypotheses) /\\ (forall binders, hypotheses -> lhs = rhs)`: the second
half is the statement the user typed (`ropecheck.proofs.prove._prove_print`), the first shows its hypotheses are
satisfiable, so the theorem is not vacuous. Only `coqc` accepting it with `Print Assumptions` listing standard
axioms only (`ropecheck.proofs.kernel._kernel.is_standard_axiom`) counts as *checked*.

`coqc` runs through the launcher of `ropecheck.proofs.prove._sandbox` (address-space and CPU limits, killed when
`prove` dies), in its own process group, which is killed on every exit path (time limit, error, interrupt).
Imports no SymPy: this runs in the `prove` process itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..kernel._kernel import _first_error, coqc_path, is_standard_axiom, parse_assumptions
from ._prove_tactics import PRELUDE
from ._sandbox import LAUNCHER, WORKER_MEMORY_BYTES

__all__ = ["COQ_MEMORY_BYTES", "coq_command", "coq_source", "kernel_check"]

COQ_MEMORY_BYTES = WORKER_MEMORY_BYTES  # the same address-space budget as the engine worker
HEADER = """Require Import Reals Lra Lia Psatz ZArith Nsatz.
From Interval Require Import Tactic.
Open Scope R_scope.
""" + PRELUDE
# Printed just before `Print Assumptions`: what a tactic prints (nsatz's "polynomial not in the ideal" for an
# alternative that failed) comes before it and is never read as the assumptions.
MARKER = "ropecheck_assumptions_follow"
_WITNESS_CLOSE = ("first [lra | rc_trig_sign | (apply Rgt_not_eq; apply exp_pos) | interval | nra | (simpl; lra) "
                  "| lia | (compute; lra)]")


def coq_source(coq: dict[str, Any], name: str = "ropecheck_statement") -> str:
    """The `.v` file: the lemma `name` (domain witness /\\ statement), then `Print Assumptions name`."""
    statement, binders, hypotheses = coq["statement"], coq["binders"], coq["hypotheses"]
    if hypotheses:
        conjunction = " /\\ ".join(hypotheses)
        domain = f"exists {binders}, {conjunction}" if binders else conjunction
        witness = f"exists {', '.join(coq['witness'])}; " if coq["witness"] else ""
        domain_script = f"{witness}repeat split; {_WITNESS_CLOSE}"
    else:
        domain, domain_script = "True", "exact I"
    return (
        f"{HEADER}\nLemma {name} :\n  ({domain}) /\\\n  ({statement}).\nProof.\n"
        f"  split; [ {domain_script} | {coq['script']} ].\nQed.\n\n"
        f"Definition {MARKER} := 0%nat.\nPrint {MARKER}.\nPrint Assumptions {name}.\n"
    )


def coq_command(source_name: str, timeout: float) -> list[str]:
    """The confined `coqc` command line (through the limits launcher)."""
    coqc = coqc_path() or "coqc"
    seconds = str(int(timeout) + 1)
    limits = [str(COQ_MEMORY_BYTES), seconds, str(os.getpid())]
    return [sys.executable, "-I", LAUNCHER, *limits, "--", coqc, "-q", source_name]


def _run(command: list[str], cwd: str, timeout: float) -> tuple[int | None, str, str]:
    """coqc's exit code (None at the time limit), its standard output (where `Print Assumptions` writes) and its
    standard error (errors and warnings: a warning must never be read as part of the assumptions)."""
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        start_new_session=True, text=True,
    )
    try:
        output, errors = process.communicate(timeout=timeout)
        return process.returncode, output, errors
    except subprocess.TimeoutExpired:
        return None, "", ""
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        process.wait()


def kernel_check(coq: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Let `coqc` check the statement prepared by `decide_statement`.

    **Arguments:** `coq` (the `coq` entry of `decide_statement`'s answer), `timeout` (seconds for coqc).

    **Returns:** `{"accepted": bool, "status": "checked" | "failed" | "time-limit" | "not-run", "reason": …,
    "statement": the Coq statement}`.
    """
    base = {"statement": coq["statement"], "hypotheses": coq["hypotheses"]}
    if coqc_path() is None:
        return {**base, "accepted": False, "status": "not-run", "reason": "Coq (coqc) is not installed"}
    with tempfile.TemporaryDirectory(prefix="ropecheck-prove-") as tmp:
        (Path(tmp) / "Statement.v").write_text(coq_source(coq), encoding="utf-8")
        code, output, errors = _run(coq_command("Statement.v", timeout), tmp, timeout)
    if code is None:
        return {**base, "accepted": False, "status": "time-limit", "reason": f"coqc ran out of {timeout:.0f} s"}
    if code != 0:
        reason = _first_error(errors + output)
        if "No applicable tactic" in reason:
            reason = "no tactic of the proof script closed the printed goal"
        return {**base, "accepted": False, "status": "failed", "reason": reason}
    _, marker, assumptions = output.partition(f"{MARKER} = 0%nat\n     : nat\n")
    try:
        if not marker:
            raise ValueError(f"no Print Assumptions output: {output[:80]!r}")
        axioms = parse_assumptions(assumptions)
    except ValueError as error:
        return {**base, "accepted": False, "status": "failed", "reason": str(error)}
    extra = [a for a in axioms if not is_standard_axiom(a)]
    if extra:
        return {**base, "accepted": False, "status": "failed", "reason": "non-standard axioms: " + ", ".join(extra)}
    return {**base, "accepted": True, "status": "checked", "reason": "accepted by coqc; standard axioms only"}

