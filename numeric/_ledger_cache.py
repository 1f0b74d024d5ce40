"""The ledger's entries (`Claim.to_json()` plus the numeric evidence), cached on disk under a content key.

Deciding a claim is deterministic: the SymPy derivation shown beside the verdict, the numeric evidence and the
kernel's verdict follow from the code of `proofs/` and `numeric/`, the Coq development and the library versions.
So an entry is computed once and kept under a key made of all of those — the same discipline as the kernel's own
cache (`proofs/kernel/_kernel_build.py`): the key hashes every source file of both packages (but `numeric/audit/`,
which no entry depends on; an entry without numeric evidence hashes `proofs/` alone), the versions of SymPy,
mpmath, NumPy, JAX and ml_dtypes, the Python version and machine, and the kernel report's own key (every `.v` file
and the `coqc` version) and status, which are read live on every
run. Any change to any of them is a miss.

Each file holds `{"sha256": …, "payload": entry}` (the kernel cache's `write_verified` record): a file whose digest
does not match its entry — damaged, hand-edited, or a bare entry written without one — is a miss and is computed
again (docs/trusted.md: what a cache is trusted for).

Cache: `$ROPECHECK_LEDGER_CACHE`, default `~/.cache/ropecheck/ledger` (beside the kernel cache); delete it at will.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import platform
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from ropecheck.proofs.kernel._kernel import read_verified, write_verified

CACHE_FORMAT = "ledger-entry-2"  # 2: each file carries its SHA-256 (`write_verified`)
_PACKAGES = ("sympy", "mpmath", "numpy", "jax", "jaxlib", "ml_dtypes")
_SOURCE_SUFFIXES = {".py", ".v", ".json", ".g", ""}
# Folders no ledger entry depends on: the audit (the mirrors and the reference never import it) and caches.
_NOT_LEDGER = {"audit", "__pycache__"}


def cache_root() -> Path:
    """Where entries are kept: `$ROPECHECK_LEDGER_CACHE`, or `ledger/` under the user's cache folder."""
    configured = os.environ.get("ROPECHECK_LEDGER_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ropecheck" / "ledger"


def _package_dirs() -> list[Path]:
    import ropecheck.numeric
    import ropecheck.proofs

    return [Path(ropecheck.proofs.__file__).parent, Path(ropecheck.numeric.__file__).parent]


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def ledger_key(with_numeric: bool) -> str:
    """The content key of the entries this installation computes (see the module docstring for what it covers).

    **Arguments:** `with_numeric`: whether the entries carry numeric evidence.

    **Returns:** a 32-hex-digit key.
    """
    from ropecheck.proofs import kernel_info

    hasher = hashlib.sha256()
    for part in (CACHE_FORMAT, sys.version, platform.machine(), str(with_numeric)):
        hasher.update(part.encode() + b"\0")
    for name in _PACKAGES:
        hasher.update(f"{name}={_version(name)}".encode() + b"\0")
    kernel = kernel_info()
    hasher.update(
        json.dumps(
            [
                kernel["version"],
                kernel["cache_key"],
                kernel["ran"],
                sorted(kernel["compiled"]),
                sorted(kernel["failed_files"]),
            ]
        ).encode()
        + b"\0"
    )
    # An entry without numeric evidence is `Claim.to_json()` alone, which only `proofs/` computes (it never imports
    # `numeric/`): its key leaves `numeric/` out, so a change to the numerics keeps those entries.
    for root in _package_dirs() if with_numeric else _package_dirs()[:1]:
        for path in sorted(root.rglob("*")):
            parts = path.relative_to(root).parts
            if path.is_file() and path.suffix in _SOURCE_SUFFIXES and not set(parts) & _NOT_LEDGER:
                hasher.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return hasher.hexdigest()[:32]


def claim_entries(
    ids: Sequence[str],
    with_numeric: bool,
    progress: Callable[[int, int, str], None] | None = None,
    *,
    use_cache: bool = True,
) -> list[dict[str, Any]]:
    """The ledger entries of `ids` (all claims when empty), each from the cache or computed and then stored.

    **Arguments:**

    - `ids`: ledger IDs (already resolved), or empty for every claim.
    - `with_numeric`: add `numeric` (the mirrors' evidence in four dtypes and mpmath) to each entry.
    - `progress`: called as `progress(done, total, claim_id)` before each claim is looked up or computed.
    - `use_cache`: False computes every entry (nothing is read from the cache; the fresh entries are stored).

    **Returns:** one JSON-ready dictionary per claim, in ledger order (`Claim.to_json()` fields).
    """
    from ropecheck.proofs import all_claims, get_claim

    selected = [get_claim(i) for i in ids] if ids else list(all_claims())
    folder = cache_root() / ledger_key(with_numeric)
    # Without numeric evidence an entry is the one with it, less its `numeric` field (the docs build and the
    # default `ropecheck claims` store those): reuse it rather than decide the claim again.
    fuller = None if with_numeric else cache_root() / ledger_key(True)
    found: dict[str, dict[str, Any]] = {}
    pending = list(selected)
    while pending:
        # Each missing entry is computed under its own lock; one another process holds is left for later, so two
        # processes that start cold (the xdist workers, the docs build) split the claims between them.
        postponed = []
        for claim in pending:
            if progress is not None:
                progress(len(found), len(selected), claim.id)
            path = folder / f"{claim.id}.json"
            cached = _cached(path, fuller, claim.id) if use_cache else None
            if cached is not None:
                found[claim.id] = cached
                continue
            with _ClaimLock(folder, claim.id, wait=False) as lock:
                if not lock.held:
                    postponed.append(claim)
                    continue
                cached = _cached(path, fuller, claim.id) if use_cache and lock.taken else None
                found[claim.id] = cached if cached is not None else _compute(claim, path, with_numeric)
        if postponed:  # every one left is being computed elsewhere: wait for the first, then look again
            with _ClaimLock(folder, postponed[0].id, wait=True):
                pass
        pending = postponed
    if progress is not None:
        progress(len(selected), len(selected), "")
    return [found[claim.id] for claim in selected]


def numeric_tables(use_cache: bool = True) -> dict[str, Any]:
    """The ledger's numeric tables (`mirrors.ledger_numeric_tables()`: `decay` and `precision_limits`), from the
    cache or computed once and stored — under the key of the entries with numeric evidence, so any change to the
    code, the libraries or the kernel recomputes them like every entry.

    **Returns:** `{"decay": {...}, "precision_limits": {...}}` in JSON types (lists, not tuples).
    """
    path = cache_root() / ledger_key(True) / "_tables.json"
    with _ComputeLock() as lock:
        cached = _read(path) if use_cache else None
        if cached is None and lock.take() and use_cache:  # wait for whoever computes them, then re-read
            cached = _read(path)
        if cached is not None:
            return cached
        from .mirrors import ledger_numeric_tables

        return _store(path, ledger_numeric_tables())


def _compute(claim: Any, path: Path, with_numeric: bool) -> dict[str, Any]:
    """A claim's entry computed (`Claim.to_json()`, plus the numeric evidence) and stored atomically."""
    entry = claim.to_json()
    if with_numeric:
        from .mirrors import numeric_evidence

        entry["numeric"] = numeric_evidence(claim)
    return _store(path, entry)


def _store(path: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """`entry` in JSON types, written to `path` atomically with its SHA-256 (a read-only cache only costs time);
    returns it."""
    entry = json.loads(json.dumps(_plain(entry), allow_nan=True))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_verified(path, entry)  # atomic: a concurrent reader sees the old file or the whole new one
    except OSError:
        pass  # a read-only cache only costs time
    return entry


def _cached(path: Path, fuller: Path | None, claim_id: str) -> dict[str, Any] | None:
    cached = _read(path)
    if cached is None and fuller is not None:
        cached = _read(fuller / f"{claim_id}.json")
        if cached is not None:
            cached.pop("numeric", None)
    return cached


class _ComputeLock:
    """An exclusive lock on the cache (`fcntl.flock` on `compute.lock`), taken only when an entry must be computed
    and held to the end: two processes (xdist workers, the docs build, a command) never compute the same entries
    at once — the second waits, without a time limit, then reads what the first stored. A cache that cannot be
    written is used without the lock (it only costs time)."""

    def __init__(self) -> None:
        self._handle: Any = None

    def take(self) -> bool:
        """Take the lock (once); True when it was taken now, so the caller reads the cache again."""
        if self._handle is not None:
            return False
        try:
            cache_root().mkdir(parents=True, exist_ok=True)
            self._handle = open(cache_root() / "compute.lock", "a", encoding="utf-8")
        except OSError:
            self._handle = False
            return False
        fcntl.flock(self._handle, fcntl.LOCK_EX)
        return True

    def __enter__(self) -> _ComputeLock:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()


class _ClaimLock:
    """An exclusive lock on one entry (`fcntl.flock` on `<key>/locks/<claim>.lock`), held while it is computed.

    `held` says whether this process may compute the entry: the lock was taken now (`taken`, so the caller reads
    the cache again first), or the cache cannot be written and the entry is computed without a lock (it only costs
    time). With `wait=False` a lock another process holds is not waited for (`held` is False)."""

    def __init__(self, folder: Path, claim_id: str, wait: bool) -> None:
        self._path = folder / "locks" / f"{claim_id}.lock"
        self._wait = wait
        self._handle: Any = None
        self.held = self.taken = False

    def __enter__(self) -> _ClaimLock:
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self._path, "a", encoding="utf-8")
        except OSError:
            self.held = True
            return self
        try:
            fcntl.flock(self._handle, fcntl.LOCK_EX if self._wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._handle.close()
            self._handle = None
            return self
        self.held = self.taken = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()


def _read(path: Path) -> dict[str, Any] | None:
    """A cached entry, or None when it is missing, damaged or its SHA-256 does not match (then it is computed
    again: a forged entry is not trusted)."""
    entry = read_verified(path)
    return entry if isinstance(entry, dict) else None


def _plain(value: Any) -> Any:
    """JSON types only (NumPy scalars to Python numbers, tuples to lists), so a cached entry equals a fresh one."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item) and not isinstance(value, str):
        return value.item()
    return value
