"""Compile the Coq development and its generated statements files (cached), then judge every theorem's axioms.

`check_development()` returns a `DevelopmentReport`: per file whether it compiled (and why not), per
theorem `checked` / `failed` / `not-run` with its axioms. The registry's bound statements are printed into
`Statements<Module>.v` (`_binding`) and compiled after the proof files, one rejected binding at a time
(`_kernel_statements`); coqchk re-checks every compiled project module and names the axioms and unsafe constants
(`_kernel_coqchk`, cached per module: after an edit only the modules whose keys changed are checked again); every
bound statement's fully elaborated term is printed and compared with its pin (`_kernel_terms`). A definitions file
the allow-list refuses (`_defs_policy`) counts as not compiled.
Each file's `.vo` is cached under a key made of the `coqc` version, the Coq environment (`_kernel_env`: flags,
`COQPATH`, library `.vo` files), the file's text and its dependencies' keys, so editing one `.v` file recompiles
only it and what requires it; the whole report is cached under the key of the whole development, so a warm run
starts no Coq process at all. Cache: `$ROPECHECK_KERNEL_CACHE`, default `~/.cache/ropecheck/kernel`; each JSON
record carries its SHA-256 (`write_verified`), a damaged one is a miss; `use_cache=False` reads nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ._binding import BoundTheorem, statements_file
from ._coq_sources import SourceFile, read_development, read_source
from ._kernel import (
    COQ_ROOT_NAME,
    DEVELOPMENT,
    coq_version,
    error_excerpt,
    read_verified,
    run_coqc,
    store,
    write_verified,
)
from ._kernel_assumptions import assumptions_cached
from ._kernel_coqchk import CoqchkResult, judge_axioms, run_coqchk
from ._kernel_env import environment_digest
from ._kernel_report import DevelopmentReport, FileStatus, TheoremStatus, dump_report, load_report
from ._kernel_statements import compile_statements, load_cached, save_cached
from ._kernel_terms import PRINTING, ElaboratedTerms, compare_with_pins, elaborate_terms, project_constants

FILE_TIMEOUT = 600.0  # seconds for one file; running out means the file failed, never that it passed
CACHE_FORMAT = "5"
COQC_FLAGS = f"-q -R . {COQ_ROOT_NAME}"


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
        text = source.path.read_text(encoding="utf-8")  # and the policy's refusals: a changed policy is a miss
        keys[source.path.stem] = _digest(CACHE_FORMAT, version, text, *source.refused, *dependencies)
    return keys


def check_development(
    root: Path = DEVELOPMENT,
    *,
    jobs: int = 2,
    use_cache: bool = True,
    wanted: Callable[[str], bool] | None = None,
    bound: Sequence[BoundTheorem] = (),
    pins: dict[str, Any] | None = None,
) -> DevelopmentReport:
    """Compile every `.v` in `root` and the generated statements files (cached); read every theorem's axioms.

    **Arguments:**

    - `root`: the development (default `proofs/coq`); files are copied, nothing in `root` is written.
    - `jobs`: how many files compile at once (independent files only).
    - `use_cache`: reuse compiled files and the cached report (False compiles everything from scratch).
    - `wanted`: which theorems of the proof files to print the assumptions of (default all; the bound
      `_verdict` theorems of the statements files are always asked).
    - `bound`: the bound statements to check (the ledger passes `proofs.claims._bound_statements.all_bound()`;
      default none), printed into `Statements<Module>.v` (see `_binding`).
    - `pins`: the pinned fully elaborated forms (`proofs/claims/pinned_terms.json`; see `_kernel_terms`); a bound
      theorem whose term or reached definitions differ from its pin, or that has none, fails. None: not compared
      (the terms are still printed into the report, which is how the pins are generated).

    **Returns:** a `DevelopmentReport`; a bound theorem appears as `<theorem>_verdict` of `Statements<Module>`.
    """
    sources = read_development(root)
    if wanted is not None:
        sources = [dataclasses.replace(s, theorems=tuple(t for t in s.theorems if wanted(t))) for s in sources]
    unknown = {claim: reason for source in sources for claim, reason in source.unknown.items()}
    texts = {name: text for source in sources for name, text in source.texts.items()}
    definitions = _digest(
        *(
            s.path.read_text(encoding="utf-8")
            for s in sorted(sources, key=lambda s: s.path.name)
            if s.path.stem.startswith("Defs")
        )
    )
    version = coq_version()
    with tempfile.TemporaryDirectory(prefix="ropecheck-kernel-") as tmp, contextlib.ExitStack() as held:
        build = Path(tmp)
        statements, owners, missing = _generate_statements(sources, list(bound), build)
        everything = sources + statements
        if version is None:
            theorems = {
                t: TheoremStatus(s.module, t, "not-run", message="coqc is not installed")
                for s in everything
                for t in s.theorems
            }
            files = {s.module: FileStatus(s.module, False, "coqc is not installed", s.forbidden) for s in everything}
            return DevelopmentReport(
                None, files, {**theorems, **missing}, unknown, texts=texts, definitions_digest=definitions
            )
        environment = environment_digest([s.path.read_text(encoding="utf-8") for s in sources], COQC_FLAGS)
        keys = _file_keys(everything, version + environment)
        asked = [t for s in everything for t in s.theorems]
        pinned = json.dumps(pins, sort_keys=True) if pins is not None else "no pins"
        key = _digest(CACHE_FORMAT, *PRINTING, *(f"{name}={k}" for name, k in sorted(keys.items())), *asked, pinned)
        report_path = cache_root() / "reports" / f"{key}.json"
        cached_report = load_report(report_path, unknown) if use_cache else None
        if cached_report is not None:
            return dataclasses.replace(cached_report, texts=texts)
        if use_cache:  # one build per cache at a time (pytest-xdist workers, two commands): the others wait, then read
            held.enter_context(_cache_lock())
            cached_report = load_report(report_path, unknown)
            if cached_report is not None:
                return dataclasses.replace(cached_report, texts=texts)
        for source in sources + statements:
            shutil.copy2(source.path, build / source.path.name)
        files = _compile_all(everything, keys, build, jobs, use_cache, owners)
        statements = [
            dataclasses.replace(
                s, theorems=tuple(t for t in s.theorems if t[: -len("_verdict")] not in files[s.module].rejected)
            )
            for s in statements
        ]
        checker = _coqchk_cached([s for s in everything if files[s.module].compiled], keys, build, use_cache)
        claim_of = {b.verdict_name: b.claim_id for b in bound}
        theorems = assumptions_cached(
            sources + statements,
            files,
            build,
            cache_root() / "assumptions" if use_cache else None,
            keys,
            lambda name: claim_of.get(name, "the file's other theorems"),
            jobs,
            lambda axioms: judge_axioms(axioms, checker)[1] is None,
        )
        theorems = {**_judge(theorems, checker), **missing, **_rejected(statements, files)}
        terms = _terms_cached(sources, statements, files, list(bound), keys, build, use_cache)
        if pins is not None:
            theorems = _compare_with_pins(theorems, list(bound), terms, pins)
        report = DevelopmentReport(
            version, files, theorems, unknown, key, texts, checker.message, definitions, environment, terms.to_json()
        )
        report_path.parent.mkdir(parents=True, exist_ok=True)
        write_verified(report_path, dump_report(report))
    return report


def _terms_cached(
    sources: list[SourceFile],
    statements: list[SourceFile],
    files: dict[str, FileStatus],
    bound: list[BoundTheorem],
    keys: dict[str, str],
    build: Path,
    use_cache: bool,
) -> ElaboratedTerms:
    """The fully elaborated terms of the bound statements (`_kernel_terms`), cached under the statements' keys."""
    compiled = [s for s in statements if files[s.module].compiled]
    modules = {s.module for s in compiled}
    definitions = {
        b.theorem: f"{COQ_ROOT_NAME}.{b.statements_module}.{b.statement_name}"
        for b in bound
        if f"{COQ_ROOT_NAME}.{b.statements_module}" in modules
        and b.theorem not in files[f"{COQ_ROOT_NAME}.{b.statements_module}"].rejected
    }
    constants = project_constants(sources)
    key = _digest(
        CACHE_FORMAT,
        *PRINTING,
        *(keys[s.path.stem] for s in compiled),
        *(f"{k}={v}" for k, v in sorted(definitions.items())),
        *constants,
    )
    path = cache_root() / "terms" / f"{key}.json"
    cached = read_verified(path) if use_cache else None
    if isinstance(cached, dict):
        return ElaboratedTerms.from_json(cached)
    terms = elaborate_terms(build, [s.module for s in compiled], definitions, constants)
    if not terms.error:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_verified(path, terms.to_json())
    return terms


def _compare_with_pins(
    theorems: dict[str, TheoremStatus], bound: list[BoundTheorem], terms: ElaboratedTerms, pins: dict[str, Any]
) -> dict[str, TheoremStatus]:
    """Every checked bound theorem whose fully elaborated statement is not its pinned form fails, with the reason."""
    out = dict(theorems)
    for item in bound:
        status = out.get(item.verdict_name)
        if status is None or status.status != "checked":
            continue
        reason = compare_with_pins(item.theorem, terms, pins)
        if reason is not None:
            out[item.verdict_name] = dataclasses.replace(status, status="failed", message=reason)
    return out


@contextlib.contextmanager
def _cache_lock() -> Iterator[None]:
    """An exclusive lock on the kernel cache (`fcntl.flock` on `<cache>/build.lock`); waits without a time limit:
    a slow machine only makes the wait longer, never a failure."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "build.lock", "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _generate_statements(
    sources: list[SourceFile], bound: list[BoundTheorem], build: Path
) -> tuple[list[SourceFile], dict[str, dict[int, str]], dict[str, TheoremStatus]]:
    """Write `Statements<Module>.v` for every proof module with bound theorems (in `build/generated`).

    **Returns:** the generated files as sources, their line → theorem tables, and a failed status for every
    bound theorem whose proof file is not in the development.
    """
    modules = {s.path.stem for s in sources}
    defs = {m for m in modules if m.startswith("Defs")}
    generated = build / "generated"
    generated.mkdir()
    out: list[SourceFile] = []
    owners: dict[str, dict[int, str]] = {}
    missing: dict[str, TheoremStatus] = {}
    for module in dict.fromkeys(b.module for b in bound):
        mine = [b for b in bound if b.module == module]
        if module not in modules:
            for b in mine:
                message = f"its proof file {module}.v is not in the development"
                missing[b.verdict_name] = TheoremStatus(
                    f"{COQ_ROOT_NAME}.{b.statements_module}", b.verdict_name, "failed", message=message
                )
            continue
        text, owner = statements_file(module, mine, defs)
        path = generated / f"Statements{module}.v"
        path.write_text(text, encoding="utf-8")
        generated_source = read_source(path, COQ_ROOT_NAME)
        out.append(dataclasses.replace(generated_source, theorems=tuple(b.verdict_name for b in mine)))
        owners[path.stem] = owner
    return out, owners, missing


def _rejected(statements: list[SourceFile], files: dict[str, FileStatus]) -> dict[str, TheoremStatus]:
    out = {}
    for source in statements:
        status = files[source.module]
        for theorem, message in status.rejected.items():
            name = theorem + "_verdict"
            out[name] = TheoremStatus(
                source.module,
                name,
                "failed",
                message="the kernel rejected the bound "
                f"statement ({name} : … := {COQ_ROOT_NAME}.{source.path.stem[10:]}.{theorem}): " + message,
            )
        if not status.compiled:
            for name in source.theorems:
                out[name] = TheoremStatus(source.module, name, "failed", message=status.message)
    return out


def _judge(theorems: dict[str, TheoremStatus], checker: CoqchkResult) -> dict[str, TheoremStatus]:
    """Every checked theorem's axioms named by coqchk and judged (`_kernel_coqchk.judge_axioms`)."""
    out = {}
    for name, status in theorems.items():
        by_short_name = status.status == "failed" and status.axioms and status.message.startswith("non-standard")
        if status.status != "checked" and not by_short_name:
            out[name] = status
            continue  # failed for another reason (a file that did not compile, a forbidden command)
        qualified, reason = judge_axioms(status.axioms, checker)
        if reason is None:
            out[name] = dataclasses.replace(status, axioms=qualified, message="standard axioms only (coqchk)")
        else:
            out[name] = dataclasses.replace(status, status="failed", axioms=qualified or status.axioms, message=reason)
    return out


def _coqchk_cached(compiled: list[SourceFile], keys: dict[str, str], build: Path, use_cache: bool) -> CoqchkResult:
    """coqchk on the compiled project modules, cached per module under the module's key: after an edit only the
    modules whose keys changed (the edited file and what requires it) are checked again, in one coqchk run.

    A module's record holds its own project names (axioms and unsafe constants are fully qualified, so each is
    filed under its module) and the library axioms coqchk listed with it; the result is the union of the records.
    A failed run is never cached.
    """
    folder = cache_root() / "coqchk"
    records: dict[str, dict[str, object]] = {}
    missing: list[SourceFile] = []
    for source in compiled:
        record = read_verified(folder / f"{keys[source.path.stem]}.json") if use_cache else None
        if record is None:
            missing.append(source)
        else:
            records[source.module] = record
    if missing:
        result = run_coqchk(build, [s.module for s in missing], COQ_ROOT_NAME)
        if not result.ok:
            return result
        for source in missing:
            mine = source.module + "."
            record = {
                "axioms": [a for a in result.axioms if a.startswith(mine) or not a.startswith(COQ_ROOT_NAME + ".")],
                "unsafe": [list(u) for u in result.unsafe if u[0].startswith(mine)],
            }
            records[source.module] = record
            folder.mkdir(parents=True, exist_ok=True)
            write_verified(folder / f"{keys[source.path.stem]}.json", record)
    axioms = tuple(dict.fromkeys(a for r in records.values() for a in r["axioms"]))  # type: ignore[attr-defined]
    unsafe = tuple(dict.fromkeys(tuple(u) for r in records.values() for u in r["unsafe"]))  # type: ignore[attr-defined]
    message = f"coqchk accepted every project module ({len(missing)} of {len(compiled)} checked now, the rest cached)"
    return CoqchkResult(True, axioms, message, unsafe)


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
    sources: list[SourceFile],
    keys: dict[str, str],
    build: Path,
    jobs: int,
    use_cache: bool,
    owners: dict[str, dict[int, str]] | None = None,
) -> dict[str, FileStatus]:
    """Compile in waves of files whose requirements are done; a file whose requirement failed is not run."""
    status: dict[str, FileStatus] = {}
    by_stem = {s.path.stem: s for s in sources}
    pending = list(sources)
    while pending:
        ready = [s for s in pending if all(by_stem[d].module in status for d in s.requires if d in by_stem)]
        pending = [s for s in pending if s not in ready]
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = pool.map(lambda s: _compile_one(s, keys, build, status, by_stem, use_cache, owners or {}), ready)
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
    owners: dict[str, dict[int, str]],
) -> FileStatus:
    import time

    broken = [d for d in source.requires if d in by_stem and not done[by_stem[d].module].compiled]
    if broken:
        why = "; ".join(f"{d} ({done[by_stem[d].module].message[:300]})" for d in broken)
        return FileStatus(source.module, False, "requires a file that failed: " + why, source.forbidden)
    if source.refused:
        return FileStatus(source.module, False, "refused: " + "; ".join(source.refused), source.forbidden)
    stem = source.path.stem
    cached = cache_root() / "vo" / keys[stem]
    if stem in owners:
        return _compile_statements_cached(source, cached, build, owners[stem], use_cache)
    if use_cache and (cached / f"{stem}.vo").exists():
        shutil.copy2(cached / f"{stem}.vo", build / f"{stem}.vo")
        return FileStatus(source.module, True, "cached", source.forbidden)
    start = time.perf_counter()
    ok, output = run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, source.path.name], build, FILE_TIMEOUT)
    seconds = time.perf_counter() - start
    if not ok:
        return FileStatus(source.module, False, error_excerpt(output), source.forbidden, seconds)
    cached.mkdir(parents=True, exist_ok=True)
    store(build / f"{stem}.vo", cached / f"{stem}.vo")
    return FileStatus(source.module, True, "compiled", source.forbidden, seconds)


def _compile_statements_cached(
    source: SourceFile, cached: Path, build: Path, owner: dict[int, str], use_cache: bool
) -> FileStatus:
    """A generated statements file: cached `.vo` with its rejections and elaborated statements, or compiled."""
    import time

    stem = source.path.stem
    known = load_cached(cached) if use_cache and (cached / f"{stem}.vo").exists() else None
    if known is not None:
        shutil.copy2(cached / f"{stem}.vo", build / f"{stem}.vo")
        return FileStatus(source.module, True, "cached", source.forbidden, 0.0, *known)
    start = time.perf_counter()
    ok, message, rejected, elaborated = compile_statements(
        build / source.path.name,
        owner,
        lambda name: run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, name], build, FILE_TIMEOUT),
        error_excerpt,
    )
    seconds = time.perf_counter() - start
    if not ok:
        return FileStatus(source.module, False, message, source.forbidden, seconds, rejected)
    save_cached(cached, stem, build, rejected, elaborated)
    return FileStatus(source.module, True, "compiled", source.forbidden, seconds, rejected, elaborated)


def build_command() -> str:
    """One shell command, run from the repository root, that compiles every `.v` file from scratch, then the
    statements files printed from the registry, and re-checks every project module with coqchk."""
    return (
        "cd proofs/coq && rm -f *.vo *.vok *.vos *.glob .*.aux Statements*.v "
        "&& coq_makefile -f _CoqProject -o Makefile.coq && make -f Makefile.coq -j2 "
        "&& cd ../.. && PYTHONPATH=. python -m ropecheck.proofs.claims._bound_statements proofs/coq && cd proofs/coq "
        '&& for f in Statements*.v; do coqc -R . Ropecheck "$f" || exit 1; done && ./check_assumptions.sh'
    )
