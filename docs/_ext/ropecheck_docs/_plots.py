"""Figures made at build time from numbers computed here (NumPy in each dtype via ml_dtypes, mpmath as reference).

The error bounds drawn come from `ropecheck.numeric.reference.tolerances`, the same model the tests and the auditor use:

- `decay_bound.png`: RoFormer's long-term decay factor B(Δ) = (1/(d/2))·Σⱼ|Sⱼ| for d = 128, computed in float16,
  bfloat16, float32 and float64 and checked against mpmath, with each dtype's error beside its bound.
- `dot_product_far.png`: the sinusoidal dot product PE(p)·PE(p+Δ) and a RoPE score out to Δ = 10⁶: it keeps
  oscillating with amplitude of order d/2 and does not tend to zero.
- `relative_identity.png`: the error of ⟨R̂ₘq, R̂ₘ₊₈k⟩ against qᵀR(8)k with everything computed in each dtype,
  beside the tolerance-model bound, with the score budget and the certified positions marked.
"""

from __future__ import annotations

import io
from pathlib import Path

import ml_dtypes
import mpmath
import numpy as np

D = 128
BASE = 10000.0
DTYPES = ("float16", "bfloat16", "float32", "float64")
COLORS = {"float16": "tab:red", "bfloat16": "tab:orange", "float32": "tab:blue", "float64": "tab:green"}
RELATIVE_OFFSET = 8
# Which figures illustrate which claims (shown on those claim pages); IDs are checked against the ledger.
FIGURE_CLAIMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "decay_bound": (
        "RoFormer's decay factor B(Δ) for d = 128 in each dtype against mpmath (top); each dtype's error beside "
        "the tolerance-model bound (bottom).",
        ("ROPE-DECAY-BOUND", "ROPE-DECAY-BOUND-MONOTONE", "ROPE-DECAY-TO-ZERO"),
    ),
    "dot_product_far": (
        "The sinusoidal dot product and a RoPE score (d = 128) out to distance 10⁶: the oscillation does not die "
        "out, so neither tends to zero.",
        ("ROPE-DECAY-TO-ZERO", "ROPE-DECAY-MONOTONE", "SPE-DOT-NONMONOTONE", "SPE-DOT-AVERAGES-OUT"),
    ),
    "relative_identity": (
        "Error of the relative identity ⟨R̂ₘq, R̂ₘ₊₈k⟩ = qᵀR(8)k computed entirely in each dtype, with the "
        "tolerance-model bound (dashed), the score budget 2⁻⁶ and the last certified position (dotted).",
        ("ROPE-RELATIVE-MATRIX", "ROPE-QK-RELATIVE", "ROPE-KV-CACHE-REUSE"),
    ),
}


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype for a dtype name (bfloat16 from ml_dtypes)."""
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def thetas(d: int = D, base: float = BASE) -> np.ndarray:
    """θᵢ = base^(−2i/d), i = 0 … d/2 − 1, in float64 (the same formula as ROPE-FREQUENCIES)."""
    return base ** (-2.0 * np.arange(d // 2) / d)


# ------------------------------------------------------------------------------------------------ numbers
def decay_factor(distances: np.ndarray, dtype: str) -> np.ndarray:
    """B(Δ) = (1/(d/2))·Σⱼ|Sⱼ|, Sⱼ = Σ_(k<j) e^(iΔθₖ), computed entirely in `dtype`; returned as float64."""
    t = numpy_dtype(dtype)
    angle = distances.astype(t)[:, None] * thetas().astype(t)[None, :]
    real = np.cumsum(np.cos(angle), axis=1, dtype=t)
    imag = np.cumsum(np.sin(angle), axis=1, dtype=t)
    modulus = np.sqrt(real * real + imag * imag)
    return (np.sum(modulus, axis=1, dtype=t) / t.type(D // 2)).astype(np.float64)


def decay_factor_mpmath(distance: int, dps: int = 30) -> float:
    """B(Δ) with mpmath at `dps` digits."""
    with mpmath.workdps(dps):
        total, partial = mpmath.mpf(0), mpmath.mpc(0)
        for i in range(D // 2):
            partial += mpmath.expj(distance * mpmath.power(BASE, mpmath.mpf(-2 * i) / D))
            total += abs(partial)
        return float(total / (D // 2))


def cosine_sum(distances: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Σᵢ hᵢ·cos(Δθᵢ) in float64 (the sinusoidal dot product for h = 1)."""
    weights = np.ones(D // 2) if weights is None else weights
    return np.cos(distances.astype(np.float64)[:, None] * thetas()[None, :]) @ weights


def rope_score(distances: np.ndarray, q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """⟨R_m q, R_(m+Δ) k⟩ = Re Σᵢ q̄ᵢ kᵢ e^(iΔθᵢ) for interleaved pairs, in float64 (independent of m)."""
    qc, kc = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    phases = np.exp(1j * distances.astype(np.float64)[:, None] * thetas()[None, :])
    return np.real(phases @ (np.conj(qc) * kc))


def relative_identity_error(positions: np.ndarray, dtype: str, q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """|⟨R̂ₘq, R̂ₘ₊δk⟩ − qᵀR(δ)k| with angles, rotations and the score all in `dtype` (q, k as held in it)."""
    t = numpy_dtype(dtype)
    qt, kt = q.astype(t), k.astype(t)
    theta_t = thetas().astype(t)

    def rotate(x: np.ndarray, at: np.ndarray) -> np.ndarray:
        angle = at.astype(t)[:, None] * theta_t[None, :]
        c, s = np.cos(angle), np.sin(angle)
        x1, x2 = x[0::2][None, :], x[1::2][None, :]
        out = np.empty((at.size, D), dtype=t)
        out[:, 0::2], out[:, 1::2] = x1 * c - x2 * s, x1 * s + x2 * c
        return out

    with np.errstate(invalid="ignore", over="ignore"):
        score = np.sum(rotate(qt, positions) * rotate(kt, positions + RELATIVE_OFFSET), axis=1, dtype=t)
    exact = rope_score(np.array([RELATIVE_OFFSET]), qt.astype(np.float64), kt.astype(np.float64))[0]
    return np.abs(score.astype(np.float64) - exact)


# ------------------------------------------------------------------------------------------------ figures
def _save(figure: object, path: Path) -> None:
    """Save a PNG, leaving the file untouched when the bytes are the same (Sphinx rebuilds by mtime)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})  # type: ignore[attr-defined]
    plt.close(figure)  # type: ignore[arg-type]
    data = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def plot_decay_bound(path: Path) -> None:
    """`decay_bound.png` (see the module docstring)."""
    import matplotlib.pyplot as plt
    from ropecheck.numeric.reference.tolerances import partial_sums_modulus_bound

    distances = np.arange(0, 2049)
    sampled = distances[::16]
    reference = np.array([decay_factor_mpmath(int(r)) for r in sampled])
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True, height_ratios=(3, 2))
    for dtype in DTYPES:
        values = decay_factor(distances, dtype)
        top.plot(distances, values, color=COLORS[dtype], linewidth=0.8, label=dtype)
        error = np.abs(values[::16] - reference)
        bound = np.array([partial_sums_modulus_bound(int(r), thetas(), dtype) for r in sampled]) / (D // 2)
        bottom.semilogy(sampled, np.maximum(error, 1e-18), ".", color=COLORS[dtype], markersize=3)
        bottom.semilogy(sampled, bound, "--", color=COLORS[dtype], linewidth=0.8)
    top.plot(sampled, reference, "k+", markersize=4, label="mpmath (30 digits)")
    # The kernel's counterexample of ROPE-DECAY-BOUND-MONOTONE at d = 128: B(183) > B(179), in a zoomed inset.
    inset = top.inset_axes((0.55, 0.45, 0.4, 0.45))
    near = np.arange(170, 191)
    near_values = np.array([decay_factor_mpmath(int(r)) for r in near])
    inset.plot(near, near_values, "k.-", linewidth=0.6, markersize=3)
    for delta in (179, 183):
        value = decay_factor_mpmath(delta)
        inset.plot([delta], [value], "o", color="#c62828", markersize=5)
        inset.annotate(f"B({delta}) = {value:.4f}", (delta, value), textcoords="offset points",
                       xytext=(4, -12 if delta == 179 else 6), fontsize=7)
    inset.set_title("Δ = 170…190: B(183) > B(179) (kernel-checked)", fontsize=7)
    inset.tick_params(labelsize=6)
    top.set_ylabel("B(Δ) = (2/d) Σⱼ |Sⱼ|")
    top.set_title("RoFormer long-term decay factor, d = 128, base 10000")
    # Upper left, beside the tall start of the curve and clear of the inset on the right.
    top.legend(ncol=2, fontsize=8, loc="upper left", bbox_to_anchor=(0.07, 1.0))
    bottom.set_xlabel("relative distance Δ")
    bottom.set_ylabel("|computed − mpmath| (dots)\nbound (dashed)")
    figure.tight_layout()
    _save(figure, path)


def plot_dot_product_far(path: Path) -> None:
    """`dot_product_far.png` (see the module docstring)."""
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(20240611)
    q, k = rng.standard_normal(D), rng.standard_normal(D)
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    windows = [(0, 2000), (10_000, 12_000), (100_000, 102_000), (998_000, 1_000_000)]
    figure, axes = plt.subplots(2, len(windows), figsize=(11, 5.5), sharey="row")
    for column, (start, stop) in enumerate(windows):
        distances = np.arange(start, stop + 1)
        rows = [
            (cosine_sum(distances), "PE(p)·PE(p+Δ)"),
            (rope_score(distances, q, k) / scale * (D // 2), "RoPE score × (d/2)/(‖q‖‖k‖)"),
        ]
        for row, (values, label) in enumerate(rows):
            axis = axes[row][column]
            axis.plot(distances, values, linewidth=0.5, color="tab:blue" if row == 0 else "tab:purple")
            axis.axhline(0, color="grey", linewidth=0.6)
            axis.set_title(
                f"Δ ∈ [{start:,}, {stop:,}]\nmax |·| = {np.max(np.abs(values[1:] if start == 0 else values)):.1f}",
                fontsize=8,
            )
            axis.tick_params(labelsize=7)
            if column == 0:
                axis.set_ylabel(label, fontsize=8)
    figure.suptitle("d = 128, base 10000: the dot product keeps oscillating at distance 10⁶ (it does not tend to 0)")
    figure.tight_layout()
    _save(figure, path)


def plot_relative_identity(path: Path) -> None:
    """`relative_identity.png` (see the module docstring)."""
    import matplotlib.pyplot as plt
    from ropecheck.numeric.audit.function.policy import DEFAULT_SCORE_BUDGET
    from ropecheck.numeric.reference.tolerances import (
        exact_integer_limit,
        largest_position_within,
        relative_score_bound,
    )

    rng = np.random.default_rng(7)
    q, k = rng.standard_normal(D), rng.standard_normal(D)
    q, k = q / np.linalg.norm(q), k / np.linalg.norm(k)
    positions = np.unique(np.concatenate([np.geomspace(1, 2**21, 320).astype(np.int64), [255, 256, 257, 2048, 2049]]))
    figure, axis = plt.subplots(figsize=(9, 5))
    for dtype in DTYPES:
        error = relative_identity_error(positions, dtype, q, k)
        bound = np.array(
            [relative_score_bound(1.0, 1.0, int(m), int(m) + RELATIVE_OFFSET, thetas(), dtype) for m in positions]
        )
        certified = largest_position_within(DEFAULT_SCORE_BUDGET, thetas(), dtype)
        note = "none" if certified < 0 else f"m ≤ {certified:,}"
        finite = np.isfinite(error)
        axis.loglog(
            positions[finite],
            np.maximum(error[finite], 1e-18),
            ".",
            markersize=3,
            color=COLORS[dtype],
            label=f"{dtype} error (certified: {note})",
        )
        shown = np.isfinite(bound)
        axis.loglog(positions[shown], bound[shown], "--", linewidth=0.8, color=COLORS[dtype])
        if 0 < certified <= positions[-1]:
            axis.axvline(certified, color=COLORS[dtype], linestyle=":", linewidth=1.0)
            axis.annotate(
                f"{dtype} certified ≤ {certified:,}",
                (certified, 1e-16),
                rotation=90,
                fontsize=7,
                color=COLORS[dtype],
                ha="right",
                va="bottom",
            )
        limit = exact_integer_limit(dtype)
        if limit <= positions[-1]:
            axis.plot([limit], [1e-17], marker="^", color=COLORS[dtype], markersize=6)
    axis.axhline(DEFAULT_SCORE_BUDGET, color="black", linewidth=0.8, label="score budget 2⁻⁶")
    axis.set_xlabel("query position m (key at m + 8); ▲ last exactly representable integer")
    axis.set_ylabel("|score − qᵀR(8)k| for unit q, k")
    axis.set_title("ROPE-RELATIVE-MATRIX in finite precision: error vs position (dashed: bound)")
    axis.set_ylim(1e-18, 1e2)
    axis.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    _save(figure, path)


def make_plots(directory: Path) -> dict[str, Path]:
    """Make every figure of this module into `directory`; returns name → path."""
    import matplotlib

    matplotlib.use("Agg")
    made = {}
    for name, function in (
        ("decay_bound", plot_decay_bound),
        ("dot_product_far", plot_dot_product_far),
        ("relative_identity", plot_relative_identity),
    ):
        path = directory / f"{name}.png"
        function(path)
        made[name] = path
    return made


def claim_figures(plots: dict[str, Path], known_ids: set[str]) -> dict[str, list[tuple[str, str]]]:
    """Claim ID → `(image path relative to the docs source dir, caption)` for the figures that illustrate it.

    **Raises:**

    `KeyError` when a figure names a claim ID the ledger does not have (a renamed claim must be renamed here).
    """
    out: dict[str, list[tuple[str, str]]] = {}
    for name, (caption, claim_ids) in FIGURE_CLAIMS.items():
        unknown = sorted(set(claim_ids) - known_ids)
        if unknown:
            raise KeyError(f"figure {name!r} illustrates unknown claim IDs {unknown}")
        for claim_id in claim_ids:
            out.setdefault(claim_id, []).append((f"generated/plots/{plots[name].name}", caption))
    return out
