"""The conformance page: the table of real libraries (from `docs/conformance.json`), the README's defects with
their reproduction commands, every failing finding in the audit's words, and the documented API limits shown as
"n/a (offset-only API)" rather than *fail*."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from ._markdown import claim_ref, escape, list_table, literal, verdict_badge

logger = logging.getLogger(__name__)


def _conformance_results(app: Sphinx) -> tuple[list[dict[str, Any]] | None, str]:
    """Rows of the conformance table (`numeric.audit.report.conformance` shape): from the configured JSON file, or
    audited during the build when `ROPECHECK_DOCS_RUN_AUDIT=1` (slow: every installed library is audited)."""
    configured = app.config.ropecheck_conformance_json
    if configured:
        payload = json.loads((Path(app.confdir) / configured).read_text(encoding="utf-8"))
        source = f"read from {literal(Path(configured).name)}"
    elif os.environ.get("ROPECHECK_DOCS_RUN_AUDIT") == "1":
        from ropecheck.numeric.audit.report.conformance import write_conformance

        payload = write_conformance(Path(app.outdir).parent / "conformance.json")
        source = "audited while these docs were built"
    else:
        return None, ""
    if isinstance(payload, dict):
        for key in ("rows", "reports", "results"):
            if isinstance(payload.get(key), list):
                extra = []
                if payload.get("max_position"):
                    extra.append(f"positions 0…{int(payload['max_position']) - 1}")
                if payload.get("dtypes"):
                    extra.append("dtypes " + ", ".join(payload["dtypes"]))
                source += f" ({'; '.join(extra)})" if extra else ""
                payload = payload[key]
                break
    if not isinstance(payload, list):
        raise ValueError("the conformance JSON is neither a list of rows nor {'rows': [...]}")
    from ropecheck.numeric.audit.report.api_limits import apply_api_limits

    return [apply_api_limits(row) if "failures" in row else row for row in payload], source


def _conformance_row(row: dict[str, Any]) -> list[str]:
    name = str(row.get("name") or row.get("target") or "?")
    library = escape(f"{row.get('library', '')} {row.get('version') or ''}".strip()) or "—"
    verdict = row.get("verdict")
    status = str(row.get("status") or "")
    # The audit badges (never the green "proved", which is for kernel-checked claims only).
    badges = {"pass": verdict_badge("conforms"), "fail": verdict_badge("fails")}
    shown = badges[verdict] if verdict in badges else escape(status or str(verdict))
    # Only what applies: a bias or sinusoidal built-in has no direction, base or scaling of its own.
    base = row.get("base")
    parts = [
        str(row.get("layout") or "?"),
        row.get("direction") if row.get("direction") not in (None, "n/a") else None,
        f"base {base:g}" if isinstance(base, int | float) else None,
        # "llama3:8, orig=2048, low=1, high=4": a line may break after a comma, so the column stays narrow.
        str(row.get("scaling")).replace(",", ", ") if row.get("scaling") else None,
    ]
    form = escape(", ".join(str(part) for part in parts if part))
    certified = row.get("certified") or {}
    context = "; ".join(
        f"{dtype}: {item if isinstance(item, str) else item.get('largest_position')}"
        for dtype, item in certified.items()
    )
    failures = row.get("failures")
    if failures is None:  # an AuditReport.to_json() object
        failures = [finding for finding in row.get("findings", []) if not finding.get("ok")]
    failing = []
    for finding in failures:
        text = literal(finding.get("property", "?")) + (
            f" ({escape(finding['dtype'])})" if finding.get("dtype") else ""
        )
        if finding.get("claims"):
            text += ": " + ", ".join(claim_ref(claim) for claim in finding["claims"])
        failing.append(text)
    api_limits = row.get("api_limits") or []
    limits = dict.fromkeys((str(limit.get("property", "?")), str(limit.get("shown"))) for limit in api_limits)
    failing += [f"{literal(prop)}: {escape(text)}" for prop, text in limits]
    return [literal(name), library, shown, form, "; ".join(failing) or "none", escape(context) or "—"]


def _breakable(text: str) -> str:
    """Escaped text in which a dotted path may break after a dot or a parenthesis (a zero-width space): one of
    75 characters (`transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(LlamaConfig)(x,`) made the
    adapter table 1273 px wide at a 944 px article."""
    return escape(re.sub(r"([.(])(?=\w)", "\\1\u200b", text))


README_DEFECTS_HEADER = "| library | finding | reproduce |"


def readme_defects(readme: Path) -> list[list[str]]:
    """The README's table of library defects (library, finding, reproduce), one list of cells per row; empty
    when the README has no such table."""
    try:
        lines = readme.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    if README_DEFECTS_HEADER not in lines:
        return []
    rows = []
    for line in lines[lines.index(README_DEFECTS_HEADER) + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if len(cells) == 3:
            rows.append(cells)
    return rows


def _readme_defects_part(readme: Path) -> list[str]:
    """The README's defects, each explained in a sentence with the command that reproduces it."""
    rows = readme_defects(readme)
    if not rows:
        logger.warning("ropecheck_docs: README.md has no defects table (%s)", README_DEFECTS_HEADER)
        return []
    return [
        "## Defects the table reports, explained",
        "",
        "Each defect in one sentence (as the README states it) with the command that reproduces it; the "
        "sections below give every failing finding of the table in the audit's own words.",
        "",
        list_table(["library", "what is wrong", "reproduce"], rows, [18, 50, 32]),
        "",
    ]


def _defects_part(results: list[dict[str, Any]]) -> list[str]:
    """Each failing row: what fails and why (the audit's explanation, once per property with the dtypes it fails
    in), the fix, the claims, and the command that reproduces it; then the documented API limits."""
    parts = ["## Defects found, with the command that reproduces each", ""]
    failing = [row for row in results if row.get("failures")]
    if not failing:
        parts += ["No audited library fails a property.", ""]
    for row in failing:
        parts += [f"### {literal(str(row.get('name')))} ({escape(str(row.get('library', '')))} "
                  f"{escape(str(row.get('version') or ''))})", ""]
        by_property: dict[str, list[dict[str, Any]]] = {}
        for failure in row["failures"]:
            by_property.setdefault(str(failure.get("property", "?")), []).append(failure)
        for prop, failures in by_property.items():
            first = failures[0]
            dtypes = [str(f["dtype"]) for f in failures if f.get("dtype")]
            where = f" in {escape(', '.join(dtypes))}" if dtypes else ""
            claims = ", ".join(claim_ref(claim) for claim in first.get("claims", []))
            fix = f" Fix: {escape(str(first['fix']))}." if first.get("fix") else ""
            parts += [
                f"- {literal(prop)}{where} ({claims}): {escape(str(first.get('detail', '')))}{fix}",
                "",
                "  ```console",
                f"  $ {(first.get('reproduce') if len(failures) == 1 else None) or row.get('command')}",
                "  ```",
                "",
            ]
    limited = [row for row in results if row.get("api_limits")]
    if limited:
        names = ", ".join(literal(str(row.get("name"))) for row in limited)
        parts += [
            "## Documented API limits (not defects)",
            "",
            f"{names} take only an offset (or no positions at all) by their documented API, so the audit's "
            "shuffled, repeated and non-contiguous position probes cannot be expressed through them: the table "
            "shows `positions` as *n/a (offset-only API)* instead of *fail* (where the offset probe itself "
            "fails, it stays a failure). The audit's own report still lists these findings; the row keeps it "
            "as `audit_verdict`.",
            "",
        ]
    return parts


def conformance_page(app: Sphinx) -> str:
    """The conformance table of real libraries, or the adapters registry with how to generate the table."""
    from ropecheck.numeric.audit.adapters._registry import installed_version, list_adapters

    specs = list_adapters()
    parts = [
        "<!-- Generated by docs/_ext/ropecheck_docs; do not edit. -->",
        "(conformance)=",
        "# Conformance of real libraries",
        "",
        "`ropecheck audit` certifies the RoPE of each library through a built-in adapter, configured with the "
        "library's defaults; the {doc}`audit guide </audit-guide>` explains each property and the tolerance "
        "policy. A failing property names the claims that do not transfer to that implementation.",
        "",
    ]
    results, source = _conformance_results(app)
    if results is None:
        parts += [
            ":::{note}",
            "**The conformance table is not yet generated.** It comes from `ropecheck audit --all --json`: build "
            "the docs with `ROPECHECK_CONFORMANCE_JSON=/path/to/that/output.json`, or with "
            "`ROPECHECK_DOCS_RUN_AUDIT=1` to audit every installed library during the build.",
            ":::",
            "",
        ]
    else:
        parts += [f"Results {source}.", ""]
        header = ["target", "library", "verdict", "layout, direction, base", "failing properties", "certified"]
        rows = [_conformance_row(row) for row in results]
        parts += [list_table(header, rows, [14, 12, 8, 18, 28, 20]), ""]
        parts += _readme_defects_part(Path(app.confdir).parent / "README.md")
        parts += _defects_part(results)
    rows = [
        [
            literal(spec.name),
            escape(spec.library),
            escape(installed_version(spec) or "not installed"),
            escape(spec.layout),
            escape(spec.scaling_kind or "none"),
            "yes" if spec.needs_gpu else "no",
            _breakable(spec.wraps),
        ]
        for spec in specs
    ]
    parts += [
        "## Built-in adapters",
        "",
        f"{len(specs)} adapters (from `numeric.audit.adapters`); versions as installed where these docs were built.",
        "",
        list_table(
            ["adapter", "library", "version", "layout", "scaling", "GPU", "wraps"], rows, [14, 12, 8, 8, 8, 5, 45]
        ),
        "",
    ]
    return "\n".join(parts)
