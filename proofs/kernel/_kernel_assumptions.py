"""Which axioms each theorem of the compiled development rests on: `Print Assumptions`, asked once per group.

One `Print Assumptions` walks the whole closure of a theorem — for anything over the reals that is most of the
standard library's `Reals` and the Interval library, about 0.7 s each on this machine, and the development has some
400 theorems. So theorems are asked in **groups**: the bound `_verdict` theorems of one claim together (the axioms
the claim's verdict rests on), the other theorems of a file together. A group's answer is the union of its members'
axioms — `Print Assumptions` of `(@t₁, …, @tₙ)` — so each member's own axioms are a subset of it, and a member is
judged on the union: *standard axioms only* for the group means standard axioms only for each member. When a group's
union names anything that is not a standard axiom, or the group's query fails (a name inside a `Section`), its
members are asked one by one, so the theorem that uses the axiom, and only it, fails. Every status says which it
was (`axioms_scope`). Groups run in `jobs` coqc processes at once. Serves ISSUE #18 (axioms judged per theorem,
from a clean build in ≤ 90 s) for every claim.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from ._coq_sources import SourceFile
from ._kernel import (
    COQ_ROOT_NAME,
    error_excerpt,
    is_standard_axiom,
    parse_assumptions,
    read_verified,
    run_coqc,
    write_verified,
)
from ._kernel_report import FileStatus, TheoremStatus

__all__ = ["assumptions_cached"]

QUERY_TIMEOUT = 600.0  # seconds for one coqc run of queries; running out fails its theorems, never passes them

Query = tuple[SourceFile, tuple[str, ...]]  # a file and the theorems asked together


def assumptions_cached(
    sources: list[SourceFile],
    files: dict[str, FileStatus],
    build: Path,
    cache: Path | None,
    keys: dict[str, str] | None,
    group_of: Callable[[str], str],
    jobs: int = 2,
    accepts: Callable[[tuple[str, ...]], bool] | None = None,
) -> dict[str, TheoremStatus]:
    """The axioms of every theorem of `sources`, reusing per-file answers cached under the file's key.

    **Arguments:**

    - `sources`, `files`: the development's files and how each compiled.
    - `build`: the folder with every compiled `.vo`.
    - `cache`, `keys`: the answers' folder and each file's content key (None: no cache).
    - `group_of`: a theorem name → its group label within its file (theorems with one label are asked together).
    - `jobs`: how many coqc processes ask at once.
    - `accepts`: whether a group's axioms are all standard (default: by their short names; the build passes
      coqchk's judgement on fully qualified names, so a project `FloatAxioms.boom` splits its group).

    **Returns:** theorem name → its status (`checked` with axioms, or `failed` with the reason).
    """
    result: dict[str, TheoremStatus] = {}
    ask: list[SourceFile] = []
    for source in sources:
        path = cache / f"{keys[source.path.stem]}.json" if cache is not None and keys is not None else None
        cached = read_verified(path) if path is not None and files[source.module].compiled else None
        if isinstance(cached, dict):
            if set(source.theorems) <= set(cached):
                for name in source.theorems:
                    result[name] = TheoremStatus(**{**cached[name], "axioms": tuple(cached[name]["axioms"])})
                continue
        ask.append(source)
    fresh = _assumptions(ask, files, build, group_of, jobs, accepts or _all_standard)
    result.update(fresh)
    if cache is None or keys is None:
        return result
    for source in ask:
        if not files[source.module].compiled:
            continue
        answers = {name: asdict(fresh[name]) for name in source.theorems if name in fresh}
        path = cache / f"{keys[source.path.stem]}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        previous = read_verified(path)
        write_verified(path, {**(previous if isinstance(previous, dict) else {}), **answers})
    return result


def _assumptions(
    sources: list[SourceFile],
    files: dict[str, FileStatus],
    build: Path,
    group_of: Callable[[str], str],
    jobs: int,
    accepts: Callable[[tuple[str, ...]], bool],
) -> dict[str, TheoremStatus]:
    result: dict[str, TheoremStatus] = {}
    groups: dict[tuple[str, str], list[str]] = {}
    owner: dict[tuple[str, str], SourceFile] = {}
    for source in sources:
        for theorem in source.theorems:
            if not files[source.module].compiled:
                result[theorem] = TheoremStatus(source.module, theorem, "failed", message=files[source.module].message)
            elif source.forbidden:
                message = "file contains " + ", ".join(source.forbidden)
                result[theorem] = TheoremStatus(source.module, theorem, "failed", message=message)
            else:
                label = (source.module, group_of(theorem))
                groups.setdefault(label, []).append(theorem)
                owner[label] = source
    queries: list[Query] = [(owner[label], tuple(names)) for label, names in groups.items()]
    singles: list[Query] = []
    for (source, names), answer in zip(queries, _ask_all(queries, build, jobs), strict=True):
        if len(names) > 1 and (isinstance(answer, str) or not accepts(answer)):
            singles += [(source, (name,)) for name in names]  # ask one by one: only the theorem at fault fails
            continue
        for name in names:
            result[name] = _status(source, name, answer, len(names))
    for (source, (name,)), answer in zip(singles, _ask_all(singles, build, jobs), strict=True):
        result[name] = _status(source, name, answer, 1)
    return result


def _all_standard(axioms: tuple[str, ...]) -> bool:
    return all(map(is_standard_axiom, axioms))


def _status(source: SourceFile, theorem: str, answer: tuple[str, ...] | str, together: int) -> TheoremStatus:
    if isinstance(answer, str):
        return TheoremStatus(source.module, theorem, "failed", message=answer)
    scope = "theorem" if together == 1 else f"asked with {together - 1} other theorem(s); its own axioms are a subset"
    extra = [a for a in answer if not is_standard_axiom(a)]
    status = "failed" if extra else "checked"
    message = ("non-standard axioms: " + ", ".join(extra)) if extra else "standard axioms only"
    return TheoremStatus(source.module, theorem, status, answer, message, axioms_scope=scope)


def _ask_all(queries: list[Query], build: Path, jobs: int) -> list[tuple[str, ...] | str]:
    """Each query's axioms (a tuple) or why it failed (a string), the queries split over `jobs` coqc runs."""
    if not queries:
        return []
    shares = [list(range(k, len(queries), max(1, jobs))) for k in range(max(1, jobs))]
    answers: list[tuple[str, ...] | str] = [""] * len(queries)
    with ThreadPoolExecutor(max_workers=len(shares)) as pool:
        done = pool.map(lambda k: _ask(k, [queries[i] for i in shares[k]], build), range(len(shares)))
        for share, replies in zip(shares, done, strict=True):
            for i, reply in zip(share, replies, strict=True):
                answers[i] = reply
    return answers


def _ask(worker: int, queries: list[Query], build: Path) -> list[tuple[str, ...] | str]:
    """One coqc run per batch: each query on its own line; a failing line is answered, the rest asked again."""
    answers: list[tuple[str, ...] | str] = []
    while len(answers) < len(queries):
        batch = queries[len(answers) :]
        modules = dict.fromkeys(source.module for source, _ in batch)
        lines = [f"Require {module}." for module in modules]
        for i, (source, names) in enumerate(batch):
            lines.append(_query_line(f"pa_{worker}_{i}", source.module, names))
        script = build / f"RopecheckAssumptions{worker}.v"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        ok, output = run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, script.name], build, QUERY_TIMEOUT)
        failing = None if ok else _failing_line(output, script.name, len(modules))
        if failing is not None and failing < 0:  # a `Require` failed: no query of this batch can be answered
            answers += [error_excerpt(output)] * len(batch)
            break
        for i in range(len(batch)):
            out = build / f"pa_{worker}_{i}.out"
            text = out.read_text(encoding="utf-8") if out.exists() else ""
            out.unlink(missing_ok=True)
            if failing is not None and i >= failing:
                continue
            try:
                answers.append(tuple(parse_assumptions(text)))
            except ValueError:
                answers.append(error_excerpt(output))
        if failing is None:
            break
        answers.append(error_excerpt(output))  # the query on line `failing`; ask again for the rest
    return answers[: len(queries)]


def _query_line(redirect: str, module: str, names: tuple[str, ...]) -> str:
    """One line of the script: `Print Assumptions` of the theorem, or of the tuple of the group's theorems."""
    if len(names) == 1:
        return f'Redirect "{redirect}" Print Assumptions {module}.{names[0]}.'
    group = f"ropecheck_group_{redirect}"
    members = ", ".join(f"@{module}.{name}" for name in names)
    return f'Definition {group} := ({members}). Redirect "{redirect}" Print Assumptions {group}.'


def _failing_line(output: str, script: str, header_lines: int) -> int | None:
    """The index of the query whose line coqc reported an error on (None when it cannot be told)."""
    match = re.search(rf'File "\./{re.escape(script)}", line (\d+)', output)
    if match is None:
        return None
    return int(match.group(1)) - 1 - header_lines
