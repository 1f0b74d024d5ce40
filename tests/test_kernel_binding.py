"""The attacks of ISSUE #18 on the link between the ledger and the kernel, on temporary copies of Rope.v.

Five attacks on five claims share one copy, decided once (`attacked`: the four theorems of `ATTACKS` replaced, and a
project hypothesis used by one claim's negation); a sixth claim left alone must stay proved in it, so the attacks do
not spill over. The changed library is then tried on that same copy, warm in the cache. Each attack keeps `Rope.v`
compiling and keeps every theorem's *name*; the binding (`Statements<Module>.v`, `exact <proof lemma>` against the
registry's statement), coqchk's fully qualified axioms and the verdict rule must each turn the attacked claim
*unknown* with the reason, and `ropecheck claims` must exit 1. The control test (`--deep`) shows the same harness
deciding the unmodified copy; in the default tier the untouched claim, proved in the attacked copy, is that control.
Only `Defs.v`, `DefsRope.v`, `FloatAxioms.v` and `Rope.v` are compiled (one module-wide cache).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ropecheck.proofs.claims import _verdicts
from ropecheck.proofs.claims._bound_statements import BoundTheorem, all_bound
from ropecheck.proofs.claims._verdicts import KernelVerdict, kernel_verdict
from ropecheck.proofs.kernel import _kernel, _kernel_coqchk
from ropecheck.proofs.kernel._kernel import DEVELOPMENT
from ropecheck.proofs.kernel._kernel_build import DevelopmentReport, check_development

pytestmark = pytest.mark.skipif(
    not (_kernel.coq_available() and _kernel_coqchk.coqchk_path()), reason="coqc/coqchk are not installed"
)

SHIFT, FULL, QK, KV, SINE, LINEAR = (
    "ROPE-SHIFT-INVARIANCE-003",
    "ROPE-FULL-STRENGTH-AT-ZERO",
    "ROPE-QK-RELATIVE",
    "ROPE-KV-COS-ONLY",
    "ROPE-SCORE-SINE-TERM-003",
    "ROPE-LINEAR-ATTENTION-004",
)
CLAIMS = (SHIFT, FULL, QK, KV, SINE, LINEAR)
EXPECTED = {SHIFT: "proved", FULL: "proved", QK: "proved", KV: "refuted", SINE: "refuted", LINEAR: "refuted"}
BOUND = [b for b in all_bound() if b.claim_id in CLAIMS and b.module == "Rope"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("kernel-cache")


def _copy(root: Path, extra: tuple[str, ...] = ()) -> Path:
    root.mkdir()
    for name in ("Defs.v", "DefsRope.v", "Rope.v"):
        shutil.copy2(DEVELOPMENT / name, root / name)
    (root / "_CoqProject").write_text("-R . Ropecheck\n" + "\n".join(("Defs.v", "DefsRope.v", *extra, "Rope.v")) + "\n")
    return root


def _edit(root: Path, theorem: str, replacement: str) -> None:
    """Replace `Theorem <theorem> … Qed.` in Rope.v and drop its instances (they would not compile on it)."""
    path = root / "Rope.v"
    text = path.read_text(encoding="utf-8")
    block = re.compile(rf"Theorem {theorem} :.*?Qed\.\n", re.DOTALL)
    assert block.search(text), theorem
    text = block.sub(lambda _: replacement, text, count=1)
    text = re.sub(rf"Example {theorem}_instance_d\d+ :.*?Qed\.\n", "", text, flags=re.DOTALL)
    path.write_text(text, encoding="utf-8")


def _decide(
    root: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[DevelopmentReport, dict[str, KernelVerdict]]:
    monkeypatch.setenv("ROPECHECK_KERNEL_CACHE", str(cache))
    # One job: the axioms of the few bound theorems are asked in one coqc run per round, not two (each run loads the
    # reals and Coquelicot, about 0.8 CPU-s: issue 36); a pytest-xdist worker has one core to itself anyway.
    report = check_development(root, jobs=1, wanted=lambda name: False, bound=BOUND)
    return report, {claim: kernel_verdict(claim, report, BOUND) for claim in CLAIMS}


def _claims_exit_code(report: DevelopmentReport, claim: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """`ropecheck claims --id <claim> --no-numeric --json` against `report` (the registry's bindings of Rope.v)."""
    from ropecheck.cli._main import main

    monkeypatch.setattr(_verdicts, "kernel_report", lambda: report)
    return main(["claims", "--id", claim, "--no-numeric", "--json"])


def _assert_unknown(
    report: DevelopmentReport, verdict: KernelVerdict, claim: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert verdict.verdict == "unknown" and reason in verdict.reason, verdict.reason
    assert _claims_exit_code(report, claim, monkeypatch) == 1


# A copy of its own (about 12 CPU-s): the attack test below already shows the harness deciding a claim of an attacked
# copy as proved (the fifth claim it leaves alone); the full control runs with --deep.
@pytest.mark.deep
def test_control_the_unmodified_copy_is_decided(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report, verdicts = _decide(_copy(tmp_path / "coq"), cache, monkeypatch)
    assert {claim: v.verdict for claim, v in verdicts.items()} == EXPECTED, {c: v.reason for c, v in verdicts.items()}
    shown = {t.theorem: t.statement for t in verdicts[SHIFT].theorems}
    assert "rope theta h (m + delta) q" in shown["rope_shift_invariance_003"]  # Coq's own elaboration, not the source
    assert report.coqchk.startswith("coqchk accepted")
    assert _claims_exit_code(report, SHIFT, monkeypatch) == 0


def _qk_statement() -> str:
    statement = re.search(
        r"Theorem rope_qk_relative :(.*?)\.\nProof\.", (DEVELOPMENT / "Rope.v").read_text(), re.DOTALL
    )
    assert statement is not None
    return statement.group(1)


# Four attacks, each on another claim's theorem, in one copy of Rope.v, with the project hypothesis of
# `_use_a_project_hypothesis` on a fifth (one compile, coqchk and assumptions run instead of five: a claim's verdict
# reads only its own theorems). ROPE-FULL-STRENGTH-AT-ZERO is left alone and must stay proved in the attacked copy.
ATTACKS = {
    # a trivial restatement keeps the name: `x = x`
    "rope_shift_invariance_003": (
        "Theorem rope_shift_invariance_003 :\n  forall (h : nat) (theta : nat -> R) (q k : vec) (m n delta : R),\n"
        "    dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k)\n"
        "    = dot (2 * h) (rope theta h (m + delta) q) (rope theta h (n + delta) k).\n"
        "Proof. reflexivity. Qed.\n"
    ),
    # a negation of False in place of the claim's negation
    "rope_linear_attention_004_negation": (
        "Theorem rope_linear_attention_004_negation : ~ False.\nProof. intro f; exact f. Qed.\n"
    ),
    # the statement's own text, proved about a `dot` shadowed in a section
    "rope_qk_relative": (
        "Section Shadow.\nLet dot (d : nat) (x y : vec) : R := 0.\n"
        f"Theorem rope_qk_relative :{_qk_statement()}.\nProof. intros; reflexivity. Qed.\nEnd Shadow.\n"
    ),
    # a refutation's correction deleted
    "rope_score_sine_term_003_correction": "",
}


def _use_a_project_hypothesis(root: Path) -> None:
    """`FloatAxioms.v` states `Hypothesis boom : False`; ROPE-KV-COS-ONLY's negation is proved from it."""
    (root / "FloatAxioms.v").write_text("Hypothesis boom : False.\n", encoding="utf-8")
    text = (root / "Rope.v").read_text(encoding="utf-8")
    text = text.replace(
        "From Ropecheck Require Import Defs.\n",
        "From Ropecheck Require Import Defs.\nFrom Ropecheck Require FloatAxioms.\n",
        1,
    )
    (root / "Rope.v").write_text(text, encoding="utf-8")
    statement = re.search(r"Theorem rope_kv_cos_only_negation :(.*?)\.\nProof\.", text, re.DOTALL)
    assert statement is not None
    _edit(
        root,
        "rope_kv_cos_only_negation",
        f"Theorem rope_kv_cos_only_negation :{statement.group(1)}.\n"
        "Proof. exact (False_ind _ FloatAxioms.boom). Qed.\n",
    )


@pytest.fixture(scope="module")
def attacked(
    tmp_path_factory: pytest.TempPathFactory, cache: Path
) -> tuple[Path, DevelopmentReport, dict[str, KernelVerdict]]:
    """Rope.v with every theorem of `ATTACKS` replaced and the project hypothesis used, decided once (the module's
    tests read it; pytest-xdist never decides the copy twice in one worker); the attacked file still compiles (only
    the checks can catch the attacks)."""
    root = _copy(tmp_path_factory.mktemp("attacked") / "coq", extra=("FloatAxioms.v",))
    for theorem, replacement in ATTACKS.items():
        _edit(root, theorem, replacement)
    _use_a_project_hypothesis(root)
    with pytest.MonkeyPatch.context() as patch:
        report, verdicts = _decide(root, cache, patch)
    return root, report, verdicts


def test_each_attack_turns_its_claim_unknown_and_spares_the_others(
    attacked: tuple[Path, DevelopmentReport, dict[str, KernelVerdict]],
    monkeypatch: pytest.MonkeyPatch,
    subtests: pytest.Subtests,
) -> None:
    """Each attack of `ATTACKS` is its own subtest on the one attacked copy."""
    _, report, verdicts = attacked
    assert report.files["Ropecheck.Rope"].compiled
    with subtests.test("the claim no attack touched stays proved"):
        assert verdicts[FULL].verdict == "proved", verdicts[FULL].reason
        assert _claims_exit_code(report, FULL, monkeypatch) == 0
    with subtests.test("a trivial restatement is not the claim"):
        _assert_unknown(report, verdicts[SHIFT], SHIFT, "rejected the bound statement", monkeypatch)
    with subtests.test("a negation of False is not a refutation"):
        _assert_unknown(report, verdicts[LINEAR], LINEAR, "rope_linear_attention_004_negation", monkeypatch)
    with subtests.test("a definition shadowed in a section is not the claim"):
        _assert_unknown(report, verdicts[QK], QK, "rejected the bound statement", monkeypatch)
    with subtests.test("a deleted correction leaves the refutation unknown"):
        negation = next(t for t in verdicts[SINE].theorems if t.theorem == "rope_score_sine_term_003_negation")
        assert negation.status == "checked"  # the negation alone is not a refutation
        _assert_unknown(report, verdicts[SINE], SINE, "correction is not", monkeypatch)


def test_a_project_hypothesis_is_not_a_standard_axiom(
    attacked: tuple[Path, DevelopmentReport, dict[str, KernelVerdict]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, report, verdicts = attacked
    negation = next(t for t in verdicts[KV].theorems if t.theorem == "rope_kv_cos_only_negation")
    assert negation.status == "failed" and "Ropecheck.FloatAxioms.boom (project axiom)" in negation.message
    # asked together with the claim's other theorems first, the group is split: only the theorem using it fails
    correction = next(t for t in verdicts[KV].theorems if t.theorem == "rope_kv_cos_only_correction")
    assert correction.status == "checked" and correction.axioms_scope == "theorem", correction
    assert verdicts[FULL].verdict == "proved"  # claims that do not use it are unaffected
    _assert_unknown(report, verdicts[KV], KV, "FloatAxioms.boom", monkeypatch)


def test_a_changed_library_invalidates_a_warm_cache(
    attacked: tuple[Path, DevelopmentReport, dict[str, KernelVerdict]],
    tmp_path: Path,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attacked copy, warm in the cache (its untouched claim proved), decided again against a broken library:
    mathcomp's `ssreflect`, which `Defs.v`, the root of the copy, loads (so no file compiles and coqchk has next to
    nothing to check: 0.7 CPU-s, not 2.8 with Coquelicot broken under `DefsRope.v`: issue 36)."""
    root, _, decided = attacked
    warm, _ = _decide(root, cache, monkeypatch)
    assert decided[FULL].verdict == "proved"
    broken = tmp_path / "lib" / "mathcomp" / "ssreflect"
    broken.mkdir(parents=True)
    (broken / "ssreflect.vo").write_bytes(b"not a Coq object file\n")
    monkeypatch.setenv("COQPATH", str(tmp_path / "lib"))
    report, verdicts = _decide(root, cache, monkeypatch)
    assert report.key != warm.key and report.environment != warm.environment
    assert not report.files["Ropecheck.Rope"].compiled  # compiled again, against the broken library
    assert all(v.verdict == "unknown" for v in verdicts.values()), {c: v.reason for c, v in verdicts.items()}
    assert _claims_exit_code(report, FULL, monkeypatch) == 1


def test_a_claim_without_a_bound_statement_is_unknown(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = DevelopmentReport("8.16.1", {}, {})
    verdict = kernel_verdict(SHIFT, report, [BoundTheorem("OTHER", "Rope", "other", "True")])
    assert verdict.verdict == "unknown" and verdict.reason.startswith("no bound statement")
