"""The report's plots: angle error against position, and the certified context per dtype."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from numeric.audit.results import AuditReport

__all__ = ["plot_angle_error", "plot_certified"]


def plot_angle_error(report: AuditReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for dtype, errors in report.angle_error.items():
        positions = np.arange(errors.size)
        step = max(1, errors.size // 4000)
        # Keep the running maximum of each stride so the thinned curve does not hide spikes.
        shown = np.maximum.reduceat(errors, np.arange(0, errors.size, step)) if errors.size else errors
        axes.plot(positions[::step][: shown.size], np.maximum(shown, 1e-18), label=dtype, linewidth=0.8)
    axes.set_yscale("log")
    axes.set_xlabel("position m")
    axes.set_ylabel("largest angle error over pairs (rad)")
    axes.set_title(f"angle error vs position — {report.target}")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_certified(report: AuditReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    names = list(report.certified)
    values = [max(report.certified[name]["largest_position"], 0) + 1 for name in names]
    axes.bar(names, values, color=["tab:green" if report.certified[n]["all_audited"] else "tab:orange" for n in names])
    axes.axhline(report.max_position, color="grey", linestyle="--", linewidth=0.8, label="audited context")
    axes.set_yscale("log")
    axes.set_ylabel("certified context length")
    budget = next(iter(report.certified.values()))["budget"] if report.certified else 0
    axes.set_title(f"largest certified position + 1 (score budget {budget:.3g})")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
