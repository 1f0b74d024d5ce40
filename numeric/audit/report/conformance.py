"""The conformance table: every installed built-in target audited with its library's defaults (issue #5).

`ropecheck audit --all [--json | --markdown]` prints it; the docs build calls `write_conformance`. Each built-in
is audited against the reference its own default configuration defines: the adapter's default base is declared
(`--base`) and its default scaling, written as a `--scaling` spec, is both what the library is built with and the
reference the spectrum is checked against (`numeric.audit.function.scaling`, ROPE-FREQUENCIES). Every failing finding
carries
the ledger claims it breaks and a one-line `ropecheck audit …` command that reproduces it.

```python
from ropecheck.numeric.audit.report.conformance import conformance_table, render_markdown

rows = conformance_table(["transformers", "equinox"], max_position=2048, dtypes=("float32",))
print(render_markdown(rows))
```
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ropecheck.numeric.audit.function.scaling import scaling_spec
from ropecheck.numeric.audit.report.api_limits import apply_api_limits, limits_summary

__all__ = [
    "CONFORMANCE_DTYPES",
    "DEFAULT_DTYPES",
    "DEFAULT_MAX_POSITION",
    "builtin_rows",
    "conformance_table",
    "render_markdown",
    "reproduce_command",
    "scaling_spec",
    "write_conformance",
]

DEFAULT_MAX_POSITION = 8192
DEFAULT_DTYPES = ("float32", "bfloat16", "float16", "float64")
# The table's default: the dtypes models run in. Every library audited forms its angles in float32, which the
# policy accepts for these outputs but not for float64 outputs (there it must be float64), so with float64 in
# the default every row would fail for that one reason; float64 stays available with `--dtypes`.
CONFORMANCE_DTYPES = ("float32", "bfloat16", "float16")


def reproduce_command(
    name: str,
    *,
    base: float | None,
    scaling: str | None,
    max_position: int,
    dtypes: Sequence[str],
    module_cast: bool = False,
) -> str:
    """The one-line `ropecheck audit` command that audits `name` as the table did.

    **Arguments:**

    - `name`: built-in target name.
    - `base`, `scaling`, `max_position`, `dtypes`, `module_cast`: the audit's options.

    **Returns:**

    A shell-quoted command line.
    """
    words = ["ropecheck", "audit", name]
    if base is not None:
        words += ["--base", f"{base:g}"]
    if scaling:
        words += ["--scaling", scaling]
    words += ["--max-position", str(max_position), "--dtypes", ",".join(dtypes)]
    if module_cast:
        words.append("--module-cast")
    return shlex.join(words)


def _certified(report_json: dict[str, Any], dtype: str) -> str:
    info = report_json["dtypes"].get(dtype, {})
    if info.get("status") != "supported":
        return info.get("status", "not audited")
    certified = report_json["certified"].get(dtype)
    if certified is None:
        return "not evaluated"
    largest = certified["largest_position"]
    return f"0…{largest}" if largest >= 0 else "none"


def _row(
    spec: Any,
    *,
    max_position: int,
    dtypes: Sequence[str],
    module_cast: bool,
    timeout: float,
) -> dict[str, Any]:
    from ropecheck.numeric.audit import AuditError, audit
    from ropecheck.numeric.audit.adapters import installed_version, is_available

    scaling = scaling_spec(spec.default_scaling)
    row: dict[str, Any] = {
        "name": spec.name,
        "library": spec.library,
        "version": installed_version(spec),
        "wraps": spec.wraps,
        "positions_api": spec.positions,
        "layout": spec.layout,
        "direction": None,
        "base": spec.default_base,
        "scaling": scaling,
        "module_cast": module_cast,
        "status": "audited",
        "verdict": None,
        "certified": {},
        "failures": [],
        "seconds": 0.0,
        "command": reproduce_command(
            spec.name,
            base=spec.default_base,
            scaling=scaling,
            max_position=max_position,
            dtypes=dtypes,
            module_cast=module_cast,
        ),
    }
    available, reason = is_available(spec)
    if not available:
        row["status"] = "skipped: needs a GPU" if spec.needs_gpu and reason.startswith("skipped") else reason
        if row["status"].startswith("not installed"):
            row["status"] = "not installed"
        return row
    started = time.perf_counter()
    try:
        report = audit(
            spec,
            base=spec.default_base,
            scaling=scaling,
            max_position=max_position,
            dtypes=list(dtypes),
            timeout=timeout,
            module_cast=module_cast,
        )
    except AuditError as error:
        row.update(status=f"error: {error}", verdict="error", seconds=time.perf_counter() - started)
        return row
    except Exception as error:  # one adapter's crash must not stop the table
        message = " ".join(str(error).split())
        row.update(status=f"error: {type(error).__name__}: {message}", verdict="error")
        row["seconds"] = time.perf_counter() - started
        return row
    data = report.to_json()
    row.update(
        layout=report.layout,
        direction=report.direction,
        base=report.base,
        verdict=report.verdict,
        certified={dtype: _certified(data, dtype) for dtype in dtypes},
        seconds=round(time.perf_counter() - started, 2),
    )
    for finding in report.failures():
        command = reproduce_command(
            spec.name,
            base=spec.default_base,
            scaling=scaling,
            max_position=max_position,
            dtypes=[finding.dtype] if finding.dtype else dtypes,
            module_cast=module_cast,
        )
        row["failures"].append({**finding.to_json(), "reproduce": command})
    return row


def conformance_table(
    names: Sequence[str] | None = None,
    *,
    max_position: int = DEFAULT_MAX_POSITION,
    dtypes: Sequence[str] | str = CONFORMANCE_DTYPES,
    module_cast: bool = False,
    timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Audit built-in targets with their defaults and return one row per target.

    **Arguments:**

    - `names`: built-in names to include (default: every registered one, installed or not).
    - `max_position`: positions 0…max_position−1 are audited.
    - `dtypes`: dtypes audited (a list or a comma-separated string).
    - `module_cast`: build modules in float32 and cast them to each dtype, as users cast models.
    - `timeout`: seconds one call of a library may take.
    - `progress`: called with each target's name before it is audited.

    **Returns:**

    Rows with keys `name`, `library`, `version`, `wraps`, `positions_api`, `layout`, `direction`, `base`,
    `scaling`, `module_cast`, `status` ("audited", "not installed", "skipped: needs a GPU" or "error: …"),
    `verdict` ("pass", "fail", "error" or None when not audited), `certified` (dtype → certified positions),
    `failures` (each failing finding's JSON plus `reproduce`, the command line that shows it), `seconds`,
    `command` (the command that audits the target as the table did), `api_limits` (failing findings that only
    show what the library's documented API cannot take, each with `shown`, e.g. "n/a (offset-only API)"; they
    do not make the verdict fail) and `audit_verdict` (the audit's own verdict).

    **Raises:**

    `KeyError` for an unknown name; `ValueError` for an unknown dtype.
    """
    from ropecheck.numeric.audit.adapters import get_adapter, list_adapters

    if isinstance(dtypes, str):
        dtypes = [part.strip() for part in dtypes.split(",") if part.strip()]
    dtypes = list(dict.fromkeys(dtypes))
    unknown = [dtype for dtype in dtypes if dtype not in DEFAULT_DTYPES]
    if unknown or not dtypes:
        raise ValueError(f"unknown dtype(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(DEFAULT_DTYPES)}")
    specs = list_adapters() if names is None else [get_adapter(name) for name in names]
    rows = []
    for spec in specs:
        if progress is not None:
            progress(spec.name)
        rows.append(_row(spec, max_position=max_position, dtypes=dtypes, module_cast=module_cast, timeout=timeout))
    if names is None:
        # The sinusoidal, bias and scores built-ins (issue #13), audited with their libraries' defaults.
        from ropecheck.numeric.audit.kinds.conformance import kind_conformance_rows

        rows += kind_conformance_rows(max_position=max_position, dtypes=dtypes, timeout=timeout, progress=progress)
    # A documented API limit (an offset-only positions API) shows as n/a, not as a failure (issue #14).
    return [apply_api_limits(row) for row in rows]


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _failing_summary(failures: list[dict[str, Any]]) -> str:
    """`precision [bfloat16, float16], state`: each failing property once, with the dtypes it fails in."""
    by_property: dict[str, list[str]] = {}
    for failure in failures:
        dtypes = by_property.setdefault(failure["property"], [])
        if failure.get("dtype"):
            dtypes.append(failure["dtype"])
    return ", ".join(f"{name} [{', '.join(dtypes)}]" if dtypes else name for name, dtypes in by_property.items())



def render_markdown(rows: list[dict[str, Any]], *, max_position: int | None = None) -> str:
    """The table as Markdown: one line per target, then each failing finding with its claims and reproduction.

    **Arguments:**

    - `rows`: from `conformance_table`.
    - `max_position`: stated in the heading (default: read from the rows' commands).

    **Returns:**

    Markdown text ending in a newline.
    """
    dtypes: list[str] = []
    for row in rows:
        dtypes += [dtype for dtype in row["certified"] if dtype not in dtypes]
    dtypes = dtypes or list(DEFAULT_DTYPES)
    if max_position is None and rows:
        words = shlex.split(rows[0]["command"])
        max_position = int(words[words.index("--max-position") + 1])
    lines = [
        f"Audited positions 0…{(max_position or DEFAULT_MAX_POSITION) - 1} in {', '.join(dtypes)}; each target"
        " against its own default base and scaling (cells: certified positions at the default score budget).",
        "",
        "| Target | Library | Version | Layout | Direction | Base | Scaling | "
        + " | ".join(dtypes)
        + " | Verdict | Failing properties | API limits |",
        "|" + "---|" * (10 + len(dtypes)),
    ]
    for row in rows:
        audited = row["status"] == "audited"
        verdict = row["verdict"] if audited else row["status"]
        cells = [
            f"`{row['name']}`",
            row["library"],
            row["version"] or "—",
            row["layout"],
            row["direction"] or "—",
            f"{row['base']:g}" if row["base"] is not None else "—",
            f"`{row['scaling']}`" if row["scaling"] else "none",
            *(row["certified"].get(dtype, "—") for dtype in dtypes),
            f"**{verdict}**" if verdict == "fail" else verdict,
            _failing_summary(row["failures"]) or "—",
            limits_summary(row.get("api_limits") or []) or "—",
        ]
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    failing = [row for row in rows if row["failures"] or row["status"].startswith("error")]
    if failing:
        lines += ["", "Failing findings (claim IDs: the ledger claims that do not transfer to the library):", ""]
    for row in failing:
        if row["status"].startswith("error"):
            lines.append(f"- `{row['name']}`: {row['status']} — `{row['command']}`")
        for failure in row["failures"]:
            where = f" [{failure['dtype']}]" if failure.get("dtype") else ""
            claims = ", ".join(failure["claims"])
            lines.append(
                f"- `{row['name']}` · {failure['property']}{where} ({claims}): {failure['detail']}"
                f" Reproduce: `{failure['reproduce']}`"
            )
    return "\n".join(lines) + "\n"


def write_conformance(path: str | Path, **kwargs: Any) -> dict[str, Any]:
    """Audit the built-ins and write the table as JSON (for the docs).

    **Arguments:**

    - `path`: the JSON file to write (parent folders are created).
    - `kwargs`: passed to `conformance_table` (`names`, `max_position`, `dtypes`, `module_cast`, `timeout`).

    **Returns:**

    The object written: `max_position`, `dtypes`, `module_cast`, `seconds`, `rows`, `markdown`.
    """
    started = time.perf_counter()
    rows = conformance_table(**kwargs)
    max_position = int(kwargs.get("max_position", DEFAULT_MAX_POSITION))
    dtypes = kwargs.get("dtypes", CONFORMANCE_DTYPES)
    if isinstance(dtypes, str):
        dtypes = [part.strip() for part in dtypes.split(",") if part.strip()]
    document = {
        "max_position": max_position,
        "dtypes": list(dtypes),
        "module_cast": bool(kwargs.get("module_cast", False)),
        "seconds": round(time.perf_counter() - started, 1),
        "rows": rows,
        "markdown": render_markdown(rows, max_position=max_position),
    }
    from ropecheck.numeric.audit.report.json import json_safe

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(json_safe(document), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return document


def builtin_rows() -> list[dict[str, str]]:
    """The built-in targets as `--list` shows them: name, library, installed version (or why not), layout,
    positions, scaling, what each wraps and its defaults (importing the libraries to read their versions)."""
    from ropecheck.numeric.audit.adapters import installed_version, is_available, list_adapters
    from ropecheck.numeric.audit.function.builtin_defaults import list_defaults

    rows = []
    for spec in list_adapters():
        available, reason = is_available(spec)
        status = installed_version(spec) if available else reason
        if not available and reason.startswith("not installed"):
            status = "not installed"
        rows.append(
            {
                "name": spec.name,
                "library": spec.library,
                "version": status,
                "layout": spec.layout,
                "positions": spec.positions,
                "scaling": spec.scaling_kind,
                "wraps": spec.wraps,
                "defaults": list_defaults(spec),
            }
        )
    from ropecheck.numeric.audit.kinds.conformance import kind_list_rows

    return rows + kind_list_rows()
