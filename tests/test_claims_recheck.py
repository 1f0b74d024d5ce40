"""`ropecheck claims --recheck` decides everything from nothing (ISSUE #35): no kernel or ledger cache is read.

On a small copy of the development (BINARY-3-TO-4-FLIPS-004's definitions file and proofs, as in
test_kernel_terms.py), a first run fills both caches; then both are forged — the kernel's cached report with a
valid digest says the verdict theorem failed, the ledger's cached entry says *refuted* — and a plain run shows the
forgery (the caches are read), while `--recheck` reproduces the first run's verdicts exactly. Seen failing with
`--recheck` ignored (the forged entry is shown).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from ropecheck.proofs.claims import _verdicts
from ropecheck.proofs.kernel import _kernel, _kernel_coqchk
from ropecheck.proofs.kernel._kernel import read_verified, write_verified
from ropecheck.proofs.kernel._kernel_build import check_development

from ropecheck.cli._main import main

from .test_kernel_terms import BOUND, CLAIM, _copy, run_kernel_cache, unmodified_pins

pytestmark = pytest.mark.skipif(
    not (_kernel.coq_available() and _kernel_coqchk.coqchk_path()), reason="coqc/coqchk are not installed"
)


@pytest.fixture(autouse=True)
def _fresh_kernel_report() -> Any:
    """`kernel_report` is cached per process: what these tests compute from a small copy of the development must
    not stay behind for the next test in this worker (every other claim would read 'the binding was not
    checked')."""
    _verdicts.kernel_report.cache_clear()
    yield
    _verdicts.kernel_report.cache_clear()


def _claims(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    _verdicts.kernel_report.cache_clear()
    code = main(["claims", "--id", CLAIM, "--no-numeric", "--json", *extra])
    entry = json.loads(capsys.readouterr().out)["claims"][0]
    theorems = [(t["theorem"], t["status"], t.get("message", "")) for t in entry["kernel_theorems"]]
    return code, {"verdict": entry["verdict"], "reason": entry["verdict_reason"], "theorems": theorems}


def test_recheck_ignores_forged_caches_and_reproduces_the_verdicts(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The first run fills a cache of this test's own: a copy of the run's cache where test_kernel_terms.py's
    # unmodified copy (the same files) was built, so the first run reads its compiled files (one build fewer).
    pins = unmodified_pins(tmp_path_factory)
    kernel_cache, ledger_cache = tmp_path / "kernel", tmp_path / "ledger"
    # The other worker may be writing test_kernel_terms.py's attacks into the run's cache meanwhile: every record
    # lands there by a rename, so only a temporary name can vanish mid-copy; those are left out.
    shutil.copytree(run_kernel_cache(tmp_path_factory), kernel_cache, ignore=shutil.ignore_patterns("*.tmp"))
    monkeypatch.setenv("ROPECHECK_KERNEL_CACHE", str(kernel_cache))
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(ledger_cache))
    root = _copy(tmp_path / "coq")
    asked: list[bool] = []

    def development(**options: Any) -> Any:
        asked.append(options["use_cache"])
        return check_development(root, wanted=lambda _: False, bound=BOUND, pins=pins, use_cache=options["use_cache"])

    monkeypatch.setattr(_verdicts, "check_development", development)
    monkeypatch.setattr(_verdicts, "_RECHECK", [False])
    first = _claims(capsys)
    assert first == (0, first[1]) and first[1]["verdict"] == "proved", first

    for path in (kernel_cache / "reports").glob("*.json"):  # a forged report, its digest recomputed
        report = read_verified(path)
        for theorem in report["theorems"].values():
            theorem.update(status="failed", message="forged")
        write_verified(path, report)
    for path in ledger_cache.rglob(f"{CLAIM}.json"):  # a forged entry, its digest recomputed (a bare edit is a miss)
        entry = read_verified(path)
        assert entry is not None, path
        write_verified(path, {**entry, "verdict": "refuted"})
    forged = _claims(capsys)
    assert forged[1]["verdict"] == "refuted"  # the plain run reads the ledger's cache
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path / "empty-ledger"))
    assert "forged" in _claims(capsys)[1]["reason"]  # and the kernel's
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(ledger_cache))

    asked.clear()
    rechecked = _claims(capsys, "--recheck")
    assert asked == [False]  # the kernel was asked to read no cache
    assert rechecked == first


def test_a_damaged_or_edited_cache_record_is_a_miss(tmp_path: Path) -> None:
    """The digest beside each kernel-cache record: an edit that does not recompute it, or a torn write, is a miss
    (the record is computed again). Seen failing with `read_verified` returning the payload unchecked."""
    path = tmp_path / "record.json"
    write_verified(path, {"status": "failed", "axioms": ["Ropecheck.X.boom"]})
    assert read_verified(path) == {"status": "failed", "axioms": ["Ropecheck.X.boom"]}
    path.write_text(path.read_text(encoding="utf-8").replace('"failed"', '"checked"'), encoding="utf-8")
    assert read_verified(path) is None
    path.write_text('{"sha256": "', encoding="utf-8")
    assert read_verified(path) is None
