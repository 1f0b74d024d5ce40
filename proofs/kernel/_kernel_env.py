"""The Coq environment a compiled `.vo` depends on, as one digest for the kernel cache key (ISSUE #18 point 4).

A warm cache must not outlive the libraries it was built against: the key holds the `coqc` version, the flags,
`$COQPATH`, and a fingerprint of every library `.vo` the development can load — the content digest of the library
modules the sources `Require` by name, and path/size/modification time of every other `.vo` under the library
roots (the standard library `theories/`, `user-contrib/<Library>` for each library the sources name, and every
directory on `$COQPATH`). Replacing or breaking a library (e.g. a different `Interval` on `COQPATH`) changes the key,
so the development is compiled again against it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import subprocess
from pathlib import Path

from ._kernel import coqc_path

_FROM = re.compile(
    r"From\s+([A-Za-z][A-Za-z0-9_]*)\s+Require\s+(?:Import\s+|Export\s+)?([^.]*(?:\.[A-Za-z][^.\s]*)*)\."
)


@functools.cache
def coq_where() -> Path | None:
    """`coqc -where` (the standard library's installation), or None."""
    path = coqc_path()
    if path is None:
        return None
    try:
        out = subprocess.run([path, "-where"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Path(out.strip()) if out.strip() else None


def required_libraries(texts: list[str]) -> dict[str, set[str]]:
    """Library → module names the sources load with `From <Library> Require …` (the project root excluded)."""
    out: dict[str, set[str]] = {}
    for text in texts:
        for library, names in _FROM.findall(text):
            if library != "Ropecheck":
                out.setdefault(library, set()).update(names.split())
    return out


def library_roots(libraries: set[str]) -> list[Path]:
    """The directories the named libraries are loaded from (`$COQPATH` first, as coqc searches it)."""
    roots: list[Path] = []
    for entry in os.environ.get("COQPATH", "").split(os.pathsep):
        if entry:
            roots.append(Path(entry))
    where = coq_where()
    if where is not None:
        roots.append(where / "theories")
        roots += [where / "user-contrib" / name for name in sorted(libraries - {"Coq"})]
    return roots


def environment_digest(texts: list[str], flags: str) -> str:
    """One digest of everything outside the development that a compiled file depends on."""
    hasher = hashlib.sha256()
    where = coq_where()
    hasher.update(f"flags={flags}\0COQPATH={os.environ.get('COQPATH', '')}\0where={where}\0".encode())
    required = required_libraries(texts)
    named = {module.split(".")[-1] for modules in required.values() for module in modules}
    for root in library_roots(set(required)):
        if not root.is_dir():
            hasher.update(f"missing {root}\0".encode())
            continue
        for vo in sorted(root.rglob("*.vo")):
            stat = vo.stat()
            hasher.update(f"{vo}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
            if vo.stem in named:
                hasher.update(hashlib.sha256(vo.read_bytes()).digest())
    return hasher.hexdigest()[:32]
