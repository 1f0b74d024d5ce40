"""Generated parts of the audit guide (properties, tolerance policy, worked examples); the conformance page is
written by `_conformance_page`.

The property list and the claims each bears on come from `numeric.audit.properties`; the tolerance policy is the
docstring of `numeric.audit.function.policy`; the worked examples are real audits of `audit_examples` run at build time.
"""

from __future__ import annotations

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
    from ropecheck.numeric.audit.properties import CLAIMS, PROPERTIES

    missing = [name for name in PROPERTIES if name not in PROPERTY_EXPLANATIONS]
    if missing:
        raise KeyError(f"audit properties without an explanation in the docs: {missing}")
    rows = [
        [literal(name), escape(PROPERTY_EXPLANATIONS[name]), ", ".join(claim_ref(c) for c in CLAIMS.get(name, ()))]
        for name in PROPERTIES
    ]
    return list_table(["property", "what is checked", "claims it bears on"], rows, widths=[12, 58, 30]) + "\n"


def policy_part() -> str:
    """The tolerance policy: the docstring of `numeric.audit.function.policy`, headings moved under the guide's
    section."""
    import ropecheck.numeric.audit.function.policy as policy

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
    from ropecheck.numeric.audit import audit

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
            # "conforms"/"fails": an audit is evidence about one implementation, not a kernel-checked proof.
            f"Verdict: {verdict_badge('conforms' if report.ok else 'fails')} **{report.verdict}** — layout "
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
        from ropecheck.numeric.audit.report.markdown import certified_text

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


def write_audit_pages(app: Sphinx, generated: Path, plots: dict[str, Path]) -> None:
    """Write the audit guide's generated parts and the conformance page under `generated`."""
    _write(generated / "_parts" / "audit_properties.md", properties_part())
    _write(generated / "_parts" / "tolerance_policy.md", policy_part())
    examples, example_plots = examples_part(generated / "plots")
    plots.update(example_plots)
    _write(generated / "_parts" / "audit_examples.md", examples + "\n")
    from ._conformance_page import conformance_page

    _write(generated / "conformance.md", conformance_page(app))
