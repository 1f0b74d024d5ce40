"""The kernel's report on the development: per file, per theorem, and how it is cached as JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DevelopmentReport", "FileStatus", "TheoremStatus", "dump_report", "load_report"]


@dataclass(frozen=True)
class TheoremStatus:
    """One theorem as the kernel saw it: `checked` | `failed` | `not-run`, its axioms and a message."""

    module: str
    theorem: str
    status: str
    axioms: tuple[str, ...] = ()
    message: str = ""
    statement: str = ""
    axioms_scope: str = "theorem"


@dataclass(frozen=True)
class FileStatus:
    """One `.v` file: compiled or not (`message` says why), forbidden commands, UNKNOWN notes."""

    module: str
    compiled: bool
    message: str = ""
    forbidden: tuple[str, ...] = ()
    seconds: float = 0.0
    rejected: dict[str, str] = field(default_factory=dict)
    elaborated: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DevelopmentReport:
    """The kernel's view of the whole development.

    **Arguments:**

    - `version`: the `coqc` version, or None when Coq is not installed (then every theorem is `not-run`).
    - `files`: module → `FileStatus`.
    - `theorems`: theorem name → `TheoremStatus` (names are unique across the development by contract).
    - `unknown`: claim ID → reason, from `(* UNKNOWN X: reason *)` comments.
    - `key`: the content hash the report is cached under (development, generated statements, environment).
    - `texts`: theorem name → `(statement, proof)` as written in the source (for display next to the bound one).
    - `coqchk`: coqchk's message on the compiled development.
    - `definitions_digest`: digest of the definition-only files (`Defs*.v`), the trusted definitions.
    - `environment`: digest of coqc, flags, `COQPATH` and the library `.vo` files (`_kernel_env`).
    - `terms`: the fully elaborated terms of the bound statements (`_kernel_terms.ElaboratedTerms.to_json`).
    """

    version: str | None
    files: dict[str, FileStatus]
    theorems: dict[str, TheoremStatus]
    unknown: dict[str, str] = field(default_factory=dict)
    key: str = ""
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    coqchk: str = ""
    definitions_digest: str = ""
    environment: str = ""
    terms: dict[str, Any] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return self.version is not None


def dump_report(report: DevelopmentReport) -> dict[str, object]:
    return {
        "version": report.version,
        "key": report.key,
        "coqchk": report.coqchk,
        "definitions_digest": report.definitions_digest,
        "environment": report.environment,
        "terms": report.terms,
        "files": {k: asdict(v) for k, v in report.files.items()},
        "theorems": {k: asdict(v) for k, v in report.theorems.items()},
    }


def load_report(path: Path, unknown: dict[str, str]) -> DevelopmentReport | None:
    """The report cached at `path` (`write_verified`), or None when it is missing, damaged or fails its digest."""
    from ._kernel import read_verified

    data = read_verified(path)
    if not isinstance(data, dict):
        return None
    files = {k: FileStatus(**{**v, "forbidden": tuple(v["forbidden"])}) for k, v in data["files"].items()}
    theorems = {k: TheoremStatus(**{**v, "axioms": tuple(v["axioms"])}) for k, v in data["theorems"].items()}
    return DevelopmentReport(
        data["version"],
        files,
        theorems,
        unknown,
        data["key"],
        {},
        data["coqchk"],
        data["definitions_digest"],
        data["environment"],
        data.get("terms", {}),
    )
