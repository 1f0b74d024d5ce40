"""Which claims the SymPy engine proves, shared by the pytest-xdist workers through the ledger cache.

The mirror and perturbation meta-tests are parametrised over the claims whose statement the engine proves (a true
statement is what a perturbation must break). Deciding every claim takes ~18 s; the IDs are read from the ledger
entries (`numeric._ledger_cache.claim_entries`, which carry the engine's verdict), cached under the content key of
proofs/ and numeric/ that the CLI and the docs build share. On a cold cache the workers collecting at the same time
split the claims between them (each missing entry is computed under its own lock, one another process holds is
waited for), so neither core waits idle while the other decides everything; a warm cache answers in about a second.
"""

from __future__ import annotations

import functools


@functools.cache
def engine_proved_ids() -> tuple[str, ...]:
    """The IDs of the claims `Claim.decide()` proves, in ledger order."""
    from ropecheck.numeric._ledger_cache import claim_entries

    return tuple(e["id"] for e in claim_entries([], with_numeric=False) if e["engine_verdict"] == "proved")
