"""Precision: the sweep over every audited position and dtype against the policy bound; the certified context."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from ropecheck.numeric.audit._numerics import tolerances
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.attribution import NONFINITE_PREFIX, PRECISION_CLASS_PREFIX
from ropecheck.numeric.audit.function.calls import CallFailed, numpy_dtype
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    sweep_probes,
)
from ropecheck.numeric.audit.function.ideal import (
    Ideal,
    as_index,
    bound_ratio,
    round_to,
    structure_of,
)
from ropecheck.numeric.audit.function.session import Progress
from ropecheck.numeric.audit.properties.norm import check_norm
from ropecheck.numeric.audit.properties.sixteen_bit import measured_sixteen_bit

__all__ = ["CLAIMS", "NAME"]

NAME = "precision"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-FREQUENCIES", "ROPE-PAIR-FORMULA", "ROPE-RELATIVE-MATRIX")

#: The first integer bfloat16 cannot hold (it rounds 257 to 256).
BFLOAT16_FIRST_INEXACT = 257

# Probe elements per call in the sweep: keeps each call (and the float64 analysis of its output) around 100 MB.
SWEEP_ELEMENTS = 1 << 22


def check_precision(ctx: AuditContext, ideal: Ideal, dtypes: list[str]) -> None:
    n, d = ctx.n, ctx.d
    probes, _ = sweep_probes(d, structure_of(ideal))
    chunk = max(64, SWEEP_ELEMENTS // (3 * d))
    a, b = ideal.pairs[:, 0], ideal.pairs[:, 1]
    g = ideal.attention_factor
    a, b = as_index(a), as_index(b)
    state = {
        dtype: {
            "x": np.ascontiguousarray(
                np.broadcast_to(probes.astype(numpy_dtype(dtype))[:, np.newaxis, :], (3, chunk, d))
            ),
            "weights": sweep_weights(round_to(probes, dtype), ideal),
            "random": (round_to(probes, dtype)[2][a][np.newaxis, :], round_to(probes, dtype)[2][b][np.newaxis, :]),
            "kept": round_to(probes, dtype)[:, ideal.passthrough],
            "kept_bound": np.maximum(
                policy.passthrough_bound(round_to(probes, dtype)[:, ideal.passthrough], dtype),
                tolerances.underflow_error(dtype),
            ),
            "angle": np.zeros(n, dtype=np.float32),
            "matrix_error": np.zeros(n, dtype=np.float64),
            "worst": (0.0, 0.0, 0.0, 0),
            "first": None,
            "norm_worst": (0.0, 0.0, 0.0, 0),
            "norm_first": None,
            "raised": None,
            "nonfinite": (None, 0),
            "classes": policy.precision_classes(dtype)[1:],
            "class_worst": {},
            "class_norm_worst": {},
        }
        for dtype in dtypes
    }
    ctx.sweep_state = state
    with Progress(ctx.options.progress).running(n * len(dtypes)) as progress:
        for start in range(0, n, chunk):
            positions = np.arange(start, min(start + chunk, n))
            cosine, sine, frequencies = ideal.cos_sin(positions)
            gc, gs = g * cosine, g * sine
            for dtype in dtypes:
                s = state[dtype]
                if s["raised"] is not None:
                    continue
                x = s["x"][:, : positions.size]
                try:
                    # In the target's own float dtype: widened to float64 block by block (`_chunk_errors`).
                    y, _ = ctx.session.caller(dtype).call_widening(x, positions, dtype)
                except CallFailed as error:
                    s["raised"] = (int(positions[0]), error.reason)
                    continue
                progress.advance(positions.size, f"{dtype} positions {start}…{int(positions[-1])}")
                # One summing pass shows a chunk all finite (a sum is finite only if every term is); only when it is
                # not is each position looked at (the sum of finite float64 outputs near 1e308 may itself overflow).
                with np.errstate(over="ignore", invalid="ignore"):
                    all_finite = bool(np.isfinite(y.sum(dtype=np.float64)))
                if not all_finite:
                    y = y.astype(np.float64)
                finite = np.ones(positions.size, bool) if all_finite else np.isfinite(y).all(axis=(0, 2))
                if not finite.all():
                    # A non-finite output is its own contract finding (never explained by a precision class or
                    # a wrong θ); the rest of the sweep judges the finite positions only.
                    bad = positions[~finite]
                    s["nonfinite"] = (s["nonfinite"][0] or int(bad[0]), s["nonfinite"][1] + int(bad.size))
                    y = np.where(finite[np.newaxis, :, np.newaxis], y, _ideal_outputs(s, a, b, gc, gs, ideal))
                errors = _chunk_errors(
                    y, a, b, gc, gs, s["random"], s["weights"], ideal, positions, frequencies.hi, dtype
                )
                per_position = errors.per_position
                candidates = [(errors.basis, errors.beta), (errors.random, errors.beta_random)]
                if ideal.passthrough.size:
                    kept = y[:, :, ideal.passthrough].astype(np.float64)
                    kept_error = np.abs(kept - s["kept"][:, np.newaxis, :]).max(axis=0)
                    kept_bound = np.broadcast_to(s["kept_bound"].min(axis=0), kept_error.shape)
                    kept_ratio = bound_ratio(kept_error, kept_bound)
                    per_position = np.maximum(per_position, kept_ratio.max(axis=1))
                    candidates.append((kept_error, kept_bound))
                worst_index = int(np.argmax(per_position))
                if per_position[worst_index] > s["worst"][0]:
                    s["worst"] = worst_case(
                        per_position[worst_index],
                        int(positions[worst_index]),
                        [(errors[worst_index], bounds_[worst_index]) for errors, bounds_ in candidates],
                    )
                if s["first"] is None and per_position.max() > 1:
                    s["first"] = int(positions[int(np.argmax(per_position > 1))])
                if per_position.max() > 1:
                    _charge_classes(ideal, s, positions, frequencies.hi, dtype, errors.basis, errors.random, candidates)
                if ideal.passthrough.size:
                    passthrough_error = np.abs(kept[0] - 1).max(axis=1)
                else:
                    passthrough_error = np.zeros(positions.size)
                s["matrix_error"][positions] = np.where(finite, np.maximum(errors.block, passthrough_error), np.inf)
                # Angle error of each pair from the cross product of (cA, sA) with the ideal (gc, gs), about g²·sin of
                # the error: arcsin of the largest per position (capped at π/2; only the plot uses it).
                s["angle"][positions] = np.arcsin(np.minimum(np.nan_to_num(errors.cross, nan=1.0), 1.0))
                if errors.ratio_max <= 1:
                    # Every entry of every block within β of g·R(m): orthogonality within 2√2·g·β + 2β² follows
                    # (`policy.orthogonality_bound`), nothing to measure.
                    continue
                y = y.astype(np.float64, copy=False)
                ca, sa, cb, sb = y[0][:, a], y[0][:, b], y[1][:, b], -y[1][:, a]
                orthogonality = np.maximum(
                    np.maximum(np.abs(ca * ca + sa * sa - g * g), np.abs(sb * sb + cb * cb - g * g)),
                    np.abs(-ca * sb + sa * cb),
                )
                norm_bound = policy.orthogonality_bound(errors.beta, g)
                norm_ratio = bound_ratio(orthogonality, norm_bound).max(axis=1)
                k = int(np.argmax(norm_ratio))
                if norm_ratio[k] > s["norm_worst"][0]:
                    column = int(np.argmax(bound_ratio(orthogonality[k], norm_bound[k])))
                    s["norm_worst"] = (
                        float(norm_ratio[k]),
                        float(orthogonality[k, column]),
                        float(norm_bound[k, column]),
                        int(positions[k]),
                    )
                if s["norm_first"] is None and norm_ratio.max() > 1:
                    s["norm_first"] = int(positions[int(np.argmax(norm_ratio > 1))])
                if norm_ratio.max() > 1:
                    _charge_norm_classes(ideal, s, positions, frequencies.hi, dtype, orthogonality)
    for dtype in dtypes:
        sweep_findings(ctx, ideal, dtype, state[dtype])


# Rows of one chunk analysed at a time (pairs × rows about this many elements): the dozen temporaries of a block
# stay in the processor's cache instead of streaming through memory once per operation.
_BLOCK_ELEMENTS = 1 << 15


@dataclasses.dataclass
class _ChunkErrors:
    """The sweep's measurements of one chunk (L positions × n pairs): entry errors of the basis probes and of the
    random probe with their bounds (`(L, n)`), per position the worst error/bound ratio (NaN as inf), the largest
    2×2 block error and the largest |cross product| / g² (the angle error's sine), and the largest ratio."""

    basis: np.ndarray
    random: np.ndarray
    beta: np.ndarray
    beta_random: np.ndarray
    per_position: np.ndarray
    block: np.ndarray
    cross: np.ndarray
    ratio_max: float


def _chunk_errors(
    y: np.ndarray,
    a: Any,
    b: Any,
    gc: np.ndarray,
    gs: np.ndarray,
    random: tuple[np.ndarray, np.ndarray],
    weights: np.ndarray,
    ideal: Ideal,
    positions: np.ndarray,
    thetas: np.ndarray,
    dtype: str,
) -> _ChunkErrors:
    """Errors of the three sweep probes' outputs `y` `(3, L, d)` against g·R(m) with their policy bounds (`weights`:
    `sweep_weights`), computed block by block of rows (`y` in any dtype that widens to float64 exactly, widened
    one block at a time)."""
    length, count = gc.shape
    g = ideal.attention_factor
    ra, rb = random
    basis, random_error = np.empty((length, count)), np.empty((length, count))
    bounds = np.empty((2, length, count))
    per_position, block, cross = np.empty(length), np.empty(length), np.empty(length)
    ratio_max = 0.0
    step = max(1, _BLOCK_ELEMENTS // max(count, 1))
    for start in range(0, length, step):
        rows = slice(start, start + step)
        block_gc, block_gs = gc[rows], gs[rows]
        block_y = y[:, rows].astype(np.float64)  # exact: every kept output dtype widens to float64 exactly
        ca, sa, cb = block_y[0][:, a], block_y[0][:, b], block_y[1][:, b]
        # dc is −(sB − g·sin): only its magnitude is used.
        da, db, dc, dd = ca - block_gc, sa - block_gs, block_y[1][:, a] + block_gs, cb - block_gc
        bounds[:, rows] = ideal.bound(weights, positions[rows], thetas, dtype)
        error = np.abs(block_y[2][:, a] - (ra * block_gc - rb * block_gs))
        np.maximum(error, np.abs(block_y[2][:, b] - (ra * block_gs + rb * block_gc)), out=error)
        random_error[rows] = error
        # The 2×2 block of every pair from probes A and B: columns (cA, sA) and (−sB, cB); its largest error per
        # position (sqrt is monotone: the root of the largest square sum).
        square = da * da
        for difference in (db, dc, dd):
            square += difference * difference
        block[rows] = np.sqrt(square.max(axis=1))
        entry = np.abs(da)
        for difference in (db, dc, dd):
            np.maximum(entry, np.abs(difference), out=entry)
        basis[rows] = entry
        ratio = np.maximum(entry / bounds[0, rows], error / bounds[1, rows])
        if not np.isfinite(ratio).all():
            ratio = np.nan_to_num(ratio, nan=np.inf)
        per_position[rows] = ratio.max(axis=1)
        ratio_max = max(ratio_max, float(per_position[rows].max()))
        with np.errstate(invalid="ignore"):
            cross[rows] = np.abs(sa * block_gc - ca * block_gs).max(axis=1) / (g * g)
    return _ChunkErrors(basis, random_error, bounds[0], bounds[1], per_position, block, cross, ratio_max)


def _ideal_outputs(s: dict[str, Any], a: Any, b: Any, gc: np.ndarray, gs: np.ndarray, ideal: Ideal) -> np.ndarray:
    """The exact outputs of the three sweep probes (stand-ins for non-finite rows: zero error there)."""
    ra, rb = s["random"]
    out = np.zeros((3, gc.shape[0], s["x"].shape[-1]))
    out[0][:, a], out[0][:, b], out[1][:, a], out[1][:, b] = gc, gs, -gs, gc
    out[2][:, a], out[2][:, b] = ra * gc - rb * gs, ra * gs + rb * gc
    if ideal.passthrough.size:
        out[:, :, ideal.passthrough] = s["kept"][:, np.newaxis, :]
    return out


def _class_bounds(ideal: Ideal, s: dict[str, Any], positions: np.ndarray, thetas: np.ndarray, dtype: str):
    for precision in s["classes"]:
        bounds = policy.output_bound(
            s["weights"],
            positions + ideal.offset,
            thetas,
            dtype,
            theta_units=ideal.theta_units,
            attention_factor=ideal.attention_factor,
            precision=precision,
        )
        yield precision, bounds


def _charge_classes(
    ideal: Ideal,
    s: dict[str, Any],
    positions: np.ndarray,
    thetas: np.ndarray,
    dtype: str,
    basis_error: np.ndarray,
    random_error: np.ndarray,
    candidates: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    """For a chunk over the policy bound: the worst ratio under each coarser precision class (root causes)."""
    kept = [bound_ratio(errors, bounds).max() for errors, bounds in candidates[2:]]
    for precision, bounds in _class_bounds(ideal, s, positions, thetas, dtype):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.nan_to_num(np.maximum(basis_error / bounds[0], random_error / bounds[1]), nan=np.inf)
        worst = max([float(ratio.max()), *kept])
        s["class_worst"][precision.name] = max(s["class_worst"].get(precision.name, 0.0), worst)


def _charge_norm_classes(
    ideal: Ideal, s: dict[str, Any], positions: np.ndarray, thetas: np.ndarray, dtype: str, orthogonality: np.ndarray
) -> None:
    for precision, bounds in _class_bounds(ideal, s, positions, thetas, dtype):
        ratio = float(bound_ratio(orthogonality, policy.orthogonality_bound(bounds[0], ideal.attention_factor)).max())
        s["class_norm_worst"][precision.name] = max(s["class_norm_worst"].get(precision.name, 0.0), ratio)


def classify(s: dict[str, Any], dtype: str) -> policy.PrecisionClass | None:
    """The finest precision class whose bound holds the whole sweep (the policy when it does), or None: then the
    deviation is not a precision matter (wrong mathematics)."""
    classes = policy.precision_classes(dtype)
    if s["worst"][0] <= 1:
        return classes[0]
    fitting = [c for c in classes[1:] if s["class_worst"].get(c.name, np.inf) <= 1]
    # Measured, not "the next looser class": positions exact up to 256 and off from 257 on are bfloat16's (float16
    # holds every integer up to 2048), even when the float16 class's bound would also hold them.
    if s["first"] == BFLOAT16_FIRST_INEXACT:
        fitting.sort(key=lambda c: c.angle_dtype != "bfloat16")
    return fitting[0] if fitting else None


def sweep_findings(ctx: AuditContext, ideal: Ideal, dtype: str, s: dict[str, Any]) -> None:
    n = ctx.n
    angle_dtype = policy.accepted_angle_dtype(dtype)
    ratio, error, bound, where = s["worst"]
    if s["raised"] is not None:
        position, reason = s["raised"]
        ctx.add(
            "precision",
            False,
            f"Could not call the target for positions from {position} (it raised {reason}); positions up to"
            f" {position - 1} were audited. This says nothing about the mathematics.",
            status="could not call",
            fix=f"accept every position below --max-position, or audit with --max-position {position}",
            dtype=dtype,
        )
        s["matrix_error"][position:] = np.inf
    elif ratio <= 1:
        ctx.precision_class[dtype] = policy.precision_classes(dtype)[0]
        ctx.add(
            "precision",
            True,
            f"Every output within the policy bound at all positions 0…{n - 1} (angles formed in {angle_dtype} or"
            f" better; worst error/bound {ratio:.3g} at position {where}"
            + ("; the bound is loose here)." if ratio < 1e-3 else ")."),
            dtype=dtype,
            max_error=error,
            bound=bound,
            position=where,
        )
    else:
        first = s["first"]
        found = classify(s, dtype)
        where_text = f"from position {first} on (worst: off by {error:.3g} against {bound:.3g} at position {where})"
        multiple = (
            f"; the observed error is up to {ratio:.3g}× the policy bound (θ by pow per pair, angles in {angle_dtype})"
        )
        if found is not None and found.accepted:
            ctx.precision_class[dtype] = found
            ctx.add(
                "precision",
                True,
                f"{PRECISION_CLASS_PREFIX} {found.name}, accepted by the policy (every operation in {angle_dtype}):"
                f" outputs stay within its bound at every position 0…{n - 1}{multiple}.",
                dtype=dtype,
                max_error=error,
                bound=bound,
                position=where,
            )
        elif found is not None:
            ctx.precision_class[dtype] = found
            measured = measured_sixteen_bit(ctx, ideal, dtype) if found.angle_dtype in ("float16", "bfloat16") else None
            named = found.name if measured is None else f"{found.name} — measured: {measured[0]}"
            detail = (
                f"{PRECISION_CLASS_PREFIX} {named}. Outputs leave the policy bound {where_text}, and stay within"
                f" the bound of {found.name} at every position 0…{n - 1}; the policy asks for angles formed in"
                f" {angle_dtype} for {dtype} outputs{multiple}"
            )
            fix = found.fix if measured is None else measured[1]
        else:
            detail = (
                f"Outputs leave the policy bound {where_text}, beyond what any precision class explains; the"
                f" policy accepts angles formed in {angle_dtype} for {dtype} outputs"
            )
            fix = "rotate position p by exactly p·θᵢ (check the positions, θ and the cos/sin table)"
        if found is None or not found.accepted:
            if first is not None and first > 0:
                hint = precision_hint(first)
                detail += f"; {hint}" if hint else ""
            ctx.add(
                "precision", False, detail + ".", fix=fix, dtype=dtype, max_error=error, bound=bound, position=first
            )
    if s["nonfinite"][0] is not None:
        _nonfinite_finding(ctx, dtype, *s["nonfinite"])
    if s["raised"] is None:
        check_norm(ctx, ideal, dtype, s)
    certified = policy.certified_position(s["matrix_error"], ctx.d, dtype, ctx.options.budget, ideal.attention_factor)
    ctx.certified[dtype] = {
        "largest_position": certified,
        "all_audited": certified == n - 1,
        "budget": ctx.options.budget,
        "max_matrix_error": float(np.max(s["matrix_error"])) if n else 0.0,
    }
    ctx.angle_error[dtype] = s["angle"]
    info = ctx.dtype_info[dtype]
    info.update(max_error=error, bound=bound, ratio=ratio, angle_dtype_accepted=angle_dtype)


def _nonfinite_finding(ctx: AuditContext, dtype: str, first: int, count: int) -> None:
    """The contract finding of non-finite outputs in the sweep: a root cause of its own, never explained."""
    ctx.nonfinite_from[dtype] = first
    detail = (
        f"{NONFINITE_PREFIX} {count} of {ctx.n} audited positions, the first at position {first};"
        f" the other properties were judged on positions 0…{first - 1}"
    )
    fix = "keep every output finite (check the positions' dtype range and divisions)"
    if 65505 <= first <= 65520:
        detail += "; float16 rounds every position from 65520 on to inf (positions held in float16?)"
        fix = "hold positions in float32 or wider: float16 rounds positions from 65520 on to inf"
    ctx.add("contract", False, detail + ".", fix=fix, dtype=dtype, position=first)


# -- state --------------------------------------------------------------------------------------------


def sweep_weights(probes: np.ndarray, ideal: Ideal) -> np.ndarray:
    """|x₁| + |x₂| per pair: 1 for the basis probes A and B, the random probe's own for R; shape `(2, 1, n)`."""
    a, b = ideal.pairs[:, 0], ideal.pairs[:, 1]
    random = np.abs(probes[2][a]) + np.abs(probes[2][b])
    return np.stack([np.ones_like(random), random])[:, np.newaxis, :]


def worst_case(ratio: float, position: int, candidates: list[tuple[np.ndarray, np.ndarray]]) -> tuple:
    """(ratio, error, bound, position) of the worst coordinate among (error, bound) rows of one position."""
    best = (-1.0, 0.0, 0.0)
    for errors, bounds in candidates:
        ratios = bound_ratio(errors, bounds)
        k = int(np.argmax(ratios))
        if ratios[k] > best[0]:
            best = (float(ratios[k]), float(errors[k]), float(bounds[k]))
    return (float(ratio), best[1], best[2], position)


def precision_hint(first: int) -> str:
    for dtype, limit in (("bfloat16", 256), ("float16", 2048)):
        if limit < first <= limit + 1:
            return f"position {first} is the first one {dtype} cannot hold exactly (positions or angles in {dtype}?)"
    if first == 65505:
        return "position 65505 is beyond float16's largest value (positions in float16?)"
    return ""
