"""Axioms by Coq's independent checker: `coqchk` re-checks the compiled development and names every axiom fully.

`coqchk -o` re-checks each project `.vo` (libraries admitted, `-norec`) and prints the axioms of the environment with
fully qualified names (`Coq.Logic.Classical_Prop.classic`). A theorem's own axioms come from `Print Assumptions`
(short names); each is matched to exactly one of coqchk's names by its dotted suffix. A theorem is accepted only
when every axiom it uses is one of Coq's standard axioms (`STANDARD_AXIOMS_QUALIFIED`) or a primitive-number
specification of Coq's own `Floats`/`Int63` library (what `interval`'s `vm_compute` relies on). A project axiom,
`Parameter`, `Hypothesis`/`Variable` outside a section or an `Admitted` lemma is a `Ropecheck.…` name and fails.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

STANDARD_AXIOMS_QUALIFIED = frozenset(
    {
        "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
        "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",
        "Coq.Logic.PropExtensionality.propositional_extensionality",
        "Coq.Logic.Classical_Prop.classic",
        "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description",
        "Coq.Logic.Eqdep.Eq_rect_eq.eq_rect_eq",
    }
)
"""Coq's standard axioms: classical reals, extensionality, excluded middle, choice, `eq_rect_eq`."""

PRIMITIVE_PREFIXES = (
    "Coq.Floats.PrimFloat.",
    "Coq.Floats.FloatAxioms.",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.",
    "Coq.Numbers.Cyclic.Int63.Uint63.",
)
"""Coq's primitive 64-bit floats and 63-bit integers and their specifications (used by Interval's `vm_compute`)."""

LIBRARY_PREFIXES = ("Coq.", "mathcomp.", "Interval.", "Coquelicot.", "Flocq.", "Bignums.")
"""Where a library name may come from; anything else in coqchk's list (`Ropecheck.…`) is a project axiom."""

COQCHK_TIMEOUT = 600.0


@dataclass(frozen=True)
class CoqchkResult:
    """coqchk's verdict on the compiled development: `ok`, the fully qualified axioms, coqchk's message."""

    ok: bool
    axioms: tuple[str, ...]
    message: str


def coqchk_path() -> str | None:
    return shutil.which("coqchk")


def run_coqchk(build: Path, modules: list[str], root_name: str) -> CoqchkResult:
    """`coqchk -silent -o -R . <root> -norec M …` in `build`: every project module checked, libraries admitted."""
    path = coqchk_path()
    if path is None:
        return CoqchkResult(False, (), "coqchk is not installed")
    arguments = [path, "-silent", "-o", "-R", ".", root_name]
    for module in modules:
        arguments += ["-norec", module]
    try:
        done = subprocess.run(arguments, cwd=build, capture_output=True, text=True, timeout=COQCHK_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return CoqchkResult(False, (), f"coqchk timed out after {COQCHK_TIMEOUT:g} s")
    output = done.stdout + done.stderr
    if done.returncode != 0 or "CONTEXT SUMMARY" not in output:
        lines = [line.strip() for line in output.splitlines() if line.strip()]
        return CoqchkResult(False, (), "coqchk rejected the development: " + " ".join(lines[-3:])[:400])
    return CoqchkResult(True, tuple(parse_coqchk_axioms(output)), "coqchk accepted every project module")


def parse_coqchk_axioms(output: str) -> list[str]:
    """The names under `* Axioms:` of coqchk's context summary (one per line, indented)."""
    names: list[str] = []
    inside = False
    for line in output.splitlines():
        if line.startswith("* Axioms:"):
            inside = True
            continue
        if inside:
            if line.startswith("*"):
                break
            if line.strip():
                names.append(line.split()[0])
    return names


def qualify(short: str, axioms: tuple[str, ...]) -> str | None:
    """The one coqchk name `short` (as `Print Assumptions` printed it) denotes; None when none or several match."""
    found = [name for name in axioms if name == short or name.endswith("." + short)]
    return found[0] if len(found) == 1 else None


def is_accepted_axiom(qualified: str) -> bool:
    """Whether a fully qualified axiom may support a verdict."""
    return qualified in STANDARD_AXIOMS_QUALIFIED or qualified.startswith(PRIMITIVE_PREFIXES)


def judge_axioms(short_names: tuple[str, ...], result: CoqchkResult) -> tuple[tuple[str, ...], str | None]:
    """`(qualified names, None)` when every axiom is accepted, else `(…, reason)`.

    An axiom coqchk does not list (or lists ambiguously) is never accepted: no answer is not "standard".
    """
    if not result.ok:
        return (), result.message
    qualified: list[str] = []
    bad: list[str] = []
    for short in short_names:
        name = qualify(short, result.axioms)
        if name is None:
            bad.append(f"{short} (not named by coqchk)")
            continue
        qualified.append(name)
        if not is_accepted_axiom(name):
            bad.append(name + ("" if name.startswith(LIBRARY_PREFIXES) else " (project axiom)"))
    reason = "non-standard axioms (coqchk): " + ", ".join(bad) if bad else None
    return tuple(qualified), reason
