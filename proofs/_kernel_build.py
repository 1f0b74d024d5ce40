"""Compile the Coq development (cached) and `Print Assumptions` every theorem it declares.

`check_development()` returns a `DevelopmentReport`: per file whether it compiled (and why not), per
theorem `checked` / `failed` / `not-run` with its axioms. Each file's `.vo` is cached under a key made of
the `coqc` version, the file's text and its dependencies' keys, so editing one `.v` file recompiles only it
and what requires it; the whole report is cached under the key of the whole development, so a warm run
starts no Coq process at all. Cache: `$ROPECHECK_KERNEL_CACHE`, default `~/.cache/ropecheck/kernel`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ._coq_sources import SourceFile, read_development
from ._kernel import COQ_ROOT_NAME, DEVELOPMENT, coq_version, is_standard_axiom, parse_assumptions, run_coqc

FILE_TIMEOUT = 600.0  # seconds for one file; running out means the file failed, never that it passed
CACHE_FORMAT = "1"


@dataclass(frozen=True)
class TheoremStatus:
    """One theorem as the kernel saw it: `checked` | `failed` | `not-run`, its axioms and a message."""

    module: str
    theorem: str
    status: str
    axioms: tuple[str, ...] = ()
    message: str = ""


@dataclass(frozen=True)
class FileStatus:
    """One `.v` file: compiled or not (`message` says why), forbidden commands, UNKNOWN notes."""

    module: str
    compiled: bool
    message: str = ""
    forbidden: tuple[str, ...] = ()
    seconds: float = 0.0


@dataclass(frozen=True)
class DevelopmentReport:
    """The kernel's view of the whole development.

    **Arguments:**

    - `version`: the `coqc` version, or None when Coq is not installed (then every theorem is `not-run`).
    - `files`: module → `FileStatus`.
    - `theorems`: theorem name → `TheoremStatus` (names are unique across the development by contract).
    - `unknown`: claim ID → reason, from `(* UNKNOWN X: reason *)` comments.
    - `key`: the content hash the report is cached under.
    """

    version: str | None
    files: dict[str, FileStatus]
    theorems: dict[str, TheoremStatus]
    unknown: dict[str, str] = field(default_factory=dict)
    key: str = ""
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return self.version is not None


def cache_root() -> Path:
    """Where compiled files and reports are kept (outside the repository)."""
    configured = os.environ.get("ROPECHECK_KERNEL_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ropecheck" / "kernel"


def _digest(*parts: str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8"))
        hasher.update(b"\0")
    return hasher.hexdigest()[:32]


def _file_keys(sources: list[SourceFile], version: str) -> dict[str, str]:
    keys: dict[str, str] = {}
    for source in sources:  # dependency order: a file's requirements already have keys
        dependencies = [keys[d] for d in source.requires if d in keys]
        keys[source.path.stem] = _digest(CACHE_FORMAT, version, source.path.read_text(encoding="utf-8"), *dependencies)
    return keys


def check_development(
    root: Path = DEVELOPMENT,
    *,
    jobs: int = 2,
    use_cache: bool = True,
    wanted: Callable[[str], bool] | None = None,
) -> DevelopmentReport:
    """Compile every `.v` in `root` (cached) and read `Print Assumptions` for every declared theorem.

    **Arguments:**

    - `root`: the development (default `proofs/coq`); files are copied, nothing in `root` is written.
    - `jobs`: how many files compile at once (independent files only).
    - `use_cache`: reuse compiled files and the cached report (False compiles everything from scratch).
    - `wanted`: which theorems to print the assumptions of (default all; `Print Assumptions` costs about a
      second per theorem, so the ledger asks only for its claims' theorems).

    **Returns:** a `DevelopmentReport`.
    """
    sources = read_development(root)
    if wanted is not None:
        sources = [dataclasses.replace(s, theorems=tuple(t for t in s.theorems if wanted(t))) for s in sources]
    unknown = {claim: reason for source in sources for claim, reason in source.unknown.items()}
    texts = {name: text for source in sources for name, text in source.texts.items()}
    version = coq_version()
    if version is None:
        theorems = {
            t: TheoremStatus(s.module, t, "not-run", message="coqc is not installed")
            for s in sources
            for t in s.theorems
        }
        files = {s.module: FileStatus(s.module, False, "coqc is not installed", s.forbidden) for s in sources}
        return DevelopmentReport(None, files, theorems, unknown, texts=texts)
    keys = _file_keys(sources, version)
    asked = [t for s in sources for t in s.theorems]
    key = _digest(CACHE_FORMAT, *(f"{name}={k}" for name, k in sorted(keys.items())), *asked)
    report_path = cache_root() / "reports" / f"{key}.json"
    if use_cache and report_path.exists():
        return dataclasses.replace(_load_report(report_path, unknown), texts=texts)
    with tempfile.TemporaryDirectory(prefix="ropecheck-kernel-") as tmp:
        build = Path(tmp)
        for source in sources:
            shutil.copy2(source.path, build / source.path.name)
        files = _compile_all(sources, keys, build, jobs, use_cache)
        theorems = _assumptions_cached(sources, files, build, keys if use_cache else None)
    report = DevelopmentReport(version, files, theorems, unknown, key, texts)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(_dump_report(report)), encoding="utf-8")
    return report


def materialise(dest: Path, root: Path = DEVELOPMENT, *, jobs: int = 2) -> dict[str, FileStatus]:
    """Copy the development into `dest` with every `.vo` (from the cache, compiling what is missing).

    For tools that run their own coqc on top of the development (the mutation meta-tests).
    """
    sources = read_development(root)
    version = coq_version()
    if version is None:
        return {s.module: FileStatus(s.module, False, "coqc is not installed", s.forbidden) for s in sources}
    for source in sources:
        shutil.copy2(source.path, dest / source.path.name)
    return _compile_all(sources, _file_keys(sources, version), dest, jobs, True)


def _compile_all(
    sources: list[SourceFile], keys: dict[str, str], build: Path, jobs: int, use_cache: bool
) -> dict[str, FileStatus]:
    """Compile in waves of files whose requirements are done; a file whose requirement failed is not run."""
    status: dict[str, FileStatus] = {}
    by_stem = {s.path.stem: s for s in sources}
    pending = list(sources)
    while pending:
        ready = [s for s in pending if all(by_stem[d].module in status for d in s.requires if d in by_stem)]
        pending = [s for s in pending if s not in ready]
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = pool.map(lambda s: _compile_one(s, keys, build, status, by_stem, use_cache), ready)
            for source, result in zip(ready, results, strict=True):
                status[source.module] = result
    return status


def _compile_one(
    source: SourceFile,
    keys: dict[str, str],
    build: Path,
    done: dict[str, FileStatus],
    by_stem: dict[str, SourceFile],
    use_cache: bool,
) -> FileStatus:
    import time

    broken = [d for d in source.requires if d in by_stem and not done[by_stem[d].module].compiled]
    if broken:
        return FileStatus(source.module, False, "requires a file that failed: " + ", ".join(broken), source.forbidden)
    stem = source.path.stem
    cached = cache_root() / "vo" / keys[stem]
    if use_cache and (cached / f"{stem}.vo").exists():
        shutil.copy2(cached / f"{stem}.vo", build / f"{stem}.vo")
        return FileStatus(source.module, True, "cached", source.forbidden)
    start = time.perf_counter()
    ok, output = run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, source.path.name], build, FILE_TIMEOUT)
    seconds = time.perf_counter() - start
    if not ok:
        return FileStatus(source.module, False, _error_excerpt(output), source.forbidden, seconds)
    cached.mkdir(parents=True, exist_ok=True)
    shutil.copy2(build / f"{stem}.vo", cached / f"{stem}.vo")
    return FileStatus(source.module, True, "compiled", source.forbidden, seconds)


def _error_excerpt(output: str) -> str:
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        if line.lstrip().startswith("File ") and index + 1 < len(lines):
            return " ".join(x.strip() for x in lines[index : index + 4])[:500]
    return " ".join(lines[-4:])[:500] or "coqc failed"


def _assumptions_cached(
    sources: list[SourceFile], files: dict[str, FileStatus], build: Path, keys: dict[str, str] | None
) -> dict[str, TheoremStatus]:
    """`_assumptions`, reusing per-file answers cached under the file's key (its text and its dependencies')."""
    result: dict[str, TheoremStatus] = {}
    ask: list[SourceFile] = []
    for source in sources:
        path = cache_root() / "assumptions" / f"{keys[source.path.stem]}.json" if keys is not None else None
        if path is not None and path.exists() and files[source.module].compiled:
            cached = json.loads(path.read_text(encoding="utf-8"))
            if set(source.theorems) <= set(cached):
                for name in source.theorems:
                    result[name] = TheoremStatus(**{**cached[name], "axioms": tuple(cached[name]["axioms"])})
                continue
        ask.append(source)
    fresh = _assumptions(ask, files, build)
    result.update(fresh)
    for source in ask:
        if keys is None or not files[source.module].compiled:
            continue
        answers = {name: asdict(fresh[name]) for name in source.theorems if name in fresh}
        path = cache_root() / "assumptions" / f"{keys[source.path.stem]}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        previous = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        path.write_text(json.dumps({**previous, **answers}), encoding="utf-8")
    return result


def _assumptions(sources: list[SourceFile], files: dict[str, FileStatus], build: Path) -> dict[str, TheoremStatus]:
    """One coqc run printing the assumptions of every theorem of every compiled file."""
    result: dict[str, TheoremStatus] = {}
    queries: list[tuple[SourceFile, str]] = []
    for source in sources:
        for theorem in source.theorems:
            if not files[source.module].compiled:
                result[theorem] = TheoremStatus(source.module, theorem, "failed", message=files[source.module].message)
            elif source.forbidden:
                message = "file contains " + ", ".join(source.forbidden)
                result[theorem] = TheoremStatus(source.module, theorem, "failed", message=message)
            else:
                queries.append((source, theorem))
    while queries:
        modules = dict.fromkeys(s.module for s, _ in queries)
        lines = [f"Require {module}." for module in modules]
        lines += [f'Redirect "pa_{i}" Print Assumptions {s.module}.{t}.' for i, (s, t) in enumerate(queries)]
        script = build / "RopecheckAssumptions.v"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        ok, output = run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, script.name], build, FILE_TIMEOUT)
        failing = _failing_query(output, len(modules)) if not ok else None
        for i, (source, theorem) in enumerate(queries):
            out = build / f"pa_{i}.out"
            text = out.read_text(encoding="utf-8") if out.exists() else ""
            out.unlink(missing_ok=True)
            if i == failing or (failing is not None and i > failing):
                continue
            try:
                axioms = tuple(parse_assumptions(text))
            except ValueError:
                result[theorem] = TheoremStatus(source.module, theorem, "failed", message=_error_excerpt(output))
                continue
            extra = [a for a in axioms if not is_standard_axiom(a)]
            status = "failed" if extra else "checked"
            message = ("non-standard axioms: " + ", ".join(extra)) if extra else "standard axioms only"
            result[theorem] = TheoremStatus(source.module, theorem, status, axioms, message)
        if failing is None:
            break
        # the query on line `failing` failed (e.g. a name inside a Section): mark it, ask again for the rest
        source, theorem = queries[failing]
        result[theorem] = TheoremStatus(source.module, theorem, "failed", message=_error_excerpt(output))
        queries = queries[failing + 1 :]
    return result


def _failing_query(output: str, header_lines: int) -> int | None:
    """The index of the query whose line coqc reported an error on (None when it cannot be told)."""
    match = re.search(r'File "\./RopecheckAssumptions\.v", line (\d+)', output)
    if match is None:
        return None
    return int(match.group(1)) - 1 - header_lines


def _dump_report(report: DevelopmentReport) -> dict[str, object]:
    return {
        "version": report.version,
        "key": report.key,
        "files": {k: asdict(v) for k, v in report.files.items()},
        "theorems": {k: asdict(v) for k, v in report.theorems.items()},
    }


def _load_report(path: Path, unknown: dict[str, str]) -> DevelopmentReport:
    data = json.loads(path.read_text(encoding="utf-8"))
    files = {k: FileStatus(**{**v, "forbidden": tuple(v["forbidden"])}) for k, v in data["files"].items()}
    theorems = {k: TheoremStatus(**{**v, "axioms": tuple(v["axioms"])}) for k, v in data["theorems"].items()}
    return DevelopmentReport(data["version"], files, theorems, unknown, data["key"])


def build_command() -> str:
    """One shell command, run from the repository root, that compiles every `.v` file from scratch."""
    return (
        "cd proofs/coq && rm -f *.vo *.vok *.vos *.glob .*.aux && coq_makefile -f _CoqProject -o Makefile.coq "
        "&& make -f Makefile.coq -j2"
    )
