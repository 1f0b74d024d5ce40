"""Axioms by Coq's independent checker: `coqchk` re-checks the compiled development and names every axiom fully.

`coqchk -o` re-checks each project `.vo` (libraries admitted, `-norec`) and prints the axioms of the environment with
fully qualified names (`Coq.Logic.Classical_Prop.classic`). A theorem's own axioms come from `Print Assumptions`
(short names); each is matched to exactly one of coqchk's names by its dotted suffix. A theorem is accepted only
when every axiom it uses is one of Coq's standard axioms (`STANDARD_AXIOMS_QUALIFIED`) or a primitive-number
specification of Coq's own `Floats`/`Int63` library (what `interval`'s `vm_compute` relies on). A project axiom,
`Parameter`, `Hypothesis`/`Variable` outside a section or an `Admitted` lemma is a `Ropecheck.…` name and fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

STANDARD_AXIOMS_FILE = Path(__file__).resolve().parent.parent / "coq" / "standard_axioms.txt"
"""The reviewed list of accepted axioms, shared with `proofs/coq/check_assumptions.sh` (one place for both)."""


def _accepted_names(section: str) -> tuple[str, ...]:
    """The names and prefixes (ending in ".") under `[section]` of `standard_axioms.txt`."""
    names: list[str] = []
    current = ""
    for line in STANDARD_AXIOMS_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("["):
            current = line.strip("[]")
        elif line and not line.startswith("#") and current == section:
            names.append(line.split()[0])
    return tuple(names)


STANDARD_AXIOMS_QUALIFIED = frozenset(n for n in _accepted_names("standard") if not n.endswith("."))
"""Coq's standard axioms: classical reals, extensionality, excluded middle, choice, `eq_rect_eq`."""

PRIMITIVE_PREFIXES = tuple(n for n in _accepted_names("standard") if n.endswith("."))
"""Coq's primitive 64-bit floats and 63-bit integers and their specifications (used by Interval's `vm_compute`)."""

LIBRARY_PREFIXES = ("Coq.", "mathcomp.", "Interval.", "Coquelicot.", "Flocq.", "Bignums.")
"""Where a library name may come from; anything else in coqchk's list (`Ropecheck.…`) is a project axiom."""

COQCHK_TIMEOUT = 600.0


UNSAFE_SECTIONS = {
    "* Constants/Inductives relying on type-in-type:": "universe checking disabled (type-in-type)",
    "* Constants/Inductives relying on unsafe (co)fixpoints:": "guard checking disabled",
    "* Inductives whose positivity is assumed:": "positivity checking disabled",
}
"""coqchk's context-summary sections that list constants checked with a kernel check switched off, and what each
means; a theorem resting on one of them is reported as `unsafe: <meaning> for <name>`, never as an axiom."""


@dataclass(frozen=True)
class CoqchkResult:
    """coqchk's verdict on the compiled development.

    **Arguments:**

    - `ok`: coqchk accepted every module it was given.
    - `axioms`: the fully qualified names under `* Axioms:`.
    - `message`: coqchk's message (or why it failed).
    - `unsafe`: `(name, what was switched off)` for every name in coqchk's unsafe sections (`UNSAFE_SECTIONS`).
    """

    ok: bool
    axioms: tuple[str, ...]
    message: str
    unsafe: tuple[tuple[str, str], ...] = ()


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
    sections = parse_coqchk_sections(output)
    unsafe = tuple((name, meaning) for header, meaning in UNSAFE_SECTIONS.items() for name in sections.get(header, []))
    return CoqchkResult(
        True, tuple(sections.get("* Axioms:", [])), "coqchk accepted every project module", unsafe
    )


def parse_coqchk_sections(output: str) -> dict[str, list[str]]:
    """coqchk's context summary: each `* Header:` line → the names listed under it (one per indented line).

    coqchk 8.16 prints the summary on stderr; `output` must hold stdout and stderr together. A line that is not
    indented (a warning coqc left, the next header) ends a section.
    """
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        if line.startswith("* "):
            current = sections.setdefault(line.strip(), []) if line.rstrip().endswith(":") else None
            continue
        if current is not None and line.strip():
            name = re.fullmatch(r" {4}([\w'.]+)\s*", line)  # coqchk indents each name by four spaces, alone
            if name is None:
                current = None  # anything else (a warning, the next header) ends the section
            else:
                current.append(name.group(1))
    return sections


def parse_coqchk_axioms(output: str) -> list[str]:
    """The names under `* Axioms:` of coqchk's context summary (one per line, indented)."""
    return parse_coqchk_sections(output).get("* Axioms:", [])


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
    unsafe = dict(result.unsafe)
    for short in short_names:
        switched_off = qualify(short, tuple(unsafe))
        if switched_off is not None:
            qualified.append(switched_off)
            bad.append(f"unsafe: {unsafe[switched_off]} for {switched_off}")
            continue
        name = qualify(short, result.axioms)
        if name is None:
            bad.append(f"{short} (not named by coqchk)")
            continue
        qualified.append(name)
        if not is_accepted_axiom(name):
            bad.append(name + ("" if name.startswith(LIBRARY_PREFIXES) else " (project axiom)"))
    axioms = [b for b in bad if not b.startswith("unsafe: ")]
    reasons = [b for b in bad if b.startswith("unsafe: ")]
    if axioms:
        reasons.append("non-standard axioms (coqchk): " + ", ".join(axioms))
    reason = "; ".join(reasons) if reasons else None
    return tuple(qualified), reason
