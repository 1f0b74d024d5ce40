"""Which claims the SymPy engine proves, computed once per test run and shared by the pytest-xdist workers.

The mirror and perturbation meta-tests are parametrised over the claims whose statement the engine proves (a true
statement is what a perturbation must break). Deciding every claim takes ~18 s; at collection every xdist worker
would pay it, so the IDs are read from the ledger cache (computed there on a miss). The first process to take the
lock reads or decides them and writes the IDs (plain JSON, nothing executable) under the run's ID
(`PYTEST_XDIST_TESTRUNUID`); the others wait on the lock, without a time limit, and read them. Without xdist the run
ID is this process's own, so nothing is ever shared between runs.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import tempfile
import uuid
from pathlib import Path

_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex


@functools.cache
def engine_proved_ids() -> tuple[str, ...]:
    """The IDs of the claims `Claim.decide()` proves, in ledger order (decided once per test run)."""
    folder = Path(tempfile.gettempdir()) / f"ropecheck-tests-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    record = folder / f"engine-proved-{_RUN_ID}.json"
    with open(folder / "engine-proved.lock", "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if record.exists():
                return tuple(json.loads(record.read_text(encoding="utf-8")))
            from ropecheck.numeric._ledger_cache import claim_entries

            # The ledger entries carry the engine's verdict (`Claim.to_json()["engine_verdict"]`, from
            # `Claim.decide()`), cached under the content key of proofs/ and numeric/ that the CLI and the docs
            # build share: a warm cache answers in about a second instead of deciding every claim again.
            ids = [e["id"] for e in claim_entries([], with_numeric=False) if e["engine_verdict"] == "proved"]
            record.write_text(json.dumps(ids), encoding="utf-8")
            return tuple(ids)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
