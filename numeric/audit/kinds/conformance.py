"""Conformance rows of the sinusoidal, bias and scores built-ins: `ropecheck audit --list` and `--all`.

Each built-in (`ropecheck.numeric.audit.adapters.kinds`) is audited against the options its library's defaults declare;
rows have the keys of the RoPE conformance rows (`ropecheck.numeric.audit.report.conformance`), `layout` holding the
detected layout or scheme and `direction` None, plus `kind`. Every failing finding carries its claims and the
one-line command that reproduces it.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["kind_conformance_rows", "kind_list_rows", "reproduce_kind_command"]


def kind_list_rows() -> list[dict[str, Any]]:
    """`--list` rows: name, library, version, kind, what is called."""
    from ropecheck.numeric.audit.adapters.kinds import list_kind_adapters
    from ropecheck.numeric.audit.function.builtin_defaults import list_defaults

    rows = []
    for adapter in list_kind_adapters():
        reason = adapter.unavailable()
        rows.append({"name": adapter.name, "library": adapter.library,
                     "version": "not installed" if reason else adapter.version(), "layout": f"kind {adapter.kind}",
                     "positions": "arbitrary", "scaling": None, "wraps": adapter.wraps, "kind": adapter.kind,
                     "defaults": list_defaults(adapter)})
    return rows


def reproduce_kind_command(name: str, kind: str, max_position: int, dtypes: Sequence[str]) -> str:
    """The command line that audits one built-in as the table does."""
    words = ["ropecheck", "audit", name, "--kind", kind, "--max-position", str(max_position), "--dtypes",
             ",".join(dtypes)]
    return " ".join(shlex.quote(word) for word in words)


def _certified(data: dict[str, Any], dtype: str) -> str:
    info = data["dtypes"].get(dtype, {})
    if info.get("status") != "supported":
        return info.get("status", "not audited")
    certified = data["certified"].get(dtype)
    if certified is None:
        return "no certified range" if data["kind"] == "scores" else "not evaluated"
    largest = certified["largest_position"]
    return f"0…{largest}" if largest >= 0 else "none"


def kind_conformance_rows(
    *, max_position: int, dtypes: Sequence[str], timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Audit every built-in of the three kinds with its library's defaults; one row each."""
    from ropecheck.numeric.audit import AuditError, audit
    from ropecheck.numeric.audit.adapters.kinds import list_kind_adapters

    rows = []
    for adapter in list_kind_adapters():
        if progress is not None:
            progress(adapter.name)
        command = reproduce_kind_command(adapter.name, adapter.kind, max_position, dtypes)
        row: dict[str, Any] = {
            "name": adapter.name, "library": adapter.library, "version": adapter.version(), "wraps": adapter.wraps,
            "positions_api": "arbitrary", "layout": f"{adapter.kind}", "direction": "n/a", "base": None,
            "scaling": None, "module_cast": True, "status": "audited", "verdict": None, "certified": {},
            "failures": [], "seconds": 0.0, "command": command, "kind": adapter.kind,
        }
        reason = adapter.unavailable()
        if reason:
            row["status"] = "not installed"
            rows.append(row)
            continue
        started = time.perf_counter()
        try:
            report = audit(adapter.name, kind=adapter.kind, max_position=max_position, dtypes=list(dtypes),
                           timeout=timeout)
        except AuditError as error:
            row.update(status=f"error: {error}", verdict="error", seconds=round(time.perf_counter() - started, 2))
            rows.append(row)
            continue
        except Exception as error:  # one adapter's crash must not stop the table
            row.update(status=f"error: {type(error).__name__}: {' '.join(str(error).split())}", verdict="error")
            rows.append(row)
            continue
        data = report.to_json()
        detected = report.detected
        scheme = detected.get("scheme", {}).get("name") if isinstance(detected.get("scheme"), dict) else None
        row.update(layout=f"{adapter.kind}: {scheme or detected.get('layout', '?')}", verdict=report.verdict,
                   base=report.base, certified={dtype: _certified(data, dtype) for dtype in dtypes},
                   seconds=round(time.perf_counter() - started, 2))
        for finding in report.failures():
            reproduce = reproduce_kind_command(adapter.name, adapter.kind, max_position,
                                               [finding.dtype] if finding.dtype else dtypes)
            row["failures"].append({**finding.to_json(), "reproduce": reproduce})
        rows.append(row)
    return rows
