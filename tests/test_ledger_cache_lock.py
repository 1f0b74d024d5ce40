"""Two processes never compute the same ledger entries at once: the second waits for the first and reads its result.

The docs build, `ropecheck claims` and the xdist workers share the ledger cache (`numeric/_ledger_cache.py`). The
test holds an entry's lock as "the first process", lets `claim_entries` find no entry, stores the entry, releases
the lock and checks the waiting call read it rather than computing it (a computation fails the test). Seen
failing with the lock disabled. Two processes that start cold split the claims: an entry another process is
computing is left for later and the next one computed meanwhile (seen failing with one lock for the whole cache:
the caller waited before computing anything).
"""

from __future__ import annotations

import fcntl
import threading
from pathlib import Path
from typing import Any

import pytest
from ropecheck.numeric import _ledger_cache
from ropecheck.proofs.kernel._kernel import read_verified, write_verified

CLAIM = "ATT-DOT-SYMMETRIC"


def test_a_second_caller_waits_for_the_lock_and_reads_what_the_first_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    entry_path = tmp_path / _ledger_cache.ledger_key(False) / f"{CLAIM}.json"
    looked = threading.Event()
    read = _ledger_cache._cached

    def cached(path: Path, fuller: Path | None, claim_id: str) -> dict[str, Any] | None:
        found = read(path, fuller, claim_id)
        looked.set()
        return found

    def compute(*args: object) -> dict[str, Any]:
        raise AssertionError("computed an entry another process was computing")

    monkeypatch.setattr(_ledger_cache, "_cached", cached)
    monkeypatch.setattr(_ledger_cache, "_compute", compute)
    result: dict[str, Any] = {}
    lock_path = entry_path.parent / "locks" / f"{CLAIM}.lock"
    lock_path.parent.mkdir(parents=True)
    with open(lock_path, "a", encoding="utf-8") as first:
        fcntl.flock(first, fcntl.LOCK_EX)
        waiting = threading.Thread(target=lambda: result.update(entries=_ledger_cache.claim_entries([CLAIM], False)))
        waiting.start()
        assert looked.wait(timeout=900), "claim_entries never looked at the cache"
        entry_path.parent.mkdir(parents=True, exist_ok=True)
        write_verified(entry_path, {"id": CLAIM, "stored_by": "the first process"})
        fcntl.flock(first, fcntl.LOCK_UN)
    waiting.join()
    assert result["entries"] == [{"id": CLAIM, "stored_by": "the first process"}]


def test_a_cold_caller_computes_the_entries_nobody_else_is_computing_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    other = "ATT-EQUIVARIANCE"
    folder = tmp_path / _ledger_cache.ledger_key(False)
    computed: list[str] = []
    other_computed = threading.Event()

    def compute(claim: Any, path: Path, with_numeric: bool) -> dict[str, Any]:
        computed.append(claim.id)
        other_computed.set()
        return {"id": claim.id, "stored_by": "this process"}

    monkeypatch.setattr(_ledger_cache, "_compute", compute)
    result: dict[str, Any] = {}
    (folder / "locks").mkdir(parents=True)
    with open(folder / "locks" / f"{CLAIM}.lock", "a", encoding="utf-8") as first:
        fcntl.flock(first, fcntl.LOCK_EX)
        caller = threading.Thread(
            target=lambda: result.update(entries=_ledger_cache.claim_entries([CLAIM, other], False))
        )
        caller.start()
        assert other_computed.wait(timeout=900), f"{other} was not computed while {CLAIM} was held elsewhere"
        write_verified(folder / f"{CLAIM}.json", {"id": CLAIM, "stored_by": "the first process"})
        fcntl.flock(first, fcntl.LOCK_UN)
    caller.join()
    assert computed == [other]
    assert result["entries"] == [
        {"id": CLAIM, "stored_by": "the first process"},
        {"id": other, "stored_by": "this process"},
    ]


def test_the_numeric_tables_are_computed_once_per_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`claims --json` and the precision-limit tests read `numeric_tables()`: computed on a miss, then read back
    (a tuple comes back a list, as in the JSON); another key (changed code) computes them again."""
    from ropecheck.numeric import mirrors

    monkeypatch.setenv("ROPECHECK_LEDGER_CACHE", str(tmp_path))
    calls: list[int] = []

    def tables() -> dict[str, Any]:
        calls.append(1)
        return {"decay": {"rows": len(calls)}, "precision_limits": {"offsets": (0, 37)}}

    monkeypatch.setattr(mirrors, "ledger_numeric_tables", tables)
    first = _ledger_cache.numeric_tables()
    assert first == {"decay": {"rows": 1}, "precision_limits": {"offsets": [0, 37]}} and len(calls) == 1
    assert _ledger_cache.numeric_tables() == first and len(calls) == 1  # read back, not recomputed
    stored = tmp_path / _ledger_cache.ledger_key(True) / "_tables.json"
    assert read_verified(stored) == first
    monkeypatch.setattr(_ledger_cache, "ledger_key", lambda with_numeric: "another-key")
    assert _ledger_cache.numeric_tables()["decay"] == {"rows": 2} and len(calls) == 2
