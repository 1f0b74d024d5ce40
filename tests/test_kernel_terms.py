"""The statement bound by its fully elaborated term (ISSUE #35): attacks through a definitions file.

A definitions file is imported before a statement is elaborated, and by the proof file too, so a change there can
change what a statement *means* while its shown text, its binding and its proof all still check: BINARY-3-TO-4-FLIPS-004
stayed *proved* with `flipped_bits` shadowed by a constant function. Each attack below keeps every file compiling;
the pinned `Set Printing All` form of the statement and of every definition it reaches (`_kernel_terms`) must turn
the claim *unknown* naming the changed constant, and `ropecheck claims` must exit 1. The attacks are decided with
the definitions-file allow-list switched off (`_defs_policy`), so that the pins alone are seen catching them; the
allow-list's own refusal is checked on the same texts, and once end to end. The control decides the unmodified copy
(proved) against the pins generated from it, so a failure below is the attack's effect. Seen failing: with
`compare_with_pins` returning None, every attack but the Tactic Notation one leaves the claim proved.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from ropecheck.proofs.claims import _verdicts
from ropecheck.proofs.claims._bound_statements import all_bound
from ropecheck.proofs.claims._verdicts import kernel_verdict
from ropecheck.proofs.kernel import _coq_sources, _kernel, _kernel_coqchk
from ropecheck.proofs.kernel._defs_policy import refusals
from ropecheck.proofs.kernel._kernel import DEVELOPMENT
from ropecheck.proofs.kernel._kernel_build import DevelopmentReport, check_development

pytestmark = pytest.mark.skipif(
    not (_kernel.coq_available() and _kernel_coqchk.coqchk_path()), reason="coqc/coqchk are not installed"
)

CLAIM = "BINARY-3-TO-4-FLIPS-004"
BOUND = [b for b in all_bound() if b.claim_id == CLAIM]
MODULE = BOUND[0].module
DEFS = f"Defs{MODULE}"
HEADER = "From Coq Require Import List Bool.\n"
"""What the copy's definitions file and proofs import: all `flipped_bits` and its two proofs (`vm_compute`) need. Not
the reals nor `Defs.v` as `Binary.v` does: each of the copy's two coqc runs then loads 0.15 CPU-s of libraries, not
0.8, in every build below (issue 36). `Defs.v` is still in the copy: the generated statements file imports it."""

ATTACKS = {  # attack → (lines appended to the definitions file, what the reason must name)
    # ISSUE #35's four lines: a module whose definition shadows the reviewed one once exported
    "module shadow": (
        "Module Shadow. Definition flipped_bits (width p q : nat) : nat := 3. End Shadow. Export Shadow.\n",
        f"Ropecheck.{DEFS}.Shadow.flipped_bits",
    ),
    # an abbreviation: the statement's name now denotes another definition
    "abbreviation": (
        "Definition flipped_bits' (width p q : nat) : nat := 3.\n"
        "Module Abbreviation. Notation flipped_bits := flipped_bits'. End Abbreviation. Export Abbreviation.\n",
        f"Ropecheck.{DEFS}.flipped_bits'",
    ),
    # an infix inside an exported module: `=` on the naturals now means `<=`
    "exported infix": ('Module Ops. Infix "=" := Nat.le : type_scope. End Ops. Export Ops.\n', "PeanoNat.Nat.le"),
    # an edited definition body: the statement's text and term are unchanged, the definition it reaches is not
    "edited definition": (None, f"the definition of Ropecheck.{DEFS}.flipped_bits changed"),
}


def _definition() -> str:
    text = (DEVELOPMENT / f"{DEFS}.v").read_text(encoding="utf-8")
    found = re.search(r"Definition flipped_bits .*?\.\n", text, re.DOTALL)
    assert found is not None
    return found.group(0)


def _proofs() -> str:
    text = (DEVELOPMENT / f"{MODULE}.v").read_text(encoding="utf-8")
    theorems = [re.search(rf"Theorem {b.theorem} :.*?Qed\.\n", text, re.DOTALL) for b in BOUND]
    assert all(theorems)
    return "".join(t.group(0) for t in theorems if t)


def _copy(root: Path, attack: str | None = None, edited: bool = False) -> Path:
    """Defs.v, a definitions file with `flipped_bits` (and the attack after it), the claim's two theorems."""
    root.mkdir()
    shutil.copy2(DEVELOPMENT / "Defs.v", root / "Defs.v")
    definition = _definition()
    if edited:
        definition = definition.replace("(seq 0 width)", "(seq 0 (width - width + 3))")
    (root / f"{DEFS}.v").write_text(HEADER + "Local Open Scope nat_scope.\n" + definition + (attack or ""))
    proofs = HEADER + f"From Ropecheck Require Import {DEFS}.\nLocal Open Scope nat_scope.\n" + _proofs()
    (root / f"{MODULE}.v").write_text(proofs)
    (root / "_CoqProject").write_text(f"-R . Ropecheck\nDefs.v\n{DEFS}.v\n{MODULE}.v\n")
    return root


def run_kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A kernel cache shared by this run's processes: the pytest-xdist workers' base folders share a parent that
    belongs to this run alone (pytest removes it with old runs); without xdist, the process's own base folder. The
    unmodified copy is built into it once per run, for this module and `test_claims_recheck.py` (one build waits
    for the other under the cache's lock, then reads it)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "kernel-cache-binary"
    folder.mkdir(exist_ok=True)
    return folder


def unmodified_pins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The pins of the unmodified copy, generated the way `python -m ropecheck.proofs.claims._pins` does, built in
    `run_kernel_cache`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ROPECHECK_KERNEL_CACHE", str(run_kernel_cache(tmp_path_factory)))
        report = check_development(_copy(tmp_path_factory.mktemp("pins") / "coq"), wanted=lambda _: False, bound=BOUND)
    assert not report.terms["error"], report.terms["error"]
    return {"statements": report.terms["statements"], "constants": report.terms["constants"]}


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The attacks are built in `run_kernel_cache` beside the unmodified copy: only `Defs.v` is the same file there
    (compiled once, not once per cache); every attacked file has a key of its own."""
    return run_kernel_cache(tmp_path_factory)


@pytest.fixture(scope="module")
def pins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return unmodified_pins(tmp_path_factory)


def _decide(root: Path, cache: Path, pins: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> DevelopmentReport:
    monkeypatch.setenv("ROPECHECK_KERNEL_CACHE", str(cache))
    return check_development(root, wanted=lambda _: False, bound=BOUND, pins=pins)


def _claims_exit_code(report: DevelopmentReport, monkeypatch: pytest.MonkeyPatch) -> int:
    from ropecheck.cli._main import main

    monkeypatch.setattr(_verdicts, "kernel_report", lambda: report)
    return main(["claims", "--id", CLAIM, "--no-numeric", "--json"])


def test_control_the_unmodified_copy_matches_its_pins(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, pins: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _decide(_copy(tmp_path / "coq"), run_kernel_cache(tmp_path_factory), pins, monkeypatch)
    verdict = kernel_verdict(CLAIM, report, BOUND)
    assert verdict.verdict == "proved", verdict.reason
    term = pins["statements"][BOUND[0].theorem]["term"]  # type: ignore[index]
    assert f"Ropecheck.{DEFS}.flipped_bits" in term and "@eq nat" in term  # fully qualified, no notation
    assert _claims_exit_code(report, monkeypatch) == 0


# In the default tier one attack per way a pin can differ: the statement's elaborated term (ISSUE #35's module shadow)
# and a definition it reaches (the edited body). The abbreviation and the exported infix change the elaborated term
# too (the same comparison catches them) and are decided with --deep (about 11 CPU-s); the allow-list's refusal of
# every attack's lines stays in the default tier (`test_the_allow_list_refuses_every_attack`).
DEFAULT_ATTACKS = ("module shadow", "edited definition")


@pytest.mark.parametrize(
    "attack", [a if a in DEFAULT_ATTACKS else pytest.param(a, marks=pytest.mark.deep) for a in ATTACKS]
)
def test_a_definitions_file_attack_turns_the_claim_unknown(
    attack: str, tmp_path: Path, cache: Path, pins: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    text, named = ATTACKS[attack]
    monkeypatch.setattr(_coq_sources, "refusals", lambda code, name: ())  # the pins alone must catch it
    root = _copy(tmp_path / "coq", text, edited=text is None)
    report = _decide(root, cache, pins, monkeypatch)
    assert report.files[f"Ropecheck.{MODULE}"].compiled, report.files[f"Ropecheck.{MODULE}"].message
    verdict = kernel_verdict(CLAIM, report, BOUND)
    assert verdict.verdict == "unknown", verdict.reason
    assert "not the pinned statement" in verdict.reason and named in verdict.reason, verdict.reason
    assert _claims_exit_code(report, monkeypatch) == 1
    if text is not None:  # and the allow-list refuses the attack's lines on its own
        assert refusals(text, f"{DEFS}.v"), text


def test_the_allow_list_refuses_every_attack() -> None:
    """The definitions-file allow-list refuses each attack's lines on its own (no kernel run)."""
    for attack, (text, _) in ATTACKS.items():
        if text is not None:
            assert refusals(text, f"{DEFS}.v"), attack


def test_a_tactic_notation_cannot_take_over_the_binding(
    tmp_path: Path, cache: Path, pins: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`exact` redefined to do nothing: the binding is a typed definition, no tactic, so the verdict stands (the
    old `Proof. exact … Qed.` line was taken over); with the allow-list on, the file is refused, line named."""
    attack = 'Tactic Notation "exact" constr(x) := idtac.\n'
    monkeypatch.setattr(_coq_sources, "refusals", lambda code, name: ())
    report = _decide(_copy(tmp_path / "bypassed", attack), cache, pins, monkeypatch)
    assert kernel_verdict(CLAIM, report, BOUND).verdict == "proved"
    monkeypatch.undo()
    report = _decide(_copy(tmp_path / "refused", attack), cache, pins, monkeypatch)
    verdict = kernel_verdict(CLAIM, report, BOUND)
    line = (HEADER + "Local Open Scope nat_scope.\n" + _definition()).count("\n") + 1  # the attack's line in the copy
    refused = f'{DEFS}.v line {line}: `Tactic Notation "exact"'
    assert verdict.verdict == "unknown" and refused in verdict.reason, verdict.reason
    assert _claims_exit_code(report, monkeypatch) == 1


def test_a_claim_without_a_pin_is_unknown(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, pins: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim added after the pins were generated: unknown, with the command that pins it."""
    cache = run_kernel_cache(tmp_path_factory)  # where `pins` built the unmodified copy
    report = _decide(_copy(tmp_path / "coq"), cache, {"statements": {}, "constants": {}}, monkeypatch)
    verdict = kernel_verdict(CLAIM, report, BOUND)
    assert verdict.verdict == "unknown" and "python -m ropecheck.proofs.claims._pins" in verdict.reason
