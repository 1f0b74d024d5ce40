"""The development build and the verdict rules, on small scratch developments (every check seen failing).

A theorem is `checked` only if its file compiled, has no `Admitted`/`Axiom`/…, and `Print Assumptions` shows
only standard axioms; a verdict is proved/refuted only from a checked theorem named after the claim.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ropecheck.proofs.claims._bound_statements import BoundTheorem
from ropecheck.proofs.claims._verdicts import ENGINE_ONLY, kernel_verdict
from ropecheck.proofs.kernel import _kernel, _kernel_build
from ropecheck.proofs.kernel._kernel_build import DevelopmentReport, TheoremStatus, check_development

needs_coq = pytest.mark.skipif(not _kernel.coq_available(), reason="coqc is not installed")

FILES = {
    "Base.v": "Require Import Reals Lra.\nOpen Scope R_scope.\n"
    "Definition sq (x : R) := x * x.\n"
    "Theorem sq_nonneg : forall x, 0 <= sq x. Proof. intros; unfold sq; nra. Qed.\n"
    "Theorem demo_claim : forall x y : R, (x + y) * (x - y) = x * x - y * y. Proof. intros; ring. Qed.\n",
    "Uses.v": "From Ropecheck Require Import Base.\nRequire Import Reals Lra.\nOpen Scope R_scope.\n"
    "Theorem other_claim_negation : ~ (forall x : R, sq x = x). Proof. intro H; specialize (H 2); "
    "unfold sq in H; lra. Qed.\n",
    # The files that must fail state nothing about the reals: no library to load (a coqc run each of 0.1 CPU-s,
    # not 0.6 with Reals: issue 36).
    "Cheat.v": "Theorem admitted_claim : 0 = 1. Proof. Admitted.\n",
    "Sneaky.v": "Variable cheat : 0 = 1.\nTheorem sneaky_claim : 0 = 1. Proof. exact cheat. Qed.\n",
    "Broken.v": "Theorem broken_claim : forall n : nat, n + 1 = n. Proof. intros; reflexivity. Qed.\n",
    "AfterBroken.v": "From Ropecheck Require Import Broken.\nTheorem after_claim : True. Proof. exact I. Qed.\n",
}


def _development(root: Path) -> Path:
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    (root / "_CoqProject").write_text("-R . Ropecheck\n" + "\n".join(FILES) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One kernel cache for the module: the unedited scratch development is compiled once (content-keyed, so an
    edited file is compiled again, and a cold build's statuses are the warm build's: the first test checks both)."""
    return tmp_path_factory.mktemp("kernel-cache")


@pytest.fixture
def scratch(tmp_path: Path, kernel_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROPECHECK_KERNEL_CACHE", str(kernel_cache))
    root = tmp_path / "coq"
    root.mkdir()
    return _development(root)


@needs_coq
def test_only_clean_theorems_are_checked(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = check_development(scratch, jobs=1)  # the two files' axioms asked in one coqc run, not two
    status = {name: t.status for name, t in report.theorems.items()}
    assert status["sq_nonneg"] == status["demo_claim"] == status["other_claim_negation"] == "checked"
    assert status["admitted_claim"] == "failed"  # forbidden command (and an axiom)
    assert status["sneaky_claim"] == "failed"  # a `Variable` outside a section: the scanner names it
    assert "Variable outside a section (line 1)" in report.theorems["sneaky_claim"].message
    assert status["broken_claim"] == "failed" and status["after_claim"] == "failed"
    assert "requires a file that failed" in report.files["Ropecheck.AfterBroken"].message

    # warm: the same report from the cache, without running coqc at all
    def no_coqc(*args: object, **kwargs: object) -> tuple[bool, str]:
        raise AssertionError("coqc ran with a warm cache")

    monkeypatch.setattr(_kernel_build, "run_coqc", no_coqc)
    assert check_development(scratch).theorems == report.theorems


@needs_coq
def test_editing_a_file_invalidates_the_cache(scratch: Path) -> None:
    assert check_development(scratch).theorems["demo_claim"].status == "checked"
    text = (scratch / "Base.v").read_text(encoding="utf-8").replace("(x - y) = x * x - y * y", "(x - y) = x * x")
    (scratch / "Base.v").write_text(text, encoding="utf-8")
    assert check_development(scratch).theorems["demo_claim"].status == "failed"


BOUND = [
    BoundTheorem("DEMO-CLAIM", "Demo", name, "True")
    for name in ("demo_claim", "demo_claim_negation", "demo_claim_correction", "demo_claim_literal")
]


def _report(**statuses: str) -> DevelopmentReport:
    """A report where each named theorem's binding `<name>_verdict` has the given status."""
    theorems = {
        f"{name}_verdict": TheoremStatus("Ropecheck.StatementsDemo", f"{name}_verdict", status, ())
        for name, status in statuses.items()
    }
    return DevelopmentReport("8.16.1", {}, theorems, {"DEMO-OPEN": "needs pi irrational"})


def test_verdict_rules() -> None:
    def verdict(claim: str, report: DevelopmentReport) -> str:
        return kernel_verdict(claim, report, BOUND).verdict

    assert verdict("DEMO-CLAIM", _report(demo_claim="checked")) == "proved"
    assert verdict("DEMO-CLAIM", _report(demo_claim="failed")) == "unknown"
    # a refutation needs the negation and the correction
    assert verdict("DEMO-CLAIM", _report(demo_claim_negation="checked", demo_claim_correction="checked")) == "refuted"
    alone = kernel_verdict("DEMO-CLAIM", _report(demo_claim_negation="checked"), BOUND)
    assert alone.verdict == "unknown" and "correction" in alone.reason
    both = kernel_verdict("DEMO-CLAIM", _report(demo_claim="checked", demo_claim_negation="checked"), BOUND)
    assert both.verdict == "unknown" and "inconsistent" in both.reason
    # a correction or a literal reading alone decides nothing
    assert verdict("DEMO-CLAIM", _report(demo_claim_correction="checked")) == "unknown"
    assert verdict("DEMO-CLAIM", _report(demo_claim_literal="checked")) == "unknown"
    # a theorem of another claim with a common prefix is not this claim's
    assert verdict("DEMO", _report(demo_claim="checked")) == "unknown"
    assert "pi irrational" in kernel_verdict("DEMO-OPEN", _report(), BOUND).reason
    # a checked theorem with the right name but no bound statement decides nothing
    unbound = DevelopmentReport("8.16.1", {}, {"demo_claim": TheoremStatus("Ropecheck.Demo", "demo_claim", "checked")})
    named_only = kernel_verdict("DEMO-CLAIM", unbound, [])
    assert named_only.verdict == "unknown" and "no bound statement" in named_only.reason
    not_run = DevelopmentReport(None, {}, {"demo_claim_verdict": TheoremStatus("M", "demo_claim_verdict", "not-run")})
    assert kernel_verdict("DEMO-CLAIM", not_run, BOUND).verdict == ENGINE_ONLY


def test_theorems_inside_a_module_are_asked_by_their_qualified_name(tmp_path: Path) -> None:
    """`Print Assumptions Ropecheck.Defs.x` finds nothing for a lemma declared inside `Module Big`: it must be asked
    as `Big.x` (a Section adds no prefix; a `Module Type` is no module of the file's namespace)."""
    from ropecheck.proofs.kernel._coq_sources import read_source

    path = tmp_path / "Scoped.v"
    path.write_text(
        "Lemma top : True. Proof. exact I. Qed.\n"
        "Module Big.\nLemma inner : True. Proof. exact I. Qed.\n"
        "Section S.\nLemma in_section : True. Proof. exact I. Qed.\nEnd S.\nEnd Big.\n"
        "Lemma after : True. Proof. exact I. Qed.\n",
        encoding="utf-8",
    )
    assert read_source(path).theorems == ("top", "Big.inner", "Big.in_section", "after")
