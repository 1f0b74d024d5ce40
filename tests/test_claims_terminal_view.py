"""The 80-column view of `ropecheck claims` (one row per claim, titles in full, a summary), substring
suggestions for claim IDs, and the ledger cache's key discipline (any change to what decides a claim is a miss)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from ropecheck.numeric import _ledger_cache
from ropecheck.proofs import coq_available
from ropecheck.proofs.kernel._kernel import read_verified, write_verified

from ropecheck.cli._claims_terminal import print_lines, summary_line
from ropecheck.cli._claims_view import resolve_ids

LONG_TITLE = "Attention scores shrink as the relative distance between query and key grows without bound"


def _entry(claim_id: str, verdict: str, title: str = LONG_TITLE, corrected: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": claim_id,
        "verdict": verdict,
        "title": title,
        "sources": [],
        "kernel_theorems": [{"status": "checked"}, {"status": "checked"}],
    }
    if corrected:
        entry["correction"] = {"verdict": "proved"}
    return entry


def test_eighty_columns_one_line_per_claim_legend_and_summary() -> None:
    entries = [
        _entry("ROPE-DECAY-MONOTONE", "refuted", corrected=True),
        _entry("ATT-EQUIVARIANCE", "proved"),
        _entry("SPE-LINEAR-ATTENTION-INCOMPATIBLE", "refuted"),
        _entry("ROPE-ABS-AND-REL", "unknown"),
    ]
    out = io.StringIO()
    print_lines(entries, 80, "8.16.1", out)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    for entry in entries:
        assert sum(line.startswith(entry["id"] + " ") for line in lines) == 1
    assert any("refuted*" in line for line in lines if line.startswith("ROPE-DECAY-MONOTONE"))
    assert out.getvalue().count(LONG_TITLE.split()[-1]) == len(entries), "every title in full"
    assert lines[-1] == "4 claims: 1 proved, 2 refuted, 1 unknown — kernel: Coq 8.16.1"


def test_summary_says_when_the_kernel_did_not_run() -> None:
    line = summary_line([_entry("A", "engine only (kernel not run)")], None)
    assert line == "1 claim: 1 engine only (kernel not run) — kernel: not run (Coq is not installed)"


def test_unknown_id_suggests_every_claim_that_contains_it() -> None:
    known = ["ROPE-DECAY-TO-ZERO", "ROPE-DECAY-BOUND", "ATT-EQUIVARIANCE", "SPE-DOT-RELATIVE"]
    resolved, errors = resolve_ids(["decay"], known)
    assert resolved == [] and len(errors) == 1
    assert "ROPE-DECAY-TO-ZERO" in errors[0] and "ROPE-DECAY-BOUND" in errors[0]
    assert "ATT-EQUIVARIANCE" not in errors[0]


@pytest.fixture
def fake_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proofs"
    (root / "coq").mkdir(parents=True)
    (root / "_claims.py").write_text("CLAIMS = 1\n")
    (root / "coq" / "Defs.v").write_text("Definition x := 1.\n")
    kernel = {"version": "8.16.1", "cache_key": "k1", "ran": True, "compiled": ["Defs"], "failed_files": {}}
    monkeypatch.setattr(_ledger_cache, "_package_dirs", lambda: [root])
    monkeypatch.setattr("ropecheck.proofs.kernel_info", lambda: dict(kernel))
    return root


@pytest.mark.parametrize("change", ["python source", "coq source", "numeric on", "new file"])
def test_the_ledger_cache_key_changes_with_what_decides_a_claim(fake_sources: Path, change: str) -> None:
    before = _ledger_cache.ledger_key(with_numeric=False)
    assert _ledger_cache.ledger_key(with_numeric=False) == before, "the key is deterministic"
    numeric = change == "numeric on"
    if change == "python source":
        (fake_sources / "_claims.py").write_text("CLAIMS = 2\n")
    elif change == "coq source":
        (fake_sources / "coq" / "Defs.v").write_text("Definition x := 2.\n")
    elif change == "new file":
        (fake_sources / "_more.py").write_text("\n")
    assert _ledger_cache.ledger_key(with_numeric=numeric) != before


def test_only_the_entries_with_numeric_evidence_follow_the_numerics(
    fake_sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry without numeric evidence is computed by `proofs/` alone: a change in `numeric/` keeps its key
    (seen failing when both keys hashed both packages) and changes the key of the entries with numeric evidence."""
    numeric = tmp_path / "numeric"
    numeric.mkdir()
    (numeric / "_mirror.py").write_text("BOUND = 1\n")
    monkeypatch.setattr(_ledger_cache, "_package_dirs", lambda: [fake_sources, numeric])
    before = {flag: _ledger_cache.ledger_key(with_numeric=flag) for flag in (False, True)}
    (numeric / "_mirror.py").write_text("BOUND = 2\n")
    assert _ledger_cache.ledger_key(with_numeric=False) == before[False]
    assert _ledger_cache.ledger_key(with_numeric=True) != before[True]
    (fake_sources / "_claims.py").write_text("CLAIMS = 3\n")
    assert _ledger_cache.ledger_key(with_numeric=False) != before[False]


def test_the_ledger_cache_key_follows_the_kernel_report(fake_sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _ledger_cache.ledger_key(with_numeric=False)
    kernel = {"version": "8.16.1", "cache_key": "k1", "ran": False, "compiled": [], "failed_files": {}}
    monkeypatch.setattr("ropecheck.proofs.kernel_info", lambda: kernel)
    assert _ledger_cache.ledger_key(with_numeric=False) != before


def test_a_cached_entry_equals_a_fresh_one_and_a_damaged_one_is_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ropecheck.proofs import get_claim

    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    claim_id = "ATT-DOT-SYMMETRIC"
    fresh = json.loads(json.dumps(get_claim(claim_id).to_json()))
    first = _ledger_cache.claim_entries([claim_id], with_numeric=False)
    stored = list(tmp_path.rglob(f"{claim_id}.json"))
    assert first == [fresh] and len(stored) == 1
    assert _ledger_cache.claim_entries([claim_id], with_numeric=False) == [fresh]
    stored[0].write_text("{not json")
    assert _ledger_cache.claim_entries([claim_id], with_numeric=False) == [fresh]
    assert read_verified(stored[0]) == fresh


def test_a_forged_ledger_entry_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached entry is read only when its SHA-256 matches: an entry rewritten by hand (a refuted claim turned
    'proved', the digest left as it was) or written without a digest is computed again and the forgery replaced.
    Seen failing with `_read` returning the stored JSON unchecked (the forged 'proved' came back)."""
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    claim_id = "ATT-CAUSAL-ROW"
    fresh = _ledger_cache.claim_entries([claim_id], with_numeric=False)
    assert fresh[0]["verdict"] != "proved" or not coq_available()
    (stored,) = tmp_path.rglob(f"{claim_id}.json")
    record = json.loads(stored.read_text())
    record["payload"]["verdict"] = "proved"
    for forged in (record, record["payload"]):
        stored.write_text(json.dumps(forged))
        assert _ledger_cache.claim_entries([claim_id], with_numeric=False) == fresh
        assert read_verified(stored) == fresh[0]


def test_an_unknown_id_is_reported_without_deciding_anything(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ropecheck.cli import _main as _cli

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("an unknown ID must be reported before any claim is decided or the kernel is run")

    monkeypatch.setattr(_cli, "_claims_json", refuse)
    monkeypatch.setattr("ropecheck.proofs.kernel_info", refuse)
    assert _cli.main(["claims", "show", "rope-decay", "--no-numeric"]) == _cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert error.startswith("ropecheck: error: unknown claim ID 'rope-decay'; did you mean ROPE-DECAY-")
    assert error.count("\n") == 1


def test_entries_without_numbers_reuse_the_entries_with_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    claim_id = "ATT-DOT-SYMMETRIC"
    stored = {"id": claim_id, "marker": "from the cache with numeric evidence", "numeric": {"float32": {}}}
    folder = tmp_path / _ledger_cache.ledger_key(True)
    folder.mkdir()
    write_verified(folder / f"{claim_id}.json", stored)
    assert _ledger_cache.ledger_key(False) != _ledger_cache.ledger_key(True)
    assert _ledger_cache.claim_entries([claim_id], with_numeric=False) == [
        {"id": claim_id, "marker": "from the cache with numeric evidence"}
    ]


def test_prove_prints_a_counterexample_in_words_not_as_python_dicts() -> None:
    """Issue 36: `prove` showed `counterexample {'x': '1'}, residual … in {'re': '[…]'}`."""
    from ropecheck.cli._prove import _text

    result = {
        "verdict": "refuted",
        "method": "interval-counterexample",
        "counterexample": {"x": "1", "y": "-1"},
        "residual": "-1 + cos(1)**2",
        "interval": {"re": "[-0.708073418273571, -0.708073418273571]"},
    }
    line = _text(result)
    assert "{" not in line and "'" not in line, line
    assert "counterexample x = 1, y = -1: left − right = -1 + cos(1)**2, certified real part in [-0.708" in line
