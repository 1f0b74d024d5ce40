"""The report's plots: the angle error against position (log-x, so the onsets at 257 and 2049 — the first
positions bfloat16 and float16 cannot hold — are visible), and the certified context per dtype as labelled
horizontal bars."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from ropecheck.numeric.audit.function.results import AuditReport

__all__ = ["plot_angle_error", "plot_certified"]

_ONSETS = {257: "257 (bfloat16)", 2049: "2049 (float16)", 65505: "65505 (> float16 max)"}


def plot_angle_error(report: AuditReport, path: Path) -> None:
    """Largest angle error over pairs against position, per dtype, log-log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for dtype, errors in report.angle_error.items():
        positions = np.arange(1, errors.size)
        values = np.maximum(errors[1:], 1e-18)
        # Log-spaced samples, each the running maximum of its stretch so spikes are not hidden.
        edges = np.unique(np.geomspace(1, max(errors.size - 1, 2), 2000).astype(int))
        shown = np.maximum.reduceat(values, edges - 1) if values.size else values
        axes.plot(positions[edges - 1][: shown.size], shown, label=dtype, linewidth=0.9)
    for position, label in _ONSETS.items():
        if position < report.max_position:
            axes.axvline(position, color="grey", linestyle=":", linewidth=0.8)
            # Labelled above the plot area (x in data, y in axes coordinates), never on top of a curve.
            axes.text(position, 1.01, label, transform=axes.get_xaxis_transform(), va="bottom", ha="center",
                      fontsize=7, color="dimgrey")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("position m (log)")
    axes.set_ylabel("largest angle error over pairs (rad)")
    axes.set_title(f"angle error vs position — {report.target}", pad=16)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_certified(report: AuditReport, path: Path) -> None:
    """Certified context length per dtype: one labelled horizontal bar each, against the audited context."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(report.certified)
    values = [max(report.certified[name]["largest_position"], -1) + 1 for name in names]
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(names) + 1.4))
    colours = ["tab:green" if value >= report.max_position else "tab:orange" for value in values]
    axes.barh(names, [max(v, 1) for v in values], color=colours)
    for index, value in enumerate(values):
        text = "all audited" if value >= report.max_position else f"{value} positions"
        axes.text(max(value, 1), index, f" {text}", va="center", fontsize=9)
    axes.axvline(report.max_position, color="grey", linestyle="--", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_xlim(1, report.max_position * 8)
    axes.set_xlabel(f"certified context length (audited: {report.max_position}; dashed)")
    budget = next(iter(report.certified.values()))["budget"] if report.certified else 0
    axes.set_title(f"certified context at score budget {budget:.3g}")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
