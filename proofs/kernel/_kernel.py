"""The Coq kernel: find `coqc`, check single identities, compile the development and read `Print Assumptions`.

A theorem is **checked** only when its file compiled, it is not in a file with `Admitted`/`Axiom`/…, and its
axioms, named by coqchk, are standard (ISSUE #10 item 3, #18; docs/trusted.md). The development's build and the
ledger's verdicts are in `_kernel_build` and `_verdicts`.

Public for the `prove` command: `coq_available()` and `check_identity(lhs, rhs, timeout=…)`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy as sp

from ._coq_print import HEADER, CannotPrint, identity_statement, lemma, proof_script

STANDARD_AXIOMS = frozenset(
    {
        # Coq's classical axiomatisation of the reals (Reals, since 8.10)
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        # functional and propositional extensionality, excluded middle (Coquelicot, mathcomp's classical parts)
        "FunctionalExtensionality.functional_extensionality_dep",
        "PropExtensionality.propositional_extensionality",
        "Classical_Prop.classic",
        "ClassicalEpsilon.constructive_indefinite_description",
        "Eqdep.Eq_rect_eq.eq_rect_eq",
    }
)
"""The only axioms a checked theorem may depend on besides the primitive-number specifications below."""

STANDARD_AXIOM_MODULES = ("PrimFloat.", "PrimInt63.", "FloatAxioms.", "Uint63.")
"""Coq's primitive 64-bit floats and 63-bit integers and their specifications (used by `interval`)."""

COQ_ROOT_NAME = "Ropecheck"
DEVELOPMENT = Path(__file__).resolve().parent.parent / "coq"


def is_standard_axiom(name: str) -> bool:
    """Whether `name` (short, as `Print Assumptions` prints it, or fully qualified by coqchk) is standard.

    The short form is a first filter only: the ledger's verdicts judge coqchk's fully qualified names
    (`_kernel_coqchk.judge_axioms`), so a project file named `FloatAxioms.v` is never mistaken for Coq's.
    """
    from ._kernel_coqchk import is_accepted_axiom

    return is_accepted_axiom(name) or name in STANDARD_AXIOMS or name.startswith(STANDARD_AXIOM_MODULES)


def error_excerpt(output: str) -> str:
    """The lines of coqc's output that say what failed (the `File …` line and the next three), ≤ 500 characters."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        if line.lstrip().startswith("File ") and index + 1 < len(lines):
            return " ".join(x.strip() for x in lines[index : index + 4])[:500]
    return " ".join(lines[-4:])[:500] or "coqc failed"


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename: a concurrent reader sees the old file or the
    whole new one (the kernel cache is shared by xdist workers and by commands running at once)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def write_verified(path: Path, payload: object) -> None:
    """Write `payload` as JSON with its SHA-256 beside it (`{"sha256": …, "payload": …}`), atomically.

    The digest catches a damaged or hand-edited cache file (`read_verified` treats it as a miss); it is no
    protection against someone who rewrites both (docs/trusted.md: what a cache is trusted for).
    """
    body = json.dumps(payload, sort_keys=True)
    record = {"sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(), "payload": json.loads(body)}
    write_atomically(path, json.dumps(record))


def read_verified(path: Path) -> Any:
    """The payload `write_verified` stored at `path`, or None when the file is missing, damaged or its digest
    does not match (the caller then computes it again)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or set(record) != {"sha256", "payload"}:
        return None
    body = json.dumps(record["payload"], sort_keys=True)
    if hashlib.sha256(body.encode("utf-8")).hexdigest() != record["sha256"]:
        return None
    return record["payload"]


def store(source: Path, destination: Path) -> None:
    """Copy `source` to `destination` atomically (a temporary file, then a rename): a cache reader running at the
    same time (another pytest-xdist worker, another command) sees no file or the whole file, never half a `.vo`."""
    temporary = destination.with_name(f"{destination.name}.{os.getpid()}.tmp")
    shutil.copy2(source, temporary)
    temporary.replace(destination)


# ---------------------------------------------------------------------------------------------- coqc
@functools.cache
def coqc_path() -> str | None:
    """The `coqc` executable (`$ROPECHECK_COQC`, else the one on PATH), or None."""
    configured = os.environ.get("ROPECHECK_COQC")
    if configured is not None:
        return shutil.which(configured) if configured else None
    return shutil.which("coqc")


def coq_available() -> bool:
    """Whether a working `coqc` is installed."""
    return coq_version() is not None


@functools.cache
def coq_version() -> str | None:
    """`"8.16.1"` for the installed `coqc`, or None when there is none (or it does not run)."""
    path = coqc_path()
    if path is None:
        return None
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"version\s+([0-9][0-9A-Za-z.+~-]*)", out)
    return match.group(1) if match else None


def run_coqc(arguments: list[str], cwd: Path, timeout: float) -> tuple[bool, str]:
    """Run `coqc` with `arguments` in `cwd`; `(succeeded, stdout + stderr)`; a timeout is a failure."""
    path = coqc_path()
    if path is None:
        return False, "coqc is not installed"
    try:
        done = subprocess.run([path, *arguments], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return False, f"coqc timed out after {timeout:g} s"
    return done.returncode == 0, done.stdout + done.stderr


def parse_assumptions(text: str) -> list[str]:
    """Axiom names from `Print Assumptions` output (`[]` for "Closed under the global context").

    Each assumption starts at column 0 with `name : type` or `name` followed by an indented `: type` line.
    Output that is neither (empty, an error) raises `ValueError`: no answer is never "no axioms".
    """
    if text.strip() == "Closed under the global context":
        return []
    if not text.lstrip().startswith(("Axioms:", "Section Variables:", "Opaque constants:", "Transparent constants:")):
        raise ValueError(f"not Print Assumptions output: {text[:80]!r}")
    names: list[str] = []
    started = False
    for line in text.splitlines():
        if line.startswith(("Axioms:", "Section Variables:", "Opaque constants:", "Transparent constants:")):
            started = True
            continue
        if started and line and not line[0].isspace():
            names.append(line.split(" : ", 1)[0].split()[0])
    return names


# ------------------------------------------------------------------------------------- single identities
@dataclass(frozen=True)
class KernelResult:
    """The kernel's answer for one printed statement.

    **Arguments:**

    - `status`: `"checked"` (coqc accepted it, only standard axioms), `"failed"` (no script closed it, or
      a non-standard axiom), `"cannot-print"` (the statement has no faithful Coq translation), or
      `"not-run"` (coqc is not installed).
    - `message`: coqc's error, the printer's reason, or a summary.
    - `statement`: the Coq proposition that was checked (empty when it could not be printed).
    - `script`: the proof script tried.
    - `axioms`: what `Print Assumptions` listed.
    """

    status: str
    message: str
    statement: str = ""
    script: str = ""
    axioms: tuple[str, ...] = field(default=())

    @property
    def checked(self) -> bool:
        return self.status == "checked"


IDENTITY_HEADER = "".join(line for line in HEADER.splitlines(keepends=True) if not line.startswith("From Interval "))
"""`check_identity`'s header: `HEADER` without Interval, which its generic scripts (`proof_script`: ring, field,
angle addition, nra) never call, and whose loading is half of a coqc run's start-up (0.6 of 1.3 CPU-s, issue 36)."""


def check_statement(
    statement: str, script: str, *, timeout: float, name: str = "ropecheck_goal", header: str = HEADER
) -> KernelResult:
    """Check `Lemma name : statement. Proof. script Qed.` and its assumptions in a temporary directory, after
    `header` (the libraries; default `HEADER`, with Interval)."""
    if not coq_available():
        return KernelResult("not-run", "coqc is not installed", statement, script)
    text = header + "\n" + lemma(name, statement, script) + f"\nPrint Assumptions {name}.\n"
    with tempfile.TemporaryDirectory(prefix="ropecheck-coq-") as tmp:
        source = Path(tmp) / "Goal.v"
        source.write_text(text, encoding="utf-8")
        ok, output = run_coqc(["-q", source.name], Path(tmp), timeout)
    if not ok:
        return KernelResult("failed", _first_error(output), statement, script)
    try:
        axioms = tuple(parse_assumptions(output))
    except ValueError as error:
        return KernelResult("failed", str(error), statement, script)
    extra = [a for a in axioms if not is_standard_axiom(a)]
    if extra:
        return KernelResult("failed", "non-standard axioms: " + ", ".join(extra), statement, script, axioms)
    return KernelResult("checked", "accepted by coqc; standard axioms only", statement, script, axioms)


def check_identity(lhs: sp.Basic, rhs: sp.Basic, *, timeout: float) -> KernelResult:
    """Print `forall <binders>, lhs = rhs` and let coqc check it with a fixed list of tactic scripts.

    **Arguments:**

    - `lhs`, `rhs`: SymPy expressions (or equal-shape matrices) over real symbols; symbol assumptions
      (integer, positive, nonnegative) become binder types and hypotheses.
    - `timeout`: seconds for the coqc run (every script is tried within one run).

    **Returns:** a `KernelResult` (`checked`, `failed`, `cannot-print` or `not-run`) with the message.
    """
    try:
        statement = identity_statement(lhs, rhs)
        script = proof_script(lhs, rhs)
    except CannotPrint as error:
        return KernelResult("cannot-print", str(error))
    return check_statement(statement, script, timeout=timeout, header=IDENTITY_HEADER)


def _first_error(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        if line.startswith("Error"):
            return " ".join(lines[index : index + 3])[:400]
    return " ".join(lines[-3:])[:400] or "coqc failed"
