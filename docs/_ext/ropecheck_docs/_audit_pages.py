"""Generated parts of the audit guide (properties, tolerance policy, worked examples) and the conformance table.

The property list and the claims each bears on come from `numeric.audit.properties`; the tolerance policy is the
docstring of `numeric.audit.policy`; the worked examples are real audits of `audit_examples` run at build time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from sphinx.application import Sphinx
from sphinx.util import logging

from ._markdown import claim_ref, escape, format_number, list_table, literal, verdict_badge

logger = logging.getLogger(__name__)

EXAMPLE_POSITIONS = 8192
EXAMPLE_DTYPES = ("float32", "bfloat16", "float16", "float64")

#: What each audit property checks, for people (the audit's own findings say what failed).
PROPERTY_EXPLANATIONS: dict[str, str] = {
    "contract": "The target accepts x of shape (…, L, d) with integer positions (L,), returns x's shape and dtype, "
    "finite values, leaves its input unmodified and gives bitwise-identical results when called twice.",
    "identity": "Position 0 is the identity: R(0) = I, so the output at position 0 equals the input (up to one "
    "rounding).",
    "linearity": "For a fixed position the map is linear: f(x + z) = f(x) + f(z) and f(2x) = 2·f(x) within "
    "rounding. This is what lets the audit read off the per-position matrix M(p) with basis probes.",
    "norm": "M(p) is orthogonal (a rotation preserves ‖x‖): column norms and their dot products are checked against "
    "the orthogonality bound of the policy.",
    "pairing": "Each position applies one 2×2 rotation per pair of coordinates, and the audit names which pairs: "
    "interleaved (2i, 2i+1) as in RoFormer and Meta's complex form, or half-split (i, i + d/2) as in GPT-NeoX "
    "and Hugging Face Llama.",
    "direction": "The rotation is counter-clockwise (x₁cos − x₂sin, x₁sin + x₂cos) as in RoFormer; a clockwise "
    "implementation is still relative but disagrees with every checkpoint trained the usual way.",
    "relative": "Scores ⟨f(q, m), f(k, n)⟩ depend on n − m only: shifted pairs of positions give the same score "
    "within the score bound. This is the property that makes cached keys reusable.",
    "spectrum": "The per-pair angles grow as p·θᵢ with θᵢ = base^(−2i/d) for the declared (or inferred) base and "
    "scaling; a wrong base, a wrong exponent or angles formed in low precision show here.",
    "positions": "The positions passed are honoured: shuffled, offset, repeated and non-contiguous positions give "
    "the rows of the contiguous call.",
    "precision": "Every output coordinate, at every position audited and in every dtype, is within the policy "
    "bound of the exact rotation of the same input (see the tolerance policy below).",
    "state": "Results do not depend on earlier calls (caches that grow or are mutated) nor, for classes, on "
    "other instances.",
}


def _write(path: Path, text: str) -> None:
    from . import write_if_changed

    write_if_changed(path, text)


# ------------------------------------------------------------------------------------------------ guide parts
def properties_part() -> str:
    """A table: every audit property, what it checks, and the claims it transfers."""
    from numeric.audit.properties import CLAIMS, PROPERTIES

    missing = [name for name in PROPERTIES if name not in PROPERTY_EXPLANATIONS]
    if missing:
        raise KeyError(f"audit properties without an explanation in the docs: {missing}")
    rows = [
        [literal(name), escape(PROPERTY_EXPLANATIONS[name]), ", ".join(claim_ref(c) for c in CLAIMS.get(name, ()))]
        for name in PROPERTIES
    ]
    return list_table(["property", "what is checked", "claims it bears on"], rows, widths=[12, 58, 30]) + "\n"


def policy_part() -> str:
    """The tolerance policy: the docstring of `numeric.audit.policy`, headings moved under the guide's section."""
    import numeric.audit.policy as policy

    lines = []
    for line in (policy.__doc__ or "").strip().splitlines():
        lines.append("#" + line if line.startswith("#") else line)
    return "\n".join(lines) + "\n"


def _angle_error_plot(report: Any, path: Path, title: str) -> None:
    import matplotlib.pyplot as plt

    from ._plots import COLORS, _save

    figure, axis = plt.subplots(figsize=(9, 4))
    for dtype, errors in report.angle_error.items():
        errors = np.asarray(errors, dtype=np.float64)
        positions = np.arange(errors.size)
        step = max(1, errors.size // 2000)
        # Running maximum of each stride, so thinning does not hide spikes.
        shown = np.maximum.reduceat(errors, np.arange(0, errors.size, step))
        axis.semilogy(
            positions[::step][: shown.size],
            np.maximum(shown, 1e-18),
            linewidth=0.8,
            color=COLORS.get(dtype),
            label=dtype,
        )
    axis.set_xscale("symlog", linthresh=1)  # log-x: the onsets at 257 (bfloat16) and 2049 (float16) stand out
    for onset in (257, 2049):
        if onset < report.max_position:
            axis.axvline(onset, color="grey", linestyle=":", linewidth=0.8)
    axis.set_xlabel("position m (log scale)")
    axis.set_ylabel("largest angle error over pairs (rad)")
    axis.set_title(title)
    axis.legend(fontsize=8)
    figure.tight_layout()
    _save(figure, path)


def examples_part(plots_dir: Path) -> tuple[str, dict[str, Path]]:
    """Audit the two example implementations; findings, certified context and error-vs-position plots."""
    from numeric.audit import audit

    from . import audit_examples

    parts: list[str] = []
    plots: dict[str, Path] = {}
    for function in (audit_examples.rope_float32_angles, audit_examples.rope_data_dtype_angles):
        name = function.__name__
        report = audit(
            function,
            base=10000.0,
            layout="half",
            head_dim=128,
            max_position=EXAMPLE_POSITIONS,
            dtypes=EXAMPLE_DTYPES,
            name=name,
        )
        path = plots_dir / f"audit_{name}.png"
        _angle_error_plot(report, path, f"audit of {name}: angle error vs position")
        plots[f"audit_{name}"] = path
        failures = report.failures()
        parts += [
            f"### {literal(name)}",
            "",
            f'```python\nreport = audit({name}, base=10000, layout="half", head_dim=128, '
            f"max_position={EXAMPLE_POSITIONS})\n```",
            "",
            f"Verdict: {verdict_badge('proved' if report.ok else 'refuted')} **{report.verdict}** — layout "
            f"{escape(report.layout)}, direction {escape(report.direction)}, base {format_number(report.base)} "
            f"({escape(report.base_source)}), audited in {report.seconds:.1f} s.",
            "",
            f"Summary: {escape(report.summary)}",
            "",
        ]
        rows = []
        order = {"fail": 0, "could not call": 1, "explained": 2, "pass": 3}
        for finding in sorted(report.findings, key=lambda f: order.get(f.status, 4)):
            if finding.property != "precision" and finding.status == "pass":
                continue
            rows.append(
                [
                    literal(finding.property),
                    literal(finding.dtype or "all"),
                    "✔" if finding.ok else "✘",
                    format_number(finding.max_error),
                    format_number(finding.bound),
                    escape(finding.detail + (f" Fix: {finding.fix}." if finding.fix else "")),
                ]
            )
        parts += [
            "Precision findings and every failure:"
            if failures
            else "Precision findings (every other property passes):",
            "",
            list_table(["property", "dtype", "ok", "max error", "bound", "detail"], rows, [10, 9, 4, 9, 9, 59]),
            "",
        ]
        from numeric.audit.report.markdown import certified_text

        certified_rows = [[literal(dtype), escape(certified_text(report, dtype))] for dtype in report.certified]
        parts += [
            "Certified context (the positions whose score error stays within the budget 2⁻⁶):",
            "",
            list_table(["dtype", "certified"], certified_rows),
            "",
            f"```{{figure}} /generated/plots/{path.name}",
            ":width: 100%",
            "",
            f"Largest angle error over the 64 pairs at each position, per dtype, for {literal(name)}.",
            "```",
            "",
        ]
    return "\n".join(parts), plots


# ------------------------------------------------------------------------------------------------ conformance
def _conformance_results(app: Sphinx) -> tuple[list[dict[str, Any]] | None, str]:
    """Rows of the conformance table (`numeric.audit.report.conformance` shape): from the configured JSON file, or
    audited during the build when `ROPECHECK_DOCS_RUN_AUDIT=1` (slow: every installed library is audited)."""
    configured = app.config.ropecheck_conformance_json
    if configured:
        payload = json.loads((Path(app.confdir) / configured).read_text(encoding="utf-8"))
        source = f"read from {literal(Path(configured).name)}"
    elif os.environ.get("ROPECHECK_DOCS_RUN_AUDIT") == "1":
        from numeric.audit.report.conformance import write_conformance

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
    return payload, source


def _conformance_row(row: dict[str, Any]) -> list[str]:
    name = str(row.get("name") or row.get("target") or "?")
    library = escape(f"{row.get('library', '')} {row.get('version') or ''}".strip()) or "—"
    verdict = row.get("verdict")
    status = str(row.get("status") or "")
    shown = f"**{escape(str(verdict))}**" if verdict in ("pass", "fail") else escape(status or str(verdict))
    form = escape(
        f"{row.get('layout', '?')}, {row.get('direction') or '?'}, base {row.get('base')}"
        + (f", {row['scaling']}" if row.get("scaling") else "")
    )
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
    return [literal(name), library, shown, form, "; ".join(failing) or "none", escape(context) or "—"]


def conformance_page(app: Sphinx) -> str:
    """The conformance table of real libraries, or the adapters registry with how to generate the table."""
    from numeric.audit.adapters._registry import installed_version, list_adapters

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
    rows = [
        [
            literal(spec.name),
            escape(spec.library),
            escape(installed_version(spec) or "not installed"),
            escape(spec.layout),
            escape(spec.scaling_kind or "none"),
            "yes" if spec.needs_gpu else "no",
            escape(spec.wraps),
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


def write_audit_pages(app: Sphinx, generated: Path, plots: dict[str, Path]) -> None:
    """Write the audit guide's generated parts and the conformance page under `generated`."""
    _write(generated / "_parts" / "audit_properties.md", properties_part())
    _write(generated / "_parts" / "tolerance_policy.md", policy_part())
    examples, example_plots = examples_part(generated / "plots")
    plots.update(example_plots)
    _write(generated / "_parts" / "audit_examples.md", examples + "\n")
    _write(generated / "conformance.md", conformance_page(app))
